"""games/locks.py: a move reads the game's state once (the response and every viewer's push are
built from the state the engine returned, not parsed again from the row); it locks the game,
with its seats, in one statement and writes in one more; a lock that waited reads what the
transaction before it committed."""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
import redis
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.perf.channels import group_channel
from core.sockets import viewer_group
from games import notify
from games.engine.cpu import cpu_action
from games.engine.state import GameState, apply
from games.locks import LockedGame
from games.models import Event, Game, Seat
from games.projection import game_payload
from games.services import fair_play, fairness
from games.services.clock import game_cpu_turn
from ratings.models import Rating
from tests.games.conftest import Client, simple_move, start_table
from tests.transactions import held_elsewhere

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each call of `GameState.from_dict`, the one way a stored state becomes a GameState."""
    calls: list[object] = []
    parse = GameState.from_dict.__func__  # type: ignore[attr-defined]

    def counted(cls: type[GameState], data: Any) -> GameState:
        calls.append(data)
        return parse(cls, data)

    monkeypatch.setattr(GameState, "from_dict", classmethod(counted))
    return calls


@pytest.fixture
def four_players() -> Iterator[tuple[Any, list[Client], dict[str, Any]]]:
    """A started table of four players, and a listener on each one's pushes."""
    clients = [Client.guest(name) for name in ("North", "East", "South", "West")]
    game = clients[0].post("/api/v1/games/", {"max_players": 4}).json()
    for client in clients[1:]:
        joined = client.post(
            f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]}
        )
        assert joined.status_code == 200, joined.content
    started = clients[0].post(f"/api/v1/games/{game['id']}/start/")
    assert started.status_code == 200, started.content
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub()  # type: ignore[no-untyped-call]
    for client in clients:
        listener.subscribe(group_channel(viewer_group(game["id"], client.player.pk)))
    for _ in clients:
        assert listener.get_message(timeout=2)["type"] == "subscribe"
    yield listener, clients, started.json()
    listener.close()


def _received(listener: Any) -> list[dict[str, Any]]:
    layer = get_channel_layer()
    found = []
    while (message := listener.get_message(timeout=0.5)) is not None:
        if message["type"] == "message":
            found.append(layer.deserialize(message["data"]))
    return found


def test_a_move_at_a_four_player_table_parses_the_state_once(four_players, parses) -> None:
    listener, clients, game = four_players
    mover = clients[game["turn"]["seat"]]
    view = mover.game(game["id"])
    parses.clear()  # the GET above parsed it for its own response

    with mock.patch("games.locks.game_payload", wraps=game_payload) as built:
        response = mover.act(view, **simple_move(view))

    assert response.status_code == 200, response.content
    assert response.json()["seq"] == view["seq"] + 1
    received = _received(listener)
    assert [push["type"] for push in received] == ["game.update"] * 4  # one per seated player
    games = [json.loads(push["frames"][-1])["game"] for push in received]
    assert {game["you"]["seat"] for game in games} == {0, 1, 2, 3}
    # The mover's answer is the game its own push carries, encoded once for both.
    assert response.json() in games
    assert [game["you"]["seat"] for game in games if game == response.json()] == [
        view["you"]["seat"]
    ]
    assert built.call_count == 4  # once per viewer: the answer is not built again
    assert len(parses) == 1


def test_a_get_parses_the_state_once(four_players, parses) -> None:
    _, clients, game = four_players
    parses.clear()
    assert clients[0].game(game["id"])["seq"] == game["seq"]
    assert len(parses) == 1


def test_a_cpu_turn_parses_the_state_once(parses) -> None:
    host = Client.guest("Host")
    game = host.post("/api/v1/games/", {"max_players": 3}).json()
    for _ in range(2):
        host.post(f"/api/v1/games/{game['id']}/cpu/")
    view = host.post(f"/api/v1/games/{game['id']}/start/").json()
    if view["turn"]["seat"] == 0:  # the host starts: move once, so that a CPU is to play
        with mock.patch("games.tasks.game_cpu_turn.apply_async"):  # played here, not by a worker
            view = host.act(view, **simple_move(view)).json()
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub()  # type: ignore[no-untyped-call]
    listener.subscribe(group_channel(viewer_group(game["id"], host.player.pk)))
    assert listener.get_message(timeout=2)["type"] == "subscribe"
    parses.clear()

    with mock.patch("games.tasks.game_cpu_turn.apply_async"):
        assert game_cpu_turn(game_id=game["id"], seq=view["seq"])

    assert [push["type"] for push in _received(listener)] == ["game.update"]
    assert len(parses) == 1
    listener.close()


# One round trip to lock, one to write --------------------------------------------------------


def test_a_lock_that_waited_reads_what_the_holder_committed() -> None:
    """A transaction that waits for the lock reads the seats and events as the holder left
    them: in READ COMMITTED a statement reads with the snapshot of its start, so a lock and its
    seats read in one plain statement would give the seats from before the wait (here: the
    player still not away, and the last event the holder's predecessor's)."""
    game_id, _ = start_table(2)
    appended: list[int] = []

    def hold() -> None:
        locked = LockedGame.lock(game_id)
        seat = locked.seats[1]
        seat.away = True
        locked.save_seats("away", seats=[seat])  # the game row itself is not written
        locked.append("player_away", seat=1)
        appended.append(locked.new_events[-1].pk)

    # The other transaction holds the lock for half a second while this one waits for it.
    with held_elsewhere(hold, for_at_most=0.5):
        started = time.monotonic()
        with transaction.atomic():
            locked = LockedGame.lock(game_id)
        waited = time.monotonic() - started

    assert waited > 0.2
    assert locked.seats[1].away
    assert locked.last_event_id == appended[0]


def _statements(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"].split(" ", 1)[0] for query in queries.captured_queries]


def test_a_move_is_one_statement_to_lock_and_one_to_write() -> None:
    """A human's move: the token, then a transaction of the lock (with the seats) and one
    write (the events and the game row), BEGIN and COMMIT around them."""
    host = Client.guest("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    with mock.patch("games.tasks.game_cpu_turn.apply_async"):
        view = host.post(f"/api/v1/games/{game['id']}/start/").json()
        if view["turn"]["seat"] != 0:
            assert game_cpu_turn(game_id=game["id"], seq=view["seq"])
            view = host.game(game["id"])

        with CaptureQueriesContext(connection) as move:
            response = host.act(view, **simple_move(view))
        assert response.status_code == 200, response.content
        with CaptureQueriesContext(connection) as cpu:
            assert game_cpu_turn(game_id=game["id"], seq=view["seq"] + 1)

    assert _statements(move) == ["SELECT", "BEGIN", "SELECT", "WITH", "COMMIT"]
    assert _statements(cpu) == ["BEGIN", "SELECT", "WITH", "COMMIT"]


def test_the_locked_rows_are_those_the_orm_reads(django_assert_num_queries) -> None:
    """games_lock returns the tables' rows whole; their columns are read by name
    (games/locks.py), and become the instances the ORM would make."""
    game_id, clients = start_table(3)
    Rating.objects.create(
        player=clients[1].player,
        mu=30.0,
        sigma=5.0,
        ordinal=15.0,
        games=3,
        last_game_at=timezone.now(),
    )
    Seat.objects.filter(game_id=game_id, seat=2).update(player=None, is_cpu=True, live=False)
    Event.objects.create(game_id=game_id, seq=0, type="last", payload={})
    with transaction.atomic(), django_assert_num_queries(1):
        locked = LockedGame.lock(game_id)
    game = Game.objects.get(pk=game_id)
    orm = list(game.seats.select_related("player__rating").order_by("seat"))
    assert model_to_dict(locked.game) == model_to_dict(game)
    assert locked.game.state == game.state
    assert [model_to_dict(seat) for seat in locked.seats] == [model_to_dict(s) for s in orm]
    assert locked.last_event_id == Event.objects.filter(game_id=game_id).latest("id").pk
    first, second, cpu = locked.seats
    assert first.player is not None
    assert second.player is not None
    with django_assert_num_queries(0):
        assert second.player.rating.ordinal == 15.0
        assert cpu.player is None
        assert first.game is locked.game
        with pytest.raises(Rating.DoesNotExist):
            first.player.rating  # noqa: B018 - no rating row: none, and no query


def test_no_game_and_a_game_another_transaction_holds() -> None:
    game_id, _ = start_table(2)
    with held_elsewhere(lambda: LockedGame.lock(game_id)), transaction.atomic():
        assert LockedGame.try_lock(game_id, skip_locked=True) is None  # the sweeper's
        assert LockedGame.try_lock(uuid.uuid4()) is None
        assert LockedGame.try_lock("not a game") is None
    with transaction.atomic():
        locked = LockedGame.try_lock(game_id, skip_locked=True)
    assert locked is not None
    assert [seat.seat for seat in locked.seats] == [0, 1]


def test_what_record_took_is_written_by_the_next_save_and_nothing_else_publishes_it() -> None:
    """An engine result's events and seats wait for the game row's save (one statement); a
    push or the idling count of a game whose result is not saved yet is refused."""
    game_id, _ = start_table(2)
    with transaction.atomic():
        locked = LockedGame.lock(game_id)
        state = locked.playing_state()
        seat = state.turn
        assert seat is not None
        action = cpu_action(state, seat, random.Random(1))
        new_state, events = apply(state, action, fairness.chance(locked))
        before = Event.objects.filter(game_id=game_id).count()
        locked.record(new_state, events, by="player")
        assert locked.unsaved
        assert Event.objects.filter(game_id=game_id).count() == before  # not written yet
        with pytest.raises(AssertionError):
            notify.game_update(locked)
        with pytest.raises(AssertionError):
            fair_play.game_ended(locked)
        with CaptureQueriesContext(connection) as saved:
            locked.save("state", "seq")
        assert len(saved.captured_queries) == 1
        assert not locked.unsaved
        assert Event.objects.filter(game_id=game_id).count() == before + len(events)
        assert [event.pk for event in locked.new_events] == list(
            Event.objects.filter(game_id=game_id).order_by("id").values_list("id", flat=True)
        )[before:]
