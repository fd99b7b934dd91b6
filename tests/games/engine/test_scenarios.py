"""Every shared scenario replays to exactly what its ``expect`` says."""

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine.record import replay_document

# The shared folder beside the project is the authority; a clone without it (a CI runner)
# replays the copy kept here, taken from it.
SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "scenarios"
SCENARIOS = SHARED if SHARED.is_dir() else Path(__file__).resolve().parent / "scenarios"
# The games of docs/rules.md §12's variants are in variants/ (one per preset and a few key mixes).
FILES = sorted(SCENARIOS.glob("*.json")) + sorted(SCENARIOS.glob("variants/*.json"))


def test_scenarios_are_present_and_the_kept_copy_is_current() -> None:
    assert len(FILES) >= 27
    assert len(list(SCENARIOS.glob("variants/*.json"))) >= 8
    kept = Path(__file__).resolve().parent / "scenarios"
    for path in FILES:
        copy = kept / path.relative_to(SCENARIOS)
        assert copy.read_text() == path.read_text(), f"refresh {copy}"


@pytest.mark.parametrize(
    "path", FILES, ids=[str(path.relative_to(SCENARIOS).with_suffix("")) for path in FILES]
)
def test_scenario_replays_as_expected(path: Path) -> None:
    document = json.loads(path.read_text())
    expect: dict[str, Any] = document["expect"]
    got = replay_document(document)

    assert set(got) == set(expect)
    if "error" in expect:
        assert (got["error"], got["round"], got["action"]) == (
            expect["error"],
            expect["round"],
            expect["action"],
        )
        return
    assert got["status"] == expect["status"]
    assert got["standings"] == expect["standings"]
    assert len(got["rounds"]) == len(expect["rounds"])
    for number, (mine, theirs) in enumerate(zip(got["rounds"], expect["rounds"], strict=True)):
        assert set(mine) == set(theirs), f"round {number}"
        for field, value in theirs.items():
            assert mine[field] == value, f"round {number}: {field}"
