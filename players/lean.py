"""A websocket ticket on the lean path (core/lean.py): `WsTicketApi`'s answer through the same
function, without Django's request cycle (a client takes one before each socket it opens)."""

from __future__ import annotations

import re
from typing import Any

from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponseBase

from core.lean import Route
from players.apis import WsTicketApi, ws_ticket_answer

_PATH = "/api/v1/auth/ws-ticket/"


def _nothing_to_read(request: WSGIRequest, kwargs: dict[str, Any]) -> bool:
    return True  # the view reads no body (DRF parses one only when a view asks)


def _issue(request: WSGIRequest, kwargs: dict[str, Any], prepared: bool) -> HttpResponseBase:
    return ws_ticket_answer(request.user, request.auth)  # type: ignore[arg-type, attr-defined]


ROUTES = (
    Route("POST", re.compile(re.escape(_PATH)), WsTicketApi, _PATH, _nothing_to_read, _issue),
)
