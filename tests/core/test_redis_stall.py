"""A Redis that stops answering bounds every call made while serving a request, and the API
answers: moves and reads that can do without Redis go on, the rest are 503 with Retry-After.

A stalled Redis is a listening socket nobody reads: the kernel accepts the connection and takes
the command, and no answer ever comes, exactly what a paused (SIGSTOP) Redis does.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
import redis
from celery.signals import celeryd_init
from channels.layers import channel_layers
from django.core.cache import cache
from django.utils import timezone
from kombu.exceptions import OperationalError

from config.celery import app as celery_app
from core import redis as core_redis
from core.redis import get_redis
from games import tasks
from games.models import Game
from games.services.clock import game_cpu_turn
from tests.core.conftest import BOUND, within
from tests.games.conftest import Client, simple_move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def host() -> Client:
    return Client.guest("Host")


def _my_turn_against_a_cpu(host: Client) -> dict[str, Any]:
    """Created before the stall: a table of `host` and a CPU, `host` to move."""
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    view = host.post(f"/api/v1/games/{game['id']}/start/").json()
    if view["turn"]["seat"] != view["you"]["seat"]:  # the CPU starts: play it here
        assert game_cpu_turn(game_id=game["id"], seq=view["seq"])
        view = host.game(game["id"])
    return view


def test_each_client_gives_up_after_its_timeout(stalled_redis: str) -> None:
    with pytest.raises(redis.TimeoutError):
        within(BOUND, get_redis().ping)
    core_redis.outage_ends()
    with pytest.raises(redis.TimeoutError):
        within(BOUND, lambda: cache.get("anything"))
    core_redis.outage_ends()
    # Celery publishes once (no retries) on a connection with the same timeouts.
    with pytest.raises(OperationalError):
        within(BOUND, lambda: tasks.game_cpu_turn.apply_async(("game", 1), countdown=1))


def test_after_a_timeout_the_next_calls_fail_at_once(stalled_redis: str) -> None:
    """So that a request making several Redis calls waits one timeout, not one each."""
    with pytest.raises(redis.TimeoutError):
        within(BOUND, get_redis().ping)
    with pytest.raises(core_redis.RedisUnavailable):
        within(0.1, get_redis().ping)
    with pytest.raises(core_redis.RedisUnavailable):
        within(0.1, lambda: cache.add("flag", 1, timeout=1))
    with pytest.raises(core_redis.RedisUnavailable):
        within(0.1, lambda: tasks.game_cpu_turn.apply_async(("game", 1)))


def test_the_channel_layer_gives_up_after_its_timeout(stalled_redis: str) -> None:
    layer = channel_layers.make_backend("default")
    with pytest.raises(redis.TimeoutError):
        within(BOUND, lambda: asyncio.run(layer.group_send("group", {"type": "x"})))


def test_a_move_is_answered_and_its_cpu_turn_recovered_by_the_sweep(host, stalled_redis) -> None:
    view = _my_turn_against_a_cpu(host)
    response = within(BOUND, lambda: host.act(view, **simple_move(view)))
    assert response.status_code == 200  # the move committed; its push and CPU task were lost
    assert response.json()["seq"] == view["seq"] + 1
    assert within(BOUND, lambda: host.get("/api/v1/me/")).status_code == 200

    # Redis is back: the CPU's turn has a due time, so the beat's sweep plays it.
    core_redis.outage_ends()
    game = Game.objects.get(pk=view["id"])
    assert game.turn_deadline is not None
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.games_timeout_overdue() == 1
    after = host.game(view["id"])
    assert after["seq"] == view["seq"] + 2
    assert after["turn"]["seat"] == view["you"]["seat"]


@pytest.mark.parametrize(
    "request_",
    [
        pytest.param(lambda client: client.post("/api/v1/auth/guest/"), id="guest"),
        pytest.param(
            lambda client: client.post(
                "/api/v1/auth/login/", {"username": "dana", "password": "a long passphrase"}
            ),
            id="login",
        ),
        pytest.param(lambda client: client.post("/api/v1/auth/ws-ticket/"), id="ws-ticket"),
    ],
)
def test_what_needs_redis_answers_503_with_retry_after(host, stalled_redis, request_) -> None:
    response = within(BOUND, lambda: request_(host.api))
    assert response.status_code == 503, response.content
    assert response.json()["code"] == "unavailable"
    assert int(response["Retry-After"]) >= 1


def test_an_idempotent_move_answers_503_and_applies_nothing(host, stalled_redis) -> None:
    view = _my_turn_against_a_cpu(host)
    path, body = f"/api/v1/games/{view['id']}/actions/", {"seq": view["seq"], **simple_move(view)}
    response = within(BOUND, lambda: host.post(path, body, **{"Idempotency-Key": "k1"}))
    assert response.status_code == 503
    assert response.json()["code"] == "unavailable"
    assert int(response["Retry-After"]) >= 1
    assert Game.objects.get(pk=view["id"]).seq == view["seq"]


def test_a_worker_waits_for_the_broker_as_long_as_it_takes() -> None:
    """Only what serves requests gives up on a paused broker: a worker's acks must not."""
    conf = SimpleNamespace(broker_transport_options=dict(celery_app.conf.broker_transport_options))
    assert conf.broker_transport_options["socket_timeout"] > 0
    # (Its connections' timeouts are tested in tests/core/perf/test_worker.py: not applied here.)
    with mock.patch("core.perf.worker.database_guard"):
        celeryd_init.send(sender="worker@test", instance=None, conf=conf, options={})
    assert "socket_timeout" not in conf.broker_transport_options
    assert conf.broker_transport_options["visibility_timeout"] == 3600
    assert celery_app.conf.broker_transport_options["socket_timeout"] > 0  # the app's own: kept
