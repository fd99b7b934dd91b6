"""Channels without two of its costs: a group send from synchronous code, and a socket's dispatch.

`group_publish` replaces the channel layer's `group_send` for code that runs in a request or
task thread. The layer is Redis pub/sub (`channels_redis.pubsub`, config/settings.py): a group
is a Redis channel, and a group send is one PUBLISH. Made here with the process's Redis client
(core/redis.py), it is in Redis when the call returns: a client that had the response to one
change cannot get that change's push after the next change's, even when another process serves
the next one. The layer's own `group_send` is a coroutine: from a request thread it cost a
hand-off to an event loop and back (pushes from the request thread, with the dispatch below:
web CPU per move 9.6 -> 7.8 ms, human-pace p99 80 -> 33-46 ms; bench/README.md, "What helped").

`DirectDispatch` replaces `AsyncConsumer.dispatch`. Channels runs `close_old_connections` in a
thread before every message it dispatches, whether the handler reads the database or not: a
thread hop per push, some 8% of a web process's CPU under load (bench/api_moves.py). A consumer
with this mixin runs its handlers directly; those that read the database do so through
`database_sync_to_async`, which closes old connections around the call itself.

Relies on (tests/core/perf/test_channels.py): channels_redis.pubsub names a group's Redis
channel `{prefix}__group__{group}` and, with one host, publishes it on that host, which is
REDIS_URL's; it reads what the layer's `serialize` writes. Channels' `AsyncConsumer` hands every
message to `self.dispatch`, which finds the handler by `get_handler_name`.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.layers import get_channel_layer
from django.conf import settings

from core.redis import get_redis


def group_channel(group: str) -> str:
    """The Redis channel of a group, as channels_redis.pubsub names it (one Redis host)."""
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    return f"{prefix}__group__{group}"


def group_publish(group: str, message: dict[str, Any]) -> None:
    """Send a channel-layer message to a group, from synchronous code, before returning (one
    PUBLISH). Raises redis-py's errors: the caller decides whether a lost push matters."""
    get_redis().publish(group_channel(group), get_channel_layer().serialize(message))


def groups_publish(groups: list[str], message: dict[str, Any]) -> None:
    """`group_publish` of one message to many groups: serialized once, one pipelined round
    trip (a presence change told to a player's 500 friends)."""
    data = get_channel_layer().serialize(message)
    pipeline = get_redis().pipeline(transaction=False)
    for group in groups:
        pipeline.publish(group_channel(group), data)
    pipeline.execute()


class DirectDispatch:
    """For an `AsyncConsumer`: each message goes to its handler with no thread hop before it."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
