"""Offences in ranked games and the queue bans they earn (docs/api.md, Fair play): leaving, idling
to the end, not a disconnect the player came back from; 403 `queue_banned`, `/me`, the admin."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client as DjangoClient
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.models import Offence, Player, QueueBan
from accounts.selectors import queue_ban_until
from accounts.services import offence_record
from games.locks import LockedGame
from games.models import Event, Game, GameStatus
from games.selectors import clean_ranked_games
from games.services import fair_play, play
from games.services.clock import game_timeout
from games.services.lobby import game_begin_ranked
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

TICKETS = "/api/v1/matchmaking/tickets/"


def _offend(player: Player, make_game: Any, kind: str = "left") -> QueueBan | None:
    """An offence of `player` in a new ranked game."""
    game = make_game([(player, 1), (PlayerFactory.create(), 2)])
    return offence_record(
        player_id=player.pk,
        game_id=game.pk,
        kind=kind,
        clean_games=lambda since: clean_ranked_games(player.pk, since=since),
    )


def test_leaving_an_active_ranked_game_is_an_offence(
    players, django_capture_on_commit_callbacks
) -> None:
    a, b = players[:2]
    game = game_begin_ranked(players=[a, b]).game
    with django_capture_on_commit_callbacks(execute=True):
        play.game_leave(game_id=game.pk, player=a)
    offence = Offence.objects.get()
    assert (offence.player, offence.game_id, offence.kind) == (a, game.pk, "left")
    # A first offence in a clean stretch is forgiven: no ban yet.
    assert not QueueBan.objects.exists()


def test_an_offence_whose_record_lost_a_deadlock_is_recorded_again(
    players, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    a, b = players[:2]
    game = game_begin_ranked(players=[a, b]).game
    tries: list[int] = []

    def deadlocked_once(**record: Any) -> QueueBan | None:
        tries.append(1)
        if len(tries) == 1:
            raise OperationalError("deadlock detected")
        return offence_record(**record)

    monkeypatch.setattr(fair_play, "offence_record", deadlocked_once)
    with django_capture_on_commit_callbacks(execute=True):
        play.game_leave(game_id=game.pk, player=a)
    assert len(tries) == 2
    assert Offence.objects.get().player == a


def test_a_seat_staff_hand_to_the_cpu_is_no_offence(
    players, django_capture_on_commit_callbacks
) -> None:
    a, b = players[:2]
    game = game_begin_ranked(players=[a, b]).game
    with django_capture_on_commit_callbacks(execute=True):
        play.player_hand_over_games(player=a)  # what a ban or an erasure does
    assert Game.objects.get(pk=game.pk).seats.get(player=a).left
    assert not Offence.objects.exists()


def test_leaving_a_private_game_is_none(make_client, django_capture_on_commit_callbacks) -> None:
    host, guest = make_client("Host"), make_client("Guest")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    guest.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    host.post(f"/api/v1/games/{game['id']}/start/")
    with django_capture_on_commit_callbacks(execute=True):
        assert host.post(f"/api/v1/games/{game['id']}/leave/").status_code == 200
    assert not Offence.objects.exists()


def test_repeated_offences_ban_for_longer_each_time(players, make_game, settings) -> None:
    settings.YANIV_QUEUE_BAN_STEPS = "10m,1h"
    a = players[0]
    assert _offend(a, make_game) is None
    second = _offend(a, make_game)
    assert second is not None
    assert second.level == 2
    assert second.until - second.offence.at == timedelta(minutes=10)
    third = _offend(a, make_game)
    assert third is not None
    assert third.until - third.offence.at == timedelta(hours=1)
    fourth = _offend(a, make_game)
    assert fourth is not None
    assert fourth.until - fourth.offence.at == timedelta(hours=1)  # capped
    assert queue_ban_until(a.pk) == fourth.until
    # Two offences in one game count once.
    game_id = fourth.offence.game_id
    again = offence_record(player_id=a.pk, game_id=game_id, kind="idle", clean_games=lambda s: 0)
    assert again is None
    assert Offence.objects.filter(player=a).count() == 4


def test_clean_games_and_the_window_make_bans_decay(players, make_game, settings) -> None:
    settings.YANIV_QUEUE_BAN_FORGIVE_AFTER_GAMES = 2
    a, b = players[:2]
    _offend(a, make_game)
    assert _offend(a, make_game) is not None  # level 2: banned
    # Two clean ranked games (finished after the first offence) forgive one offence.
    for _ in range(2):
        make_game([(a, 1), (b, 2)], finished_at=timezone.now())
    assert _offend(a, make_game) is not None  # level 3 - 1 = 2: banned, not longer
    assert QueueBan.objects.filter(player=a).order_by("-id")[0].level == 2
    for _ in range(4):
        make_game([(a, 1), (b, 2)], finished_at=timezone.now())
    assert _offend(a, make_game) is None  # level 4 - 3: forgiven
    # Past the window, old offences no longer count.
    Offence.objects.filter(player=a).update(at=timezone.now() - timedelta(days=8))
    assert _offend(a, make_game) is None


def test_a_game_ended_away_for_turns_in_a_row_is_an_offence(
    players, make_game, settings, django_capture_on_commit_callbacks
) -> None:
    settings.YANIV_IDLE_OFFENCE_TURNS = 3
    a, b, c = players[:3]
    game = make_game([(a, 1), (b, 2), (c, 3)])
    # a: away, the CPU played three of their turns; b: away for two; c: came back.
    game.seats.filter(seat__in=[0, 1]).update(away=True)

    def log(event_type: str, seat: int) -> None:
        Event.objects.create(game=game, seq=game.seq, type=event_type, payload={"seat": seat})

    for seat, turns in ((0, 3), (1, 2), (2, 5)):
        log("player_away", seat)
        for _ in range(turns):
            log("played", seat)
    log("player_returned", 2)
    with django_capture_on_commit_callbacks(execute=True):
        fair_play.game_ended(LockedGame.lock(game.pk))
    assert list(Offence.objects.values_list("player", "kind")) == [(a.pk, "idle")]


def test_idling_to_the_end_of_a_real_game(players, settings, django_capture_on_commit_callbacks):
    """Both players miss every deadline: the CPU plays the whole game, both end away."""
    a, b = players[:2]
    settings.YANIV_RANKED_TURN_SECONDS = 1
    game = game_begin_ranked(players=[a, b]).game
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2000):
            game.refresh_from_db()
            if game.status == GameStatus.FINISHED:
                break
            Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now())
            game_timeout(game_id=game.pk, seq=game.seq)
    assert game.status == GameStatus.FINISHED
    assert set(Offence.objects.values_list("player", "kind")) == {(a.pk, "idle"), (b.pk, "idle")}


def test_a_queue_ban_refuses_tickets_and_shows_on_me(
    players, make_game, client_for, settings
) -> None:
    a = players[0]
    _offend(a, make_game)
    ban = _offend(a, make_game)
    assert ban is not None
    client = client_for(a)
    response = client.post(TICKETS, {"player_counts": [2]})
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "queue_banned"
    assert parse_datetime(body["until"]) == ban.until
    me = client.get("/api/v1/me/").json()
    assert parse_datetime(me["queue_ban_until"]) == ban.until
    # Once it has run out, the queue is open again.
    QueueBan.objects.update(until=timezone.now() - timedelta(seconds=1))
    assert client.post(TICKETS, {"player_counts": [2]}).status_code == 201
    assert client.get("/api/v1/me/").json()["queue_ban_until"] is None


def test_staff_lift_a_queue_ban_in_the_admin(players, make_game, client_for) -> None:
    a = players[0]
    _offend(a, make_game)
    ban = _offend(a, make_game)
    assert ban is not None
    staff = PlayerFactory.create(registered=True, is_staff=True, is_superuser=True)
    admin = DjangoClient()
    admin.force_login(staff)
    assert admin.get("/admin/accounts/offence/").status_code == 200
    assert admin.get("/admin/accounts/queueban/").status_code == 200
    response = admin.post(
        "/admin/accounts/queueban/", {"action": "lift", "_selected_action": [ban.pk]}
    )
    assert response.status_code == 302
    ban.refresh_from_db()
    assert ban.lifted_by == staff
    assert ban.lifted_at is not None
    assert queue_ban_until(a.pk) is None
    assert client_for(a).post(TICKETS, {"player_counts": [2]}).status_code == 201
