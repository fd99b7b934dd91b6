"""Writing many rows at once with PostgreSQL's COPY: a rating rebuild, a season's reset and its
frozen standings write hundreds of thousands of rows, and COPY is many times faster than
INSERT (bulk_create) for that."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection
from django.db.models import Model
from psycopg import sql


def copy_rows(model: type[Model], columns: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """Insert `rows` (each the values of `columns`, in order) into `model`'s table."""
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(model._meta.db_table), sql.SQL(", ").join(map(sql.Identifier, columns))
    )
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
