"""config/sql.py: hot queries in plain SQL give the same instances, and write the same rows,
as the ORM."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from config.sql import Columns, fetch, insert, query, update
from games.models import Event, Game, GameStatus, Seat
from games.selectors import game_seats
from ratings.models import Rating
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

GAME = Columns(Game, "g")


def _table() -> Game:
    """A table with a rated player, an unrated one and a CPU seat."""
    rated, unrated = PlayerFactory.create(), PlayerFactory.create()
    Rating.objects.create(player=rated, mu=30.0, sigma=5.0, ordinal=15.0, games=3)
    game = Game.objects.create(
        max_players=3, rules={"call_limit": 7}, state={"turn": 1, "hands": [["AS"]]}, host=rated
    )
    Seat.objects.create(game=game, seat=0, player=rated)
    Seat.objects.create(game=game, seat=1, is_cpu=True, live=False)
    Seat.objects.create(game=game, seat=2, player=unrated, score=40)
    return game


def test_a_row_becomes_the_instance_the_orm_builds() -> None:
    game = _table()
    sql = query("SELECT {g.select}, 41 + 1 FROM {g.table} WHERE g.id = %s", g=GAME)
    [[loaded, extra]] = fetch(sql, [game.pk], GAME)
    expected = Game.objects.get(pk=game.pk)
    assert model_to_dict(loaded) == model_to_dict(expected)
    assert loaded.state == {"turn": 1, "hands": [["AS"]]}  # JSON decoded, as the ORM does
    assert loaded.created_at == expected.created_at
    assert not loaded._state.adding
    assert extra == 42


def test_no_row_and_the_empty_side_of_an_outer_join() -> None:
    sql = query("SELECT {g.select} FROM {g.table} WHERE g.id = %s", g=GAME)
    assert fetch(sql, ["00000000-0000-0000-0000-000000000000"], GAME) == []
    game = _table()
    seats = game_seats(game)
    assert [seat.player is None for seat in seats] == [False, True, False]


def test_seats_match_the_orm_with_players_and_ratings(django_assert_num_queries) -> None:
    game = _table()
    orm = list(game.seats.select_related("player__rating").order_by("seat"))
    with django_assert_num_queries(1):
        seats = game_seats(game)
        assert [model_to_dict(s) for s in seats] == [model_to_dict(s) for s in orm]
        rated, unrated = seats[0].player, seats[2].player
        assert rated is not None
        assert unrated is not None
        assert rated.rating.ordinal == 15.0
        assert seats[0].game is game
        with pytest.raises(Rating.DoesNotExist):
            unrated.rating  # noqa: B018 - no rating row: none, and no query


def test_insert_sets_keys_and_writes_what_create_would() -> None:
    game = _table()
    events = [
        Event(game=game, seq=3, type="played", payload={"cards": ["AS"]}),
        Event(game=game, seq=3, type="round_ended", payload={}),
    ]
    insert(events)
    assert [event.pk for event in events] == sorted(event.pk for event in events)
    stored = {event.pk: event for event in Event.objects.filter(game=game)}
    for event in events:
        assert not event._state.adding
        assert model_to_dict(stored[event.pk]) == model_to_dict(event)
        assert stored[event.pk].created_at == event.created_at  # auto_now_add, set once
    insert([])  # nothing to write: no statement


def test_update_writes_only_the_named_fields() -> None:
    game = _table()
    deadline = timezone.now() + timedelta(seconds=30)
    game.status, game.seq, game.turn_deadline = GameStatus.ACTIVE, 9, deadline
    game.invite_code = "NOTSAVED"
    with transaction.atomic():
        update(game, ["status", "seq", "turn_deadline"])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.status, stored.seq, stored.turn_deadline) == ("active", 9, deadline)
    assert stored.invite_code != "NOTSAVED"
