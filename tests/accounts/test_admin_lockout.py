"""The admin's login locks out repeated failures (django-axes), per username and per address,
and staff unlock each other with a command or the admin's access attempts pages."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import Player
from tests.factories import PASSWORD, PlayerFactory

LOGIN = "/admin/login/?next=/admin/"
ATTACKER, OFFICE, HOME = "203.0.113.7", "198.51.100.1", "198.51.100.2"

pytestmark = pytest.mark.django_db


def _staff(username: str) -> Player:
    return PlayerFactory.create(
        registered=True, username=username, is_staff=True, is_superuser=True
    )


def _log_in(username: str, password: str, address: str) -> tuple[int, bool]:
    """(status of the login POST, whether the client then holds an admin session)."""
    client = Client(REMOTE_ADDR=address)
    response = client.post(LOGIN, {"username": username, "password": password})
    return response.status_code, client.get("/admin/").status_code == 200


def _guess(username: str, times: int, address: str = ATTACKER) -> None:
    for attempt in range(times):
        _log_in(username, f"wrong-{attempt}", address)


def test_thirty_wrong_passwords_then_the_right_one_is_refused() -> None:
    _staff("root")
    _guess("root", 30)

    status, logged_in = _log_in("root", PASSWORD, ATTACKER)

    assert (status, logged_in) == (429, False)


def test_the_lockout_page_says_what_happened() -> None:
    _staff("root")
    _guess("root", 5)

    response = Client(REMOTE_ADDR=ATTACKER).post(LOGIN, {"username": "root", "password": "x"})

    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed logins" in text
    assert "15 minutes" in text


def test_the_username_is_locked_from_every_address_and_spelling() -> None:
    _staff("root")
    _guess("root", 5)

    assert _log_in("root", PASSWORD, HOME) == (429, False)
    assert _log_in(" ROOT", PASSWORD, OFFICE) == (429, False)


def test_the_address_is_locked_for_every_username() -> None:
    _staff("root")
    _staff("dana")
    for attempt in range(5):
        _log_in(f"nobody{attempt}", "x", ATTACKER)

    assert _log_in("dana", PASSWORD, ATTACKER) == (429, False)


def test_another_user_elsewhere_is_unaffected() -> None:
    _staff("root")
    _staff("dana")
    _guess("root", 30)

    assert _log_in("dana", PASSWORD, OFFICE) == (302, True)


def test_fewer_failures_than_the_limit_do_not_lock() -> None:
    _staff("root")
    _guess("root", 4)

    assert _log_in("root", PASSWORD, ATTACKER) == (302, True)


def test_resetting_the_username_unlocks_it() -> None:
    _staff("root")
    _guess("root", 30)
    assert _log_in("root", PASSWORD, OFFICE) == (429, False)

    call_command("axes_reset_username", "root")

    assert _log_in("root", PASSWORD, OFFICE) == (302, True)


def test_the_api_login_and_bearer_tokens_are_not_counted_by_the_lockout(
    api_client, client_for
) -> None:
    """The API's login has its own limits (accounts.throttles); the lockout is the admin's."""
    staff = _staff("root")
    for attempt in range(10):
        api_client.post(
            "/api/v1/auth/login/",
            {"username": "root", "password": f"wrong-{attempt}"},
            REMOTE_ADDR=ATTACKER,
        )

    assert _log_in("root", PASSWORD, OFFICE) == (302, True)
    assert client_for(staff).get("/api/v1/me/").status_code == 200


def test_the_admin_finds_staff_by_the_apis_username_key() -> None:
    """One normalisation for both logins, so that the lockout's key is the account's."""
    _staff("root")

    assert _log_in(" ROOT\u3000", PASSWORD, OFFICE) == (302, True)
