"""GET and PATCH /me (players/apis.py): the caller's `player`, their table and their ticket."""

from __future__ import annotations

import pytest

from accounts.models import Player, SeedPair
from games.models import Game, Seat
from matchmaking.models import Ticket
from matchmaking.selectors import ticket_data
from ratings.payloads import player_rating

ME = "/api/v1/me/"

pytestmark = pytest.mark.django_db


def test_me_is_the_player_plus_what_it_is_doing(guest_client, guest) -> None:
    response = guest_client.get(ME)
    pair = SeedPair.objects.get(player=guest)

    assert response.status_code == 200
    assert response.json() == {
        "id": str(guest.pk),
        "display_name": guest.display_name,
        "is_guest": True,
        "is_cpu": False,
        "is_bot": False,
        "rating": player_rating(guest),
        "placement_games_left": 10,
        "active_game": None,
        "ticket": None,
        "queue_ban_until": None,
        "appear_offline": False,
        "chat": "all",
        "challenges_from": "friends",
        "bot_description": "",
        "language": "en",
        "fairness": {"commitment": pair.commitment, "client_seed": pair.client_seed},
    }


def test_me_shows_the_callers_table_and_ticket(guest_client, guest) -> None:
    """The waiting or active table comes from games, the searching ticket from matchmaking."""
    table = Game.objects.create(rules={}, max_players=2, host=guest)
    Seat.objects.create(game=table, seat=0, player=guest)
    Ticket.objects.create(player=guest, player_counts=[2], status="cancelled")
    searching = Ticket.objects.create(player=guest, player_counts=[2, 3])
    game_id, ticket = str(table.pk), dict(ticket_data(searching))

    body = guest_client.get(ME).json()

    assert (body["active_game"], body["ticket"]) == (game_id, ticket)


def test_me_shows_no_table_once_the_seat_is_given_up(guest_client, guest) -> None:
    Seat.objects.create(
        game=Game.objects.create(rules={}, max_players=2), seat=0, player=guest, live=False
    )
    Ticket.objects.create(player=guest, player_counts=[2], status="matched")

    body = guest_client.get(ME).json()

    assert (body["active_game"], body["ticket"]) == (None, None)


def test_rename(guest_client, guest) -> None:
    response = guest_client.patch(ME, {"display_name": "  Noa  "}, format="json")

    assert response.status_code == 200
    assert response.json() == {
        "id": str(guest.pk),
        "display_name": "Noa",
        "is_bot": False,
        "is_guest": True,
        "is_cpu": False,
        "rating": player_rating(guest),
        "placement_games_left": 10,
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
