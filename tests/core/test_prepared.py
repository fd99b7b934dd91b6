"""Prepared statements (`DB_PREPARE_THRESHOLD`, core/prepared.py): on direct to PostgreSQL,
off behind PgBouncer unless the operator says it tracks them, and what a wrong value is told.
The last test runs against the suite's own database, direct (`make test`) or behind PgBouncer
(`make test-pgbouncer`). (tests/games/test_play_api.py plays a full game on them.)"""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from core.prepared import DEFAULT, prepare_threshold


@pytest.mark.parametrize(
    ("value", "pooler", "binding", "threshold"),
    [
        ("", "", True, DEFAULT),  # direct: on
        ("", "pgbouncer", True, None),  # behind PgBouncer: off unless told
        ("5", "pgbouncer", True, 5),  # told: a PgBouncer with max_prepared_statements
        (" 2 ", "", True, 2),
        ("off", "", True, None),
        ("OFF", "pgbouncer", True, None),
        ("", "", False, None),  # client-side binding never prepares
        ("off", "", False, None),
    ],
)
def test_the_threshold_follows_the_pooler_unless_given(value, pooler, binding, threshold) -> None:
    assert prepare_threshold(value, pooler=pooler, server_side_binding=binding) == threshold


@pytest.mark.parametrize(
    ("value", "binding", "message"),
    [
        ("0", True, "1 or more"),
        ("-1", True, "1 or more"),
        ("none", True, "a number of runs"),
        ("5.5", True, "a number of runs"),
        ("5", False, "DB_SERVER_SIDE_BINDING"),
    ],
)
def test_a_wrong_threshold_refuses_to_start(value, binding, message) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        prepare_threshold(value, pooler="", server_side_binding=binding)


@pytest.mark.django_db
def test_a_statement_run_often_is_prepared_on_its_connection_only_where_it_can_be() -> None:
    """Direct: the statement is prepared after `threshold` runs. Behind PgBouncer (where the
    suite leaves DB_PREPARE_THRESHOLD unset): psycopg never prepares, and nothing is."""
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    if "DB_PREPARE_THRESHOLD" not in os.environ:  # the suite's own runs
        assert threshold == (None if settings.DATABASE_POOLER else DEFAULT)
    query = "SELECT count(*) FROM accounts_player WHERE display_name <> %s"
    with connection.cursor() as cursor:
        assert cursor.connection.prepare_threshold == threshold
        for _ in range(DEFAULT + 2):
            cursor.execute(query, ["-"])
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        statements = [row[0] for row in cursor.fetchall()]
    prepared = [
        text for text in statements if "FROM accounts_player WHERE display_name <> $1" in text
    ]
    assert len(prepared) == (0 if threshold is None else 1), statements
