"""Provably fair deals (``yaniv-fair/1``, docs/fairness.md): seed pairs, the game seed, the
HMAC-SHA256 streams and what each decides, and a record's check.

This file needs nothing but Python's standard library, on purpose: a player who trusts nothing
of ours may download it alone and run ``python fair.py <record>.json`` (or, in the project,
``python -m games.engine.fair <record>.json``) to check a game's record. The engine deals live
games through ``FairDeal``; replay checks a record's ``fairness`` block with ``check_record``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import operator
import secrets
import struct
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard, TypeVar

VERSION = "yaniv-fair/1"
SEED_BYTES = 32
CLIENT_SEED_MAX = 64

_PREFIX = VERSION.encode("ascii")
_TWO_32 = 1 << 32
_WORDS_PER_BLOCK = 8

# The canonical deck (docs/fairness.md §4): each copy's suits S H D C, ranks A..K; then the
# jokers X1, X2, ... (the engine's own deck is built in this order: games/engine/cards.py).
_RANKS = "A23456789TJQK"
_SUITS = "SHDC"
_NATURALS = tuple(rank + suit for suit in _SUITS for rank in _RANKS)

T = TypeVar("T")


# 1. Seed pairs ------------------------------------------------------------------------------


def new_server_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def new_client_seed() -> str:
    """A new player's first client seed: 16 random lowercase hex characters."""
    return secrets.token_hex(8)


def is_client_seed(value: object) -> bool:
    """1 to 64 printable ASCII characters, 0x21-0x7E (no space)."""
    return (
        isinstance(value, str)
        and 1 <= len(value) <= CLIENT_SEED_MAX
        and all("\x21" <= char <= "\x7e" for char in value)
    )


def commitment(server_seed: bytes) -> str:
    """The lowercase hex SHA-256 of the server seed: shown before the game, checked after."""
    return hashlib.sha256(server_seed).hexdigest()


# 2. The game seed ---------------------------------------------------------------------------


def contribution(server_seed: bytes, client_seed: str) -> bytes:
    return hmac.digest(server_seed, _PREFIX + b"|" + client_seed.encode("ascii"), "sha256")


def game_seed(pairs: Iterable[tuple[bytes, str]]) -> bytes:
    """The seed of a game from the (server seed, client seed) pair of every human seat, in any
    order: their contributions sorted as byte strings."""
    parts = sorted(contribution(server, client) for server, client in pairs)
    if not parts:
        raise ValueError("a game seed needs at least one human seat")
    return hashlib.sha256(_PREFIX + b"".join(parts)).digest()


# 3. Streams and draws -----------------------------------------------------------------------


class Stream:
    """The words of one label's stream: ``HMAC(game_seed, label|counter)`` blocks, read as
    big-endian 32-bit words, eight a block, running on across draws."""

    __slots__ = ("_at", "_counter", "_inner", "_label", "_outer", "_words")

    def __init__(self, seed: bytes, label: str) -> None:
        # HMAC as RFC 2104 defines it, its padded key absorbed once: each block is then two
        # copies fed their messages, a third of the work of a fresh `hmac.digest` a block.
        self._inner, self._outer = _hmac_pads(seed)
        self._label = label.encode("ascii") + b"|"
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._at = 0

    def _block(self) -> tuple[int, ...]:
        inner = self._inner.copy()
        inner.update(self._label + str(self._counter).encode("ascii"))
        outer = self._outer.copy()
        outer.update(inner.digest())
        self._counter += 1
        return _BLOCK.unpack(outer.digest())

    def word(self) -> int:
        if self._at == len(self._words):
            self._words, self._at = self._block(), 0
        word = self._words[self._at]
        self._at += 1
        return word

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection: no value more likely than another."""
        if not 0 < n <= _TWO_32:
            raise ValueError(f"below({n})")
        limit = _TWO_32 - _TWO_32 % n
        word = self.word()
        while word >= limit:
            word = self.word()
        return word % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates as Durstenfeld wrote it, in place: ``j = below(i + 1)`` for ``i`` from
        the last index down to 1, then swap. The words are read in bulk: a word that a draw
        would reject is at least 2^32 - 256 (for a list of at most 256), a chance below 2^-24
        a word; where one comes, the draws are taken one by one from the same place."""
        size = len(items)
        if size < 2:
            return
        before = (self._words, self._at, self._counter)
        used = size - 1
        words = list(self._words[self._at :])
        while len(words) < used:
            words.extend(self._block())
        if size > _BULK_MAX or max(words[:used]) >= _NEVER_REJECTED:
            self._words, self._at, self._counter = before
            for i in range(size - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        self._words, self._at = tuple(words[used:]), 0
        bounds = range(size, 1, -1)  # i + 1 for i = size - 1 .. 1
        for i, j in zip(range(size - 1, 0, -1), map(operator.mod, words, bounds), strict=False):
            items[i], items[j] = items[j], items[i]


_BULK_MAX = 256
_NEVER_REJECTED = (1 << 32) - _BULK_MAX
"""No ``below(n)`` for ``n <= _BULK_MAX`` rejects a word under this: its limit,
``2^32 - (2^32 mod n)``, is above it."""


_BLOCK = struct.Struct(">8I")
_SHA256_BLOCK = 64
_IPAD = bytes(byte ^ 0x36 for byte in range(256))
_OPAD = bytes(byte ^ 0x5C for byte in range(256))
"""XOR with HMAC's pads as translation tables: ``key.translate(_IPAD)``."""


@functools.lru_cache(maxsize=256)
def _hmac_pads(key: bytes) -> tuple[Any, Any]:
    """HMAC-SHA256's inner and outer hashes with the key absorbed (RFC 2104): the key padded
    to SHA-256's block with zeros (a longer key hashed first), XORed with 0x36 / 0x5C. Kept
    for the game's other streams (they are only ever copied)."""
    if len(key) > _SHA256_BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_SHA256_BLOCK, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


# 4. What each stream decides ----------------------------------------------------------------


def canonical_deck(decks: int = 1, jokers: int = 2) -> list[str]:
    """Every copy's naturals in order, then ``jokers x decks`` jokers ``X1``, ``X2``, ..."""
    return [*_NATURALS * decks, *(f"X{n}" for n in range(1, jokers * decks + 1))]


def canonical_order(cards: Iterable[str]) -> list[str]:
    """The cards by the first place of each code in the canonical deck (copies alike)."""
    return sorted(cards, key=_canonical_place)


def _canonical_place(code: str) -> int:
    if not isinstance(code, str):
        raise ValueError(f"not a card: {code!r}")
    if code in _PLACE:
        return _PLACE[code]
    if code[:1] == "X" and code[1:].isdigit():
        return len(_NATURALS) + int(code[1:])
    raise ValueError(f"not a card: {code!r}")


_PLACE = {code: index for index, code in enumerate(_NATURALS)}


def deck_label(round_number: int) -> str:
    return f"round|{round_number}|deck"


def reshuffle_label(round_number: int, number: int) -> str:
    return f"round|{round_number}|reshuffle|{number}"


STARTER_LABEL = "round|1|starter"
SEATS_LABEL = "seats"


def cpu_entrant(level: str) -> str:
    return f"cpu:{level}"


class FairDeal:
    """A game's chance, drawn from its seed's streams: the engine's labelled source (it asks
    for each round's deck, each reshuffle and the first starter by name), and a ranked
    table's seating."""

    __slots__ = ("seed",)

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def deal_deck(self, round_number: int, deck: list[str]) -> None:
        """Round ``round_number``'s deck: the canonical deck given, shuffled in place."""
        Stream(self.seed, deck_label(round_number)).shuffle(deck)

    def reshuffle_stock(self, round_number: int, number: int, cards: list[str]) -> None:
        """The ``number``-th reshuffle of the round: the cards put in canonical order, then
        shuffled, in place; index 0 is the new stock's top."""
        cards.sort(key=_canonical_place)
        Stream(self.seed, reshuffle_label(round_number, number)).shuffle(cards)

    def first_starter(self, players: int) -> int:
        return Stream(self.seed, STARTER_LABEL).below(players)

    def seats(self, entrants: Iterable[str]) -> list[str]:
        """A ranked table's seating: the entrants (player ids, ``cpu:<level>``) sorted by code
        point, then shuffled; item ``i`` sits in seat ``i``."""
        order = sorted(entrants)
        Stream(self.seed, SEATS_LABEL).shuffle(order)
        return order

    # A fair deal is asked by name; a plain random source's calls would lose the labels.
    def shuffle(self, x: list[Any], /) -> None:
        raise TypeError("a FairDeal shuffles by name: deal_deck() or reshuffle_stock()")

    def randrange(self, stop: int, /) -> int:
        raise TypeError("a FairDeal draws by name: first_starter()")


# 5. A record's check ------------------------------------------------------------------------


class Unfair(ValueError):
    """What disagrees, first: ``where`` names it (``seat 1 commitment``, ``round 2 deck``...);
    ``at`` is where in the record's rounds it stands, (round, action) 0-based as replay reports
    faults: a round's deck or starter is its action 0, anything outside the rounds (0, 0)."""

    def __init__(self, where: str, detail: str, at: tuple[int, int] = (0, 0)) -> None:
        super().__init__(f"{where}: {detail}")
        self.where = where
        self.detail = detail
        self.at = at


def revealed_seed(fairness: Mapping[str, Any]) -> bytes:
    """The game seed of a record's ``fairness`` block, after checking its version, every
    seat's commitment against its revealed server seed, and the seed against the seats'."""
    if fairness.get("version") != VERSION:
        raise Unfair("version", f"expected {VERSION!r}, got {fairness.get('version')!r}")
    pairs: list[tuple[bytes, str]] = []
    for index, seat in enumerate(_seed_seats(fairness)):
        where = f"seat {seat.get('seat', index)}"
        hexed = seat.get("server_seed")
        if not _is_seed_hex(hexed):
            raise Unfair(f"{where} server_seed", "missing or not 64 lowercase hex digits")
        server = bytes.fromhex(hexed)
        if commitment(server) != seat.get("commitment"):
            raise Unfair(f"{where} commitment", "is not the SHA-256 of the server seed")
        if not is_client_seed(seat.get("client_seed")):
            raise Unfair(f"{where} client_seed", "missing or not 1-64 printable ASCII")
        pairs.append((server, seat["client_seed"]))
    if not pairs:
        raise Unfair("seats", "no human seat")
    seed = game_seed(pairs)
    if seed.hex() != fairness.get("game_seed"):
        raise Unfair("game_seed", f"the seats' seeds give {seed.hex()}")
    return seed


_HEX_DIGITS = frozenset("0123456789abcdef")


def _is_seed_hex(value: object) -> TypeGuard[str]:
    """A server seed as a record reveals it: 32 bytes, 64 lowercase hex digits."""
    return isinstance(value, str) and len(value) == 2 * SEED_BYTES and set(value) <= _HEX_DIGITS


def _seed_seats(fairness: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The block's ``seats``: a list of objects (missing: none)."""
    seats = fairness.get("seats", [])
    if not isinstance(seats, list):
        raise Unfair("seats", "malformed: not a list")
    for index, seat in enumerate(seats):
        if not isinstance(seat, Mapping):
            raise Unfair("seats", f"malformed: item {index} is not an object")
    return seats


def check_record(record: object) -> bytes:
    """Check a record's ``fairness`` block against its table (one seed pair for each human
    seat of the record, that seat's player's), its decks, reshuffles, first starter and (a
    ranked record) its seating; the game seed when all agree, else ``Unfair`` naming the
    first thing that disagrees (a malformed record included). Whether the game was played by
    the rules is replay's job: here, only that chance was what the seeds say."""
    if not isinstance(record, Mapping):
        raise Unfair("record", "malformed: not an object")
    fairness = record.get("fairness")
    if not isinstance(fairness, Mapping):
        raise Unfair("fairness", "the record has no fairness block")
    seed = revealed_seed(fairness)
    seats = _check_table(record, _seed_seats(fairness))
    deal = FairDeal(seed)
    deck = _deck(record.get("rules") or {})
    rounds = record.get("rounds") or []
    if not isinstance(rounds, list):
        raise Unfair("rounds", "malformed: not a list")
    for number, round_ in enumerate(rounds, start=1):
        if not isinstance(round_, Mapping):
            raise Unfair(f"round {number}", "malformed: not an object", (number - 1, 0))
    if rounds:
        starter = deal.first_starter(len(seats))
        if rounds[0].get("starter") != starter:
            raise Unfair("round 1 starter", f"the seed gives seat {starter}")
    for number, round_ in enumerate(rounds, start=1):
        expected = list(deck)
        deal.deal_deck(number, expected)
        if round_.get("deck") != expected:
            raise Unfair(f"round {number} deck", "is not the seed's shuffle", (number - 1, 0))
        actions = round_.get("actions") or []
        if not isinstance(actions, list):
            raise Unfair(
                f"round {number}", "malformed: its actions are not a list", (number - 1, 0)
            )
        reshuffles = [
            (index, entry)
            for index, entry in enumerate(actions)
            if isinstance(entry, Mapping) and "reshuffle" in entry
        ]
        for count, (index, entry) in enumerate(reshuffles, start=1):
            where, at = f"round {number} reshuffle {count}", (number - 1, index)
            if not isinstance(entry["reshuffle"], list):
                raise Unfair(where, "malformed: not a list of cards", at)
            stock = list(entry["reshuffle"])
            try:
                deal.reshuffle_stock(number, count, stock)
            except ValueError as error:
                raise Unfair(where, str(error), at) from error
            if entry["reshuffle"] != stock:
                raise Unfair(where, "is not the seed's shuffle", at)
    if record.get("ranked"):
        _check_seating(deal, seats)
    return seed


def _deck(rules: object) -> list[str]:
    """The canonical deck of the record's ``rules`` (``decks``, ``jokers``)."""
    if not isinstance(rules, Mapping):
        raise Unfair("rules", "malformed: not an object")
    try:
        decks, jokers = int(rules.get("decks", 1)), int(rules.get("jokers", 2))
    except (TypeError, ValueError, OverflowError) as error:
        raise Unfair("rules", "malformed: decks or jokers is not an integer") from error
    if not (1 <= decks <= _DECKS_MAX and 0 <= jokers <= _DECKS_MAX):
        raise Unfair("rules", f"malformed: decks not 1-{_DECKS_MAX} or jokers not 0-{_DECKS_MAX}")
    return canonical_deck(decks, jokers)


_DECKS_MAX = 8
"""The most decks (and jokers a deck) a record's check deals: far more than any rules (2)."""


def _check_table(
    record: Mapping[str, Any], given: Sequence[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """The record's seats, after checking that the block holds exactly one seed pair for each
    human seat (``is_cpu`` false), at its seat number, with its player's id: a seat left out,
    or a human made a CPU, would let the seeds that are left choose the game."""
    seats = record.get("seats")
    players = record.get("players")
    if not isinstance(seats, list) or not all(isinstance(seat, Mapping) for seat in seats):
        raise Unfair("seats", "malformed: the record's seats are not a list of objects")
    if type(players) is not int or players != len(seats):
        raise Unfair("seats", "malformed: the record's seats are not its players")
    humans: dict[int, Mapping[str, Any]] = {}
    for number, seat in enumerate(seats):
        is_cpu = seat.get("is_cpu")
        if not isinstance(is_cpu, bool):
            raise Unfair(f"seat {number}", "malformed: is_cpu is not true or false")
        if not is_cpu:
            humans[number] = seat
    pairs: dict[int, Mapping[str, Any]] = {}
    for index, pair in enumerate(given):
        at = pair.get("seat")
        if type(at) is not int:
            raise Unfair("seats", f"malformed: item {index} has no seat number")
        if at in pairs:
            raise Unfair(f"seat {at}", "has two seed pairs")
        pairs[at] = pair
    for number in sorted(humans.keys() | pairs.keys()):
        if number not in humans:
            raise Unfair(f"seat {number}", "has a seed pair but is no human seat of the record")
        if number not in pairs:
            raise Unfair(f"seat {number}", "a human seat without its seed pair")
        if pairs[number].get("player_id") != humans[number].get("player_id"):
            raise Unfair(f"seat {number}", "the seed pair is another player's")
    return seats


def seat_entrant(seat: Mapping[str, Any]) -> str:
    """A seat as the seating stream names it: ``cpu:<level>`` or the player's id."""
    if seat.get("is_cpu"):
        return cpu_entrant(str(seat.get("cpu_level")))
    return str(seat.get("player_id"))


def _check_seating(deal: FairDeal, seats: Sequence[Mapping[str, Any]]) -> None:
    entrants = [seat_entrant(seat) for seat in seats]
    expected = deal.seats(entrants)
    for index, (sat, due) in enumerate(zip(entrants, expected, strict=True)):
        if sat != due:
            raise Unfair(f"seat {index}", f"the seed seats {due} there, not {sat}")


def main(argv: Sequence[str] | None = None) -> int:
    """``python fair.py <record>.json...`` (``-``: stdin): one line a file, exit 1 on any
    failure."""
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python fair.py RECORD.json... (- reads stdin)", file=sys.stderr)
        return 2
    failed = False
    for path in paths:
        try:
            if path == "-":
                record = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as file:
                    record = json.load(file)
            seed = check_record(record)
        except (OSError, ValueError, RecursionError) as error:  # Unfair, bad JSON: ValueErrors
            failed = True
            print(f"{path}: NOT verified: {error}")
        else:
            print(f"{path}: verified (game seed {seed.hex()})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
