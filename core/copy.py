"""Writing rows as tuples of column values: with PostgreSQL's COPY for many (a rating rebuild
writes hundreds of thousands, and COPY is many times faster than INSERT for that), with one
INSERT for a few (COPY takes more round trips: a rated game's history rows)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

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


def insert_rows(
    model: type[Model], columns: Sequence[str], rows: Sequence[Sequence[object]]
) -> None:
    """Insert a few `rows` into `model`'s table, in one statement."""
    if not rows:
        return
    quote = connection.ops.quote_name
    values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(rows))
    statement = (
        f"INSERT INTO {quote(model._meta.db_table)} "  # noqa: S608 (names, not values)
        f"({', '.join(map(quote, columns))}) VALUES {values}"
    )
    with connection.cursor() as cursor:
        params: list[Any] = [value for row in rows for value in row]
        cursor.execute(statement, params)
