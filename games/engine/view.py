"""What one seat, or a stranger, may see of a game (docs/rules.md §11).

This is the only place hidden information is removed: the CPU decides from this dict, and the
API builds its ``game`` object from it. It never holds another seat's hand (beyond the cards
that seat took face up), the stock order, or which stock card anyone drew (forced draws of
the sevens rule included: a seat sees its own in its hand). What the spy queen showed a seat
is in that seat's ``you`` alone. Its ``rules`` are the game's ``Rules`` themselves, for the
CPU to ask (the API shows the game's stored rules).
"""

from typing import Any

from games.engine.state import GameState, standings_list

ViewData = dict[str, Any]


def view(state: GameState, seat: int | None) -> ViewData:
    """The game as ``seat`` sees it; ``seat=None`` is a stranger (a spectator), who has no hand.

    Shape::

        {"status": "active"|"finished", "rules", "players", "round", "starter", "turn",
         "you": {"seat", "hand", "hand_total", "can_call_yaniv",
                 "spied"} | None,                    # spied: only under spy_queen
         "seats": [{"seat", "score", "eliminated", "out_round", "hand_count", "known"}],
         "discard": {"cards", "takeable", "seat"},   # the last group; seat None at the deal
         "wild": "<code>" | None,                    # the round's wild card (wild_rank)
         "caller": seat | None,                      # final turns under way after its call
         "pile": [...],                              # face-up cards under it, oldest first
         "stock_count",
         "last_round": {"round", "caller", "outcome", "hands", "hand_totals", "points",
                        "totals", "eliminated", "next_starter"} | None,
         "standings": [{"seat", "place"}] | None}

    ``hand_total`` counts this round's values. ``spied`` is None until the spy queen has shown
    this seat the other hands this round, then ``{"<seat>": [cards]}``: per other active seat,
    the cards it held then and has not discarded since (it may hold more).
    """
    setup = state.setup
    rules = setup.rules
    hands = state.hands
    you: dict[str, Any] | None = None
    if seat is not None:
        you = {
            "seat": seat,
            "hand": list(hands[seat]),
            "hand_total": state.hand_total(seat),
            "can_call_yaniv": state.can_call_yaniv(seat),
        }
        if rules.spy_queen:
            you["spied"] = _spied(state, seat)
    finished = state.finished
    totals = setup.totals
    out_round = setup.out_round
    last_round = setup.last_round
    known = state.known
    return {
        "status": "finished" if finished else "active",
        "rules": rules,
        "players": setup.players,
        "round": setup.round,
        "starter": setup.starter,
        "turn": state.turn,
        "you": you,
        "seats": [
            {
                "seat": index,
                "score": totals[index],
                "eliminated": out_round[index] is not None,
                "out_round": out_round[index],
                "hand_count": len(hands[index]),
                "known": list(known[index]),
            }
            for index in range(setup.players)
        ],
        "discard": {
            "cards": list(state.group),
            "takeable": [] if finished else list(rules.draw_from.takeable(state.group)),
            "seat": state.group_seat,
        },
        "wild": setup.wild,
        "caller": state.caller,
        "pile": list(state.pile),
        "stock_count": state.stock_count,
        "last_round": None if last_round is None else last_round.to_dict(),
        "standings": standings_list(setup.standings),
    }


def _spied(state: GameState, seat: int) -> dict[str, list[str]] | None:
    entry = state.spied[seat] if state.spied else None
    if entry is None:
        return None
    return {str(other): list(cards) for other, cards in enumerate(entry) if cards is not None}
