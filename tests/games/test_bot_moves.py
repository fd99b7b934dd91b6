"""A bot's moves are limited (THROTTLE_RATE_BOT_MOVES, scope `bot_moves`); a human's are not,
beyond the general limit."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from accounts.services import auth_token_issue
from tests.factories import PlayerFactory
from tests.games.conftest import Client, simple_move

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def two_moves_a_minute(clear_throttles: None) -> Iterator[None]:
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "bot_moves": "2/min"}
    with override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    ):
        yield


def _table(host: Client, other: Client) -> str:
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    joined = other.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    assert joined.status_code == 200, joined.content
    assert host.post(f"/api/v1/games/{game['id']}/start/").status_code == 200
    return str(game["id"])


def _move_until(game_id: str, clients: list[Client], mover: Client) -> dict[str, Any]:
    """Whoever is in turn plays until it is `mover`'s turn: the game as `mover` sees it."""
    while True:
        game = mover.game(game_id)
        if game["turn"]["seat"] == game["you"]["seat"]:
            return game
        other = next(client for client in clients if client is not mover)
        seen = other.game(game_id)
        assert other.act(seen, **simple_move(seen)).status_code == 200


def test_a_bots_moves_beyond_its_rate_are_throttled_until_the_window_passes() -> None:
    bot_player = PlayerFactory.create(registered=True, is_bot=True)
    bot = Client(bot_player, auth_token_issue(player=bot_player))
    human = Client.guest("Human")
    game_id = _table(human, bot)
    start = timezone.now()

    with time_machine.travel(start, tick=False) as clock:
        for _ in range(2):
            game = _move_until(game_id, [bot, human], bot)
            assert bot.act(game, **simple_move(game)).status_code == 200
        game = _move_until(game_id, [bot, human], bot)
        refused = bot.act(game, **simple_move(game))
        assert refused.status_code == 429
        body = refused.json()
        assert (body["code"], body["scope"]) == ("throttled", "bot_moves")
        assert body["retry_after"] == int(refused["Retry-After"]) == 60
        # Only its moves: the bot still reads its game.
        assert bot.get(f"/api/v1/games/{game_id}/").status_code == 200

        clock.shift(timedelta(seconds=60))
        assert bot.act(game, **simple_move(game)).status_code == 200


def test_a_humans_moves_have_no_such_limit() -> None:
    bot_player = PlayerFactory.create(registered=True, is_bot=True)
    bot = Client(bot_player, auth_token_issue(player=bot_player))
    human = Client.guest("Human")
    game_id = _table(human, bot)

    # Out of turn or in turn, the move endpoint answers the human, never with 429.
    for _ in range(5):
        game = human.game(game_id)
        assert human.act(game, **simple_move(game)).status_code in {200, 409}
