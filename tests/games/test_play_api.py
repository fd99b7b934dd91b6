"""Playing through the REST API, against CPU seats moved by a real Celery worker."""

from __future__ import annotations

import io
import json
import threading
import time
from typing import Any

import pytest
from celery.signals import task_success
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from core.prepared import DEFAULT
from games.tasks import game_cpu_turn
from tests.games.conftest import Client, simple_move, wait_for


def _table_with_cpus(host: Client, cpus: int) -> dict[str, Any]:
    game = host.post("/api/v1/games/", {"max_players": cpus + 1}).json()
    for _ in range(cpus):
        assert host.post(f"/api/v1/games/{game['id']}/cpu/").status_code == 200
    started = host.post(f"/api/v1/games/{game['id']}/start/")
    assert started.status_code == 200, started.content
    return started.json()


def _play_out(host: Client, game_id: str, interval: float = 0.02) -> tuple[dict[str, Any], int]:
    """The game played to its end by `host`'s simple moves: the finished game, and how many
    moves `host` made. Each CPU turn must come within 30 s, the game polled every `interval`
    seconds (at 0.2 a stuck worker fails as a turn that never came, before the player's rate
    limit of 600 requests a minute answers the polls 429)."""
    moves = 0

    def my_turn_or_over() -> dict[str, Any] | None:
        current = host.game(game_id)
        if current["status"] == "finished":
            return current
        turn = current["turn"]
        return current if turn and turn["seat"] == current["you"]["seat"] else None

    while True:
        game = wait_for(my_turn_or_over, interval=interval)
        if game["status"] == "finished":
            return game, moves
        response = host.act(game, **simple_move(game))
        assert response.status_code == 200, response.content
        moves += 1


@pytest.mark.usefixtures("celery_worker")
def test_full_game_against_cpus_replays_to_the_same_standings(make_client, tmp_path) -> None:
    host = make_client("Host")
    game, moves = _play_out(host, _table_with_cpus(host, 2)["id"])
    game_id = game["id"]
    assert moves > 0
    assert game["standings"] is not None
    assert sorted(s["seat"] for s in game["standings"]) == [0, 1, 2]

    record = host.get(f"/api/v1/games/{game_id}/record/").json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = io.StringIO()
    call_command("replay_record", str(path), stdout=out)
    summary = json.loads(out.getvalue())
    assert summary["status"] == "finished"
    assert summary["standings"] == game["standings"]


@pytest.mark.usefixtures("celery_worker")
def test_cpu_turns_run_on_prepared_statements_to_the_end_of_a_game(make_client) -> None:
    """The game that once hung for good in the worker's pool check (`execute("")`), blamed on
    prepared statements: Celery's Django fixup had closed the socket of a pooled connection
    under it (tests/games/conftest.py, `celery_worker`). With statements prepared wherever the
    settings prepare them (direct to PostgreSQL: DB_PREPARE_THRESHOLD's default), every CPU
    turn comes within its bound, and the worker's connection runs prepared statements by the
    end (behind PgBouncer, where they are off: none)."""
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    seen: list[tuple[int | None, int]] = []  # per CPU turn: its connection's threshold, count
    lock = threading.Lock()

    def count_prepared(sender: Any, **kwargs: Any) -> None:
        # In the worker's thread, on the connection the task ran on (still open: the fixup
        # gives it back only after the task).
        if sender.name != game_cpu_turn.name or connection.connection is None:
            return
        row = connection.connection.execute(
            "SELECT count(*) FROM pg_prepared_statements", prepare=False
        ).fetchone()
        with lock:
            seen.append((connection.connection.prepare_threshold, row[0] if row else 0))

    task_success.connect(count_prepared, weak=False)
    try:
        host = make_client("Host")
        started = time.monotonic()
        game, _ = _play_out(host, _table_with_cpus(host, 2)["id"], interval=0.2)
        elapsed = time.monotonic() - started
    finally:
        task_success.disconnect(count_prepared)
    assert game["status"] == "finished"
    assert elapsed < 120, f"a game against two CPUs took {elapsed:.0f} s"
    with lock:
        assert len(seen) > 2 * DEFAULT, seen  # enough CPU turns for the threshold to pass
        assert {used for used, _ in seen} == {threshold}
        assert (max(count for _, count in seen) > 0) == (threshold is not None), seen
