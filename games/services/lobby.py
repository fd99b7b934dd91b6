"""Tables before they start: create, join, add CPU seats, start, a matched ranked table, leave."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID, uuid4

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from core.errors import ApplicationError
from games import notify
from games.engine.cpu import DEFAULT_LEVEL, Level
from games.engine.errors import InvalidRules
from games.engine.fair import FairDeal
from games.engine.state import start_game
from games.game_rules import GameRules
from games.locks import LockedGame
from games.models import Game, GameStatus, Pool, Seat
from games.projection import viewer_seat
from games.reasons import rules_text
from games.services import fairness
from games.services.clock import advance

INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_invite_code() -> str:
    """Eight letters and digits a person can read aloud (no 0/O, 1/I)."""
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(8))


def _take_live_seat(create: Callable[[], Seat]) -> Seat:
    try:
        with transaction.atomic():
            return create()
    except IntegrityError as error:
        raise ApplicationError(
            "in_game", _("You are already at a table: finish or leave it first."), 409
        ) from error


def private_rules(rules: dict[str, Any], max_players: int) -> dict[str, Any]:
    """A host's rules for a private table of `max_players`, every key resolved as the game
    stores them; 400 `invalid_rules` naming what is wrong."""
    try:
        parsed = GameRules.parse(rules)
        parsed.check_seats(max_players)
    except InvalidRules as error:
        raise ApplicationError("invalid_rules", rules_text(error)) from error
    return parsed.to_dict()


@transaction.atomic
def game_create(*, host: Player, max_players: int, rules: dict[str, Any]) -> Game:
    game = Game.objects.create(
        max_players=max_players,
        rules=private_rules(rules, max_players),
        host=host,
        invite_code=new_invite_code(),
    )
    _take_live_seat(lambda: Seat.objects.create(game=game, seat=0, player=host))
    return game


@transaction.atomic
def game_join(*, game_id: UUID | str, player: Player, invite_code: str) -> LockedGame:
    locked = LockedGame.lock(game_id)
    if viewer_seat(locked.seats, player) is not None:
        return locked  # joining twice is harmless
    # As bytes: compare_digest refuses non-ASCII str (a TypeError), and bytes.upper() folds
    # only ASCII letters, so no other script's lookalike (the Kelvin sign...) passes for one.
    if not secrets.compare_digest(invite_code.encode().upper(), locked.game.invite_code.encode()):
        raise ApplicationError("bad_invite_code", _("That invite code is not this game's."), 403)
    _require_free_seat(locked)
    _take_live_seat(lambda: locked.add_seat(player=player))
    notify.game_update(locked)
    return locked


@transaction.atomic
def game_add_cpu(
    *, game_id: UUID | str, player: Player, level: Level = DEFAULT_LEVEL
) -> LockedGame:
    locked = LockedGame.lock(game_id)
    _require_host(locked, player)
    _require_free_seat(locked)
    locked.add_seat(is_cpu=True, cpu_level=level, live=False)
    notify.game_update(locked)
    return locked


def _require_host(locked: LockedGame, player: Player) -> None:
    locked.seat_of(player)
    if locked.game.host_id != player.pk:
        raise ApplicationError("not_host", _("Only the host can do that."), 403)


def _require_waiting(locked: LockedGame) -> None:
    if locked.game.status != GameStatus.WAITING:
        raise ApplicationError("not_waiting", _("This game has already started."), 409)


def _require_free_seat(locked: LockedGame) -> None:
    _require_waiting(locked)
    if len(locked.seats) >= locked.game.max_players:
        raise ApplicationError("game_full", _("Every seat at this table is taken."), 409)


@transaction.atomic
def game_start(*, game_id: UUID | str, player: Player) -> LockedGame:
    locked = LockedGame.lock(game_id)
    _require_host(locked, player)
    _require_waiting(locked)
    if len(locked.seats) < 2:
        raise ApplicationError("not_enough_players", _("A game needs at least two seats."), 409)
    _begin(locked)
    return locked


def _begin(locked: LockedGame, dealt: tuple[fairness.Taken, bytes] | None = None) -> None:
    """Deal the first round of a seated table and make it active: the human seats' seed pairs
    taken, with the game seed they make (`dealt`, when a ranked table took them to seat
    itself), the game's fair deal from them (docs/fairness.md)."""
    game = locked.game
    if dealt is None:
        humans = [seat.player_id for seat in locked.seats if seat.player_id is not None]
        dealt = fairness.seeds_take(humans)
    taken, seed = dealt
    fairness.seeds_record(game, locked.seats, taken)
    locked.save("fairness")
    rules = GameRules.stored(game.rules).rules
    state, events = start_game(len(locked.seats), rules, FairDeal(seed))
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    locked.append("game_started", players=len(locked.seats))
    advance(locked, state, events, by=None)


def game_begin_ranked(
    *,
    players: list[Player],
    cpu_levels: Sequence[Level] = (),
    rules: GameRules | None = None,
    rated: bool = True,
    tournament_id: UUID | None = None,
    game_id: UUID | None = None,
    pool: Pool = Pool.RANKED,
) -> LockedGame:
    """A ranked game for a matched table: seats (the players', and CPU seats of these levels)
    in the order of its fair deal's `seats` stream (docs/fairness.md §4), active. The queue's
    rules by default; an arena's table has its tournament's (`rules`), is rated when the
    tournament is, names it, and has the id its pass gave it (`game_id`). A game of the bot
    ladder's `pool` rates its CPU seats as fixed anchors (docs/api.md, The bot ladder).

    Called inside the matchmaking (or arena pairing) transaction, which holds its locks.
    """
    dealt = fairness.seeds_take([player.pk for player in players])
    order = fairness.ranked_seating(dealt[1], players, cpu_levels)
    rules = rules or GameRules(turn_seconds=settings.YANIV_RANKED_TURN_SECONDS)
    game = Game.objects.create(
        id=game_id or uuid4(),
        ranked=True,
        pool=pool,
        rated=rated,
        tournament_id=tournament_id,
        max_players=len(order),
        rules=rules.to_dict(),
    )
    Seat.objects.bulk_create(
        Seat(game=game, seat=index, player=who)
        if isinstance(who, Player)
        else Seat(game=game, seat=index, is_cpu=True, cpu_level=who, live=False)
        for index, who in enumerate(order)
    )
    locked = LockedGame.lock(game.pk)
    _begin(locked, dealt)
    return locked


def leave_waiting(locked: LockedGame, seat: Seat, player: Player) -> None:
    """Before the start, leaving frees the seat; a host leaving closes the table."""
    if locked.game.host_id == player.pk:
        locked.game.status = GameStatus.ABORTED
        locked.save("status")
        for each in locked.seats:
            each.live = False
        locked.save_seats("live")
    else:
        locked.remove_seat(seat)
    notify.game_update(locked)
