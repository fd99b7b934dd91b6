from __future__ import annotations

import re

import pytest

from accounts.models import AuthToken, Player

GUEST_URL = "/api/v1/auth/guest/"
DEFAULT_RATING = {
    "mu": 25.0,
    "sigma": 25.0 / 3,
    "ordinal": 25.0 - 3 * (25.0 / 3),
    "games": 0,
    "provisional": True,
}

pytestmark = pytest.mark.django_db


def test_guest_without_a_name_gets_a_generated_one(api_client) -> None:
    response = api_client.post(GUEST_URL, {}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "player"}
    player = body["player"]
    assert set(player) == {
        "id",
        "display_name",
        "is_bot",
        "is_guest",
        "is_cpu",
        "rating",
        "placement_games_left",
    }
    assert re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+ \d\d", player["display_name"])
    assert player["is_guest"] is True
    assert player["rating"] == pytest.approx(DEFAULT_RATING)
    stored = Player.objects.get(pk=player["id"])
    assert stored.is_guest
    assert stored.username is None
    assert not stored.has_usable_password()


def test_guest_token_authenticates(api_client) -> None:
    body = api_client.post(GUEST_URL, format="json").json()

    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    me = api_client.get("/api/v1/me/")

    assert me.status_code == 200
    assert me.json()["id"] == body["player"]["id"]


def test_only_a_hash_of_the_token_is_stored(api_client) -> None:
    body = api_client.post(GUEST_URL, format="json").json()

    token = AuthToken.objects.get(player_id=body["player"]["id"])
    assert token.key_hash == AuthToken.hash(body["token"])
    assert body["token"] not in token.key_hash


def test_each_guest_is_a_new_player_with_a_new_token(api_client) -> None:
    first = api_client.post(GUEST_URL, format="json").json()
    second = api_client.post(GUEST_URL, format="json").json()

    assert first["player"]["id"] != second["player"]["id"]
    assert first["token"] != second["token"]


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("Dana", "Dana"),
        ("  Dana  ", "Dana"),
        ("x" * 32, "x" * 32),
        ("Ünïcödé 名前", "Ünïcödé 名前"),
        ("👨\u200d👩\u200d👧 family", "👨\u200d👩\u200d👧 family"),
    ],
)
def test_guest_with_a_name(api_client, given: str, stored: str) -> None:
    response = api_client.post(GUEST_URL, {"display_name": given}, format="json")

    assert response.status_code == 201
    assert response.json()["player"]["display_name"] == stored


@pytest.mark.parametrize(
    "name",
    ["", "   ", "x" * 33, "bell\x07", "new\nline", "\u202eevil", "zero\u200bwidth", ["a"], None],
)
def test_bad_display_name_is_invalid(api_client, name: object) -> None:
    response = api_client.post(GUEST_URL, {"display_name": name}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert "display_name" in body["errors"]
    assert body["detail"].startswith("display_name: ")
    assert not Player.objects.exists()


def test_a_stale_token_does_not_block_a_new_guest(api_client) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Bearer no-longer-valid")

    assert api_client.post(GUEST_URL, format="json").status_code == 201
