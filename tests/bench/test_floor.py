"""bench.floor's database and Redis parts: each measures the CPU of its callers and leaves
nothing behind (its tables dropped, its key deleted)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from bench import floor
from core.redis import get_redis

pytestmark = pytest.mark.django_db


def _database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def test_the_query_and_the_transaction_are_measured_on_tables_dropped_after() -> None:
    parts = {name: floor.Part(name, "") for name in ("query", "transaction")}

    floor.sql_parts(parts, 50, _database_url())

    for part in parts.values():
        assert part.cpu["python"] > 0
        assert part.cpu["postgres"] > 0  # the backend's own, read from /proc
    assert parts["transaction"].total > parts["query"].total
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'bench_floor%%'")
        assert cursor.fetchone() == (0,)


def test_a_round_keeps_the_cheaper_figures() -> None:
    part = floor.Part("query", "")

    part.keep({"python": 3e-5, "postgres": 2e-5})
    part.keep({"python": 5e-5, "postgres": 1e-5})
    part.keep({"python": 2e-5, "postgres": 2e-5})

    assert part.cpu == {"python": 2e-5, "postgres": 2e-5}


def test_the_limit_script_is_measured_and_its_key_deleted() -> None:
    parts = {"redis script": floor.Part("redis script", "")}

    floor.redis_part(parts, 50, settings.REDIS_URL)

    assert parts["redis script"].cpu["python"] > 0
    assert get_redis().exists("bench-floor:limit") == 0
