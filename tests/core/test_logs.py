"""LOG_FORMAT=json: one JSON object a line, each carrying the request's (or task's) ids."""

from __future__ import annotations

import io
import json
import logging.config
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from core import logs
from games.tasks import game_cpu_turn
from tests.games.conftest import Client, simple_move


@pytest.fixture
def json_lines() -> Iterator[Any]:
    """The log lines written under LOG_FORMAT=json since the last read, each parsed (so each
    must be JSON)."""
    logging.config.dictConfig(logs.config("json", "INFO"))
    [handler] = logging.getLogger().handlers
    assert isinstance(handler, logging.StreamHandler)
    buffer = io.StringIO()
    handler.setStream(buffer)

    def read() -> list[dict[str, Any]]:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return [json.loads(line) for line in text.splitlines() if line]

    try:
        yield read
    finally:
        logging.config.dictConfig(settings.LOGGING)


def _started_game(host: Client) -> dict[str, Any]:
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    return host.post(f"/api/v1/games/{game['id']}/start/").json()


def test_a_request_logs_its_ids_and_a_refused_move_its_code(db, json_lines) -> None:
    host = Client.guest("Host")
    game = _started_game(host)
    json_lines()
    stale = {"seq": game["seq"] + 3, **simple_move(game)}
    response = host.post(f"/api/v1/games/{game['id']}/actions/", stale, **{"X-Request-ID": "r-42"})
    assert response.status_code == 409
    assert response["X-Request-ID"] == "r-42"

    lines = json_lines()
    assert lines, "the refusal is logged"
    assert {line["request_id"] for line in lines} == {"r-42"}
    [refused] = [line for line in lines if line["message"].startswith("move refused")]
    assert refused["level"] == "INFO"
    assert refused["code"] == "stale_seq"
    assert refused["game_id"] == game["id"]
    assert refused["player_id"] == str(host.player.pk)


@pytest.mark.parametrize("sent", [None, "", "no spaces allowed", "x" * 200])
def test_a_request_without_a_valid_id_gets_one(db, sent) -> None:
    headers = {} if sent is None else {"X-Request-ID": sent}
    response = Client.guest("Any").api.get("/healthz", headers=headers)
    rid = response["X-Request-ID"]
    assert rid != sent
    assert len(rid) == 32
    assert rid != Client.guest("Other").api.get("/healthz", headers=headers)["X-Request-ID"]


def test_a_task_logs_its_id_and_its_game(db, json_lines) -> None:
    host = Client.guest("Host")
    game = _started_game(host)
    if game["turn"]["seat"] == game["you"]["seat"]:
        game = host.act(game, **simple_move(game)).json()
    json_lines()
    result = game_cpu_turn.apply(args=(game["id"], game["seq"]))
    assert result.get() is True

    lines = json_lines()
    assert lines
    assert {line["request_id"] for line in lines} == {result.id}
    assert {line["game_id"] for line in lines} == {game["id"]}
