"""A guest becomes a registered account (same id); registered accounts log in and out."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import services
from accounts.models import AuthToken, Player
from core.errors import ApplicationError
from tests.factories import PASSWORD, PlayerFactory

REGISTER = "/api/v1/auth/register/"
LOGIN = "/api/v1/auth/login/"
LOGOUT = "/api/v1/auth/logout/"
ME = "/api/v1/me/"

pytestmark = pytest.mark.django_db


def _guest(api_client) -> tuple[str, dict[str, Any]]:
    body = api_client.post("/api/v1/auth/guest/", {"display_name": "Dana"}, format="json").json()
    return body["token"], body["player"]


def test_a_guest_registers_and_keeps_its_id_and_rating(api_client) -> None:
    token, guest = _guest(api_client)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    response = api_client.post(REGISTER, {"username": "dana", "password": PASSWORD})

    assert response.status_code == 200
    player = response.json()["player"]
    assert player == {**guest, "is_guest": False}
    stored = Player.objects.get(pk=guest["id"])
    assert (stored.username, stored.is_guest) == ("dana", False)
    assert stored.password.startswith("argon2$")
    assert stored.check_password(PASSWORD)
    # The guest's token keeps working: it is the same player.
    assert api_client.get(ME).json()["id"] == guest["id"]


def test_login_after_registering_returns_the_same_player(api_client) -> None:
    token, guest = _guest(api_client)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    api_client.post(REGISTER, {"username": "Dana", "password": PASSWORD})
    api_client.credentials()

    response = api_client.post(LOGIN, {"username": "dANA", "password": PASSWORD})

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"token", "player"}
    assert body["player"]["id"] == guest["id"]
    assert body["player"]["is_guest"] is False
    assert body["token"] != token
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {body['token']}")
    assert api_client.get(ME).json()["id"] == guest["id"]
    assert AuthToken.objects.filter(player_id=guest["id"]).count() == 2


@pytest.mark.parametrize("taken", ["dana", "DANA", "Dana"])
def test_username_taken_regardless_of_case(guest_client, taken: str) -> None:
    PlayerFactory.create(registered=True, username=taken)

    response = guest_client.post(REGISTER, {"username": "dana", "password": PASSWORD})

    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"


def test_username_taken_by_a_concurrent_registration(guest, monkeypatch) -> None:
    """The check before the write can miss a registration that commits in between; the
    unique index catches it, and the answer is the same."""
    PlayerFactory.create(registered=True, username="Dana")
    monkeypatch.setattr(services, "player_get_by_username", lambda username: None)

    with pytest.raises(ApplicationError) as caught:
        services.player_register(player=guest, username="dana", password=PASSWORD)

    assert caught.value.code == "username_taken"
    guest.refresh_from_db()
    assert guest.is_guest
    assert guest.username is None


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short1!", "too short"),
        ("password123", "too common"),
        ("83726154927", "entirely numeric"),
        ("dana-the-great", "too similar"),
    ],
)
def test_weak_password_is_invalid_password_with_reasons(
    guest_client, guest, password: str, reason: str
) -> None:
    response = guest_client.post(REGISTER, {"username": "dana-the-great", "password": password})

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_password"
    assert any(reason in text for text in body["reasons"])
    guest.refresh_from_db()
    assert guest.is_guest


@pytest.mark.parametrize(
    "payload",
    [
        {"password": PASSWORD},
        {"username": "dana"},
        {"username": "da", "password": PASSWORD},
        {"username": "has space", "password": PASSWORD},
        {"username": "x" * 31, "password": PASSWORD},
        {"username": "dana", "password": "x" * 257},
    ],
)
def test_malformed_registration_is_invalid(guest_client, payload: dict[str, Any]) -> None:
    response = guest_client.post(REGISTER, payload, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_registered_account_cannot_register_again(client_for) -> None:
    client = client_for(PlayerFactory.create(registered=True))

    response = client.post(REGISTER, {"username": "another", "password": PASSWORD})

    assert response.status_code == 409
    assert response.json()["code"] == "already_registered"


def test_register_needs_a_token(api_client) -> None:
    response = api_client.post(REGISTER, {"username": "dana", "password": PASSWORD})

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.parametrize(
    ("username", "password"),
    [("dana", "Wrong-Password-123"), ("nobody", PASSWORD), ("dana", PASSWORD.lower())],
)
def test_bad_credentials_do_not_say_which_part_was_wrong(
    api_client, username: str, password: str
) -> None:
    PlayerFactory.create(registered=True, username="dana")

    response = api_client.post(LOGIN, {"username": username, "password": password})

    assert response.status_code == 400
    assert response.json() == {
        "detail": "Wrong username or password.",
        "code": "invalid_credentials",
    }


def test_deactivated_account_cannot_log_in(api_client) -> None:
    PlayerFactory.create(registered=True, username="dana", is_active=False)

    response = api_client.post(LOGIN, {"username": "dana", "password": PASSWORD})

    assert response.json()["code"] == "invalid_credentials"


@pytest.mark.parametrize("payload", [{}, {"username": "dana"}, {"password": PASSWORD}])
def test_malformed_login_is_invalid(api_client, payload: dict[str, Any]) -> None:
    response = api_client.post(LOGIN, payload, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_login_ignores_a_stale_token(api_client) -> None:
    PlayerFactory.create(registered=True, username="dana")
    api_client.credentials(HTTP_AUTHORIZATION="Bearer expired-long-ago")

    assert api_client.post(LOGIN, {"username": "dana", "password": PASSWORD}).status_code == 200


def test_login_records_last_login(api_client) -> None:
    player = PlayerFactory.create(registered=True, username="dana")

    api_client.post(LOGIN, {"username": "dana", "password": PASSWORD})

    player.refresh_from_db()
    assert player.last_login is not None


def test_logout_revokes_only_the_token_used(client_for, guest) -> None:
    phone, laptop = client_for(guest), client_for(guest)

    response = phone.post(LOGOUT)

    assert response.status_code == 204
    assert response.content == b""
    after = phone.get(ME)
    assert after.status_code == 401
    assert after.json()["code"] == "invalid_token"
    assert laptop.get(ME).status_code == 200
    assert AuthToken.objects.filter(player=guest).count() == 1


def test_logout_needs_a_token(api_client) -> None:
    response = api_client.post(LOGOUT)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
