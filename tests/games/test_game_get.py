"""`game_get` (games/selectors.py) loads the row as the ORM does, in plain SQL."""

from __future__ import annotations

import uuid

import pytest
from django.forms.models import model_to_dict

from games.models import Game
from games.selectors import game_get

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


@pytest.mark.parametrize("key", [uuid.uuid4(), str(uuid.uuid4()), "not-a-uuid", None, 7])
def test_no_such_game_is_none(key: object) -> None:
    assert game_get(key) is None  # type: ignore[arg-type]
