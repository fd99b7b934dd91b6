"""The Locust user of bench.polling (a locustfile: `locust -f bench/_polling_player.py`).

Each user is a guest at a private table against one CPU seat, as bench.api_moves' clients
are, but one that polls instead of listening: it reads its game (`GET /api/v1/games/{id}/`)
about once a second, and when the game shows its turn it moves after a human think time
(1-3 s, uniform), polling on meanwhile. A finished game is followed by a new one. Requests
are named by route, so that Locust's figures are per route.
"""

from __future__ import annotations

import random
import time
from typing import Any

from locust import FastHttpUser, task

from bench.api_moves import move_for

POLL_SECONDS = 1.0
THINK_SECONDS = (1.0, 3.0)


class PollingPlayer(FastHttpUser):
    game_id = ""
    game: dict[str, Any] = {}
    headers: dict[str, str] = {}
    next_poll = 0.0
    move_at: float | None = None  # when the planned move of `game` is due

    def on_start(self) -> None:
        guest = self.client.post(
            "/api/v1/auth/guest/", json={"display_name": "polling"}, name="setup: guest"
        )
        self.headers = {"Authorization": f"Bearer {guest.json()['token']}"}
        self.new_game()

    def new_game(self) -> None:
        created = self.client.post(
            "/api/v1/games/", json={"max_players": 2}, headers=self.headers, name="setup: game"
        )
        self.game_id = created.json()["id"]
        for step in ("cpu", "start"):
            self.client.post(
                f"/api/v1/games/{self.game_id}/{step}/", headers=self.headers, name=f"setup: {step}"
            )
        self.move_at = None
        self.next_poll = time.monotonic()

    def wait_time(self) -> float:
        due = self.next_poll if self.move_at is None else min(self.next_poll, self.move_at)
        return max(0.0, due - time.monotonic())

    @task
    def step(self) -> None:
        """The planned move when it is due, else the next poll."""
        now = time.monotonic()
        if self.move_at is not None and now >= self.move_at:
            self.move_at = None
            self.client.post(
                f"/api/v1/games/{self.game_id}/actions/",
                json=move_for(self.game),
                headers=self.headers,
                name="POST /games/{id}/actions/",
            )
            return
        # About once a second; a poll answered late is not made up for with a burst.
        self.next_poll = max(self.next_poll + POLL_SECONDS, now)
        response = self.client.get(
            f"/api/v1/games/{self.game_id}/", headers=self.headers, name="GET /games/{id}/"
        )
        if response.status_code != 200:
            return
        game = response.json()
        if game["status"] != "active":
            self.new_game()
            return
        mine = game["turn"] is not None and game["turn"]["seat"] == game["you"]["seat"]
        if mine and self.move_at is None:
            self.game = game
            self.move_at = time.monotonic() + random.uniform(*THINK_SECONDS)
