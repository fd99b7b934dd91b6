"""CPU levels at a table: the level API, `seats[].cpu_level`, the level the clock plays, and
tables with no human left to play finishing at once."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from games import tasks
from games.engine.cpu import Level, cpu_action
from games.models import Event, Game, GameStatus, Seat
from games.services import clock

pytestmark = pytest.mark.django_db


def _table(make_client, levels: list[dict[str, Any] | None]):
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": len(levels) + 1}).json()
    for body in levels:
        response = host.post(f"/api/v1/games/{game['id']}/cpu/", body)
        assert response.status_code == 200, response.json()
    return host, host.post(f"/api/v1/games/{game['id']}/start/").json()


def test_a_cpu_plays_hard_unless_told_otherwise(make_client) -> None:
    _, game = _table(make_client, [None, {}])
    assert [seat["cpu_level"] for seat in game["seats"]] == [None, "hard", "hard"]


@pytest.mark.parametrize("level", [level.value for level in Level])
def test_each_level_can_be_seated(make_client, level) -> None:
    _, game = _table(make_client, [{"level": level}])
    assert [seat["cpu_level"] for seat in game["seats"]] == [None, level]
    assert game["seats"][1]["is_cpu"] is True


@pytest.mark.parametrize("level", ["grandmaster", "", "HARD", 3])
def test_an_unknown_level_is_refused(make_client, level) -> None:
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": 3}).json()
    response = host.post(f"/api/v1/games/{game['id']}/cpu/", {"level": level})
    body = response.json()
    assert (response.status_code, body["code"]) == (400, "invalid")
    assert "level" in body["errors"]
    assert len(host.game(game["id"])["seats"]) == 1  # nobody was seated


def test_a_seat_its_player_left_shows_the_takeover_level(make_client, settings) -> None:
    settings.YANIV_CPU_TAKEOVER_LEVEL = "easy"
    host, guest = make_client("Host"), make_client("Guest")
    game = host.post("/api/v1/games/", {"max_players": 3}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    host.post(f"/api/v1/games/{game['id']}/cpu/", {"level": "expert"})
    host.post(f"/api/v1/games/{game['id']}/start/")
    assert [s["cpu_level"] for s in host.game(game["id"])["seats"]] == [None, None, "expert"]
    guest.post(f"/api/v1/games/{game['id']}/leave/")
    assert [s["cpu_level"] for s in host.game(game["id"])["seats"]] == [None, "easy", "expert"]


def test_the_clock_plays_the_seat_s_level(make_client, monkeypatch, settings) -> None:
    settings.YANIV_CPU_TAKEOVER_LEVEL = "medium"
    played: list[tuple[int, Level]] = []
    real = cpu_action

    def spy(state, seat, rng, level=Level.HARD):
        played.append((seat, level))
        return real(state, seat, rng, level)

    monkeypatch.setattr(clock, "cpu_action", spy)
    host, guest = make_client("Host"), make_client("Guest")
    game = host.post("/api/v1/games/", {"max_players": 3}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    host.post(f"/api/v1/games/{game['id']}/cpu/", {"level": "easy"})
    game = host.post(f"/api/v1/games/{game['id']}/start/").json()
    guest.post(f"/api/v1/games/{game['id']}/leave/")  # the takeover level plays seat 1
    # Play until both CPU-played seats have moved: the host's turns by hand.
    while {seat for seat, _ in played} != {1, 2}:
        view = host.game(game["id"])
        assert view["status"] == "active"
        turn = view["turn"]["seat"]
        if turn == 0:
            move = {"type": "play", "cards": [view["you"]["hand"][0]], "draw": "stock"}
            assert host.act(view, **move).status_code == 200
        else:
            assert tasks.game_cpu_turn(game["id"], view["seq"]) is True
    assert dict(played) == {1: Level.MEDIUM, 2: Level.EASY}


def test_a_table_with_no_human_left_finishes_at_once(make_client, monkeypatch) -> None:
    scheduled: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(
        tasks.game_cpu_turn,
        "apply_async",
        lambda args, **options: scheduled.append((args, options)),
    )
    host, game = _table(make_client, [{"level": "easy"}, {"level": "hard"}])
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == GameStatus.ACTIVE
    with_humans = Event.objects.filter(game=stored).count()

    host.post(f"/api/v1/games/{game['id']}/leave/")
    stored.refresh_from_db()
    # One call plays the whole game: every move in order, each its own seq, all by the CPU.
    assert tasks.game_cpu_turn(game["id"], stored.seq) is True
    stored.refresh_from_db()
    assert stored.status == GameStatus.FINISHED
    assert stored.turn_deadline is None
    played = list(
        Event.objects.filter(game=stored, type__in=["played", "yaniv_called"])
        .order_by("id")
        .values_list("seq", "type", "payload")
    )
    assert [seq for seq, _, _ in played] == list(range(1, stored.seq + 1))
    assert {payload["by"] for _, kind, payload in played if kind == "played"} == {"cpu"}
    types = list(Event.objects.filter(game=stored).values_list("type", flat=True))
    assert types[-1] == "game_ended"
    assert len(types) > with_humans + 1
    # No think time anywhere: the CPUs' moves were played on, not scheduled one by one.
    assert all(options.get("countdown") == 0 for _, options in scheduled[-1:])
    assert len(scheduled) <= 2  # the game's first turn, and the one after the leave
    assert host.game(game["id"])["status"] == "finished"


def _unattended(out_round: tuple[int | None, ...], **seat_flags: dict[str, bool]) -> bool:
    """`unattended` of a table whose seats have these flags and are out as `out_round` says."""
    seats = [Seat(seat=i, **seat_flags.get(f"s{i}", {})) for i in range(len(out_round))]
    setup = SimpleNamespace(out_round=out_round)
    return clock.unattended(
        cast(Any, SimpleNamespace(state=SimpleNamespace(setup=setup), seats=seats))
    )


def test_a_table_is_unattended_once_its_humans_are_out_or_gone() -> None:
    cpu, left, away = {"is_cpu": True}, {"left": True}, {"away": True}
    # A human still in the game: attended.
    assert _unattended((None, None), s1=cpu) is False
    # Knocked out (round 2), or left: nobody is left to watch.
    assert _unattended((2, None), s1=cpu) is True
    assert _unattended((None, None, None), s0=left, s1=cpu, s2=left) is True
    # An away player may come back: still attended.
    assert _unattended((None, None), s0=away, s1=cpu) is False
