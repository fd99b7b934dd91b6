"""After its commit a change stands: a hook that fails then (a task that cannot be queued while
the broker is down) is logged, and neither fails the request nor stops the hooks after it."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
import redis
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from core.perf.channels import group_channel
from core.sockets import viewer_group
from games import tasks as game_tasks
from games.engine.cpu import cpu_action
from games.engine.state import GameState, Play
from games.models import Game, GameStatus
from games.services.lobby import game_begin_ranked
from tests.games.conftest import Client

pytestmark = pytest.mark.django_db(transaction=True)


def _pushes(listener: Any) -> list[dict[str, Any]]:
    layer = get_channel_layer()
    pushes = []
    while (message := listener.get_message(timeout=0.5)) is not None:
        if message["type"] == "message":
            pushes.append(layer.deserialize(message["data"]))
    return pushes


def _good_move(game_id: str, rng: random.Random) -> dict[str, Any]:
    """What the CPU would play in the mover's place: it calls Yaniv soon, so the round ends."""
    state = GameState.from_dict(Game.objects.get(pk=game_id).state)
    assert state.turn is not None
    action = cpu_action(state, state.turn, rng)
    if isinstance(action, Play):
        return {"type": "play", "cards": list(action.cards), "draw": action.draw}
    return {"type": "yaniv"}


def test_a_finishing_move_stands_when_no_task_can_be_queued(caplog) -> None:
    rng = random.Random(13)
    first, second = Client.guest("First"), Client.guest("Second")
    with transaction.atomic():
        game = game_begin_ranked(players=[first.player, second.player]).game
    assert game.state is not None
    # The last round: whoever scores anything in it goes out, and the game ends.
    Game.objects.filter(pk=game.pk).update(state={**game.state, "totals": [100, 100]})
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub()  # type: ignore[no-untyped-call]
    listener.subscribe(group_channel(viewer_group(game.pk, first.player.pk)))

    down = mock.Mock(side_effect=OperationalError("Error 111 connecting: Connection refused."))
    statuses = []
    with (
        mock.patch.object(game_tasks.game_rate, "delay", down),
        mock.patch.object(game_tasks.game_rate, "apply_async", down),
        mock.patch.object(game_tasks.game_timeout, "apply_async", down),
        mock.patch.object(game_tasks.game_cpu_turn, "apply_async", down),
    ):
        for _ in range(300):
            views = [first.game(str(game.pk)), second.game(str(game.pk))]
            if views[0]["status"] != "active":
                break
            mover, view = next(
                (client, view)
                for client, view in zip((first, second), views, strict=True)
                if view["you"]["seat"] == view["turn"]["seat"]
            )
            statuses.append(mover.act(view, **_good_move(str(game.pk), rng)).status_code)

    assert set(statuses) == {200}  # the finishing move included
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert down.call_count >= 2  # the deadlines' tasks, and the rating's
    assert "Connection refused" in caplog.text
    frames = [json.loads(frame) for push in _pushes(listener) for frame in push["frames"]]
    events = [frame["event"]["type"] for frame in frames if frame["event"] is not None]
    listener.close()
    assert events[-1] == "game_ended"

    # Its rating was not queued: the beat's sweep of pending games rates it, once settled.
    assert game.rated_at is None
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(minutes=1))
    assert game_tasks.games_rate_pending() == 1
    game.refresh_from_db()
    assert game.rated_at is not None
