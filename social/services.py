"""Every write of friends, requests and blocks, one transaction each under the pair's lock
(social/locks.py); the pushes they cause leave after the commit (social/notify.py). And what
tells friends of a presence change (`presence_push`, run in a task: a player may have 500)."""

from __future__ import annotations

import logging
from datetime import timedelta
from uuid import UUID

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Player
from core import presence
from core.errors import ApplicationError
from core.redis import get_redis
from social import notify, selectors
from social.locks import pair_lock
from social.models import Block, FriendRequest, Friendship

logger = logging.getLogger(__name__)

_DAY = timedelta(days=1)


def _other(player: Player, other_id: UUID | str) -> Player:
    """The player `other_id` names, for a friendship or a block: not oneself, not a CPU's rated
    identity, not an erased account."""
    if str(other_id) == str(player.pk):
        raise ApplicationError("yourself", "That is you.", 400)
    other = Player.objects.filter(pk=other_id, is_active=True, cpu_level__isnull=True).first()
    if other is None:
        raise ApplicationError("not_found", "No such player.", 404)
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
            "too_many_friends", f"You have {limit} friends: remove one first.", 409
        )
    if selectors.friends_count(other.pk) >= limit:
        raise ApplicationError(
            "too_many_friends", f"This player has {limit} friends, as many as allowed.", 409
        )


def _require_request_left(player: Player) -> None:
    now, limit = timezone.now(), settings.YANIV_FRIEND_REQUESTS_PER_DAY
    sent = selectors.requests_sent_since(player.pk, now - _DAY)
    if len(sent) >= limit:
        wait = sent[len(sent) - limit] + _DAY - now
        raise ApplicationError(
            "too_many_requests",
            f"You sent {limit} friend requests in the last 24 hours: wait before sending more.",
            429,
            retry_after=int(wait.total_seconds()) + 1,
        )


@transaction.atomic
def friend_add(
    *, player: Player, other_id: UUID | str
) -> tuple[FriendRequest | None, Friendship | None]:
    """Ask `other_id` to be friends, or accept the request they sent: (the request sent, None)
    or (None, the caller's side of the new friendship)."""
    other = _other(player, other_id)
    if player.is_guest:
        raise ApplicationError("guest", "Register to have friends.", 403)
    if other.is_guest:
        raise ApplicationError("guest", "Guests cannot have friends.", 403)
    player, other = pair_lock(player.pk, other.pk)
    if selectors.blocked_between(player.pk, other.pk):
        raise ApplicationError("blocked", "One of you blocks the other.", 403)
    if selectors.are_friends(player.pk, other.pk):
        raise ApplicationError("already_friends", "You are friends already.", 409)
    theirs = selectors.open_request(other.pk, player.pk)
    if theirs is not None:
        _require_room(player, other)
        now = timezone.now()
        theirs.closed_at = now
        theirs.save(update_fields=["closed_at"])
        mine, _ = Friendship.objects.bulk_create(
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
        raise ApplicationError("already_requested", "You asked this player already.", 409)
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
            "not_found", "You have no friendship or request with this player.", 404
        )


@transaction.atomic
def block_create(*, player: Player, other_id: UUID | str) -> Block:
    """Block `other_id`: their friendship and requests end, and none can begin while it lasts."""
    other = _other(player, other_id)
    player, other = pair_lock(player.pk, other.pk)
    if Block.objects.filter(blocker=player, blocked=other).exists():
        raise ApplicationError("already_blocked", "You block this player already.", 409)
    _unfriend(player.pk, other.pk)
    _close_requests_between(player.pk, other.pk)
    return Block.objects.create(blocker=player, blocked=other)


@transaction.atomic
def block_remove(*, player: Player, other_id: UUID | str) -> None:
    deleted, _ = Block.objects.filter(
        blocker=player, blocked_id=_other(player, other_id).pk
    ).delete()
    if not deleted:
        raise ApplicationError("not_found", "You do not block this player.", 404)


@transaction.atomic
def player_social_erase(*, player_id: UUID) -> None:
    """An erased account's friendships, requests and blocks, gone (either side)."""
    Friendship.objects.filter(Q(player_id=player_id) | Q(friend_id=player_id)).delete()
    FriendRequest.objects.filter(Q(sender_id=player_id) | Q(receiver_id=player_id)).delete()
    Block.objects.filter(Q(blocker_id=player_id) | Q(blocked_id=player_id)).delete()


def friend_requests_purge() -> int:
    """Closed requests older than a day count for nothing any more (the daily limit)."""
    old = FriendRequest.objects.filter(
        closed_at__isnull=False, created_at__lte=timezone.now() - _DAY
    )
    deleted, _ = old.delete()
    return deleted


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
