"""Moves over HTTP under load (issue: games over REST and websockets).

N concurrent clients (default 64) each play private games against a CPU seat, as a real
client does: they listen on the game's websocket and POST their move when it is their turn.
Two loads:
- flat out: every client moves the moment its turn arrives. This measures capacity (moves/s,
  next to `GET /healthz` from as many clients: the ceiling). In such a closed loop the clients
  always wait somewhere, so latency there is a queue: N clients / throughput (Little's law).
- at a human pace: each client thinks 1-3 s (uniform) before its move, as people do. This
  measures the latency a player gets.
For each: moves/s, the p50/p95/p99 latency of `POST .../actions/`, and the reply time (from
sending a move to the socket bringing the CPU's answer). Samples of the first seconds, while
64 tables are being set up, are left out (`--warmup`). Last, the latency of one table's moves
early in a game and after 500 moves, to show it does not grow with game length.

    python -m bench.api_moves [--clients 64] [--seconds 30] [--url http://host:port]
                              [--languages en,he]

With `--languages`, the two loads run once per language named (every request's
`Accept-Language`), in one run on one server; a language named twice runs twice
(`en,he,he,en` cancels the machine's drift), and a last table compares the server CPU per move,
summed over each language's runs (docs/languages.md:
Hebrew may cost at most 5% over English).

Without --url it starts the server itself (uvicorn with 2 workers + a Celery worker) on the
servers of DATABASE_URL / REDIS_URL, as `make bench` sets them, with the per-player and
guest-creation rate limits raised: this measures capacity, not the abuse limits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import ssl
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench._server import Server, abort_games, cpu_seconds, serving, setup_django
from bench._sockets import is_game, keep_alive
from games.engine.cards import VALUE

# Idle connections are dropped by the client before uvicorn's keep-alive timeout (5 s) can
# close one under a request being sent on it (httpx's default is the same 5 s: a race).
KEEPALIVE = 2.0
LIMITS = {"THROTTLE_RATE_PLAYER": "100000/min", "THROTTLE_RATE_GUEST_CREATE": "100000/hour"}
# One TLS context for every client (each would load the CA bundle again); plain HTTP here.
_TLS = ssl.create_default_context()


def player_client(url: str, headers: dict[str, str] | None = None) -> httpx.AsyncClient:
    """An HTTP client of one simulated player's own, as each real player has. One httpx client
    shared by 64 players costs three times the CPU a request (4 ms against 1.4: its pool is
    searched and locked for each), which made the load generator the largest user of the two
    cores flat out (bench/README.md, "The lean path and the load generator")."""
    limits = httpx.Limits(max_connections=2, keepalive_expiry=KEEPALIVE)
    return httpx.AsyncClient(base_url=url, limits=limits, timeout=30, headers=headers, verify=_TLS)


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    if len(samples) < 2:
        value = samples[0] if samples else float("nan")
        return value, value, value
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[94], cuts[98]


def move_for(game: dict[str, Any]) -> dict[str, Any]:
    you = game["you"]
    if you["can_call_yaniv"]:
        return {"seq": game["seq"], "type": "yaniv"}
    card = max(you["hand"], key=VALUE.__getitem__)
    return {"seq": game["seq"], "type": "play", "cards": [card], "draw": "stock"}


async def guest(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    response = await http.post("/api/v1/auth/guest/", json={"display_name": name})
    response.raise_for_status()
    return {"Authorization": f"Bearer {response.json()['token']}"}


async def healthz_ceiling(url: str, clients: int, seconds: float) -> dict[str, Any]:
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def hammer(http: httpx.AsyncClient) -> None:
        while time.monotonic() < stop:
            started = time.perf_counter()
            response = await http.get("/healthz")
            latencies.append(time.perf_counter() - started)
            response.raise_for_status()

    async with contextlib.AsyncExitStack() as stack:
        https = [await stack.enter_async_context(player_client(url)) for _ in range(clients)]
        begun = time.monotonic()
        await asyncio.gather(*(hammer(http) for http in https))
        elapsed = time.monotonic() - begun
    return {
        "requests": len(latencies),
        "done": len(latencies),
        "rate": len(latencies) / elapsed,
        "lat": latencies,
    }


class Player:
    def __init__(
        self, url: str, http: httpx.AsyncClient, headers: dict[str, str], think: float
    ) -> None:
        self.url, self.http, self.headers, self.think = url, http, headers, think
        self.latencies: list[float] = []
        self.replies: list[float] = []
        self.errors = 0
        self.statuses: Counter[int] = Counter()  # of every move's answer
        self.stalls = 0
        self.reconnects = 0
        self.moves = 0  # warm-up included
        self.measure_from = 0.0
        self.game_ids: list[str] = []

    async def play_games(self, stop: float) -> None:
        while time.monotonic() < stop:
            created = await self.http.post(
                "/api/v1/games/", json={"max_players": 2}, headers=self.headers
            )
            created.raise_for_status()  # a table left active (409 in_game) stops the run here
            game = created.json()
            self.game_ids.append(game["id"])
            added = await self.http.post(f"/api/v1/games/{game['id']}/cpu/", headers=self.headers)
            added.raise_for_status()
            await self.play(game["id"], stop)

    async def play(self, game_id: str, stop: float) -> None:
        resume = False
        while time.monotonic() < stop:
            try:
                await self.play_on_socket(game_id, stop, resume=resume)
                return
            except (ConnectionClosed, InvalidHandshake):
                # What a client does when its socket drops (the server lost Redis): reopen it.
                self.reconnects += 1
                resume = True
                await asyncio.sleep(1)

    async def play_on_socket(self, game_id: str, stop: float, *, resume: bool) -> None:
        ws_url = self.url.replace("http", "ws", 1) + f"/ws/v1/games/{game_id}/"
        async with connect(ws_url, additional_headers=self.headers) as socket:
            keep_alive(socket)
            if not resume:
                await socket.recv()  # the waiting table
                url = f"/api/v1/games/{game_id}/start/"
                started = await self.http.post(url, headers=self.headers)
                started.raise_for_status()
            acted_at, sent_at = -1, 0.0
            while time.monotonic() < stop:
                try:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 5))
                    if not is_game(message):
                        continue  # a keep-alive's pong
                    await self.pushed(game_id, message)
                    game = message["game"]
                except TimeoutError:
                    # What a client does when the socket is quiet too long: ask.
                    self.stalls += 1
                    url = f"/api/v1/games/{game_id}/"
                    game = (await self.http.get(url, headers=self.headers)).json()
                if game["status"] != "active":
                    return  # finished: the next game
                mine = game["turn"] and game["turn"]["seat"] == game["you"]["seat"]
                if not mine or game["seq"] <= acted_at:
                    continue
                if sent_at > self.measure_from:
                    self.replies.append(time.perf_counter() - sent_at)
                if self.think:
                    await asyncio.sleep(random.uniform(self.think / 2, self.think * 1.5))
                acted_at = game["seq"]
                sent_at = time.perf_counter()
                status, timed = await self.move(game_id, game)
                self.moves += 1
                self.statuses[status] += 1
                if not timed:
                    sent_at = 0.0  # nor is the reply to it
                elif sent_at > self.measure_from:
                    self.latencies.append(time.perf_counter() - sent_at)
                if status != 200:
                    self.errors += 1
                    acted_at = -1  # not applied: try again at the next view of the game
        # Stopped mid-game: the table is left as it is (see bench._server.abort_games).

    async def pushed(self, game_id: str, message: dict[str, Any]) -> None:
        """Each message of a game's socket, as it arrives (for a bench that checks them)."""

    async def move(self, game_id: str, game: dict[str, Any]) -> tuple[int, bool]:
        """Send the move for this view of the game: its answer's status, and whether the move
        is one to time (a bench's probe of the contract, several requests, is not)."""
        response = await self.http.post(
            f"/api/v1/games/{game_id}/actions/", json=move_for(game), headers=self.headers
        )
        return response.status_code, True


async def moves_under_load(
    url: str,
    clients: int,
    seconds: float,
    *,
    think: float = 0.0,
    warmup: float = 5.0,
    kind: type[Player] = Player,
    language: str | None = None,
) -> dict[str, Any]:
    """`clients` players (of class `kind`) playing for `warmup` + `seconds`; their figures,
    and (`players`) the players themselves. With `language`, every request (the guests'
    creation included, so their pushes too) asks for it in `Accept-Language`."""
    headers = {} if language is None else {"Accept-Language": language}
    async with contextlib.AsyncExitStack() as stack:
        https = [
            await stack.enter_async_context(player_client(url, headers)) for _ in range(clients)
        ]
        players = [
            kind(url, http, await guest(http, f"bench{i}"), think) for i, http in enumerate(https)
        ]
        begun = time.monotonic()
        for player in players:
            player.measure_from = time.perf_counter() + warmup
        await asyncio.gather(*(p.play_games(begun + warmup + seconds) for p in players))
    latencies = [sample for p in players for sample in p.latencies]
    return {
        "requests": len(latencies),
        "done": sum(p.moves for p in players),
        "rate": len(latencies) / seconds,
        "lat": latencies,
        "replies": [sample for p in players for sample in p.replies],
        "errors": sum(p.errors for p in players),
        "stalls": sum(p.stalls for p in players),
        "games": [game_id for p in players for game_id in p.game_ids],
        "players": players,
    }


async def latency_by_length(url: str, moves: int) -> tuple[str, dict[int, list[float]]]:
    """One two-player table of humans whose game cannot end quickly (Yaniv only at 0)."""
    by_move: dict[int, list[float]] = {}
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        host, other = await guest(http, "long-a"), await guest(http, "long-b")
        rules = {"call_limit": 0, "ending": "out_over_200"}
        game = (
            await http.post("/api/v1/games/", json={"max_players": 2, "rules": rules}, headers=host)
        ).json()
        await http.post(
            f"/api/v1/games/{game['id']}/join/",
            json={"invite_code": game["invite_code"]},
            headers=other,
        )
        game = (await http.post(f"/api/v1/games/{game['id']}/start/", headers=host)).json()
        players = {0: host, 1: other}
        views = {0: game}
        for move in range(1, moves + 1):
            turn = views[0]["turn"]["seat"]
            view = (await http.get(f"/api/v1/games/{game['id']}/", headers=players[turn])).json()
            started = time.perf_counter()
            response = await http.post(
                f"/api/v1/games/{game['id']}/actions/", json=move_for(view), headers=players[turn]
            )
            by_move[move] = [time.perf_counter() - started]
            response.raise_for_status()
            views[0] = response.json()
            if views[0]["status"] != "active":
                break
    return game["id"], by_move


@contextmanager
def cpu_used(server: Server, into: dict[str, dict[str, float]], key: str) -> Iterator[None]:
    before = cpu_seconds(server)
    yield
    after = cpu_seconds(server)
    into[key] = {part: after[part] - before.get(part, 0.0) for part in after}


def row(name: str, result: dict[str, Any], key: str = "lat") -> str:
    p50, p95, p99 = (1000 * value for value in percentiles(result[key]))
    count, rate = len(result[key]), result["rate"]
    return f"| {name} | {count} | {rate:.0f} | {p50:.1f} | {p95:.1f} | {p99:.1f} |"


def window(by_move: dict[int, list[float]], low: int, high: int) -> str:
    samples = [s * 1000 for m, values in by_move.items() if low <= m <= high for s in values]
    if not samples:
        return f"| moves {low}-{high} | (game ended before) | | |"
    p50, p95, _ = percentiles(samples)
    return f"| moves {low}-{high} | {len(samples)} | {p50:.1f} | {p95:.1f} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30, help="measured, per load")
    parser.add_argument("--warmup", type=float, default=10, help="not measured, per load")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, human pace")
    parser.add_argument("--long-moves", type=int, default=520)
    parser.add_argument("--url", help="an already running server (default: start one)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--languages", default="", help="e.g. en,he: both loads in each (Accept-Language)"
    )
    args = parser.parse_args()
    languages = [code for code in args.languages.split(",") if code] or [None]
    # Tables left unfinished are ended between loads, when the database is ours to reach.
    # (possible only on the bench's own server: it shares the database).
    tidy = abort_games if args.url is None else (lambda ids: None)
    if args.url is None:
        setup_django()

    n, seconds = args.clients, args.seconds
    cpu: dict[str, dict[str, float]] = {}
    with serving(args.url, args.port, LIMITS) as server:
        url = server.url
        print(f"healthz ceiling: {n} clients for {seconds:.0f} s ...", flush=True)
        with cpu_used(server, cpu, "healthz"):
            ceiling = asyncio.run(healthz_ceiling(url, n, seconds))
        # (label, language, flat, paced); a language named twice runs twice ("he 2").
        loads: list[tuple[str, str | None, dict[str, Any], dict[str, Any]]] = []
        for index, language in enumerate(languages):
            times = languages[:index].count(language)
            label = "" if language is None else f" ({language}{f' {times + 1}' if times else ''})"
            said = "" if language is None else f", Accept-Language: {language}"
            print(f"moves flat out: {n} clients vs CPU seats{said}, ...", flush=True)
            with cpu_used(server, cpu, f"flat{label}"):
                flat = asyncio.run(
                    moves_under_load(url, n, seconds, warmup=args.warmup, language=language)
                )
            tidy(flat["games"])
            print(
                f"moves at a human pace: {n} clients thinking {args.think / 2:g}-"
                f"{args.think * 1.5:g} s{said}, {args.warmup:.0f}+{seconds:.0f} s ...",
                flush=True,
            )
            with cpu_used(server, cpu, f"paced{label}"):
                paced = asyncio.run(
                    moves_under_load(
                        url, n, seconds, think=args.think, warmup=args.warmup, language=language
                    )
                )
            tidy(paced["games"])
            loads.append((label, language, flat, paced))
        print(f"one long game: {args.long_moves} moves ...", flush=True)
        long_game, by_move = asyncio.run(latency_by_length(url, args.long_moves))
        tidy([long_game])

    print("\n| load | what | samples | per second | p50 ms | p95 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|")
    print(row(f"{n} clients flat out | GET /healthz (ceiling)", ceiling))
    for said, _language, flat, paced in loads:
        print(row(f"{n} clients flat out{said} | POST .../actions/", flat))
        print(row(f"{n} clients flat out{said} | reply (move to CPU's answer)", flat, "replies"))
        print(row(f"{n} clients, human pace{said} | POST .../actions/", paced))
        print(
            row(f"{n} clients, human pace{said} | reply (move to CPU's answer)", paced, "replies")
        )
    for said, _language, flat, paced in loads:
        share = 100 * flat["rate"] / ceiling["rate"]
        print(f"\nflat out{said}: move throughput = {share:.0f}% of the healthz ceiling")
        for name, result in (("flat out", flat), ("human pace", paced)):
            print(
                f"{name}{said}: {result['errors']} non-200 moves; "
                f"{result['stalls']} quiet sockets (5 s, refetched)"
            )
    print("\nCPU time per request (healthz) or per move, by process, in ms (warm-up included):")
    parts = list(cpu["healthz"])
    print(f"| load | {' | '.join(parts)} | all |")
    print("|---" * (len(parts) + 2) + "|")
    measured = [("GET /healthz, flat out", "healthz", ceiling)]
    # Server CPU (every process but the clients) and moves, per language and load, summed
    # over a language's runs: alternating runs (en,he,he,en) cancel the machine's drift.
    spent: dict[tuple[str | None, str], list[float]] = {}
    for said, language, flat, paced in loads:
        for load, key, result in (("flat", f"flat{said}", flat), ("paced", f"paced{said}", paced)):
            name = "flat out" if load == "flat" else "human pace"
            measured.append((f"moves, {name}{said}", key, result))
            total = spent.setdefault((language, load), [0.0, 0])
            total[0] += sum(v for k, v in cpu[key].items() if k != "clients")
            total[1] += result["done"]
    for name, key, result in measured:
        by_part = cpu[key]
        count = max(1, result["done"])
        cells = [f"{1000 * by_part[part] / count:.1f}" for part in parts]
        all_parts = 1000 * sum(by_part.values()) / count
        print(f"| {name} | " + " | ".join(cells) + f" | {all_parts:.1f} |")
    distinct = list(dict.fromkeys(languages))
    if len(distinct) > 1:
        first = distinct[0]
        print(
            f"\n| language | runs | server CPU per move, flat out / human pace (ms) | vs {first} |"
            "\n|---|---|---|---|"
        )
        for language in distinct:
            costs = {
                load: 1000 * used / max(1, moves)
                for (lang, load), (used, moves) in spent.items()
                if lang == language
            }
            base = {
                load: 1000 * used / max(1, moves)
                for (lang, load), (used, moves) in spent.items()
                if lang == first
            }
            change = " / ".join(
                f"{100 * (costs[load] / base[load] - 1):+.1f}%" for load in ("flat", "paced")
            )
            print(
                f"| {language} | {languages.count(language)} | "
                f"{costs['flat']:.2f} / {costs['paced']:.2f} | {change} |"
            )
    print("\n| game length | moves | p50 ms | p95 ms |\n|---|---|---|---|")
    print(window(by_move, 1, 20))
    print(window(by_move, 250, 270))
    print(window(by_move, 500, 520))
    return 0


if __name__ == "__main__":
    sys.exit(main())
