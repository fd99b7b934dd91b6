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
import logging
from secrets import SystemRandom
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

log = logging.getLogger("bot")
jitter = SystemRandom()  # spreads the retries of many bots apart

API = "/api/v1"
RETRIES = 8  # a dropped connection: tries before giving up (about 4 minutes of backing off)


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
        self.http = httpx.AsyncClient(base_url=self.server + API, headers=self.auth, timeout=30)
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

    async def socket(self, path: str) -> ClientConnection:
        """A socket of the API (`/ws/v1/me/`, `/ws/v1/games/{id}/?after=SEQ`), opened with the
        token in the `Authorization` header (a browser would use `?ticket=` instead). The
        library's own pings find a connection dead in 40 s at most; the API's keepalives are
        answered by the caller (`answer_keepalive`)."""
        url = self.server.replace("http", "ws", 1) + path
        return await connect(url, additional_headers=self.auth, open_timeout=30)


async def answer_keepalive(socket: ClientConnection, message: dict[str, Any]) -> bool:
    """Whether `message` was the server's `keepalive` (answered with a `ping`, so that the
    server, which closes a socket silent for 60 s, keeps this one) or a `pong`."""
    if message.get("type") == "keepalive":
        await socket.send('{"type": "ping"}')
        return True
    return message.get("type") == "pong"
