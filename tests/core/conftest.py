"""What the tests of core/ share: a Redis that stops answering."""

from __future__ import annotations

import copy
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import connections

from config.celery import app as celery_app
from core import redis as core_redis
from core.redis import get_redis
from core.throttles import _sliding_window

# Every Redis timeout is 0.5 s; a request may wait one of them, and must answer within 2 s.
BOUND = 2.0


def within(limit: float, call: Callable[[], Any]) -> Any:
    """`call()`'s result, asserting it came back within `limit` seconds (run in a thread, so a
    call that would hang for good fails the test instead of hanging it)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["result"] = call()
        except Exception as error:  # handed to the test below
            outcome["error"] = error
        finally:
            connections.close_all()  # this thread's, or the test database cannot be dropped

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(limit)
    assert not thread.is_alive(), f"still waiting after {limit} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


@pytest.fixture
def stalled_redis(settings: Any) -> Iterator[str]:
    """Every Redis client of this process (ours, the cache, Celery's broker) on a stalled Redis."""
    hole = socket.create_server(("127.0.0.1", 0), backlog=128)
    url = f"redis://127.0.0.1:{hole.getsockname()[1]}/0"
    settings.REDIS_URL = url
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": url}}
    layer = copy.deepcopy(settings.CHANNEL_LAYERS)
    config = layer["default"]["CONFIG"]
    config["hosts"] = [
        {**(h if isinstance(h, dict) else {}), "address": url} for h in config["hosts"]
    ]
    settings.CHANNEL_LAYERS = layer
    previous_broker = celery_app.conf.broker_url
    celery_app.conf.update(broker_url=url)
    get_redis.cache_clear()
    _sliding_window.cache_clear()
    # Celery keeps its pools of broker connections: new ones for the stalled URL, then back.
    with (
        mock.patch.object(celery_app, "_pool", None),
        mock.patch.object(celery_app.amqp, "_producer_pool", None),
    ):
        try:
            yield url
        finally:
            hole.close()  # the connections it never accepted are reset: nothing stays waiting
            celery_app.conf.update(broker_url=previous_broker)
            get_redis.cache_clear()
            _sliding_window.cache_clear()
            core_redis.outage_ends()
