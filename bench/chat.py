"""Chat delivery and presence fan-out (issue 29's proof): ``python -m bench.chat [--tables 200]
[--connected 2000] [--seconds 60] [--every 10,20] [--friends 500] [--repeats 10]``.

The real server (uvicorn with 2 workers and a Celery worker) on the servers of DATABASE_URL /
REDIS_URL, with the per-player and guest-creation limits raised as bench.api_moves raises them,
and `YANIV_CHAT_MIN_GAMES=0`, so that the bench's new registered players may write free text
(the rest of chat's rules hold: the flood limit, the word list). Its players are registered
accounts made directly in the database, with their tokens (registering through the API would
hash 2,000 passwords); the tables and every socket go through the API, as the web client goes.

1. **Chat delivery.** `--tables` private tables of 4 (made, joined by invite code and started
   over the API; nobody moves: a private table has no turn limit), each player with the game's
   socket open (`ws /ws/v1/games/{id}/`) and a `ws /ws/v1/me/` socket, beside idle players with
   only a me socket, up to `--connected` connected players in all (the seated players' me
   sockets count towards it). Every seated player sends chat at a human pace: a message every
   `--every` seconds (uniform between the two), the first after a random part of that, a
   phrase or (`--text`, the share) a free text, never the one they sent last (chat refuses the
   same message a third time in a row, and more than 5 in 10 s). A message's delivery, per
   receiver, is the time from sending its `POST .../chat/` to its `{"type": "chat"}` arriving
   on each of the other three seats' game sockets; every one must arrive (within `--grace`
   seconds of the last message sent; those that do not are missing). The server's CPU per
   message is all its processes' (web, worker, PostgreSQL, Redis) over the chat, less what
   they use idle with every socket open (measured just before).
2. **Presence fan-out.** A registered player with `--friends` friends (rows made in the
   database, both sides of each friendship), every friend one of the idle connected players
   with their me socket open, comes online (opens their me socket) with the chat stopped: the
   time to the last friend's `{"type": "presence", "presence": "online"}`, then, closing the
   socket, to the last `offline`; `--repeats` times. Its server CPU is read around each
   event over a fixed `--window` (from the scheduler's count, not `cpu_times`' 10 ms ticks),
   less the mean of as long idle windows, one before each event; a player with no friends does
   the same, so the difference is what the friends cost (the fan-out: the worker's task
   reading them and publishing 500 messages, the web processes forwarding them).

The load generator is this one process (an asyncio loop; its lag is measured and printed, since
a late loop would count as delivery time). Traffic only to 127.0.0.1; everything started is
stopped at the end, the tables are aborted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import random
import resource
import secrets
import statistics
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar

import httpx
import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench._server import (
    Server,
    abort_games,
    busy_seconds,
    cpu_exact,
    cpu_of,
    free_port,
    server_processes,
    serving,
    setup_django,
)
from bench._sockets import (
    OPEN_ERRORS,
    Lag,
    keep_alive,
    open_socket,
    raise_open_files,
    ticket,
)
from bench.api_moves import KEEPALIVE, LIMITS, percentiles

ENV = {**LIMITS, "YANIV_CHAT_MIN_GAMES": "0"}
SEATS = 4
P99_TARGET_MS = 100.0
PARALLEL = 16  # tables being made / sockets being opened at once
CONNECTIONS = 2 * PARALLEL  # of the HTTP client
PROGRESS_SECONDS = 5.0
# Free texts the players send (none of the word list), and chat's phrases (chat/phrases.py).
TEXTS = [
    "nice one",
    "ugh, again?",
    "who has the jokers",
    "I was one card away",
    "take your time",
    "that pile is cursed",
    "ok you got me",
    "brb, coffee",
    "so close!",
    "lol",
    "not the seven again",
    "this hand is terrible",
    "gg so far",
    "careful, she is low",
    "one more round?",
]
PHRASES = ["hello", "good_luck", "have_fun", "nice_yaniv", "well_played", "oops", "wow"]

T = TypeVar("T")


# The players, made in the database ------------------------------------------------------------


@dataclass
class Account:
    player_id: str
    headers: dict[str, str]


def make_accounts(count: int) -> list[Account]:
    """`count` registered players (unusable passwords) with a token each, in two statements."""
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from accounts.models import AuthToken, Player

    run = secrets.token_hex(3)
    unusable = make_password(None)
    players = Player.objects.bulk_create(
        (
            Player(
                username=f"chat{run}_{index}",
                display_name=f"chat {index}",
                is_guest=False,
                password=unusable,
            )
            for index in range(count)
        ),
        batch_size=1000,
    )
    now = timezone.now()
    raws = [secrets.token_urlsafe(32) for _ in players]
    AuthToken.objects.bulk_create(
        (
            AuthToken(
                player=player,
                key_hash=AuthToken.hash(raw),
                created_at=now,
                last_used_at=now,
                expires_at=now + timedelta(days=1),
                user_agent="bench.chat",
            )
            for player, raw in zip(players, raws, strict=True)
        ),
        batch_size=1000,
    )
    return [
        Account(str(player.pk), {"Authorization": f"Bearer {raw}"})
        for player, raw in zip(players, raws, strict=True)
    ]


def befriend(player_id: str, friend_ids: list[str]) -> None:
    """Make them friends as `friend_add` leaves two players: a row on each side."""
    from django.utils import timezone

    from social.models import Friendship

    now = timezone.now()
    Friendship.objects.bulk_create(
        [Friendship(player_id=player_id, friend_id=other, since=now) for other in friend_ids]
        + [Friendship(player_id=other, friend_id=player_id, since=now) for other in friend_ids],
        batch_size=1000,
    )


# The load generator ----------------------------------------------------------------------------


@dataclass
class Sent:
    """One chat message as its author sent it."""

    author: str
    table: int
    kind: str  # "text" or "phrase"
    at: float  # monotonic, just before the POST
    took: float  # the POST's answer, seconds
    status: int
    code: str = ""  # a refusal's code
    message_id: str | None = None
    detail: str = ""  # a refusal's detail


@dataclass
class Presence:
    """The friends' sockets' presence messages about one player, for the event being timed."""

    subject: str = ""
    presence: str = ""
    expected: int = 0
    times: dict[str, float] = field(default_factory=dict)  # friend -> arrival
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def begin(self, subject: str, presence: str, expected: int) -> None:
        self.subject, self.presence, self.expected = subject, presence, expected
        self.times = {}
        self.done = asyncio.Event()
        if not expected:
            self.done.set()

    def seen(self, friend: str, message: dict[str, Any], at: float) -> None:
        if message.get("player_id") != self.subject or message.get("presence") != self.presence:
            return
        self.times.setdefault(friend, at)
        if len(self.times) >= self.expected:
            self.done.set()


@dataclass
class Load:
    """The state of the run: the tables, the sockets, what was sent and what arrived."""

    url: str
    http: httpx.AsyncClient
    tables: list[list[Account]] = field(default_factory=list)
    game_ids: list[str] = field(default_factory=list)
    sockets: list[ClientConnection] = field(default_factory=list)
    listeners: list[asyncio.Task[None]] = field(default_factory=list)
    opened: int = 0
    refused: int = 0
    dropped: int = 0
    stopping: bool = False
    sent: list[Sent] = field(default_factory=list)
    # message id -> receiver -> arrival (monotonic); the author's own copy is left out
    arrivals: dict[str, dict[str, float]] = field(default_factory=dict)
    others: Counter[str] = field(default_factory=Counter)  # other messages, by type
    presence: Presence = field(default_factory=Presence)
    text_share: float = 0.5  # of the messages sent, free text (the rest phrases)
    parallel: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(PARALLEL))
    # Requests in flight, at most the connections of the pool: httpcore's pool goes over every
    # request waiting in it for every connection it frees, so a queue of hundreds there (the
    # server slow) takes this process's whole core, late for everything it times.
    sending: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(CONNECTIONS))

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1)

    async def table(self, index: int, players: list[Account]) -> None:
        """A private table of these players, made by the first, joined by the others by its
        invite code, started."""
        async with self.parallel:
            host = players[0]
            created = await self.http.post(
                "/api/v1/games/", json={"max_players": len(players)}, headers=host.headers
            )
            created.raise_for_status()
            game = created.json()
            for player in players[1:]:
                joined = await self.http.post(
                    f"/api/v1/games/{game['id']}/join/",
                    json={"invite_code": game["invite_code"]},
                    headers=player.headers,
                )
                joined.raise_for_status()
            started = await self.http.post(
                f"/api/v1/games/{game['id']}/start/", headers=host.headers
            )
            started.raise_for_status()
        self.tables.append(players)
        self.game_ids.append(game["id"])

    async def open(
        self, path: str, account: Account, on_message: Callable[[dict[str, Any], float], None]
    ) -> None:
        """Open a socket for `account` and listen on it in a task of its own."""
        async with self.parallel:
            try:
                socket = await open_socket(self.http, self.ws_url, path, account.headers)
            except OPEN_ERRORS:
                self.refused += 1
                return
        self.opened += 1
        self.sockets.append(socket)
        self.listeners.append(asyncio.create_task(self.listen(socket, on_message)))

    async def listen(
        self, socket: ClientConnection, on_message: Callable[[dict[str, Any], float], None]
    ) -> None:
        try:
            async for text in socket:
                at = time.monotonic()
                on_message(json.loads(text), at)
        except ConnectionClosed:
            pass
        if not self.stopping:
            self.dropped += 1

    def on_game(self, table: int, receiver: str) -> Callable[[dict[str, Any], float], None]:
        def record(message: dict[str, Any], at: float) -> None:
            if message.get("type") != "chat":
                self.others[str(message.get("type"))] += 1
                return
            chat = message["message"]
            if chat["player"]["id"] != receiver:
                self.arrivals.setdefault(chat["id"], {})[receiver] = at

        return record

    def on_me(self, player: str) -> Callable[[dict[str, Any], float], None]:
        def record(message: dict[str, Any], at: float) -> None:
            if message.get("type") == "presence":
                self.presence.seen(player, message, at)

        return record

    async def chatter(
        self, table: int, author: Account, game_id: str, stop: float, every: tuple[float, float]
    ) -> None:
        """Send chat at a human pace until `stop`: a phrase or a text, never the last one."""
        said: tuple[str, str] | None = None
        await asyncio.sleep(random.uniform(0, sum(every) / 2))  # as if it had chatted before
        while time.monotonic() < stop:
            while True:
                kind = "text" if random.random() < self.text_share else "phrase"
                what = random.choice(TEXTS if kind == "text" else PHRASES)
                if (kind, what) != said:
                    break
            said = (kind, what)
            at = time.monotonic()
            try:
                async with self.sending:
                    response = await self.http.post(
                        f"/api/v1/games/{game_id}/chat/",
                        json={"room": "players", kind: what},
                        headers=author.headers,
                    )
            except httpx.HTTPError as error:
                self.sent.append(
                    Sent(author.player_id, table, kind, at, 0.0, 0, type(error).__name__)
                )
            else:
                took = time.monotonic() - at
                body = (
                    response.json()
                    if response.headers.get("content-type", "").startswith("application/json")
                    else {}
                )
                self.sent.append(
                    Sent(
                        author.player_id,
                        table,
                        kind,
                        at,
                        took,
                        response.status_code,
                        "" if response.status_code == 201 else str(body.get("code", "")),
                        body.get("id") if response.status_code == 201 else None,
                        "" if response.status_code == 201 else str(body.get("detail", "")),
                    )
                )
            # Not past the stop: the chat phase ends with the last message, not 20 s after it.
            await asyncio.sleep(min(random.uniform(*every), max(0.0, stop - time.monotonic())))

    def close(self) -> None:
        """Drop every socket at once (the kernel closes them: no closing handshakes to wait
        for), and the listeners."""
        self.stopping = True
        for socket in self.sockets:
            socket.transport.abort()
        for task in self.listeners:
            task.cancel()


async def gathered(
    what: str, total: int, done: Callable[[], int], jobs: Iterable[Awaitable[T]]
) -> list[T]:
    """Run the jobs together, printing `what done/total` every few seconds."""

    async def progress() -> None:
        while True:
            await asyncio.sleep(PROGRESS_SECONDS)
            print(f"  {what} {done():,}/{total:,} ...", flush=True)

    shown = asyncio.create_task(progress())
    try:
        return await asyncio.gather(*jobs)
    finally:
        shown.cancel()
        print(f"  {what} {done():,}/{total:,}", flush=True)


# CPU -------------------------------------------------------------------------------------------


class Cpu:
    """The server's processes by part (web, worker, postgres, redis), listed once (read again
    before each phase: new PostgreSQL backends), and their CPU seconds so far."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.parts: dict[str, list[psutil.Process]] = {}
        self.relist()

    def relist(self) -> None:
        self.parts = server_processes(self.server)

    def read(self, *, exact: bool = False) -> dict[str, float]:
        """The CPU so far by part; `exact`: the scheduler's count of the live threads (for a
        window of a second or two: bench._server.cpu_exact)."""
        count = cpu_exact if exact else cpu_of
        return {part: count(processes) for part, processes in self.parts.items()}


def used(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {part: after[part] - before[part] for part in after}


def minus(a: dict[str, float], b: dict[str, float], scale: float = 1.0) -> dict[str, float]:
    return {part: a[part] - scale * b.get(part, 0.0) for part in a}


def ms_parts(cpu: dict[str, float], per: float = 1.0) -> str:
    """`12.3 ms (web 8.0, worker 2.1, ...)`: seconds of CPU in all and by part, over `per`."""
    if not cpu:
        return "- (a server of someone else's: its processes are not ours to read)"
    parts = ", ".join(f"{part} {1000 * value / per:.1f}" for part, value in cpu.items())
    return f"{1000 * sum(cpu.values()) / per:.1f} ms ({parts})"


# The run ---------------------------------------------------------------------------------------


async def setup(load: Load, accounts: list[Account], tables: int, friends: list[Account]) -> None:
    seated = accounts[: tables * SEATS]
    print(f"{tables} tables of {SEATS}: making, joining, starting ...", flush=True)
    await gathered(
        "tables",
        tables,
        lambda: len(load.tables),
        (load.table(i, seated[i * SEATS : (i + 1) * SEATS]) for i in range(tables)),
    )
    jobs = [
        load.open(f"/ws/v1/games/{game_id}/", player, load.on_game(index, player.player_id))
        for index, (game_id, players) in enumerate(zip(load.game_ids, load.tables, strict=True))
        for player in players
    ]
    print(f"game sockets: opening {len(jobs):,} ...", flush=True)
    await gathered("game sockets", len(jobs), lambda: load.opened, jobs)
    games = load.opened
    print(f"me sockets: connecting {len(accounts):,} players ...", flush=True)
    friend_ids = {friend.player_id for friend in friends}
    ordered = [a for a in accounts if a.player_id in friend_ids] + [
        a for a in accounts if a.player_id not in friend_ids
    ]
    await gathered(
        "connecting",
        len(accounts),
        lambda: load.opened - games,
        (load.open("/ws/v1/me/", a, load.on_me(a.player_id)) for a in ordered),
    )


async def settle(cpu: Cpu, most: float = 60.0, idle: float = 0.03) -> float:
    """Wait (at most `most` seconds) until the worker is idle: the presence tasks of every
    socket just opened done, so that the idle figures are idle. The seconds waited."""
    begun = time.monotonic()
    while time.monotonic() - begun < most:
        before = cpu.read(exact=True).get("worker", 0.0)
        await asyncio.sleep(1)
        if cpu.read(exact=True).get("worker", 0.0) - before < idle:
            break
    return time.monotonic() - begun


async def chat_phase(
    load: Load, cpu: Cpu, seconds: float, every: tuple[float, float], idle: float, grace: float
) -> dict[str, Any]:
    cpu.relist()
    waited = await settle(cpu)
    print(f"  the worker idle after {waited:.0f} s (the sockets' presence tasks)", flush=True)
    print(f"idle, every socket open: {idle:g} s measured ...", flush=True)
    first, begun = cpu.read(), time.monotonic()
    await asyncio.sleep(idle)
    baseline = used(first, cpu.read())
    baseline_seconds = time.monotonic() - begun
    print(
        f"chat: {seconds:g} s, every seated player a message every {every[0]:g}-{every[1]:g} s ...",
        flush=True,
    )
    usage = resource.getrusage(resource.RUSAGE_SELF)
    client_before = usage.ru_utime + usage.ru_stime
    before, machine, begun = cpu.read(), busy_seconds(), time.monotonic()
    stop = begun + seconds
    with Lag() as lag:
        chatters = [
            asyncio.create_task(load.chatter(index, player, game_id, stop, every))
            for index, (game_id, players) in enumerate(zip(load.game_ids, load.tables, strict=True))
            for player in players
        ]
        while time.monotonic() < stop:
            await asyncio.sleep(min(10.0, max(0.0, stop - time.monotonic())))
            arrived = sum(len(receivers) for receivers in load.arrivals.values())
            print(
                f"  chat {time.monotonic() - begun:.0f}/{seconds:g} s: {len(load.sent):,} sent,"
                f" {arrived:,} delivered",
                flush=True,
            )
        await asyncio.gather(*chatters)  # each stops after its last answer (and a sleep)
        ended = max((sent.at + sent.took for sent in load.sent), default=stop)
        await asyncio.sleep(max(0.0, ended + grace - time.monotonic()))
    elapsed = time.monotonic() - begun
    during = used(before, cpu.read())
    machine = busy_seconds() - machine
    usage = resource.getrusage(resource.RUSAGE_SELF)
    client = usage.ru_utime + usage.ru_stime - client_before
    return {
        "begun": begun,
        "others": (machine - sum(during.values()) - client) / elapsed,
        "seconds": elapsed,
        "cpu": during,
        "net": minus(during, baseline, elapsed / baseline_seconds),
        "baseline": {part: value / baseline_seconds for part, value in baseline.items()},
        "lag": lag.samples,
        "client_cpu": client,
    }


def deliveries(load: Load) -> dict[str, Any]:
    """Each message's delivery to each other seat: latencies (s), and the missing."""
    seats = {index: [p.player_id for p in players] for index, players in enumerate(load.tables)}
    latencies, missing = [], 0
    for sent in load.sent:
        if sent.message_id is None:
            continue
        arrived = load.arrivals.get(sent.message_id, {})
        for receiver in seats[sent.table]:
            if receiver == sent.author:
                continue
            if receiver in arrived:
                latencies.append(arrived[receiver] - sent.at)
            else:
                missing += 1
    return {"latencies": latencies, "missing": missing}


async def presence_event(
    load: Load,
    cpu: Cpu,
    subject: Account,
    friends: int,
    window: float,
    socket: ClientConnection | None,
) -> tuple[ClientConnection | None, dict[str, Any]]:
    """Bring `subject` online (no socket yet) or offline (close `socket`): a quiet window, then
    the event over as long a window; the times of its friends' pushes, the CPU of both windows
    (the quiet ones of every event together are the idle baseline: `presence_rows`)."""
    going = "online" if socket is None else "offline"
    quiet = cpu.read(exact=True)
    await asyncio.sleep(window)
    baseline = used(quiet, cpu.read(exact=True))
    fresh = await ticket(load.http, subject.headers) if socket is None else ""
    load.presence.begin(subject.player_id, going, friends)
    before, begun = cpu.read(exact=True), time.monotonic()
    if socket is None:
        url = f"{load.ws_url}/ws/v1/me/?ticket={fresh}"
        socket = await connect(url, ping_interval=None, open_timeout=30)
        keep_alive(socket)
    else:
        await socket.close()
        socket = None
    handshake = time.monotonic() - begun
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(load.presence.done.wait(), window)
    await asyncio.sleep(max(0.0, begun + window - time.monotonic()))
    cost = used(before, cpu.read(exact=True))
    times = sorted(at - begun for at in load.presence.times.values())
    return socket, {
        "going": going,
        "handshake": handshake,
        "times": times,
        "missing": friends - len(times),
        "cpu": cost,
        "quiet": baseline,
    }


async def presence_phase(
    load: Load,
    cpu: Cpu,
    popular: Account,
    friends: int,
    lonely: Account,
    repeats: int,
    window: float,
) -> list[dict[str, Any]]:
    cpu.relist()
    await settle(cpu)
    events = []
    for repeat in range(repeats):
        for subject, count in ((popular, friends), (lonely, 0)):
            socket = None
            for _ in ("online", "offline"):
                socket, event = await presence_event(load, cpu, subject, count, window, socket)
                event["friends"] = count
                events.append(event)
        last = [e["times"][-1] for e in events if e["friends"] and e["times"]]
        print(
            f"  presence {repeat + 1}/{repeats}: last friend told"
            f" {1000 * max(last, default=float('nan')):.0f} ms at most so far",
            flush=True,
        )
    return events


async def run(
    url: str, accounts: list[Account], server: Server, args: Any, games: list[str]
) -> dict[str, Any]:
    """The whole run; `games` gets the tables' ids as soon as they are made (to be aborted
    whatever happens)."""
    seated = args.tables * SEATS
    connected = accounts[: args.connected]
    popular, lonely = accounts[args.connected], accounts[args.connected + 1]
    friends = connected[seated : seated + args.friends]
    # Few connections: httpcore's pool looks at each of them for every request it sends (a
    # system call each), which a pool of a hundred makes the load generator's largest cost.
    limits = httpx.Limits(max_connections=CONNECTIONS, keepalive_expiry=KEEPALIVE)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
        load = Load(url, http, game_ids=games, text_share=args.text)
        cpu = Cpu(server)
        try:
            await setup(load, connected, args.tables, friends)
            # The load generator's own full collections would stop its loop for a few hundred ms
            # with 2,800 sockets in it, late for the deliveries meanwhile: what setup made stays
            # out of them (as the web processes keep their start's objects: core/perf/garbage.py).
            gc.collect()
            gc.freeze()
            chat = await chat_phase(load, cpu, args.seconds, args.every, args.idle, args.grace)
            print(
                f"presence: a player with {len(friends)} friends online and offline,"
                f" {args.repeats} times (and one with none) ...",
                flush=True,
            )
            events = await presence_phase(
                load, cpu, popular, len(friends), lonely, args.repeats, args.window
            )
        finally:
            load.close()
    return {"load": load, "chat": chat, "events": events, "friends": len(friends)}


# The report ------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.1f}"


def by_slices(load: Load, begun: float, seconds: float, slice_: float = 10.0) -> list[float]:
    """The deliveries' p99 (s) of the messages sent in each `slice_` seconds of the chat: a p99
    that grows from slice to slice is a queue building (the server short of CPU)."""
    seats = {index: [p.player_id for p in players] for index, players in enumerate(load.tables)}
    slices: list[list[float]] = [[] for _ in range(max(1, math.ceil(seconds / slice_)))]
    for sent in load.sent:
        arrived = load.arrivals.get(sent.message_id or "", {})
        index = min(len(slices) - 1, max(0, int((sent.at - begun) // slice_)))
        slices[index] += [arrived[seat] - sent.at for seat in seats[sent.table] if seat in arrived]
    return [percentiles(one)[2] if one else float("nan") for one in slices]


def report(result: dict[str, Any], args: Any) -> list[tuple[str, str, str]]:
    """The table's rows: (measure, result, target)."""
    load: Load = result["load"]
    chat = result["chat"]
    found = deliveries(load)
    latencies = found["latencies"]
    nan = float("nan")
    statuses = Counter(sent.status for sent in load.sent)
    codes = Counter(sent.code for sent in load.sent if sent.status != 201)
    ok = [sent for sent in load.sent if sent.status == 201]
    texts = sum(1 for sent in load.sent if sent.kind == "text")
    p50, p95, p99 = percentiles(latencies) if latencies else (nan, nan, nan)
    posts = percentiles([sent.took for sent in ok]) if ok else (nan, nan, nan)
    lag = percentiles(chat["lag"])
    messages = max(1, len(ok))
    others = sum(n for status, n in statuses.items() if status not in (201, 429))
    seated = len(load.tables) * SEATS
    slices = by_slices(load, chat["begun"], args.seconds)
    rows = [
        (
            "tables; connected players (me sockets open); game sockets",
            (
                f"{len(load.tables)} of {SEATS}; {args.connected:,} (the {seated} seated among"
                f" them); {seated}"
            ),
            "",
        ),
        ("sockets refused / dropped", f"{load.refused} / {load.dropped}", "0 / 0"),
        (
            (
                f"chat sent ({args.every[0]:g}-{args.every[1]:g} s apart per player,"
                f" {100 * args.text:.0f}% text)"
            ),
            (
                f"{len(load.sent):,} in {args.seconds:g} s ({len(load.sent) - texts:,} phrases,"
                f" {texts:,} texts), {len(load.sent) / args.seconds:.1f}/s; 201: {len(ok):,}"
            ),
            "",
        ),
        (
            "refused: 429 flood / others",
            f"{statuses.get(429, 0)} / {others}{' ' + str(dict(codes)) if codes else ''}",
            "0 / 0",
        ),
        (
            "deliveries to the other 3 seats: expected / arrived / **missing**",
            f"{3 * len(ok):,} / {len(latencies):,} / **{found['missing']}**",
            "0 missing",
        ),
        (
            "**delivery** (POST sent -> on a receiver's game socket) p50 / p95 / p99 / max ms",
            f"{ms(p50)} / {ms(p95)} / **{ms(p99)}** / {ms(max(latencies, default=nan))}",
            f"p99 < {P99_TARGET_MS:g} ms: {'met' if p99 * 1000 < P99_TARGET_MS else 'NOT met'}",
        ),
        (
            "delivery p99 of the messages sent in each 10 s, ms",
            " / ".join(ms(one) for one in slices),
            "",
        ),
        (
            "`POST .../chat/` answer p50 / p95 / p99 ms",
            f"{ms(posts[0])} / {ms(posts[1])} / {ms(posts[2])}",
            "",
        ),
        (
            "server CPU per message, its idle share subtracted",
            ms_parts(chat["net"], messages),
            "",
        ),
        (
            "server CPU idle with every socket open (cores)",
            (
                f"{sum(chat['baseline'].values()):.2f}"
                f" ({', '.join(f'{k} {v:.2f}' for k, v in chat['baseline'].items())})"
            ),
            "",
        ),
        (
            "load generator: CPU per message; its loop's lag p99 / max ms; lags over 50 ms",
            (
                f"{1000 * chat['client_cpu'] / messages:.1f} ms; {ms(lag[2])} /"
                f" {ms(max(chat['lag']))}; {sum(1 for one in chat['lag'] if one > 0.05)}"
            ),
            "",
        ),
        ("the rest of the machine meanwhile (others' work, cores)", f"{chat['others']:.2f}", ""),
    ]
    for sent in [sent for sent in load.sent if sent.status != 201][:3]:
        before = [s for s in load.sent if s.author == sent.author and s.at < sent.at]
        gap = f"{sent.at - before[-1].at:.1f} s after its previous" if before else "its first"
        rows.append((f"a refusal: {sent.status} {sent.code} ({gap})", sent.detail, ""))
    rows += presence_rows(result["events"], result["friends"])
    return rows


def presence_rows(events: list[dict[str, Any]], friends: int) -> list[tuple[str, str, str]]:
    """Times and CPU of the presence events. An event's CPU is its window's less the mean of
    every quiet window of the run (not only the one before it: the sockets' renewals, every 20
    s, come in waves as they were opened, and one window may meet a crest the next misses)."""
    rows = []
    parts = events[0]["quiet"] if events else {}
    idle = {part: statistics.mean(e["quiet"][part] for e in events) for part in parts}
    for going in ("online", "offline"):
        fan = [e for e in events if e["friends"] and e["going"] == going]
        alone = [e for e in events if not e["friends"] and e["going"] == going]
        if not fan:
            continue
        last = [e["times"][-1] for e in fan if e["times"]]
        median = [statistics.median(e["times"]) for e in fan if e["times"]]
        missing = sum(e["missing"] for e in fan)
        hand = [e["handshake"] for e in fan]
        rows.append(
            (
                (
                    f"presence {going}, {friends} friends with a me socket open ({len(fan)} times):"
                    f" {'handshake' if going == 'online' else 'close'} median ms; a friend's push"
                    " median; **last friend** p50 / max ms; missing"
                ),
                (
                    f"{ms(statistics.median(hand))}; {ms(statistics.median(median))};"
                    f" **{ms(statistics.median(last))} / {ms(max(last))}**; {missing}"
                ),
                "",
            )
        )
        cost = {part: statistics.median(e["cpu"][part] for e in fan) - idle[part] for part in idle}
        lonely = (
            {part: statistics.median(e["cpu"][part] for e in alone) - idle[part] for part in idle}
            if alone
            else {}
        )
        rows.append(
            (
                (
                    f"server CPU of going {going} (median of {len(fan)}, less the mean idle"
                    f" window): with {friends} friends / with none / **the fan-out** (the"
                    " difference)"
                ),
                f"{ms_parts(cost)} / {ms_parts(lonely)} / **{ms_parts(minus(cost, lonely))}**",
                "",
            )
        )
    return rows


def everys(text: str) -> tuple[float, float]:
    low, _, high = text.partition(",")
    pair = (float(low), float(high or low))
    if not 0 < pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError("--every LOW,HIGH: seconds, 0 < LOW <= HIGH")
    return pair


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="private tables of 4")
    parser.add_argument(
        "--connected", type=int, default=2000, help="connected players, the seated included"
    )
    parser.add_argument("--seconds", type=float, default=60, help="seconds of chat measured")
    parser.add_argument(
        "--every", type=everys, default=(10.0, 20.0), help="a player's messages, LOW,HIGH s apart"
    )
    parser.add_argument("--text", type=float, default=0.5, help="the share of free text")
    parser.add_argument("--grace", type=float, default=5, help="seconds left for deliveries")
    parser.add_argument("--idle", type=float, default=10, help="seconds of idle CPU measured")
    parser.add_argument("--friends", type=int, default=500, help="the popular player's friends")
    parser.add_argument("--repeats", type=int, default=10, help="presence events of each kind")
    parser.add_argument(
        "--window", type=float, default=1, help="seconds a presence event is measured"
    )
    parser.add_argument("--url", help="an already running server (default: start one)")
    parser.add_argument("--port", type=int, help="the server's port (default: a free one)")
    args = parser.parse_args()
    if args.connected < args.tables * SEATS + args.friends:
        parser.error("--connected must hold the seated players and the friends")

    soft, _ = raise_open_files()  # the server's processes inherit it
    if soft < 2 * (args.connected + args.tables * SEATS) + 200:
        print(f"too few open files ({soft:,}) for the sockets: lower --connected", file=sys.stderr)
        return 2
    started = time.monotonic()
    setup_django(ENV if args.url is None else None)
    port = args.port or free_port()  # not a fixed one: benches of other checkouts run here too
    with serving(args.url, port, ENV) as server:
        accounts = make_accounts(args.connected + 2)
        befriend(
            accounts[args.connected].player_id,
            [a.player_id for a in accounts[args.tables * SEATS :][: args.friends]],
        )
        games: list[str] = []
        try:
            result = asyncio.run(run(server.url, accounts, server, args, games))
        finally:
            if args.url is None:
                abort_games(games)
    print("\n| measure | result | target |\n|---|---|---|")
    for row in report(result, args):
        print(f"| {' | '.join(row)} |")
    print(f"\nrun time: {time.monotonic() - started:.0f} s", flush=True)
    load: Load = result["load"]
    found = deliveries(load)
    bad = found["missing"] or load.dropped or load.refused
    bad = bad or any(sent.status != 201 for sent in load.sent)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
