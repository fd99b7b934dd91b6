"""matchmaking/locks.py: tickets are locked in pk order, and only the tickets' rows."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from matchmaking.locks import ticket_lock, tickets_lock
from matchmaking.models import Ticket
from tests.factories import PlayerFactory
from tests.matchmaking.conftest import queue

pytestmark = pytest.mark.django_db


def test_tickets_are_locked_in_pk_order_and_only_theirs() -> None:
    tickets = [queue(PlayerFactory.create(), [2]) for _ in range(3)]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = tickets_lock(
            Ticket.objects.filter(pk__in=[t.pk for t in tickets]).select_related("player"),
            skip_locked=True,
        )
    assert [ticket.pk for ticket in locked] == sorted(ticket.pk for ticket in tickets)
    [sql] = [query["sql"] for query in queries.captured_queries if "FOR UPDATE" in query["sql"]]
    assert 'ORDER BY "matchmaking_ticket"."id" ASC' in sql
    # The join reads the players; the player rows stay unlocked (accounts/locks.py locks them).
    assert sql.endswith('FOR UPDATE OF "matchmaking_ticket" SKIP LOCKED')


def test_a_ticket_is_locked_only_for_its_player() -> None:
    ticket = queue(PlayerFactory.create(), [2])
    with transaction.atomic():
        assert ticket_lock(player=ticket.player, ticket_id=ticket.pk) == ticket
        assert ticket_lock(player=PlayerFactory.create(), ticket_id=ticket.pk) is None
