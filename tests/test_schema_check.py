"""The check every test runs (tests/schema_check.py): it passes what the schema describes and
catches what it does not, in REST answers and websocket messages alike."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from accounts.services import guest_create
from config.asgi import application
from games.models import Seat
from games.projection import game_payload
from games.services import lobby
from tests.schema_check import PayloadMismatch, PublishedSchema, json_schema

GAME = "/api/v1/games/00000000-0000-4000-8000-000000000000/"
NOW = "2026-01-01T00:00:00+00:00"


@pytest.fixture(scope="module")
def schema() -> PublishedSchema:
    return PublishedSchema()


@pytest.fixture
def host(client_for) -> APIClient:
    return client_for(guest_create(display_name="Host")[0])


@pytest.fixture
def game(host) -> dict[str, Any]:
    """A started game against the CPU, as its host sees it (checked on the way in)."""
    game = host.post("/api/v1/games/", {"max_players": 2}, format="json").json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    return host.post(f"/api/v1/games/{game['id']}/start/").json()


def _broken(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The game payload, wrong in each of the ways a builder and its TypedDict can part."""
    missing, extra, mistyped, null = (copy.deepcopy(game) for _ in range(4))
    del missing["stock_count"]
    extra["seats"][1]["hand"] = ["AS", "2S"]  # a hidden hand, in a key the schema lacks
    mistyped["you"]["hand_total"] = "7"
    null["discard"] = None
    enum, uuid = copy.deepcopy(game), copy.deepcopy(game)
    enum["status"] = "paused"
    uuid["id"] = "not-a-uuid"
    return [missing, extra, mistyped, null, enum, uuid]


def test_a_game_as_sent_passes(schema, db, game) -> None:
    schema.check_response("GET", GAME, 200, game)


def test_every_way_a_game_can_differ_is_caught(schema, db, game) -> None:
    for wrong in _broken(game):
        with pytest.raises(PayloadMismatch):
            schema.check_response("GET", GAME, 200, wrong)


def test_a_status_the_operation_does_not_list_is_caught(schema) -> None:
    body = {"detail": "No.", "code": "no"}
    schema.check_response("GET", GAME, 404, body)
    with pytest.raises(PayloadMismatch, match="does not list"):
        schema.check_response("GET", GAME, 418, body)


def test_a_body_that_is_not_json_is_caught(schema) -> None:
    with pytest.raises(PayloadMismatch, match="not JSON"):
        schema.check_response("GET", GAME, 404, b"<html>", content_type="text/html")


def test_error_bodies_may_add_keys_of_their_own(schema) -> None:
    act, stale = f"{GAME}actions/", {"detail": "Stale.", "code": "stale_seq", "game": {}}
    schema.check_response("POST", act, 409, stale)
    with pytest.raises(PayloadMismatch):
        schema.check_response("POST", act, 409, {"detail": "No code."})


def test_socket_messages_are_checked_by_their_type(schema, db, game) -> None:
    socket = f"/ws/v1/games/{game['id']}/"
    schema.check_message(socket, json.dumps({"type": "game", "event": None, "game": game}))
    schema.check_message(socket, json.dumps({"type": "error", "code": "invalid", "detail": "No."}))
    for wrong in [
        {"type": "game", "event": None},
        {"type": "your_turn", "game_id": game["id"]},  # a me-socket message
        {"type": "game", "event": {"seq": 1, "type": "played"}, "game": game},  # no `at`
        *({"type": "game", "event": None, "game": broken} for broken in _broken(game)),
    ]:
        with pytest.raises(PayloadMismatch):
            schema.check_message(socket, json.dumps(wrong))
    schema.check_message("/ws/v1/me/", json.dumps({"type": "your_turn", "game_id": game["id"]}))
    with pytest.raises(PayloadMismatch):
        schema.check_message("/ws/v1/me/", json.dumps({"type": "your_turn", "game_id": 7}))


def test_a_cpu_seat_in_match_history_is_a_null_player(schema) -> None:
    """`players` items are a `player` or null (a CPU seat), and nothing else."""
    cpu_seat = {
        "id": GAME.split("/")[-2],
        "ranked": True,
        "pool": "ranked",  # added by issue 31 (docs/api.md, Match history)
        "finished_at": NOW,
        "place": 1,
        # Added by issue 17 (docs/api.md, Match history).
        "seat": 0,
        "seat_names": ["CPU"],
        "rating_before": None,
        "rating_after": None,
    }
    path = "/api/v1/players/00000000-0000-4000-8000-000000000000/games/"

    def page(players: list[Any]) -> dict[str, Any]:
        results = [{**cpu_seat, "players": players}]
        return {"count": 1, "next": None, "previous": None, "results": results}

    schema.check_response("GET", path, 200, page([None]))
    with pytest.raises(PayloadMismatch):
        schema.check_response("GET", path, 200, page([7]))


def test_nullable_becomes_a_null_alternative() -> None:
    assert json_schema({"type": "integer", "nullable": True}) == {
        "anyOf": [{"type": "integer"}, {"type": "null"}]
    }
    assert json_schema({"type": "object", "properties": {"a": {"type": "string"}}}) == {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": False,
    }


def test_a_test_client_meets_a_payload_its_schema_lacks(db, host, game, monkeypatch) -> None:
    """The suite's own clients are checked: a builder that adds a key fails the test."""
    assert host.get(f"/api/v1/games/{game['id']}/").status_code == 200
    monkeypatch.setattr("games.apis.game_payload", _leaky)
    with pytest.raises(PayloadMismatch, match="deck"):
        host.get(f"/api/v1/games/{game['id']}/")


def _leaky(*args: Any) -> dict[str, Any]:
    return {**game_payload(*args), "deck": ["AS"]}


@pytest.mark.django_db(transaction=True)
async def test_a_socket_meets_a_message_its_schema_lacks(monkeypatch) -> None:
    """So are the websocket communicators: a message with a key too many fails the test."""
    host, token = await database_sync_to_async(guest_create)(display_name="Host")
    await database_sync_to_async(lobby.game_create)(host=host, max_players=2, rules={})
    game_id = await database_sync_to_async(lambda: str(Seat.objects.get(player=host).game_id))()
    monkeypatch.setattr("games.consumers.game_payload", _leaky)
    socket = WebsocketCommunicator(
        application,
        f"/ws/v1/games/{game_id}/",
        headers=[(b"authorization", f"Bearer {token}".encode())],
    )
    assert (await socket.connect())[0]
    with pytest.raises(PayloadMismatch, match="deck"):
        await socket.receive_json_from(timeout=5)
    await socket.disconnect()
