"""Reads: a player's friends, requests and blocks, the blocks among a set of players (the
ranked queue's), what friends see of a player's presence, and challenges."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from core import presence
from core.errors import ApplicationError
from games.models import GameStatus, Seat
from games.projection import shown_rules
from ratings.payloads import player_data
from social.models import Block, Challenge, ChallengeStatus, FriendRequest, Friendship
from social.payloads import BlockData, ChallengeData, FriendData, FriendRequestData, Presence

PresenceOf = tuple[Presence, str | None]  # the presence, and the public game's id
OFFLINE: PresenceOf = ("offline", None)


def friends(player: Player) -> QuerySet[Friendship]:
    """The player's friends, the newest friendship first."""
    return (
        Friendship.objects.filter(player=player)
        .select_related("friend__rating")
        .order_by("-since", "friend_id")
    )


def friend_ids(player_id: UUID | str) -> list[UUID]:
    return list(Friendship.objects.filter(player_id=player_id).values_list("friend_id", flat=True))


def friends_count(player_id: UUID) -> int:
    return Friendship.objects.filter(player_id=player_id).count()


def are_friends(player_id: UUID, other_id: UUID) -> bool:
    return Friendship.objects.filter(player_id=player_id, friend_id=other_id).exists()


def friend_rows(rows: Iterable[Friendship]) -> list[FriendData]:
    """Each friendship as the list shows it, with the friend's presence (read for all at once)."""
    rows = list(rows)
    shown = presences([row.friend for row in rows])
    return [friend_data(row, shown[row.friend_id]) for row in rows]


def friend_data(row: Friendship, shown: PresenceOf) -> FriendData:
    return {
        "player": player_data(row.friend),
        "since": row.since.isoformat(),
        "presence": shown[0],
        "game_id": shown[1],
    }


def open_requests(player: Player, direction: str | None = None) -> QuerySet[FriendRequest]:
    """The player's open requests, incoming and outgoing (or one `direction`), newest first."""
    incoming, outgoing = Q(receiver=player), Q(sender=player)
    wanted = {"incoming": incoming, "outgoing": outgoing}.get(direction or "", incoming | outgoing)
    return (
        FriendRequest.objects.filter(wanted, closed_at__isnull=True)
        .select_related("sender__rating", "receiver__rating")
        .order_by("-created_at", "-id")
    )


def open_request(sender_id: UUID, receiver_id: UUID) -> FriendRequest | None:
    return FriendRequest.objects.filter(
        sender_id=sender_id, receiver_id=receiver_id, closed_at__isnull=True
    ).first()


def request_data(request: FriendRequest, viewer_id: UUID) -> FriendRequestData:
    """A request as `viewer_id` (its sender or receiver) sees it: the other player, and which
    way it goes."""
    incoming = request.receiver_id == viewer_id
    return {
        "player": player_data(request.sender if incoming else request.receiver),
        "direction": "incoming" if incoming else "outgoing",
        "created_at": request.created_at.isoformat(),
    }


def requests_sent_since(player_id: UUID, since: datetime) -> list[datetime]:
    """When the player sent each request since `since` (open or closed), the oldest first."""
    sent = FriendRequest.objects.filter(sender_id=player_id, created_at__gt=since)
    return list(sent.order_by("created_at").values_list("created_at", flat=True))


def blocks(player: Player) -> QuerySet[Block]:
    """The players this one blocks, the latest block first."""
    return (
        Block.objects.filter(blocker=player)
        .select_related("blocked__rating")
        .order_by("-created_at", "-id")
    )


def block_data(block: Block) -> BlockData:
    return {"player": player_data(block.blocked), "since": block.created_at.isoformat()}


def blocked_between(player_id: UUID, other_id: UUID) -> bool:
    """Whether either of the two blocks the other."""
    return Block.objects.filter(
        Q(blocker_id=player_id, blocked_id=other_id) | Q(blocker_id=other_id, blocked_id=player_id)
    ).exists()


def blocked_with(player_id: UUID) -> set[UUID]:
    """Every player who blocks this one or whom this one blocks (one query)."""
    rows = Block.objects.filter(Q(blocker_id=player_id) | Q(blocked_id=player_id))
    return {
        other
        for pair in rows.values_list("blocker_id", "blocked_id")
        for other in pair
        if other != player_id
    }


def blocked_pairs(player_ids: Iterable[UUID]) -> set[frozenset[UUID]]:
    """Every pair of these players of whom one blocks the other (one query)."""
    ids = list(player_ids)
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids)
    return {frozenset(pair) for pair in rows.values_list("blocker_id", "blocked_id")}


def blocks_by(player_ids: QuerySet[Any]) -> set[frozenset[UUID]]:
    """The pairs of every block whose blocker is one of these players (a query of their ids,
    `values("player_id")`, read as a subquery: one indexed probe a player, whatever the
    planner knows of them); the blocked may be anyone. With every player of a group, these are
    all the pairs of the group of whom one blocks the other, and some more."""
    rows = Block.objects.filter(blocker_id__in=player_ids).values_list("blocker_id", "blocked_id")
    return {frozenset(pair) for pair in rows}


def presences(players: Iterable[Player]) -> dict[UUID, PresenceOf]:
    """What a friend sees of each of these players now: offline without a me socket open (or
    appearing offline), playing at an active table (with the game's id when it is ranked, that
    is public), else online. Two reads whatever the number: Redis, then the live seats."""
    players = list(players)
    shown: dict[UUID, PresenceOf] = {player.pk: OFFLINE for player in players}
    visible = [player.pk for player in players if not player.appear_offline]
    online = {UUID(player_id) for player_id in presence.online(visible)} if visible else set()
    for player_id in online:
        shown[player_id] = ("online", None)
    if online:
        seats = Seat.objects.filter(
            player_id__in=online, live=True, game__status=GameStatus.ACTIVE
        ).values_list("player_id", "game_id", "game__ranked")
        for player_id, game_id, ranked in seats:
            shown[player_id] = ("playing", str(game_id) if ranked else None)
    return shown


# Challenges ------------------------------------------------------------------------------


def _challenges() -> QuerySet[Challenge]:
    return Challenge.objects.select_related("challenger__rating", "challenged__rating")


def challenge_of(challenge_id: UUID | str, player: Player) -> Challenge:
    """The challenge, when `player` is one of its two players; 404 `not_found` otherwise."""
    challenge = (
        _challenges().filter(Q(challenger=player) | Q(challenged=player), pk=challenge_id).first()
    )
    if challenge is None:
        raise ApplicationError("not_found", _("No such challenge."), 404)
    return challenge


def open_challenges(player: Player) -> tuple[list[Challenge], list[Challenge]]:
    """The player's open challenges not yet past their time: (incoming, outgoing), newest
    first."""
    rows = (
        _challenges()
        .filter(
            Q(challenger=player) | Q(challenged=player),
            status=ChallengeStatus.OPEN,
            expires_at__gt=timezone.now(),
        )
        .order_by("-created_at", "id")
    )
    incoming: list[Challenge] = []
    outgoing: list[Challenge] = []
    for row in rows:
        (incoming if row.challenged_id == player.pk else outgoing).append(row)
    return incoming, outgoing


def open_challenge(challenger_id: UUID, challenged_id: UUID) -> Challenge | None:
    """The challenger's open challenge to this player, if one has not expired."""
    return Challenge.objects.filter(
        challenger_id=challenger_id,
        challenged_id=challenged_id,
        status=ChallengeStatus.OPEN,
        expires_at__gt=timezone.now(),
    ).first()


def challenges_sent_since(player_id: UUID, since: datetime) -> list[datetime]:
    """When the player sent each challenge since `since`, the oldest first."""
    sent = Challenge.objects.filter(challenger_id=player_id, created_at__gt=since)
    return list(sent.order_by("created_at").values_list("created_at", flat=True))


def challenge_status(challenge: Challenge) -> ChallengeStatus:
    """Its status as shown: an open challenge past its time is expired, whether or not the
    task that marks it has run yet."""
    if challenge.status == ChallengeStatus.OPEN and challenge.expires_at <= timezone.now():
        return ChallengeStatus.EXPIRED
    return ChallengeStatus(challenge.status)


def challenge_data(challenge: Challenge) -> ChallengeData:
    return {
        "id": str(challenge.pk),
        "challenger": player_data(challenge.challenger),
        "challenged": player_data(challenge.challenged),
        "max_players": challenge.max_players,
        "rules": shown_rules(challenge.rules),
        "status": challenge_status(challenge).value,  # type: ignore[typeddict-item]
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "game_id": None if challenge.game_id is None else str(challenge.game_id),
    }
