"""How the bot chooses a move. A strategy takes the game (the API's `game` object, as the bot's
seat sees it, on its turn) and returns the body of `POST .../actions/` without its `seq`, or
None when the server says it is not our turn after all (the bot then reads the game again).

- `simple` asks the server for the legal moves (`GET .../legal-moves/`) and picks one by a
  rule of thumb: call Yaniv when it may, else shed the most points, taking a low card from the
  discard (worth less than the throw) rather than a stock card.
- `hard` is the house CPU's `hard` level, running here as an outside bot: it lives in the
  engine package (examples/bot/hard.py), imported only when chosen.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from examples.bot.api import Api, ApiError

Move = dict[str, Any]
Strategy = Callable[[Api, dict[str, Any]], Awaitable[Move | None]]

AVERAGE_CARD = 6  # what a card from the stock is worth on average (docs/rules.md §1 values)
LOW_CARD = 3  # the most a card taken from the discard may be worth


def value(card: str) -> int:
    """A card's points by the default values (`AS` 1, `7H` 7, `TH` `JH` `QH` `KH` 10, jokers
    `X1` 0): enough for a rule of thumb (the game's own values are in its `rules`)."""
    rank = card[0]
    if rank == "X":
        return 0
    return 1 if rank == "A" else 10 if rank in "TJQK" else int(rank)


async def simple(api: Api, game: dict[str, Any]) -> Move | None:
    response = await api.call("GET", f"/games/{game['id']}/legal-moves/")
    if response.status_code == 409:  # not_your_turn, not_active: the game has moved on
        return None
    if response.status_code != 200:
        raise ApiError(response)
    legal = response.json()
    moves: list[Move] = legal["moves"]
    if {"type": "yaniv"} in moves:
        return {"type": "yaniv", "seq": legal["seq"]}

    def gain(move: dict[str, Any]) -> tuple[int, int]:
        shed = sum(value(card) for card in move["cards"])
        if move["draw"] == "stock":
            return shed, -AVERAGE_CARD
        # Only a low card worth less than the throw: else two bots swapping fours with each
        # other would keep their totals, and the game, going for ever.
        drawn = value(move["draw"])
        return shed, -drawn if drawn <= LOW_CARD and drawn < shed else -100

    best = max(moves, key=gain)
    return {**best, "seq": legal["seq"]}


async def hard(api: Api, game: dict[str, Any]) -> Move | None:
    from examples.bot.hard import choose

    return choose(game)


STRATEGIES: dict[str, Strategy] = {"simple": simple, "hard": hard}
