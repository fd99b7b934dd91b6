"""core/perf/sql.py: hot queries in plain SQL give the same instances, and write the same
rows, as the ORM; each test of what it takes from Django's internals (the columns, the
converters, the INSERT and UPDATE) compares with the ORM's own SQL, so it fails if Django
changes them."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.db import DEFAULT_DB_ALIAS, connection, transaction
from django.db.models import Model
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import AuthToken, Player
from core.perf.sql import Columns, fetch, insert, query, update, write
from games.models import Event, Game, GameStatus, Seat
from games.selectors import game_seats
from ratings.models import Rating
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

GAME = Columns(Game, "g")


def _table() -> Game:
    """A table with a rated player, an unrated one and a CPU seat."""
    rated, unrated = PlayerFactory.create(), PlayerFactory.create()
    Rating.objects.create(
        player=rated, mu=30.0, sigma=5.0, ordinal=15.0, games=3, last_game_at=timezone.now()
    )
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


def test_several_rows_are_updated_as_bulk_update_would() -> None:
    game = _table()
    ours, orm = list(game.seats.order_by("seat")), list(game.seats.order_by("seat"))
    for seats in (ours, orm):
        for seat in seats:
            seat.score, seat.eliminated, seat.place = seat.seat * 7, seat.seat == 1, None
        seats[2].place = 1
    Seat.objects.bulk_update(orm, ["score", "eliminated", "place"])
    expected = [model_to_dict(seat) for seat in game.seats.order_by("seat")]
    Seat.objects.filter(game=game).update(score=0, eliminated=False, place=None)
    write(updates=[(ours, ["score", "eliminated", "place"])])
    assert [model_to_dict(seat) for seat in game.seats.order_by("seat")] == expected


def test_inserts_and_updates_go_in_one_statement(django_assert_num_queries) -> None:
    game = _table()
    seats = list(game.seats.order_by("seat"))
    for seat in seats:
        seat.score += 5
    game.seq, game.state = 8, {"turn": 0}
    events = [Event(game=game, seq=8, type="played", payload={"n": n}) for n in range(3)]
    with transaction.atomic(), django_assert_num_queries(1) as queries:
        write(insert=events, updates=[(seats, ["score"]), ([game], ["seq", "state"])])
    assert queries.captured_queries[0]["sql"].startswith("WITH ")
    stored = list(Event.objects.filter(game=game).order_by("id"))
    assert [event.pk for event in events] == [event.pk for event in stored]
    assert [event.payload for event in stored] == [{"n": n} for n in range(3)]
    assert list(game.seats.order_by("seat").values_list("score", flat=True)) == [5, 5, 45]
    game.refresh_from_db()
    assert (game.seq, game.state) == (8, {"turn": 0})
    with django_assert_num_queries(0):
        write()  # nothing to write: no statement


# Against the ORM's own SQL ------------------------------------------------------------------

# Every model the hot queries read (games/locks.py, games/selectors.py, accounts/selectors.py).
READ = [Game, Event, Seat, Player, Rating, AuthToken]


def _orm_compiler(model: type[Model]) -> Any:
    compiler = model._default_manager.all().query.get_compiler(DEFAULT_DB_ALIAS)
    compiler.as_sql()  # fills compiler.select
    return compiler


def _columns(sql_list: str) -> list[str]:
    """The column names of a SELECT, INSERT or SET list, however qualified."""
    return re.findall(r'"(\w+)"(?=\s*(?:,|$|=| FROM))', sql_list)


@pytest.mark.parametrize("model", READ, ids=lambda model: model.__name__)
def test_the_columns_are_those_the_orm_selects(model: type[Model]) -> None:
    sql, _ = model._default_manager.all().query.sql_with_params()
    selected = sql[len("SELECT ") : sql.index(" FROM ")]
    assert _columns(Columns(model, "x").select) == _columns(selected)
    assert len(_columns(selected)) == len(model._meta.concrete_fields)


@pytest.mark.parametrize("model", READ, ids=lambda model: model.__name__)
def test_a_row_is_converted_as_the_orm_converts_it(model: type[Model]) -> None:
    """The same backend and field converters, for the same columns, as the SQL compiler's."""
    compiler = _orm_compiler(model)
    orm = compiler.get_converters([column for column, _, _ in compiler.select])
    ours = Columns(model, "x")._converters

    def functions(converters: list[Any]) -> list[Any]:
        # (a JSON field's converter is its own wrapped: test_json_columns_are_read_by_orjson)
        unwrapped = [getattr(convert, "__wrapped__", convert) for convert in converters]
        return [getattr(convert, "__func__", convert) for convert in unwrapped]

    assert {index: functions(converters) for index, (converters, _) in orm.items()} == {
        index: functions(converters) for index, converters, _ in ours
    }
    if model is Game:
        assert orm  # its JSON fields are decoded by a converter


def test_json_columns_are_read_by_orjson_as_the_orm_reads_them() -> None:
    """The same values as the ORM's `json.loads`, without it; what orjson cannot read (an
    integer past 64 bits) still read by the field's own converter."""
    game = _table()
    Game.objects.filter(pk=game.pk).update(
        state={"big": 2**70, "text": "\u05d9\u05e0\u05d9\u05d1"}, fairness="just a string"
    )
    expected = Game.objects.get(pk=game.pk)
    sql = query("SELECT {g.select} FROM {g.table} WHERE g.id = %s", g=GAME)
    [[with_big]] = fetch(sql, [game.pk], GAME)
    assert (with_big.state, with_big.fairness) == (expected.state, expected.fairness)
    Game.objects.filter(pk=game.pk).update(state={"turn": 2, "hands": [["AS", "2C"]]})
    with mock.patch("json.loads", side_effect=AssertionError("json.loads")):
        [[loaded]] = fetch(sql, [game.pk], GAME)
    assert loaded.state == {"turn": 2, "hands": [["AS", "2C"]]}
    assert loaded.rules == {"call_limit": 7}


def _statement(queries: CaptureQueriesContext, verb: str) -> str:
    [sql] = [query["sql"] for query in queries.captured_queries if query["sql"].startswith(verb)]
    return sql


def test_insert_writes_the_columns_bulk_create_writes() -> None:
    game = _table()
    with CaptureQueriesContext(connection) as orm:
        Event.objects.bulk_create([Event(game=game, seq=1, type="played", payload={})])
    with CaptureQueriesContext(connection) as ours:
        insert([Event(game=game, seq=1, type="played", payload={})])
    orm_sql, our_sql = _statement(orm, "INSERT"), _statement(ours, "INSERT")
    head = 'INSERT INTO "games_event" ('
    assert orm_sql.startswith(head)
    assert our_sql.startswith(head)

    def inserted(sql: str) -> list[str]:
        return _columns(sql[len(head) : sql.index(") VALUES")])

    assert inserted(our_sql) == inserted(orm_sql)
    assert inserted(orm_sql) == ["game_id", "seq", "type", "payload", "created_at"]
    assert orm_sql.endswith('RETURNING "games_event"."id"')
    assert our_sql.endswith('RETURNING "id"')


def test_update_sets_what_save_with_update_fields_sets() -> None:
    game = _table()
    game.status, game.seq, game.state = GameStatus.ACTIVE, 4, {"turn": 0, "hands": [["2C"]]}
    game.turn_deadline = timezone.now()
    names = ["status", "seq", "state", "turn_deadline"]
    with transaction.atomic(), CaptureQueriesContext(connection) as orm:
        game.save(update_fields=names)
    with transaction.atomic(), CaptureQueriesContext(connection) as ours:
        update(game, names)

    def assignments(sql: str) -> str:
        """The SET list, values included (the captured SQL has them bound)."""
        return sql[sql.index(" SET ") : sql.index(" WHERE ")]

    orm_sql, our_sql = _statement(orm, "UPDATE"), _statement(ours, "UPDATE")
    assert assignments(our_sql) == assignments(orm_sql)
    assert _columns(assignments(orm_sql)) == names
    assert _columns(our_sql[our_sql.index(" WHERE ") :]) == ["id"]  # by the key, as save()
    assert _columns(orm_sql[orm_sql.index(" WHERE ") :]) == ["id"]


def test_a_values_list_casts_as_bulk_update_casts() -> None:
    game = _table()
    seats = list(game.seats.order_by("seat"))
    names = ["score", "eliminated", "place", "cpu_level"]
    with transaction.atomic(), CaptureQueriesContext(connection) as orm:
        Seat.objects.bulk_update(seats, names)
    with transaction.atomic(), CaptureQueriesContext(connection) as ours:
        write(updates=[(seats, names)])
    orm_sql, our_sql = _statement(orm, "UPDATE"), _statement(ours, "UPDATE")
    orm_casts = dict(re.findall(r'"(\w+)" = \(CASE .*? END\)::([\w ]+(?:\(\d+\))?)', orm_sql))
    listed = re.findall(r'"(\w+)"', our_sql[our_sql.index(" AS v (") : our_sql.index(" WHERE ")])
    first_row = our_sql[our_sql.index("(VALUES (") + len("(VALUES (") :].split("), (")[0]
    our_casts = dict(zip(listed, re.findall(r"::([\w ]+(?:\(\d+\))?)", first_row), strict=True))
    assert our_casts.pop("id") == "bigint"
    assert our_casts == orm_casts
    assert set(orm_casts) == set(names)


def test_an_instance_made_from_a_row_is_in_the_state_the_orm_leaves_it() -> None:
    game = _table()
    [[loaded]] = fetch(
        query("SELECT {g.select} FROM {g.table} WHERE g.id = %s", g=GAME), [game.pk], GAME
    )
    expected = Game.objects.get(pk=game.pk)
    assert (loaded._state.adding, loaded._state.db) == (expected._state.adding, expected._state.db)
    written = Event(game=game, seq=1, type="played", payload={})
    insert([written])
    [created] = Event.objects.bulk_create([Event(game=game, seq=1, type="played", payload={})])
    assert (written._state.adding, written._state.db) == (created._state.adding, created._state.db)


# Only the game app's locks and reads and the token lookup build SQL with it ----------------


def test_only_the_hot_queries_modules_use_it() -> None:
    """Every other read and write goes through the ORM (games/locks.py, games/selectors.py: the
    game's rows)."""
    root = Path(__file__).resolve().parents[3]
    users = {
        str(path.relative_to(root))
        for path in root.glob("*/**/*.py")
        if path.parts[len(root.parts)] not in {".venv", "var", "tests"}
        and re.search(r"^from core\.perf(\.sql| import sql)\b", path.read_text(), re.M)
    }
    assert users == {"games/locks.py", "games/selectors.py", "accounts/selectors.py"}
