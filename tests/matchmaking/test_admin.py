"""Staff watch the live queue and cancel tickets."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from matchmaking.models import Ticket, TicketStatus
from tests.factories import PlayerFactory
from tests.matchmaking.conftest import queue

QUEUE = "/admin/matchmaking/ticket/"

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client() -> Client:
    staff = PlayerFactory.create(registered=True, is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def waiting() -> Ticket:
    ticket = queue(PlayerFactory.create(display_name="Patient Heron"), [3, 4])
    Ticket.objects.filter(pk=ticket.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    return ticket


@pytest.fixture
def ended() -> Ticket:
    ticket = queue(PlayerFactory.create(display_name="Gone Fox"), [2])
    Ticket.objects.filter(pk=ticket.pk).update(status=TicketStatus.CANCELLED)
    return ticket


def test_the_queue_shows_who_waits_for_what_and_how_long(admin_client, waiting, ended):
    response = admin_client.get(QUEUE)

    assert response.status_code == 200
    text = response.text
    assert "Patient Heron" in text
    assert "Gone Fox" in text
    assert re.search(r"\b0:02:0\d\b", text)  # the wait, to the second


def test_filter_by_status(admin_client, waiting, ended):
    text = admin_client.get(QUEUE, {"status__exact": "searching"}).text

    assert "Patient Heron" in text
    assert "Gone Fox" not in text


def test_cancel_from_the_queue(
    admin_client, waiting, ended, django_capture_on_commit_callbacks, sent
):
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            QUEUE,
            {"action": "cancel_tickets", "_selected_action": [str(waiting.pk), str(ended.pk)]},
            follow=True,
        )

    assert response.status_code == 200
    assert "Cancelled 1 ticket(s)." in response.text
    waiting.refresh_from_db()
    assert waiting.status == TicketStatus.CANCELLED
    assert [message["message"]["ticket"]["id"] for _, message in sent] == [str(waiting.pk)]


def test_staff_cannot_add_or_delete_tickets(admin_client, waiting):
    assert admin_client.get(f"{QUEUE}add/").status_code == 403
    assert admin_client.get(f"{QUEUE}{waiting.pk}/delete/").status_code == 403
    page = admin_client.get(f"{QUEUE}{waiting.pk}/change/")
    assert page.status_code == 200
    assert "Patient Heron" in page.text


def test_players_cannot_see_the_queue(waiting):
    client = Client()
    client.force_login(Player.objects.get(pk=waiting.player_id))

    assert client.get(QUEUE).status_code == 302  # to the admin's login page
