"""`game_get` (games/selectors.py) loads the row as the ORM does, in plain SQL."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.selectors import game_get, game_view_tag, game_view_tag_and_game

pytestmark = pytest.mark.django_db


def test_it_loads_every_field_as_the_orm_does(make_client) -> None:
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    host.post(f"/api/v1/games/{game['id']}/start/")
    loaded = game_get(game["id"])
    assert loaded is not None
    orm = Game.objects.get(pk=game["id"])
    fields = [field.name for field in Game._meta.concrete_fields]
    assert model_to_dict(loaded, fields=fields) == model_to_dict(orm, fields=fields)
    assert loaded.state is not None
    assert loaded.state == orm.state
    assert [getattr(loaded, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert not loaded._state.adding


@pytest.mark.parametrize(
    "key",
    [
        uuid.UUID("00000000-0000-4000-8000-000000000000"),
        "00000000-0000-4000-8000-000000000001",
        "not-a-uuid",
        None,
        7,
    ],
)
def test_no_such_game_is_none(key: object) -> None:
    assert game_get(key) is None  # type: ignore[arg-type]


def test_the_tag_and_the_game_in_one_query(make_client) -> None:
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    host.post(f"/api/v1/games/{game['id']}/start/")
    key = uuid.UUID(game["id"])
    with CaptureQueriesContext(connection) as queries:
        tagged = game_view_tag_and_game(key, host.player)
    assert len(queries) == 1
    assert tagged is not None
    tag, loaded = tagged
    assert tag == game_view_tag(key, host.player)
    assert loaded.state == Game.objects.get(pk=key).state
    assert game_view_tag_and_game(uuid.uuid4(), host.player) is None


def test_a_read_without_a_tag_to_match_saves_a_query(make_client) -> None:
    host = make_client("Host")
    game = host.post("/api/v1/games/", {"max_players": 2}).json()
    host.post(f"/api/v1/games/{game['id']}/cpu/")
    host.post(f"/api/v1/games/{game['id']}/start/")
    path = f"/api/v1/games/{game['id']}/"
    with CaptureQueriesContext(connection) as stale:
        with_stale = host.api.get(path, HTTP_IF_NONE_MATCH='"gstale"')
    with CaptureQueriesContext(connection) as plain:
        without = host.api.get(path)
    assert with_stale.status_code == without.status_code == 200
    assert with_stale.json() == without.json()
    assert with_stale["ETag"] == without["ETag"]
    assert len(plain) == len(stale) - 1
