"""`Idempotency-Key` on moves: what Redis keeps for it, and the limits on both."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from redis import ConnectionError as RedisConnectionError

from core.redis import get_redis
from games.models import Event, Game
from tests.games.conftest import Client, simple_move
from tests.games.test_games_api import _mover, _two_player_game


def _redis_key(client: Client, game: dict[str, Any], key: str) -> str:
    scope = f"{client.player.pk}:{game['id']}:{key}"
    return "idem:" + hashlib.sha256(scope.encode()).hexdigest()


def _first_move(make_client) -> tuple[Client, dict[str, Any], dict[str, Any], str]:
    """(mover, game, a legal move at seq 0, its path)."""
    host, guest, game = _two_player_game(make_client)
    mover, _ = _mover(host, guest, game)
    view = mover.game(game["id"])
    body = {"seq": 0, "type": "play", "cards": [view["you"]["hand"][0]], "draw": "stock"}
    return mover, game, body, f"/api/v1/games/{game['id']}/actions/"


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("k" * 256, "is 256 characters long"),
        ("k" * 60_000, "is 60000 characters long"),
        ("", "is empty"),
        ("move\x00", "holds a character that is not printable ASCII"),
        ("move\t1", "holds a character that is not printable ASCII"),
        ("move\x7f", "holds a character that is not printable ASCII"),
        ("mové", "holds a character that is not printable ASCII"),
    ],
    ids=["256", "60 KB", "empty", "NUL", "tab", "DEL", "latin-1"],
)
def test_a_bad_key_is_400_invalid_and_nothing_is_applied_or_kept(make_client, key, why) -> None:
    mover, game, body, path = _first_move(make_client)
    response = mover.post(path, body, **{"Idempotency-Key": key})

    assert (response.status_code, response.json()) == (
        400,
        {
            "detail": f"Idempotency-Key {why}: send 1 to 255 printable ASCII characters.",
            "code": "invalid",
        },
    )
    assert Game.objects.get(pk=game["id"]).seq == 0
    assert not get_redis().exists(_redis_key(mover, game, key))


@pytest.mark.parametrize("key", ["k" * 255, "~ !Az09", "a"])
def test_a_key_of_1_to_255_printable_characters_is_taken(make_client, key) -> None:
    mover, game, body, path = _first_move(make_client)
    first = mover.post(path, body, **{"Idempotency-Key": key})
    again = mover.post(path, body, **{"Idempotency-Key": key})

    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert Game.objects.get(pk=game["id"]).seq == 1


def test_redis_keeps_a_digest_of_the_key_and_the_answer_compactly(make_client) -> None:
    """Before: the key itself and the whole stored JSON, 61.6 KB of Redis for a 60 KB key."""
    mover, game, body, path = _first_move(make_client)
    key = "k" * 255
    response = mover.post(path, body, **{"Idempotency-Key": key})
    assert response.status_code == 200
    assert "Idempotency-Key-Stored" not in response.headers

    redis = get_redis()
    redis_key = _redis_key(mover, game, key)
    assert len(redis_key) == 69
    assert 0 < redis.ttl(redis_key) <= 24 * 3600
    stored = redis.get(redis_key)
    assert isinstance(stored, str)
    fingerprint = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    compact = json.dumps(response.json(), separators=(",", ":"), ensure_ascii=False)
    assert stored == f'{{"f":"{fingerprint}","s":200,"b":{compact}}}'
    assert len(stored) < 3_000
    memory = redis.memory_usage(redis_key)
    assert memory is not None
    # The entry and little else: the allocator rounds a value up to its size class (at most
    # a quarter more past 2 KiB: jemalloc's 2,048 -> 2,560), plus the key and its header.
    assert memory < len(stored) * 5 / 4 + 200
    # The player's count of kept bytes: the key and the entry, expiring with its window.
    quota = f"idem-bytes:{mover.player.pk}"
    assert int(redis.get(quota) or 0) == len(redis_key) + len(stored.encode())
    assert 0 < redis.ttl(quota) <= 24 * 3600


@pytest.mark.parametrize(
    ("refused", "code"),
    [
        ({"seq": 7, "type": "yaniv"}, "stale_seq"),
        ({"seq": 0, "type": "play", "cards": ["AS", "KD"], "draw": "stock"}, "illegal_move"),
    ],
)
def test_a_refusal_is_not_kept_and_a_repeat_is_evaluated_afresh(make_client, refused, code) -> None:
    """A refused action applied nothing: a repeat gets the answer that holds now."""
    mover, game, body, path = _first_move(make_client)
    first = mover.post(path, refused, **{"Idempotency-Key": "refused"})
    assert first.json()["code"] == code

    redis = get_redis()
    assert not redis.exists(_redis_key(mover, game, "refused"))
    assert not redis.exists(f"idem-bytes:{mover.player.pk}")
    # Nothing binds the key to the refused body: the same key now carries the real move.
    applied = mover.post(path, body, **{"Idempotency-Key": "refused"})
    assert applied.status_code == 200
    assert Game.objects.get(pk=game["id"]).seq == 1


def test_past_the_cap_a_move_is_applied_but_not_kept(make_client, settings) -> None:
    mover, game, body, path = _first_move(make_client)
    settings.IDEMPOTENCY_MAX_BYTES_PER_PLAYER = 1_000
    response = mover.post(path, body, **{"Idempotency-Key": "move-1"})

    assert response.status_code == 200
    assert response.headers["Idempotency-Key-Stored"] == "false"
    assert Game.objects.get(pk=game["id"]).seq == 1
    redis = get_redis()
    assert not redis.exists(_redis_key(mover, game, "move-1"))
    assert not redis.exists(f"idem-bytes:{mover.player.pk}")
    # The repeat cannot be replayed, but `seq` keeps it from being applied twice.
    again = mover.post(path, body, **{"Idempotency-Key": "move-1"})
    assert (again.status_code, again.json()["code"]) == (409, "stale_seq")
    assert again.json()["game"]["seq"] == 1
    assert Event.objects.filter(game_id=game["id"], type="played").count() == 1


def test_the_cap_counts_every_kept_answer_of_the_player(make_client, settings) -> None:
    host, guest, game = _two_player_game(make_client)
    mover, opponent = _mover(host, guest, game)
    path = f"/api/v1/games/{game['id']}/actions/"
    view = mover.game(game["id"])
    first = {**simple_move(view), "seq": view["seq"]}
    assert mover.post(path, first, **{"Idempotency-Key": "move-1"}).status_code == 200
    redis = get_redis()
    quota = f"idem-bytes:{mover.player.pk}"
    used = int(redis.get(quota) or 0)
    assert used > 0

    # Room for less than one more answer: the next move is applied but not kept...
    settings.IDEMPOTENCY_MAX_BYTES_PER_PLAYER = used + 100
    view = opponent.game(game["id"])
    assert opponent.act(view, **simple_move(view)).status_code == 200
    view = mover.game(game["id"])
    second = {**simple_move(view), "seq": view["seq"]}
    response = mover.post(path, second, **{"Idempotency-Key": "move-2"})
    assert response.status_code == 200
    assert response.headers["Idempotency-Key-Stored"] == "false"
    assert not redis.exists(_redis_key(mover, game, "move-2"))
    assert int(redis.get(quota) or 0) == used
    # ... and what was kept is still replayed.
    replay = mover.post(path, first, **{"Idempotency-Key": "move-1"})
    assert replay.status_code == 200
    assert replay.json()["seq"] == 1


def test_a_move_whose_answer_redis_lost_is_answered_not_kept(make_client, monkeypatch) -> None:
    """Redis lost between the claim and the keeping (its primary killed, before a failover):
    the move is committed, so it is answered (not 503), marked not kept; a repeat is 409
    stale_seq with the current game, never applied twice."""
    mover, game, body, path = _first_move(make_client)
    redis = get_redis()
    register = redis.register_script

    def keep_fails(script: str) -> Any:
        if "INCRBY" not in script:
            return register(script)

        def lost(**kwargs: Any) -> Any:
            raise RedisConnectionError("Connection reset by peer")

        return lost

    monkeypatch.setattr(redis, "register_script", keep_fails)
    response = mover.post(path, body, **{"Idempotency-Key": "move-1"})
    monkeypatch.undo()

    assert response.status_code == 200
    assert response.headers["Idempotency-Key-Stored"] == "false"
    assert not redis.exists(_redis_key(mover, game, "move-1"))  # the claim went too
    again = mover.post(path, body, **{"Idempotency-Key": "move-1"})
    assert (again.status_code, again.json()["code"], again.json()["game"]["seq"]) == (
        409,
        "stale_seq",
        1,
    )
    assert Event.objects.filter(game_id=game["id"], type="played").count() == 1
