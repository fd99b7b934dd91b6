"""What one seat, or a stranger, may see of a game (RULES.md §11).

This is the only place hidden information is removed: the CPU decides from this dict, and the
API builds its ``game`` object from it. It never holds another seat's hand (beyond the cards
that seat took face up), the stock order, or which stock card anyone drew. Its ``rules`` are
the game's ``Rules`` themselves, for the CPU to ask (the API shows the game's stored rules).
"""

from typing import Any

from games.engine.groups import takeable
from games.engine.state import GameState, standings_list

ViewData = dict[str, Any]


def view(state: GameState, seat: int | None) -> ViewData:
    """The game as ``seat`` sees it; ``seat=None`` is a stranger (a spectator), who has no hand.

    Shape::

        {"status": "active"|"finished", "rules", "players", "round", "starter", "turn",
         "you": {"seat", "hand", "hand_total", "can_call_yaniv"} | None,
         "seats": [{"seat", "score", "eliminated", "out_round", "hand_count", "known"}],
         "discard": {"cards", "takeable", "seat"},   # the last group; seat None at the deal
         "pile": [...],                              # face-up cards under it, oldest first
         "stock_count",
         "last_round": {"round", "caller", "outcome", "hands", "hand_totals", "points",
                        "totals", "eliminated", "next_starter"} | None,
         "standings": [{"seat", "place"}] | None}
    """
    you = None
    if seat is not None:
        hand = state.hands[seat]
        you = {
            "seat": seat,
            "hand": list(hand),
            "hand_total": state.hand_total(seat),
            "can_call_yaniv": state.can_call_yaniv(seat),
        }
    finished = state.finished
    known = state.known
    return {
        "status": "finished" if finished else "active",
        "rules": state.rules,
        "players": state.players,
        "round": state.round,
        "starter": state.starter,
        "turn": state.turn,
        "you": you,
        "seats": [
            {
                "seat": index,
                "score": state.totals[index],
                "eliminated": state.out_round[index] is not None,
                "out_round": state.out_round[index],
                "hand_count": len(state.hands[index]),
                "known": list(known[index]),
            }
            for index in range(state.players)
        ],
        "discard": {
            "cards": list(state.group),
            "takeable": [] if finished else list(takeable(state.group)),
            "seat": state.group_seat,
        },
        "pile": list(state.pile),
        "stock_count": state.stock_count,
        "last_round": None if state.last_round is None else state.last_round.to_dict(),
        "standings": standings_list(state.standings),
    }
