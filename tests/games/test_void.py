"""Voiding: the game stays (or becomes) finished and readable, marked voided, its ratings
rolled back; an active game ends at once with no places."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps

from core.errors import ApplicationError
from games.models import Event, Game, GameStatus
from games.services.rating import game_rate, game_unrate
from games.services.staff import game_void
from ratings.models import RatingChange
from tests.games.conftest import Client, play_moves, start_table


def test_a_voided_game_stays_finished_and_its_ratings_are_rolled_back(make_game, players) -> None:
    game = make_game([(players[0], 1), (players[1], 2)])
    assert game_rate(game_id=game.pk)
    game_void(game_id=game.pk, reason=" cheating ")
    assert game_unrate(game_id=game.pk)  # what the task queued after the commit runs
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.void_reason == "cheating"
    assert game.voided_at is not None
    assert not RatingChange.objects.filter(game=game).exists()
    assert game_rate(game_id=game.pk) is False  # and never rated again


def test_the_api_shows_the_void_and_serves_the_record(db) -> None:
    game_id, clients = start_table(2)
    play_moves(game_id, clients, 5)
    game_void(game_id=game_id, reason="abuse")

    game = clients[0].game(game_id)
    assert game["status"] == "finished"
    assert (game["voided"], game["void_reason"]) == (True, "abuse")
    assert game["voided_at"] is not None
    assert game["turn"] is None
    assert all(seat["place"] is None for seat in game["seats"])  # ended now, no places
    record = clients[1].get(f"/api/v1/games/{game_id}/record/")
    assert record.status_code == 200
    assert record.json()["rounds"]
    # Not in the players' lists of games with a result; the table is free again.
    games = clients[0].get(f"/api/v1/players/{clients[0].player.pk}/games/").json()
    assert games["count"] == 0
    assert clients[0].get("/api/v1/me/").json()["active_game"] is None


def test_a_game_not_voided_says_so(db) -> None:
    game_id, clients = start_table(2)
    game = clients[0].game(game_id)
    assert (game["voided"], game["voided_at"], game["void_reason"]) == (False, None, None)


def test_a_void_needs_a_reason_and_a_played_game(db) -> None:
    host = Client.guest("Host")
    waiting = host.post("/api/v1/games/", {"max_players": 2}).json()["id"]
    with pytest.raises(ApplicationError, match="reason"):
        game_void(game_id=waiting, reason="  ")
    with pytest.raises(ApplicationError) as refused:
        game_void(game_id=waiting, reason="spam")
    assert refused.value.code == "not_started"
    assert Game.objects.get(pk=waiting).voided_at is None


def test_voiding_twice_does_nothing(make_game, players) -> None:
    game = make_game([(players[0], 1), (players[1], 2)])
    first = game_void(game_id=game.pk, reason="one").game.voided_at
    again = game_void(game_id=game.pk, reason="two").game
    assert (again.voided_at, again.void_reason) == (first, "one")


def test_games_voided_before_the_migration_become_finished_and_voided(make_game, players) -> None:
    """Voids used to leave `aborted`: the migration reads them back from their event."""
    migration = importlib.import_module("games.migrations.0006_game_voided")
    old = make_game([(players[0], 1), (players[1], 2)], status=GameStatus.ABORTED)
    Event.objects.create(game=old, seq=9, type="game_voided", payload={"reason": "collusion"})
    closed = make_game([(players[2], 1)], status=GameStatus.ABORTED)  # a closed table: stays

    migration.voided_games_stay_finished(django_apps, None)

    old.refresh_from_db()
    assert (old.status, old.void_reason) == (GameStatus.FINISHED, "collusion")
    assert old.voided_at is not None
    closed.refresh_from_db()
    assert (closed.status, closed.voided_at) == (GameStatus.ABORTED, None)
