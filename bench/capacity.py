"""Capacity: how many connected players one machine holds (issue 20).

Connected players mostly wait: each holds a `ws /ws/v1/me/` socket (opened with a ticket, as
the web client does) and now and then queues a ticket and cancels it. Beside them a few tables
are played at a human pace (a player against a CPU, 1-3 s to think: bench.api_moves), whose
moves are the probe. The number of waiting players grows in steps; each step is held for a
while and measured: a move's p50 / p99, sockets dropped, the server's memory (summed over its
processes: web, worker, beat, PostgreSQL, Redis; PSS, so that shared pages count once) and CPU,
and the load generator's own CPU. The capacity is the largest step at which a move's p99 stays
under 50 ms with no socket dropped (and none refused); the ramp stops at the first step that
fails (`--keep-going` measures on). Memory per waiting socket is the slope of the server's
memory over the steps; CPU per connected player is the server's CPU per second over the
players.

Tickets: at most four search at once over the whole load generator (a semaphore the processes
share), each for a five-seat table only and cancelled after `--ticket-search` seconds, so the
queue can never seat them (a five-seat table needs five; the CPU fill comes after 30 s): every
ticket is a create, a matchmaking pass and a cancel, with both changes pushed on its player's
socket (a push that does not arrive within 5 s counts as missed).

The load generator is several processes (`--processes`), each an asyncio loop holding its share
of the sockets and tables; guests are created through the API, in parallel, with the guest
limit raised (as bench.api_moves raises it).

    python -m bench.capacity [--steps 500,1000,2000,3000,5000,7500] [--hold 30] [--tables 32]

Without --url it starts the server as `make run` serves it (uvicorn with one process per core,
a Celery worker and beat) on the servers of DATABASE_URL / REDIS_URL, as `make bench` sets them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import math
import multiprocessing
import os
import random
import resource
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.sharedctypes import SynchronizedArray
from multiprocessing.synchronize import Semaphore
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from bench._server import (
    Server,
    abort_games,
    busy_seconds,
    cpu_seconds,
    free_port,
    memory_bytes,
    metric_samples,
    queue_drained,
    server_processes,
    serving,
    setup_django,
)
from bench._sockets import OPEN_ERRORS, Lag, open_socket, raise_open_files
from bench.api_moves import KEEPALIVE, LIMITS, Player, guest, percentiles

P99_LIMIT_MS = 50.0
TICKET_SLOTS = 4  # searching at once: fewer than the five a five-seat table needs
TICKET_SIZES = [5]
PUSH_TIMEOUT = 5.0
PARALLEL = 16  # guests being created / sockets being opened at once, per generator process
GUESTS, SOCKETS = 0, 1  # the figures of a process's progress array
GUEST_TRIES = 3


# The pure parts: steps, verdicts, the capacity, slopes ---------------------------------------


def parse_steps(text: str) -> list[int]:
    """`500,1000,2000` -> [500, 1000, 2000]: positive and increasing (the ramp only grows)."""
    steps = [int(part) for part in text.split(",") if part.strip()]
    if not steps or steps[0] <= 0 or any(b <= a for a, b in itertools.pairwise(steps)):
        raise argparse.ArgumentTypeError("steps must be positive and increasing, e.g. 500,1000")
    return steps


@dataclass
class Row:
    """One step, measured over its hold (drops and refused connects: since the step before)."""

    players: int  # waiting players connected (the step)
    tables: int
    moves: list[float]  # seconds, each `POST .../actions/` of the tables
    dropped: int = 0  # sockets closed under a player, waiting or at a table
    refused: int = 0  # sockets that could not be opened
    move_errors: int = 0  # moves not answered 200, tables stopped on an error
    tickets: int = 0
    pushes_missed: int = 0
    ticket_errors: int = 0  # a ticket's create or cancel not answered 201 / 204
    web_memory: int = 0  # bytes (PSS), the web processes
    server_memory: int = 0  # bytes (PSS): web, worker, beat, PostgreSQL, Redis
    server_cpu: float = 0.0  # seconds of CPU per second of the hold, all its processes
    generator_cpu: float = 0.0  # same, the load generator's processes (and the bench's own)
    others_cpu: float = 0.0  # same, the rest of the machine (it is shared)
    seconds: float = 0.0
    lags: list[float] = field(default_factory=list)  # s, the generators' loops waking late
    # The web processes' loops waking late while held (yaniv_event_loop_lag_seconds): wake-ups
    # under each bucket's bound in seconds (cumulative, math.inf for all); empty if not read.
    web_lags: dict[float, float] = field(default_factory=dict)
    parts: dict[str, float] = field(default_factory=dict)  # server_cpu by part: web, worker...

    def percentile_ms(self, which: int) -> float:
        """p50 (0) or p99 (2) of the moves, in ms."""
        return 1000 * percentiles(self.moves)[which]


def failures(row: Row, limit_ms: float = P99_LIMIT_MS) -> list[str]:
    """Why the step fails; empty when it holds."""
    reasons = []
    if not row.moves:
        reasons.append("no move measured")
    elif row.percentile_ms(2) >= limit_ms:
        reasons.append(f"p99 {row.percentile_ms(2):.0f} ms >= {limit_ms:g}")
    if row.dropped:
        reasons.append(f"{row.dropped} sockets dropped")
    if row.refused:
        reasons.append(f"{row.refused} sockets refused")
    if row.move_errors:
        reasons.append(f"{row.move_errors} moves not 200")
    return reasons


def capacity(rows: Sequence[Row], limit_ms: float = P99_LIMIT_MS) -> int | None:
    """The largest step that held, every step before it having held too (the ramp stops at
    the first failure, and a later step cannot redeem it); None if the first failed."""
    found = None
    for row in rows:
        if failures(row, limit_ms):
            break
        found = row.players
    return found


def slope(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Least-squares slope of ys over xs; None with fewer than two distinct xs."""
    if len(set(xs)) < 2:
        return None
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    num = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    return num / sum((x - mean_x) ** 2 for x in xs)


def share(total: int, parts: int) -> list[int]:
    """`total` split over `parts` as evenly as can be: 10 over 4 -> [3, 3, 2, 2]."""
    return [total // parts + (1 if index < total % parts else 0) for index in range(parts)]


# A generator process ---------------------------------------------------------------------------


@dataclass
class Counts:
    """What a generator process's waiting players saw so far."""

    dropped: int = 0
    refused: int = 0
    tickets: int = 0
    ticket_errors: int = 0
    pushes_missed: int = 0


class Waiting:
    """A waiting player: a `/ws/v1/me/` socket, and now and then a ticket queued and
    cancelled (see the module docstring)."""

    def __init__(self, generator: Generator, headers: dict[str, str]) -> None:
        self.generator, self.headers = generator, headers
        self.opened = asyncio.Event()  # set once open, or once it could not be
        self.cancelled: asyncio.Event | None = None  # the push of the ticket being cancelled
        self.ticket_id: str | None = None

    async def run(self) -> None:
        generator = self.generator
        try:
            async with generator.parallel:
                socket = await open_socket(
                    generator.http, generator.ws_url, "/ws/v1/me/", self.headers
                )
        except OPEN_ERRORS:
            generator.counts.refused += 1
            self.opened.set()
            return
        generator.progress[SOCKETS] += 1
        self.opened.set()
        tickets = asyncio.create_task(self.tickets_now_and_then())
        try:
            async with socket:
                await self.listen(socket)
        except ConnectionClosed:
            pass
        finally:
            tickets.cancel()
        if not generator.stopping:
            generator.counts.dropped += 1
            generator.progress[SOCKETS] -= 1

    async def listen(self, socket: ClientConnection) -> None:
        async for text in socket:
            message = json.loads(text)
            ticket = message.get("ticket") or {}
            if (
                self.cancelled is not None
                and ticket.get("id") == self.ticket_id
                and ticket.get("status") == "cancelled"
            ):
                self.cancelled.set()

    async def tickets_now_and_then(self) -> None:
        generator = self.generator
        while True:
            await asyncio.sleep(random.expovariate(1 / generator.ticket_every))
            if not generator.ticket_slots.acquire(block=False):
                continue  # four search already: this player queues another time
            try:
                await self.queue_and_cancel()
            finally:
                generator.ticket_slots.release()

    async def queue_and_cancel(self) -> None:
        generator, counts = self.generator, self.generator.counts
        self.cancelled = asyncio.Event()
        try:
            created = await generator.http.post(
                "/api/v1/matchmaking/tickets/",
                json={"player_counts": TICKET_SIZES},
                headers=self.headers,
            )
            if created.status_code != 201:
                counts.ticket_errors += 1
                return
            self.ticket_id = created.json()["id"]
            await asyncio.sleep(generator.ticket_search)
            url = f"/api/v1/matchmaking/tickets/{self.ticket_id}/"
            cancelled = await generator.http.delete(url, headers=self.headers)
            if cancelled.status_code != 204:
                counts.ticket_errors += 1
                return
            counts.tickets += 1
            try:
                await asyncio.wait_for(self.cancelled.wait(), PUSH_TIMEOUT)
            except TimeoutError:
                counts.pushes_missed += 1
        except httpx.HTTPError:
            counts.ticket_errors += 1
        finally:
            self.cancelled = self.ticket_id = None


class Generator:
    """One process of the load generator: its share of the waiting players and of the tables."""

    def __init__(
        self,
        index: int,
        url: str,
        progress: SynchronizedArray[int],
        ticket_slots: Semaphore,
        options: dict[str, float],
    ) -> None:
        self.index, self.url = index, url
        self.ws_url = url.replace("http", "ws", 1)
        self.progress, self.ticket_slots = progress, ticket_slots
        self.ticket_every, self.ticket_search = options["ticket_every"], options["ticket_search"]
        self.think = options["think"]
        self.counts = Counts()
        self.enlisted: list[dict[str, str]] = []  # the waiting players' headers
        self.waiting: list[asyncio.Task[None]] = []
        self.tables: list[Player] = []
        self.table_tasks: list[asyncio.Task[None]] = []
        self.stopping = False
        self.named = 0  # guests asked for (each a name of its own)

    async def serve(self, conn: Connection) -> None:
        limits = httpx.Limits(max_connections=4 * PARALLEL + 64, keepalive_expiry=KEEPALIVE)
        client = httpx.AsyncClient(base_url=self.url, limits=limits, timeout=60)
        # A late loop would count as a move's time: how late it wakes is measured with them.
        with Lag() as self.lag:
            async with client as self.http:
                await self.answer(conn)

    async def answer(self, conn: Connection) -> None:
        """The bench's commands, one at a time, until it says stop."""
        self.parallel = asyncio.Semaphore(PARALLEL)
        while True:
            command, argument = await asyncio.to_thread(conn.recv)
            if command == "stop":
                self.stopping = True
                conn.send([game for player in self.tables for game in player.game_ids])
                return
            conn.send(await getattr(self, command)(argument))

    async def guests(self, count: int) -> list[dict[str, str]]:
        """`count` new guests' headers, less those the server would not create (each tried
        GUEST_TRIES times: a connection dropped under load is tried again, as clients do),
        which count as refused."""

        async def one() -> dict[str, str] | None:
            async with self.parallel:
                for attempt in range(GUEST_TRIES):
                    self.named += 1
                    try:
                        headers = await guest(self.http, f"cap{self.index}-{self.named}")
                    except httpx.HTTPError:
                        await asyncio.sleep(attempt + 1)
                        continue
                    self.progress[GUESTS] += 1
                    return headers
            self.counts.refused += 1
            return None

        made = await asyncio.gather(*(one() for _ in range(count)))
        return [headers for headers in made if headers is not None]

    async def enlist(self, target: int) -> None:
        """Create guests until `target` waiting players have one."""
        self.enlisted += await self.guests(target - len(self.enlisted))

    async def grow(self, _: object) -> None:
        """Open the socket of every guest enlisted (each opens, or counts as refused)."""
        players = [Waiting(self, headers) for headers in self.enlisted[len(self.waiting) :]]
        self.waiting += [asyncio.create_task(player.run()) for player in players]
        await asyncio.gather(*(player.opened.wait() for player in players))
        # Thousands of sockets' objects, kept out of the collector's full collections (as the
        # server keeps its own: core/perf/garbage.py): each would stop this loop for some
        # 100 ms while moves are timed.
        gc.collect()
        gc.freeze()

    async def seat(self, tables: int) -> None:
        """Start `tables` tables at a human pace (each a player against a CPU, on and on)."""
        for headers in await self.guests(tables):
            player = Player(self.url, self.http, headers, self.think)
            self.tables.append(player)
            self.table_tasks.append(asyncio.create_task(player.play_games(math.inf)))

    async def look(self, _: object) -> dict[str, Any]:
        """The cumulative counts, the samples since the last look, and this process's CPU."""
        counts = self.counts
        moves = [sample for player in self.tables for sample in player.latencies]
        for player in self.tables:
            player.latencies.clear()
            player.replies.clear()
        lags, self.lag.samples = self.lag.samples, []
        stopped = sum(1 for task in self.table_tasks if task.done())  # on an error
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {
            "players": len(self.waiting),
            "dropped": counts.dropped + sum(player.reconnects for player in self.tables),
            "refused": counts.refused,
            "tickets": counts.tickets,
            "ticket_errors": counts.ticket_errors,
            "pushes_missed": counts.pushes_missed,
            "move_errors": stopped + sum(player.errors for player in self.tables),
            "moves": moves,
            "lags": lags,
            "cpu": usage.ru_utime + usage.ru_stime,
        }


def generator_process(
    index: int,
    url: str,
    conn: Connection,
    progress: SynchronizedArray[int],
    ticket_slots: Semaphore,
    options: dict[str, float],
) -> None:
    raise_open_files()
    generator = Generator(index, url, progress, ticket_slots, options)
    asyncio.run(generator.serve(conn))
    # Thousands of sockets would each wait out a closing handshake: the kernel closes them.
    os._exit(0)


# The run ---------------------------------------------------------------------------------------


@dataclass
class Generators:
    processes: list[multiprocessing.process.BaseProcess]
    conns: list[Connection]
    progress: list[SynchronizedArray[int]]  # each process's guests made, sockets open
    ticket_slots: Semaphore  # held here too: the processes share it while it lives

    def ask(self, command: str, arguments: Iterable[object], what: str = "") -> list[Any]:
        """Send each process its command; wait for every answer, showing progress."""
        for conn, argument in zip(self.conns, arguments, strict=True):
            conn.send((command, argument))
        answers: list[Any] = [None] * len(self.conns)
        waiting = set(range(len(self.conns)))
        last = time.monotonic()
        while waiting:
            for index in list(waiting):
                if not self.processes[index].is_alive():
                    raise RuntimeError(f"load generator process {index} died")
                if self.conns[index].poll(0.2):
                    answers[index] = self.conns[index].recv()
                    waiting.discard(index)
            if what and time.monotonic() - last >= 5:
                last = time.monotonic()
                print(
                    f"  {what}: {self.guests():,} guests, {self.sockets():,} sockets open",
                    flush=True,
                )
        return answers

    def stop(self) -> list[str]:
        """Stop every process still running; the ids of the games their tables played."""
        game_ids: list[str] = []
        for process, conn in zip(self.processes, self.conns, strict=True):
            try:
                if process.is_alive():
                    conn.send(("stop", None))
                    game_ids += conn.recv()
            except (OSError, EOFError):
                pass  # it died meanwhile: nothing to collect
            process.join(10)
        return game_ids

    def sockets(self) -> int:
        return sum(progress[SOCKETS] for progress in self.progress)

    def guests(self) -> int:
        return sum(progress[GUESTS] for progress in self.progress)

    def look(self) -> dict[str, Any]:
        looks = self.ask("look", [None] * len(self.conns))
        total: dict[str, Any] = {
            key: sum(look[key] for look in looks)
            for key in looks[0]
            if key not in ("moves", "lags")
        }
        for key in ("moves", "lags"):
            total[key] = [sample for look in looks for sample in look[key]]
        return total


def start_generators(url: str, processes: int, options: dict[str, float]) -> Generators:
    context = multiprocessing.get_context("spawn")  # a clean process: no Django, no loop
    slots = context.Semaphore(TICKET_SLOTS)
    started = Generators([], [], [], slots)
    for index in range(processes):
        mine, theirs = context.Pipe()
        progress = context.Array("i", 2)
        process = context.Process(
            target=generator_process,
            args=(index, url, theirs, progress, slots, options),
            daemon=True,
        )
        process.start()
        started.processes.append(process)
        started.conns.append(mine)
        started.progress.append(progress)
    return started


def _per(before: dict[str, float], after: dict[str, float], count: int) -> str:
    """The server's CPU between two readings per `count`, in ms, in all and by part."""
    used = {part: after[part] - before[part] for part in after if part != "clients"}
    parts = ", ".join(f"{part} {1000 * cpu / count:.1f}" for part, cpu in used.items())
    return f"{1000 * sum(used.values()) / count:.1f} ms ({parts})"


def measure_step(
    server: Server,
    generators: Generators,
    players: int,
    tables: int,
    hold: float,
    before: dict[str, Any],
) -> tuple[Row, dict[str, Any]]:
    """Grow to `players` waiting sockets, hold, measure; the row and the last look."""
    parts = len(generators.conns)
    readings = [(time.monotonic(), cpu_seconds(server))]
    generators.ask("enlist", share(players, parts), f"step {players:,}")
    readings.append((time.monotonic(), cpu_seconds(server)))
    generators.ask("grow", [None] * parts, f"step {players:,}")
    readings.append((time.monotonic(), cpu_seconds(server)))
    start = generators.look()
    new = max(1, players - before["players"])
    (begun, first), (enlisted, second), (opened, third) = readings
    print(
        f"  {new:,} guests created in {enlisted - begun:.1f} s, their sockets opened in"
        f" {opened - enlisted:.1f} s; server CPU per guest {_per(first, second, new)},"
        f" per socket {_per(second, third, new)}; load generator"
        f" {1000 * (start['cpu'] - before['cpu']) / new:.1f} ms per player (both)",
        flush=True,
    )
    waited = queue_drained(server)
    print(f"  the worker's queue empty after {waited:.0f} s (the sockets' presence tasks)")
    lags_start = web_loop_lags(server.url)
    server_start, machine_start, begun = cpu_seconds(server), busy_seconds(), time.monotonic()
    time.sleep(hold)
    end = generators.look()
    lags_end = web_loop_lags(server.url)
    server_end, elapsed = cpu_seconds(server), time.monotonic() - begun
    machine = (busy_seconds() - machine_start) / elapsed
    own = (server_end.pop("clients") - server_start.pop("clients")) / elapsed  # this process
    used = {part: server_end[part] - server_start.get(part, 0.0) for part in server_end}
    server_cpu = sum(used.values()) / elapsed
    generator_cpu = (end["cpu"] - start["cpu"]) / elapsed + own
    processes = server_processes(server)
    row = Row(
        players=players,
        tables=tables,
        moves=end["moves"],
        dropped=end["dropped"] - before["dropped"],
        refused=end["refused"] - before["refused"],
        move_errors=end["move_errors"] - start["move_errors"],
        tickets=end["tickets"] - start["tickets"],
        pushes_missed=end["pushes_missed"] - start["pushes_missed"],
        ticket_errors=end["ticket_errors"] - start["ticket_errors"],
        web_memory=memory_bytes(processes.get("web", [])),
        server_memory=sum(memory_bytes(group) for group in processes.values()),
        server_cpu=server_cpu,
        generator_cpu=generator_cpu,
        others_cpu=machine - server_cpu - generator_cpu,
        seconds=elapsed,
        lags=end["lags"],
        web_lags={bound: count - lags_start.get(bound, 0.0) for bound, count in lags_end.items()},
        parts={part: cpu / elapsed for part, cpu in used.items()},
    )
    return row, end


HEADER = (
    "| connected players | tables | moves | move p50 ms | move p99 ms | dropped | refused "
    "| tickets (pushes missed, errors) | web memory MB | server memory MB | server CPU (cores) "
    "| server CPU per player, µs/s | generator CPU (cores) | others' CPU (cores) | holds |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def held_line(row: Row) -> str:
    """The server's CPU while the step held, by part, per connected player."""
    parts = ", ".join(
        f"{part} {1e6 * cpu / row.players:.0f}" for part, cpu in row.parts.items() if cpu
    )
    return f"server CPU while held, per connected player, µs/s: {parts}"


def lag_line(row: Row) -> str:
    """How late the load generators' loops woke while the step held (what of a move's time
    was theirs)."""
    late = row.lags or [0.0]
    over = sum(1 for one in late if one > 0.02)
    return (
        f"the load generators' loops woke late by p99 {1000 * percentiles(late)[2]:.1f} ms,"
        f" max {1000 * max(late):.1f} ms; {over:,} of {len(late):,} wakes over 20 ms"
    )


LOOP_LAG_BUCKET = "yaniv_event_loop_lag_seconds_bucket"


def web_loop_lags(url: str) -> dict[float, float]:
    """The web processes' loop-lag histogram on the server's /metrics (summed over them): the
    wake-ups under each bound so far; empty when it cannot be read (a server that keeps
    /metrics from this address, or one without it)."""
    try:
        samples = metric_samples(url, LOOP_LAG_BUCKET, timeout=10)
    except httpx.HTTPError:
        return {}
    counts: dict[float, float] = {}
    for sample in samples:
        bound = float(sample.labels["le"])
        counts[bound] = counts.get(bound, 0.0) + sample.value
    return counts


def web_lag_line(row: Row, late: float = 0.025) -> str:
    """How late the web processes' own loops woke while the step held (their timer's
    lateness, core/perf/loop_lag.py): what of a move's time was a stalled web process."""
    counts = row.web_lags
    total = counts.get(math.inf, 0.0)
    if not total:
        return "the web processes' loops: not read (no yaniv_event_loop_lag_seconds)"
    over = total - counts.get(late, 0.0)
    latest = min(bound for bound, count in counts.items() if count >= total)
    below = "any" if math.isinf(latest) else f"{1000 * latest:g} ms"
    return (
        f"the web processes' loops woke {total:,.0f} times; {over:,.0f} over"
        f" {1000 * late:g} ms late, the latest under {below}"
    )


def table_row(row: Row, limit_ms: float) -> str:
    why = failures(row, limit_ms)
    moves = len(row.moves)
    p50 = f"{row.percentile_ms(0):.1f}" if moves else "-"
    p99 = f"{row.percentile_ms(2):.1f}" if moves else "-"
    return (
        f"| {row.players:,} | {row.tables} | {moves} | {p50} | {p99} | {row.dropped} "
        f"| {row.refused} | {row.tickets} ({row.pushes_missed}, {row.ticket_errors}) "
        f"| {row.web_memory / 2**20:.0f} "
        f"| {row.server_memory / 2**20:.0f} | {row.server_cpu:.2f} "
        f"| {1e6 * row.server_cpu / row.players:.0f} | {row.generator_cpu:.2f} "
        f"| {row.others_cpu:.2f} "
        f"| {'yes' if not why else 'no: ' + ', '.join(why)} |"
    )


def summary(rows: Sequence[Row], limit_ms: float) -> list[str]:
    found = capacity(rows, limit_ms)
    rule = f"move p99 < {limit_ms:g} ms, no socket dropped"
    if found is None:
        verdict = f"below {rows[0].players:,} (the first step failed)"
    elif found == rows[-1].players:
        verdict = f"at least {found:,} connected players ({rule}; the largest step tried)"
    else:
        verdict = f"{found:,} connected players ({rule})"
    lines = [f"capacity: {verdict}"]
    players = [row.players for row in rows]
    memory = slope(players, [row.server_memory for row in rows])
    web = slope(players, [row.web_memory for row in rows])
    if memory is not None and web is not None:
        lines.append(
            f"memory per waiting socket (slope over the steps): server {memory / 1024:.0f} KiB"
            f" (web processes {web / 1024:.0f} KiB)"
        )
    cpu = slope(players, [row.server_cpu for row in rows])
    if cpu is not None:
        lines.append(
            f"server CPU per connected player: {1e6 * cpu:.0f} µs/s more per player"
            f" (slope), {1e6 * rows[-1].server_cpu / rows[-1].players:.0f} µs/s at"
            f" {rows[-1].players:,} (all the server's CPU over the players, tables included)"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--steps", type=parse_steps, default=parse_steps("500,1000,2000,3000,5000,7500")
    )
    parser.add_argument("--hold", type=float, default=30, help="seconds measured per step")
    parser.add_argument("--tables", type=int, default=32, help="tables played at a human pace")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time at the tables")
    parser.add_argument("--processes", type=int, default=4, help="load generator processes")
    parser.add_argument(
        "--ticket-every", type=float, default=600, help="mean seconds between a player's tickets"
    )
    parser.add_argument(
        "--ticket-search", type=float, default=1.0, help="seconds a ticket searches"
    )
    parser.add_argument("--p99", type=float, default=P99_LIMIT_MS, help="the limit, ms")
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="measure every step, past a failed one (the capacity is found as without)",
    )
    parser.add_argument("--url", help="an already running server (default: start one)")
    parser.add_argument("--port", type=int, help="the server's port (default: a free one)")
    args = parser.parse_args()

    soft, hard = raise_open_files()  # the server's processes inherit it
    largest = args.steps[-1] + args.tables
    web_workers = os.cpu_count() or 1
    print(
        f"open files: soft limit raised to {soft:,} (hard {hard:,}); the largest step needs"
        f" some {largest // args.processes + 100:,} per generator process and"
        f" {largest // web_workers + 100:,} per web process",
        flush=True,
    )
    if largest // min(args.processes, web_workers) + 100 > soft:
        print("too few open files for the largest step: lower --steps", file=sys.stderr)
        return 2
    if args.url is None:
        setup_django()
    started = time.monotonic()
    options = {
        "ticket_every": args.ticket_every,
        "ticket_search": args.ticket_search,
        "think": args.think,
    }
    rows: list[Row] = []
    port = args.port or free_port()  # not a fixed one: benches of other checkouts run here too
    with serving(args.url, port, LIMITS, web_workers=web_workers, beat=True) as server:
        generators = start_generators(server.url, args.processes, options)
        try:
            print(f"{args.tables} tables at a human pace ...", flush=True)
            generators.ask("seat", share(args.tables, args.processes))
            last = generators.look()
            for players in args.steps:
                print(f"step {players:,}: connecting, then {args.hold:g} s held ...", flush=True)
                row, last = measure_step(server, generators, players, args.tables, args.hold, last)
                rows.append(row)
                print(f"{HEADER}\n{table_row(row, args.p99)}", flush=True)
                print(
                    f"  {held_line(row)}\n  {lag_line(row)}\n  {web_lag_line(row)}\n",
                    flush=True,
                )
                if failures(row, args.p99) and not args.keep_going:
                    break
        except RuntimeError as error:  # a generator process died: what was measured stands
            print(f"stopped: {error}", file=sys.stderr)
        finally:
            game_ids = generators.stop()
    if args.url is None:
        abort_games(game_ids)
    if not rows:
        return 1

    print(f"\n{HEADER}")
    for row in rows:
        print(table_row(row, args.p99))
    print()
    for line in summary(rows, args.p99):
        print(line)
    print(f"run time: {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
