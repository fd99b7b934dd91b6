"""The engine's refusals as a player reads them: its `Reason`s and `InvalidRules` messages in
the request's language (the engine knows no Django; its English strings are the msgids).

The English stays the engine's exactly ("not your turn"): records replay to it and some
clients compare it. Here each is declared for the catalog (`gettext_noop`), and translated
where it becomes an API `detail` (`illegal_move`, `invalid_rules`).
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from games.engine.errors import InvalidRules, Reason

REASONS: dict[Reason, str] = {
    Reason.GAME_OVER: gettext_noop("game over"),
    Reason.NOT_YOUR_TURN: gettext_noop("not your turn"),
    Reason.NO_CARDS: gettext_noop("no cards"),
    Reason.UNKNOWN_CARD: gettext_noop("unknown card"),
    Reason.DUPLICATE_CARD: gettext_noop("duplicate card"),
    Reason.CARD_NOT_IN_HAND: gettext_noop("card not in hand"),
    Reason.INVALID_GROUP: gettext_noop("invalid group"),
    Reason.JOKER_IN_SET: gettext_noop("joker in set"),
    Reason.NOT_CONSECUTIVE: gettext_noop("not consecutive ascending"),
    Reason.RUN_OUT_OF_RANGE: gettext_noop("run out of range"),
    Reason.UNTAKEABLE_DRAW: gettext_noop("untakeable draw"),
    Reason.YANIV_ABOVE_LIMIT: gettext_noop("yaniv above limit"),
    Reason.STOCK_EMPTY: gettext_noop("stock empty"),
    Reason.CALL_ON_FIRST_TURN: gettext_noop("no call on the first turn"),
    Reason.CALL_IN_FINAL_TURNS: gettext_noop("no call in final turns"),
    Reason.UNKNOWN_FORMAT: gettext_noop("unknown format"),
    Reason.INVALID_PLAYERS: gettext_noop("invalid players"),
    Reason.INVALID_RULES: gettext_noop("invalid rules"),
    Reason.MALFORMED_ACTION: gettext_noop("malformed action"),
    Reason.WRONG_STARTER: gettext_noop("wrong starter"),
    Reason.BAD_DECK: gettext_noop("deck not a permutation"),
    Reason.MISSING_RESHUFFLE: gettext_noop("missing reshuffle"),
    Reason.UNEXPECTED_RESHUFFLE: gettext_noop("unexpected reshuffle"),
    Reason.BAD_RESHUFFLE: gettext_noop("reshuffle not a permutation"),
    Reason.UNFAIR: gettext_noop("not the fair deal"),
    Reason.ROUND_NOT_ENDED: gettext_noop("round not ended"),
    Reason.ROUND_ALREADY_ENDED: gettext_noop("round already ended"),
}
"""Every Reason's text, identical to its value (tests/games/test_reasons.py holds them so)."""

RULES_TEMPLATES: tuple[str, ...] = (
    gettext_noop("rules must be an object"),
    gettext_noop("%(key)s must be one of %(choices)s"),
    gettext_noop("%(key)s must be an integer from %(low)s to %(high)s"),
    gettext_noop("unknown rule %(key)s"),
    gettext_noop(
        "max_players %(players)s is more than decks: %(decks)s seats"
        " (at most %(most)s; decks: 2 seats up to %(max_seats)s)"
    ),
)
"""Every `InvalidRules` template the engine and games/game_rules.py raise."""


def reason_text(reason: Reason) -> str:
    """The reason in the active language ("not your turn" in English)."""
    return gettext(reason.value)  # REASONS declares each value for the catalog


def rules_text(error: InvalidRules) -> str:
    """The message of `error` in the active language; its keys and values stay as sent."""
    return gettext(error.template) % error.params


def not_active_text(status: str) -> str:
    """409 `not_active`'s detail: "This game is finished, not active." and the like."""
    texts = {
        "waiting": gettext("This game is waiting, not active."),
        "finished": gettext("This game is finished, not active."),
        "aborted": gettext("This game is aborted, not active."),
    }
    return texts.get(str(status), gettext("This game is not active."))
