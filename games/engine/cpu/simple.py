"""The ``easy`` and ``medium`` levels: the CPU with the judgement of a beginner and of a
casual player. Both call Yaniv as soon as they may, whatever the risk of an Assaf."""

from games.engine.cards import RANK
from games.engine.cpu.hard import View, best_play
from games.engine.moves import legal_groups
from games.engine.rng import Rng
from games.engine.state import STOCK, Action, CallYaniv, Play
from games.engine.view import ViewData

# A beginner takes a discard this low, or one that pairs a card it keeps.
_EASY_TAKE = 2
# One turn in this many, the ``medium`` player slips and plays like ``easy``.
_MEDIUM_SLIPS = 3


def easy(seen: ViewData, rng: Rng) -> Action:
    """Calls as soon as it may; else throws its most valuable group and takes a discard that
    is worth little or pairs a card it keeps, or else the stock."""
    you = seen["you"]
    seat = you["seat"]
    if you["can_call_yaniv"]:
        return CallYaniv(seat)
    hand = you["hand"]
    wild = seen["wild"]
    # The round's values (docs/rules.md §12: the rules' values, the wild rank worth 0).
    values = seen["rules"].card_values(wild)
    groups = legal_groups(hand, RANK[wild] if wild else 0)
    top = max(sum(values[card] for card in group) for group in groups)
    heaviest = [group for group in groups if sum(values[card] for card in group) == top]
    group = heaviest[rng.randrange(len(heaviest))]
    kept = {RANK[card] for card in hand if card not in group and RANK[card]}
    highest = max(values[card] for card in group)
    takeable = seen["discard"]["takeable"] if seen["stock_count"] else []
    for card in sorted(takeable, key=values.__getitem__):
        # Never a card as high as the highest one thrown (see hard.ranked_plays).
        if values[card] < highest and (values[card] <= _EASY_TAKE or RANK[card] in kept):
            return Play(seat, group, card)
    return Play(seat, group, STOCK if seen["stock_count"] else seen["discard"]["takeable"][0])


def medium(seen: ViewData, rng: Rng) -> Action:
    """Calls as soon as it may; else mostly plays ``hard``'s discard and draw, but one turn in
    ``_MEDIUM_SLIPS`` plays like ``easy``."""
    if seen["you"]["can_call_yaniv"] or rng.randrange(_MEDIUM_SLIPS) == 0:
        return easy(seen, rng)
    return best_play(View(seen), rng)
