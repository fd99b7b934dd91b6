"""The bot's loop: queue on the bots' ladder, wait for a table, play the game, again.

    next_game:  ws /ws/v1/me/ -> "hello" (a game in play? a ticket?) -> POST a ticket
                -> {"type": "ticket", status "matched", "game_id"}
    play:       ws /ws/v1/games/{id}/ -> every change as {"type": "game", "event", "game"}
                on our turn: the strategy's move -> POST /games/{id}/actions/ (Idempotency-Key)
                a socket lost -> open it again with ?after=<the last seq we saw>: the server
                first sends everything we missed, so no turn goes by unseen

Both sockets ping the server and notice when it goes silent (`Socket` in api.py). SIGINT or
SIGTERM: finish the game in play, queue no more (twice: stop now). SIGUSR1 cuts the game
socket, to see the resume work.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from examples.bot.api import Api, ApiError, Socket, error_code, jitter
from examples.bot.strategies import Strategy

log = logging.getLogger("bot")

PERMANENT_CLOSES = {4401, 4403, 4404}  # a bad token, a ban or a stranger, no such game


@dataclass
class GameStats:
    """What the bot saw of one game (printed, and written with --stats)."""

    game: str
    status: str = ""
    place: int | None = None
    players: int = 0
    moves: int = 0
    latencies_ms: list[float] = field(default_factory=list)  # POST .../actions/, each move
    errors: list[str] = field(default_factory=list)  # answers the bot did not expect
    reconnects: int = 0
    cuts: int = 0  # sockets cut on purpose (SIGUSR1)
    timeouts: int = 0  # turns the server's clock played for us (player_away for our seat)


class Bot:
    def __init__(self, api: Api, strategy: Strategy, player_counts: list[int]) -> None:
        self.api = api
        self.strategy = strategy
        self.player_counts = player_counts
        self.stopping = False
        self.socket: Socket | None = None  # the game socket, while one is open
        self.stats: GameStats | None = None
        self.stats_file: str | None = None

    # -- the ladder -------------------------------------------------------------------------

    async def run(self, games: int) -> int:
        """Play `games` ladder games (fewer when stopped); the number of errors seen."""
        me = await self.api.get("/me/")
        log.info("signed in as %s (bot: %s)", me["display_name"], me["is_bot"])
        played = errors = 0
        while played < games and not self.stopping:
            try:
                game_id = await self.next_game()
                if game_id is None:
                    break
                stats = await self.play(game_id)
            except (ApiError, OSError, RuntimeError) as error:
                errors += 1  # the next turn of the loop finds the game in play again (hello)
                log.error("%s", error)
                await asyncio.sleep(5)
                continue
            played += 1
            errors += len(stats.errors)
            self.report(stats, played, games)
        return errors

    async def next_game(self) -> str | None:
        """Queue (pool `bots`) and wait for the table: its game id; None if stopped first."""
        while not self.stopping:
            try:
                async with self.api.socket("/ws/v1/me/") as socket:
                    return await self.wait_for_table(socket)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                log.warning("me socket: %r; opening it again", error)
                await asyncio.sleep(jitter.uniform(1, 3))
        return None

    async def wait_for_table(self, socket: Socket) -> str | None:
        # The first message says where we stand: a game in play (after a crash, say) or a
        # ticket still searching. Nothing sent before the socket opened is lost.
        hello = await socket.receive(timeout=10)
        if hello is None or hello.get("type") != "hello":
            hello = await self.api.get("/me/")  # a server without the hello
        if hello["active_game"]:
            return str(hello["active_game"])
        ticket = hello["ticket"] or await self.queue()
        while True:
            if ticket is None:  # a ticket or a table we did not know of: ask again
                now = await self.api.get("/me/")
                if now["active_game"]:
                    return str(now["active_game"])
                ticket = now["ticket"] or await self.queue()
                continue
            if ticket["status"] == "matched":
                return str(ticket["game_id"])
            if ticket["status"] in ("expired", "cancelled"):
                ticket = await self.queue()
                continue
            if self.stopping:
                await self.api.call("DELETE", f"/matchmaking/tickets/{ticket['id']}/")
                return None
            message = await socket.receive(timeout=1)
            if message and message["type"] == "ticket" and message["ticket"]["id"] == ticket["id"]:
                ticket = message["ticket"]

    async def queue(self) -> dict[str, Any] | None:
        """A new ticket in the bots' pool; None when the server says we have one, or a table."""
        body = {"player_counts": self.player_counts, "pool": "bots"}
        response = await self.api.call("POST", "/matchmaking/tickets/", body)
        if response.status_code == 201:
            log.info("queued for tables of %s", self.player_counts)
            return dict(response.json())
        if error_code(response) in ("already_queued", "in_game"):
            return None
        raise ApiError(response)  # 409 not_bot: this token is not a bot's (docs/bots.md)

    # -- a game -----------------------------------------------------------------------------

    async def play(self, game_id: str) -> GameStats:
        stats = self.stats = GameStats(game_id)
        game: dict[str, Any] | None = None  # the newest state we hold
        acted = -1  # the seq we last sent a move for
        log.info("game %s", game_id)
        while True:
            path = f"/ws/v1/games/{game_id}/"
            if game is not None:
                path += f"?after={game['seq']}"  # resume: everything after what we saw
            try:
                async with self.api.socket(path) as socket:
                    self.socket = socket
                    while True:
                        if game is not None and game["status"] != "active":
                            return self.finished(stats, game)
                        if game is not None and our_turn(game) and game["seq"] != acted:
                            acted = game["seq"]
                            game = await self.act(game)
                            continue
                        message = await socket.receive(timeout=60)
                        if message is None:
                            continue
                        if message["type"] == "game":
                            self.seen(stats, message["event"], message["game"])
                            if game is None or message["game"]["seq"] >= game["seq"]:
                                game = message["game"]
                        elif message["type"] == "error":
                            log.warning("game socket: %s", message)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                if closed_for_good(error):
                    raise RuntimeError(f"game {game_id}: socket refused ({error})") from error
                stats.reconnects += 1
                seq = None if game is None else game["seq"]
                log.warning("game socket lost (%r); resuming after seq %s", error, seq)
                await asyncio.sleep(jitter.uniform(0.2, 1.0))
            finally:
                self.socket = None

    async def act(self, game: dict[str, Any]) -> dict[str, Any]:
        """Our move in `game`: the game after it (or as it stands, if it had moved on)."""
        assert self.stats is not None
        move = await self.strategy(self.api, game)
        if move is None:
            return dict(await self.api.get(f"/games/{game['id']}/"))
        move.setdefault("seq", game["seq"])
        # One key per game and seq: a retry after a lost answer is applied at most once.
        key = f"{game['id']}:{move['seq']}"
        started = time.perf_counter()
        response = await self.api.call("POST", f"/games/{game['id']}/actions/", move, key=key)
        if response.status_code == 200:
            self.stats.latencies_ms.append((time.perf_counter() - started) * 1000)
            self.stats.moves += 1
            return dict(response.json())
        code = error_code(response)
        if code == "stale_seq":  # someone moved first (a turn limit, say): the body has the game
            return dict(response.json()["game"])
        self.stats.errors.append(f"{response.status_code} {code}")
        log.error("move %s refused: %s %s", move, response.status_code, response.text[:200])
        return dict(await self.api.get(f"/games/{game['id']}/"))

    def seen(self, stats: GameStats, event: dict[str, Any] | None, game: dict[str, Any]) -> None:
        you = game["you"]
        if event and event["type"] == "player_away" and you and event["seat"] == you["seat"]:
            stats.timeouts += 1
            log.warning("the turn limit played a turn for us (seq %s)", event["seq"])

    def finished(self, stats: GameStats, game: dict[str, Any]) -> GameStats:
        stats.status = game["status"]
        stats.players = len(game["seats"])
        you = game["you"]
        if you is not None:
            stats.place = game["seats"][you["seat"]].get("place")
        return stats

    # -- the sockets ------------------------------------------------------------------------

    def cut(self) -> None:
        """Drop the game socket as a network failure would (no closing handshake)."""
        if self.socket is not None and self.stats is not None:
            self.stats.cuts += 1
            log.warning("cutting the game socket")
            self.socket.cut()

    def report(self, stats: GameStats, played: int, games: int) -> None:
        log.info(
            "game %s %s: place %s of %s, %d moves, %d reconnects, %d errors (%d/%d)",
            stats.game, stats.status, stats.place, stats.players, stats.moves,
            stats.reconnects, len(stats.errors), played, games,
        )  # fmt: skip
        if self.stats_file:
            with open(self.stats_file, "a") as out:
                out.write(json.dumps(asdict(stats)) + "\n")


def our_turn(game: dict[str, Any]) -> bool:
    you, turn = game["you"], game["turn"]
    return bool(you and turn and turn["seat"] == you["seat"])


def closed_for_good(error: Exception) -> bool:
    """A refusal that opening the socket again will not change."""
    if isinstance(error, InvalidStatus):
        return error.response.status_code in (401, 403, 404)
    if isinstance(error, ConnectionClosed) and error.rcvd is not None:
        return error.rcvd.code in PERMANENT_CLOSES
    return False
