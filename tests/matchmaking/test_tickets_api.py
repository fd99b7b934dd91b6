"""The ticket endpoints: every answer and every error of docs/api.md, Ranked matchmaking."""

from __future__ import annotations

import uuid

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from core.errors import ApplicationError
from core.sockets import player_group
from games.services.lobby import game_create
from matchmaking import services
from matchmaking.models import Ticket, TicketStatus
from tests.factories import PlayerFactory
from tests.matchmaking.conftest import TICKETS, queue

pytestmark = pytest.mark.django_db

ME = "/api/v1/me/"


@pytest.fixture
def player():
    return PlayerFactory.create()


@pytest.fixture
def client(client_for, player):
    return client_for(player)


def test_queue(client, player, django_capture_on_commit_callbacks, sent, passes_requested):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(TICKETS, {"player_counts": [4, 2]})

    assert response.status_code == 201
    body = response.json()
    ticket = Ticket.objects.get(player=player)
    assert body == {
        "id": str(ticket.pk),
        "status": "searching",
        "player_counts": [2, 4],
        "created_at": ticket.created_at.isoformat(),
        "game_id": None,
        "cpu_seats": 0,
        "pool": "ranked",
    }
    created_at = parse_datetime(body["created_at"])
    assert created_at is not None
    assert abs((timezone.now() - created_at).total_seconds()) < 5
    assert sent == [
        (
            player_group(player.pk),
            {"type": "me.message", "message": {"type": "ticket", "ticket": body}},
        )
    ]
    assert passes_requested == [None]


def test_nothing_leaves_before_the_commit(
    player, django_capture_on_commit_callbacks, sent, passes_requested
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        queue(player)

    assert (sent, passes_requested) == ([], [])
    assert len(callbacks) == 2


def test_at_most_one_pass_request_a_second(django_capture_on_commit_callbacks, passes_requested):
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            queue(PlayerFactory.create())

    assert passes_requested == [None]


def test_one_search_at_a_time(client):
    assert client.post(TICKETS, {"player_counts": [2]}).status_code == 201

    response = client.post(TICKETS, {"player_counts": [3]})

    assert response.status_code == 409
    assert response.json()["code"] == "already_queued"
    assert Ticket.objects.count() == 1


def test_queue_again_after_cancelling(client):
    first = client.post(TICKETS, {"player_counts": [2]}).json()
    assert client.delete(f"{TICKETS}{first['id']}/").status_code == 204

    second = client.post(TICKETS, {"player_counts": [2]})

    assert second.status_code == 201
    assert second.json()["id"] != first["id"]


def test_a_player_at_a_table_cannot_queue(client, player):
    game_create(host=player, max_players=2, rules={})

    response = client.post(TICKETS, {"player_counts": [2]})

    assert response.status_code == 409
    assert response.json()["code"] == "in_game"
    assert not Ticket.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"player_counts": []},
        {"player_counts": [1]},
        {"player_counts": [6]},
        {"player_counts": [2, 2]},
        {"player_counts": [2, 3, 4, 5, 5]},
        {"player_counts": ["x"]},
        {"player_counts": [2.5]},
        {"player_counts": 2},
        {"player_counts": None},
        {"player_counts": [[2]]},
    ],
)
def test_bad_player_counts(client, body):
    response = client.post(TICKETS, body)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    errors = response.json()["errors"]
    assert errors
    assert all(field.startswith("player_counts") for field in errors)
    assert not Ticket.objects.exists()


def test_a_body_that_is_not_json(client):
    response = client.post(TICKETS, "{", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_queueing_needs_a_token(api_client):
    response = api_client.post(TICKETS, {"player_counts": [2]})

    assert response.status_code == 401
    assert "code" in response.json()


def test_banned_players_cannot_queue(client_for):
    banned = PlayerFactory.create(banned=True)

    response = client_for(banned).post(TICKETS, {"player_counts": [2]})

    assert response.status_code == 403
    assert response.json()["code"] == "banned"
    assert not Ticket.objects.exists()


def test_the_service_refuses_a_banned_player_too():
    """The API's authentication refuses banned players first; the service checks again under
    the player's lock, for a ban that lands while the request runs."""
    banned = PlayerFactory.create(banned=True)

    with pytest.raises(ApplicationError) as refused:
        queue(banned)

    assert (refused.value.code, refused.value.status) == ("banned", 403)


def test_read_a_ticket(client):
    ticket = client.post(TICKETS, {"player_counts": [5, 3]}).json()

    response = client.get(f"{TICKETS}{ticket['id']}/")

    assert response.status_code == 200
    assert response.json() == ticket


def test_another_players_ticket_is_not_found(client, client_for):
    theirs = queue(PlayerFactory.create())

    for response in (client.get(f"{TICKETS}{theirs.pk}/"), client.delete(f"{TICKETS}{theirs.pk}/")):
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
    theirs.refresh_from_db()
    assert theirs.status == TicketStatus.SEARCHING


def test_an_unknown_ticket_is_not_found(client):
    for path in (f"{TICKETS}{uuid.uuid4()}/", f"{TICKETS}not-a-uuid/"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_reading_needs_a_token(api_client, player):
    ticket = queue(player)

    assert api_client.get(f"{TICKETS}{ticket.pk}/").status_code == 401
    assert api_client.delete(f"{TICKETS}{ticket.pk}/").status_code == 401


def test_cancel(client, player, django_capture_on_commit_callbacks, sent):
    ticket = queue(player)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.delete(f"{TICKETS}{ticket.pk}/")

    assert response.status_code == 204
    assert response.content == b""
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.CANCELLED
    assert ticket.ended_at is not None
    assert client.get(f"{TICKETS}{ticket.pk}/").json()["status"] == "cancelled"
    assert [message["message"]["ticket"]["status"] for _, message in sent] == ["cancelled"]


@pytest.mark.parametrize("status", [TicketStatus.CANCELLED, TicketStatus.EXPIRED])
def test_cancelling_an_ended_ticket_changes_nothing(client, player, status, sent):
    ticket = queue(player)
    Ticket.objects.filter(pk=ticket.pk).update(status=status)

    response = client.delete(f"{TICKETS}{ticket.pk}/")

    assert response.status_code == 204
    ticket.refresh_from_db()
    assert ticket.status == status
    assert sent == []


def test_a_matched_ticket_cannot_be_cancelled(client, player):
    ticket = queue(player, [2])
    queue(PlayerFactory.create(), [2])
    result = services.matchmaking_pass()
    assert result is not None
    assert len(result.games) == 1

    response = client.delete(f"{TICKETS}{ticket.pk}/")

    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "already_matched"
    assert body["ticket"]["status"] == "matched"
    assert body["ticket"]["game_id"] == str(result.games[0])
    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.MATCHED


def test_me_shows_the_searching_ticket(client, player):
    assert client.get(ME).json()["ticket"] is None
    ticket = client.post(TICKETS, {"player_counts": [2]}).json()

    assert client.get(ME).json()["ticket"] == ticket

    client.delete(f"{TICKETS}{ticket['id']}/")
    assert client.get(ME).json()["ticket"] is None


def test_the_database_keeps_one_search_per_player(player):
    queue(player)

    with pytest.raises(IntegrityError), transaction.atomic():
        Ticket.objects.create(player=player, player_counts=[2])
    # Ended tickets do not count.
    Ticket.objects.create(player=player, player_counts=[2], status=TicketStatus.CANCELLED)


@pytest.mark.parametrize("counts", [[], [1, 2], [6]])
def test_the_database_refuses_impossible_table_sizes(player, counts):
    with pytest.raises(IntegrityError), transaction.atomic():
        Ticket.objects.create(player=player, player_counts=counts)
