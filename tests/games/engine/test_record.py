"""Records: export from engine events, replay, and every way a record can be wrong."""

import copy
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import hand_total
from games.engine.record import (
    RECORD_FORMAT,
    record_from_events,
    replay,
    replay_document,
    replay_text,
)
from games.engine.rules import Rules
from games.engine.state import EngineEvent
from tests.games.engine.support import random_game

RULES = Rules(call_limit=7)
SUMMARY_KEYS = (
    "caller",
    "outcome",
    "hand_totals",
    "points",
    "totals",
    "eliminated",
    "next_starter",
)


@cache
def played(seed: int = 0, players: int = 5) -> tuple[dict[str, Any], list[EngineEvent]]:
    state, events = random_game(seed, players, RULES, yaniv_chance=0.3)
    assert state.finished
    return record_from_events(RULES, players, events), events


@cache
def base_text() -> str:
    return json.dumps(played()[0])


def base() -> dict[str, Any]:
    """A fresh copy of a finished five-player record with reshuffles, to break."""
    record: dict[str, Any] = json.loads(base_text())
    return record


def where(record: dict[str, Any], key: str) -> tuple[int, int]:
    """The first (round, action) whose action has ``key``."""
    for round_index, entry in enumerate(record["rounds"]):
        for index, action in enumerate(entry["actions"]):
            if key in action:
                return round_index, index
    raise AssertionError(f"no {key} in the record")


def error(record: object) -> tuple[str, int, int]:
    result = replay(record)
    return result["error"], result["round"], result["action"]


def test_export_has_the_record_shape() -> None:
    record, events = played()
    assert record["format"] == RECORD_FORMAT
    assert record["rules"] == RULES.to_dict()
    assert record["players"] == 5
    assert "seats" not in record
    starts = [event for event in events if event["type"] == "round_started"]
    assert [entry["deck"] for entry in record["rounds"]] == [event["deck"] for event in starts]
    assert [entry["starter"] for entry in record["rounds"]] == [
        event["starter"] for event in starts
    ]
    first = record["rounds"][0]["actions"][0]
    assert set(first) == {"seat", "discard", "draw"}
    assert any("reshuffle" in action for entry in record["rounds"] for action in entry["actions"])
    assert all(
        entry["actions"][-1] == {"seat": entry["actions"][-1]["seat"], "yaniv": True}
        for entry in record["rounds"]
    )


def test_replay_gives_the_live_summary() -> None:
    record, events = played()
    ended = [event for event in events if event["type"] == "round_ended"]
    finished = [event for event in events if event["type"] == "game_ended"]
    assert replay(record) == {
        "status": "finished",
        "rounds": [{key: event[key] for key in SUMMARY_KEYS} for event in ended],
        "standings": finished[0]["standings"],
    }


def test_export_keeps_seats_and_the_at_and_by_keys_and_skips_service_events() -> None:
    _, events = played()
    service: list[dict[str, Any]] = [{"type": "game_started"}]
    for event in events:
        service.append({**event, "at": "2026-01-01T00:00:00Z", "by": "cpu"})
        service.append({"type": "player_away", "seat": 0})
    seats = [
        {"player_id": str(seat), "display_name": f"P{seat}", "is_cpu": False} for seat in range(5)
    ]
    record = record_from_events(RULES, 5, service, seats)
    assert record["seats"] == seats
    action = record["rounds"][0]["actions"][0]
    assert action["at"] == "2026-01-01T00:00:00Z"
    assert action["by"] == "cpu"
    assert replay(record) == replay(played()[0])


def test_replay_document_unwraps_scenarios() -> None:
    record = base()
    assert replay_document({"record": record, "expect": {}}) == replay(record)
    assert replay_document(record) == replay(record)


def test_a_record_that_stops_after_a_round_end_is_in_progress() -> None:
    record = base()
    record["rounds"] = record["rounds"][:2]
    result = replay(record)
    assert result["status"] == "in_progress"
    assert len(result["rounds"]) == 2
    assert result["standings"] is None


def test_a_record_that_stops_mid_round_lists_only_ended_rounds() -> None:
    record = base()
    record["rounds"] = record["rounds"][:2]
    record["rounds"][1]["actions"] = record["rounds"][1]["actions"][:3]
    result = replay(record)
    assert result == {
        "status": "in_progress",
        "rounds": replay(base())["rounds"][:1],
        "standings": None,
    }


def test_a_record_without_rounds_is_in_progress() -> None:
    record = base()
    record["rounds"] = []
    assert replay(record) == {"status": "in_progress", "rounds": [], "standings": None}


def test_missing_rules_take_the_defaults() -> None:
    record = base()
    record["rules"] = {"call_limit": 7}
    assert replay(record) == replay(base())
    record["rules"] = {}
    defaults = replay(record)
    del record["rules"]
    assert replay(record) == defaults


def test_wrong_seat() -> None:
    record = base()
    action = record["rounds"][1]["actions"][2]
    action["seat"] = (action["seat"] + 1) % 5
    assert error(record) == ("not your turn", 1, 2)


def test_card_not_in_hand() -> None:
    record = base()
    action = record["rounds"][0]["actions"][1]
    action["discard"] = [record["rounds"][0]["deck"][-1]]  # the bottom of the stock
    assert error(record) == ("card not in hand", 0, 1)


def test_untakeable_draw() -> None:
    record = base()
    record["rounds"][0]["actions"][0]["draw"] = record["rounds"][0]["deck"][-1]
    assert error(record) == ("untakeable draw", 0, 0)


@pytest.mark.parametrize("round_index", [0, 3])
def test_a_deck_that_is_not_a_permutation(round_index: int) -> None:
    record = base()
    deck = record["rounds"][round_index]["deck"]
    deck[1] = deck[0]
    assert error(record) == ("deck not a permutation", round_index, 0)
    record["rounds"][round_index]["deck"] = deck[1:]
    assert error(record) == ("deck not a permutation", round_index, 0)
    record["rounds"][round_index]["deck"] = [*deck, "X3"]
    assert error(record) == ("deck not a permutation", round_index, 0)
    record["rounds"][round_index]["deck"] = "AS"
    assert error(record) == ("deck not a permutation", round_index, 0)
    record["rounds"][round_index]["deck"] = None
    assert error(record) == ("deck not a permutation", round_index, 0)
    del record["rounds"][round_index]["deck"]
    assert error(record) == ("deck not a permutation", round_index, 0)


def test_a_deck_without_jokers_when_they_are_in_play() -> None:
    record = base()
    record["rounds"][0]["deck"] = [card for card in record["rounds"][0]["deck"] if card[0] != "X"]
    assert error(record) == ("deck not a permutation", 0, 0)


@pytest.mark.parametrize("starter", [5, -1, "0", None, True])
def test_a_first_starter_that_is_no_seat(starter: object) -> None:
    record = base()
    record["rounds"][0]["starter"] = starter
    assert error(record) == ("wrong starter", 0, 0)


def test_a_later_starter_that_disagrees_with_the_rules() -> None:
    record = base()
    record["rounds"][2]["starter"] = (record["rounds"][2]["starter"] + 1) % 5
    assert error(record) == ("wrong starter", 2, 0)


def test_missing_reshuffle() -> None:
    record = base()
    round_index, index = where(record, "reshuffle")
    del record["rounds"][round_index]["actions"][index]
    assert error(record) == ("missing reshuffle", round_index, index)


def test_unexpected_reshuffle() -> None:
    record = base()
    record["rounds"][0]["actions"].insert(2, {"reshuffle": record["rounds"][0]["deck"][20:]})
    assert error(record) == ("unexpected reshuffle", 0, 2)
    record = base()
    record["rounds"][0]["actions"].insert(0, {"reshuffle": []})
    assert error(record) == ("unexpected reshuffle", 0, 0)


def test_a_reshuffle_that_is_not_the_pile() -> None:
    record = base()
    round_index, index = where(record, "reshuffle")
    order = record["rounds"][round_index]["actions"][index]["reshuffle"]
    order[0] = order[1]
    assert error(record) == ("reshuffle not a permutation", round_index, index)
    order.pop(0)
    assert error(record) == ("reshuffle not a permutation", round_index, index)


def test_a_reshuffle_keeps_its_recorded_order() -> None:
    record = base()
    round_index, index = where(record, "reshuffle")
    order = record["rounds"][round_index]["actions"][index]["reshuffle"]
    order.reverse()
    # Another order of the same cards is a different game: it replays to something else
    # or to an illegal draw, never silently to the same summary.
    assert replay(record) != replay(base())


def test_an_action_after_the_round_ended() -> None:
    record = base()
    actions = record["rounds"][0]["actions"]
    actions.append(copy.deepcopy(actions[0]))
    assert error(record) == ("round already ended", 0, len(actions) - 1)


def test_a_round_that_did_not_end() -> None:
    record = base()
    record["rounds"][1]["actions"].pop()
    assert error(record) == ("round not ended", 2, 0)


def test_rounds_after_the_game_ended() -> None:
    record = base()
    record["rounds"].append(copy.deepcopy(record["rounds"][-1]))
    assert error(record) == ("game over", len(record["rounds"]) - 1, 0)
    record = base()
    last = record["rounds"][-1]["actions"]
    last.append(copy.deepcopy(last[0]))
    assert error(record) == ("game over", len(record["rounds"]) - 1, len(last) - 1)


def test_yaniv_above_the_limit() -> None:
    record = base()
    first = record["rounds"][0]
    assert hand_total(first["deck"][0:25:5]) > RULES.call_limit  # the starter's deal
    first["actions"][0] = {"seat": first["starter"], "yaniv": True}
    assert error(record) == ("yaniv above limit", 0, 0)


@pytest.mark.parametrize(
    "action",
    [
        {"seat": 0},
        {"seat": 0.0, "discard": ["AS"], "draw": "stock"},
        {"seat": True, "discard": ["AS"], "draw": "stock"},
        {"seat": 0.0, "yaniv": True},
        {"seat": 0, "yaniv": False},
        {"seat": 0, "discard": "AS", "draw": "stock"},
        {"seat": 0, "discard": ["AS"]},
        {"discard": ["AS"], "draw": "stock"},
        ["seat", 0],
        "yaniv",
    ],
)
def test_malformed_actions(action: object) -> None:
    record = base()
    record["rounds"][0]["actions"][3] = action
    assert error(record) == ("malformed action", 0, 3)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"format": "yaniv-record/2"}, "unknown format"),
        ({"players": 6}, "invalid players"),
        ({"players": "5"}, "invalid players"),
        (
            {"rules": {"call_limit": 99}},
            "invalid rules: call_limit must be an integer from 0 to 15",
        ),
        ({"rules": {"speed": 1}}, "invalid rules: unknown rule 'speed'"),
        ({"rounds": {}}, "malformed action"),
        ({"rounds": [{"starter": 0, "deck": []}]}, "malformed action"),
    ],
)
def test_header_faults_are_round_0_action_0(change: dict[str, Any], reason: str) -> None:
    assert error({**base(), **change}) == (reason, 0, 0)


@pytest.mark.parametrize("record", [None, [], "yaniv-record/1", {"rounds": []}])
def test_not_a_record(record: object) -> None:
    assert error(record) == ("unknown format", 0, 0)


def test_extra_action_keys_are_ignored() -> None:
    record = base()
    for entry in record["rounds"]:
        for action in entry["actions"]:
            if "seat" in action:
                action["at"] = "2026-01-01T00:00:00Z"
                action["by"] = "player"
    assert replay(record) == replay(base())


def test_replay_text_reads_records_and_scenario_wrappers() -> None:
    record = base()
    assert replay_text(json.dumps(record)) == replay(record)
    assert replay_text(json.dumps({"record": record, "expect": None}).encode()) == replay(record)


@pytest.mark.parametrize("text", ["", "{", "not json", b"\xff", "[" * 5000 + "]" * 5000])
def test_replay_text_reports_bad_json(text: str | bytes) -> None:
    result = replay_text(text)
    assert result["error"].startswith("invalid JSON")
    assert (result["round"], result["action"]) == (0, 0)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 60) | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
action_keys = st.sampled_from(["seat", "discard", "draw", "yaniv", "reshuffle", "at"])


@settings(max_examples=200, deadline=None)
@given(
    round_pick=st.integers(0, 10**6),
    action_pick=st.integers(0, 10**6),
    key=action_keys,
    value=json_values,
    delete=st.booleans(),
)
def test_any_mangled_action_gives_a_summary_or_an_error(
    round_pick: int, action_pick: int, key: str, value: object, delete: bool
) -> None:
    record = base()
    entry = record["rounds"][round_pick % len(record["rounds"])]
    actions = entry["actions"]
    action = actions[action_pick % len(actions)]
    if delete:
        action.pop(key, None)
    else:
        action[key] = value
    check_outcome(replay(record))


def retype(value: Any, how: int) -> Any:
    """Much the same value in another JSON type: 1 -> 1.0 or true, ["5H"] -> "5H", ..."""
    if how == 0 and type(value) is int:
        return float(value)
    if how == 1 and type(value) is int:
        return value == 1
    if how == 2 and isinstance(value, list):
        return value[0] if value else None
    if how == 3:
        return [value]
    return str(value)


@settings(max_examples=200, deadline=None)
@given(
    round_pick=st.integers(0, 10**6),
    action_pick=st.integers(0, 10**6),
    key=action_keys,
    how=st.integers(0, 4),
)
def test_any_retyped_action_field_gives_a_summary_or_an_error(
    round_pick: int, action_pick: int, key: str, how: int
) -> None:
    record = base()
    entry = record["rounds"][round_pick % len(record["rounds"])]
    actions = entry["actions"]
    action = actions[action_pick % len(actions)]
    if key in action:
        action[key] = retype(action[key], how)
    check_outcome(replay(record))


@settings(max_examples=100, deadline=None)
@given(
    key=st.sampled_from(["format", "rules", "players", "rounds", "starter", "deck", "actions"]),
    value=json_values,
)
def test_any_mangled_header_or_round_gives_a_summary_or_an_error(key: str, value: object) -> None:
    record = base()
    if key in ("starter", "deck", "actions"):
        record["rounds"][1][key] = value
    else:
        record[key] = value
    check_outcome(replay(record))


def check_outcome(result: dict[str, Any]) -> None:
    if "error" in result:
        assert set(result) == {"error", "round", "action"}
        assert type(result["error"]) is str
        assert type(result["round"]) is int
        assert type(result["action"]) is int
    else:
        assert set(result) == {"status", "rounds", "standings"}
    json.dumps(result)
