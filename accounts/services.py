"""Writes: guests, registration, login, tokens, bot accounts and their tokens, websocket
tickets, bans, erasure and the staff audit log."""

from __future__ import annotations

import logging
import secrets
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.fair_play import ban_length, offence_level, parse_steps
from accounts.guest_names import GUEST_WORDS
from accounts.locks import player_lock, seed_pairs_lock
from accounts.models import (
    SEED_BYTES,
    AuthToken,
    BotToken,
    ChallengesFrom,
    ChatShown,
    Offence,
    Player,
    QueueBan,
    SeedPair,
    StaffAction,
    StaffActionKind,
)
from accounts.selectors import (
    active_player_get,
    bot_player_get,
    offences_since,
    player_get_by_username,
)
from accounts.signals import player_banned, player_erased, player_presence_changed
from core.errors import ApplicationError
from core.logs import send_logged
from core.redis import get_redis
from core.sockets import player_sockets_group, send_to_group

logger = logging.getLogger(__name__)

_WS_TICKET_KEY = "yaniv:ws-ticket:{}"


def guest_name_generate(language: str = "en") -> str:
    """A friendly name in `language` (English if not one of ours) such as "Brave Otter 42" or
    "ינשוף אמיץ 42"; not unique, display names never are."""
    words = GUEST_WORDS.get(language, GUEST_WORDS["en"])
    rng = secrets.SystemRandom()
    adjective, animal = rng.choice(words.adjectives), rng.choice(words.animals)
    first, second = (animal, adjective) if words.animal_first else (adjective, animal)
    return f"{first} {second} {rng.randint(10, 99)}"


def _token_expiry(now: datetime) -> datetime:
    return now + timedelta(days=settings.ACCOUNTS_TOKEN_TTL_DAYS)


def auth_token_issue(*, player: Player, user_agent: str = "") -> str:
    """A new bearer token for `player`; the raw value exists only in this return value."""
    raw = secrets.token_urlsafe(32)
    now = timezone.now()
    AuthToken.objects.create(
        player=player,
        key_hash=AuthToken.hash(raw),
        created_at=now,
        last_used_at=now,
        expires_at=_token_expiry(now),
        user_agent=user_agent[:200],
    )
    return raw


def auth_token_touch(*, token: AuthToken) -> None:
    """Slide the expiry forward, but write at most once per ACCOUNTS_TOKEN_TOUCH_SECONDS: an
    active client would otherwise turn every read into a write."""
    now = timezone.now()
    if now - token.last_used_at < timedelta(seconds=settings.ACCOUNTS_TOKEN_TOUCH_SECONDS):
        return
    token.last_used_at = now
    token.expires_at = _token_expiry(now)
    AuthToken.objects.filter(pk=token.pk).update(
        last_used_at=token.last_used_at, expires_at=token.expires_at
    )


def auth_token_revoke(*, token: AuthToken) -> None:
    """Log out: the token, and with it every websocket ticket it was used to get
    (ws_ticket_redeem), stops working."""
    AuthToken.objects.filter(pk=token.pk).delete()


# Bot accounts and their tokens (docs/bots.md) -----------------------------------------------

BOT_TOKENS_MAX = 20


def player_make_bot(*, player: Player, description: str = "") -> tuple[Player, BotToken, str]:
    """The registered account, locked by the caller (`player_lock`) and found eligible by it
    (it never finished a game: players/services.py asks games), becomes a bot for good: its
    login tokens are revoked (a bot signs in with bot tokens only) and its first bot token,
    "default", is made; anyone may challenge it. Returns the bot, the token and its value."""
    if player.is_guest:
        raise ApplicationError("guest", _("Register first: a bot is a registered account."), 403)
    if player.is_bot:
        raise ApplicationError("not_eligible", _("This account is already a bot."), 409)
    if player.is_staff:
        raise ApplicationError("not_eligible", _("A staff account cannot become a bot."), 409)
    player.is_bot = True
    player.bot_description = description
    player.challenges_from = ChallengesFrom.EVERYONE
    player.save(update_fields=["is_bot", "bot_description", "challenges_from"])
    AuthToken.objects.filter(player=player).delete()
    token, raw = bot_token_create(player=player, name="default")
    return player, token, raw


def _not_bot() -> ApplicationError:
    return ApplicationError(
        "not_bot", _("Only a bot account has this (POST /api/v1/bot/upgrade/)."), 409
    )


@transaction.atomic
def bot_token_create(*, player: Player, name: str) -> tuple[BotToken, str]:
    """A new token of the bot; the raw value exists only in this return value."""
    player = player_lock(player.pk)  # counts and creates in one order with a revocation
    if not player.is_bot:
        raise _not_bot()
    if BotToken.objects.filter(player=player).count() >= BOT_TOKENS_MAX:
        raise ApplicationError(
            "too_many_tokens",
            _("A bot holds at most %(count)s tokens: revoke one first.")
            % {"count": BOT_TOKENS_MAX},
            409,
        )
    raw = BotToken.new_raw()
    token = BotToken.objects.create(player=player, name=name, key_hash=BotToken.hash(raw))
    return token, raw


@transaction.atomic
def bot_token_revoke(*, player: Player, token_id: int) -> None:
    """Revoke one of the bot's tokens; never its last (409 `last_token`: make a new one
    first), so that a bot cannot lock itself out."""
    player = player_lock(player.pk)
    if not player.is_bot:
        raise _not_bot()
    tokens = BotToken.objects.filter(player=player)
    if not tokens.filter(pk=token_id).exists():
        raise ApplicationError("not_found", _("No such bot token."), 404)
    if tokens.count() == 1:
        raise ApplicationError(
            "last_token",
            _("This is the bot's last token: make a new one before revoking it."),
            409,
        )
    tokens.filter(pk=token_id).delete()


def bot_token_touch(*, token: BotToken) -> None:
    """When the token was last used, written at most once per ACCOUNTS_TOKEN_TOUCH_SECONDS."""
    now = timezone.now()
    touch = timedelta(seconds=settings.ACCOUNTS_TOKEN_TOUCH_SECONDS)
    if token.last_used_at is not None and now - token.last_used_at < touch:
        return
    token.last_used_at = now
    BotToken.objects.filter(pk=token.pk).update(last_used_at=now)


@transaction.atomic
def bot_tokens_revoke_all(*, player: Player, by: Player | None = None, reason: str = "") -> int:
    """Staff: revoke every token of the bot (the admin's action), in the audit log; how many
    there were. The bot is locked out until its owner asks staff (a ban suspends it instead,
    its tokens kept)."""
    deleted, _ = BotToken.objects.filter(player=player).delete()
    staff_action_record(
        action=StaffActionKind.BOT_TOKENS_REVOKE, actor=by, reason=reason, player=player
    )
    return deleted


def auth_tokens_purge_expired() -> int:
    deleted, _ = AuthToken.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted


@transaction.atomic
def guest_create(
    *, display_name: str | None = None, user_agent: str = "", language: str = "en"
) -> tuple[Player, str]:
    """A new guest and its first token. `language` (the request's) becomes theirs, and names
    them when no `display_name` is given."""
    player = Player.objects.create_user(
        display_name=display_name or guest_name_generate(language), language=language
    )
    return player, auth_token_issue(player=player, user_agent=user_agent)


def _username_taken() -> ApplicationError:
    return ApplicationError("username_taken", _("This username is already taken."), status=409)


@transaction.atomic
def player_register(*, player: Player, username: str, password: str) -> Player:
    """The guest row becomes a registered account: same id, so its games and rating stay."""
    player = player_lock(player.pk)
    if not player.is_guest:
        raise ApplicationError(
            "already_registered", _("This account is already registered."), status=409
        )
    if player_get_by_username(username=username) is not None:
        raise _username_taken()
    player.username = username
    try:
        validate_password(password, user=player)
    except DjangoValidationError as error:
        raise ApplicationError(
            "invalid_password",
            " ".join(error.messages),
            extra={"reasons": error.messages},
        ) from error
    player.set_password(password)
    player.is_guest = False
    try:
        # A savepoint: a concurrent registration of the same name loses on the unique index.
        with transaction.atomic():
            player.save(update_fields=["username", "password", "is_guest"])
    except IntegrityError as error:
        raise _username_taken() from error
    return player


@transaction.atomic
def player_login(*, username: str, password: str, user_agent: str = "") -> tuple[Player, str]:
    """Check a username (any case) and password; a new token on success. The refusal never
    says which part was wrong, and costs the same hashing time either way."""
    player = player_get_by_username(username=username)
    if player is None or not player.has_usable_password() or not player.is_active:
        Player().set_password(password)  # as slow as a real check: no username probing by timing
        player = None
    elif not player.check_password(password):
        player = None
    if player is None:
        raise ApplicationError("invalid_credentials", _("Wrong username or password."))
    if player.is_banned:
        raise ApplicationError("banned", player.ban_message, status=403)
    if player.is_bot:
        raise ApplicationError(
            "bot",
            _(
                "This account is a bot: it signs in with its bot tokens, not a password "
                "(docs/bots.md)."
            ),
            status=403,
        )
    player.last_login = timezone.now()
    player.save(update_fields=["last_login"])
    return player, auth_token_issue(player=player, user_agent=user_agent)


@transaction.atomic
def player_update(
    *,
    player: Player,
    display_name: str | None = None,
    appear_offline: bool | None = None,
    chat: ChatShown | None = None,
    challenges_from: ChallengesFrom | None = None,
    bot_description: str | None = None,
    language: str | None = None,
) -> Player:
    """What `PATCH /me/` changes; a change of `appear_offline` is told to the player's friends
    after the commit (`player_presence_changed`). `chat` applies to the messages sent from now
    on and to every list read; a change of it reaches the player's open sockets after the
    commit (`player.chat`), so that a spectator's game socket filters the next push by it."""
    fields = []
    if display_name is not None:
        player.display_name = display_name
        fields.append("display_name")
    if chat is not None:
        if chat != player.chat:
            group, message = player_sockets_group(player.pk), {"type": "player.chat", "chat": chat}
            transaction.on_commit(partial(send_to_group, group, message), robust=True)
        player.chat = chat
        fields.append("chat")
    if challenges_from is not None:
        player.challenges_from = challenges_from
        fields.append("challenges_from")
    if language is not None:
        player.language = language
        fields.append("language")
    if bot_description is not None:
        if not player.is_bot:
            raise ApplicationError(
                "not_bot", _("Only a bot has a description (POST /api/v1/bot/upgrade/)."), 409
            )
        player.bot_description = bot_description
        fields.append("bot_description")
    if appear_offline is not None and appear_offline != player.appear_offline:
        player.appear_offline = appear_offline
        fields.append("appear_offline")
        transaction.on_commit(
            partial(player_presence_changed.send_robust, sender=Player, player_id=player.pk),
            robust=True,
        )
    if fields:
        player.save(update_fields=fields)
    return player


ERASED_NAME = "Deleted player"


def staff_action_record(
    *,
    action: StaffActionKind,
    actor: Player | None,
    reason: str = "",
    player: Player | None = None,
    game_id: uuid.UUID | str | None = None,
) -> StaffAction:
    """One line of the audit log (every ban, unban, void, report resolution and erasure)."""
    return StaffAction.objects.create(
        action=action, actor=actor, reason=reason, player=player, game_id=game_id
    )


def _send_player_banned(
    *, player: Player, reason: str, until: datetime | None, by: Player | None
) -> None:
    # The ban is committed whatever a receiver does; a failing receiver is logged.
    send_logged(
        player_banned,
        "player_banned",
        player.pk,
        sender=Player,
        player=player,
        reason=reason,
        until=until,
        by=by,
    )


@transaction.atomic
def player_ban(
    *, player: Player, reason: str, until: datetime | None = None, by: Player | None = None
) -> Player:
    """Ban now, until `until` (None: for good). Subscribers of `player_banned` (matchmaking,
    games) are told after the commit."""
    if until is not None and until <= timezone.now():
        raise ApplicationError("invalid", _("A ban must end in the future."))
    player = player_lock(player.pk)
    player.banned_at = timezone.now()
    player.banned_until = until
    player.ban_reason = reason
    player.banned_by = by
    player.save(update_fields=["banned_at", "banned_until", "ban_reason", "banned_by"])
    until_text = f" (until {until.isoformat()})" if until else " (for good)"
    staff_action_record(
        action=StaffActionKind.BAN, actor=by, reason=reason + until_text, player=player
    )
    transaction.on_commit(
        partial(_send_player_banned, player=player, reason=reason, until=until, by=by), robust=True
    )
    transaction.on_commit(partial(_close_player_sockets, player_id=player.pk), robust=True)
    return player


def _close_player_sockets(*, player_id: uuid.UUID) -> None:
    """Every open websocket of the player closes with 4403 (accounts.ws_auth.PlayerConsumer):
    a ban refuses new connections, and must not leave the open ones streaming."""
    send_to_group(player_sockets_group(player_id), {"type": "player.banned"})


@transaction.atomic
def player_unban(*, player: Player, by: Player | None = None, reason: str = "") -> Player:
    player = player_lock(player.pk)
    player.banned_at = None
    player.banned_until = None
    player.ban_reason = ""
    player.banned_by = None
    player.save(update_fields=["banned_at", "banned_until", "ban_reason", "banned_by"])
    staff_action_record(action=StaffActionKind.UNBAN, actor=by, reason=reason, player=player)
    return player


@transaction.atomic
def player_erase(*, player: Player, by: Player | None = None, reason: str = "") -> Player:
    """Anonymise an account (the right to erasure): its name, login, sessions and staff notes
    go; the row stays, so that its games and the other players' ratings keep their opponent.
    `by` None: the player's own request. Their tickets and seats go as for a ban (after the
    commit, `player_erased`), and their open sockets close."""
    player = player_lock(player.pk)
    if player.erased_at is not None:
        return player
    player.username = None
    player.display_name = ERASED_NAME
    player.set_unusable_password()
    player.is_active = False
    player.staff_notes = ""
    player.erased_at = timezone.now()
    player.save(
        update_fields=[
            "username", "display_name", "password", "is_active", "staff_notes", "erased_at"
        ]
    )  # fmt: skip
    AuthToken.objects.filter(player=player).delete()
    BotToken.objects.filter(player=player).delete()
    staff_action_record(
        action=StaffActionKind.ERASE,
        actor=by,
        reason=reason or ("" if by else "the player's own request"),
        player=player,
    )
    transaction.on_commit(
        partial(player_erased.send_robust, sender=Player, player=player), robust=True
    )
    transaction.on_commit(partial(_close_player_sockets, player_id=player.pk), robust=True)
    return player


def ws_ticket_issue(
    *, player: Player, token: AuthToken | BotToken | None = None
) -> tuple[str, datetime]:
    """A single-use ticket for opening a websocket (tokens never go in URLs). One issued with
    a `token` (as the API issues them) lives no longer than that token: after a logout, or
    the session's (or bot token's) revocation, it is refused."""
    raw = secrets.token_urlsafe(32)
    seconds = settings.ACCOUNTS_WS_TICKET_SECONDS
    expires_at = timezone.now() + timedelta(seconds=seconds)
    if token is None:
        value = str(player.pk)
    elif isinstance(token, BotToken):
        value = f"{player.pk} bot:{token.pk}"
    else:
        value = f"{player.pk} {token.pk}"
    get_redis().set(_WS_TICKET_KEY.format(AuthToken.hash(raw)), value, ex=seconds)
    return raw, expires_at


def ws_ticket_redeem(*, ticket: str) -> Player | None:
    """The active player a ticket was issued to, while its token lives; once: GETDEL makes
    two redemptions race-free."""
    value = get_redis().getdel(_WS_TICKET_KEY.format(AuthToken.hash(ticket)))
    if not value:
        return None
    # "player", "player token" or "player bot:token"
    player_id, _, token_id = str(value).partition(" ")
    if token_id.startswith("bot:"):
        return bot_player_get(player_id=player_id, token_id=token_id.removeprefix("bot:"))
    return active_player_get(player_id=player_id, token_id=token_id or None)


# Fair play: offences and queue bans (docs/api.md, Fair play) ---------------------------------


@transaction.atomic
def offence_record(
    *, player_id: uuid.UUID, game_id: uuid.UUID, kind: str, clean_games: Callable[[datetime], int]
) -> QueueBan | None:
    """Store an offence in a ranked game (once per player and game) and the queue ban it
    earns, if any. `clean_games(since)` counts the player's clean ranked games finished since
    then (games know them; accounts do not import games)."""
    player = player_lock(player_id)  # orders two offences of one player
    offence, created = Offence.objects.get_or_create(
        player=player, game_id=game_id, defaults={"kind": kind}
    )
    if not created:
        return None
    window = timedelta(days=settings.YANIV_QUEUE_BAN_WINDOW_DAYS)
    recent = list(offences_since(player.pk, offence.at - window))
    level = offence_level(
        offences=len(recent),
        clean_games=clean_games(recent[0].at),
        games_per_forgiveness=settings.YANIV_QUEUE_BAN_FORGIVE_AFTER_GAMES,
    )
    length = ban_length(level, parse_steps(settings.YANIV_QUEUE_BAN_STEPS))
    if length is None:
        logger.info("offence %s of %s: forgiven (level %s)", kind, player.pk, level)
        return None
    ban = QueueBan.objects.create(
        player=player, offence=offence, level=level, until=offence.at + length
    )
    logger.info("offence %s of %s: queue ban until %s", kind, player.pk, ban.until)
    return ban


@transaction.atomic
def queue_ban_lift(*, ban: QueueBan, by: Player | None) -> None:
    """Staff end a queue ban now (the offence stays on record)."""
    QueueBan.objects.filter(pk=ban.pk, lifted_at__isnull=True).update(
        lifted_at=timezone.now(), lifted_by=by
    )


# Seed pairs (docs/fairness.md §1) --------------------------------------------------------


def seed_pair_get(player: Player) -> SeedPair:
    """The player's current pair; a player made without one (in bulk) gets it now."""
    pair = SeedPair.objects.filter(player=player).first()
    if pair is None:
        SeedPair.objects.bulk_create([SeedPair.fresh(player.pk)], ignore_conflicts=True)
        pair = SeedPair.objects.get(player=player)
    return pair


def seed_pairs_take(player_ids: list[uuid.UUID]) -> dict[uuid.UUID, tuple[bytes, str]]:
    """A starting game takes the current pair of each of these players: (server seed, client
    seed) each, and each player has a new pair at once, keeping their client seed. Inside the
    game's transaction, after its other locks (accounts/locks.py)."""
    SeedPair.objects.bulk_create(
        [SeedPair.fresh(player_id) for player_id in player_ids], ignore_conflicts=True
    )
    pairs = seed_pairs_lock(player_ids)
    taken = {pair.player_id: (bytes(pair.server_seed), pair.client_seed) for pair in pairs}
    now = timezone.now()
    for pair in pairs:
        pair.server_seed = secrets.token_bytes(SEED_BYTES)
        pair.created_at = now
    SeedPair.objects.bulk_update(pairs, ["server_seed", "created_at"])
    return taken


@transaction.atomic
def client_seed_set(*, player: Player, client_seed: str) -> SeedPair:
    """The player's client seed for the next game that takes their pair (the caller checks
    that they hold no seat at a waiting or active game)."""
    seed_pair_get(player)
    [pair] = seed_pairs_lock([player.pk])
    pair.client_seed = client_seed
    pair.save(update_fields=["client_seed"])
    return pair
