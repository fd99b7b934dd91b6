"""Every write of chat: a post (checked under its author's lock: chat/locks.py), a report with
its snapshot, a moderator's deletion and mute (each in the audit log), retention's purge and an
erased account's messages. Pushes leave after the commit (chat/notify.py)."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player, StaffActionKind
from accounts.services import staff_action_record
from chat import notify, selectors
from chat.locks import author_lock, message_lock
from chat.models import ChatMessage, ChatMute, ChatReport, Room
from chat.phrases import PHRASES
from chat.text import blocklist, listed_word, text_problem
from core.errors import ApplicationError, ThrottledError
from social.selectors import blocked_between


def _require_free_text(player: Player) -> None:
    """Free text is for registered players with YANIV_CHAT_MIN_GAMES finished games, unmuted."""
    if player.is_guest:
        raise ApplicationError("guest", _("Register to write free text; phrases are open."), 403)
    until = selectors.muted_until(player.pk)
    if until is not None:
        raise ApplicationError(
            "muted",
            _("A moderator muted you until %(until)s; phrases are open.")
            % {"until": until.isoformat()},
            403,
            extra={"muted_until": until.isoformat()},
        )
    needed, played = settings.YANIV_CHAT_MIN_GAMES, selectors.finished_games(player)
    if played < needed:
        raise ApplicationError(
            "not_allowed",
            _(
                "Free text opens after %(needed)s finished games (you have %(played)s); "
                "phrases are open."
            )
            % {"needed": needed, "played": played},
            403,
        )


def _checked_text(text: str) -> str:
    text = text.strip()
    problem = text_problem(text)
    if problem is not None:
        raise ApplicationError("invalid", problem)
    word = listed_word(text, blocklist(str(settings.YANIV_CHAT_BLOCKLIST)))
    if word is not None:
        raise ApplicationError("refused", _("This message holds a word the chat refuses."))
    return text


def _require_no_flood(player_id: UUID, text: str, phrase: str) -> None:
    """At most YANIV_CHAT_FLOOD_MESSAGES in YANIV_CHAT_FLOOD_SECONDS, and never the same message
    three times in a row (429 `throttled`, scope `chat_flood`)."""
    now, window = timezone.now(), settings.YANIV_CHAT_FLOOD_SECONDS
    limit = settings.YANIV_CHAT_FLOOD_MESSAGES
    latest = selectors.latest_sent(player_id, max(limit, 2))
    sent = [at for at, _text, _phrase in latest if at > now - timedelta(seconds=window)]
    if len(sent) >= limit:
        wait = sent[limit - 1] + timedelta(seconds=window) - now  # the limit-th latest's end
        raise ThrottledError(
            "chat_flood",
            wait.total_seconds(),
            _("At most %(limit)s messages in %(window)s seconds: wait a moment.")
            % {"limit": limit, "window": window},
        )
    said = [(text_, phrase_) for _at, text_, phrase_ in latest[:2]]
    if len(said) == 2 and all(one == (text, phrase) for one in said):
        raise ThrottledError(
            "chat_flood", window, _("You said that twice in a row already: say something else.")
        )


@transaction.atomic
def chat_post(
    *,
    player: Player,
    game_id: UUID | str,
    room: Room,
    text: str | None = None,
    phrase: str | None = None,
) -> ChatMessage:
    """Say `text` or a `phrase` (its id) in a room of a game the player may use."""
    game, seated = selectors.room_game(game_id, player, room)
    if (text is None) == (phrase is None):
        raise ApplicationError("invalid", _('Send either "text" or "phrase".'))
    if phrase is not None and phrase not in PHRASES:
        raise ApplicationError("invalid", _("No such phrase (GET /api/v1/chat/phrases/)."))
    if text is not None:
        _require_free_text(player)
        text = _checked_text(text)
    author_lock(player.pk)
    _require_no_flood(player.pk, text or "", phrase or "")
    # A seated author as the seats read them, with the rating the message's payload shows.
    author = next((seat for seat in seated if seat.pk == player.pk), player)
    message = ChatMessage.objects.create(
        game=game, room=room, author=author, text=text or "", phrase=phrase or ""
    )
    notify.chat_posted(message, selectors.hidden_from(message, seated))
    return message


def _readable(message_id: UUID | str, player: Player) -> ChatMessage:
    """The message, when the player may read it now (its room is theirs, it is not deleted, and
    neither blocks the other); else 404 (or the room's refusal)."""
    message = (
        ChatMessage.objects.filter(pk=message_id, deleted_at__isnull=True)
        .select_related("author")
        .first()
    )
    if message is None:
        raise ApplicationError("not_found", _("No such message."), 404)
    selectors.room_game(message.game_id, player, Room(message.room))
    if blocked_between(player.pk, message.author_id):
        raise ApplicationError("not_found", _("No such message."), 404)
    return message


@transaction.atomic
def chat_report(*, player: Player, message_id: UUID | str, reason: str = "") -> ChatReport:
    """Report a message: the report keeps the room's last messages as they are now."""
    message = _readable(message_id, player)
    if message.author_id == player.pk:
        raise ApplicationError("yourself", _("That is your own message."), 400)
    if ChatReport.objects.filter(message=message, reporter=player).exists():
        raise ApplicationError("already_reported", _("You reported this message already."), 409)
    try:
        with transaction.atomic():
            return ChatReport.objects.create(
                message=message,
                reporter=player,
                reported_id=message.author_id,
                game_id=message.game_id,
                reason=reason,
                snapshot=selectors.snapshot(message),
            )
    except IntegrityError:  # the same report, sent twice at once
        raise ApplicationError(
            "already_reported", _("You reported this message already."), 409
        ) from None


@transaction.atomic
def chat_delete(*, message: ChatMessage, by: Player | None, reason: str = "") -> bool:
    """A moderator deletes a message: gone for everyone, live. False when it was already."""
    message = message_lock(message.pk)
    if message.deleted_at is not None:
        return False
    message.deleted_at, message.deleted_by = timezone.now(), by
    message.save(update_fields=["deleted_at", "deleted_by"])
    staff_action_record(
        action=StaffActionKind.CHAT_DELETE,
        actor=by,
        player=message.author,
        game_id=message.game_id,
        reason=f"{reason} (message {message.pk}: {message.text or message.phrase!r})".strip(),
    )
    notify.chat_deleted(message, selectors.hidden_from(message, []))
    return True


@transaction.atomic
def chat_mute(*, player: Player, until: datetime, by: Player | None, reason: str = "") -> ChatMute:
    """Refuse the player free text until `until` (phrases stay open)."""
    if until <= timezone.now():
        raise ApplicationError("invalid", _("A mute must end in the future."))
    mute = ChatMute.objects.create(player=player, until=until, by=by, reason=reason)
    staff_action_record(
        action=StaffActionKind.CHAT_MUTE,
        actor=by,
        player=player,
        reason=f"{reason} (until {until.isoformat()})".strip(),
    )
    return mute


@transaction.atomic
def chat_reports_review(*, reports: list[ChatReport], by: Player | None) -> int:
    """Mark reports as seen by a moderator: how many were still open."""
    return ChatReport.objects.filter(
        pk__in=[report.pk for report in reports], reviewed_at__isnull=True
    ).update(reviewed_at=timezone.now(), reviewed_by=by)


def chat_purge() -> int:
    """Messages, reports and mutes older than YANIV_CHAT_KEEP_DAYS go (mutes once ended that
    long ago): how many messages."""
    before = timezone.now() - timedelta(days=settings.YANIV_CHAT_KEEP_DAYS)
    deleted, _ = ChatMessage.objects.filter(created_at__lt=before).delete()
    ChatReport.objects.filter(created_at__lt=before).delete()
    ChatMute.objects.filter(until__lt=before).delete()
    return deleted


@transaction.atomic
def player_chat_erase(*, player_id: UUID) -> None:
    """An erased account's messages, reports (made, or about them) and mutes go, and its
    lines in others' snapshots lose their words."""
    ChatReport.objects.filter(Q(reporter_id=player_id) | Q(reported_id=player_id)).delete()
    ChatMessage.objects.filter(author_id=player_id).delete()
    ChatMute.objects.filter(player_id=player_id).delete()
    mine = ChatReport.objects.filter(snapshot__contains=[{"player_id": str(player_id)}])
    for report in mine:
        for line in report.snapshot:
            if line["player_id"] == str(player_id):
                line.update(display_name="", text="", phrase="")
        report.save(update_fields=["snapshot"])
