"""The lean path (core/lean.py; the routes of games/lean.py and players/lean.py): a game's read,
a move and a websocket ticket answered as Django and DRF answer them, header for header, or
left to Django, untouched, where it cannot."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import pytest
from django.conf import settings as django_settings
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections

from accounts.authentication import header_authenticate
from accounts.services import player_update, ws_ticket_redeem
from core import lean as core_lean
from core.lean import Lean, response_hooks
from core.perf.http import environ as make_environ
from games import lean as games_lean
from games.apis import GameActionApi
from games.models import Game
from tests.conftest import clear_throttle_counters
from tests.games.conftest import Client, start_table

pytestmark = pytest.mark.usefixtures("clear_throttles")

# What each header may differ by: the request id is made per request (its form is checked).
_PER_REQUEST = {"x-request-id"}

# The middleware of settings.MIDDLEWARE, each either run as a response hook by the lean path
# (response_hooks) or with nothing to do for a request it takes, and why. A new middleware
# fails here until it is placed in one or the other.
_NOTHING_TO_DO = {
    "core.logs.RequestIdMiddleware": "the lean path writes the request id itself",
    "core.metrics.HttpMetricsMiddleware": "the lean path counts and times the request itself",
    "config.internal.InternalEndpointsMiddleware": "the probes' paths only",
    "whitenoise.middleware.WhiteNoiseMiddleware": "static files only",
    "django.contrib.sessions.middleware.SessionMiddleware": "no cookie: no session is read",
    "django.middleware.csrf.CsrfViewMiddleware": "DRF's views are exempt; no cookie",
    "django.contrib.auth.middleware.AuthenticationMiddleware": "the bearer token authenticates",
    "core.i18n.StaffLanguageMiddleware": "the admin's paths only",
    "django.contrib.messages.middleware.MessageMiddleware": "no messages without a session",
    "axes.middleware.AxesMiddleware": "the admin's login only",
}


def _lean() -> Lean:
    from config.asgi import lean  # here: the module builds the ASGI application

    return lean()


def _environ(
    method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None, **scope: Any
) -> dict[str, Any]:
    raw = [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()]
    if body and b"content-type" not in {name for name, _ in raw}:
        raw.append((b"content-type", b"application/json"))
    base = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": b"",
        "headers": raw,
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        **scope,
    }
    environ = make_environ(base, io.BytesIO(body))
    environ["CONTENT_LENGTH"] = str(len(body))
    return environ


@contextmanager
def _connections_kept() -> Iterator[None]:
    """The test's transaction kept through a request's signals (as Django's test client does)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


Answer = tuple[int, dict[str, str], bytes]


def _django(environ: dict[str, Any]) -> Answer:
    started: list[Any] = []
    with _connections_kept():
        handler: Any = WSGIHandler()
        result = handler(environ, lambda status, headers: started.extend([status, headers]))
        body = b"".join(result)
        result.close()
    return int(started[0].split()[0]), {k.lower(): v for k, v in started[1]}, body


def _lean_answer(environ: dict[str, Any]) -> Answer | None:
    with _connections_kept():
        answer = _lean()(environ)
    if answer is None:
        return None
    status, headers, body = answer
    return status, {k.decode(): v.decode() for k, v in headers}, body


def _same(django: Answer, lean: Answer | None) -> None:
    assert lean is not None, "the lean path left it to Django"
    assert lean[0] == django[0]
    assert lean[2] == django[2]
    assert set(lean[1]) == set(django[1])
    for name in set(django[1]) - _PER_REQUEST:
        assert lean[1][name] == django[1][name], name
    assert len(lean[1]["x-request-id"]) == 32


def _both(
    method: str, path: str, headers: dict[str, str], body: bytes = b"", query: bytes = b""
) -> tuple[Answer, Answer]:
    """Django's answer, then the lean path's, to the same request."""
    django = _django(_environ(method, path, body, headers, query_string=query))
    lean = _lean_answer(_environ(method, path, body, headers, query_string=query))
    assert lean is not None, "the lean path left it to Django"
    return django, lean


def _bearer(client: Client) -> str:
    return f"Bearer {client.token}"


def _game_path(game_id: str) -> str:
    return f"/api/v1/games/{game_id}/"


@pytest.fixture
def table(db: None) -> tuple[str, list[Client]]:
    return start_table(2)


def test_every_middleware_is_a_hook_or_has_nothing_to_do() -> None:
    hooked = {type(getattr(hook, "middleware", hook)) for hook in response_hooks("/")}
    hooked_names = {f"{kind.__module__}.{kind.__name__}" for kind in hooked}
    for name in django_settings.MIDDLEWARE:
        assert name in hooked_names or name in _NOTHING_TO_DO, name
    # And the hooks run innermost first, as Django runs them.
    order = [django_settings.MIDDLEWARE.index(name) for name in hooked_names]
    positions = {
        f"{kind.__module__}.{kind.__name__}": index
        for index, kind in enumerate(type(getattr(h, "middleware", h)) for h in response_hooks("/"))
    }
    assert sorted(order, reverse=True) == [
        django_settings.MIDDLEWARE.index(name)
        for name in sorted(positions, key=positions.__getitem__)
    ]


def test_a_read_200_and_304_are_django_s(table: tuple[str, list[Client]]) -> None:
    game_id, clients = table
    path, auth = _game_path(game_id), _bearer(clients[0])
    django, lean = _both("GET", path, {"Authorization": auth})
    _same(django, lean)
    assert django[0] == 200
    assert orjson.loads(lean[2])["you"]["hand"]  # the viewer's own hand, as the view sends it
    etag = django[1]["etag"]
    _same(*_both("GET", path, {"Authorization": auth, "If-None-Match": etag}))
    assert _both("GET", path, {"Authorization": auth, "If-None-Match": etag})[1][0] == 304
    _same(*_both("GET", path, {"Authorization": auth, "If-None-Match": '"stale", W/"other"'}))
    _same(*_both("GET", path, {"Authorization": auth, "If-None-Match": "*"}))


def test_a_read_speaks_the_request_s_language_then_the_player_s(
    table: tuple[str, list[Client]],
) -> None:
    game_id, clients = table
    path, auth = _game_path(game_id), _bearer(clients[0])
    django, lean = _both("GET", path, {"Authorization": auth, "Accept-Language": "he-IL, en;q=0.5"})
    _same(django, lean)
    assert lean[1]["content-language"] == "he"
    player_update(player=clients[0].player, language="ne")
    django, lean = _both("GET", path, {"Authorization": auth})
    _same(django, lean)
    assert lean[1]["content-language"] == "ne"
    _same(*_both("GET", path, {"Authorization": auth, "Accept-Language": "*, he"}))
    _same(*_both("GET", path, {"Authorization": auth, "Accept-Language": "fr"}))


def test_a_read_s_refusals_are_django_s(table: tuple[str, list[Client]], db: None) -> None:
    game_id, clients = table
    stranger = Client.guest("Stranger")
    unknown = _game_path("00000000-0000-4000-8000-000000000000")
    _same(*_both("GET", unknown, {"Authorization": _bearer(clients[0])}))
    django, lean = _both("GET", _game_path(game_id), {"Authorization": _bearer(stranger)})
    _same(django, lean)
    assert (lean[0], orjson.loads(lean[2])["code"]) == (403, "forbidden")
    he = {"Accept-Language": "he"}
    _same(*_both("GET", _game_path(game_id), {"Authorization": _bearer(stranger), **he}))


@pytest.mark.parametrize(
    "query", [b"", b"after=0", b"after=-1&limit=1", b"limit=1&offset=1", b"after=x", b"after=0&x=1"]
)
def test_the_events_and_their_pages_are_django_s(
    table: tuple[str, list[Client]], query: bytes
) -> None:
    game_id, clients = table
    path, auth = _game_path(game_id) + "events/", {"Authorization": _bearer(clients[0])}
    django, lean = _both("GET", path, auth, query=query)
    _same(django, lean)
    if query == b"after=-1&limit=1":  # the next page's link, built from the request
        assert orjson.loads(lean[2])["next"].startswith("http://testserver/api/v1/games/")
    if query == b"after=x":
        assert (lean[0], orjson.loads(lean[2])["code"]) == (400, "invalid")
    stranger = {"Authorization": _bearer(Client.guest("Stranger"))}
    _same(*_both("GET", path, stranger, query=query))
    format_asked = _environ("GET", path, headers=auth, query_string=b"format=json")
    assert _lean_answer(format_asked) is None


def test_a_move_and_its_refusals_are_django_s(table: tuple[str, list[Client]]) -> None:
    game_id, clients = table
    path = _game_path(game_id) + "actions/"
    game = clients[0].game(game_id)
    mover = clients[game["turn"]["seat"]]
    waiting = clients[1 - game["turn"]["seat"]]
    seq = game["seq"]
    yaniv = orjson.dumps({"seq": seq, "type": "yaniv"})
    _same(*_both("POST", path, {"Authorization": _bearer(waiting)}, yaniv))  # 409 not_your_turn
    stale = orjson.dumps({"seq": seq + 5, "type": "yaniv"})
    _same(*_both("POST", path, {"Authorization": _bearer(mover)}, stale))  # 409 stale_seq
    illegal = orjson.dumps({"seq": seq, "type": "play", "cards": ["XX"], "draw": "stock"})
    assert _lean_answer(_environ("POST", path, illegal, {"Authorization": _bearer(mover)})) is None
    view = mover.game(game_id)
    move = {"seq": seq, "type": "play", "cards": [view["you"]["hand"][0]], "draw": "stock"}
    answer = _lean_answer(
        _environ("POST", path, orjson.dumps(move), {"Authorization": _bearer(mover)})
    )
    assert answer is not None
    assert answer[0] == 200, answer[2]
    assert Game.objects.get(pk=game_id).seq == seq + 1
    after = _django(_environ("GET", _game_path(game_id), headers={"Authorization": _bearer(mover)}))
    assert orjson.loads(answer[2]) == orjson.loads(after[2])
    assert answer[1]["allow"] == "POST, OPTIONS"
    assert answer[1]["content-type"] == "application/json"


def test_the_limit_is_counted_once_and_answered_as_django_does(
    table: tuple[str, list[Client]], settings: Any
) -> None:
    game_id, clients = table
    path, auth = _game_path(game_id), _bearer(clients[0])
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "player": "2/min",
        },
    }
    clear_throttle_counters()  # the table's setting up counted
    assert _lean_answer(_environ("GET", path, headers={"Authorization": auth}))[0] == 200  # type: ignore[index]
    django = _django(_environ("GET", path, headers={"Authorization": auth}))
    assert django[0] == 200  # the second request of two
    lean = _lean_answer(_environ("GET", path, headers={"Authorization": auth}))
    over = _django(_environ("GET", path, headers={"Authorization": auth}))
    assert over[0] == lean[0] == 429  # type: ignore[index]
    assert lean[2] == over[2]  # type: ignore[index]
    assert lean[1]["retry-after"]  # type: ignore[index]
    clear_throttle_counters()


def test_https_gets_django_s_security_headers(
    table: tuple[str, list[Client]], settings: Any
) -> None:
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    game_id, clients = table
    headers = {"Authorization": _bearer(clients[0])}
    django = _django(_environ("GET", _game_path(game_id), headers=headers, scheme="https"))
    lean = _lean_answer(_environ("GET", _game_path(game_id), headers=headers, scheme="https"))
    _same(django, lean)
    assert "strict-transport-security" in lean[1]  # type: ignore[index]
    settings.SECURE_SSL_REDIRECT = True  # plain HTTP is redirected: Django's
    assert _lean_answer(_environ("GET", _game_path(game_id), headers=headers)) is None


_PLAY = b'{"seq": 1, "type": "yaniv"}'


@pytest.mark.parametrize(
    ("method", "suffix", "body", "headers", "status"),
    [
        ("GET", "", b"", {"Cookie": "django_language=he"}, 200),  # the cookie: Django's
        ("GET", "", b"", {"Accept": "text/html"}, 406),
        ("GET", "", b"", {"Accept": "application/json; indent=2"}, 200),
        ("GET", "", b"", {"Authorization": ""}, 401),
        ("GET", "", b"", {"Authorization": "Bearer not-a-token"}, 401),
        ("GET", "", b"", {"Authorization": "Token abc"}, 401),
        ("GET", "", b"", {"Host": "evil.example"}, 400),
        ("HEAD", "", b"", {}, 200),
        ("POST", "actions/", b'{"seq": "1", "type": "yaniv"}', {}, 409),  # DRF takes "1"
        ("POST", "actions/", b'{"seq": 1, "type": "yaniv"', {}, 400),
        ("POST", "actions/", _PLAY, {"Idempotency-Key": "k1"}, 409),
        ("POST", "actions/", _PLAY, {"Content-Type": "text/plain"}, 415),
        ("POST", "actions/", _PLAY, {"Content-Type": "application/json; charset=latin-1"}, 409),
        ("POST", "actions/", b'{"seq": 99999999999999999999, "type": "yaniv"}', {}, 409),
    ],
)
def test_what_the_lean_path_leaves_to_django(
    table: tuple[str, list[Client]],
    method: str,
    suffix: str,
    body: bytes,
    headers: dict[str, str],
    status: int,
) -> None:
    game_id, clients = table
    sent = {"Authorization": _bearer(clients[0]), **headers}
    environ = _environ(method, _game_path(game_id) + suffix, body, sent)
    assert _lean_answer(environ) is None
    # Django reads the request whole after it, the body rewound (a 409 is the move judged).
    assert environ["wsgi.input"].tell() == 0
    assert _django(environ)[0] == status


def test_a_query_string_or_the_setting_off_leaves_it_to_django(
    table: tuple[str, list[Client]], settings: Any
) -> None:
    game_id, clients = table
    headers = {"Authorization": _bearer(clients[0])}
    path = _game_path(game_id)
    assert _lean_answer(_environ("GET", path, headers=headers, query_string=b"x=1")) is None
    assert _lean_answer(_environ("GET", path, headers=headers)) is not None
    settings.WEB_LEAN_PATH = False
    assert _lean_answer(_environ("GET", path, headers=headers)) is None


def test_a_route_must_be_its_view_s_url() -> None:
    route = games_lean.ROUTES[0]
    wrong = core_lean.Route(
        route.method,
        route.pattern,
        GameActionApi,
        route.example,
        route.prepare,
        route.answer,
    )
    with pytest.raises(ValueError, match="GameActionApi"):
        Lean([wrong], header_authenticate)


def test_a_ws_ticket_is_django_s_but_for_the_ticket(table: tuple[str, list[Client]]) -> None:
    _game_id, clients = table
    django, lean = _both("POST", "/api/v1/auth/ws-ticket/", {"Authorization": _bearer(clients[0])})
    assert lean[0] == django[0] == 201
    assert set(lean[1]) == set(django[1])
    for name in set(django[1]) - _PER_REQUEST - {"content-length"}:
        assert lean[1][name] == django[1][name], name
    issued, expected = orjson.loads(lean[2]), orjson.loads(django[2])
    assert issued.keys() == expected.keys() == {"ticket", "expires_at"}
    assert issued["ticket"] != expected["ticket"]  # a new one each time
    # And it opens the player's socket as a ticket of Django's path does.
    assert ws_ticket_redeem(ticket=issued["ticket"]) == clients[0].player


def test_the_asgi_application_asks_the_lean_path_with_every_route() -> None:
    from config.asgi import router

    http = router.application_mapping["http"]
    assert isinstance(http.lean, Lean)
    assert {(bound.route.method, bound.label) for bound in http.lean.routes} == {
        ("GET", "/api/v1/games/{game_id}/"),
        ("GET", "/api/v1/games/{game_id}/events/"),
        ("POST", "/api/v1/games/{game_id}/actions/"),
        ("POST", "/api/v1/auth/ws-ticket/"),
    }
