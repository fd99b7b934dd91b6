"""What a poll of a game costs the server: `GET /api/v1/games/{id}/` answered 200 (the game
built) against 304 (`If-None-Match` with the ETag the client holds: docs/api.md, Polling a
game), one client asking again and again over one connection, nothing moving in the game.

For each answer: the CPU the web process spends per request (and PostgreSQL's, Redis'), the
p50 and p99 of the time to the answer, and the requests a second of the one client. The web
server is one uvicorn process (or Granian's: `--asgi`), so its CPU per request is the cost of
one read; rounds of each answer alternate, and each figure is the best round's (the least
disturbed by the rest of the machine).

    python -m bench.game_reads [--requests 1000] [--rounds 3] [--seats 2] [--asgi uvicorn,granian]

`--asgi` names the ASGI servers to compare (bench/README.md, "The ASGI server"): a web process
under each on the same database, Redis and Celery worker, the rounds alternating between them,
so that the machine's drift falls on both alike.

It runs on the servers of DATABASE_URL / REDIS_URL, as `make bench` sets them, with the
per-player limit raised as bench.api_moves does.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from bench._server import (
    ASGI_SERVERS,
    Server,
    abort_games,
    asgi_server,
    cpu_seconds,
    running_server,
    setup_django,
    spawn,
    stop,
    wait_healthy,
    web_command,
)
from bench.api_moves import LIMITS


def table(client: httpx.Client, seats: int) -> tuple[str, dict[str, str]]:
    """A guest's started table against CPUs, waiting for the guest's move (nothing moves while
    it waits: a private table has no turn limit)."""
    guest = client.post("/api/v1/auth/guest/", json={"display_name": "reads"}).json()
    headers = {"Authorization": f"Bearer {guest['token']}"}
    game = client.post("/api/v1/games/", json={"max_players": seats}, headers=headers).json()
    for _ in range(seats - 1):
        client.post(f"/api/v1/games/{game['id']}/cpu/", headers=headers).raise_for_status()
    client.post(f"/api/v1/games/{game['id']}/start/", headers=headers).raise_for_status()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the CPUs' first moves, when they start
        game = client.get(f"/api/v1/games/{game['id']}/", headers=headers).json()
        if game["turn"]["seat"] == game["you"]["seat"]:
            return game["id"], headers
        time.sleep(0.05)
    raise RuntimeError("the CPUs did not hand the turn over within 30 s")


def round_of(
    server: Server, client: httpx.Client, path: str, headers: dict[str, str], count: int
) -> dict[str, Any]:
    times = []
    before = cpu_seconds(server)
    for _ in range(count):
        started = time.perf_counter()
        response = client.get(path, headers=headers)
        times.append(time.perf_counter() - started)
        if response.status_code not in (200, 304):
            raise RuntimeError(f"GET {path}: {response.status_code} {response.text[:200]}")
    after = cpu_seconds(server)
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return {
        "status": response.status_code,
        "bytes": len(response.content),
        **{part: (after[part] - before[part]) / count for part in ("web", "postgres", "redis")},
        "p50": cuts[49],
        "p99": cuts[98],
        "rate": count / sum(times),
    }


@contextmanager
def beside(server: Server, asgi: str, port: int) -> Iterator[Server]:
    """A second web process of one worker under the ASGI server `asgi`, on `server`'s database,
    Redis and Celery worker, until the block ends."""
    process = spawn(f"web-{asgi}", web_command(port, 1, server=asgi), server.env)
    other = Server(f"http://127.0.0.1:{port}", server.env, {"web": process})
    try:
        wait_healthy(other.url)
        yield other
    finally:
        stop(process)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000, help="per round")
    parser.add_argument("--rounds", type=int, default=3, help="of each answer, alternating")
    parser.add_argument("--seats", type=int, default=2, help="the table's seats (CPUs but one)")
    parser.add_argument("--port", type=int, default=8767)
    parser.add_argument(
        "--asgi",
        default="",
        help="e.g. uvicorn,granian: a web process under each, the rounds alternating between"
        " them (default: the one of BENCH_ASGI)",
    )
    args = parser.parse_args()
    names = [name for name in args.asgi.split(",") if name] or [asgi_server()]
    if not set(names) <= set(ASGI_SERVERS) or len(set(names)) < len(names):
        raise SystemExit(f"--asgi {args.asgi}: distinct names of {', '.join(ASGI_SERVERS)}")
    setup_django()
    best: dict[tuple[str, str], dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        first = stack.enter_context(
            running_server(args.port, web_workers=1, env_extra=LIMITS, asgi=names[0])
        )
        servers = {names[0]: first}
        for offset, name in enumerate(names[1:], start=1):
            servers[name] = stack.enter_context(beside(first, name, args.port + offset))
        clients = {
            name: stack.enter_context(httpx.Client(base_url=server.url, timeout=30))
            for name, server in servers.items()
        }
        game_id, headers = table(clients[names[0]], args.seats)
        path = f"/api/v1/games/{game_id}/"
        etag = clients[names[0]].get(path, headers=headers).headers["ETag"]
        asks = {"200": headers, "304": {**headers, "If-None-Match": etag}}
        for name, server in servers.items():
            for ask in asks.values():
                round_of(server, clients[name], path, ask, min(args.requests, 200))  # warm up
        for _ in range(args.rounds):
            for name, server in servers.items():
                for answer, ask in asks.items():
                    figures = round_of(server, clients[name], path, ask, args.requests)
                    if figures["status"] != int(answer):
                        raise RuntimeError(f"asked for a {answer}, answered {figures['status']}")
                    key = (name, answer)
                    if key not in best or figures["web"] < best[key]["web"]:
                        best[key] = figures
        abort_games([game_id])
    print(
        f"\n1 web process ({', '.join(names)}), one client, {args.rounds} rounds of"
        f" {args.requests:,} requests of each answer, a table of {args.seats}; the best round of"
        " each. CPU per request in ms of one core; times in ms."
    )
    print(
        "\n| server | answer | body bytes | web CPU | PostgreSQL CPU | Redis CPU | p50 | p99"
        " | requests/s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for (name, answer), figures in best.items():
        cells = [
            name,
            answer,
            f"{figures['bytes']:,}",
            *(f"{1000 * figures[part]:.2f}" for part in ("web", "postgres", "redis")),
            f"{1000 * figures['p50']:.1f}",
            f"{1000 * figures['p99']:.1f}",
            f"{figures['rate']:.0f}",
        ]
        print("| " + " | ".join(cells) + " |")
    for name in names:
        saved = 1 - best[name, "304"]["web"] / best[name, "200"]["web"]
        print(f"\n{name}: a 304 costs the web process {100 * saved:.0f}% less CPU than a 200.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
