"""Two connections post the same move at once: PostgreSQL's row lock lets exactly one in."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from games.models import Event, Game


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("idempotency_key", [None, "same-key"])
def test_the_same_move_twice_at_once_is_applied_once(make_client, idempotency_key) -> None:
    host, guest = make_client("Host"), make_client("Guest")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    game = host.post(f"/api/v1/games/{game['id']}/start/").json()
    mover = host if game["turn"]["seat"] == 0 else guest
    view = mover.game(game["id"])
    body = {"seq": view["seq"], "type": "play", "cards": [view["you"]["hand"][0]], "draw": "stock"}
    headers = {} if idempotency_key is None else {"Idempotency-Key": idempotency_key}

    barrier = threading.Barrier(2)
    results: list[Any] = []

    def post() -> None:
        client = mover.another_connection()
        barrier.wait()
        try:
            results.append(client.post(f"/api/v1/games/{game['id']}/actions/", body, **headers))
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    statuses = sorted(response.status_code for response in results)
    assert Game.objects.get(pk=game["id"]).seq == 1
    assert Event.objects.filter(game_id=game["id"], type="played").count() == 1
    if idempotency_key is None:
        assert statuses == [200, 409]
        refused = next(r for r in results if r.status_code == 409).json()
        assert refused["code"] == "stale_seq"
        assert refused["game"]["seq"] == 1
    else:
        # The repeat either waits for nothing (409 in_progress) or gets the first answer.
        assert statuses in ([200, 200], [200, 409])
