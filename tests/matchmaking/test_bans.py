"""A ban cancels the player's search (accounts.signals.player_banned)."""

from __future__ import annotations

import pytest

from accounts.services import player_ban
from core.sockets import player_group
from matchmaking.models import Ticket, TicketStatus
from tests.factories import PlayerFactory
from tests.matchmaking.conftest import queue

pytestmark = pytest.mark.django_db


def test_a_ban_cancels_the_players_ticket(django_capture_on_commit_callbacks, sent):
    player, other = PlayerFactory.create(), PlayerFactory.create()
    ticket, others = queue(player), queue(other)
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        player_ban(player=player, reason="Collusion.")

    ticket.refresh_from_db()
    assert ticket.status == TicketStatus.CANCELLED
    assert ticket.ended_at is not None
    assert Ticket.objects.get(pk=others.pk).status == TicketStatus.SEARCHING
    assert [(group, message["message"]["ticket"]["status"]) for group, message in sent] == [
        (player_group(player.pk), "cancelled")
    ]


def test_the_ticket_stays_until_the_ban_commits(django_capture_on_commit_callbacks):
    player = PlayerFactory.create()
    ticket = queue(player)

    with django_capture_on_commit_callbacks(execute=False):
        player_ban(player=player, reason="Collusion.")

    assert Ticket.objects.get(pk=ticket.pk).status == TicketStatus.SEARCHING


def test_a_ban_leaves_ended_tickets_alone(django_capture_on_commit_callbacks, sent):
    player = PlayerFactory.create()
    ticket = queue(player)
    Ticket.objects.filter(pk=ticket.pk).update(status=TicketStatus.EXPIRED)
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        player_ban(player=player, reason="Collusion.")

    assert Ticket.objects.get(pk=ticket.pk).status == TicketStatus.EXPIRED
    assert sent == []
