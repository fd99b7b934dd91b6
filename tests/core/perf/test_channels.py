"""core/perf/channels.py: a group publish that the Redis pub/sub layer delivers, and a
dispatch without the thread hop; each test fails if channels_redis or Channels stops doing what
the shim copies or leans on."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest import mock

import pytest
from channels.consumer import AsyncConsumer
from channels.layers import channel_layers
from channels.testing import ApplicationCommunicator
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from django.conf import settings

from core.perf.channels import DirectDispatch, group_channel, group_publish
from core.redis import get_redis

GROUPS = ["game.7d2c", "player.1f3e.sockets", "game.7d2c.watch"]


def _config() -> dict[str, Any]:
    layer = settings.CHANNEL_LAYERS["default"]
    assert layer["BACKEND"] == "core.layer.RedisPubSubChannelLayer"  # a subclass (core/layer.py)
    return dict(layer["CONFIG"])


@pytest.mark.parametrize("group", GROUPS)
def test_a_groups_channel_is_named_as_channels_redis_names_it(group: str) -> None:
    assert group_channel(group) == RedisPubSubLoopLayer(**_config())._get_group_channel_name(group)


def test_the_layer_has_one_host_the_projects_redis() -> None:
    """With more hosts it would shard groups over them; the publish goes to REDIS_URL's."""
    [host] = _config()["hosts"]
    assert host["address"] == settings.REDIS_URL


def test_the_layer_is_the_one_whose_serializer_the_publish_uses() -> None:
    assert isinstance(channel_layers["default"], RedisPubSubChannelLayer)


async def test_a_published_message_reaches_a_channel_in_the_group() -> None:
    """Through channels_redis itself: its group_add subscribes, its receive decodes."""
    layer = channel_layers.make_backend("default")
    group = "perf.publish"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        redis = get_redis()
        for _ in range(100):  # the layer subscribes on a connection of its own
            if redis.pubsub_numsub(group_channel(group))[0][1]:
                break
            await asyncio.sleep(0.02)
        message = {"type": "game.update", "after": 3, "game": {"seq": 4}, "events": [None]}
        group_publish(group, message)
        assert await asyncio.wait_for(layer.receive(channel), 2) == message
    finally:
        await layer.group_discard(group, channel)
        await layer.flush()


class Stock(AsyncConsumer):  # type: ignore[misc]
    channel_layer_alias = "perf-none"  # not configured: no layer, only the ASGI messages

    async def probe_ping(self, message: dict[str, Any]) -> None:
        await self.send({"type": "probe.pong", "seen": message["n"]})


class Direct(DirectDispatch, Stock):
    pass


async def _exchange(consumer: type[Stock]) -> dict[str, Any]:
    """One message through the consumer as Channels runs it: its answer."""
    communicator = ApplicationCommunicator(consumer.as_asgi(), {"type": "probe"})
    await communicator.send_input({"type": "probe.ping", "n": 7})
    answer = await communicator.receive_output(2)
    communicator.stop()
    return answer


@pytest.fixture
def hops() -> Any:
    """Channels' thread hop before each dispatch, recorded instead of run."""
    with mock.patch("channels.consumer.aclose_old_connections") as hop:
        yield hop


async def test_channels_hops_to_a_thread_before_each_message(hops) -> None:
    """Why the mixin is there; when this fails, Channels stopped doing it on its own."""
    assert await _exchange(Stock) == {"type": "probe.pong", "seen": 7}
    hops.assert_called_once_with()


async def test_direct_dispatch_runs_the_same_handler_without_the_hop(hops) -> None:
    """Channels hands each message to `self.dispatch`: the mixin's, which finds the handler."""
    assert await _exchange(Direct) == {"type": "probe.pong", "seen": 7}
    hops.assert_not_called()


async def test_a_message_without_a_handler_is_refused_as_channels_refuses_it() -> None:
    for consumer in (Stock(), Direct()):
        with pytest.raises(ValueError, match=r"No handler for message type probe\.missing"):
            await consumer.dispatch({"type": "probe.missing"})
