"""A game's read, its events and a move on the lean path (core/lean.py): the same answers as
their views (`GameDetailApi`, `GameEventsApi`, `GameActionApi`), through the same functions,
without Django's request cycle.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

import orjson
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponseBase
from django.urls.converters import UUIDConverter
from rest_framework.request import Request

from core.lean import Route
from games.apis import (
    GameActionApi,
    GameDetailApi,
    GameEventsApi,
    game_events_answer,
    game_read,
    well_formed_action,
)

_GAME = rf"/api/v1/games/(?P<game_id>{UUIDConverter.regex})/"
_EXAMPLE = f"/api/v1/games/{UUID(int=0)}/"


def _game_id(request: WSGIRequest, kwargs: dict[str, Any]) -> UUID:
    return UUID(kwargs["game_id"])


def _read(request: WSGIRequest, kwargs: dict[str, Any], game_id: UUID) -> HttpResponseBase:
    return game_read(request, game_id, request.user)  # type: ignore[arg-type]


def _action(request: WSGIRequest, kwargs: dict[str, Any]) -> tuple[UUID, dict[str, Any]] | None:
    """The game and the action of a well-formed move in JSON (UTF-8) without an
    `Idempotency-Key` (idempotency.run_once is Django's path's alone), else None: DRF's parser
    and `ActionInput` judge and word anything else."""
    if request.content_type != "application/json" or "HTTP_IDEMPOTENCY_KEY" in request.META:
        return None
    if (request.content_params or {}).get("charset", "utf-8").lower() != "utf-8":
        return None
    try:
        # orjson takes what DRF's parser takes alike, or refuses it (a lone surrogate, an
        # integer past 64 bits, bytes that are not UTF-8): Django's path then answers it.
        data = orjson.loads(request.body)
    except orjson.JSONDecodeError:
        return None
    action = well_formed_action(data)
    return None if action is None else (_game_id(request, kwargs), action)


def _events(request: WSGIRequest, kwargs: dict[str, Any], game_id: UUID) -> HttpResponseBase:
    # DRF's request around Django's, for the paginator (its `query_params`, its links): the
    # view's answer, built by the same function.
    return game_events_answer(Request(request), game_id, request.user)  # type: ignore[arg-type]


def _act(
    request: WSGIRequest, kwargs: dict[str, Any], prepared: tuple[UUID, dict[str, Any]]
) -> HttpResponseBase:
    game_id, action = prepared
    return GameActionApi._act(game_id, request.user, action)  # type: ignore[arg-type]


ROUTES = (
    Route("GET", re.compile(_GAME), GameDetailApi, _EXAMPLE, _game_id, _read),
    Route(
        "GET",
        re.compile(_GAME + "events/"),
        GameEventsApi,
        _EXAMPLE + "events/",
        _game_id,
        _events,
        query=True,
    ),
    Route(
        "POST", re.compile(_GAME + "actions/"), GameActionApi, _EXAMPLE + "actions/", _action, _act
    ),
)
