"""Turn limits, absence and CPU takeover (docs/rules.md §10), with a controllable clock."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection

from accounts.services import player_ban
from core.errors import ApplicationError
from games import tasks
from games.models import Event, Game
from games.services import play
from games.services.clock import CPU_GRACE
from tests.games.conftest import Client, simple_move

START = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def _table(make_client, turn_seconds: int | None = 30) -> tuple[list[Client], dict[str, Any]]:
    host, guest = make_client("Host"), make_client("Guest")
    # No Yaniv can be called (without jokers no hand totals 0): the deal is random, and a call
    # would end the round and give its winner the next first turn, which these tests do not
    # expect.
    rules = {"turn_seconds": turn_seconds, "call_limit": 0, "jokers": 0}
    game = host.post("/api/v1/games/", {"max_players": 2, "rules": rules}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    game = host.post(f"/api/v1/games/{game['id']}/start/").json()
    return [host, guest], game


def _types(game_id: str) -> list[str]:
    return list(Event.objects.filter(game_id=game_id).values_list("type", flat=True))


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def test_a_turn_gets_a_deadline(make_client, clock) -> None:
    _, game = _table(make_client)
    stored = Game.objects.get(pk=game["id"])
    assert stored.turn_deadline == START + timedelta(seconds=30)
    assert game["turn"]["deadline"] == (START + timedelta(seconds=30)).isoformat()


def test_nothing_happens_before_the_deadline(make_client, clock) -> None:
    _, game = _table(make_client)
    clock.shift(29)
    assert tasks.game_timeout(game["id"], 0) is False
    assert tasks.games_timeout_overdue() == 0
    assert Game.objects.get(pk=game["id"]).seq == 0


def test_a_missed_deadline_makes_the_cpu_play_and_the_seat_away(make_client, clock) -> None:
    _, game = _table(make_client)
    seat = game["turn"]["seat"]
    clock.shift(31)
    assert tasks.games_timeout_overdue() == 1
    after = Game.objects.get(pk=game["id"])
    assert after.seq == 1
    away = Event.objects.get(game_id=game["id"], type="player_away")
    assert away.payload == {"seat": seat}
    played = Event.objects.get(game_id=game["id"], type="played")
    assert (played.payload["seat"], played.payload["by"]) == (seat, "cpu")
    assert after.seats.get(seat=seat).away is True
    # The other player now has a full turn of their own.
    assert after.turn_deadline == START + timedelta(seconds=61)
    # Running the same timeout again (a duplicate task) does nothing.
    assert tasks.game_timeout(game["id"], 0) is False
    assert Game.objects.get(pk=game["id"]).seq == 1


def test_an_away_seat_is_played_at_once_until_its_player_returns(make_client, clock) -> None:
    clients, game = _table(make_client)
    seat = game["turn"]["seat"]
    me, other = clients[seat], clients[1 - seat]
    clock.shift(31)
    tasks.games_timeout_overdue()
    view = other.game(game["id"])
    assert other.act(view, **simple_move(view)).status_code == 200
    stored = Game.objects.get(pk=game["id"])
    # An away seat's turn is the CPU's: due at once (plus a grace for a lost task), not 30 s.
    assert stored.turn_deadline == START + timedelta(seconds=31) + CPU_GRACE
    assert me.game(game["id"])["turn"]["deadline"] is None
    assert tasks.game_cpu_turn(game["id"], stored.seq) is True
    assert tasks.game_cpu_turn(game["id"], stored.seq) is False  # a duplicate task does nothing
    assert Game.objects.get(pk=game["id"]).seq == 3
    # Opening the game socket brings the player back; their next turn is theirs again.
    play.game_player_returned(game_id=game["id"], player=me.player)
    assert me.game(game["id"])["seats"][seat]["away"] is False
    assert _types(game["id"]).count("player_returned") == 1
    view = other.game(game["id"])
    assert other.act(view, **simple_move(view)).status_code == 200
    mine = me.game(game["id"])
    assert mine["turn"] == {
        "seat": seat,
        "deadline": (START + timedelta(seconds=61)).isoformat(),
    }
    assert me.act(mine, **simple_move(mine)).status_code == 200


def test_acting_returns_an_away_player(make_client, clock) -> None:
    clients, game = _table(make_client)
    seat = game["turn"]["seat"]
    clock.shift(31)
    tasks.games_timeout_overdue()
    other = clients[1 - seat]
    view = other.game(game["id"])
    other.act(view, **simple_move(view))
    mine = clients[seat].game(game["id"])
    # Their turn, before the CPU task ran: their own move wins and brings them back.
    response = clients[seat].act(mine, **simple_move(mine))
    assert response.status_code == 200
    assert response.json()["seats"][seat]["away"] is False
    assert _types(game["id"]).count("player_returned") == 1


def test_leaving_hands_the_seat_to_the_cpu_for_good(make_client, clock) -> None:
    clients, game = _table(make_client, turn_seconds=None)
    seat = game["turn"]["seat"]
    clients[seat].post(f"/api/v1/games/{game['id']}/leave/")
    assert tasks.game_cpu_turn(game["id"], 0) is True
    assert Event.objects.get(game_id=game["id"], type="played").payload["by"] == "cpu"
    with pytest.raises(ApplicationError) as refused:
        play.game_act(
            game_id=game["id"], player=clients[seat].player, seq=1, action={"type": "yaniv"}
        )
    assert refused.value.code in {"not_your_turn", "left"}


def test_without_a_turn_limit_nothing_times_out(make_client, clock) -> None:
    _, game = _table(make_client, turn_seconds=None)
    assert Game.objects.get(pk=game["id"]).turn_deadline is None
    assert game["turn"]["deadline"] is None
    clock.shift(3600)
    assert tasks.games_timeout_overdue() == 0
    assert tasks.game_timeout(game["id"], 0) is False


def test_a_banned_players_seat_goes_to_the_cpu(make_client, django_capture_on_commit_callbacks):
    clients, game = _table(make_client, turn_seconds=None)
    seat = game["turn"]["seat"]
    with django_capture_on_commit_callbacks(execute=True):
        player_ban(player=clients[seat].player, reason="cheating")
    stored = Game.objects.get(pk=game["id"])
    assert stored.seats.get(seat=seat).left is True
    assert "player_left" in _types(game["id"])


@pytest.mark.django_db(transaction=True)
def test_a_late_move_racing_the_deadline_is_applied_or_refused_never_both(make_client) -> None:
    with time_machine.travel(START, tick=False) as clock:
        clients, game = _table(make_client)
        mover = clients[game["turn"]["seat"]]
        view = mover.game(game["id"])
        clock.shift(30.5)
        barrier = threading.Barrier(2)
        outcome: dict[str, Any] = {}

        def move() -> None:
            barrier.wait()
            try:
                outcome["move"] = mover.act(view, **simple_move(view)).status_code
            finally:
                connection.close()

        def timeout() -> None:
            barrier.wait()
            try:
                outcome["timeout"] = tasks.game_timeout(game["id"], 0)
            finally:
                connection.close()

        threads = [threading.Thread(target=move), threading.Thread(target=timeout)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert Game.objects.get(pk=game["id"]).seq == 1
    assert Event.objects.filter(game_id=game["id"], type="played").count() == 1
    assert (outcome["move"] == 200) != (outcome["timeout"] is True)
    if outcome["move"] != 200:
        assert outcome["move"] == 409


@pytest.mark.django_db
def test_a_turn_task_for_a_game_that_is_gone_does_nothing() -> None:
    """A task queued before its game went (or by a server on another database) has no turn to
    play or enforce: it does nothing, rather than fail as a 404 in the worker's log."""
    gone = "00000000-0000-4000-8000-000000000000"

    assert tasks.game_cpu_turn(gone, 3) is False
    assert tasks.game_timeout(gone, 3) is False
    assert not Game.objects.filter(pk=gone).exists()
