"""Scale-out on this machine: 1, 2 and 3 web processes behind nginx (issue 20).

For each count it starts that many uvicorn processes (one worker each, each on its own port,
the production settings) behind an nginx of Debian's package configured from
deploy/nginx.conf (the compose proxy: its locations and proxy headers, websockets included;
only the upstream, the port and the paths of an unprivileged instance differ), with two
Celery workers, and runs bench.api_moves' two loads through it: flat out and at a human pace.
Its clients check what must hold across processes:
- pushes in order: each socket's messages come in seq order with no seq skipped (a skipped one
  is refetched with `GET .../events/`, as docs/api.md tells clients, and must be there);
- no lost update: each game's `seq` is the number of its actions, each seq 1..`seq` once
  among its `played` / `yaniv_called` events;
- exactly once: every move a client had a 200 for is its seat's action at that seq, and its
  seat made no other; every `--probe-every`-th move is sent twice at once (one of the two with
  an `Idempotency-Key`, through the round-robin, often to two processes): exactly one is
  applied, the other refused with 409; the keyed one sent again gets the first answer again
  (or, when it was the refused one, is refused again).

    python -m bench.scale [--webs 1,2,3] [--clients 64] [--seconds 30] [--warmup 10]
                          [--pgbouncer [HOST[:PORT]]]

With `--pgbouncer` every process (web, workers, the bench's own reads) reaches PostgreSQL
through a PgBouncer of its own in transaction pooling mode (`devtools.devservers.PgBouncer`,
Debian's `pgbouncer`), `DATABASE_POOLER=pgbouncer`, and the same checks must hold.

It runs on the servers of DATABASE_URL / REDIS_URL, as `make bench` sets them
(`python -m devtools.devservers exec --fast -- python -m bench.scale`), with the per-player and
guest-creation limits raised as bench.api_moves does, and exits 1 if a check failed. It needs
nginx (`apt-get install nginx`; Debian's is `/usr/sbin/nginx`).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx

from bench._server import (
    ROOT,
    Server,
    abort_games,
    busy_seconds,
    cpu_seconds,
    free_port,
    prepared,
    setup_django,
    spawn,
    stop,
    wait_healthy,
    web_command,
    worker_command,
)
from bench.api_moves import LIMITS, Player, move_for, moves_under_load, percentiles
from devtools.devservers import PgBouncer, find_pgbouncer, pgbouncer_in_front

NGINX_TEMPLATE = ROOT / "deploy" / "nginx.conf"
UPSTREAM = "yaniv_web"
ACTIONS = ("played", "yaniv_called")  # the events of an action: one each, at its seq
REFUSED = ("stale_seq", "not_active")  # the codes of the loser of two sends of one move


def find_nginx() -> str | None:
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def _swap(text: str, pattern: str, new: str, count: int = 1) -> str:
    """`text` with each of the `count` lines or words `pattern` matches replaced by `new`."""
    found = len(re.findall(pattern, text, flags=re.MULTILINE))
    if found != count:
        raise ValueError(f"{NGINX_TEMPLATE.name}: {count} of {pattern!r} expected, {found} found")
    return re.sub(pattern, lambda match: new, text, flags=re.MULTILINE)


def nginx_conf(
    template: str, prefix: Path, port: int, webs: Sequence[int | str], *, host: str = "127.0.0.1"
) -> str:
    """deploy/nginx.conf (`template`) as an instance of our own: in the foreground, listening on
    `host`:`port`, its pid and temporary files under `prefix`, the web processes `webs` (a port
    on 127.0.0.1, or `address:port`) its upstream. Docker's resolver and the name `web` give
    way to an upstream block (round-robin, as nginx spreads over the addresses of the
    replicas); the locations and every proxy directive stay the template's, so that the bench
    measures that proxy."""
    temp = "".join(
        f"    {kind}_temp_path {prefix / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    upstreams = (web if isinstance(web, str) else f"127.0.0.1:{web}" for web in webs)
    servers = "".join(f"        server {web};\n" for web in upstreams)
    conf = _swap(template, r"^[ \t]*resolver(_timeout)? .*;\n", "", count=2)
    conf = _swap(
        conf, r"^http \{\n", f"http {{\n{temp}\n    upstream {UPSTREAM} {{\n{servers}    }}\n"
    )
    conf = _swap(conf, r"\blisten 80;", f"listen {host}:{port};")
    conf = _swap(conf, r"\bset \$web http://[^;]+;", f"set $web http://{UPSTREAM};")
    return f"daemon off;\npid {prefix / 'nginx.pid'};\n\n{conf}"


@contextmanager
def nginx_in_front(
    nginx: str,
    port: int,
    webs: Sequence[int | str],
    env: dict[str, str],
    *,
    host: str = "127.0.0.1",
) -> Iterator[subprocess.Popen[bytes]]:
    """nginx on `host`:`port` in front of the web processes `webs` (nginx_conf), until the
    block ends."""
    with tempfile.TemporaryDirectory(prefix="bench-nginx-") as directory:
        prefix = Path(directory)
        prefix.chmod(0o755)  # run as root, nginx's workers are `nobody`: they use its temp dirs
        conf = prefix / "nginx.conf"
        conf.write_text(nginx_conf(NGINX_TEMPLATE.read_text(), prefix, port, webs, host=host))
        command = [nginx, "-p", str(prefix), "-c", str(conf), "-e", "stderr"]
        checked = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True)
        if checked.returncode:
            raise RuntimeError(f"nginx refused {conf}:\n{checked.stderr}")
        process = spawn("nginx", command, env)
        try:
            yield process
        finally:
            stop(process)


# What must hold, each a function of what the clients saw (tests/config/test_bench_scale.py).


def push_faults(seqs: list[int]) -> tuple[int, int]:
    """Of one socket's messages, by seq (its first: the game's on connect, then each event's):
    how many went back (out of order) and how many skipped a seq (a gap)."""
    back = sum(1 for before, after in pairwise(seqs) if after < before)
    skipped = sum(1 for before, after in pairwise(seqs) if after > before + 1)
    return back, skipped


def gap_fault(last: int, seq: int, refetched: list[dict[str, Any]]) -> str | None:
    """A socket went from seq `last` to `seq`: the events read after `last` must hold each
    action between."""
    held = {event["seq"] for event in refetched if event["type"] in ACTIONS}
    if missing := [s for s in range(last + 1, seq) if s not in held]:
        return f"a socket skipped from seq {last} to {seq}; the events read after lack {missing}"
    return None


def action_faults(game_id: str, seq: int, events: list[dict[str, Any]]) -> list[str]:
    """A lost (or doubled) update: the game's actions are not seqs 1..`seq`, once each."""
    seqs = sorted(event["seq"] for event in events if event["type"] in ACTIONS)
    if seqs == list(range(1, seq + 1)):
        return []
    return [f"game {game_id}: seq {seq}, but its actions are at seqs {seqs}"]


def once_faults(
    game_id: str, seat: int, applied: list[int], events: list[dict[str, Any]]
) -> list[str]:
    """The seat's own moves (`played` by the player, or its Yaniv) are at the seqs the client
    had a 200 for (`applied`: the seq each such move made), no more, no fewer."""
    mine = sorted(
        event["seq"]
        for event in events
        if event["type"] in ACTIONS
        and event["seat"] == seat
        and event.get("by", "player") == "player"
    )
    if mine == sorted(applied):
        return []
    return [f"game {game_id}: 200s made seqs {sorted(applied)}, the seat's moves are at {mine}"]


Answer = tuple[int, dict[str, Any]]


def _said(answer: Answer) -> str:
    return f"{answer[0]} {answer[1].get('code', '')}".strip()


def probe_fault(keyed: Answer, bare: Answer, again: Answer) -> str | None:
    """One move sent twice at once (`keyed` with an Idempotency-Key, `bare` without), then
    `again` with the key: what breaks the contract (docs/api.md, Actions), if anything."""
    won = [answer for answer in (keyed, bare) if answer[0] == 200]
    lost = [answer for answer in (keyed, bare) if answer[0] != 200]
    if len(won) != 1 or lost[0][0] != 409 or lost[0][1].get("code") not in REFUSED:
        return f"a move sent twice at once got {_said(keyed)} and {_said(bare)}"
    if keyed[0] == 200 and again != keyed:
        return f"the keyed move sent again got {_said(again)}, not its first answer"
    if keyed[0] != 200 and (again[0] != 409 or again[1].get("code") not in REFUSED):
        return f"the refused keyed move sent again got {_said(again)}"
    return None


async def events_of(
    http: httpx.AsyncClient, headers: dict[str, str], game_id: str, after: int = -1
) -> list[dict[str, Any]]:
    """The game's events after `after` as this player may see them, every page (by `next`, a
    full URL: through the proxy, it must keep the proxy's port)."""
    events: list[dict[str, Any]] = []
    url: str | None = f"/api/v1/games/{game_id}/events/?after={after}"
    while url:
        response = await http.get(url, headers=headers)
        response.raise_for_status()
        page = response.json()
        events += page["results"]
        url = page["next"]
    return events


class CheckingPlayer(Player):
    """bench.api_moves' client, keeping what the checks need: each socket's seqs, the seq each
    of its applied moves made, and the probes (every `probe_every`-th move)."""

    probe_every = 10

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.sockets: list[list[int]] = []
        self.gap_faults: list[str] = []
        self.applied: dict[str, list[int]] = defaultdict(list)
        self.sent = 0
        self.probe_faults: list[str] = []

    async def play_on_socket(self, game_id: str, stop: float, *, resume: bool) -> None:
        self.sockets.append([])
        await super().play_on_socket(game_id, stop, resume=resume)

    async def pushed(self, game_id: str, message: dict[str, Any]) -> None:
        seqs, event = self.sockets[-1], message["event"]
        if event is None:  # the game on connect; or a change without an event
            if not seqs:
                seqs.append(message["game"]["seq"])
            return
        if seqs and event["seq"] > seqs[-1] + 1:
            refetched = await events_of(self.http, self.headers, game_id, seqs[-1])
            if fault := gap_fault(seqs[-1], event["seq"], refetched):
                self.gap_faults.append(fault)
        seqs.append(event["seq"])

    async def move(self, game_id: str, game: dict[str, Any]) -> tuple[int, bool]:
        self.sent += 1
        if self.sent % self.probe_every:
            status, timed = await super().move(game_id, game)
        else:
            status, timed = await self.probe(game_id, game), False
        if status == 200:
            self.applied[game_id].append(game["seq"] + 1)
        return status, timed

    async def probe(self, game_id: str, game: dict[str, Any]) -> int:
        """The move sent twice at once, then the keyed one again; 200 if one was applied."""
        url, body = f"/api/v1/games/{game_id}/actions/", move_for(game)
        keyed_headers = {**self.headers, "Idempotency-Key": uuid.uuid4().hex}
        first = await asyncio.gather(
            self.http.post(url, json=body, headers=keyed_headers),
            self.http.post(url, json=body, headers=self.headers),
        )
        again = await self.http.post(url, json=body, headers=keyed_headers)
        keyed, bare, repeat = ((r.status_code, r.json()) for r in (*first, again))
        if fault := probe_fault(keyed, bare, repeat):
            self.probe_faults.append(fault)
        return 200 if 200 in (keyed[0], bare[0]) else keyed[0]


@dataclass
class Checks:
    """What the clients of one or more loads saw, and each fault, by check."""

    pushes: int = 0
    gaps: int = 0
    games: int = 0
    moves: int = 0
    probes: int = 0
    order: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    twice: list[str] = field(default_factory=list)

    def cells(self) -> list[str]:
        def cell(faults: list[str], what: str) -> str:
            return (
                f"{'no' if faults else 'yes'} ({f'{len(faults)} faults, ' if faults else ''}{what})"
            )

        return [
            cell(self.order, f"{self.pushes:,} pushes, {self.gaps} gaps"),
            cell(self.lost, f"{self.games:,} games"),
            cell(self.twice, f"{self.moves:,} moves, {self.probes:,} sent twice"),
        ]


async def verify(url: str, players: Sequence[CheckingPlayer], checks: Checks) -> None:
    """Add what these players of a finished load saw, and each game's state and events as
    they read them now, to `checks`."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:

        async def games_of(player: CheckingPlayer) -> None:
            for game_id in player.game_ids:
                response = await http.get(f"/api/v1/games/{game_id}/", headers=player.headers)
                response.raise_for_status()
                game = response.json()
                events = await events_of(http, player.headers, game_id)
                applied = player.applied[game_id]
                checks.games += 1
                checks.moves += len(applied)
                checks.lost += action_faults(game_id, game["seq"], events)
                checks.twice += once_faults(game_id, game["you"]["seat"], applied, events)

        await asyncio.gather(*(games_of(player) for player in players))
    for player in players:
        for seqs in player.sockets:
            back, skipped = push_faults(seqs)
            checks.pushes += len(seqs)
            checks.gaps += skipped
            checks.order += [f"a socket's pushes went back {back} times: {seqs}"] if back else []
        checks.order += player.gap_faults
        checks.probes += player.sent // player.probe_every
        checks.twice += player.probe_faults


def run_load(
    url: str, clients: int, seconds: float, checks: Checks, *, warmup: float, think: float = 0.0
) -> Any:
    """One of bench.api_moves' loads through `url`, its tables then ended and checked."""
    result = asyncio.run(
        moves_under_load(url, clients, seconds, kind=CheckingPlayer, warmup=warmup, think=think)
    )
    abort_games(result["games"])  # no CPU plays on while the clients read the games
    asyncio.run(verify(url, result["players"], checks))
    return result


@contextmanager
def rest_of_machine(server: Server) -> Iterator[list[float]]:
    """The CPU that other work than the bench's used during the block, in % of one core: put
    in the list given, when the block ends."""
    share: list[float] = []
    ours, busy, began = cpu_seconds(server), busy_seconds(), time.monotonic()
    yield share
    used = sum(cpu_seconds(server).values()) - sum(ours.values())
    share.append(100 * max(0.0, busy_seconds() - busy - used) / (time.monotonic() - began))


def measure(
    count: int,
    nginx: str,
    env: dict[str, str],
    workers: dict[str, subprocess.Popen[bytes]],
    args: argparse.Namespace,
) -> tuple[str, bool]:
    """The table's row of `count` web processes behind nginx, and whether every check held."""
    ports = [free_port() for _ in range(count)]
    webs = {
        f"web{n}": spawn(f"web{n}", web_command(port, 1), env) for n, port in enumerate(ports, 1)
    }
    checks = Checks()
    try:
        for port in ports:
            wait_healthy(f"http://127.0.0.1:{port}")
        proxy_port = free_port()
        with nginx_in_front(nginx, proxy_port, ports, env) as proxy:
            server = Server(f"http://127.0.0.1:{proxy_port}", env, {**webs, **workers})
            server.processes["nginx"] = proxy
            wait_healthy(server.url)
            n, seconds, warmup = args.clients, args.seconds, args.warmup
            timing = f"{n} clients, {warmup:.0f}+{seconds:.0f} s"
            with rest_of_machine(server) as others:
                print(f"{count} web: flat out, {timing} ...", flush=True)
                flat = run_load(server.url, n, seconds, checks, warmup=warmup)
                print(f"{count} web: human pace, {timing} ...", flush=True)
                paced = run_load(server.url, n, seconds, checks, warmup=warmup, think=args.think)
    finally:
        for process in webs.values():
            stop(process)
    for fault in (checks.order + checks.lost + checks.twice)[:10]:
        print(f"  FAULT: {fault}", file=sys.stderr)
    move = "/".join(f"{1000 * value:.0f}" for value in percentiles(paced["lat"]))
    reply = percentiles(paced["replies"])
    figures = [
        f"{flat['rate']:.0f}",
        move,
        f"{1000 * reply[0]:.0f}/{1000 * reply[2]:.0f}",
        f"{others[0]:.0f}%",
    ]
    row = f"| {count} | " + " | ".join(figures + checks.cells()) + " |"
    print(row, flush=True)
    return row, not (checks.order or checks.lost or checks.twice)


def pgbouncer_said(bouncer: PgBouncer) -> str:
    """PgBouncer's pool as its console tells it now: what the processes shared."""
    import psycopg

    said = f"PgBouncer (transaction pooling, default_pool_size {bouncer.pool_size})"
    console = bouncer.url.rsplit("/", 1)[0] + "/pgbouncer"
    try:
        with psycopg.connect(console, autocommit=True) as conn:
            cursor = conn.execute("SHOW STATS")  # no parameters: the simple protocol it needs
            names = [column.name for column in cursor.description or []]
            stats = {row[0]: dict(zip(names, row, strict=True)) for row in cursor.fetchall()}
    except psycopg.Error as error:
        return f"{said}; its console did not answer: {error}"
    row = stats.get(bouncer.url.rsplit("/", 1)[1].split("?")[0])
    if row is None:
        return said
    waited = float(row.get("total_wait_time", 0)) / 1e6  # microseconds
    transactions, queries = int(row["total_xact_count"]), int(row["total_query_count"])
    return (
        f"{said}: {transactions:,} transactions, {queries:,} queries,"
        f" {waited:.1f} s waited for a server connection in all"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--webs", default="1,2,3", help="web process counts, one row each")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30, help="measured, per load")
    parser.add_argument("--warmup", type=float, default=10, help="not measured, per load")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, human pace")
    parser.add_argument("--probe-every", type=int, default=10, help="every N-th move sent twice")
    parser.add_argument(
        "--pgbouncer",
        nargs="?",
        const="127.0.0.1",
        metavar="HOST[:PORT]",
        help="PostgreSQL through a PgBouncer of its own (transaction pooling) on HOST",
    )
    args = parser.parse_args()
    if args.pgbouncer is not None and find_pgbouncer() is None:
        print("--pgbouncer needs pgbouncer (Debian: apt-get install pgbouncer)", file=sys.stderr)
        return 2
    nginx = find_nginx()
    if nginx is None:
        print(
            "bench.scale needs nginx, found neither on PATH nor in /usr/sbin: "
            "install it (Debian: apt-get install nginx) and run again",
            file=sys.stderr,
        )
        return 2
    CheckingPlayer.probe_every = args.probe_every
    with ExitStack() as stack:
        bouncer = None
        if args.pgbouncer is not None:
            bouncer = stack.enter_context(pgbouncer_in_front(args.pgbouncer))
        setup_django()
        began = time.monotonic()
        env = prepared({**LIMITS, "FORWARDED_ALLOW_IPS": "127.0.0.1"})  # the one proxy
        workers = {
            f"worker{n}": spawn(f"worker{n}", worker_command(name=f"worker{n}"), env)
            for n in (1, 2)
        }
        try:
            rows = [measure(int(c), nginx, env, workers, args) for c in args.webs.split(",")]
        finally:
            for process in workers.values():
                stop(process)
        behind = f"; PostgreSQL through {pgbouncer_said(bouncer)}" if bouncer else ""
    print(
        f"\n{args.clients} clients vs CPU seats through nginx, 2 Celery workers; human pace: "
        f"{args.think / 2:g}-{args.think * 1.5:g} s to think{behind}; "
        f"{time.monotonic() - began:.0f} s in all"
    )
    print(
        "\n| web processes | moves/s flat out | human pace: move p50/p95/p99 ms "
        "| reply p50/p99 ms | rest of machine CPU | pushes in order | no lost update "
        "| exactly once |"
    )
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(row for row, _ in rows))
    return 0 if all(held for _, held in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
