"""Websocket tickets (single use, 30 s) and the Channels middleware that reads them."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import override_settings
from django.urls import path
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.models import AuthToken, Player
from accounts.services import auth_token_issue, player_ban, ws_ticket_issue, ws_ticket_redeem
from accounts.ws_auth import (
    CLOSE_BANNED,
    CLOSE_UNAUTHENTICATED,
    PlayerAuthMiddleware,
    ws_require_player,
)
from tests.factories import PlayerFactory

TICKET = "/api/v1/auth/ws-ticket/"
IN_MEMORY_LAYER = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


class WhoAmIConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    # No channel layer: this consumer needs none, and tearing one down costs a second a test.
    channel_layer_alias = "no-such-layer"

    async def connect(self) -> None:
        player = await ws_require_player(self)
        if player is None:
            return
        await self.accept()
        await self.send_json({"player": str(player.pk)})


application = PlayerAuthMiddleware(URLRouter([path("ws/whoami/", WhoAmIConsumer.as_asgi())]))


async def _connect(query: str = "", headers: list[tuple[bytes, bytes]] | None = None) -> Any:
    """The first thing the server says: a JSON message or a close frame."""
    communicator = WebsocketCommunicator(application, f"/ws/whoami/{query}", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    message = await communicator.receive_output(timeout=5)
    await communicator.disconnect()
    if message["type"] == "websocket.close":
        return message["code"]
    return str(message["text"])


def _bearer(token: str) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {token}".encode())]


@pytest.mark.django_db
def test_ws_ticket_endpoint(guest_client, guest) -> None:
    response = guest_client.post(TICKET)

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"ticket", "expires_at"}
    expires_at = parse_datetime(body["expires_at"])
    assert expires_at is not None
    assert expires_at - timezone.now() == pytest.approx(
        timedelta(seconds=30), abs=timedelta(seconds=3)
    )
    assert ws_ticket_redeem(ticket=body["ticket"]) == guest


@pytest.mark.django_db
def test_ws_ticket_needs_a_token(api_client) -> None:
    assert api_client.post(TICKET).status_code == 401


@pytest.mark.django_db
def test_a_ticket_redeems_exactly_once(guest) -> None:
    ticket, _ = ws_ticket_issue(player=guest)

    assert ws_ticket_redeem(ticket=ticket) == guest
    assert ws_ticket_redeem(ticket=ticket) is None


@pytest.mark.django_db
def test_a_ticket_names_an_active_player_whose_token_lives(guest) -> None:
    token = AuthToken.objects.get(key_hash=AuthToken.hash(auth_token_issue(player=guest)))
    ticket_alone, _ = ws_ticket_issue(player=guest)
    live_token, _ = ws_ticket_issue(player=guest, token=token)
    assert ws_ticket_redeem(ticket=live_token) == guest

    expired, _ = ws_ticket_issue(player=guest, token=token)
    AuthToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert ws_ticket_redeem(ticket=expired) is None

    Player.objects.filter(pk=guest.pk).update(is_active=False)
    assert ws_ticket_redeem(ticket=ticket_alone) is None


@pytest.mark.django_db
def test_a_ticket_expires(guest) -> None:
    with override_settings(ACCOUNTS_WS_TICKET_SECONDS=1):
        ticket, _ = ws_ticket_issue(player=guest)
    time.sleep(1.2)

    assert ws_ticket_redeem(ticket=ticket) is None


@pytest.fixture
def player(transactional_db):
    return PlayerFactory.create()


@pytest.fixture
def token(player, issue_token: Callable[[Player], str]) -> str:
    return issue_token(player)


async def test_connect_with_a_ticket(player) -> None:
    ticket, _ = ws_ticket_issue(player=player)

    assert await _connect(f"?ticket={ticket}") == f'{{"player": "{player.pk}"}}'


async def test_a_ticket_works_exactly_once(player) -> None:
    ticket, _ = ws_ticket_issue(player=player)

    assert await _connect(f"?ticket={ticket}") != CLOSE_UNAUTHENTICATED
    assert await _connect(f"?ticket={ticket}") == CLOSE_UNAUTHENTICATED


async def test_an_expired_ticket_is_refused(player) -> None:
    with override_settings(ACCOUNTS_WS_TICKET_SECONDS=1):
        ticket, _ = ws_ticket_issue(player=player)
    time.sleep(1.2)

    assert await _connect(f"?ticket={ticket}") == CLOSE_UNAUTHENTICATED


@pytest.mark.parametrize("query", ["", "?ticket=", "?ticket=made-up", "?other=1"])
async def test_no_or_a_bad_ticket_is_refused(player, query: str) -> None:
    assert await _connect(query) == CLOSE_UNAUTHENTICATED


async def test_connect_with_a_bearer_header(player, token) -> None:
    assert await _connect(headers=_bearer(token)) == f'{{"player": "{player.pk}"}}'


@pytest.mark.parametrize(
    "header", [b"Bearer made-up", b"Bearer", b"Basic dXNlcjpwYXNz", b"Bearer a b"]
)
async def test_a_bad_header_is_refused(player, header: bytes) -> None:
    assert await _connect(headers=[(b"authorization", header)]) == CLOSE_UNAUTHENTICATED


async def test_a_token_in_the_url_is_not_accepted(player, token) -> None:
    assert await _connect(f"?ticket={token}") == CLOSE_UNAUTHENTICATED
    assert await _connect(f"?token={token}") == CLOSE_UNAUTHENTICATED


async def test_a_banned_player_is_refused_with_4403(player, token) -> None:
    ticket, _ = ws_ticket_issue(player=player)  # issued before the ban
    await database_sync_to_async(player_ban)(player=player, reason="Cheating.")

    assert await _connect(f"?ticket={ticket}") == CLOSE_BANNED
    assert await _connect(headers=_bearer(token)) == CLOSE_BANNED


@pytest.mark.parametrize(("banned", "code"), [(False, CLOSE_UNAUTHENTICATED), (True, CLOSE_BANNED)])
async def test_the_project_stack_authenticates_websockets(player, banned: bool, code: int) -> None:
    """config.asgi wraps every websocket route in the middleware (here `ws/v1/me/`)."""
    from config.asgi import application as project

    ticket = "made-up"
    if banned:
        ticket, _ = ws_ticket_issue(player=player)
        await database_sync_to_async(player_ban)(player=player, reason="Cheating.")
    communicator = WebsocketCommunicator(
        project, f"/ws/v1/me/?ticket={ticket}", headers=[(b"origin", b"http://localhost")]
    )

    # In memory: tearing down a Redis channel layer's pending receive can take seconds.
    with override_settings(CHANNEL_LAYERS=IN_MEMORY_LAYER):
        connected, _ = await communicator.connect()
        closed = await communicator.receive_output(timeout=5)
        await communicator.disconnect()

    assert connected
    assert closed == {"type": "websocket.close", "code": code}


async def test_a_ticket_issued_before_logout_is_refused_after_it(player, client_for) -> None:
    """A ticket lives no longer than the token it was issued with."""
    client = await database_sync_to_async(client_for)(player)
    used, kept = [
        (await database_sync_to_async(client.post)(TICKET)).json()["ticket"] for _ in range(2)
    ]
    assert await _connect(f"?ticket={used}") == f'{{"player": "{player.pk}"}}'

    assert (await database_sync_to_async(client.post)("/api/v1/auth/logout/")).status_code == 204

    assert await _connect(f"?ticket={kept}") == CLOSE_UNAUTHENTICATED
