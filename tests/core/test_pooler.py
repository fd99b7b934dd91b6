"""What transaction pooling (PgBouncer, `make test-pgbouncer`) takes from a session: a cursor
that outlives its transaction. Direct to PostgreSQL these pass as well; behind PgBouncer
without `DATABASE_POOLER=pgbouncer` the first fails ("cursor ... does not exist")."""

from __future__ import annotations

import pytest

from accounts.models import Player
from tests.factories import PlayerFactory
from tests.transactions import held_elsewhere


@pytest.mark.django_db(transaction=True)
def test_an_iterator_outside_a_transaction_reads_every_row_while_another_holds_a_connection():
    """The iterator's first chunk, then another client takes a transaction (behind PgBouncer:
    the server connection the iterator's cursor was declared on, the one last used), then the
    iterator reads on: every row, once."""
    made = {player.pk for player in PlayerFactory.create_batch(6)}
    rows = Player.objects.filter(pk__in=made).values_list("pk", flat=True).iterator(chunk_size=2)
    read = [next(rows)]
    with held_elsewhere(lambda: Player.objects.filter(pk__in=made).count()):
        read += list(rows)
    assert sorted(read) == sorted(made)
