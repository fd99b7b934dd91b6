"""Provably fair deals (games/engine/fair.py, docs/fairness.md): the test vectors of the
specification, the shuffle's uniformity, and the standalone check of a record."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from games.engine import fair

S1 = bytes(range(32))
S2 = bytes(range(32, 64))
SEED = fair.game_seed([(S1, "alice"), (S2, "bob")])


def test_the_vectors_of_the_specification() -> None:
    assert fair.commitment(S1) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert (
        fair.contribution(S1, "alice").hex()
        == "463f6025c34b3678adb8b1f08a14796598ebfad75c4b84d0a18f92e666ea492e"
    )
    assert SEED.hex() == "21b0489b59e4eec07876eea7bd947682d7274c57f6d33bc7315d8188510e59cc"
    assert fair.game_seed([(S2, "bob"), (S1, "alice")]) == SEED  # either order
    stream = fair.Stream(SEED, "round|1|deck")
    assert [stream.word() for _ in range(4)] == [237985666, 2655038548, 794604644, 900574743]
    deck = fair.canonical_deck(1, 2)
    fair.FairDeal(SEED).deal_deck(1, deck)
    assert " ".join(deck) == (
        "4S 3C 7S AH 9S 3S 5D 5S QD 2D X2 4D QH KD KC 7D JC 8C 9C 8S JH QS 6C 2S 5C 4C 6H AC "
        "JS JD 9D KH 2C TH TC 9H 2H TS KS 5H 8H AS 6D 8D TD 7H AD 6S 4H 7C 3H 3D QC X1"
    )
    assert fair.FairDeal(SEED).first_starter(3) == 2
    cards = ["KH", "2C", "AS", "9D", "5S"]
    fair.FairDeal(SEED).reshuffle_stock(1, 1, cards)
    assert cards == ["AS", "9D", "2C", "KH", "5S"]
    assert fair.FairDeal(SEED).seats(["p-b", "p-a", "cpu:hard"]) == ["p-a", "p-b", "cpu:hard"]


def test_the_canonical_deck_is_the_engines() -> None:
    from games.engine.cards import full_deck

    for decks in (1, 2):
        for jokers in (0, 2):
            assert tuple(fair.canonical_deck(decks, jokers)) == full_deck(jokers, decks)


def test_below_rejects_what_would_bias_and_runs_words_on() -> None:
    """A stream's words run on across draws (a block's eight, then the next block), and a word
    at or above the limit is skipped, not folded."""
    words = fair.Stream(SEED, "x")
    first = [words.word() for _ in range(10)]
    draws = fair.Stream(SEED, "x")
    assert [draws.below(1 << 32) for _ in range(10)] == first
    # n = 3 * 2**30: the limit is 3 * 2**30, so every word from it up is rejected.
    n = 3 << 30
    expected = [word % n for word in first if word < n]
    draws = fair.Stream(SEED, "x")
    assert [draws.below(n) for _ in expected] == expected


def test_client_seeds() -> None:
    assert fair.is_client_seed("a")
    assert fair.is_client_seed("~" * 64)
    for bad in ("", " ", "a b", "x" * 65, "é", "\x7f", None, 5):
        assert not fair.is_client_seed(bad)
    seed = fair.new_client_seed()
    assert len(seed) == 16
    assert set(seed) <= set("0123456789abcdef")


# Uniformity: each card's position over many seeded shuffles. The seeds are a fixed list, so
# the statistic is a fixed number: the test cannot flake, and a biased shuffle fails it.
SHUFFLES = 4000
CARDS = 8
# The chi-square critical value for 49 degrees of freedom ((8-1) x (8-1)) at p = 0.001.
CRITICAL = 85.35


def _chi_square(shuffle: Any) -> float:
    counts: Counter[tuple[int, int]] = Counter()
    for index in range(SHUFFLES):
        order = list(range(CARDS))
        shuffle(index, order)
        counts.update((card, place) for place, card in enumerate(order))
    expected = SHUFFLES / CARDS
    return sum(
        (counts[card, place] - expected) ** 2 / expected
        for card in range(CARDS)
        for place in range(CARDS)
    )


def test_the_shuffle_is_uniform() -> None:
    def fair_shuffle(index: int, order: list[int]) -> None:
        fair.Stream(SEED, f"uniformity|{index}").shuffle(order)

    assert _chi_square(fair_shuffle) < CRITICAL


def test_the_uniformity_test_catches_a_biased_shuffle() -> None:
    """The naive shuffle (every card swapped with any place, n^n paths) is biased: the same
    statistic rejects it, so the test above can fail."""

    def naive(index: int, order: list[int]) -> None:
        stream = fair.Stream(SEED, f"uniformity|{index}")
        for i in range(len(order)):
            j = stream.below(len(order))
            order[i], order[j] = order[j], order[i]

    assert _chi_square(naive) > CRITICAL


# A record's check ---------------------------------------------------------------------------


def fair_record() -> dict[str, Any]:
    """A record whose chance is the seed's: two rounds, a reshuffle in the second."""
    deal = fair.FairDeal(SEED)
    decks = []
    for number in (1, 2):
        deck = fair.canonical_deck()
        deal.deal_deck(number, deck)
        decks.append(deck)
    reshuffled = ["KH", "2C", "AS", "9D", "5S"]
    deal.reshuffle_stock(2, 1, reshuffled)
    return {
        "format": "yaniv-record/1",
        "rules": {"decks": 1, "jokers": 2},
        "players": 3,
        "ranked": True,
        "seats": [
            {"player_id": "p-a", "is_cpu": False},
            {"player_id": "p-b", "is_cpu": False},
            {"player_id": None, "is_cpu": True, "cpu_level": "hard"},
        ],
        "rounds": [
            {"starter": 2, "deck": decks[0], "actions": []},
            {
                "starter": 0,
                "deck": decks[1],
                "actions": [{"seat": 0, "yaniv": True}, {"reshuffle": reshuffled}],
            },
        ],
        "fairness": {
            "version": "yaniv-fair/1",
            "game_seed": SEED.hex(),
            "seats": [
                {
                    "seat": 0,
                    "player_id": "p-a",
                    "commitment": fair.commitment(S1),
                    "client_seed": "alice",
                    "server_seed": S1.hex(),
                },
                {
                    "seat": 1,
                    "player_id": "p-b",
                    "commitment": fair.commitment(S2),
                    "client_seed": "bob",
                    "server_seed": S2.hex(),
                },
            ],
        },
    }


def altered(change: Any) -> dict[str, Any]:
    record = fair_record()
    change(record)
    return record


def test_a_fair_record_checks() -> None:
    assert fair.check_record(fair_record()) == SEED


def swap_seats_0_and_1(record: dict[str, Any]) -> None:
    """The two players seated the other way round, seeds and all: the seed seats them not so."""
    record["seats"][:2] = record["seats"][1::-1]
    for pair in record["fairness"]["seats"]:
        pair["seat"] = 1 - pair["seat"]


def _drop_seat(number: int) -> Any:
    """A human seat's pair left out, the game seed made again from the others': the seeds
    left would choose the game (a server's sock puppet at the table)."""

    def change(record: dict[str, Any]) -> None:
        fairness = record["fairness"]
        del fairness["seats"][number]
        pairs = [(bytes.fromhex(p["server_seed"]), p["client_seed"]) for p in fairness["seats"]]
        fairness["game_seed"] = fair.game_seed(pairs).hex()

    return change


# Each alteration of a fair record, and what the check names first (tests/web/test_fairness.py
# checks the browser's check against these too).
ALTERATIONS: list[tuple[Any, str]] = [
    (lambda r: r["fairness"].update(version="yaniv-fair/0"), "version"),
    (lambda r: r["fairness"]["seats"][1].update(server_seed="00" * 32), "seat 1 commitment"),
    (lambda r: r["fairness"]["seats"][0].update(client_seed="mallory"), "game_seed"),
    (lambda r: r["fairness"]["seats"][0].update(client_seed="a b"), "seat 0 client_seed"),
    (lambda r: r["fairness"].update(game_seed="00" * 32), "game_seed"),
    (lambda r: r["rounds"][0].update(starter=1), "round 1 starter"),
    (lambda r: r["rounds"][1]["deck"].reverse(), "round 2 deck"),
    (lambda r: r["rounds"][1]["actions"][1]["reshuffle"].reverse(), "round 2 reshuffle 1"),
    (swap_seats_0_and_1, "seat 0"),
    (lambda r: r.pop("fairness"), "fairness"),
    # The seeds tied to the table: one pair for each human seat, at its number, its player's.
    (_drop_seat(1), "seat 1"),
    (lambda r: r["seats"][1].update(is_cpu=True, cpu_level="hard"), "seat 1"),
    (lambda r: r["fairness"]["seats"][0].update(player_id="p-z"), "seat 0"),
    (lambda r: r["seats"][0].update(player_id="p-z"), "seat 0"),
    (lambda r: r["fairness"]["seats"][1].update(seat=2), "seat 1"),
    (lambda r: r["fairness"]["seats"][1].update(seat=0), "seat 0"),
    (lambda r: r.pop("seats"), "seats"),
    (lambda r: r["seats"].pop(), "seats"),
]


@pytest.mark.parametrize(("change", "where"), ALTERATIONS)
def test_an_altered_record_names_what_disagrees(change: Any, where: str) -> None:
    with pytest.raises(fair.Unfair) as error:
        fair.check_record(altered(change))
    assert error.value.where == where


def test_the_file_alone_checks_a_record(tmp_path: Path) -> None:
    """Copied anywhere, with nothing of the project beside it, under `python -I` (no site
    packages, no current directory on the path)."""
    script = tmp_path / "fair.py"
    shutil.copy(fair.__file__, script)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(fair_record()))
    bad.write_text(json.dumps(altered(lambda r: r["rounds"][0]["deck"].reverse())))
    run = subprocess.run(
        [sys.executable, "-I", str(script), str(good)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert f"verified (game seed {SEED.hex()})" in run.stdout
    run = subprocess.run(
        [sys.executable, "-I", str(script), str(good), str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    assert "bad.json: NOT verified: round 1 deck" in run.stdout


def test_a_fair_deal_refuses_unlabelled_draws() -> None:
    deal = fair.FairDeal(SEED)
    with pytest.raises(TypeError):
        deal.shuffle([1, 2])
    with pytest.raises(TypeError):
        deal.randrange(3)
    # A plain random source would do (the engine's CPU-only uses keep one).
    random.Random(0).shuffle([1, 2])


def _plain_shuffle(stream: fair.Stream, items: list[Any]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("bulk", [True, False])
def test_the_bulk_shuffle_is_the_plain_algorithm(monkeypatch, bulk: bool) -> None:
    """The shuffle reads its words in bulk, or one draw at a time where a word could be
    rejected (forced here for every list with `bulk` off): the same order either way, and the
    stream goes on from the same place."""
    if not bulk:
        monkeypatch.setattr(fair, "_NEVER_REJECTED", 0)
    for index, size in enumerate([0, 1, 2, 3, 9, 53, 54, 104, 108, 300] * 20):
        label = f"bulk|{index}"
        fast, plain = fair.Stream(SEED, label), fair.Stream(SEED, label)
        fast.word()  # start mid-block, as a second shuffle of one stream would
        plain.word()
        got, expected = list(range(size)), list(range(size))
        fast.shuffle(got)
        _plain_shuffle(plain, expected)
        assert got == expected
        assert [fast.word() for _ in range(9)] == [plain.word() for _ in range(9)]


# Malformed records: named as Unfair, never a traceback (the standalone check and replay alike).
MALFORMED: list[tuple[str, Any, str]] = [
    ("a-list", lambda r: [], "record"),
    ("seats-not-a-list", lambda r: r["fairness"].update(seats={"0": {}}), "seats"),
    ("seats-null", lambda r: r["fairness"].update(seats=None), "seats"),
    ("a-seat-not-an-object", lambda r: r["fairness"]["seats"].append("p-c"), "seats"),
    ("a-seat-a-list", lambda r: r["fairness"]["seats"].insert(0, []), "seats"),
    (
        "reshuffle-entry-not-a-list",
        lambda r: r["rounds"][1]["actions"][1].update(reshuffle={"KH": 1}),
        "round 2 reshuffle 1",
    ),
    (
        "reshuffle-card-a-list",
        lambda r: r["rounds"][1]["actions"][1]["reshuffle"].append(["KH"]),
        "round 2 reshuffle 1",
    ),
    ("ranked-seats-too-many", lambda r: r["seats"].append(dict(r["seats"][2])), "seats"),
    ("ranked-seats-a-string", lambda r: r.update(seats="p-a p-b"), "seats"),
    ("a-seat-a-string", lambda r: r["seats"].__setitem__(2, "cpu"), "seats"),
    ("is-cpu-missing", lambda r: r["seats"][2].pop("is_cpu"), "seat 2"),
    ("players-zero", lambda r: r.update(players=0), "seats"),
    ("a-round-a-string", lambda r: r["rounds"].__setitem__(1, "x"), "round 2"),
    ("actions-an-object", lambda r: r["rounds"][1].update(actions={"a": 1}), "round 2"),
    ("rounds-an-object", lambda r: r.update(rounds={"a": 1}), "rounds"),
    ("decks-null", lambda r: r["rules"].update(decks=None), "rules"),
    ("rules-a-string", lambda r: r.update(rules="x"), "rules"),
]


def malformed(change: Any) -> Any:
    """The fair record changed; a change that returns a list replaces it (JSON that is no
    record)."""
    record = fair_record()
    replaced = change(record)
    return replaced if isinstance(replaced, list) else record


@pytest.mark.parametrize(("name", "change", "where"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_record_is_named_not_a_traceback(name: str, change: Any, where: str) -> None:
    with pytest.raises(fair.Unfair) as error:
        fair.check_record(malformed(change))
    assert error.value.where == where
    assert error.value.where == "round 2 reshuffle 1" or "malformed" in error.value.detail


def test_the_file_alone_names_malformed_records(tmp_path: Path) -> None:
    script = tmp_path / "fair.py"
    shutil.copy(fair.__file__, script)
    paths = []
    for name, change, _ in MALFORMED:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(malformed(change)))
        paths.append(str(path))
    run = subprocess.run(
        [sys.executable, "-I", str(script), *paths], capture_output=True, text=True, check=False
    )
    assert run.returncode == 1
    assert run.stderr == ""  # no traceback
    lines = run.stdout.splitlines()
    assert [line.split(": NOT verified: ")[1].split(":")[0] for line in lines] == [
        where for _, _, where in MALFORMED
    ]


def test_a_server_seed_is_32_bytes_in_lowercase_hex() -> None:
    """A server seed of another length (a longer HMAC key, a shorter one) or spelled otherwise
    than the record's lowercase hex is refused, its commitment made to match."""
    for bad in ("00" * 31, "00" * 33, "", S1.hex().upper(), " " + S1.hex(), S1.hex() + "\n"):
        raw = bytes.fromhex(bad)
        record = fair_record()
        record["fairness"]["seats"][0].update(server_seed=bad, commitment=fair.commitment(raw))
        with pytest.raises(fair.Unfair) as error:
            fair.check_record(record)
        assert error.value.where == "seat 0 server_seed", bad
