"""The `hard` strategy: the house CPU's `hard` level deciding for an outside bot.

The CPU decides from the engine's view of one seat (games/engine/view.py), which is what the
API's `game` object shows that seat, in another form: this module turns the one into the other
and asks `games.engine.cpu.choose_action`. The engine package is pure Python (no Django, no
database), so a bot run from a checkout of this repository can import it; nothing else of the
server is used. That the API's payload is enough for the house's strongest level to play as
well from outside (bench/bots.py measures it on the ladder) shows a bot needs nothing hidden.
"""

from __future__ import annotations

from secrets import SystemRandom
from typing import Any

from games.engine.cpu import Level, choose_action
from games.engine.rules import Rules
from games.engine.state import CallYaniv

_rng = SystemRandom()  # breaks the CPU's ties


def engine_view(game: dict[str, Any]) -> dict[str, Any]:
    """The engine's `view(state, seat)` of the bot's seat, from the API's `game`. The API
    leaves out two keys of it, which `hard` does not read: `starter` and the seats'
    `out_round` (the round a seat went out in; `expert` reads it)."""
    rules = {key: value for key, value in game["rules"].items() if key != "turn_seconds"}
    you = game["you"]
    seen_rules = Rules.from_dict(rules)
    mine = {key: you[key] for key in ("seat", "hand", "hand_total", "can_call_yaniv")}
    if seen_rules.spy_queen:
        mine["spied"] = you["spied"]  # what the spy queen showed us (docs/rules.md §12)
    return {
        "status": game["status"],
        "rules": seen_rules,
        "players": len(game["seats"]),
        "round": game["round"],
        "starter": None,
        "turn": game["turn"]["seat"] if game["turn"] else None,
        "you": mine,
        "seats": [
            {
                "seat": seat["seat"],
                "score": seat["score"],
                "eliminated": seat["eliminated"],
                "out_round": None,
                "hand_count": seat["hand_count"],
                "known": seat["known"],
            }
            for seat in game["seats"]
        ],
        "discard": game["discard"],
        "wild": game["wild"],
        "caller": game["caller"],
        "pile": game["pile"],
        "stock_count": game["stock_count"],
        "last_round": game["last_round"],
        "standings": game["standings"],
    }


def choose(game: dict[str, Any]) -> dict[str, Any]:
    """The body of `POST .../actions/` (less its `seq`) that `hard` plays in `game`."""
    action = choose_action(engine_view(game), _rng, Level.HARD)
    if isinstance(action, CallYaniv):
        return {"type": "yaniv"}
    return {"type": "play", "cards": list(action.cards), "draw": action.draw}
