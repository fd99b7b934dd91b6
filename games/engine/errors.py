"""Every reason the engine can give for refusing something, in one place.

The reason strings are part of the public contract: records replay to them
(``replay_record`` prints them) and the API puts them in ``detail``. Some are fixed by the
shared scenario files, so change none of them lightly.
"""

from enum import StrEnum


class Reason(StrEnum):
    # An action that breaks the rules of play.
    GAME_OVER = "game over"
    NOT_YOUR_TURN = "not your turn"
    NO_CARDS = "no cards"
    UNKNOWN_CARD = "unknown card"
    DUPLICATE_CARD = "duplicate card"
    CARD_NOT_IN_HAND = "card not in hand"
    INVALID_GROUP = "invalid group"
    JOKER_IN_SET = "joker in set"
    NOT_CONSECUTIVE = "not consecutive ascending"
    RUN_OUT_OF_RANGE = "run out of range"
    UNTAKEABLE_DRAW = "untakeable draw"
    YANIV_ABOVE_LIMIT = "yaniv above limit"
    STOCK_EMPTY = "stock empty"
    CALL_ON_FIRST_TURN = "no call on the first turn"
    CALL_IN_FINAL_TURNS = "no call in final turns"
    # A record that does not describe a game played by these rules.
    UNKNOWN_FORMAT = "unknown format"
    INVALID_PLAYERS = "invalid players"
    INVALID_RULES = "invalid rules"
    MALFORMED_ACTION = "malformed action"
    WRONG_STARTER = "wrong starter"
    BAD_DECK = "deck not a permutation"
    MISSING_RESHUFFLE = "missing reshuffle"
    UNEXPECTED_RESHUFFLE = "unexpected reshuffle"
    BAD_RESHUFFLE = "reshuffle not a permutation"
    UNFAIR = "not the fair deal"
    ROUND_NOT_ENDED = "round not ended"
    ROUND_ALREADY_ENDED = "round already ended"


class IllegalMove(Exception):
    """An action the rules do not allow in this state; ``reason`` is a stable short string."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason.value)
        self.reason = reason


class InvalidRules(ValueError):
    """Rules that docs/rules.md §9 and §12 do not allow; the message says which key and why.

    ``template`` is the message with named ``%(key)s`` placeholders and ``params`` their values
    (keys and values of the rules, never words): games/reasons.py translates it for the API.
    """

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template % params)
        self.template = template
        self.params = params
