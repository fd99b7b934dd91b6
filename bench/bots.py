"""Bot ladder benchmark (issue 31's proof): ``python -m bench.bots [--bots 100] [--minutes 5]
[--cut-every 2] [--hard-games 300]``.

The real server (uvicorn with 2 workers, a Celery worker and beat, which runs the matchmaking
pass every second) on the servers of DATABASE_URL / REDIS_URL, and the reference bot
(examples/bot/) as separate processes, each with a bot account made over the public API
(a guest, `POST /auth/register/`, `POST /bot/upgrade/`: its first bot token).

1. **The crowd.** `--bots` reference bots with the `simple` strategy play the bots' ladder
   (`pool: bots`, tables of 2-5) for `--minutes`, as fast as the server answers them. Every
   `--cut-every` seconds the bench cuts one bot's game socket (SIGUSR1: the bot aborts the TCP
   connection, as a network failure would) and the bot resumes it with `?after=<last seq>`.
   Then each bot is told to stop (SIGTERM: it finishes the game in play and queues no more).
   Reported: games finished, errors (the bots' ERROR lines, refused moves, bots that did not
   stop; target 0), `POST .../actions/` latency as the bots measure it (p50 / p99), sockets
   cut and resumed; from the database: every game a bot sat at finished (none left active or
   aborted) and no turn played by the clock (`player_away`) in any of them, those with a cut
   included.
2. **The yardstick.** One bot with the `hard` strategy (the house CPU's `hard` level deciding
   from the API's payload, examples/bot/hard.py) plays `--hard-games` ladder games alone, so
   every table is filled with CPU levels (after YANIV_BOT_FILL_SECONDS, 1 s here instead of 10
   so that the games are not mostly waits). Reported: where it ends on `GET
   /leaderboard/?pool=bots` among the four CPU levels' fixed anchors (it should sit next to
   `CPU (hard)`).

Progress is printed as it runs; the results as tables. Traffic only to 127.0.0.1; every process
started is stopped at the end (the bots' logs stay in var/bench-bots/).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench._server import ROOT, abort_games, running_server, setup_django

ENV = {
    # Every account is made from 127.0.0.1: guest creation's limit is per address.
    "THROTTLE_RATE_GUEST_CREATE": "100000/hour",
}
HARD_FILL_SECONDS = "1"
LOGS = ROOT / "var" / "bench-bots"
DRAIN_SECONDS = 600.0  # for the games in play at the end of the crowd's time
PROGRESS_SECONDS = 15.0
MAKERS = 8  # accounts made at once


@dataclass
class Bot:
    name: str
    player_id: str
    token: str
    process: subprocess.Popen[bytes] | None = None

    @property
    def stats(self) -> Path:
        return LOGS / f"{self.name}.jsonl"

    @property
    def log(self) -> Path:
        return LOGS / f"{self.name}.log"


async def make_bot(http: httpx.AsyncClient, name: str) -> Bot:
    """A bot account over the public API: a guest, registered, upgraded; its token."""
    guest = await http.post("/api/v1/auth/guest/", json={"display_name": name})
    guest.raise_for_status()
    headers = {"Authorization": f"Bearer {guest.json()['token']}"}
    password = f"Kq7-{random.randrange(10**12)}-zW!"
    registered = await http.post(
        "/api/v1/auth/register/", json={"username": name, "password": password}, headers=headers
    )
    if registered.status_code != 200:
        raise RuntimeError(f"register {name}: {registered.status_code} {registered.text}")
    upgraded = await http.post(
        "/api/v1/bot/upgrade/", json={"description": "bench.bots"}, headers=headers
    )
    if upgraded.status_code != 200:
        raise RuntimeError(f"upgrade {name}: {upgraded.status_code} {upgraded.text}")
    body = upgraded.json()
    return Bot(name, body["player"]["id"], body["token"]["token"])


async def make_bots(url: str, prefix: str, count: int) -> list[Bot]:
    limit = asyncio.Semaphore(MAKERS)
    run = random.randrange(10**6)

    async def one(index: int) -> Bot:
        async with limit:
            return await make_bot(http, f"{prefix}{run}x{index}")

    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        return list(await asyncio.gather(*(one(index) for index in range(count))))


def start_bot(bot: Bot, url: str, strategy: str, games: int) -> None:
    for path in (bot.stats, bot.log):
        path.unlink(missing_ok=True)
    command = [sys.executable, "-m", "examples.bot", "--server", url, "--strategy", strategy]
    command += ["--games", str(games), "--stats", str(bot.stats)]
    env = {**os.environ, "YANIV_BOT_TOKEN": bot.token}
    with bot.log.open("ab") as log:
        bot.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )


def stop_bots(bots: list[Bot], drain: float) -> list[Bot]:
    """SIGTERM each bot (it finishes its game), wait up to `drain` seconds, then kill the
    rest: the bots that did not stop in time."""
    for bot in bots:
        if bot.process and bot.process.poll() is None:
            bot.process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + drain
    shown = time.monotonic()
    while time.monotonic() < deadline and any(running(bot) for bot in bots):
        time.sleep(1)
        if time.monotonic() - shown >= PROGRESS_SECONDS:
            shown = time.monotonic()
            print(f"  {sum(map(running, bots))} bots still playing ...", flush=True)
    late = [bot for bot in bots if running(bot)]
    for bot in late:
        assert bot.process is not None
        bot.process.kill()
        bot.process.wait()
    return late


@contextmanager
def bots_stopped(bots: list[Bot]) -> Iterator[None]:
    """Whatever happens in the block (an exception, a Ctrl-C), no bot outlives it."""
    try:
        yield
    finally:
        for bot in bots:
            if running(bot):
                assert bot.process is not None
                bot.process.kill()
                bot.process.wait()


def running(bot: Bot) -> bool:
    return bot.process is not None and bot.process.poll() is None


def games_of(bots: list[Bot]) -> list[dict[str, Any]]:
    """Every game line the bots wrote so far (one per bot and game)."""
    lines = []
    for bot in bots:
        if bot.stats.exists():
            for line in bot.stats.read_text().splitlines():
                lines.append({**json.loads(line), "bot": bot.name})
    return lines


def log_lines(bots: list[Bot], word: str) -> list[str]:
    found = []
    for bot in bots:
        if bot.log.exists():
            found += [
                f"{bot.name}: {line}" for line in bot.log.read_text().splitlines() if word in line
            ]
    return found


def crowd(url: str, args: argparse.Namespace) -> dict[str, Any]:
    print(f"making {args.bots} bot accounts ...", flush=True)
    bots = asyncio.run(make_bots(url, "crowd", args.bots))
    began = time.time()
    with bots_stopped(bots):
        for bot in bots:
            start_bot(bot, url, "simple", 1_000_000)
        print(f"{args.bots} bots playing for {args.minutes:g} min ...", flush=True)
        stop_at = time.monotonic() + args.minutes * 60
        next_cut = time.monotonic() + args.cut_every
        next_report = time.monotonic() + PROGRESS_SECONDS
        signalled = 0
        while time.monotonic() < stop_at:
            time.sleep(0.2)
            now = time.monotonic()
            if args.cut_every and now >= next_cut:
                next_cut += args.cut_every
                # Only a bot that has begun (its log written: its handlers are set; before
                # them, SIGUSR1 would end the process).
                alive = [bot for bot in bots if running(bot) and bot.log.stat().st_size]
                if alive:
                    victim = random.choice(alive)
                    assert victim.process is not None
                    victim.process.send_signal(signal.SIGUSR1)
                    signalled += 1
            if now >= next_report:
                next_report += PROGRESS_SECONDS
                progress(bots, began, signalled)
        print("time is up: the bots finish their games ...", flush=True)
        late = stop_bots(bots, DRAIN_SECONDS)
        progress(bots, began, signalled)
    return {"bots": bots, "late": late, "began": began, "signalled": signalled}


def progress(bots: list[Bot], began: float, signalled: int) -> None:
    lines = games_of(bots)
    games = {line["game"] for line in lines}
    cuts = sum(line["cuts"] for line in lines)
    errors = sum(len(line["errors"]) for line in lines) + len(log_lines(bots, " ERROR "))
    alive = sum(running(bot) for bot in bots)
    print(
        f"  {time.time() - began:5.0f} s: {len(games)} games finished ({len(lines)} bot seats), "
        f"{sum(line['moves'] for line in lines)} moves, {cuts} sockets cut "
        f"({signalled} signals), {errors} errors, {alive} bots running",
        flush=True,
    )


def database_check(began: float) -> dict[str, Any]:
    """Every game a bot sat at since `began`: its status, and the turns the clock played."""
    from datetime import UTC, datetime

    from games.models import Event, Game, Seat

    since = datetime.fromtimestamp(began, UTC)
    seated = Seat.objects.filter(player__is_bot=True, game__created_at__gte=since)
    games = Game.objects.filter(pk__in=seated.values("game_id"))
    statuses = Counter(games.values_list("status", flat=True))
    away = Event.objects.filter(game__in=games, type="player_away")
    active = games.filter(status="active").values_list("pk", flat=True)
    return {
        "active": [str(pk) for pk in active],
        "statuses": dict(statuses),
        "away_games": set(map(str, away.values_list("game_id", flat=True))),
        "away": away.count(),
    }


def quantile(samples: list[float], q: int) -> float:
    if len(samples) < 2:
        return samples[0] if samples else float("nan")
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1]


def crowd_report(run: dict[str, Any], db: dict[str, Any], args: argparse.Namespace) -> None:
    bots: list[Bot] = run["bots"]
    lines = games_of(bots)
    games = {line["game"] for line in lines}
    cut = {line["game"] for line in lines if line["cuts"]}
    latencies = [ms for line in lines for ms in line["latencies_ms"]]
    refused = Counter(error for line in lines for error in line["errors"])
    logged = log_lines(bots, " ERROR ")
    exits = Counter(bot.process.returncode for bot in bots if bot.process)
    # A bot killed after the drain is counted once, as late.
    bad_exits = sum(n for code, n in exits.items() if code not in (0, 1)) - len(run["late"])
    throttled = len(log_lines(bots, ": 429 "))
    errors = len(logged) + bad_exits + len(run["late"])
    unfinished = {s: n for s, n in db["statuses"].items() if s != "finished"}
    timeouts = sum(line["timeouts"] for line in lines)
    print(
        f"\n{args.bots} reference bots (`simple`) on the ladder for {args.minutes:g} min, a "
        f"socket cut every {args.cut_every:g} s:\n"
    )
    print("| measure | figure | target |")
    print("|---|---|---|")
    print(f"| games finished (bot seats) | {len(games)} ({len(lines)}) | |")
    print(f"| moves; `POST .../actions/` p50 / p99 | {len(latencies)}; "
          f"{quantile(latencies, 50):.0f} / {quantile(latencies, 99):.0f} ms | |")  # fmt: skip
    why = ", ".join(f"{code}: {n}" for code, n in refused.most_common()) or "none refused"
    print(
        f"| errors: ERROR lines of the bots ({why}); bots that exited badly; did not stop "
        f"within {DRAIN_SECONDS:.0f} s | **{errors}**: {len(logged)}; {bad_exits}; "
        f"{len(run['late'])} | 0 |"
    )
    print(f"| 429s waited out (Retry-After) | {throttled} | |")
    cuts = sum(line["cuts"] for line in lines)
    reconnects = sum(line["reconnects"] for line in lines)
    print(
        f"| sockets cut mid-game ({run['signalled']} signals; the rest found no game "
        f"socket open); reconnects | {cuts} in {len(cut)} games; {reconnects} | |"
    )
    lost = len(cut & db["away_games"])
    print(
        f"| games with a cut finished; of them with a turn played by the clock | "
        f"{len(cut & games)} of {len(cut)}; {lost} | all; 0 |"
    )
    print(
        f"| bots' games in the database: finished; other | {db['statuses'].get('finished', 0)}; "
        f"{unfinished or 'none'} | all finished |"
    )
    print(f"| turns played by the clock (`player_away`; the bots saw) | {db['away']} "
          f"({timeouts}) | 0 |")  # fmt: skip
    for line in logged[:10]:
        print(f"  - {line}")


def yardstick(url: str, games: int, minutes: float) -> dict[str, Any]:
    (bot,) = asyncio.run(make_bots(url, "hard", 1))
    began = time.time()
    with bots_stopped([bot]):
        start_bot(bot, url, "hard", games)
        print(f"the hard bot: {games} ladder games (at most {minutes:g} min) ...", flush=True)
        deadline = time.monotonic() + minutes * 60
        last = time.monotonic()
        while running(bot) and time.monotonic() < deadline:
            time.sleep(1)
            if time.monotonic() - last >= 60:
                last = time.monotonic()
                done = len(games_of([bot]))
                place = board_place(url, bot.player_id)
                print(f"  {time.time() - began:5.0f} s: {done} games; {place}", flush=True)
        late = stop_bots([bot], DRAIN_SECONDS)
    with httpx.Client(base_url=url, timeout=30) as http:
        player = http.get(f"/api/v1/players/{bot.player_id}/").json()
    return {
        "bot": bot,
        "late": late,
        "board": leaderboard(url),
        "player": player,
        "games": games_of([bot]),
    }


def leaderboard(url: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with httpx.Client(base_url=url, timeout=30) as http:
        path: str | None = "/api/v1/leaderboard/?pool=bots&limit=200"
        while path:
            page = http.get(path)
            page.raise_for_status()
            body = page.json()
            rows += body["results"]
            path = body["next"]
    return rows


def board_place(url: str, player_id: str) -> str:
    rows = leaderboard(url)
    for row in rows:
        if row["player"]["id"] == player_id:
            rating = row["player"]["rating"]
            mu, ordinal = rating["mu"], rating["ordinal"]
            return f"rank {row['rank']} of {len(rows)}, mu {mu:.2f}, ordinal {ordinal:.2f}"
    return "not on the board yet"


def yardstick_report(run: dict[str, Any]) -> None:
    bot: Bot = run["bot"]
    lines = run["games"]
    places = Counter((line["place"], line["players"]) for line in lines)
    wins = sum(n for (place, _), n in places.items() if place == 1)
    print(
        f"\nthe `hard` reference bot: {len(lines)} ladder games, {wins} won "
        f"({sum(len(line['errors']) for line in lines)} refused moves, "
        f"{sum(line['timeouts'] for line in lines)} turns played by the clock); "
        f"`GET /leaderboard/?pool=bots`, the CPU levels and it:\n"
    )
    print("| rank | player | mu | sigma | ordinal | games |")
    print("|---|---|---|---|---|---|")
    rows = run["board"]
    if not any(row["player"]["id"] == bot.player_id for row in rows):
        # Not listed yet (fewer than YANIV_LEADERBOARD_MIN_GAMES games): shown where its
        # ordinal would put it, without a rank.
        rows = [*rows, {"rank": "-", "player": run["player"]}]
        rows.sort(key=lambda row: -row["player"]["rating"]["ordinal"])
    for row in rows:
        player = row["player"]
        rating = player["rating"]
        ours = player["id"] == bot.player_id
        if not ours and not player.get("is_cpu"):
            continue
        name = f"**{player['display_name']}** (the hard bot)" if ours else player["display_name"]
        print(
            f"| {row['rank']} | {name} | {rating['mu']:.2f} | {rating['sigma']:.2f} | "
            f"{rating['ordinal']:.2f} | {rating.get('games', '')} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=5.0, help="the crowd's time (5)")
    parser.add_argument("--cut-every", type=float, default=2.0, help="seconds; 0: no cuts")
    parser.add_argument("--hard-games", type=int, default=300, help="0: no yardstick")
    parser.add_argument("--hard-minutes", type=float, default=120.0, help="its time limit")
    parser.add_argument("--port", type=int, default=8768)
    args = parser.parse_args()
    LOGS.mkdir(parents=True, exist_ok=True)
    setup_django(ENV)
    if args.bots:
        with running_server(args.port, beat=True, env_extra=ENV) as server:
            run = crowd(server.url, args)
        checked = database_check(run["began"])
        abort_games(checked["active"])  # a bot killed mid-game: no CPU plays it on later
        crowd_report(run, checked, args)
    if args.hard_games:
        env = {**ENV, "YANIV_BOT_FILL_SECONDS": HARD_FILL_SECONDS}
        with running_server(args.port, beat=True, env_extra=env) as server:
            hard = yardstick(server.url, args.hard_games, args.hard_minutes)
        yardstick_report(hard)
    return 0


if __name__ == "__main__":
    sys.exit(main())
