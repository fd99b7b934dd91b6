"""The Locust user of bench.polling (a locustfile: `locust -f bench/_polling_player.py`).

Each user is a guest at a private table against one CPU seat, as bench.api_moves' clients
are, but one that polls instead of listening: it reads its game (`GET /api/v1/games/{id}/`)
about once a second, and when the game shows its turn it moves after a human think time
(1-3 s, uniform), polling on meanwhile. A finished game is followed by a new one. A request
the server did not answer (a saturated server's timeout) is what a client would do again: a
setup step is retried at the next poll, a lost table is found again with `GET /me/`.
Requests are named by route, so that Locust's figures are per route.

Like a good client, it polls with `If-None-Match`: the ETag of the game it holds, which the
server answers 304 with no body while the game has not changed (docs/api.md, Polling a game).
YANIV_POLLING_CONDITIONAL=0 polls without it, as a client that ignores ETags does (every poll
a 200 with the game); bench.polling's `--no-conditional` sets it.

With YANIV_POLLING_REPORT set, the master (or the only process) writes Locust's stats and
errors there as JSON when it quits, after the last reports of its workers.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

from locust import FastHttpUser, events, runners, task
from locust.env import Environment
from locust.runners import WorkerRunner

from bench.api_moves import move_for

POLL_SECONDS = 1.0
CONDITIONAL = os.environ.get("YANIV_POLLING_CONDITIONAL", "1") != "0"
THINK_SECONDS = (1.0, 3.0)
# The master stops the whole run when a worker misses 3 s of heartbeats (its default): on a
# machine this busy a worker can wait that long for a core. Missed heartbeats still show.
runners.HEARTBEAT_LIVENESS = 30
_environment: list[Environment] = []


def _keep(environment: Environment, **kwargs: Any) -> None:
    _environment.append(environment)


def _report(exit_code: int, **kwargs: Any) -> None:
    path, runner = os.environ.get("YANIV_POLLING_REPORT"), _environment[0].runner
    if path and runner is not None and not isinstance(runner, WorkerRunner):
        stats = {"stats": runner.stats.serialize_stats(), "errors": runner.stats.serialize_errors()}
        Path(path).write_text(json.dumps(stats))


events.init.add_listener(_keep)  # type: ignore[no-untyped-call]  # (locust)
events.quit.add_listener(_report)  # type: ignore[no-untyped-call]


class PollingPlayer(FastHttpUser):
    headers: dict[str, str] = {}
    game_id = ""
    game: dict[str, Any] = {}  # the game as last read (a 304 keeps it)
    etag: str | None = None  # its ETag
    next_poll = 0.0
    move_at: float | None = None  # when the planned move of `game` is due

    def wait_time(self) -> float:
        due = self.next_poll if self.move_at is None else min(self.next_poll, self.move_at)
        return max(0.0, due - time.monotonic())

    @task
    def step(self) -> None:
        """The planned move when it is due, else the next poll (after what setup remains)."""
        now = time.monotonic()
        if self.move_at is not None and now >= self.move_at:
            self.move_at = None
            self.post("actions", body=move_for(self.game), name="POST /games/{id}/actions/")
            return
        # About once a second; a poll answered late is not made up for with a burst.
        self.next_poll = max(self.next_poll + POLL_SECONDS, now)
        if self.seated():
            self.poll()

    def seated(self) -> bool:
        """Signed in, with a table: as far as the server lets it get this time."""
        if not self.headers:
            guest = self.client.post(
                "/api/v1/auth/guest/", json={"display_name": "polling"}, name="setup: guest"
            )
            if guest.status_code != 201:
                return False
            self.headers = {"Authorization": f"Bearer {guest.json()['token']}"}
        if not self.game_id:
            created = self.client.post(
                "/api/v1/games/", json={"max_players": 2}, headers=self.headers, name="setup: game"
            )
            if created.status_code == 201:
                self.game_id = created.json()["id"]
                self.post("cpu")
                self.post("start")  # (a step that failed is done again by the poll)
            elif created.status_code == 409:  # a table it created, whose answer it missed
                me = self.client.get("/api/v1/me/", headers=self.headers, name="setup: me")
                if me.status_code == 200:
                    self.game_id = me.json()["active_game"] or ""
        return bool(self.game_id)

    def poll(self) -> None:
        headers = self.headers
        if CONDITIONAL and self.etag is not None and self.game.get("id") == self.game_id:
            headers = {**headers, "If-None-Match": self.etag}
        response = self.client.get(
            f"/api/v1/games/{self.game_id}/", headers=headers, name="GET /games/{id}/"
        )
        if response.status_code == 200:
            etag = None if response.headers is None else response.headers.get("ETag")
            self.game, self.etag = response.json(), etag if isinstance(etag, str) else None
        elif response.status_code != 304:
            return
        game = self.game
        if game["status"] == "waiting":  # new: the CPU seat, then the start
            self.post("cpu" if len(game["seats"]) < 2 else "start")
        elif game["status"] != "active":
            self.game_id = ""  # finished: a new table at the next poll
        elif self.move_at is None and game["turn"] and game["turn"]["seat"] == game["you"]["seat"]:
            # Its turn: a move, once thought over (a 304 while it thinks changes nothing).
            self.move_at = time.monotonic() + random.uniform(*THINK_SECONDS)

    def post(self, what: str, *, body: Any = None, name: str = "") -> None:
        self.client.post(
            f"/api/v1/games/{self.game_id}/{what}/",
            json=body,
            headers=self.headers,
            name=name or f"setup: {what}",
        )
