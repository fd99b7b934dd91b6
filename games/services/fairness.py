"""A game's fair deal (docs/fairness.md): the seed pairs its human seats bring when it starts,
the ranked seating they decide, and the chance the engine draws from them as the game goes on.

The secrets (the server seeds) live in `GameSeed` rows, read only when the engine deals or
reshuffles (`GameChance` loads them on its first draw), and revealed by the record once the
game has ended. What anyone at the table may see is the game's `fairness` block.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from accounts.models import Player
from accounts.services import seed_pairs_take
from games.engine.cpu import Level
from games.engine.fair import VERSION, FairDeal, commitment, cpu_entrant, game_seed
from games.engine.rng import Rng
from games.locks import LockedGame
from games.models import Game, GameSeed, Seat
from games.selectors import game_seed_pairs

# The chance of a game started before fair deals: as it was dealt (never `random`).
_BEFORE_FAIR_DEALS = secrets.SystemRandom()

Taken = dict[UUID, tuple[bytes, str]]
"""The seed pairs taken for a game: (server seed, client seed) by player."""


def seeds_take(player_ids: Sequence[UUID]) -> tuple[Taken, bytes]:
    """Take the current pair of each of these players (each gets a new one at once): the pairs,
    and the game seed they make."""
    taken = seed_pairs_take(list(player_ids))
    return taken, game_seed(taken.values())


def ranked_seating(
    seed: bytes, players: Sequence[Player], cpu_levels: Sequence[Level]
) -> list[Player | Level]:
    """A ranked table's seat order from the seed's `seats` stream (docs/fairness.md §4): each
    player named by their id as the API writes it, each CPU fill `cpu:<level>` (two fills of
    one level are one name twice, and alike)."""
    by_name: dict[str, list[Player | Level]] = {}
    for player in players:
        by_name[str(player.pk)] = [player]
    for level in cpu_levels:
        by_name.setdefault(cpu_entrant(level), []).append(level)
    names = [name for name, entrants in by_name.items() for _ in entrants]
    return [by_name[name].pop() for name in FairDeal(seed).seats(names)]


def seeds_record(game: Game, seats: Sequence[Seat], taken: Taken) -> None:
    """Write the pairs the human seats brought (`GameSeed`, secret) and the game's public
    `fairness` block."""
    rows = [
        GameSeed(
            game=game,
            seat=seat.seat,
            player_id=seat.player_id,
            server_seed=taken[seat.player_id][0],
            client_seed=taken[seat.player_id][1],
            commitment=commitment(taken[seat.player_id][0]),
        )
        for seat in seats
        if seat.player_id is not None
    ]
    GameSeed.objects.bulk_create(rows)
    game.fairness = {
        "version": VERSION,
        "seats": [
            {"seat": row.seat, "commitment": row.commitment, "client_seed": row.client_seed}
            for row in rows
        ],
    }


class GameChance:
    """A started game's fair deal, its seed read from its seats' pairs on the first draw: most
    moves deal nothing and read nothing. The engine asks it by name, as it asks a `FairDeal`."""

    __slots__ = ("_deal", "_game_id")

    def __init__(self, game_id: UUID) -> None:
        self._game_id = game_id
        self._deal: FairDeal | None = None

    def _fair(self) -> FairDeal:
        if self._deal is None:
            self._deal = FairDeal(game_seed(game_seed_pairs(self._game_id)))
        return self._deal

    def deal_deck(self, round_number: int, deck: list[str]) -> None:
        self._fair().deal_deck(round_number, deck)

    def reshuffle_stock(self, round_number: int, number: int, cards: list[str]) -> None:
        self._fair().reshuffle_stock(round_number, number, cards)

    def first_starter(self, players: int) -> int:
        return self._fair().first_starter(players)

    def shuffle(self, x: list[Any], /) -> None:
        self._fair().shuffle(x)

    def randrange(self, stop: int, /) -> int:
        return self._fair().randrange(stop)


def chance(locked: LockedGame) -> Rng:
    """What the engine draws this game's chance from: its fair deal, or for a game started
    before fair deals the system's random source, as it was dealt."""
    return GameChance(locked.game.pk) if locked.game.fairness else _BEFORE_FAIR_DEALS
