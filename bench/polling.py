"""Players polling their games, as a studio would try it with Locust (issue 20).

For each player count (default 100, 300 and 1,000) it runs Locust headless, with `--processes`
(one load generator process per core by default), against the server as `make run` serves it:
uvicorn with WEB_CONCURRENCY processes (the cores), a Celery worker and beat. Each player is a
guest at a private table against one CPU seat, reads its game about once a second and moves
after a human think time (1-3 s) when it is its turn (bench/_polling_player.py). It reads
with `If-None-Match`, as a good client does, so that an unchanged game is a 304 with no body;
`--no-conditional` reads without it (every read a 200 with the game), as before. The players
arrive at `--spawn-rate` a second; figures are taken from when all have arrived (Locust's
`--reset-stats`) for `--seconds`: requests/s, the p50/p99 of the GET and the p50/p95/p99 of
the move (Locust's figures: times rounded to 1 ms below 100 ms, to 10 ms below 1 s), failures
(any answer that is not 2xx or 304), the share of the GETs the server answered 304 (its own
count, from its /metrics), and the CPU of the server (web, worker, beat, its
PostgreSQL and Redis), of the load generator, and of the rest of the machine, each in % of
one core.

    python -m bench.polling [--players 100,300,1000] [--seconds 60] [--spawn-rate 50]
                            [--no-conditional]

It runs on the servers of DATABASE_URL / REDIS_URL, as `make bench` sets them, with the
per-player and guest-creation limits raised as bench.api_moves does (capacity, not the abuse
limits).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench._server import (
    BIN,
    ROOT,
    Server,
    busy_seconds,
    cpu_of,
    cpu_seconds,
    metric_samples,
    process_tree,
    running_server,
    setup_django,
    spawn,
    stop,
)
from bench.api_moves import LIMITS

GET, MOVE = "GET /games/{id}/", "POST /games/{id}/actions/"
SPAWNED = ("All users spawned", "Spawning is complete")  # Locust's log, once all have arrived
STOPPED = "stopping test"  # Locust's log, when the master ended the run itself (a lost worker)


def percentile(times: dict[str, int], fraction: float) -> float:
    """The response time (ms) below which `fraction` of Locust's histogram (`response_times`:
    rounded ms -> count) lies."""
    total = sum(times.values())
    seen = 0
    for value in sorted(times, key=float):
        seen += times[value]
        if seen >= fraction * total:
            return float(value)
    return float("nan")


def summary(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Locust's JSON stats (one entry per request name) as the table's figures."""
    by_name = {entry["name"]: entry for entry in entries}
    began = min(entry["start_time"] for entry in entries)
    ended = max(entry["last_request_timestamp"] or began for entry in entries)
    get, move = by_name.get(GET), by_name.get(MOVE)

    def cuts(entry: dict[str, Any] | None, fractions: tuple[float, ...]) -> list[float]:
        if entry is None:
            return [float("nan")] * len(fractions)
        return [percentile(entry["response_times"], fraction) for fraction in fractions]

    return {
        "requests": sum(entry["num_requests"] for entry in entries),
        "rate": sum(entry["num_requests"] for entry in entries) / max(ended - began, 1e-9),
        "failures": sum(entry["num_failures"] for entry in entries),
        "get": cuts(get, (0.5, 0.99)),
        "move": cuts(move, (0.5, 0.95, 0.99)),
        "moves": move["num_requests"] if move else 0,
    }


def game_reads(url: str) -> dict[str, float]:
    """The server's count of its answers to `GET /games/{id}/`, by status (its /metrics:
    loopback clients may read it)."""
    found: dict[str, float] = {}
    for sample in metric_samples(url, "yaniv_http_requests_total"):
        labels = sample.labels
        if labels["route"] == "/api/v1/games/{game_id}/" and labels["method"] == "GET":
            found[labels["status"]] = found.get(labels["status"], 0.0) + sample.value
    return found


def not_modified_share(before: dict[str, float], after: dict[str, float]) -> float:
    """The share of the GETs between two counts that were answered 304."""
    gained = {status: after[status] - before.get(status, 0.0) for status in after}
    total = sum(gained.values())
    return gained.get("304", 0.0) / total if total else float("nan")


def wait_spawned(log: Path, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"locust exited ({process.returncode}): see {log}")
        if any(line in log.read_text(errors="replace") for line in SPAWNED):
            return
        time.sleep(0.2)
    raise RuntimeError(f"locust did not spawn its users within {timeout:.0f} s: see {log}")


def tidy() -> None:
    """End the tables of the players of a run (this one's, or one interrupted before)."""
    from games.models import Game, GameStatus

    Game.objects.filter(status=GameStatus.ACTIVE, seats__player__display_name="polling").update(
        status=GameStatus.ABORTED, turn_deadline=None
    )


def level(server: Server, players: int, args: argparse.Namespace) -> dict[str, Any]:
    """One player count: Locust until all have arrived, then `args.seconds` measured."""
    name = f"locust-{players}"
    report = ROOT / "var" / f"bench-polling-{players}.json"
    report.unlink(missing_ok=True)
    ramp = players / args.spawn_rate
    command = [
        str(BIN / "locust"),
        "-f",
        str(ROOT / "bench" / "_polling_player.py"),
        "--headless",
        "--processes",
        str(args.processes),
        "--users",
        str(players),
        "--spawn-rate",
        str(args.spawn_rate),
        "--run-time",
        f"{ramp + args.seconds + 120:.0f}s",  # a bound: it is stopped sooner (below)
        "--host",
        server.url,
        "--reset-stats",
        "--only-summary",
    ]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "YANIV_POLLING_REPORT": str(report),
        "YANIV_POLLING_CONDITIONAL": "1" if args.conditional else "0",
    }
    locust = spawn(name, command, env)
    log = ROOT / "var" / f"bench-{name}.log"
    try:
        wait_spawned(log, locust, timeout=3 * ramp + 60)
        reads = game_reads(server.url)
        before, generator, machine = (
            cpu_seconds(server),
            cpu_of(process_tree(locust.pid)),
            busy_seconds(),
        )
        time.sleep(args.seconds)
        after = cpu_seconds(server)
        share = not_modified_share(reads, game_reads(server.url))
        generator = cpu_of(process_tree(locust.pid)) - generator
        machine = busy_seconds() - machine
        stopped = STOPPED in log.read_text(errors="replace")
        os.kill(locust.pid, signal.SIGTERM)  # stops the run: the master writes the report
        locust.wait(60)
    finally:
        stop(locust)
    served = sum(after[part] - before[part] for part in after if part != "clients")
    written = json.loads(report.read_text())
    figures = summary(written["stats"])
    figures.update(
        errors=sorted(written["errors"].values(), key=lambda error: -error["occurrences"]),
        players=players,
        not_modified=share,
        server=100 * served / args.seconds,
        generator=100 * generator / args.seconds,
        rest=100 * max(0.0, machine - served - generator) / args.seconds,
        saturated="CPU usage above" in log.read_text(errors="replace"),
        stopped=stopped,
    )
    return figures


def row(figures: dict[str, Any]) -> str:
    get = "/".join(f"{value:.0f}" for value in figures["get"])
    move = "/".join(f"{value:.0f}" for value in figures["move"])
    generator = f"{figures['generator']:.0f}%" + (" (saturated)" if figures["saturated"] else "")
    void = " (void: Locust stopped the run early, see its log)" if figures["stopped"] else ""
    cells = [
        f"{figures['players']:,}{void}",
        f"{figures['rate']:.0f}",
        get,
        f"{100 * figures['not_modified']:.0f}%",
        move,
        f"{figures['moves']:,}",
        f"{figures['failures']:,} of {figures['requests']:,}",
        f"{figures['server']:.0f}%",
        generator,
        f"{figures['rest']:.0f}%",
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> int:
    cores = len(os.sched_getaffinity(0))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="100,300,1000", help="player counts, one row each")
    parser.add_argument("--seconds", type=float, default=60, help="measured, per player count")
    parser.add_argument("--spawn-rate", type=float, default=50, help="players arriving a second")
    parser.add_argument("--processes", type=int, default=cores, help="load generator processes")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument(
        "--conditional",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="poll with If-None-Match (304 while the game is unchanged); on by default",
    )
    args = parser.parse_args()
    webs = int(os.environ.get("WEB_CONCURRENCY") or cores)
    setup_django()
    tidy()
    began = time.monotonic()
    rows: list[str] = []
    void = False
    failures: list[str] = []
    with running_server(args.port, web_workers=webs, beat=True, env_extra=LIMITS) as server:
        for players in (int(count) for count in args.players.split(",")):
            print(
                f"{players:,} polling players: arriving at {args.spawn_rate:g}/s, "
                f"then {args.seconds:.0f} s measured ...",
                flush=True,
            )
            figures = level(server, players, args)
            void |= figures["stopped"]
            rows.append(row(figures))
            print(rows[-1], flush=True)
            for error in figures["errors"][:3]:
                failures.append(
                    f"{players:,} players: {error['occurrences']:,} x "
                    f"{error['name']}: {error['error']}"
                )
                print(f"  {failures[-1]}", flush=True)
            tidy()
    print(
        f"\n{webs} web processes, 1 Celery worker (4 processes) and beat; "
        f"{args.processes} Locust processes; {cores} cores; polls "
        f"{'with' if args.conditional else 'without'} If-None-Match; "
        f"{time.monotonic() - began:.0f} s in all. Times in ms; CPU in % of one core."
    )
    print(
        "\n| players | requests/s | GET p50/p99 | GETs 304 | move p50/p95/p99 | moves "
        "| failures | server CPU | generator CPU | rest of machine |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if failures:
        print("\nmost frequent failures:\n" + "\n".join(failures))
    return 1 if void else 0


if __name__ == "__main__":
    sys.exit(main())
