"""Log context: every line of a request or a task carries its request id and, where known,
the game and the player (contextvars, which threads and tasks each have their own of).

LOG_FORMAT=json writes one JSON object a line (python-json-logger); the default is text.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.core.signals import request_finished
from django.dispatch import Signal

REQUEST_ID_HEADER = "X-Request-ID"
# An incoming id is kept when it is this tame (a proxy's or a client's), else one is made.
_VALID_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game_id: ContextVar[str | None] = ContextVar("game_id", default=None)
player_id: ContextVar[str | None] = ContextVar("player_id", default=None)
_VARS = {"request_id": request_id, "game_id": game_id, "player_id": player_id}


def bind(**values: object) -> None:
    """Set some of request_id, game_id, player_id for what follows in this context."""
    for name, value in values.items():
        _VARS[name].set(None if value is None else str(value))


def clear() -> None:
    for var in _VARS.values():
        var.set(None)


class ContextFilter(logging.Filter):
    """Puts the context's ids on every record (None where unknown)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, var in _VARS.items():
            setattr(record, name, var.get())
        return True


def config(log_format: str, level: str) -> dict[str, Any]:
    """The LOGGING setting for `log_format` (json or text)."""
    formatters: dict[str, Any] = {
        "text": {
            "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s",
        },
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s "
            "%(request_id)s %(game_id)s %(player_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "core.logs.ContextFilter"}},
        "formatters": formatters,
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "json" if log_format == "json" else "text",
                "filters": ["context"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {"django.db.backends": {"level": "WARNING"}},
    }


def _finished(**_: Any) -> None:
    clear()


def request_id_for(sent: str) -> str:
    """A request's id: the X-Request-ID it sent when valid, else a new one."""
    return sent if _VALID_ID.match(sent) else uuid.uuid4().hex


class RequestIdMiddleware:
    """The request's id: its X-Request-ID when valid, else a new one; echoed in the response.
    The game id comes from the URL (`game_id`), the player's from the views that know it."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response
        # Django logs a 4xx or 5xx after the middleware has returned: the ids are cleared once
        # the request is finished, not before.
        request_finished.connect(_finished, dispatch_uid="core.logs.clear")

    def __call__(self, request: Any) -> Any:
        rid = request_id_for(request.headers.get(REQUEST_ID_HEADER, ""))
        clear()
        request_id.set(rid)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = rid
        return response

    def process_view(self, request: Any, view: Any, args: Any, kwargs: dict[str, Any]) -> None:
        if "game_id" in kwargs:
            game_id.set(str(kwargs["game_id"]))


def send_logged(signal: Signal, name: str, about: object, **kwargs: Any) -> None:
    """`signal.send_robust(**kwargs)`: each receiver runs whatever another does, and one that
    fails is logged (`name` and `about`, what it was sent for), never raised to the sender."""
    for receiver, result in signal.send_robust(**kwargs):
        if isinstance(result, Exception):
            logging.getLogger(__name__).error(
                "%s receiver %r failed for %s", name, receiver, about, exc_info=result
            )
