from __future__ import annotations

import itertools
import random
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, timedelta
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connections
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Player
from accounts.services import guest_create
from config.celery import app as celery_app
from games.engine import fair
from games.engine.cards import VALUE
from games.engine.cpu import cpu_action
from games.engine.state import CallYaniv, GameState
from games.models import Game, GameStatus, Seat
from games.selectors import game_seed_pairs
from games.services.play import game_act
from tests.factories import PlayerFactory

Places = Sequence[tuple[Player | None, int]]


def game_secrets(game_id: Any) -> list[str]:
    """Every secret of a game, as hex: its seats' server seeds, then its game seed."""
    pairs = game_seed_pairs(game_id)
    return [server.hex() for server, _ in pairs] + [fair.game_seed(pairs).hex()]


class Client:
    """A player's REST client, with the helpers a game client needs."""

    def __init__(self, player: Player, token: str) -> None:
        self.player, self.token = player, token
        self.api = APIClient()
        self.api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    @classmethod
    def guest(cls, name: str) -> Client:
        return cls(*guest_create(display_name=name))

    def another_connection(self) -> Client:
        """The same player on a second connection (a second device, or a retry)."""
        return Client(self.player, self.token)

    def post(self, path: str, body: dict[str, Any] | None = None, **headers: str) -> Any:
        return self.api.post(path, body or {}, format="json", headers=headers)

    def get(self, path: str) -> Any:
        return self.api.get(path)

    def game(self, game_id: str) -> dict[str, Any]:
        response = self.get(f"/api/v1/games/{game_id}/")
        assert response.status_code == 200, response.content
        return response.json()

    def act(self, game: dict[str, Any], **action: Any) -> Any:
        return self.post(f"/api/v1/games/{game['id']}/actions/", {"seq": game["seq"], **action})


@pytest.fixture
def make_client(db: None) -> Callable[[str], Client]:
    return Client.guest


@pytest.fixture(autouse=True)
def _instant_cpu(settings: Any) -> None:
    settings.YANIV_CPU_THINK_SECONDS = 0


@pytest.fixture
def celery_worker(transactional_db: None) -> Iterator[None]:
    """A real Celery worker, in a thread, on the real Redis broker, with a queue of its own.

    Tasks leave after commit, so the tests that use it need committed data (transactional_db).
    """
    # The solo pool is made in this thread, and Celery's Django fixup then closes the socket
    # of this thread's database connection under it (`worker_process_init`, meant for forked
    # children) and hands the connection back to the pool: the next thread to get it wrote
    # its queries to whatever socket took that file descriptor, and hung. Given back first,
    # this thread has no connection for the fixup to break. (This was also the "prepared
    # statements" hang of bench/README.md: the worker waited in the pool's check, `execute("")`,
    # on a descriptor that had become kombu's epoll, while PostgreSQL saw its session idle;
    # celery/celery#4511 is the fixture's known trouble with the fixup.)
    connections.close_all()
    queue = f"test-{uuid.uuid4().hex}"
    previous = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    try:
        with start_worker(
            celery_app, pool="solo", perform_ping_check=False, queues=[queue], loglevel="WARNING"
        ):
            yield
    finally:
        celery_app.conf.task_default_queue = previous


@pytest.fixture
def players(db: None) -> list[Player]:
    return [PlayerFactory.create() for _ in range(6)]


@pytest.fixture
def make_game(db: None) -> Callable[..., Game]:
    """`make_game([(player or None for a CPU, place), ...])`: a finished game's rows, as the
    games app leaves them; each game ends a minute after the one made before it, from the
    start of the current UTC day, so that a test reads its ratings on the day they were rated,
    as they were stored (ratings age by UTC days: ratings/rating.py `aged`). (The rating
    tests' games: tests/games/test_rating*.py, tests/ratings/, tests/players/.)"""
    now = timezone.now().astimezone(UTC)
    start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    minutes = itertools.count()

    def make(places: Places, *, ranked: bool = True, **fields: Any) -> Game:
        fields.setdefault("status", GameStatus.FINISHED)
        fields.setdefault("finished_at", start + timedelta(minutes=next(minutes)))
        game = Game.objects.create(ranked=ranked, rules={}, max_players=len(places), **fields)
        Seat.objects.bulk_create(
            Seat(
                game=game, seat=index, player=player, is_cpu=player is None, place=place, live=False
            )
            for index, (player, place) in enumerate(places)
        )
        return game

    return make


def simple_move(game: dict[str, Any]) -> dict[str, Any]:
    """A legal move from what the client sees: Yaniv when allowed, else shed the top card."""
    you = game["you"]
    if you["can_call_yaniv"]:
        return {"type": "yaniv"}
    card = max(you["hand"], key=VALUE.__getitem__)
    return {"type": "play", "cards": [card], "draw": "stock"}


def wait_for(check: Callable[[], Any], timeout: float = 30.0, interval: float = 0.02) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(interval)
    raise AssertionError(f"timed out waiting ({timeout:g} s)")


def start_table(seats: int = 2) -> tuple[str, list[Client]]:
    """A private table of `seats` guests, started: its id and the players' clients."""
    clients = [Client.guest(f"P{index}") for index in range(seats)]
    game = clients[0].post("/api/v1/games/", {"max_players": seats}).json()
    for client in clients[1:]:
        client.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    clients[0].post(f"/api/v1/games/{game['id']}/start/")
    return game["id"], clients


def play_moves(game_id: str, clients: list[Client], moves: int) -> None:
    """Up to `moves` simple moves by whoever's turn it is, until the game ends (through the
    service: a whole game is more requests than the rate limit allows)."""
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        if game.status != GameStatus.ACTIVE:
            return
        state = GameState.from_dict(game.state or {})
        seat = state.turn or 0
        # The CPU's choice: it plays a round to its end in a few dozen moves.
        chosen = cpu_action(state, seat, random.Random(game.seq))
        action: dict[str, Any] = (
            {"type": "yaniv"}
            if isinstance(chosen, CallYaniv)
            else {"type": "play", "cards": list(chosen.cards), "draw": chosen.draw}
        )
        game_act(game_id=game_id, player=clients[seat].player, seq=game.seq, action=action)


def two_player_table(make_client: Callable[[str], Client]) -> tuple[Client, Client, dict[str, Any]]:
    """A host and a guest at a started table for two: both clients and the game as started."""
    host, guest = make_client("Host"), make_client("Guest")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    joined = guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    assert joined.status_code == 200, joined.content
    started = host.post(f"/api/v1/games/{game['id']}/start/")
    assert started.status_code == 200, started.content
    return host, guest, started.json()


def finished_two_player_game() -> str:
    """The id of a table for two played to its end."""
    game_id, clients = start_table(2)
    play_moves(game_id, clients, 3000)
    assert Game.objects.get(pk=game_id).status == GameStatus.FINISHED
    return game_id
