"""Arena tournament benchmark (issue 28's proof): ``python -m bench.tournament [--players 200]
[--minutes 3]``.

The real server (uvicorn with 2 workers and a Celery worker, which scores a game when it
ends) on the servers of DATABASE_URL / REDIS_URL; beat's pass, `tournaments_tick`, is run by
the bench itself every YANIV_TOURNAMENT_PAIRING_SECONDS (3 s), as beat would, so that each pass
is timed (wall time, and its parts). A registered account (a guest, then POST
/auth/register/) creates an unrated arena: tables of 2-5, a 10 s turn limit, and the
fastest-ending rules there are (docs/rules.md §7 `first_over_100`, with §12's `call_limit: 15`
and `values: faces_high`), yet a game at a human pace still takes minutes. N guests join it
over the API and each listens on its `ws /ws/v1/me/` for `tournament_game`, then plays that
game on its socket at a human pace (1-3 s a move, uniform) by the simple strategy of the other
benches (call Yaniv when allowed, else throw the highest card and draw from the stock).
Everyone joins before the start: the bench then moves `starts_at` to now in the database, so
the first pass seats them all. After `--minutes` the tournament is ended (the admin's End now,
`tournament_end_now`), the games in play are played out without think time, and the pass
finishes it.

Reported:
- the wait between a game's end (the client sees it on the game's socket) and the player's
  next `tournament_game` (median, p99; targets under 5 s and 10 s);
- repeats: a player seated with someone of their previous table before either had waited
  YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS (by the games' `finished_at` and `started_at`;
  target 0), and the looser count of such a table-mate where only one of the two had waited;
- whether GET .../standings/ equals the points recomputed from the games' places
  (tournaments/arena.py `scores`, a player's games in the order they finished, on fire after
  two outright firsts; an aborted game counts for nothing, as services._score has it);
- then, with the server stopped, one pass (`tournaments.services.tournament_step`) over a
  scratch tournament of 200 and of 2,000 joined idle participants: its wall time, and its
  parts: reading the idle participants with their ranks (`idle_participants`), the pairing
  itself (`arena.seat`) and the rest (creating the games and seating them); the live run's
  passes likewise (the first seats everyone).

Traffic only to 127.0.0.1; everything started is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar, cast

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench._server import abort_games, running_server, setup_django
from bench._sockets import is_game, keep_alive
from bench.api_moves import KEEPALIVE, guest, move_for

RULES = {"ending": "first_over_100", "call_limit": 15, "values": "faces_high"}
TABLE_SIZES = [2, 3, 4, 5]
TURN_SECONDS = 10
THINK = (1.0, 3.0)
DRAIN_SECONDS = 120.0
"""How long the games in play at the end may take to be played out (then they are aborted)."""
ENV = {
    "THROTTLE_RATE_PLAYER": "100000/min",
    "THROTTLE_RATE_GUEST_CREATE": "100000/hour",
    "THROTTLE_RATE_PUBLIC": "100000/min",
    "THROTTLE_RATE_TOURNAMENT_CREATE": "1000/hour",
    "YANIV_TOURNAMENT_PAIRING_SECONDS": "3",
}
WAIT_TARGETS = (5.0, 10.0)  # median, p99 (issue 28)
PASS_TARGET_MS = 50.0  # a pass over 2,000 idle participants (issue 28)
SCRATCH_RUNS = 3  # scratch passes of each size


@dataclass
class Client:
    """One participant: its `/ws/v1/me/` listener and the games it is seated at."""

    url: str
    http: httpx.AsyncClient
    headers: dict[str, str]
    stop: float  # monotonic: think no more after it
    ended_at: float | None = None  # the end of its last game, until it is seated again
    waits: list[float] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    moves: int = 0
    errors: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def listen(self, done: asyncio.Event) -> None:
        ws_url = self.url.replace("http", "ws", 1) + "/ws/v1/me/"
        while not done.is_set():
            try:
                async with connect(ws_url, additional_headers=self.headers) as socket:
                    keep_alive(socket)
                    while not done.is_set():
                        try:
                            raw = await asyncio.wait_for(socket.recv(), 1)
                        except TimeoutError:
                            continue
                        self.seated(json.loads(raw))
            except (ConnectionClosed, InvalidHandshake, OSError):
                await asyncio.sleep(1)

    def seated(self, message: dict[str, Any]) -> None:
        if message.get("type") != "tournament_game" or message["game_id"] in self.games:
            return
        if self.ended_at is not None:
            self.waits.append(time.monotonic() - self.ended_at)
            self.ended_at = None
        self.games.append(message["game_id"])
        task = asyncio.create_task(self.play(message["game_id"]))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def play(self, game_id: str) -> None:
        while True:
            try:
                await self.play_on_socket(game_id)
                return
            except (ConnectionClosed, InvalidHandshake, OSError):
                await asyncio.sleep(1)

    async def play_on_socket(self, game_id: str) -> None:
        ws_url = self.url.replace("http", "ws", 1) + f"/ws/v1/games/{game_id}/"
        async with connect(ws_url, additional_headers=self.headers) as socket:
            keep_alive(socket)
            acted_at = -1
            while True:
                try:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 5))
                    if not is_game(message):
                        continue  # a keep-alive's pong
                    game = message["game"]
                except TimeoutError:
                    url = f"/api/v1/games/{game_id}/"
                    game = (await self.http.get(url, headers=self.headers)).json()
                if game["status"] != "active":
                    if self.games[-1] == game_id:  # not seated again already
                        self.ended_at = time.monotonic()
                    return
                mine = game["turn"] and game["turn"]["seat"] == game["you"]["seat"]
                if not mine or game["seq"] <= acted_at:
                    continue
                if time.monotonic() < self.stop:
                    await asyncio.sleep(random.uniform(*THINK))
                acted_at = game["seq"]
                response = await self.http.post(
                    f"/api/v1/games/{game_id}/actions/", json=move_for(game), headers=self.headers
                )
                self.moves += 1
                if response.status_code != 200:
                    self.errors += 1
                    self.refusals[refusal_code(response)] += 1
                    acted_at = -1


def refusal_code(response: httpx.Response) -> str:
    """A refused move's status and error code (`409 stale_seq`)."""
    try:
        code = response.json().get("code", "")
    except ValueError:
        code = ""
    return f"{response.status_code} {code}".strip()


async def tournament_of(http: httpx.AsyncClient, minutes: float) -> tuple[str, dict[str, str]]:
    """A registered host and its unrated arena, starting in an hour (moved to now later)."""
    host = await guest(http, "host")
    name = f"bench{random.randrange(10**9)}"
    registered = await http.post(
        "/api/v1/auth/register/",
        json={"username": name, "password": f"Kq7-{random.randrange(10**12)}-zW!"},
        headers=host,
    )
    if registered.status_code != 200:
        raise RuntimeError(f"register: {registered.status_code} {registered.text}")
    from django.utils import timezone

    body = {
        "name": "bench arena",
        "starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
        "minutes": max(5, int(minutes) + 5),
        "table_sizes": TABLE_SIZES,
        "rated": False,
        "rules": RULES,
        "turn_seconds": TURN_SECONDS,
    }
    created = await http.post("/api/v1/tournaments/", json=body, headers=host)
    created.raise_for_status()
    return created.json()["id"], host


async def arena_run(url: str, players: int, seconds: float) -> dict[str, Any]:
    from asgiref.sync import sync_to_async

    limits = httpx.Limits(max_connections=players * 2, keepalive_expiry=KEEPALIVE)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
        tournament_id, _host = await tournament_of(http, seconds / 60)
        headers = await asyncio.gather(*(guest(http, f"arena{i}") for i in range(players)))
        for header in headers:
            joined = await http.post(f"/api/v1/tournaments/{tournament_id}/join/", headers=header)
            joined.raise_for_status()
        stop = time.monotonic() + seconds
        clients = [Client(url, http, header, stop) for header in headers]
        done = asyncio.Event()
        listeners = [asyncio.create_task(c.listen(done)) for c in clients]
        await asyncio.sleep(2)  # the sockets open
        await sync_to_async(start_now)(tournament_id)
        passes: list[dict[str, Any]] = []
        ticking = asyncio.create_task(ticker(passes, done))
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
        await sync_to_async(end_now)(tournament_id)
        # No seat is made from now on: the games in play are played out (no think time).
        drain_until = time.monotonic() + DRAIN_SECONDS
        while any(c.tasks for c in clients) and time.monotonic() < drain_until:
            await asyncio.sleep(0.5)
        left = [task for c in clients for task in c.tasks]
        for task in left:
            task.cancel()
        games = [game_id for c in clients for game_id in c.games]
        await sync_to_async(abort_games)(games)
        status = await finished(http, tournament_id)
        done.set()
        await asyncio.gather(*listeners, ticking)
        standings = await standings_of(http, tournament_id)
    return {
        "tournament": tournament_id,
        "clients": clients,
        "status": status,
        "standings": standings,
        "unfinished": len(left),
        "passes": passes,
    }


async def ticker(passes: list[dict[str, Any]], done: asyncio.Event) -> None:
    """Beat's pass, `tournaments_tick`, every YANIV_TOURNAMENT_PAIRING_SECONDS from the
    start (on the beat of the clock, not after the previous pass), each timed."""
    from asgiref.sync import sync_to_async
    from django.conf import settings

    every = settings.YANIV_TOURNAMENT_PAIRING_SECONDS
    begun = time.monotonic()
    beats = 0
    while not done.is_set():
        passes.append(await sync_to_async(timed_tick)())
        beats += 1
        await asyncio.sleep(max(0.0, begun + beats * every - time.monotonic()))


PARTS = (
    ("services", "idle_participants", "read"),
    ("arena", "seat", "seat"),
    ("services", "_tournament_pass", "pass"),
    ("services", "tournament_tables_make", "make"),
)
"""What a pass's figures time, in ms: reading the idle with their ranks, the pairing, the
whole pass under the tournament's lock (the two before, the points of ended games, and the
statement that gives each table's players its game id), then making the tables' games."""


@contextmanager
def timed_parts(parts: dict[str, float]) -> Iterator[None]:
    """Every call of PARTS' functions, added up in ms into `parts` by their short names."""
    from tournaments import arena, services

    modules = {"services": services, "arena": arena}
    seconds: dict[str, float] = {}
    with ExitStack() as stack:
        for module, name, _ in PARTS:
            stack.enter_context(timed(modules[module], name, seconds))
        yield
    for _, name, short in PARTS:
        parts[short] = seconds.get(name, 0.0) * 1000


def timed_tick() -> dict[str, Any]:
    """One `tournaments_tick`: its wall time and parts (ms, PARTS), the idle participants
    (`pool`, arena.Idle) and the tables seated (`seated`), when it began (`at`, epoch s)."""
    from tournaments import arena, services

    module: Any = services  # its names are patched for the pass
    parts: dict[str, float] = {}
    pool: list[Any] = []
    seated: list[tuple[str, ...]] = []
    reading, pairing = module.idle_participants, module.arena.seat

    def read(*args: Any, **kwargs: Any) -> Any:
        rows = reading(*args, **kwargs)
        pool.extend(rows)
        return rows

    def pair(*args: Any, **kwargs: Any) -> Any:
        tables = pairing(*args, **kwargs)
        seated.extend(tables)
        return tables

    module.idle_participants, arena_module = read, cast(Any, arena)
    arena_module.seat = pair
    try:
        with timed_parts(parts):
            at = time.time()
            started = time.perf_counter()
            tables = services.tournaments_tick()
            wall = time.perf_counter() - started
    finally:
        module.idle_participants, arena_module.seat = reading, pairing
    return {
        **parts,
        "wall": wall * 1000,
        "tables": tables,
        "idle": float(len(pool)),
        "pool": pool,
        "seated": seated,
        "at": at,
    }


def left_idle(passes: list[dict[str, Any]]) -> dict[str, int]:
    """Each idle participant a pass did not seat, by who else it left idle: nobody, only
    players of their previous table (or who have them in theirs), or someone they could have
    sat with (a table of two the pass did not make)."""
    counts = {"alone": 0, "only previous table-mates": 0, "someone to sit with": 0}
    for one in passes:
        seated = {key for table in one["seated"] for key in table}
        left = [player for player in one["pool"] if player.key not in seated]
        for player in left:
            others = [o for o in left if o.key != player.key]
            mates = all(o.key in player.previous or player.key in o.previous for o in others)
            kind = "alone" if not others else "only previous table-mates" if mates else ""
            counts[kind or "someone to sit with"] += 1
    return counts


def scoring_delays(passes: list[dict[str, Any]], games: list[Played]) -> list[float]:
    """From a game's `finished_at` to its players' being idle (the score written: idle_since),
    as the first of the bench's passes that found each idle shows it (a player seated by the
    pass a game's end runs, before any of the bench's passes, is not counted)."""
    starts: dict[str, list[float]] = defaultdict(list)
    for game in games:
        for player in game.players:
            starts[player].append(game.started_at)
    delays = []
    for game in games:
        for player in game.players:
            later = [at for at in starts[player] if at > game.finished_at]
            until = min(later, default=float("inf"))  # seated again then
            for one in passes:
                if not game.finished_at <= one["at"] < until:
                    continue
                found = [p for p in one["pool"] if p.key == player]
                if found:
                    delays.append(one["at"] - found[0].idle_seconds - game.finished_at)
                    break
    return delays


def start_now(tournament_id: str) -> None:
    from django.utils import timezone

    from tournaments.models import Tournament

    Tournament.objects.filter(pk=tournament_id).update(starts_at=timezone.now())


def end_now(tournament_id: str) -> None:
    from tournaments.services import tournament_end_now

    tournament_end_now(tournament_id=tournament_id)


async def finished(http: httpx.AsyncClient, tournament_id: str, timeout: float = 30) -> str:
    """The tournament's status once beat's pass has finished it (or after `timeout`)."""
    deadline = time.monotonic() + timeout
    status = ""
    while time.monotonic() < deadline:
        status = (await http.get(f"/api/v1/tournaments/{tournament_id}/")).json()["status"]
        if status == "finished":
            break
        await asyncio.sleep(1)
    return status


async def standings_of(http: httpx.AsyncClient, tournament_id: str) -> dict[str, float]:
    rows: dict[str, float] = {}
    offset = 0
    while True:
        url = f"/api/v1/tournaments/{tournament_id}/standings/?limit=200&offset={offset}"
        page = (await http.get(url)).json()
        for row in page["results"]:
            rows[row["player"]["id"]] = row["score"]
        if not page.get("next"):
            return rows
        offset += 200


@dataclass(frozen=True)
class Played:
    id: str
    players: tuple[str, ...]  # in seat order
    places: tuple[int | None, ...]
    finished: bool  # status finished (else aborted or voided: no points)
    started_at: float
    finished_at: float


def games_of(tournament_id: str) -> list[Played]:
    """The tournament's games from the database, in the order they finished."""
    from games.models import Game, GameStatus, Seat

    games = Game.objects.filter(tournament_id=tournament_id).exclude(finished_at=None)
    seats = defaultdict(list)
    for seat in Seat.objects.filter(game__in=games).order_by("seat"):
        seats[seat.game_id].append(seat)
    played = [
        Played(
            str(game.pk),
            tuple(str(s.player_id) for s in seats[game.pk]),
            tuple(s.place for s in seats[game.pk]),
            game.status == GameStatus.FINISHED,
            (game.started_at or game.created_at).timestamp(),
            (game.finished_at or game.created_at).timestamp(),
        )
        for game in games
    ]
    return sorted(played, key=lambda game: game.finished_at)


def recomputed(games: list[Played]) -> dict[str, float]:
    """Each player's points from the games' places, in the order the games finished."""
    from tournaments import arena

    score: dict[str, float] = defaultdict(float)
    streak: dict[str, int] = defaultdict(int)
    for game in games:
        places = [place for place in game.places if place is not None]
        counted = game.finished and len(places) == len(game.players)
        if not counted:
            continue  # aborted or voided: no points, and the streaks go on
        points = arena.scores(places, [streak[p] >= 2 for p in game.players])
        for index, player in enumerate(game.players):
            score[player] += points[index]
            first = arena.outright_first(places, index)
            streak[player] = streak[player] + 1 if first else 0
    return dict(score)


def repeats(games: list[Played], wait: float) -> tuple[int, int]:
    """Seatings with someone of a player's previous table: (both had waited under `wait`, at
    least one had)."""
    last: dict[str, Played] = {}
    strict = loose = 0
    for game in sorted(games, key=lambda game: game.started_at):
        for index, player in enumerate(game.players):
            before = last.get(player)
            if before is None:
                continue
            for other in game.players[index + 1 :]:
                other_before = last.get(other)
                if other not in before.players and (
                    other_before is None or player not in other_before.players
                ):
                    continue
                waited = [
                    game.started_at - b.finished_at for b in (before, other_before) if b is not None
                ]
                strict += all(w < wait for w in waited)
                loose += any(w < wait for w in waited)
        for player in game.players:
            last[player] = game
    return strict, loose


T = TypeVar("T")


@contextmanager
def timed(module: Any, name: str, into: dict[str, float]) -> Iterator[None]:
    """Time every call of `module.name` (added up into `into[name]`) for the duration."""
    original: Callable[..., Any] = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            into[name] = into.get(name, 0.0) + time.perf_counter() - started

    setattr(module, name, wrapper)
    try:
        yield
    finally:
        setattr(module, name, original)


def scratch_pass(count: int) -> dict[str, float]:
    """One `tournament_step` over a fresh running tournament of `count` joined idle
    participants: its wall time and parts, in ms, and the tables seated."""
    from django.utils import timezone

    from accounts.models import Player
    from tournaments import services
    from tournaments.models import Participant, Tournament, TournamentStatus

    now = timezone.now()
    tournament = services.tournament_create(
        by=None,
        name=f"scratch {count}",
        starts_at=now - timedelta(minutes=1),
        minutes=60,
        table_sizes=TABLE_SIZES,
        rated=False,
        rules=RULES,
        turn_seconds=TURN_SECONDS,
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.RUNNING)
    players = Player.objects.bulk_create(
        Player(display_name=f"idle{index}", password="!")  # noqa: S106 - unusable
        for index in range(count)
    )
    # Idle 0-10 s; ranks by score (a third with points, some tied).
    rng = random.Random(count)
    Participant.objects.bulk_create(
        Participant(
            tournament=tournament,
            player=player,
            score=rng.choice([0.0, 0.0, 1.0, 2.5, 4.0, 6.0]),
        )
        for player in players
    )
    Participant.objects.filter(tournament=tournament).update(idle_since=now - timedelta(seconds=5))
    parts: dict[str, float] = {}
    # The garbage of this setup (2,000 players made here) is collected first: a collection of
    # it inside the pass (80-100 ms) would time the bench, not the pass.
    gc.collect()
    with timed_parts(parts):
        started = time.perf_counter()
        tables = services.tournament_step(tournament_id=tournament.pk, now=timezone.now())
        wall = time.perf_counter() - started
    services.tournament_cancel(tournament_id=tournament.pk)
    from games.models import Game

    made = Game.objects.filter(tournament_id=tournament.pk).values_list("pk", flat=True)
    abort_games([str(pk) for pk in made])
    return {**parts, "wall": wall * 1000, "tables": tables}


def pass_parts(figures: dict[str, float]) -> str:
    return (
        f"**{figures['pass']:.1f}** ({figures['read']:.1f} / {figures['seat']:.1f}); "
        f"{figures['make']:.0f}"
    )


def quantile(samples: list[float], q: int) -> float:
    if len(samples) < 2:
        return samples[0] if samples else float("nan")
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1]


def report(run: dict[str, Any], passes: dict[int, list[dict[str, float]]], args: Any) -> None:
    from django.conf import settings

    clients: list[Client] = run["clients"]
    waits = [w for c in clients for w in c.waits]
    games = games_of(run["tournament"])
    wait = settings.YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS
    strict, loose = repeats(games, wait)
    expected = recomputed(games)
    shown = run["standings"]
    differences = [
        f"{player[:8]}: standings {shown.get(player, 0.0)}, recomputed {expected.get(player, 0.0)}"
        for player in sorted(set(shown) | set(expected))
        if abs(shown.get(player, 0.0) - expected.get(player, 0.0)) > 1e-9
    ]
    finished = sum(game.finished for game in games)
    sizes = sorted({len(game.players) for game in games})
    moves = sum(c.moves for c in clients)
    errors = sum(c.errors for c in clients)
    refusals = sum((c.refusals for c in clients), Counter[str]())
    why = ", ".join(f"{code}: {count}" for code, count in refusals.most_common())
    median, p99 = quantile(waits, 50), quantile(waits, 99)
    print(
        f"\n{args.players} participants for {args.minutes:g} min (the pass every "
        f"{settings.YANIV_TOURNAMENT_PAIRING_SECONDS:g} s, repeat wait {wait:g} s): "
        f"{len(games)} games ({finished} finished; tables of {sizes}), {moves} moves "
        f"({errors} not 200{': ' + why if why else ''}), {run['unfinished']} games "
        "unfinished after the drain; "
        f"tournament {run['status']}.\n"
    )
    print("| measure | figure | target |")
    print("|---|---|---|")
    live = [p for p in run["passes"] if p["idle"]]
    if live:
        first, rest_ = live[0], live[1:] or live
        print(
            f"| the first pass, all {first['idle']:.0f} idle: under the lock ms (read / "
            f"`arena.seat`); its {first['tables']:.0f} tables made ms | {pass_parts(first)} | |"
        )
        idle = [p["idle"] for p in rest_]
        print(
            f"| the later passes ({len(rest_)} with someone idle; idle median "
            f"{statistics.median(idle):.0f}, most {max(idle):.0f}): under the lock ms, median "
            f"/ longest; read, median; tables made ms, median | "
            f"{statistics.median(p['pass'] for p in rest_):.1f} / "
            f"{max(p['pass'] for p in rest_):.1f}; "
            f"{statistics.median(p['read'] for p in rest_):.1f}; "
            f"{statistics.median(p['make'] for p in rest_):.0f} | |"
        )
    for count, runs in passes.items():
        target = f"under {PASS_TARGET_MS:.0f} ms (under the lock)" if count == 2000 else ""
        figures = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        longest = max(run["pass"] for run in runs)
        print(
            f"| a pass over {count:,} idle (`tournament_step`), median of {len(runs)} (longest "
            f"under the lock): under the lock ms (read / `arena.seat`); its "
            f"{figures['tables']:.0f} tables made ms | {pass_parts(figures)} ({longest:.1f}) "
            f"| {target} |"
        )
    print(
        f"| wait from a game's end to the next seat, median / p99 ({len(waits)} waits) | "
        f"{median:.2f} / {p99:.2f} s | under {WAIT_TARGETS[0]:g} / {WAIT_TARGETS[1]:g} s |"
    )
    print(f"| longest wait | {max(waits, default=float('nan')):.2f} s | |")
    print(
        f"| repeats before the wait ran out: both / either under {wait:g} s | "
        f"{strict} / {loose} | 0 / - |"
    )
    delays = scoring_delays(run["passes"], games)
    print(
        f"| a game's end to its players idle (the score written), median / p99 "
        f"({len(delays)}) | {quantile(delays, 50):.2f} / {quantile(delays, 99):.2f} s | |"
    )
    counts = left_idle(run["passes"])
    print(
        f"| idle players a pass left idle ({sum(counts.values())}): "
        + ", ".join(counts)
        + " | "
        + " / ".join(str(v) for v in counts.values())
        + " | |"
    )
    verdict = "equal" if not differences else f"{len(differences)} differ"
    print(f"| standings against the points recomputed from the games | {verdict} | equal |")
    for line in differences[:20]:
        print(f"  - {line}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--port", type=int, default=8767)
    parser.add_argument("--skip-passes", action="store_true", help="no scratch 200/2,000 pass")
    args = parser.parse_args()
    setup_django(ENV)
    print(f"arena: {args.players} participants, {args.minutes:g} min ...", flush=True)
    with running_server(args.port, env_extra=ENV) as server:
        run = asyncio.run(arena_run(server.url, args.players, args.minutes * 60))
    passes: dict[int, list[dict[str, float]]] = {}
    if not args.skip_passes:
        for count in (200, 2000):
            print(f"scratch pass over {count:,} idle ...", flush=True)
            passes[count] = [scratch_pass(count) for _ in range(SCRATCH_RUNS)]
    report(run, passes, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
