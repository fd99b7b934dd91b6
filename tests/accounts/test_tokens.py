"""Bearer tokens: refused when missing, garbled, unknown, expired or revoked; slide with use."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import tasks
from accounts.models import AuthToken
from accounts.services import auth_tokens_purge_expired
from tests.factories import PlayerFactory

ME = "/api/v1/me/"
TTL = timedelta(days=30)

pytestmark = pytest.mark.django_db


def test_missing_token_is_401_not_authenticated(api_client) -> None:
    response = api_client.get(ME)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_another_scheme_counts_as_no_credentials(api_client) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")

    response = api_client.get(ME)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.parametrize(
    "header",
    ["Bearer", "Bearer a b", "Bearer unknown-token", "bearer unknown-token", "Bearer tökén"],
)
def test_bad_token_is_401_invalid_token(api_client, header: str) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=header.encode().decode("latin-1"))

    response = api_client.get(ME)

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


def test_expired_token_is_refused(api_client, issue_token, guest) -> None:
    token = issue_token(guest)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api_client.get(ME).status_code == 200

    AuthToken.objects.filter(player=guest).update(expires_at=timezone.now())

    response = api_client.get(ME)
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


def test_deactivated_player_is_refused(api_client, issue_token, guest) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {issue_token(guest)}")
    guest.is_active = False
    guest.save()

    assert api_client.get(ME).json()["code"] == "invalid_token"


def test_expiry_slides_forward_with_use(api_client, issue_token, guest) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {issue_token(guest)}")
    an_hour_ago = timezone.now() - timedelta(hours=1)
    AuthToken.objects.filter(player=guest).update(
        last_used_at=an_hour_ago, expires_at=timezone.now() + timedelta(minutes=5)
    )

    assert api_client.get(ME).status_code == 200

    token = AuthToken.objects.get(player=guest)
    assert token.last_used_at > an_hour_ago
    assert token.expires_at == pytest.approx(timezone.now() + TTL, abs=timedelta(seconds=30))


def test_expiry_is_written_at_most_once_a_minute(api_client, issue_token, guest) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {issue_token(guest)}")
    recently = timezone.now() - timedelta(seconds=30)
    soon = timezone.now() + timedelta(minutes=5)
    AuthToken.objects.filter(player=guest).update(last_used_at=recently, expires_at=soon)

    assert api_client.get(ME).status_code == 200

    token = AuthToken.objects.get(player=guest)
    assert (token.last_used_at, token.expires_at) == (recently, soon)


def test_purge_deletes_only_expired_tokens(issue_token) -> None:
    live, dead = PlayerFactory.create(), PlayerFactory.create()
    issue_token(live)
    issue_token(dead)
    AuthToken.objects.filter(player=dead).update(expires_at=timezone.now())

    assert tasks.auth_tokens_purge_expired() == 1

    assert list(AuthToken.objects.values_list("player", flat=True)) == [live.pk]
    assert auth_tokens_purge_expired() == 0
