"""Playing through the REST API, against CPU seats moved by a real Celery worker."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command

from tests.games.conftest import Client, simple_move, wait_for


def _table_with_cpus(host: Client, cpus: int) -> dict[str, Any]:
    game = host.post("/api/v1/games/", {"max_players": cpus + 1}).json()
    for _ in range(cpus):
        assert host.post(f"/api/v1/games/{game['id']}/cpu/").status_code == 200
    started = host.post(f"/api/v1/games/{game['id']}/start/")
    assert started.status_code == 200, started.content
    return started.json()


@pytest.mark.usefixtures("celery_worker")
def test_full_game_against_cpus_replays_to_the_same_standings(make_client, tmp_path) -> None:
    host = make_client("Host")
    game = _table_with_cpus(host, 2)
    game_id = game["id"]
    moves = 0

    def my_turn_or_over() -> dict[str, Any] | None:
        current = host.game(game_id)
        if current["status"] == "finished":
            return current
        turn = current["turn"]
        return current if turn and turn["seat"] == current["you"]["seat"] else None

    while True:
        game = wait_for(my_turn_or_over)
        if game["status"] == "finished":
            break
        response = host.act(game, **simple_move(game))
        assert response.status_code == 200, response.content
        moves += 1
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
