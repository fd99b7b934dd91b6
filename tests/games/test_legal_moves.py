"""`GET /games/{id}/legal-moves/` (docs/api.md): the seat in turn's every move, each the body
`POST .../actions/` takes, under every preset and variant (docs/rules.md §12); never a move the
engine refuses."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import transaction

from games.engine.rules import Preset
from games.engine.state import GameState, apply
from games.models import Game
from games.services.play import parse_action
from tests.games.conftest import Client, play_moves

VARIANTS: list[dict[str, Any]] = [
    *({"preset": preset.value} for preset in Preset),
    {"decks": 2},
    {"wild_rank": True, "sevens": True, "spy_queen": True},
    {"draw_from": "any_of_last", "final_turns": True, "first_turn_call": True},
]


def _table(make_client, **rules: Any) -> tuple[str, list[Client]]:
    clients = [make_client("Host"), make_client("Guest")]
    game = clients[0].post("/api/v1/games/", {"max_players": 2, **rules}).json()
    clients[1].post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    assert clients[0].post(f"/api/v1/games/{game['id']}/start/").status_code == 200
    return game["id"], clients


def _legal(client: Client, game_id: str) -> Any:
    return client.get(f"/api/v1/games/{game_id}/legal-moves/")


def _in_turn(game_id: str, clients: list[Client]) -> tuple[Client, int]:
    state = GameState.from_dict(Game.objects.get(pk=game_id).state or {})
    assert state.turn is not None
    return clients[state.turn], state.turn


def _posted(client: Client, game_id: str, body: dict[str, Any]) -> int:
    """POST the move, then undo it: the status the server answered."""
    with transaction.atomic():
        status: int = client.post(f"/api/v1/games/{game_id}/actions/", body).status_code
        transaction.set_rollback(True)
    return status


@pytest.mark.parametrize("rules", VARIANTS, ids=[str(sorted(v.items())) for v in VARIANTS])
def test_every_listed_move_is_accepted(make_client, rules: dict[str, Any]) -> None:
    game_id, clients = _table(make_client, **rules)
    checked = 0
    for step in range(12):
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            break
        client, seat = _in_turn(game_id, clients)
        response = _legal(client, game_id)
        assert response.status_code == 200, response.content
        listed = response.json()
        assert (listed["seq"], listed["seat"]) == (game.seq, seat)
        moves = listed["moves"]
        view = client.game(game_id)
        assert ({"type": "yaniv"} in moves) == view["you"]["can_call_yaniv"]
        hand = view["you"]["hand"]
        draws = {move["draw"] for move in moves if move["type"] == "play"}
        for card in hand:  # every single card, with every draw
            for draw in draws:
                assert {"type": "play", "cards": [card], "draw": draw} in moves
        # Each one as the engine judges a POST: none refused.
        state = GameState.from_dict(game.state or {})
        for move in moves:
            assert set(move) <= {"type", "cards", "draw"}
            apply(state, parse_action(seat, move), random.Random(step))
        # And some through the API itself: the first, the last, the longest group.
        longest = max(moves, key=lambda move: len(move.get("cards", ())))
        for move in {id(m): m for m in (moves[0], moves[-1], longest)}.values():
            assert _posted(client, game_id, {"seq": listed["seq"], **move}) == 200, move
        checked += len(moves)
        play_moves(game_id, clients, 1 + step % 3)
    assert checked > 12


def test_only_the_seat_in_turn(make_client) -> None:
    game_id, clients = _table(make_client)
    _, seat = _in_turn(game_id, clients)
    waiting = clients[1 - seat]
    response = _legal(waiting, game_id)
    assert (response.status_code, response.json()["code"]) == (409, "not_your_turn")
    stranger = make_client("Stranger")
    response = _legal(stranger, game_id)
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    response = _legal(stranger, "00000000-0000-0000-0000-000000000000")
    assert response.status_code == 404


def test_not_before_the_start_nor_after_leaving(make_client) -> None:
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    response = _legal(host, game["id"])
    assert (response.status_code, response.json()["code"]) == (409, "not_active")

    game_id, clients = _table(make_client)
    assert clients[0].post(f"/api/v1/games/{game_id}/leave/").status_code == 200
    response = _legal(clients[0], game_id)  # the CPU plays the seat now, in turn or not
    assert (response.status_code, response.json()["code"]) == (409, "left")
