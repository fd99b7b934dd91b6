"""The embedded servers: their ports, who PostgreSQL runs as, how durable they are, and the
order in which a stopped command and its servers end."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
import redis

from devtools import devservers
from devtools.devservers import PG_PORT, REDIS_PORT, Postgres, Redis


def test_a_taken_port_is_given_up_and_the_new_one_remembered(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        redis = Redis(data_dir=tmp_path / "redis", port=taken)
        redis.claim_port()
        assert redis.port != taken
    assert Redis(data_dir=tmp_path / "redis").port == redis.port
    assert redis.url == f"redis://127.0.0.1:{redis.port}/0"


def test_without_a_port_file_the_default_port_is_used(tmp_path: Path) -> None:
    assert Postgres(data_dir=tmp_path / "postgres").port == PG_PORT
    assert Redis(data_dir=tmp_path / "redis").port == REDIS_PORT


def test_the_settings_default_to_the_embedded_servers_urls(tmp_path: Path) -> None:
    """Unset, DATABASE_URL and REDIS_URL are the embedded servers' (settings name them without
    importing this tool), on the ports of YANIV_EMBEDDED_PG_PORT / _REDIS_PORT."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env |= {
        "YANIV_VAR_DIR": str(tmp_path),  # no port file: each server on its default port
        "YANIV_EMBEDDED_PG_PORT": "54999",
        "YANIV_EMBEDDED_REDIS_PORT": "63999",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    script = textwrap.dedent(
        """
        import environ
        from django.conf import settings
        from devtools.devservers import Postgres, Redis

        pg = environ.Env.db_url_config(Postgres().url)
        db = settings.DATABASES["default"]
        print([db[key] == pg[key] for key in ("HOST", "PORT", "NAME", "USER")])
        print(settings.REDIS_URL == Redis().url, Redis().url)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == ["[True, True, True, True]", "True redis://127.0.0.1:63999/0"]


SYSTEM_USER = pwd.struct_passwd(("yaniv_postgres", "x", 12345, 12346, "", "/", "/bin/false"))


def test_as_root_postgresql_runs_with_its_own_group_and_none_of_roots(tmp_path: Path) -> None:
    """`user=` alone keeps gid 0 and root's groups: root's 0700 home then denies by its group
    bits, and initdb cannot even be executed."""
    server = Postgres(data_dir=tmp_path / "postgres")
    with (
        mock.patch.object(Postgres, "_run_as", return_value=SYSTEM_USER),
        mock.patch("devtools.devservers.subprocess.run") as run,
    ):
        server._pg("initdb", "-D", str(server.data_dir))
    assert run.call_args.kwargs["user"] == 12345
    assert run.call_args.kwargs["group"] == 12346
    assert run.call_args.kwargs["extra_groups"] == []


def test_a_private_directory_is_opened_for_passing_through_only_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path.chmod(0o755)
    home = tmp_path / "home"  # root's 0700 home
    shared = home / "shared"  # a directory of the system user's group, 0700
    checkout = shared / "yaniv"  # 0755, as git clones it
    var = checkout / "var"
    var.mkdir(parents=True)
    home.chmod(0o700)
    shared.chmod(0o700)
    os.chown(shared, -1, SYSTEM_USER.pw_gid)
    checkout.chmod(0o755)

    devservers.open_for(var, 12345, 12346, why="PostgreSQL runs as a system user", top=tmp_path)

    assert stat.S_IMODE(home.stat().st_mode) == 0o701  # not 0o705: it still cannot list it
    assert stat.S_IMODE(shared.stat().st_mode) == 0o710  # its group bits are the ones that apply
    assert stat.S_IMODE(checkout.stat().st_mode) == 0o755
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"[devservers] {home}: mode 0700 -> 0701 (o+x")
    assert lines[1].startswith(f"[devservers] {shared}: mode 0700 -> 0710 (g+x")
    assert all("PostgreSQL runs as a system user" in line for line in lines)

    devservers.open_for(var, 12345, 12346, why="again", top=tmp_path)
    assert capsys.readouterr().err == ""  # nothing needed, nothing changed, nothing said


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A directory under the checkout's var/, which PostgreSQL's user can already reach
    (the suite's own server lives there)."""
    path = devservers.VAR_DIR / f"test-{os.getpid()}"
    path.mkdir(parents=True)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


DURABILITY = ("fsync", "full_page_writes", "synchronous_commit")
ALL_OFF = dict.fromkeys(DURABILITY, "off")
ALL_ON = dict.fromkeys(DURABILITY, "on")


def test_postgresql_is_durable_unless_fast_and_a_fast_command_never_weakens_it(
    scratch: Path,
) -> None:
    server = Postgres(data_dir=scratch / "postgres", port=_free_port())
    try:
        server.start(durable=False)  # `make test`
        assert server.durability() == ALL_OFF
        server.reuse(durable=True)  # then `make run` in the same checkout reuses it
        assert server.durability() == ALL_ON
        server.reuse(durable=False)  # and a second `make test` leaves it durable
        assert server.durability() == ALL_ON
        server.set_durability(durable=False)
        server.stop()
        server.start(durable=True)  # `make run` on a data directory a test run left fast
        assert server.durability() == ALL_ON
    finally:
        server.stop()


def test_redis_keeps_its_data_across_a_restart(scratch: Path) -> None:
    server = Redis(data_dir=scratch / "redis", port=_free_port())
    try:
        server.start(durable=True)
        client = redis.Redis(port=server.port)
        client.set("game", "kept")
        client.close()
        server.stop()
        assert not server.is_running()
        server.start(durable=True)
        client = redis.Redis(port=server.port)
        assert client.get("game") == b"kept"
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        client.close()
    finally:
        server.stop()


def test_the_last_command_using_a_server_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make test` started the servers and `make run` reused them: the test run ending must
    not stop them under the running server."""
    monkeypatch.setattr(devservers, "VAR_DIR", tmp_path)
    server = Redis(data_dir=tmp_path / "redis", port=1)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        server.add_user(os.getpid())
        server.add_user(sleeper.pid)  # `make run`, still running
        with mock.patch.object(Redis, "stop") as stop, mock.patch.object(Redis, "is_running"):
            devservers.release([server], os.getpid())
            stop.assert_not_called()
            sleeper.kill()
            sleeper.wait()
            server.add_user(os.getpid())
            devservers.release([server], os.getpid())
            stop.assert_called_once_with()
    finally:
        sleeper.kill()
        sleeper.wait()


# `python -m devtools.devservers exec -- <command>` with a server that only writes down when it
# is started and stopped.
WRAPPER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from devtools import devservers

    log = Path(sys.argv[1])

    def note(line):
        with log.open("a") as file:
            file.write(line + "\\n")

    class Recorded(devservers.Redis):
        def is_running(self):
            return (self.data_dir / "up").exists()

        def start(self, **kwargs):
            self.data_dir.mkdir(parents=True, exist_ok=True)
            (self.data_dir / "up").touch()
            note("servers started")

        def stop(self):
            note("servers stopped")
            (self.data_dir / "up").unlink()

    devservers._servers = lambda: [("REDIS_URL", Recorded(log.parent / "redis", port=1))]
    sys.exit(devservers.main(["exec", "--", sys.executable, sys.argv[2], str(log)]))
    """
)

# The command: like honcho, it has a child in a session of its own (which a signal to the
# group does not reach), passes the signal on, and here exits without waiting for it (as the
# `sh -c` before honcho did); the child takes a moment to finish.
COMMAND = textwrap.dedent(
    """
    import os, signal, subprocess, sys, time
    from pathlib import Path

    log = Path(sys.argv[1])

    def note(line):
        with log.open("a") as file:
            file.write(line + "\\n")

    GRANDCHILD = '''
    import signal, sys, time
    def finish(*_):
        time.sleep(1)
        with open(sys.argv[1], "a") as file:
            file.write("grandchild finished\\\\n")
        sys.exit(0)
    signal.signal(signal.SIGTERM, finish)
    print("ready", flush=True)
    while True:
        time.sleep(1)
    '''
    grandchild = subprocess.Popen(
        [sys.executable, "-c", GRANDCHILD, str(log)],
        start_new_session=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    grandchild.stdout.readline()

    def stop(signum, frame):
        note(f"command got {signal.Signals(signum).name}")
        grandchild.terminate()
        sys.exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    note(f"command ready {os.getpid()} {grandchild.pid}")
    while True:
        time.sleep(1)
    """
)


def _lines(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_group_stops_the_command_first_then_the_servers(
    tmp_path: Path, sig: signal.Signals
) -> None:
    log = tmp_path / "log"
    (tmp_path / "wrapper.py").write_text(WRAPPER)
    (tmp_path / "command.py").write_text(COMMAND)
    env = {**os.environ, "YANIV_VAR_DIR": str(tmp_path), "PYTHONPATH": str(devservers.BASE_DIR)}
    env.pop("REDIS_URL", None)
    wrapper = subprocess.Popen(
        [sys.executable, str(tmp_path / "wrapper.py"), str(log), str(tmp_path / "command.py")],
        env=env,
        cwd=devservers.BASE_DIR,
        start_new_session=True,  # a process group of its own, as `make run` under setsid
    )
    try:
        deadline = time.monotonic() + 60
        while not any(line.startswith("command ready") for line in _lines(log)):
            assert wrapper.poll() is None, _lines(log)
            assert time.monotonic() < deadline, _lines(log)
            time.sleep(0.05)
        os.killpg(wrapper.pid, sig)  # what systemd (SIGTERM) and the terminal (SIGINT) do
        assert wrapper.wait(60) == 128 + sig
    finally:
        if wrapper.poll() is None:
            os.killpg(wrapper.pid, signal.SIGKILL)
            wrapper.wait()
    # A SIGTERM may reach the command twice: from the group, and passed on by devservers
    # (which cannot tell that the group got it too).
    lines = list(dict.fromkeys(_lines(log)))
    pids = [int(pid) for pid in lines[1].split()[2:]]
    assert lines == [
        "servers started",
        f"command ready {pids[0]} {pids[1]}",
        f"command got {sig.name}",
        "grandchild finished",
        "servers stopped",
    ]
    for pid in pids:  # nothing is left running
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
