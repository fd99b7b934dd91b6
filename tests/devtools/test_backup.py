"""make backup / make restore (devtools/devservers.py): a row backed up comes back after it
was changed and deleted. On a database of its own on the tests' server, not the test
database, which restoring would rewrite under the other tests."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from psycopg import sql

from devtools import devservers


def url(database: str) -> str:
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgresql://{auth}@{db['HOST']}:{db['PORT']}/{database}"


@pytest.fixture
def scratch() -> Iterator[str]:
    name = f"backup_test_{os.getpid()}"
    server = url(settings.DATABASES["default"]["NAME"])
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield url(name)
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))


def rows(database: str) -> list[tuple[int, str]]:
    with psycopg.connect(database) as conn:
        return conn.execute("SELECT id, name FROM player ORDER BY id").fetchall()


def test_a_backup_restores_a_row(scratch, tmp_path: Path, capfd):
    with psycopg.connect(scratch) as conn:
        conn.execute("CREATE TABLE player (id int PRIMARY KEY, name text NOT NULL)")
        conn.execute("INSERT INTO player VALUES (1, 'dana'), (2, 'omer')")

    dump = devservers.backup(scratch, tmp_path / "backups")
    assert dump.parent == tmp_path / "backups"
    assert re.fullmatch(r"yaniv-\d{8}T\d{6}Z\.dump", dump.name)
    assert dump.read_bytes()[:5] == b"PGDMP"  # the custom format
    assert f"wrote {dump}" in capfd.readouterr().err  # the progress line

    with psycopg.connect(scratch) as conn:
        conn.execute("UPDATE player SET name = 'changed' WHERE id = 1")
        conn.execute("DELETE FROM player WHERE id = 2")
        conn.execute("CREATE TABLE later (id int)")
    devservers.restore(dump, scratch)

    assert rows(scratch) == [(1, "dana"), (2, "omer")]
    with psycopg.connect(scratch) as conn:  # --clean drops what the dump holds, no more
        assert conn.execute("SELECT to_regclass('later')").fetchone() == ("later",)


def test_restore_refuses_a_missing_file(tmp_path: Path):
    with pytest.raises(SystemExit, match="no backup at"):
        devservers.restore(tmp_path / "nothing.dump", "postgresql://unused/x")
