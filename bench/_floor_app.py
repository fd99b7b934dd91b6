"""The bare parts `bench.floor` measures: what the stack's own libraries cost with none of the
project's code (no Django, no DRF, no Channels, no engine). Not part of the project.

- `app`, an ASGI application for uvicorn: any HTTP request is answered 200 with a fixed small
  JSON body; a websocket is accepted and forwards every message published on the Redis
  channel `bench-floor` to its client as a text frame (a push at its barest).
- `celery_app`, a Celery app on the broker of REDIS_URL with the project's task options (late
  acknowledgement, no results, a prefetch of one, JSON): its task `noop` only pushes its number
  onto a Redis list, so that the bench knows when each has run.
"""

from __future__ import annotations

import os
from typing import Any

import redis
import redis.asyncio
from celery import Celery

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CHANNEL = "bench-floor"
COUNTER = "bench-floor:tasks"
BODY = b'{"ok":true}'
HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]

Receive = Any
Send = Any


async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
    elif scope["type"] == "http":
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        await send({"type": "http.response.body", "body": BODY})
    elif scope["type"] == "websocket":
        await _forward(receive, send)


async def _forward(receive: Receive, send: Send) -> None:
    await receive()  # websocket.connect
    client = redis.asyncio.from_url(REDIS_URL)
    pubsub = client.pubsub()
    await pubsub.subscribe(CHANNEL)
    await send({"type": "websocket.accept"})
    try:
        async for message in pubsub.listen():
            if message["type"] == "message":
                await send({"type": "websocket.send", "text": message["data"].decode()})
    finally:
        await pubsub.aclose()  # type: ignore[no-untyped-call]
        await client.aclose()


celery_app = Celery("bench_floor", broker=REDIS_URL)
celery_app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    task_ignore_result=True,
    worker_prefetch_multiplier=1,
    task_serializer="json",
    accept_content=["json"],
    worker_hijack_root_logger=False,
)
_counter = redis.Redis.from_url(REDIS_URL)


@celery_app.task(name="bench_floor.noop")
def noop(game_id: str, seq: int) -> None:
    """The arguments of the CPU's turn (a game and a sequence number); it tells the bench it
    ran (its number on a Redis list the bench waits on)."""
    _counter.rpush(COUNTER, seq)
