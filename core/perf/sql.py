"""The few queries every request or move runs, in plain SQL written once.

Replaces: the ORM compiling these queries (QuerySet, `bulk_create`, `save(update_fields=...)`).
Why: Django compiles a query anew every time it runs it. For the game lock with its seats that
cost about 2.8 ms of CPU, for the bearer token 0.6 ms, for a move's event rows and game row 0.7
and 0.4 ms: several times what PostgreSQL spends on them (`python -m bench.api_moves`, its
table of CPU per move). Here the SQL is built once, with column lists from the models'
metadata; values go through the fields' own conversions both ways, as in the ORM. So a field
added to a model is read and written here too.

Relies on (Django's internals, tests/core/perf/test_sql.py): `_meta.concrete_fields` and
`auto_field` are what the ORM selects and inserts; a read value becomes the field's through the
backend's and the column's `get_db_converters` (what the SQL compiler applies) and
`Model.from_db` (a `JSONField`'s `from_db_value`, `json.loads`, is read by orjson here:
`_faster`); a written one through `pre_save` and `get_db_prep_save`, cast in a VALUES list
to the field's `cast_db_type` (as `bulk_update` casts); an instance that was saved has
`_state.adding` False and `_state.db` set.

`write` puts several writes in one statement, each a data-modifying CTE (an INSERT whose keys
come back, UPDATEs by key or from a VALUES list): a move's events and game row, and at a round's
end its seats, are one round trip, not two or three (games/locks.py). A statement costs some
0.09 ms of Python however little it carries (Django's cursor wrapper, psycopg's execute and
its result: a `SELECT %s` timed in-process), and PostgreSQL's own work per statement (a
protocol exchange, parsing, planning) besides.

The queries themselves are the game app's (games/locks.py, games/selectors.py) and the token
lookup's (accounts/selectors.py): only those modules build SQL with this.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from functools import cache, cached_property
from typing import Any, Generic, TypeVar

import orjson
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import JSONField, Model

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


class Columns(Generic[M]):
    """A model's columns in a query, under a table alias: `{columns.select}` in the SELECT
    list, `{columns.table}` in FROM or JOIN; `load` makes the instance from its part of a row.
    Fields named in `omit` are left out (a loaded instance reads them on first use)."""

    def __init__(self, model: type[M], alias: str, *, omit: Collection[str] = ()) -> None:
        self.model, self.alias = model, alias
        self.fields = [field for field in model._meta.concrete_fields if field.name not in omit]
        self.width = len(self.fields)
        self.table = f'"{model._meta.db_table}" {alias}'
        self.select = ", ".join(f'{alias}."{field.column}"' for field in self.fields)
        self._names = [field.attname for field in self.fields]
        self._pk = self.fields.index(model._meta.pk)

    @cached_property
    def _converters(self) -> list[tuple[int, list[Converter], Any]]:
        connection = connections[DEFAULT_DB_ALIAS]
        found = []
        for index, field in enumerate(self.fields):
            column = field.get_col(self.alias)
            converters = connection.ops.get_db_converters(column) + [
                _faster(field, convert) for convert in column.get_db_converters(connection)
            ]
            if converters:
                found.append((index, converters, column))
        return found

    def load(self, row: Sequence[Any], start: int) -> M | None:
        """The instance in `row[start:start + width]`; None for the empty side of an outer join."""
        values = list(row[start : start + self.width])
        if values[self._pk] is None:
            return None
        connection = connections[DEFAULT_DB_ALIAS]
        for index, converters, column in self._converters:
            for convert in converters:
                values[index] = convert(values[index], column, connection)
        return self.model.from_db(DEFAULT_DB_ALIAS, self._names, values)


def _faster(field: Any, own: Converter) -> Converter:
    """A column's converter; for a `JSONField` without a decoder of its own, its
    `from_db_value` reading with orjson (the state of every game read), the field's own for what
    orjson cannot read (an integer past 64 bits)."""
    if not isinstance(field, JSONField) or field.decoder is not None or own != field.from_db_value:
        return own

    def convert(value: Any, expression: Any, connection: Any) -> Any:
        if value is None:
            return None
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return own(value, expression, connection)

    convert.__wrapped__ = own  # type: ignore[attr-defined]
    return convert


def query(template: str, **parts: Columns[Any]) -> str:
    """`template` with its parts' names filled in (`{g.select}`, `{g.table}`); values are never
    put in the text, only passed to `fetch` as parameters."""
    return template.format(**parts)


def fetch(sql: str, params: Sequence[Any], *parts: Columns[Any]) -> list[list[Any]]:
    """Run `sql`; each row as the instances of `parts` (in SELECT order), then the columns after."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    loaded = []
    for row in rows:
        items: list[Any] = []
        start = 0
        for part in parts:
            items.append(part.load(row, start))
            start += part.width
        items.extend(row[start:])
        loaded.append(items)
    return loaded


def insert(objs: Sequence[Model]) -> None:
    """INSERT new instances of one model with an automatic key, in one statement, and set
    their keys (what `bulk_create` does)."""
    write(insert=objs)


def update(obj: Model, names: Sequence[str]) -> None:
    """UPDATE `obj`'s row with the current values of these fields (`save(update_fields=...)`,
    without signals)."""
    write(updates=[([obj], names)])


def write(
    *, insert: Sequence[Model] = (), updates: Sequence[tuple[Sequence[Model], Sequence[str]]] = ()
) -> None:
    """In one statement: INSERT `insert` (new instances of one model with an automatic key,
    whose keys are set) and, for each of `updates`, UPDATE these instances' rows (of one model)
    with the current values of the named fields. Each write is a data-modifying CTE of the
    statement: none sees another's rows, so they must not touch the same rows."""
    connection = connections[DEFAULT_DB_ALIAS]
    parts: list[str] = []
    params: list[Any] = []
    for objs, names in updates:
        if objs:
            parts.append(_update_sql(objs, tuple(names), params, connection))
    if insert:
        model = type(insert[0])
        fields, head, returning = _insert_parts(model)
        values = ", ".join([_row_values(fields)] * len(insert))
        parts.append(f"{head} {values} {returning}")
        params += [
            field.get_db_prep_save(field.pre_save(obj, add=True), connection)
            for obj in insert
            for field in fields
        ]
    if not parts:
        return
    *ctes, main = parts
    if ctes:
        # The writes' order in the text is that of their parameters.
        main = f"WITH {', '.join(f'w{n} AS ({cte})' for n, cte in enumerate(ctes))} {main}"
    with connection.cursor() as cursor:
        cursor.execute(main, params)
        keys = cursor.fetchall() if insert else []
    for obj, (key,) in zip(insert, keys, strict=True):
        obj.pk = key
        obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS


def _update_sql(
    objs: Sequence[Model], names: tuple[str, ...], params: list[Any], connection: Any
) -> str:
    """The UPDATE of these rows, its values added to `params`: by the key for one row (as
    `save()`), from a VALUES list for several (as `bulk_update`, one statement)."""
    model = type(objs[0])
    if len(objs) == 1:
        fields, sql = _update_parts(model, names)
        [obj] = objs
        params += [
            field.get_db_prep_save(field.pre_save(obj, add=False), connection) for field in fields
        ]
        params.append(obj.pk)
        return sql
    fields, head, row = _update_rows_parts(model, names)
    key = model._meta.pk
    for obj in objs:
        params.append(key.get_db_prep_save(obj.pk, connection))
        params += [
            field.get_db_prep_save(field.pre_save(obj, add=False), connection) for field in fields
        ]
    return head.format(values=", ".join([row] * len(objs)))


def _row_values(fields: Sequence[Any]) -> str:
    return f"({', '.join(['%s'] * len(fields))})"


@cache
def _insert_parts(model: type[Model]) -> tuple[list[Any], str, str]:
    meta = model._meta
    fields = [field for field in meta.concrete_fields if field is not meta.auto_field]
    columns = ", ".join(f'"{field.column}"' for field in fields)
    head = f'INSERT INTO "{meta.db_table}" ({columns}) VALUES'
    return fields, head, f'RETURNING "{meta.pk.column}"'


@cache
def _update_parts(model: type[Model], names: tuple[str, ...]) -> tuple[list[Any], str]:
    meta = model._meta
    fields = [meta.get_field(name) for name in names]
    assignments = ", ".join(f'"{field.column}" = %s' for field in fields)  # type: ignore[union-attr]
    # Names from the model's metadata; the values are parameters.
    sql = f'UPDATE "{meta.db_table}" SET {assignments} WHERE "{meta.pk.column}" = %s'  # noqa: S608
    return fields, sql


@cache
def _update_rows_parts(model: type[Model], names: tuple[str, ...]) -> tuple[list[Any], str, str]:
    """An UPDATE of several rows from a VALUES list (its rows left as `{values}`), and one row
    of it: the key, then the fields, each cast to its column's type (a parameter in VALUES has
    no type of its own to take)."""
    meta = model._meta
    connection = connections[DEFAULT_DB_ALIAS]
    key = meta.pk
    fields = [meta.get_field(name) for name in names]
    columns = [key, *fields]
    assignments = ", ".join(f'"{field.column}" = v."{field.column}"' for field in fields)  # type: ignore[union-attr]
    listed = ", ".join(f'"{field.column}"' for field in columns)  # type: ignore[union-attr]
    row = f"({', '.join(f'%s::{field.cast_db_type(connection)}' for field in columns)})"  # type: ignore[union-attr]
    head = (
        f'UPDATE "{meta.db_table}" AS u SET {assignments}'  # noqa: S608 - names from the metadata
        f' FROM (VALUES {{values}}) AS v ({listed}) WHERE u."{key.column}" = v."{key.column}"'
    )
    return fields, head, row
