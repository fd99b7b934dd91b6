"""`devservers exec --pgbouncer`'s PgBouncer (its configuration, the URL through it) and the
settings `DATABASE_POOLER=pgbouncer` gives; `make test-pgbouncer` runs the API part of the
suite through a real one."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from devtools.devservers import PgBouncer, _children


def test_transaction_pooling_for_any_database_of_the_upstream_server(tmp_path: Path) -> None:
    bouncer = PgBouncer("postgres://postgres@10.1.2.3:5433/yaniv", host="127.0.0.31", port=6432)
    ini = bouncer.config(tmp_path).splitlines()
    assert "* = host=10.1.2.3 port=5433" in ini  # pytest-django's test_... databases too
    assert "pool_mode = transaction" in ini
    assert "listen_addr = 127.0.0.31" in ini
    assert "listen_port = 6432" in ini
    assert "auth_type = trust" in ini  # no password in the URL: none asked
    assert (tmp_path / "userlist.txt").read_text() == '"postgres" ""\n'
    assert bouncer.url == "postgres://postgres@127.0.0.31:6432/yaniv"


def test_a_password_is_asked_with_md5_and_kept_in_the_url(tmp_path: Path) -> None:
    upstream = "postgres://yaniv:p%40ss%3Aw@db.internal/yaniv?sslmode=disable"
    bouncer = PgBouncer(upstream, port=7000)
    ini = bouncer.config(tmp_path).splitlines()
    assert "* = host=db.internal port=5432" in ini
    assert "auth_type = md5" in ini
    # PgBouncer logs in to PostgreSQL with the same password, from the userlist.
    assert (tmp_path / "userlist.txt").read_text() == '"yaniv" "p@ss:w"\n'
    assert bouncer.url == "postgres://yaniv:p%40ss%3Aw@127.0.0.1:7000/yaniv?sslmode=disable"


def test_pgbouncer_is_not_a_leftover_of_the_command() -> None:
    """exec waits for what its command left running: never for its own PgBouncer."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in _children()
        assert child.pid not in _children(frozenset([child.pid]))
    finally:
        child.kill()
        child.wait()


def _settings(pooler: str) -> subprocess.CompletedProcess[str]:
    script = textwrap.dedent(
        """
        from django.conf import settings
        db = settings.DATABASES["default"]
        print(db["DISABLE_SERVER_SIDE_CURSORS"], db["OPTIONS"]["prepare_threshold"])
        """
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_POOLER": pooler}
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)


def test_behind_pgbouncer_no_server_side_cursors_and_never_a_prepared_statement() -> None:
    assert _settings("pgbouncer").stdout.split() == ["True", "None"]
    # Direct to PostgreSQL, statements are prepared (core/prepared.py).
    assert _settings("").stdout.split() == ["False", "5"]


def test_an_unknown_pooler_is_refused_by_name() -> None:
    done = _settings("pgpool")
    assert done.returncode != 0
    assert "DATABASE_POOLER: 'pgpool'" in done.stderr
