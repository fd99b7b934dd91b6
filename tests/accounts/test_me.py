from __future__ import annotations

import pytest

from accounts import selectors
from accounts.models import Player

ME = "/api/v1/me/"

pytestmark = pytest.mark.django_db


def test_me_is_the_player_plus_what_it_is_doing(guest_client, guest) -> None:
    response = guest_client.get(ME)

    assert response.status_code == 200
    assert response.json() == {
        "id": str(guest.pk),
        "display_name": guest.display_name,
        "is_guest": True,
        "rating": selectors.player_rating(guest),
        "active_game": None,
        "ticket": None,
    }


def test_me_shows_what_the_hooks_report(guest_client, guest, monkeypatch) -> None:
    """The games and matchmaking apps fill `me_extras`; the endpoint shows what it returns."""
    game_id = "0b5cfb9e-8a86-4a52-9d4e-8d7c1f0b6a11"
    ticket = {"id": "t1", "status": "searching"}
    monkeypatch.setattr(
        "accounts.apis.me_extras", lambda player: {"active_game": game_id, "ticket": ticket}
    )

    body = guest_client.get(ME).json()

    assert (body["active_game"], body["ticket"]) == (game_id, ticket)


def test_rename(guest_client, guest) -> None:
    response = guest_client.patch(ME, {"display_name": "  Noa  "}, format="json")

    assert response.status_code == 200
    assert response.json() == {
        "id": str(guest.pk),
        "display_name": "Noa",
        "is_guest": True,
        "rating": selectors.player_rating(guest),
    }
    assert Player.objects.get(pk=guest.pk).display_name == "Noa"


def test_empty_patch_changes_nothing(guest_client, guest) -> None:
    response = guest_client.patch(ME, {}, format="json")

    assert response.status_code == 200
    assert response.json()["display_name"] == guest.display_name


@pytest.mark.parametrize("name", ["", " ", "x" * 33, "tab\there", "\u2028", "\ue000", 5.5j])
def test_bad_rename_is_invalid(guest_client, guest, name: object) -> None:
    payload = {"display_name": name if isinstance(name, str) else [1]}

    response = guest_client.patch(ME, payload, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert Player.objects.get(pk=guest.pk).display_name == guest.display_name


def test_me_refuses_other_methods(guest_client) -> None:
    response = guest_client.put(ME, {"display_name": "Noa"}, format="json")

    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


def test_me_needs_a_token(api_client) -> None:
    assert api_client.get(ME).status_code == 401
    assert api_client.patch(ME, {"display_name": "Noa"}, format="json").status_code == 401
