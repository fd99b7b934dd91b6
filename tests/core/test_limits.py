"""Every 429 says what it is: `Retry-After` and `{"detail", "code": "throttled", "scope",
"retry_after"}` (docs/api.md, Rate limits). Each limit is reached here once, through the API: every
scope of REST_FRAMEWORK's DEFAULT_THROTTLE_RATES, and every other `ThrottledError` the code
raises. A new limit fails the first tests until it has a case of its own here."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from accounts.models import Player
from core.throttles import RateThrottle
from tests.chat.conftest import private_table, say
from tests.factories import PlayerFactory
from tests.social.conftest import add
from tests.social.test_challenges import challenge

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LOGIN = "/api/v1/auth/login/"

# A case makes a request the limit counts, as often as called (the same caller each time).
Send = Callable[[], Any]
Case = Callable[[Callable[[Player], APIClient]], Send]


def _registered(**fields: Any) -> Player:
    return PlayerFactory.create(registered=True, **fields)


def _me(client_for: Callable[[Player], APIClient]) -> Send:
    client = client_for(PlayerFactory.create())
    return lambda: client.get("/api/v1/me/")


def _login(client_for: Callable[[Player], APIClient]) -> Send:
    body = {"username": "nobody", "password": "wrong"}
    return lambda: APIClient().post(LOGIN, body, format="json")


def _login_from_anywhere(client_for: Callable[[Player], APIClient]) -> Send:
    addresses = iter(f"10.0.0.{n}" for n in range(1, 255))
    body = {"username": "nobody", "password": "wrong"}
    return lambda: APIClient().post(LOGIN, body, format="json", REMOTE_ADDR=next(addresses))


def _tournament_create(client_for: Callable[[Player], APIClient]) -> Send:
    client = client_for(_registered())
    return lambda: client.post("/api/v1/tournaments/", {}, format="json")


def _bot_move(client_for: Callable[[Player], APIClient]) -> Send:
    client = client_for(_registered(is_bot=True))
    return lambda: client.post(f"/api/v1/games/{uuid4()}/actions/", {}, format="json")


# The scope of each throttle -> a request it counts (the test sets its rate to 1/min).
THROTTLE_CASES: dict[str, Case] = {
    "player": _me,
    "public": lambda client_for: lambda: APIClient().get("/api/v1/leaderboard/"),
    "guest_create": lambda client_for: lambda: APIClient().post("/api/v1/auth/guest/"),
    "login_ip": _login,
    "login_username": _login_from_anywhere,
    "tournament_create": _tournament_create,
    "bot_moves": _bot_move,
}


def _chat_flood(client_for: Callable[[Player], APIClient]) -> Send:
    guest = PlayerFactory.create()
    game = private_table([guest, PlayerFactory.create()])
    phrases = iter(["thanks", "oops"])  # not the same message twice: the other chat limit
    return lambda: say(client_for(guest), game, phrase=next(phrases))


def _friend_request(client_for: Callable[[Player], APIClient]) -> Send:
    client = client_for(_registered())
    return lambda: add(client, _registered())


def _challenge(client_for: Callable[[Player], APIClient]) -> Send:
    client = client_for(_registered())
    return lambda: challenge(client, _registered(challenges_from="everyone"))


# Every other limit (a `ThrottledError("scope", ...)` in the code) -> the setting that the
# test sets to 1, and a request the limit counts.
OTHER_CASES: dict[str, tuple[str, Case]] = {
    "chat_flood": ("YANIV_CHAT_FLOOD_MESSAGES", _chat_flood),
    "friend_requests": ("YANIV_FRIEND_REQUESTS_PER_DAY", _friend_request),
    "challenges": ("YANIV_CHALLENGES_PER_HOUR", _challenge),
}


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    """The server's own modules (its apps and packages), not the tests, benches or examples."""
    packages = [path.parent for path in ROOT.glob("*/__init__.py")]
    for package in sorted(packages):
        if package.name in {"tests", "bench", "examples"}:
            continue
        for path in sorted(package.rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _calls(tree: ast.Module, name: str) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called == name:
                yield node


def _raised_scopes() -> set[str]:
    """The scopes of every `ThrottledError` raised outside the throttles (which raise their own
    scope, one of DEFAULT_THROTTLE_RATES); each such raise must name its scope literally."""
    scopes = set()
    for path, tree in _sources():
        if path == ROOT / "core" / "throttles.py":
            continue
        for call in _calls(tree, "ThrottledError"):
            where = f"{path.relative_to(ROOT)}:{call.lineno}"
            assert call.args, where
            scope = call.args[0]
            assert isinstance(scope, ast.Constant), where
            assert isinstance(scope.value, str), where
            scopes.add(scope.value)
    return scopes


def _throttle_classes(patterns: list[Any]) -> Iterator[type]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _throttle_classes(pattern.url_patterns)
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "cls", None)
            yield from getattr(view, "throttle_classes", ())


def assert_throttled(response: Any, scope: str) -> None:
    """The one shape of a 429."""
    assert response.status_code == 429, response.content
    body = response.json()
    retry_after = int(response["Retry-After"])
    assert retry_after >= 1
    assert body == {
        "detail": body["detail"],
        "code": "throttled",
        "scope": scope,
        "retry_after": retry_after,
    }
    assert isinstance(body["detail"], str)
    assert body["detail"]


def test_every_throttle_scope_has_a_case() -> None:
    assert set(THROTTLE_CASES) == set(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])


def test_every_other_limit_has_a_case() -> None:
    assert _raised_scopes() == set(OTHER_CASES)


def test_every_throttle_of_every_view_says_its_scope() -> None:
    """A throttle that only returned False would be DRF's 429, which does not know its scope:
    every throttle of every view (DEFAULT_THROTTLE_CLASSES where a view names none) is a
    RateThrottle, which raises ThrottledError."""
    throttles = set(_throttle_classes(get_resolver().url_patterns))
    assert throttles
    assert [throttle for throttle in throttles if not issubclass(throttle, RateThrottle)] == []


def test_no_429_but_throttled() -> None:
    """A status 429 is written only by ThrottledError (and by the admin's HTML lockout page,
    not the API); elsewhere 429 is only listed in the schema (`error_responses(..., 429)`)."""
    allowed = {ROOT / "core" / "errors.py", ROOT / "accounts" / "admin.py"}
    found = []
    for path, tree in _sources():
        if path in allowed:
            continue
        listed = {id(arg) for call in _calls(tree, "error_responses") for arg in call.args}
        found += [
            f"{path.relative_to(ROOT)}:{node.lineno}"
            for node in ast.walk(tree)
            if (isinstance(node, ast.Constant) and node.value == 429 and id(node) not in listed)
            or (isinstance(node, ast.Attribute) and node.attr == "HTTP_429_TOO_MANY_REQUESTS")
        ]
    assert found == []


@pytest.mark.parametrize("scope", sorted(THROTTLE_CASES))
def test_a_throttle_answers_with_its_scope(scope, settings, client_for) -> None:
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], scope: "1/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    send = THROTTLE_CASES[scope](client_for)

    assert send().status_code != 429
    assert_throttled(send(), scope)


@pytest.mark.parametrize("scope", sorted(OTHER_CASES))
def test_every_other_limit_answers_with_its_scope(scope, settings, client_for) -> None:
    setting, case = OTHER_CASES[scope]
    setattr(settings, setting, 1)
    send = case(client_for)

    assert send().status_code != 429
    assert_throttled(send(), scope)
