"""The bot's side of the public API (docs/api.md): REST calls that wait out limits and
outages, and the two sockets, opened with the bot token.

Every call goes through `Api.call`, which retries what is safe to retry:
- 429 (a limit) and 503 (the server cannot reach its database): it waits `Retry-After`
  seconds, as the answer asks, and sends the same request again;
- a dropped connection or a timeout: it waits a little longer each time and sends again, but
  only a GET or a request with an `Idempotency-Key` (the server applies that one at most once).
Any other answer goes back to the caller, who decides what a 4xx means.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from secrets import SystemRandom
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

log = logging.getLogger("bot")
jitter = SystemRandom()  # spreads the retries of many bots apart

API = "/api/v1"
RETRIES = 8  # a dropped connection: tries before giving up (about 4 minutes of backing off)
PING_SECONDS = 20.0  # how often a socket says it is there
SILENT_SECONDS = 60.0  # nothing heard for this long (keepalives come every 20 s): a dead socket


class ApiError(Exception):
    """An answer the bot did not expect: the status and the body's `code`."""

    def __init__(self, response: httpx.Response) -> None:
        self.status = response.status_code
        self.code = error_code(response)
        super().__init__(
            f"{response.request.method} {response.request.url.path}: "
            f"{self.status} {self.code} {response.text[:200]}"
        )


def error_code(response: httpx.Response) -> str:
    """The `code` of an error body (every 4xx and 5xx of the API has one), else ""."""
    try:
        body = response.json()
    except ValueError:
        return ""
    return str(body.get("code", "")) if isinstance(body, dict) else ""


def retry_after(response: httpx.Response) -> float:
    """Seconds a 429 or 503 asks to wait: the `Retry-After` header (the body's `retry_after`
    says the same), at least one."""
    try:
        return max(1.0, float(response.headers.get("Retry-After", "1")))
    except ValueError:
        return 1.0


class Api:
    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.auth = {"Authorization": f"Bearer {token}"}
        # Idle connections are dropped before the server's keep-alive timeout (uvicorn's 5 s)
        # could close one under a request being sent on it.
        limits = httpx.Limits(keepalive_expiry=2.0)
        self.http = httpx.AsyncClient(
            base_url=self.server + API, headers=self.auth, timeout=30, limits=limits
        )
        self.throttled = 0  # 429s waited out, for the summary

    async def close(self) -> None:
        await self.http.aclose()

    async def call(
        self, method: str, path: str, body: Any = None, *, key: str | None = None
    ) -> httpx.Response:
        """`method path` with a JSON `body`; `key` sends it with that `Idempotency-Key`."""
        headers = {"Idempotency-Key": key} if key else {}
        safe = method == "GET" or key is not None
        for attempt in range(RETRIES):
            try:
                response = await self.http.request(method, path, json=body, headers=headers)
            except httpx.TransportError as error:
                if not safe or attempt == RETRIES - 1:
                    raise
                wait = min(60.0, 2**attempt) * jitter.uniform(0.5, 1.0)
                log.warning("%s %s: %r, again in %.1f s", method, path, error, wait)
                await asyncio.sleep(wait)
                continue
            if response.status_code in (429, 503):
                wait = retry_after(response)
                self.throttled += response.status_code == 429
                log.warning(
                    "%s %s: %s %s, again in %.0f s",
                    method,
                    path,
                    response.status_code,
                    error_code(response),
                    wait,
                )
                await asyncio.sleep(wait)
                continue
            return response
        raise RuntimeError(f"{method} {path}: no answer after {RETRIES} tries")

    async def get(self, path: str) -> Any:
        response = await self.call("GET", path)
        if response.status_code != 200:
            raise ApiError(response)
        return response.json()

    @asynccontextmanager
    async def socket(self, path: str) -> AsyncIterator[Socket]:
        """A socket of the API (`/ws/v1/me/`, `/ws/v1/games/{id}/?after=SEQ`), opened with the
        token in the `Authorization` header (a browser would use `?ticket=` instead)."""
        url = self.server.replace("http", "ws", 1) + path
        # No protocol-level pings: they never reach the server's code (Socket sends its own).
        async with connect(
            url, additional_headers=self.auth, open_timeout=30, ping_interval=None
        ) as connection:
            yield Socket(connection)


class Socket:
    """An open socket of the API, kept alive both ways: it sends `{"type": "ping"}` every
    PING_SECONDS (the server closes a socket it heard nothing from for 60 s, with 4408), and
    takes it for dead when it heard nothing at all, not even the server's keepalive (sent
    after 20 s of nothing else), for SILENT_SECONDS."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.pinged = self.heard = time.monotonic()

    async def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next message that is not a keepalive or a pong; None when none came within
        `timeout` seconds. Raises TimeoutError when the socket went silent."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            if now - self.pinged >= PING_SECONDS:
                await self.connection.send('{"type": "ping"}')
                self.pinged = now
            if now - self.heard >= SILENT_SECONDS:
                raise TimeoutError(f"nothing heard for {SILENT_SECONDS:.0f} s")
            if now >= deadline:
                return None
            wait = min(deadline, self.pinged + PING_SECONDS, self.heard + SILENT_SECONDS) - now
            try:
                raw = await asyncio.wait_for(self.connection.recv(), wait)
            except TimeoutError:
                continue
            self.heard = time.monotonic()
            message: dict[str, Any] = json.loads(raw)
            if message.get("type") not in ("keepalive", "pong"):
                return message

    def cut(self) -> None:
        """Drop the connection as a network failure would: no closing handshake."""
        self.connection.transport.abort()
