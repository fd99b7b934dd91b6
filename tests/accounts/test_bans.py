"""A banned player is refused everywhere (403 `banned`) and subscribers hear of the ban."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import Player
from accounts.services import player_ban, player_unban
from accounts.signals import player_banned
from core.errors import ApplicationError
from tests.factories import PASSWORD, PlayerFactory

pytestmark = pytest.mark.django_db

AUTHENTICATED_CALLS = [
    ("get", "/api/v1/me/", None),
    ("patch", "/api/v1/me/", {"display_name": "Evader"}),
    ("post", "/api/v1/auth/register/", {"username": "evader", "password": PASSWORD}),
    ("post", "/api/v1/auth/logout/", None),
    ("post", "/api/v1/auth/ws-ticket/", None),
]


@pytest.fixture
def received():
    calls: list[dict[str, Any]] = []

    def receiver(sender, **kwargs) -> None:
        calls.append({"sender": sender, **kwargs})

    player_banned.connect(receiver)
    yield calls
    player_banned.disconnect(receiver)


@pytest.mark.parametrize(("method", "url", "payload"), AUTHENTICATED_CALLS)
def test_banned_player_is_refused_on_every_call(
    guest_client, guest, method: str, url: str, payload: dict[str, Any] | None
) -> None:
    player_ban(player=guest, reason="Collusion.")

    response = getattr(guest_client, method)(url, payload)

    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "banned"
    assert "Collusion." in body["detail"]
    guest.refresh_from_db()
    assert guest.display_name != "Evader"
    assert guest.is_guest


def test_banned_player_cannot_log_in(api_client) -> None:
    player = PlayerFactory.create(registered=True, username="dana")
    until = timezone.now() + timedelta(days=3)
    player_ban(player=player, reason="Abuse.", until=until)

    response = api_client.post("/api/v1/auth/login/", {"username": "dana", "password": PASSWORD})

    assert response.status_code == 403
    assert response.json()["code"] == "banned"
    assert until.isoformat() in response.json()["detail"]


def test_a_ban_does_not_reveal_itself_to_a_wrong_password(api_client) -> None:
    PlayerFactory.create(registered=True, banned=True, username="dana")

    response = api_client.post("/api/v1/auth/login/", {"username": "dana", "password": "nope"})

    assert response.json()["code"] == "invalid_credentials"


def test_a_ban_that_ended_lets_the_player_back(guest_client, guest) -> None:
    player_ban(player=guest, reason="Cool down.", until=timezone.now() + timedelta(hours=1))
    assert guest_client.get("/api/v1/me/").status_code == 403

    Player.objects.filter(pk=guest.pk).update(banned_until=timezone.now())

    assert guest_client.get("/api/v1/me/").status_code == 200


def test_unban(guest_client, guest) -> None:
    player_ban(player=guest, reason="Mistake.")

    player_unban(player=guest)

    assert guest_client.get("/api/v1/me/").status_code == 200
    guest.refresh_from_db()
    assert (guest.banned_at, guest.banned_until, guest.ban_reason) == (None, None, "")


def test_ban_records_who_and_why(guest) -> None:
    staff = PlayerFactory.create(registered=True, is_staff=True)
    until = timezone.now() + timedelta(days=7)

    player_ban(player=guest, reason="Cheating.", until=until, by=staff)

    guest.refresh_from_db()
    assert guest.is_banned
    assert guest.banned_at is not None
    assert (guest.banned_until, guest.ban_reason, guest.banned_by) == (until, "Cheating.", staff)


def test_a_ban_must_end_in_the_future(guest) -> None:
    with pytest.raises(ApplicationError) as caught:
        player_ban(player=guest, reason="x", until=timezone.now() - timedelta(seconds=1))

    assert caught.value.code == "invalid"
    guest.refresh_from_db()
    assert not guest.is_banned


def test_player_banned_is_sent_after_the_commit(
    guest, received, django_capture_on_commit_callbacks
) -> None:
    staff = PlayerFactory.create(registered=True, is_staff=True)
    until = timezone.now() + timedelta(days=1)

    with django_capture_on_commit_callbacks() as callbacks:
        player_ban(player=guest, reason="Cheating.", until=until, by=staff)
        assert received == []  # not while the ban could still roll back

    assert len(callbacks) == 2  # the signal, then closing the player's sockets
    callbacks[0]()
    assert len(received) == 1
    call = received[0]
    assert call["sender"] is Player
    assert call["player"].pk == guest.pk
    assert (call["reason"], call["until"], call["by"]) == ("Cheating.", until, staff)


def test_a_failing_subscriber_does_not_undo_the_ban(
    guest, django_capture_on_commit_callbacks, caplog
) -> None:
    def broken(sender, **kwargs) -> None:
        raise RuntimeError("subscriber bug")

    player_banned.connect(broken)
    try:
        with (
            caplog.at_level(logging.ERROR, logger="accounts.services"),
            django_capture_on_commit_callbacks(execute=True),
        ):
            player_ban(player=guest, reason="Cheating.")
    finally:
        player_banned.disconnect(broken)

    guest.refresh_from_db()
    assert guest.is_banned
    assert "player_banned receiver" in caplog.text
