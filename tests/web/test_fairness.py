"""Provably fair deals in the browser (web/static/web/fairness.js, docs/fairness.md): in
Chromium, on a page of the running server, the vectors of the specification, the streams'
arithmetic against games/engine/fair.py, and the record check against Python's
`check_record`, on the fair record of tests/games/engine/test_fair.py, each of its
alterations, and records that only Python's reading of JSON decides."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.templatetags.static import static
from playwright.sync_api import Page

from games.engine import fair
from tests.games.engine.test_fair import (
    ALTERATIONS,
    MALFORMED,
    SEED,
    altered,
    fair_record,
    malformed,
    swap_seats_0_and_1,
)

# The module as the client's pages import it: its static URL, as the page's own are made.
MODULE = static("web/fairness.js")


def run(page: Page, function: str, arg: Any = None) -> Any:
    """`function`, the source of an async `(f, arg) => ...`, in the page, with `f` the module
    imported as the client imports it."""
    return page.evaluate(
        f"async ([url, arg]) => ({function})(await import(url), arg)", [MODULE, arg]
    )


def test_the_vectors_of_the_specification(open_player: Callable[..., Page]) -> None:
    page = open_player("/")
    got = run(
        page,
        """async (f) => {
          const s1 = Uint8Array.from({ length: 32 }, (_, i) => i);
          const s2 = Uint8Array.from({ length: 32 }, (_, i) => 32 + i);
          const seed = await f.gameSeed([[s1, "alice"], [s2, "bob"]]);
          const stream = new f.Stream(seed, "round|1|deck");
          const words = [];
          for (let n = 0; n < 4; n += 1) words.push(await stream.word());
          return {
            commitment: await f.commitment(s1),
            contribution: f.toHex(await f.contribution(s1, "alice")),
            seed: f.toHex(seed),
            seedOtherOrder: f.toHex(await f.gameSeed([[s2, "bob"], [s1, "alice"]])),
            words,
            deck: (await f.deal(seed, 1, f.canonicalDeck(1, 2))).join(" "),
            starter: await f.starter(seed, 3),
            reshuffle: await f.reshuffle(seed, 1, 1, ["KH", "2C", "AS", "9D", "5S"]),
            seats: await f.seats(seed, ["p-b", "p-a", "cpu:hard"]),
          };
        }""",
    )
    assert got["commitment"] == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert got["contribution"] == "463f6025c34b3678adb8b1f08a14796598ebfad75c4b84d0a18f92e666ea492e"
    assert got["seed"] == "21b0489b59e4eec07876eea7bd947682d7274c57f6d33bc7315d8188510e59cc"
    assert got["seedOtherOrder"] == got["seed"]
    assert got["words"] == [237985666, 2655038548, 794604644, 900574743]
    assert got["deck"] == (
        "4S 3C 7S AH 9S 3S 5D 5S QD 2D X2 4D QH KD KC 7D JC 8C 9C 8S JH QS 6C 2S 5C 4C 6H AC "
        "JS JD 9D KH 2C TH TC 9H 2H TS KS 5H 8H AS 6D 8D TD 7H AD 6S 4H 7C 3H 3D QC X1"
    )
    assert got["starter"] == 2
    assert got["reshuffle"] == ["AS", "9D", "2C", "KH", "5S"]
    assert got["seats"] == ["p-a", "p-b", "cpu:hard"]


def test_the_streams_draw_as_python_does(open_player: Callable[..., Page]) -> None:
    """Words past 2^31 stay unsigned, the rejection limit is exact (n = 3 x 2^30 rejects every
    word from it up), blocks are signed only when wanted, and decks, canonical order and
    seating (sorted by code point) are Python's."""
    page = open_player("/")
    stream = fair.Stream(SEED, "x")
    words = [stream.word() for _ in range(20)]
    n = 3 << 30
    draws = fair.Stream(SEED, "x")
    kept = [word % n for word in words if word < n]
    rejecting = [draws.below(n) for _ in kept]
    two_decks = fair.canonical_deck(2, 2)
    fair.FairDeal(SEED).deal_deck(3, two_decks)
    mixed = ["X2", "KC", "AS", "X1", "AS", "9H", "X3", "2D", "KC"]
    # By UTF-16 unit the emoji (a surrogate pair, 0xD83D...) sorts before U+FFFD; by code point
    # after it: a seating sorted the wrong way is another seating.
    entrants = ["\U0001f600", "\ufffd", "cpu:easy", "b"]

    got = run(
        page,
        """async (f, { seed, n, count, mixed, entrants }) => {
          const key = f.fromHex(seed);
          const stream = new f.Stream(key, "x");
          const words = [];
          for (let at = 0; at < 20; at += 1) words.push(await stream.word());
          const all = new f.Stream(key, "x");
          const whole = [];
          for (let at = 0; at < 20; at += 1) whole.push(await all.below(2 ** 32));
          const draws = new f.Stream(key, "x");
          const rejecting = [];
          for (let at = 0; at < count; at += 1) rejecting.push(await draws.below(n));
          const deck = new f.Stream(key, "round|3|deck");
          const twoDecks = await deck.shuffle(f.canonicalDeck(2, 2));
          const refused = [];
          for (const bad of [0, -1, 2 ** 32 + 1, 1.5]) {
            try {
              await new f.Stream(key, "x").below(bad);
            } catch (error) {
              refused.push(error.name);
            }
          }
          return {
            words, whole, rejecting, twoDecks, blocks: deck.blocks, refused,
            decks: [[1, 0], [1, 2], [2, 0], [2, 2]].map(([d, j]) => f.canonicalDeck(d, j)),
            order: f.canonicalOrder(mixed),
            seats: await f.seats(key, entrants),
          };
        }""",
        {"seed": SEED.hex(), "n": n, "count": len(kept), "mixed": mixed, "entrants": entrants},
    )
    assert max(words) >= 1 << 31  # a word that a signed 32-bit read would turn negative
    assert got["words"] == words
    assert got["whole"] == words
    assert len(kept) < len(words)  # some words were rejected
    assert got["rejecting"] == rejecting
    assert got["twoDecks"] == two_decks
    assert got["blocks"] == 14  # 107 draws, eight words a block
    assert got["refused"] == ["RangeError"] * 4
    assert got["decks"] == [fair.canonical_deck(d, j) for d, j in ((1, 0), (1, 2), (2, 0), (2, 2))]
    assert got["order"] == fair.canonical_order(mixed)
    assert got["seats"] == fair.FairDeal(SEED).seats(entrants)
    assert sorted(entrants) != sorted(entrants, key=lambda e: e.encode("utf-16-be"))


def test_hex_reads_as_pythons(open_player: Callable[..., Page]) -> None:
    page = open_player("/")
    texts = ["", "00ff", "00 FF", " 0a\t1B\n", "0 0", "abc", "0g", "00\u00a0", "\u0660\u0661"]
    got = run(
        page,
        """async (f, texts) => texts.map((text) => {
          try {
            return f.toHex(f.fromHex(text));
          } catch {
            return null;
          }
        })""",
        texts,
    )
    assert got == [_fromhex(text) for text in texts]
    assert got.count(None) == 5


def _fromhex(text: str) -> str | None:
    try:
        return bytes.fromhex(text).hex()
    except ValueError:
        return None


# The record check ---------------------------------------------------------------------------

# What Python's check raises that is not Unfair, and what JavaScript throws for it.
THROWN = {TypeError: "TypeError", AttributeError: "TypeError", KeyError: "TypeError"}


def python_check(record: dict[str, Any]) -> dict[str, Any]:
    """`check_record`'s verdict as `checkRecord` words it."""
    try:
        seed = fair.check_record(record)
    except fair.Unfair as error:
        return {"ok": False, "where": error.where, "detail": error.detail}
    except (TypeError, AttributeError, KeyError) as error:
        return {"throws": THROWN[type(error)]}
    except ValueError:
        return {"throws": "RangeError"}
    return {"ok": True, "gameSeed": seed.hex()}


def browser_checks(page: Page, records: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """`checkRecord`'s verdict on each record (`{"throws": <error name>}` when it throws), in
    one page."""
    result: dict[str, Any] = run(
        page,
        """async (f, records) => {
          const verdicts = {};
          for (const [name, record] of Object.entries(records)) {
            try {
              verdicts[name] = await f.checkRecord(record);
            } catch (error) {
              verdicts[name] = { throws: error.name };
            }
          }
          return verdicts;
        }""",
        records,
    )
    return result


def said(verdict: dict[str, Any]) -> str:
    """What a verdict says: ok, the `where` of the first disagreement, or what was thrown."""
    return "ok" if verdict.get("ok") else verdict.get("where") or verdict["throws"]


def test_the_engine_tests_records_check_as_in_python(open_player: Callable[..., Page]) -> None:
    """The fair record of tests/games/engine/test_fair.py, and each of its alterations."""
    page = open_player("/")
    records = {"fair": fair_record()}
    records.update(
        (f"{n} {where}", altered(change)) for n, (change, where) in enumerate(ALTERATIONS)
    )
    expected = {name: python_check(record) for name, record in records.items()}
    assert expected["fair"] == {"ok": True, "gameSeed": SEED.hex()}
    assert [said(expected[name]) for name in records][1:] == [w for _, w in ALTERATIONS]
    assert browser_checks(page, records) == expected


def _seat(number: int, **changes: Any) -> Callable[[dict[str, Any]], None]:
    return lambda r: r["fairness"]["seats"][number].update(changes)


def _spaced_capitals(r: dict[str, Any]) -> None:
    seed = r["fairness"]["seats"][0]["server_seed"].upper()
    r["fairness"]["seats"][0]["server_seed"] = " ".join(
        seed[at : at + 2] for at in (range(0, 64, 2))
    )


def _seated(*entrants: str) -> Callable[[dict[str, Any]], None]:
    """A ranked record seated as the seed seats these entrants (`cpu:None`: a CPU seat whose
    level is null), two of them players: the seed pairs theirs, in their seats, and the first
    starter the seed's for that many seats."""

    def seat(entrant: str) -> dict[str, Any]:
        if entrant.startswith("cpu:"):
            level = None if entrant == "cpu:None" else entrant[4:]
            return {"player_id": None, "is_cpu": True, "cpu_level": level}
        return {"player_id": entrant, "is_cpu": False}

    def change(r: dict[str, Any]) -> None:
        r["seats"] = [seat(entrant) for entrant in fair.FairDeal(SEED).seats(list(entrants))]
        humans = [(n, s) for n, s in enumerate(r["seats"]) if not s["is_cpu"]]
        for pair, (number, human) in zip(r["fairness"]["seats"], humans, strict=True):
            pair.update(seat=number, player_id=human["player_id"])
        r["players"] = len(entrants)
        r["rounds"][0]["starter"] = fair.FairDeal(SEED).first_starter(len(entrants))

    return change


def _swapped_seats_unranked(r: dict[str, Any]) -> None:
    r["ranked"] = []  # falsy in Python (not in JavaScript): no seating to check
    swap_seats_0_and_1(r)


# Records that Python's reading of JSON decides (`==`, `or`, `str()`, `repr()`, `int()`,
# `bytes.fromhex`, a bool being an int): (id, change, what Python's check says).
EDGES: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("hex-spaced-capitals", _spaced_capitals, "seat 0 server_seed"),
    ("server-seed-not-a-string", _seat(0, server_seed=5), "seat 0 server_seed"),
    ("server-seed-odd-hex", _seat(1, server_seed="abc"), "seat 1 server_seed"),
    # An empty key: WebCrypto refuses it, HMAC pads it with zeros.
    (
        "server-seed-empty",
        _seat(1, server_seed="", commitment=hashlib.sha256().hexdigest()),
        "seat 1 server_seed",
    ),
    # A server seed is 32 bytes: another length is refused, its commitment though it match.
    (
        "server-seed-33-bytes",
        _seat(0, server_seed="00" * 33, commitment=hashlib.sha256(bytes(33)).hexdigest()),
        "seat 0 server_seed",
    ),
    (
        "server-seed-31-bytes",
        _seat(1, server_seed="ab" * 31, commitment=hashlib.sha256(b"\xab" * 31).hexdigest()),
        "seat 1 server_seed",
    ),
    ("seat-number-null", _seat(0, seat=None, commitment="0" * 64), "seat None commitment"),
    ("seat-number-missing", lambda r: r["fairness"]["seats"][1].pop("seat"), "seats"),
    ("client-seed-too-long", _seat(0, client_seed="x" * 65), "seat 0 client_seed"),
    ("no-human-seat", lambda r: r["fairness"].update(seats=[]), "seats"),
    ("version-a-number", lambda r: r["fairness"].update(version=1), "version"),
    ("version-quoted", lambda r: r["fairness"].update(version="it's\n"), "version"),
    ("version-missing", lambda r: r["fairness"].pop("version"), "version"),
    # `players` is the number of the record's seats: a bool is none (though an int in Python).
    ("players-true", lambda r: r.update(players=True), "seats"),
    ("players-missing", lambda r: r.pop("players"), "seats"),
    ("players-a-string", lambda r: r.update(players="3"), "seats"),
    ("is-cpu-a-string", lambda r: r["seats"][2].update(is_cpu="yes"), "seat 2"),
    # True == 1 in Python: a player's id of 1 is the seed pair's `true` (unranked: no seating).
    (
        "player-id-true-is-1",
        lambda r: (
            r["seats"][0].update(player_id=1),
            r["fairness"]["seats"][0].update(player_id=True),
            r.update(ranked=False),
        ),
        "ok",
    ),
    ("decks-a-string", lambda r: r["rules"].update(decks=" 1 "), "ok"),
    ("no-rules", lambda r: r.update(rules=[]), "ok"),
    (
        "a-stranger-card",
        lambda r: r["rounds"][1]["actions"][1]["reshuffle"].append("ZZ"),
        "round 2 reshuffle 1",
    ),
    (
        "reshuffle-a-string",
        lambda r: r["rounds"][1]["actions"][1].update(reshuffle="KH"),
        "round 2 reshuffle 1",
    ),
    ("an-action-a-string", lambda r: r["rounds"][1]["actions"].insert(0, "pass"), "ok"),
    ("ranked-falsy", _swapped_seats_unranked, "ok"),
    # U+FFFD sorts before the emoji by code point, after it by UTF-16 unit (a surrogate pair).
    ("ranked-by-code-point", _seated("\U0001f600", "\ufffd", "cpu:hard"), "ok"),
    # str(None) is "None": "cpu:None" sorts before "cpu:O" ("cpu:null" would not).
    ("cpu-level-null", _seated("cpu:O", "p-b", "p-a", "cpu:None"), "ok"),
    ("no-rounds", lambda r: r.update(rounds=[]), "ok"),
    ("players-zero", lambda r: r.update(players=0), "seats"),
    ("decks-null", lambda r: r["rules"].update(decks=None), "rules"),
    ("decks-nine", lambda r: r["rules"].update(decks=9), "rules"),
    ("jokers-negative", lambda r: r["rules"].update(jokers="-1"), "rules"),
    ("a-round-a-string", lambda r: r["rounds"].__setitem__(1, "x"), "round 2"),
]


def test_a_record_reads_as_python_reads_it(open_player: Callable[..., Page]) -> None:
    page = open_player("/")
    records = {name: altered(change) for name, change, _ in EDGES}
    assert all(record != fair_record() for record in records.values())
    expected = {name: python_check(record) for name, record in records.items()}
    assert {name: said(verdict) for name, verdict in expected.items()} == {
        name: verdict for name, _, verdict in EDGES
    }
    assert browser_checks(page, records) == expected


def test_a_malformed_record_is_named_as_in_python(open_player: Callable[..., Page]) -> None:
    """The malformed records of tests/games/engine/test_fair.py: named alike, never thrown."""
    page = open_player("/")
    records = {name: malformed(change) for name, change, _ in MALFORMED}
    expected = {name: python_check(record) for name, record in records.items()}
    assert [said(expected[name]) for name in records] == [where for _, _, where in MALFORMED]
    assert browser_checks(page, records) == expected


def _shown(record: dict[str, Any]) -> dict[str, Any]:
    """What the game payload showed from the start (`fairness` of docs/api.md, Game)."""
    return {
        "version": record["fairness"]["version"],
        "seats": [
            {key: pair[key] for key in ("seat", "commitment", "client_seed")}
            for pair in record["fairness"]["seats"]
        ],
    }


NOT_SHOWN = "is not the one shown when the game started"

# What the game showed at the start changed, and what `checkShown` names.
SHOWN: list[tuple[str, Callable[[dict[str, Any]], Any], Any]] = [
    ("as-shown", lambda shown: None, {"ok": True}),
    (
        "another-commitment",
        lambda shown: shown["seats"][0].update(commitment="0" * 64),
        {"ok": False, "where": "seat 0 commitment", "detail": NOT_SHOWN},
    ),
    (
        "another-client-seed",
        lambda shown: shown["seats"][1].update(client_seed="carol"),
        {"ok": False, "where": "seat 1 client_seed", "detail": NOT_SHOWN},
    ),
    (
        "a-seat-more",
        lambda shown: shown["seats"].append(
            {"seat": 2, "commitment": "0" * 64, "client_seed": "x"}
        ),
        {
            "ok": False,
            "where": "seat 2",
            "detail": "the seed pair shown when the game started is missing",
        },
    ),
    (
        "a-seat-less",
        lambda shown: shown["seats"].pop(0),
        {
            "ok": False,
            "where": "seat 0",
            "detail": "has a seed pair not shown when the game started",
        },
    ),
    (
        "nothing-shown",
        lambda shown: shown.clear(),
        {
            "ok": False,
            "where": "seat 0",
            "detail": "has a seed pair not shown when the game started",
        },
    ),
]


def test_the_record_is_checked_against_what_the_game_showed(
    open_player: Callable[..., Page],
) -> None:
    """`checkShown(record, shown)`: the record's commitments and client seeds are those the game
    payload showed from the start, seat by seat (a record re-seeded after the start, its every
    deck made again, passes `checkRecord` but not this)."""
    page = open_player("/")
    cases = {}
    for name, change, _ in SHOWN:
        shown = _shown(fair_record())
        change(shown)
        cases[name] = {"record": fair_record(), "shown": shown}
    got = run(
        page,
        """async (f, cases) => Object.fromEntries(
          Object.entries(cases).map(([name, c]) => [name, f.checkShown(c.record, c.shown)]),
        )""",
        cases,
    )
    assert got == {name: verdict for name, _, verdict in SHOWN}
