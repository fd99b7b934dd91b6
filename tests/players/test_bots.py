"""Bot accounts (docs/bots.md): the upgrade, bot tokens, and what a bot may not do."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import IntegrityError
from rest_framework.test import APIClient

from accounts.models import AuthToken, BotToken, Player
from accounts.services import BOT_TOKENS_MAX, ws_ticket_redeem
from games.models import Seat
from tests.factories import PASSWORD, PlayerFactory

pytestmark = pytest.mark.django_db

UPGRADE = "/api/v1/bot/upgrade/"
TOKENS = "/api/v1/bot/tokens/"
ME = "/api/v1/me/"


def _bearer(client: APIClient, token: str) -> APIClient:
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def owner(db: None) -> Player:
    return PlayerFactory.create(registered=True, display_name="Deep Yaniv")


def _upgrade(client_for: Callable[[Player], APIClient], player: Player, **body: str) -> str:
    response = client_for(player).post(UPGRADE, body, format="json")
    assert response.status_code == 200, response.json()
    return str(response.json()["token"]["token"])


def test_an_account_becomes_a_bot_with_its_first_token(
    client_for, api_client, owner: Player
) -> None:
    login_client = client_for(owner)
    response = login_client.post(UPGRADE, {"description": "Plays fast."}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert body["player"]["id"] == str(owner.pk)
    assert body["player"]["is_bot"] is True
    assert body["player"]["bot_description"] == "Plays fast."
    assert body["player"]["challenges_from"] == "everyone"
    assert set(body["token"]) == {"id", "name", "token", "created_at"}
    assert body["token"]["name"] == "default"
    assert body["token"]["token"].startswith(BotToken.PREFIX)
    # The login token that asked is gone: from now on the bot signs in with bot tokens only.
    assert not AuthToken.objects.filter(player=owner).exists()
    assert login_client.get(ME).status_code == 401
    me = _bearer(api_client, body["token"]["token"]).get(ME)
    assert me.status_code == 200
    assert me.json()["is_bot"] is True
    # Only the hash is stored.
    stored = BotToken.objects.get(player=owner)
    assert stored.key_hash == BotToken.hash(body["token"]["token"])
    assert body["token"]["token"] not in stored.key_hash


def test_the_profile_shows_the_badge_and_the_description(client_for, client, owner) -> None:
    token = _upgrade(client_for, owner, description="A careful bot.")
    profile = client.get(f"/api/v1/players/{owner.pk}/").json()
    assert profile["is_bot"] is True
    assert profile["bot_description"] == "A careful bot."

    bot = _bearer(APIClient(), token)
    assert bot.patch(ME, {"bot_description": "Bolder now."}, format="json").status_code == 200
    assert client.get(f"/api/v1/players/{owner.pk}/").json()["bot_description"] == "Bolder now."


def test_a_human_has_no_description(client_for, client, owner) -> None:
    response = client_for(owner).patch(ME, {"bot_description": "I am a bot"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "not_bot"
    assert client.get(f"/api/v1/players/{owner.pk}/").json()["bot_description"] is None


def test_guests_may_not_become_bots(client_for) -> None:
    guest = PlayerFactory.create()
    response = client_for(guest).post(UPGRADE)
    assert response.status_code == 403
    assert response.json()["code"] == "guest"
    guest.refresh_from_db()
    assert not guest.is_bot


def test_an_account_that_finished_a_game_may_not(client_for, owner, make_game) -> None:
    make_game([(owner, 1), (None, 2)])
    response = client_for(owner).post(UPGRADE)
    assert response.status_code == 409
    assert response.json()["code"] == "not_eligible"
    owner.refresh_from_db()
    assert not owner.is_bot


def test_an_account_at_a_table_may_not(client_for, owner, make_game) -> None:
    game = make_game([(owner, None), (None, None)], status="active", finished_at=None)
    Seat.objects.filter(game=game).update(live=True)
    response = client_for(owner).post(UPGRADE)
    assert response.status_code == 409
    assert response.json()["code"] == "not_eligible"


def test_staff_may_not_and_a_bot_is_a_bot_once(client_for, owner) -> None:
    staff = PlayerFactory.create(registered=True, is_staff=True)
    response = client_for(staff).post(UPGRADE)
    assert (response.status_code, response.json()["code"]) == (409, "not_eligible")

    token = _upgrade(client_for, owner)
    again = _bearer(APIClient(), token).post(UPGRADE)
    assert (again.status_code, again.json()["code"]) == (409, "not_eligible")


def test_a_bot_cannot_log_in_with_its_password(api_client, client_for, owner) -> None:
    _upgrade(client_for, owner)
    response = api_client.post(
        "/api/v1/auth/login/", {"username": owner.username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "bot"
    assert not AuthToken.objects.filter(player=owner).exists()


def test_a_wrong_password_says_nothing_of_a_bot(api_client, client_for, owner) -> None:
    _upgrade(client_for, owner)
    response = api_client.post(
        "/api/v1/auth/login/", {"username": owner.username, "password": "wrong"}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "invalid_credentials")


def test_nor_in_the_admin(client, client_for, owner) -> None:
    _upgrade(client_for, owner)
    response = client.post(
        "/admin/login/?next=/admin/", {"username": owner.username, "password": PASSWORD}
    )
    assert response.status_code == 200  # the form again, with its error
    assert client.get("/admin/").status_code == 302
    # Nor can staff make a bot staff: the database refuses it.
    with pytest.raises(IntegrityError):
        Player.objects.filter(pk=owner.pk).update(is_staff=True)


def test_tokens_are_made_listed_without_secrets_and_revoked(client_for, owner) -> None:
    bot = _bearer(APIClient(), _upgrade(client_for, owner))
    made = bot.post(TOKENS, {"name": "laptop"}, format="json")
    assert made.status_code == 201
    second = made.json()
    assert second["name"] == "laptop"
    assert second["token"].startswith(BotToken.PREFIX)

    listed = bot.get(TOKENS).json()
    assert [row["name"] for row in listed["results"]] == ["default", "laptop"]
    assert all(
        set(row) == {"id", "name", "created_at", "last_used_at"} for row in listed["results"]
    )
    assert second["token"] not in str(listed)
    assert listed["results"][0]["last_used_at"] is not None  # the one this client uses

    laptop = _bearer(APIClient(), second["token"])
    assert laptop.get(ME).status_code == 200
    assert bot.delete(f"{TOKENS}{second['id']}/").status_code == 204
    refused = laptop.get(ME)
    assert (refused.status_code, refused.json()["code"]) == (401, "invalid_token")


def test_the_last_token_stays(client_for, owner) -> None:
    bot = _bearer(APIClient(), _upgrade(client_for, owner))
    only = bot.get(TOKENS).json()["results"][0]
    response = bot.delete(f"{TOKENS}{only['id']}/")
    assert (response.status_code, response.json()["code"]) == (409, "last_token")
    assert bot.get(ME).status_code == 200
    # A logout with a bot token revokes it, by the same rule.
    assert bot.post("/api/v1/auth/logout/").status_code == 409


def test_a_bot_revokes_only_its_own_tokens(client_for, owner) -> None:
    bot = _bearer(APIClient(), _upgrade(client_for, owner))
    other = PlayerFactory.create(registered=True)
    theirs = _bearer(APIClient(), _upgrade(client_for, other))
    theirs.post(TOKENS, {"name": "spare"}, format="json")
    their_token = BotToken.objects.filter(player=other).first()
    assert their_token is not None
    response = bot.delete(f"{TOKENS}{their_token.pk}/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert BotToken.objects.filter(player=other).count() == 2


def test_at_most_so_many_tokens(client_for, owner) -> None:
    bot = _bearer(APIClient(), _upgrade(client_for, owner))
    for number in range(BOT_TOKENS_MAX - 1):
        assert bot.post(TOKENS, {"name": f"t{number}"}, format="json").status_code == 201
    response = bot.post(TOKENS, {"name": "one too many"}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "too_many_tokens")


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "x" * 65}])
def test_a_token_needs_a_name(client_for, owner, body) -> None:
    bot = _bearer(APIClient(), _upgrade(client_for, owner))
    response = bot.post(TOKENS, body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_humans_have_no_bot_tokens(client_for, owner) -> None:
    human = client_for(owner)
    for response in (human.get(TOKENS), human.post(TOKENS, {"name": "x"}, format="json")):
        assert (response.status_code, response.json()["code"]) == (409, "not_bot")


def test_a_banned_bot_is_refused(client_for, owner) -> None:
    bot = _bearer(APIClient(), _upgrade(client_for, owner))
    Player.objects.filter(pk=owner.pk).update(banned_at="2026-01-01T00:00:00Z")
    response = bot.get(ME)
    assert (response.status_code, response.json()["code"]) == (403, "banned")


def test_a_socket_ticket_lives_no_longer_than_its_bot_token(client_for, owner) -> None:
    bot = _bearer(APIClient(), _upgrade(client_for, owner))
    spare = bot.post(TOKENS, {"name": "spare"}, format="json").json()
    spare_client = _bearer(APIClient(), spare["token"])
    kept = spare_client.post("/api/v1/auth/ws-ticket/").json()["ticket"]
    revoked = spare_client.post("/api/v1/auth/ws-ticket/").json()["ticket"]
    assert ws_ticket_redeem(ticket=kept) == owner
    bot.delete(f"{TOKENS}{spare['id']}/")
    assert ws_ticket_redeem(ticket=revoked) is None
