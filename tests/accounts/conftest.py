"""Every API response in these tests is recorded, and after each test scanned for secrets: no
password hash, no token or ticket other than the one it just issued, and no token's SHA-256."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.http import HttpResponse
from rest_framework.test import APIClient

from accounts.models import Player
from accounts.services import auth_token_issue
from tests.factories import PlayerFactory

PASSWORD_HASH = re.compile(r"(argon2|pbkdf2_sha256|pbkdf2_sha1|bcrypt|scrypt|md5)\$")


class RecordingAPIClient(APIClient):
    def __init__(self, log: list[HttpResponse], **defaults: Any) -> None:
        super().__init__(**defaults)
        self.log = log

    def request(self, **kwargs: Any) -> Any:
        response = super().request(**kwargs)
        self.log.append(response)
        return response


@pytest.fixture
def response_log() -> list[HttpResponse]:
    return []


@pytest.fixture
def issued_secrets() -> set[str]:
    """Tokens and tickets the test made without going through a recorded response."""
    return set()


@pytest.fixture
def api_client(clear_throttles: None, response_log: list[HttpResponse]) -> APIClient:
    return RecordingAPIClient(response_log)


@pytest.fixture
def issue_token(issued_secrets: set[str]) -> Callable[[Player], str]:
    def issue(player: Player) -> str:
        token = auth_token_issue(player=player)
        issued_secrets.add(token)
        return token

    return issue


@pytest.fixture
def client_for(
    clear_throttles: None,
    response_log: list[HttpResponse],
    issue_token: Callable[[Player], str],
) -> Callable[[Player], APIClient]:
    def make(player: Player) -> APIClient:
        client = RecordingAPIClient(response_log)
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {issue_token(player)}")
        return client

    return make


@pytest.fixture
def guest(db: None) -> Player:
    return PlayerFactory.create()


@pytest.fixture
def guest_client(client_for: Callable[[Player], APIClient], guest: Player) -> APIClient:
    return client_for(guest)


def _own_secrets(body: Any) -> set[str]:
    if not isinstance(body, dict):
        return set()
    own = {value for key in ("token", "ticket") if isinstance(value := body.get(key), str)}
    nested = body.get("token")  # a bot's upgrade: {"player", "token": {"token", ...}}
    if isinstance(nested, dict) and isinstance(nested.get("token"), str):
        own.add(nested["token"])
    return own


@pytest.fixture(autouse=True)
def _responses_leak_no_secrets(
    response_log: list[HttpResponse], issued_secrets: set[str]
) -> Iterator[None]:
    yield
    bodies = []
    for response in response_log:
        text = response.content.decode()
        try:
            parsed = json.loads(text) if text else None
        except ValueError:
            parsed = None
        bodies.append((text, _own_secrets(parsed)))
    secrets = set(issued_secrets).union(*(own for _, own in bodies))
    for text, own in bodies:
        assert not PASSWORD_HASH.search(text), text
        for secret in secrets:
            assert hashlib.sha256(secret.encode()).hexdigest() not in text, text
            if secret not in own:
                assert secret not in text, text
