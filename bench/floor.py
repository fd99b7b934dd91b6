"""The least a move can cost on this stack: each part a move needs, done by the stack's own
libraries at their barest, with none of the project's code (issue 34's targets against them).

A human's move against a CPU is, at the least: an HTTP request (uvicorn), the token's query
and a transaction that locks the game and writes it (psycopg and PostgreSQL), the CPU's turn
published and run as a Celery task, the CPU's own transaction, and two pushes (the move's and
the reply's: a Redis publish forwarded to the player's websocket). A poll answered 304 is a
request, the token's query, the limit's Redis script and the tag's query. Each part here:

- `request`: uvicorn as the Procfile runs it (httptools, uvloop, wsproto), one process,
  serving a bare ASGI function (a POST of a small JSON body answered 200, bench/_floor_app.py)
  to one client over one connection: the web process's CPU a request.
- `query`: a one-row `SELECT` by primary key on a connection in autocommit: the client's CPU
  (psycopg, prepared statements) and its PostgreSQL backend's.
- `transaction`: `BEGIN`, the row locked (`SELECT ... FOR UPDATE`), an event inserted and the
  row updated in one statement (a data-modifying CTE, a state of 1 KB), `COMMIT`: what the
  project's move does under its lock (games/locks.py), with nothing around it.
- `redis script`: a registered Lua script (`INCR` and `EXPIRE`, a rate limit's shape) through
  redis-py with hiredis: the client's CPU and Redis's.
- `task published` / `task run`: a Celery task with the project's options (late ack, no result,
  prefetch 1, JSON) and the CPU's turn's arguments, published by `apply_async`; and run by a
  worker of the threads pool that does nothing but push its number onto a Redis list (the
  bench waits on it, so the tasks run one at a time, as CPU turns do).
- `push`: a 600-byte JSON message published on a Redis channel and forwarded by the bare ASGI
  app's subscribed websocket to its client (permessage-deflate, as a browser negotiates it):
  the publisher's CPU, the web process's, Redis's.

Each figure is the best of `--rounds` rounds (the least disturbed by the rest of the machine).

    python -m bench.floor [--count 2000] [--rounds 3] [--port 8769]

It runs on the servers of DATABASE_URL / REDIS_URL, as `make bench` sets them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx
import psycopg
import redis
from websockets.sync.client import connect

from bench._floor_app import CHANNEL, COUNTER, REDIS_URL, noop
from bench._server import (
    cpu_exact,
    listeners,
    process_tree,
    spawn,
    stop,
    wait_healthy,
    web_command,
    worker_command,
)

DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PUSH = json.dumps(
    {
        "type": "game",
        "game": {"id": str(uuid.uuid4()), "seq": 41, "status": "active", "you": {"seat": 0}},
        "events": [{"seq": 41, "type": "discard", "seat": 1, "cards": ["7H", "7S"]}],
        "padding": "x" * 400,
    }
)[:600]
STATE = json.dumps({"hands": [["AS"] * 5, ["KD"] * 5], "stock": ["2C"] * 40, "pad": "y" * 600})

DROP = "DROP TABLE IF EXISTS bench_floor_game, bench_floor_event"
SCHEMA = (
    DROP
    + """;
CREATE TABLE bench_floor_game (id int PRIMARY KEY, seq int NOT NULL, state jsonb);
CREATE TABLE bench_floor_event (
    id bigserial PRIMARY KEY, game_id int NOT NULL, seq int NOT NULL, body jsonb NOT NULL);
INSERT INTO bench_floor_game VALUES (1, 0, '{}');
"""
)
LOCK = "SELECT seq, state FROM bench_floor_game WHERE id = %s FOR UPDATE"
WRITE = """
WITH event AS (INSERT INTO bench_floor_event (game_id, seq, body) VALUES (%s, %s, %s))
UPDATE bench_floor_game SET seq = %s, state = %s WHERE id = %s
"""
READ = "SELECT id, seq FROM bench_floor_game WHERE id = %s"
LIMIT_SCRIPT = "local n = redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], 60) return n"


@dataclass
class Part:
    """One part's CPU a call, in seconds, by who spends it; the best round's."""

    name: str
    what: str
    cpu: dict[str, float] = field(default_factory=dict)

    def keep(self, figures: dict[str, float]) -> None:
        if not self.cpu or sum(figures.values()) < sum(self.cpu.values()):
            self.cpu = figures

    @property
    def total(self) -> float:
        return sum(self.cpu.values())


class Clock:
    """CPU spent by this process (the client side of a call: psycopg, redis-py, Celery's
    publish), by PostgreSQL's backend of one connection, by Redis, and by server processes."""

    def __init__(
        self, backend: int | None = None, server: int | None = None, redis_url: str = REDIS_URL
    ) -> None:
        self.backend = process_tree(backend)[:1] if backend else []  # none when not local
        self.redis = listeners(redis_url)
        self.server = process_tree(server) if server else []

    def read(self) -> dict[str, float]:
        return {
            "python": time.process_time(),
            "postgres": cpu_exact(self.backend),
            "redis": cpu_exact(self.redis),
            "server": cpu_exact(self.server),
        }


def measured(
    clock: Clock, count: int, call: Callable[[], object], who: tuple[str, ...]
) -> dict[str, float]:
    """`call` run `count` times: the CPU a call of each of `who`."""
    before = clock.read()
    for _ in range(count):
        call()
    after = clock.read()
    return {part: (after[part] - before[part]) / count for part in who}


@contextlib.contextmanager
def bare_server(port: int) -> Iterator[int]:
    """uvicorn with the Procfile's options serving bench/_floor_app.py's bare app; its pid."""
    command = web_command(port, 1, server="uvicorn")
    command[1] = "bench._floor_app:app"
    process = spawn("floor-web", command, dict(os.environ))
    try:
        wait_healthy(f"http://127.0.0.1:{port}")
        yield process.pid
    finally:
        stop(process)


@contextlib.contextmanager
def bare_worker() -> Iterator[int]:
    """A Celery worker of bench/_floor_app.py's app, the threads pool of 4 as deployed."""
    command = worker_command(4, name="bench-floor")
    command[command.index("config")] = "bench._floor_app:celery_app"
    command += ["--pool", "threads", "--queues", "bench-floor"]
    process = spawn("floor-worker", command, dict(os.environ))
    try:
        yield process.pid
    finally:
        stop(process)


def redis_ready(timeout: float = 120.0) -> None:
    """Wait while Redis loads its data set (a restarted embedded Redis reads its file first)."""
    deadline = time.monotonic() + timeout
    client = redis.Redis.from_url(REDIS_URL)
    while True:
        try:
            client.ping()
            return
        except redis.BusyLoadingError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def sql_parts(parts: dict[str, Part], count: int, url: str = DATABASE_URL) -> None:
    """The query and the transaction, on tables of their own, dropped after."""
    with psycopg.connect(url, prepare_threshold=0) as conn:
        for statement in filter(str.strip, SCHEMA.split(";")):
            conn.execute(statement, prepare=False)
        conn.commit()
        try:
            clock = Clock(backend=conn.info.backend_pid)
            conn.autocommit = True
            parts["query"].keep(
                measured(
                    clock,
                    count,
                    lambda: conn.execute(READ, (1,)).fetchone(),
                    ("python", "postgres"),
                )
            )
            conn.autocommit = False
            seq = iter(range(10**9))

            def transaction() -> None:
                conn.execute(LOCK, (1,)).fetchone()
                n = next(seq)
                conn.execute(WRITE, (1, n, '{"type": "discard"}', n, STATE, 1))
                conn.commit()

            parts["transaction"].keep(measured(clock, count, transaction, ("python", "postgres")))
        finally:
            conn.rollback()
            conn.execute(DROP, prepare=False)
            conn.commit()


def redis_part(parts: dict[str, Part], count: int, url: str = REDIS_URL) -> None:
    client = redis.Redis.from_url(url)
    script = client.register_script(LIMIT_SCRIPT)
    clock = Clock(redis_url=url)
    parts["redis script"].keep(
        measured(clock, count, lambda: script(keys=["bench-floor:limit"]), ("python", "redis"))
    )
    client.delete("bench-floor:limit")


def request_part(parts: dict[str, Part], count: int, port: int, server: int) -> None:
    clock = Clock(server=server)
    with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
        body = {"type": "discard", "cards": ["7H", "7S"], "draw": "stock"}
        client.post("/", json=body).raise_for_status()
        parts["request"].keep(
            measured(clock, count, lambda: client.post("/", json=body), ("server",))
        )


def task_parts(parts: dict[str, Part], count: int, worker: int) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    client.delete(COUNTER)  # what a run stopped short left
    clock = Clock(server=worker)
    publish = run = 0.0
    game = str(uuid.uuid4())
    for n in range(count + 1):
        before = clock.read()
        noop.apply_async((game, n), queue="bench-floor")
        middle = time.process_time()
        if client.blpop([COUNTER], timeout=30) is None:
            raise RuntimeError("the floor's worker ran no task within 30 s")
        after = clock.read()
        if n:  # the first warms the worker up
            publish += middle - before["python"]
            run += after["server"] - before["server"]
    parts["task published"].keep({"python": publish / count})
    parts["task run"].keep({"server": run / count})


def push_part(parts: dict[str, Part], count: int, port: int, server: int) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    clock = Clock(server=server)
    with connect(f"ws://127.0.0.1:{port}/ws/") as socket:
        deadline = time.monotonic() + 10
        while client.publish(CHANNEL, PUSH) == 0:  # until the socket has subscribed
            if time.monotonic() > deadline:
                raise RuntimeError("the floor's socket did not subscribe within 10 s")
            time.sleep(0.01)
        socket.recv(timeout=10)
        publish = 0.0
        before = clock.read()
        for _ in range(count):
            started = time.process_time()
            client.publish(CHANNEL, PUSH)
            publish += time.process_time() - started
            socket.recv(timeout=10)
        after = clock.read()
    parts["push"].keep(
        {
            "python": publish / count,
            "server": (after["server"] - before["server"]) / count,
            "redis": (after["redis"] - before["redis"]) / count,
        }
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="calls of each part a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--port", type=int, default=8769)
    args = parser.parse_args()
    parts = {
        name: Part(name, what)
        for name, what in (
            ("request", "an HTTP POST answered by uvicorn and a bare ASGI function"),
            ("query", "a one-row SELECT by primary key"),
            ("transaction", "BEGIN, a row locked, an event inserted and the row updated, COMMIT"),
            ("redis script", "a registered Lua script, INCR and EXPIRE"),
            ("task published", "Celery's apply_async of the CPU's turn's arguments"),
            ("task run", "a Celery worker (threads) running a task that does one Redis call"),
            ("push", "a Redis publish forwarded to a websocket's client"),
        )
    }
    tasks = max(1, args.count // 4)
    redis_ready()
    with bare_server(args.port) as server, bare_worker() as worker:
        for round_ in range(1, args.rounds + 1):
            started = time.monotonic()
            sql_parts(parts, args.count)
            redis_part(parts, args.count)
            request_part(parts, args.count, args.port, server)
            task_parts(parts, tasks, worker)
            push_part(parts, tasks, args.port, server)
            print(f"round {round_}/{args.rounds}: {time.monotonic() - started:.1f} s", flush=True)
    print_tables(parts, args)
    return 0


# What a move and a poll need of each part (a human against one CPU, as bench.api_moves plays).
MOVE = {
    "request": 1,
    "query": 1,
    "transaction": 2,
    "task published": 1,
    "task run": 1,
    "push": 2,
    "redis script": 1,
}
POLL_304 = {"request": 1, "query": 2, "redis script": 1}


def print_tables(parts: dict[str, Part], args: argparse.Namespace) -> None:
    print(
        f"\nEach part alone, the best of {args.rounds} rounds ({args.count:,} calls a round;"
        f" {max(1, args.count // 4):,} tasks and pushes). CPU a call in us: Python is the"
        " caller's process (psycopg, redis-py, Celery's publish), server the uvicorn process"
        " or the Celery worker."
    )
    print("\n| part | what | Python | server | PostgreSQL | Redis | in all |")
    print("|---|---|---|---|---|---|---|")
    for part in parts.values():
        cells = [
            f"{1e6 * part.cpu.get(who, 0.0):.0f}"
            for who in ("python", "server", "postgres", "redis")
        ]
        print(f"| {part.name} | {part.what} | {' | '.join(cells)} | {1e6 * part.total:.0f} |")
    for title, needs, target in (
        ("a human's move and the CPU's reply", MOVE, "server CPU a move <= 6 ms"),
        ("a poll answered 304 (the web process's part)", POLL_304, "web CPU <= 0.4 ms"),
    ):
        print(f"\nThe floor of {title}:\n\n| part | times | CPU, us |\n|---|---|---|")
        total = 0.0
        for name, times in needs.items():
            cost = parts[name].total if needs is MOVE else _web_side(parts[name])
            total += times * cost
            print(f"| {name} | {times} | {1e6 * times * cost:.0f} |")
        print(f"| **in all** | | **{1e6 * total:.0f}** |")
        print(f"\n(issue 34's target: {target})")


def _web_side(part: Part) -> float:
    """What of a part the web process spends (its own CPU, or the client side it runs)."""
    return part.cpu.get("python", 0.0) + part.cpu.get("server", 0.0)


if __name__ == "__main__":
    sys.exit(main())
