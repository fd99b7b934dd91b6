"""Flame graphs of the move path under flat-out load (issue 34), with py-spy.

The server `bench.api_moves` starts (uvicorn with 2 workers, a Celery worker), 64 clients
playing CPU seats flat out as its first load does. After the warm-up, py-spy samples the web
server (the uvicorn master and its workers) and the Celery worker (its master and its pool's
children) at the same time: first as collapsed stacks, for the table of layers this prints,
then as flame graphs. Not part of `make bench` (`_`: it rewrites the committed graphs).

    .venv/bin/python -m devtools.devservers exec --fast -- \\
        .venv/bin/python -m bench._profile [--tag before] [--seconds 15] [--rate 100]

Writes the flame graphs `web-TAG.svg` and `worker-TAG.svg` under bench/profiles/ (those of
`--tag before` are bench/profiles/web-before.svg and bench/profiles/worker-before.svg), and
the collapsed stacks as var/profile-web-TAG.txt and var/profile-worker-TAG.txt (`--report`
prints the table of those again). py-spy reads the processes' memory without stopping them
(`--nonblocking`) and counts a thread only while it holds the GIL (`--gil`): its idle
detection alone counted threads waiting on PostgreSQL, Redis or epoll as busy on this loaded
machine.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections import Counter
from pathlib import Path

from bench._server import BIN, ROOT, abort_games, cpu_of, process_tree, serving, setup_django
from bench.api_moves import LIMITS, moves_under_load

PROFILES = ROOT / "bench" / "profiles"

# Each sample goes to the layer of its innermost frame that matches one of these (file path
# patterns, tried in order on each frame from the leaf up; a frame of none, the standard
# library's, leaves the sample to its caller); a Redis client's frame is named after its caller.
LAYERS: list[tuple[str, str]] = [
    ("games/engine/", "engine"),
    ("psycopg", "psycopg (driver)"),
    ("core/perf/sql", "ORM + our SQL (Python)"),
    ("django/db/", "ORM + our SQL (Python)"),
    ("core/throttles", "DRF throttles"),
    ("core/perf/celery", "Celery/kombu"),
    ("core/perf/channels", "channel layer"),
    ("core/perf/http", "ASGI server (uvicorn, wsproto, bridge)"),
    ("core/logs", "logging"),
    ("json/", "JSON"),
    ("orjson", "JSON"),
    ("msgpack", "msgpack"),
    ("logging/", "logging"),
    ("pythonjsonlogger", "logging"),
    ("prometheus_client", "metrics"),
    ("core/metrics", "metrics"),
    ("channels_redis/", "channel layer (Redis)"),
    ("redis/asyncio/", "channel layer (Redis)"),  # only channels_redis is async
    ("redis/", "Redis client"),
    ("channels/layers", "channel layer"),
    ("channels/", "Channels (consumers)"),
    ("rest_framework/throttling", "DRF throttles"),
    ("rest_framework/authentication", "DRF authentication"),
    ("rest_framework/parsers", "DRF parsing"),
    ("rest_framework/negotiation", "DRF negotiation/render"),
    ("rest_framework/renderers", "DRF negotiation/render"),
    ("rest_framework/serializers", "DRF serializers"),
    ("rest_framework/fields", "DRF serializers"),
    ("rest_framework/", "DRF request cycle (other)"),
    ("django/core/cache", "Django cache"),
    ("django/utils/translation", "Django translation"),
    ("django/middleware", "Django middleware"),
    ("django/contrib/", "Django middleware"),
    ("csp/", "Django middleware"),
    ("axes/", "Django middleware"),
    ("whitenoise/", "Django middleware"),
    ("django/", "Django (handler, URLs, signals)"),
    ("asgiref/", "asgiref (sync/async bridge)"),
    ("uvicorn/", "ASGI server (uvicorn, wsproto, bridge)"),
    ("httptools", "ASGI server (uvicorn, wsproto, bridge)"),
    ("wsproto", "ASGI server (uvicorn, wsproto, bridge)"),
    ("h11", "ASGI server (uvicorn, wsproto, bridge)"),
    ("uvloop", "event loop (asyncio)"),
    ("asyncio/", "event loop (asyncio)"),
    ("kombu/", "Celery/kombu"),
    ("celery/", "Celery/kombu"),
    ("billiard/", "Celery/kombu"),
    ("vine/", "Celery/kombu"),
    ("games/", "our code (games)"),
    ("core/", "our code (core)"),
    ("config/", "our code (config)"),
    ("accounts/", "our code (accounts)"),
    ("players/", "our code (players)"),
]
# Who calls Redis (innermost first): the pushes, the throttles, Celery's broker, the cache.
REDIS_CALLERS = [
    ("channels_redis/", "channel layer (Redis)"),
    ("core/perf/channels", "channel layer (Redis)"),
    ("core/throttles", "DRF throttles (Redis)"),
    ("kombu/", "Celery/kombu (Redis broker)"),
    ("django/core/cache", "Django cache (Redis)"),
]


# A move's request: GameActionApi's frames (after DRF's authentication and throttles).
MOVE_HANDLER = re.compile(r"^GameActionApi\.")
CPU_TASK = re.compile(r"^game_cpu_turn \(games/")
_FILE = re.compile(r"\(([^():]+):\d+\)$")


def layer_of(frames: list[str]) -> str:
    """The layer of one sample, its frames root first."""
    for depth in range(len(frames) - 1, -1, -1):
        match = _FILE.search(frames[depth])
        if not match:
            continue
        path = match.group(1)
        for pattern, layer in LAYERS:
            if pattern in path:
                if layer == "Redis client":
                    for frame in reversed(frames[:depth]):
                        for caller, named in REDIS_CALLERS:
                            if caller in frame:
                                return named
                return layer
        # a frame of the standard library or an unnamed package: its caller decides
    return "other (interpreter, stdlib)"


# The table's rows (issue 34's layers): a layer goes to the first row with a prefix of it.
GROUPS: list[tuple[str, tuple[str, ...]]] = [
    ("DRF (auth, throttles, parsing, serializers, render)", ("DRF",)),
    ("Django (handler, URLs, signals, translation)", ("Django (", "Django translation")),
    ("Django middleware", ("Django middleware",)),
    ("our view/service code", ("our code",)),
    ("engine", ("engine",)),
    ("ORM + our SQL layer (Python)", ("ORM",)),
    ("psycopg (client-side binding, loading)", ("psycopg",)),
    ("JSON (stdlib json)", ("JSON",)),
    ("channel layer, socket pushes (Redis)", ("channel layer", "Channels", "msgpack")),
    ("Celery/kombu (publish, consume, pool, broker)", ("Celery",)),
    ("Redis client, other", ("Redis client",)),
    ("ASGI server, event loop, asgiref", ("ASGI", "event loop", "asgiref")),
    ("logging", ("logging",)),
    ("metrics", ("metrics",)),
]


def group_of(layer: str) -> str:
    return next((row for row, prefixes in GROUPS if layer.startswith(prefixes)), layer)


def collapsed(path: Path) -> list[tuple[list[str], int]]:
    samples = []
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            samples.append((stack.split(";"), int(count)))
    return samples


def shares(samples: list[tuple[list[str], int]], within: re.Pattern[str] | None) -> Counter[str]:
    counts: Counter[str] = Counter()
    for frames, count in samples:
        if within is None or any(within.search(frame) for frame in frames):
            counts[group_of(layer_of(frames))] += count
    return counts


def table(name: str, path: Path, within: re.Pattern[str], what: str) -> None:
    samples = collapsed(path)
    every, inner = shares(samples, None), shares(samples, within)
    total, part = sum(every.values()), sum(inner.values())
    print(f"\n{name}: {total} samples; {part} ({100 * part / max(1, total):.0f}%) under {what}")
    print(f"| layer | % of {name} | % of {what} |\n|---|---|---|")
    for layer, count in every.most_common():
        inside = 100 * inner[layer] / max(1, part)
        print(f"| {layer} | {100 * count / total:.1f} | {inside:.1f} |")


async def spy(pid: int, output: Path, kind: str, args: argparse.Namespace) -> None:
    command = [str(BIN / "py-spy"), "record", "--pid", str(pid), "--subprocesses"]
    command += ["--nonblocking", "--gil", "--rate", str(args.rate)]
    command += ["--duration", str(args.seconds), "--format", kind, "--output", str(output)]
    process = await asyncio.create_subprocess_exec(*command, stderr=asyncio.subprocess.PIPE)
    _, errors = await process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"py-spy on {pid} failed: {errors.decode()}")


async def profile(url: str, pids: dict[str, int], args: argparse.Namespace) -> list[str]:
    """The load; after its warm-up, py-spy on each role at once, first as collapsed stacks
    (with the CPU time the roles used meanwhile), then as flame graphs; the games played."""
    load = asyncio.create_task(
        moves_under_load(url, args.clients, 2 * args.seconds + 5, warmup=args.warmup)
    )
    await asyncio.sleep(args.warmup)
    try:
        trees = {role: process_tree(pid) for role, pid in pids.items()}
        before = {role: cpu_of(tree) for role, tree in trees.items()}
        await asyncio.gather(
            *(spy(pid, raw_path(role, args.tag), "raw", args) for role, pid in pids.items())
        )
        for role, tree in trees.items():
            used = cpu_of(tree) - before[role]
            print(f"{role}: {used:.1f} CPU s while sampled = {used * args.rate:.0f} samples' worth")
        await asyncio.gather(
            *(
                spy(pid, PROFILES / f"{role}-{args.tag}.svg", "flamegraph", args)
                for role, pid in pids.items()
            )
        )
    finally:
        result = await load
    print(f"{result['done']} moves played, {result['errors']} non-200", flush=True)
    return list(result["games"])


def raw_path(role: str, tag: str) -> Path:
    return ROOT / "var" / f"profile-{role}-{tag}.txt"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tag", default="before", help="the files' suffix: before, after")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=int, default=15, help="sampled")
    parser.add_argument("--warmup", type=float, default=8, help="load before sampling")
    parser.add_argument("--rate", type=int, default=100, help="samples a second")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--report", action="store_true", help="only the tables, of the last run")
    args = parser.parse_args()
    if not args.report:
        setup_django()
        PROFILES.mkdir(exist_ok=True)
        with serving(None, args.port, LIMITS) as server:
            pids = {role: process.pid for role, process in server.processes.items()}
            print(f"py-spy on {pids} for {args.seconds} s after {args.warmup:g} s", flush=True)
            games = asyncio.run(profile(server.url, pids, args))
        abort_games(games)
    table("web", raw_path("web", args.tag), MOVE_HANDLER, "the move's handler (GameActionApi.post)")
    table("worker", raw_path("worker", args.tag), CPU_TASK, "game_cpu_turn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
