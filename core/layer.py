"""The channel layer (config/settings.py CHANNEL_LAYERS): channels_redis's pub/sub layer, whose
sockets are told when its subscriptions come back after its Redis connection was lost.

A group's messages are Redis PUBLISHes to whoever is subscribed at that moment. A web process
that loses its subscribing connection (its Redis restarted, or the primary died and the
Sentinels promoted a replica: docs/operations.md, "Redis with failover") subscribes again once
it can connect, but what was published meanwhile is gone (channels_redis#256). So, once
subscribed again, every socket of the process is handed a `{"type": "layer.resubscribed",
"at": time.monotonic()}` message, in order with its other messages: a game's socket reads the
events it lacks from the database, as when it sees that it missed one (games/consumers.py),
and the client has the game again without asking; a tournament's standings socket reads the
board again (tournaments/consumers.py). The player's own socket has nothing to read back: the
web client polls what matters (docs/operations.md, "Redis with failover").

Relies on (tests/games/test_resubscribed.py): channels_redis.pubsub's `RedisPubSubChannelLayer`
makes one `RedisPubSubLoopLayer` per event loop in `_get_layer` (and has `_wrap_close` close it with
its loop); the loop layer keeps its `RedisSingleShardConnection`s in `_shards` and its
channels' queues (of serialized messages) in `channels`; a shard makes its client in
`_ensure_redis`, and subscribes through its `_pubsub`. redis-py's asyncio `PubSub` calls its
`on_connect` (where it subscribes again to what it holds) at every connection it makes again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels_redis import pubsub as layers
from redis.asyncio.client import PubSub

logger = logging.getLogger(__name__)


class _PubSub(PubSub):
    shard: _Shard | None = None

    async def on_connect(self, connection: Any) -> None:
        """At a connection made again (a first one subscribes to nothing yet, and redis-py
        calls this only at connections made after its first)."""
        await super().on_connect(connection)
        if (self.channels or self.patterns) and self.shard is not None:
            self.shard.resubscribed()


class _Shard(layers.RedisSingleShardConnection):  # type: ignore[misc]
    def _ensure_redis(self) -> None:
        if self._redis is None:
            super()._ensure_redis()
            self._pubsub = _PubSub(self._redis.connection_pool)  # type: ignore[attr-defined]
            self._pubsub.shard = self

    def resubscribed(self) -> None:
        """Tell every socket of this loop that messages may have been lost."""
        loop_layer = self.channel_layer
        message = {"type": "layer.resubscribed", "at": time.monotonic()}
        data = loop_layer.channel_layer.serialize(message)
        queues = list(loop_layer.channels.values())
        logger.warning("channel layer subscribed again: %s sockets read back", len(queues))
        for queue in queues:
            queue.put_nowait(data)


class _LoopLayer(layers.RedisPubSubLoopLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [_Shard(shard.host, self) for shard in self._shards]  # type: ignore[has-type]


class RedisPubSubChannelLayer(layers.RedisPubSubChannelLayer):  # type: ignore[misc]
    def _get_layer(self) -> Any:
        """channels_redis's, with the loop layer above."""
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            layers._wrap_close(self, loop)
        return layer
