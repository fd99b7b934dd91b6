"""Turn deadlines under faults (issue: turn limits that survive crashes).

Starts the real processes (web, Celery worker, Celery beat) with a 2-second ranked turn limit,
seats idle guests at ranked tables (nobody ever moves: every turn is a deadline to enforce),
then, one after the other: (a) kills the worker with SIGKILL and starts it again, (b) restarts
Redis, (c) terminates every database connection. After each fault it measures how long it
takes until no game is overdue any more, and at the end checks that every game finished, that
each game's action seqs are gapless and unique, and that every record replays to the stored
standings. Last, (d): Redis paused (SIGSTOP) while 64 clients play against CPU seats at a human
pace (bench.api_moves' clients): the longest move answer, the answers that were not 2xx, and,
once every client has left its table to the CPU, the games that did not finish.

    python -m bench.faults [--games 20] [--players 3] [--clients 64] [--pause 10]

It needs a Redis it may restart, so it runs one of its own (embedded, port 63899, data under
var/bench-redis); PostgreSQL is the one of DATABASE_URL.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from bench._server import Server, abort_games, setup_django, worker_command
from devtools.devservers import Redis

BENCH_REDIS = Redis(
    data_dir=Path(__file__).resolve().parent.parent / "var" / "bench-redis", port=63899
)
TURN_SECONDS = 2
ENV = {
    "REDIS_URL": BENCH_REDIS.url,
    "YANIV_RANKED_TURN_SECONDS": str(TURN_SECONDS),
    "YANIV_CPU_THINK_SECONDS": "0.5",
    "YANIV_SWEEP_SECONDS": "1",
    "THROTTLE_RATE_GUEST_CREATE": "100000/hour",
}


def create_games(count: int, players: int) -> list[str]:
    from django.db import transaction

    from accounts.services import guest_create
    from games.services.lobby import game_begin_ranked

    ids = []
    for index in range(count):
        seated = [guest_create(display_name=f"idle {index}.{seat}")[0] for seat in range(players)]
        with transaction.atomic():
            ids.append(str(game_begin_ranked(players=seated).game.pk))
    return ids


def overdue(ids: list[str], slack: float) -> int:
    """Active games whose turn is overdue by more than `slack` seconds."""
    from django.db import close_old_connections
    from django.utils import timezone

    from games.models import Game, GameStatus

    close_old_connections()
    limit = timezone.now() - timedelta(seconds=slack)
    return Game.objects.filter(
        pk__in=ids, status=GameStatus.ACTIVE, turn_deadline__lt=limit
    ).count()


def active(ids: list[str]) -> int:
    from games.models import Game, GameStatus

    return Game.objects.filter(pk__in=ids, status=GameStatus.ACTIVE).count()


def recovery_seconds(ids: list[str], since: float, slack: float = 1.0, limit: float = 120) -> float:
    """Seconds from `since` until nothing is overdue by more than `slack` (a deadline, plus
    the sweeper's period, is enforced)."""
    time.sleep(slack)
    while overdue(ids, slack):
        if time.monotonic() - since > limit:
            return float("inf")
        time.sleep(0.2)
    return time.monotonic() - since


def supervise(server: Server, crashes: list[str], fault: str) -> None:
    """Restart a worker that died, as docker compose's restart policy would, and count it."""
    worker = server.processes["worker"]
    if worker.poll() is not None:
        crashes.append(fault)
        server.restart("worker", worker_command())


def drop_database_connections() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def abort_leftovers(ids: list[str] | None = None) -> None:
    """Games that did not finish (these, or an interrupted run's) must not keep a run's worker
    busy: the bench's players are the guests named "idle ..."."""
    from games.models import Game, GameStatus

    if ids is None:
        idle = Game.objects.filter(
            status=GameStatus.ACTIVE, ranked=True, seats__player__display_name__startswith="idle "
        )
        ids = [str(pk) for pk in idle.values_list("pk", flat=True)]
    abort_games(ids)


def check_games(ids: list[str]) -> dict[str, int]:
    from games.engine.record import replay
    from games.game_rules import record_rules
    from games.models import Event, Game, GameStatus
    from games.selectors import game_record, game_seats

    problems = {"unfinished": 0, "seq gaps or duplicates": 0, "record mismatch": 0}
    for game in Game.objects.filter(pk__in=ids):
        if game.status != GameStatus.FINISHED:
            problems["unfinished"] += 1
            continue
        seqs = list(
            Event.objects.filter(game=game, type__in=("played", "yaniv_called"))
            .order_by("id")
            .values_list("seq", flat=True)
        )
        if seqs != list(range(1, game.seq + 1)):
            problems["seq gaps or duplicates"] += 1
        summary = replay(game_record(game, game_seats(game)), record_rules)
        stored = game.state["standings"] if game.state else None
        if summary.get("standings") != stored:
            problems["record mismatch"] += 1
    return problems


async def redis_paused_under_play(
    url: str, clients: int, pause: float, *, before: float = 10, after: float = 15
) -> dict[str, Any]:
    """Clients at a human pace against CPU seats; Redis paused `before` seconds in, for
    `pause` seconds; they play on `after` seconds more, then leave their tables to the CPU."""
    from bench.api_moves import KEEPALIVE, Player, guest

    limits = httpx.Limits(max_connections=clients * 2, keepalive_expiry=KEEPALIVE)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as http:
        players = [Player(url, http, await guest(http, f"stall {i}"), 2.0) for i in range(clients)]
        stop = time.monotonic() + before + pause + after

        async def pause_redis() -> None:
            await asyncio.sleep(before)
            pid = int(BENCH_REDIS.pidfile.read_text())
            os.kill(pid, signal.SIGSTOP)
            try:
                await asyncio.sleep(pause)
            finally:
                os.kill(pid, signal.SIGCONT)

        await asyncio.gather(pause_redis(), *(player.play_games(stop) for player in players))
        left: Counter[int] = Counter()
        for player in players:
            if player.game_ids:
                path = f"/api/v1/games/{player.game_ids[-1]}/leave/"
                left[(await http.post(path, headers=player.headers)).status_code] += 1
    statuses: Counter[int] = sum((player.statuses for player in players), Counter())
    return {
        "longest": max(sample for player in players for sample in player.latencies),
        "moves": sum(statuses.values()),
        "not 2xx": {status: n for status, n in statuses.items() if not 200 <= status < 300},
        "reconnects": sum(player.reconnects for player in players),
        "left": dict(left),
        "games": [game_id for player in players for game_id in player.game_ids],
    }


def wait_finished(ids: list[str], server: Server, crashes: list[str], fault: str) -> None:
    began = time.monotonic()
    while active(ids) and time.monotonic() - began < 600:
        print(f"  {active(ids)} games still active", flush=True)
        time.sleep(5)
        supervise(server, crashes, fault)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--outage", type=float, default=5.0, help="seconds each fault lasts")
    parser.add_argument("--clients", type=int, default=64, help="players during the pause")
    parser.add_argument("--pause", type=float, default=10.0, help="seconds Redis is paused")
    args = parser.parse_args()

    if not BENCH_REDIS.is_running():
        BENCH_REDIS.start()
    setup_django(ENV)
    abort_leftovers()
    from bench._server import running_server, stop

    figures: list[tuple[str, str]] = []
    crashes: list[str] = []
    with running_server(args.port, beat=True, env_extra=ENV) as server:
        ids = create_games(args.games, args.players)
        print(
            f"{len(ids)} ranked games of {args.players} idle players, turn limit {TURN_SECONDS} s",
            flush=True,
        )
        figures.append(
            (
                "steady state: overdue games cleared in (s)",
                f"{recovery_seconds(ids, time.monotonic()):.1f}",
            )
        )

        print("(a) SIGKILL the worker ...", flush=True)
        os.killpg(server.processes["worker"].pid, signal.SIGKILL)
        time.sleep(args.outage)
        server.restart("worker", worker_command())
        since = time.monotonic()
        figures.append(
            (
                "(a) worker killed: recovered after restart in (s)",
                f"{recovery_seconds(ids, since):.1f}",
            )
        )

        print("(b) restart Redis ...", flush=True)
        BENCH_REDIS.stop()
        time.sleep(args.outage)
        BENCH_REDIS.start()
        since = time.monotonic()
        time.sleep(2)
        supervise(server, crashes, "redis")
        figures.append(
            ("(b) Redis restarted: recovered in (s)", f"{recovery_seconds(ids, since):.1f}")
        )

        print("(c) drop every database connection ...", flush=True)
        dropped = drop_database_connections()
        since = time.monotonic()
        time.sleep(2)
        supervise(server, crashes, "db")
        figures.append(
            (
                f"(c) {dropped} DB connections dropped: recovered in (s)",
                f"{recovery_seconds(ids, since):.1f}",
            )
        )

        print("waiting for every game to finish ...", flush=True)
        wait_finished(ids, server, crashes, "late")
        for name, count in check_games(ids).items():
            figures.append((name, str(count)))
        abort_leftovers(ids)

        print(f"(d) pause Redis {args.pause:g} s under {args.clients} human-pace clients ...")
        stall = asyncio.run(redis_paused_under_play(server.url, args.clients, args.pause))
        supervise(server, crashes, "pause")
        print(f"  {stall['moves']} moves; waiting for the tables left to the CPU ...", flush=True)
        wait_finished(stall["games"], server, crashes, "pause")
        figures.append(
            (
                f"(d) Redis paused {args.pause:g} s: longest move answer (s)",
                f"{stall['longest']:.2f}",
            )
        )
        not_2xx = ", ".join(f"{n} x {status}" for status, n in sorted(stall["not 2xx"].items()))
        figures.append((f"(d) moves not 2xx, of {stall['moves']}", not_2xx or "0"))
        figures.append(("(d) sockets reopened by clients", str(stall["reconnects"])))
        for name, count in check_games(stall["games"]).items():
            figures.append((f"(d) {name}", str(count)))
        abort_leftovers(stall["games"])
        figures.append(("worker crashes (restarted by the bench)", ", ".join(crashes) or "none"))
        stop(server.processes["beat"])
    BENCH_REDIS.stop()

    print("\n| measure | value |\n|---|---|")
    for name, value in figures:
        print(f"| {name} | {value} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
