"""Every write of friends, requests, blocks and challenges, one transaction each under the
pair's lock (social/locks.py); the pushes they cause leave after the commit (social/notify.py).
An accepted challenge makes its private table through games' lobby. And what tells friends of a
presence change (`presence_push`, run in a task: a player may have 500)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from uuid import UUID

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import ChallengesFrom, Player
from core import presence
from core.errors import ApplicationError, ThrottledError
from core.logs import send_logged
from core.redis import get_redis
from games.selectors import player_active_game_id
from games.services.lobby import game_create, game_join, game_start, private_rules
from social import notify, selectors
from social.locks import challenge_lock, pair_lock
from social.models import Block, Challenge, ChallengeStatus, FriendRequest, Friendship
from social.signals import challenge_accepted

logger = logging.getLogger(__name__)

_DAY = timedelta(days=1)
_HOUR = timedelta(hours=1)


def _other(player: Player, other_id: UUID | str) -> Player:
    """The player `other_id` names, for a friendship or a block: not oneself, not a CPU's rated
    identity, not an erased account."""
    if str(other_id) == str(player.pk):
        raise ApplicationError("yourself", _("That is you."), 400)
    other = Player.objects.filter(pk=other_id, is_active=True, cpu_level__isnull=True).first()
    if other is None:
        raise ApplicationError("not_found", _("No such player."), 404)
    return other


def _close_requests_between(player_id: UUID, other_id: UUID) -> int:
    """Close the open requests between the two, either way: how many."""
    return FriendRequest.objects.filter(
        Q(sender_id=player_id, receiver_id=other_id) | Q(sender_id=other_id, receiver_id=player_id),
        closed_at__isnull=True,
    ).update(closed_at=timezone.now())


def _unfriend(player_id: UUID, other_id: UUID) -> int:
    """Delete both rows of their friendship: how many there were."""
    deleted, _ = Friendship.objects.filter(
        Q(player_id=player_id, friend_id=other_id) | Q(player_id=other_id, friend_id=player_id)
    ).delete()
    return deleted


def _require_room(player: Player, other: Player) -> None:
    limit = settings.YANIV_FRIENDS_MAX
    if selectors.friends_count(player.pk) >= limit:
        raise ApplicationError(
            "too_many_friends",
            _("You have %(limit)s friends: remove one first.") % {"limit": limit},
            409,
        )
    if selectors.friends_count(other.pk) >= limit:
        raise ApplicationError(
            "too_many_friends",
            _("This player has %(limit)s friends, as many as allowed.") % {"limit": limit},
            409,
        )


def _wait_under_limit(sent: list[datetime], limit: int, window: timedelta) -> float | None:
    """None when fewer than `limit` of `sent` (the oldest first) fall in the `window` before
    now; else the seconds until the oldest of the last `limit` leaves it."""
    if len(sent) < limit:
        return None
    return (sent[len(sent) - limit] + window - timezone.now()).total_seconds()


def _require_request_left(player: Player) -> None:
    limit = settings.YANIV_FRIEND_REQUESTS_PER_DAY
    sent = selectors.requests_sent_since(player.pk, timezone.now() - _DAY)
    if (wait := _wait_under_limit(sent, limit, _DAY)) is not None:
        raise ThrottledError(
            "friend_requests",
            wait,
            _("You sent %(limit)s friend requests in the last 24 hours: wait before sending more.")
            % {"limit": limit},
        )


@transaction.atomic
def friend_add(
    *, player: Player, other_id: UUID | str
) -> tuple[FriendRequest | None, Friendship | None]:
    """Ask `other_id` to be friends, or accept the request they sent: (the request sent, None)
    or (None, the caller's side of the new friendship)."""
    other = _other(player, other_id)
    if player.is_guest:
        raise ApplicationError("guest", _("Register to have friends."), 403)
    if other.is_guest:
        raise ApplicationError("guest", _("Guests cannot have friends."), 403)
    player, other = pair_lock(player.pk, other.pk)
    if selectors.blocked_between(player.pk, other.pk):
        raise ApplicationError("blocked", _("One of you blocks the other."), 403)
    if selectors.are_friends(player.pk, other.pk):
        raise ApplicationError("already_friends", _("You are friends already."), 409)
    theirs = selectors.open_request(other.pk, player.pk)
    if theirs is not None:
        _require_room(player, other)
        now = timezone.now()
        theirs.closed_at = now
        theirs.save(update_fields=["closed_at"])
        mine, _theirs = Friendship.objects.bulk_create(
            [
                Friendship(player=player, friend=other, since=now),
                Friendship(player=other, friend=player, since=now),
            ]
        )
        shown = selectors.presences([player])[player.pk]
        notify.friend_request_accepted(
            other.pk, selectors.friend_data(Friendship(friend=player, since=now), shown)
        )
        return None, mine
    if selectors.open_request(player.pk, other.pk) is not None:
        raise ApplicationError("already_requested", _("You asked this player already."), 409)
    _require_room(player, other)
    _require_request_left(player)
    request = FriendRequest.objects.create(sender=player, receiver=other)
    notify.friend_request_sent(other.pk, selectors.request_data(request, other.pk))
    return request, None


@transaction.atomic
def friend_remove(*, player: Player, other_id: UUID | str) -> None:
    """End the friendship with `other_id`, or withdraw the request sent them, or decline theirs."""
    other = _other(player, other_id)
    player, other = pair_lock(player.pk, other.pk)
    if not _unfriend(player.pk, other.pk) + _close_requests_between(player.pk, other.pk):
        raise ApplicationError(
            "not_found", _("You have no friendship or request with this player."), 404
        )


@transaction.atomic
def block_create(*, player: Player, other_id: UUID | str) -> Block:
    """Block `other_id`: their friendship and requests end, and none can begin while it lasts."""
    other = _other(player, other_id)
    player, other = pair_lock(player.pk, other.pk)
    if Block.objects.filter(blocker=player, blocked=other).exists():
        raise ApplicationError("already_blocked", _("You block this player already."), 409)
    _unfriend(player.pk, other.pk)
    _close_requests_between(player.pk, other.pk)
    _cancel_challenges_between(player.pk, other.pk)
    return Block.objects.create(blocker=player, blocked=other)


@transaction.atomic
def block_remove(*, player: Player, other_id: UUID | str) -> None:
    deleted, _by_model = Block.objects.filter(
        blocker=player, blocked_id=_other(player, other_id).pk
    ).delete()
    if not deleted:
        raise ApplicationError("not_found", _("You do not block this player."), 404)


@transaction.atomic
def player_social_erase(*, player_id: UUID) -> None:
    """An erased account's friendships, requests and blocks, gone (either side)."""
    Friendship.objects.filter(Q(player_id=player_id) | Q(friend_id=player_id)).delete()
    FriendRequest.objects.filter(Q(sender_id=player_id) | Q(receiver_id=player_id)).delete()
    Block.objects.filter(Q(blocker_id=player_id) | Q(blocked_id=player_id)).delete()
    Challenge.objects.filter(Q(challenger_id=player_id) | Q(challenged_id=player_id)).delete()


def friend_requests_purge() -> int:
    """Closed requests older than a day count for nothing any more (the daily limit)."""
    old = FriendRequest.objects.filter(
        closed_at__isnull=False, created_at__lte=timezone.now() - _DAY
    )
    deleted, _ = old.delete()
    return deleted


# Challenges ------------------------------------------------------------------------------


def _require_challengeable(player: Player, other: Player) -> None:
    """403 `not_allowed` unless `other`'s `challenges_from` admits `player`."""
    allowed = other.challenges_from
    if allowed == ChallengesFrom.EVERYONE:
        return
    if allowed == ChallengesFrom.FRIENDS and selectors.are_friends(player.pk, other.pk):
        return
    if allowed == ChallengesFrom.FRIENDS:
        detail = _("This player takes challenges from friends only.")
    else:
        detail = _("This player takes challenges from nobody.")
    raise ApplicationError("not_allowed", detail, 403)


def _require_no_table(player: Player, detail: str) -> None:
    if player_active_game_id(player) is not None:
        raise ApplicationError("in_game", detail, 409)


def _changed(challenge: Challenge, status: ChallengeStatus) -> Challenge:
    challenge.status = status
    challenge.save(update_fields=["status", "game"])
    notify.challenge_changed(selectors.challenge_data(challenge))
    return challenge


@transaction.atomic
def challenge_create(
    *, player: Player, other_id: UUID | str, max_players: int = 2, rules: dict[str, Any]
) -> Challenge:
    """Challenge `other_id` to a private table: pushed to them; it expires after
    YANIV_CHALLENGE_SECONDS unless answered or withdrawn first."""
    other = _other(player, other_id)
    if player.is_guest:
        raise ApplicationError("guest", _("Register to challenge players."), 403)
    resolved = private_rules(rules, max_players)
    player, other = pair_lock(player.pk, other.pk)
    if selectors.blocked_between(player.pk, other.pk):
        raise ApplicationError("blocked", _("One of you blocks the other."), 403)
    _require_challengeable(player, other)
    _require_no_table(player, _("You are already at a table: finish or leave it first."))
    if selectors.open_challenge(player.pk, other.pk) is not None:
        raise ApplicationError("already_challenged", _("You challenged this player already."), 409)
    limit = settings.YANIV_CHALLENGES_PER_HOUR
    sent = selectors.challenges_sent_since(player.pk, timezone.now() - _HOUR)
    if (wait := _wait_under_limit(sent, limit, _HOUR)) is not None:
        raise ThrottledError(
            "challenges",
            wait,
            _("You sent %(limit)s challenges in the last hour: wait before sending more.")
            % {"limit": limit},
        )
    now = timezone.now()
    challenge = Challenge.objects.create(
        challenger=player,
        challenged=other,
        max_players=max_players,
        rules=resolved,
        created_at=now,
        expires_at=now + timedelta(seconds=settings.YANIV_CHALLENGE_SECONDS),
    )
    notify.challenge_changed(selectors.challenge_data(challenge))
    _expire_later(challenge)
    return challenge


def _expire_later(challenge: Challenge) -> None:
    from social import tasks  # tasks import the services

    key, eta = str(challenge.pk), challenge.expires_at
    # robust: a lost task leaves the row open past its time, which every read shows expired.
    transaction.on_commit(lambda: tasks.challenge_expire.apply_async((key,), eta=eta), robust=True)


def _locked_open(challenge_id: UUID | str, player: Player, side: str) -> Challenge:
    """The challenge, locked, when `player` is its `side` ("challenger" or "challenged") and it
    is still open: else 404 (a stranger), 403 `forbidden` (the other side), 409 `not_open`."""
    challenge = selectors.challenge_of(challenge_id, player)
    if getattr(challenge, f"{side}_id") != player.pk:
        if side == "challenged":
            detail = _("Only the challenged player may do that.")
        else:
            detail = _("Only the challenger may do that.")
        raise ApplicationError("forbidden", detail, 403)
    if side == "challenged":
        # An acceptance seats both: their rows first, then the challenge's (social/locks.py).
        pair_lock(challenge.challenger_id, challenge.challenged_id)
    locked = challenge_lock(challenge.pk)
    assert locked is not None  # a challenge goes only with an erased account, under its lock
    status = selectors.challenge_status(locked)
    if status != ChallengeStatus.OPEN:
        closed = {
            ChallengeStatus.ACCEPTED: _("This challenge is accepted."),
            ChallengeStatus.DECLINED: _("This challenge is declined."),
            ChallengeStatus.CANCELLED: _("This challenge is cancelled."),
            ChallengeStatus.EXPIRED: _("This challenge is expired."),
        }
        raise ApplicationError("not_open", closed[status], 409)
    return locked


@transaction.atomic
def challenge_accept(*, player: Player, challenge_id: UUID | str) -> Challenge:
    """The challenged player accepts: a private table with both seated, the challenger its
    host; a table of two starts at once, a larger one waits for its host to fill and start it.
    After the commit, `challenge_accepted` (matchmaking ends both players' searches)."""
    challenge = _locked_open(challenge_id, player, "challenged")
    _require_no_table(
        challenge.challenged, _("You are already at a table: finish or leave it first.")
    )
    _require_no_table(challenge.challenger, _("The challenger has since sat down at a table."))
    game = game_create(
        host=challenge.challenger, max_players=challenge.max_players, rules=challenge.rules
    )
    game_join(game_id=game.pk, player=challenge.challenged, invite_code=game.invite_code)
    if challenge.max_players == 2:
        game_start(game_id=game.pk, player=challenge.challenger)
    challenge.game = game
    accepted = _changed(challenge, ChallengeStatus.ACCEPTED)
    transaction.on_commit(
        partial(
            _send_challenge_accepted,
            challenge_id=challenge.pk,
            game_id=game.pk,
            player_ids=[challenge.challenger_id, challenge.challenged_id],
        ),
        robust=True,
    )
    return accepted


def _send_challenge_accepted(*, challenge_id: UUID, game_id: UUID, player_ids: list[UUID]) -> None:
    send_logged(
        challenge_accepted,
        "challenge_accepted",
        challenge_id,
        sender=Challenge,
        challenge_id=challenge_id,
        game_id=game_id,
        player_ids=player_ids,
    )


@transaction.atomic
def challenge_decline(*, player: Player, challenge_id: UUID | str) -> Challenge:
    return _changed(_locked_open(challenge_id, player, "challenged"), ChallengeStatus.DECLINED)


@transaction.atomic
def challenge_cancel(*, player: Player, challenge_id: UUID | str) -> Challenge:
    return _changed(_locked_open(challenge_id, player, "challenger"), ChallengeStatus.CANCELLED)


@transaction.atomic
def challenge_expire(*, challenge_id: UUID | str) -> bool:
    """Mark an open challenge past its time expired, and tell both players. Idempotent."""
    challenge = challenge_lock(challenge_id)
    if challenge is None or challenge.status != ChallengeStatus.OPEN:
        return False
    if challenge.expires_at > timezone.now():
        return False  # a task that ran early (a clock apart): the next read shows it open
    _changed(challenge, ChallengeStatus.EXPIRED)
    return True


def challenges_purge() -> int:
    """Challenges made over a day ago are gone: answered or expired long since, they count for
    nothing any more (the hourly limit). How many."""
    deleted, _ = Challenge.objects.filter(created_at__lte=timezone.now() - _DAY).delete()
    return deleted


def _cancel_challenges_between(player_id: UUID, other_id: UUID) -> None:
    """A block withdraws the open challenges between the two, either way (both are told)."""
    rows = Challenge.objects.filter(
        Q(challenger_id=player_id, challenged_id=other_id)
        | Q(challenger_id=other_id, challenged_id=player_id),
        status=ChallengeStatus.OPEN,
    ).select_related("challenger__rating", "challenged__rating")
    for challenge in rows:
        _changed(challenge, ChallengeStatus.CANCELLED)


# Presence --------------------------------------------------------------------------------


def _shown_key(player_id: UUID) -> str:
    return cache.make_key(f"presence-shown:{player_id}")


def presence_push(*, player_ids: list[str]) -> int:
    """Tell the friends of each of these players what they now see of them, when it differs
    from what they were last told (a second device, a renewal, a game that changed nothing
    they see: nothing sent). The number of players whose friends were told."""
    players = list(Player.objects.filter(pk__in=player_ids))
    shown = selectors.presences(players)
    redis = get_redis()
    told = 0
    for player in players:
        now = shown[player.pk]
        value = f"{now[0]} {now[1] or ''}"
        # Unknown (never told, or a day ago): told again, which costs nothing but a message.
        before = redis.set(_shown_key(player.pk), value, ex=int(_DAY.total_seconds()), get=True)
        if before == value:
            continue
        notify.presence_changed(player.pk, now, selectors.friend_ids(player.pk))
        told += 1
    return told


def presence_sweep(*, now: float | None = None) -> int:
    """Players whose me sockets all expired without closing (a web process died): their friends
    are told they went offline. The number told."""
    gone = presence.presence_sweep(now=now)
    return presence_push(player_ids=gone) if gone else 0
