"""`python manage.py replay_record FILE...`, run as a user runs it: a process, no database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEPT = ROOT / "tests" / "games" / "engine" / "scenarios"


def _replay(*files: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    # An unreachable database proves the command never opens one.
    environment = {**os.environ, "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}
    return subprocess.run(
        [sys.executable, "manage.py", "replay_record", *files],
        cwd=ROOT,
        env=environment,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_file_prints_its_summary_line_in_order() -> None:
    files = sorted(KEPT.glob("sample-0*.json"))
    result = _replay(*map(str, files))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [json.loads(path.read_text())["expect"] for path in files]


def test_every_variant_prints_its_summary_with_the_wild_cards() -> None:
    files = sorted(KEPT.glob("variants/*.json"))
    assert len(files) >= 8
    result = _replay(*map(str, files))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [json.loads(path.read_text())["expect"] for path in files]
    wild = [line for line, path in zip(lines, files, strict=True) if "wild" in path.name]
    assert wild
    assert all("wild" in summary for line in wild for summary in line["rounds"])


def test_an_illegal_record_names_round_and_action_and_fails() -> None:
    good, bad = KEPT / "sample-00.json", KEPT / "sample-illegal-middle.json"
    result = _replay(str(good), str(bad))
    assert result.returncode == 1
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["status"] == "finished"
    assert second == {"error": "untakeable draw", "round": 1, "action": 1}


def test_dash_reads_a_bare_record_from_stdin() -> None:
    record = json.loads((KEPT / "seed-example.json").read_text())["record"]
    result = _replay("-", stdin=json.dumps(record))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert [r["points"] for r in summary["rounds"]][:1] == [[36, 0, 27]]
