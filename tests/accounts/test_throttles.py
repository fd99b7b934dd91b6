"""Abuse limits: guests per address, logins per address and per username, calls per player."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from unittest import mock

import pytest
import redis
import time_machine
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings

from core.errors import ThrottledError
from core.redis import get_redis
from core.throttles import PlayerRateThrottle
from tests.conftest import clear_throttle_counters
from tests.factories import PASSWORD, PlayerFactory

GUEST = "/api/v1/auth/guest/"
LOGIN = "/api/v1/auth/login/"
ME = "/api/v1/me/"

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates() -> Iterator[Callable[..., None]]:
    """`rates(scope="2/min", ...)`: lower limits for this test."""
    overrides: list[override_settings] = []

    def set_rates(**scopes: str) -> None:
        rest_framework = {**settings.REST_FRAMEWORK}
        rest_framework["DEFAULT_THROTTLE_RATES"] = {
            **rest_framework["DEFAULT_THROTTLE_RATES"],
            **scopes,
        }
        override = override_settings(REST_FRAMEWORK=rest_framework)
        override.enable()
        overrides.append(override)

    yield set_rates
    for override in reversed(overrides):
        override.disable()


def _assert_throttled(response, scope: str) -> None:
    assert response.status_code == 429
    assert (response.json()["code"], response.json()["scope"]) == ("throttled", scope)
    assert response.json()["retry_after"] == int(response["Retry-After"]) >= 1


def test_guest_creation_is_limited_per_address(api_client, rates) -> None:
    rates(guest_create="2/hour")

    ok = [api_client.post(GUEST, REMOTE_ADDR="10.0.0.1").status_code for _ in range(2)]
    refused = api_client.post(GUEST, REMOTE_ADDR="10.0.0.1")
    # A forged X-Forwarded-For does not make a new address: no proxy is trusted by default.
    forged = api_client.post(GUEST, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    elsewhere = api_client.post(GUEST, REMOTE_ADDR="10.0.0.2")

    assert ok == [201, 201]
    _assert_throttled(refused, "guest_create")
    assert 3000 < int(refused["Retry-After"]) <= 3600
    _assert_throttled(forged, "guest_create")
    assert elsewhere.status_code == 201


def test_logins_are_limited_per_address(api_client, rates) -> None:
    rates(login_ip="2/min")

    statuses = [
        api_client.post(LOGIN, {"username": f"u{i}", "password": "x"}).status_code for i in range(2)
    ]
    refused = api_client.post(LOGIN, {"username": "u3", "password": "x"})
    elsewhere = api_client.post(LOGIN, {"username": "u4", "password": "x"}, REMOTE_ADDR="10.9.9.9")

    assert statuses == [400, 400]
    _assert_throttled(refused, "login_ip")
    assert elsewhere.json()["code"] == "invalid_credentials"


def _use_up_the_username(api_client, username: str) -> None:
    """Two wrong passwords from two addresses: a 2/min per-username bucket is then full."""
    for address in ("10.0.0.1", "10.0.0.2"):
        api_client.post(LOGIN, {"username": username, "password": "guess"}, REMOTE_ADDR=address)


def test_logins_are_limited_per_username_from_any_address(api_client, rates) -> None:
    PlayerFactory.create(registered=True, username="dana")
    rates(login_username="2/min")

    _use_up_the_username(api_client, "dana")
    # Even the right password, in another case, from a third address, waits.
    refused = api_client.post(
        LOGIN, {"username": "DANA", "password": PASSWORD}, REMOTE_ADDR="10.0.0.3"
    )
    other_account = api_client.post(
        LOGIN, {"username": "noa", "password": "x"}, REMOTE_ADDR="10.0.0.3"
    )

    _assert_throttled(refused, "login_username")
    assert other_account.json()["code"] == "invalid_credentials"


def test_calls_are_limited_per_player(client_for, rates) -> None:
    rates(player="3/min")
    first, second = PlayerFactory.create(), PlayerFactory.create()
    client = client_for(first)

    statuses = [client.get(ME).status_code for _ in range(3)]
    refused = client.get(ME)

    assert statuses == [200, 200, 200]
    _assert_throttled(refused, "player")
    assert client_for(second).get(ME).status_code == 200


def test_clearing_resets_the_counters_and_nothing_else(api_client, rates) -> None:
    rates(guest_create="1/hour")
    assert api_client.post(GUEST).status_code == 201
    assert api_client.post(GUEST).status_code == 429
    cache.set("unrelated", "kept", 60)
    get_redis().set("not-even-the-cache", "kept", ex=60)

    clear_throttle_counters()

    assert api_client.post(GUEST).status_code == 201
    assert cache.get("unrelated") == "kept"
    assert get_redis().get("not-even-the-cache") == "kept"


def test_the_window_slides(client_for, rates) -> None:
    rates(player="2/min")
    client = client_for(PlayerFactory.create())
    with time_machine.travel(0, tick=False) as clock:
        assert client.get(ME).status_code == 200
        clock.shift(30)
        assert client.get(ME).status_code == 200
        clock.shift(10)
        refused = client.get(ME)
        _assert_throttled(refused, "player")
        assert int(refused["Retry-After"]) == 20  # until the first call leaves the window
        clock.shift(21)
        assert client.get(ME).status_code == 200  # the first left; the second is still in
        clock.shift(1)
        refused = client.get(ME)
        _assert_throttled(refused, "player")
        assert int(refused["Retry-After"]) == 28  # the second call leaves at 90 s


def test_requests_at_once_never_pass_the_limit(rates) -> None:
    """The check and the count are one step: no two requests both take the last place."""
    rates(player="5/min")
    player = PlayerFactory.create()
    request = SimpleNamespace(user=player)

    def attempt(_: int) -> bool:
        try:
            return PlayerRateThrottle().allow_request(request, None)  # type: ignore[arg-type]
        except ThrottledError:
            return False

    clear_throttle_counters()
    with ThreadPoolExecutor(max_workers=8) as pool:
        allowed = list(pool.map(attempt, range(40)))
    assert allowed.count(True) == 5


def test_without_redis_requests_are_not_limited(client_for, rates, caplog) -> None:
    rates(player="1/min")
    client = client_for(PlayerFactory.create())
    down = mock.Mock(side_effect=redis.ConnectionError("Redis is down"))
    with mock.patch("core.throttles._sliding_window", return_value=down):
        statuses = [client.get(ME).status_code for _ in range(3)]
    assert statuses == [200, 200, 200]
    assert "not checked" in caplog.text


def test_without_redis_logins_are_refused_not_unchecked(api_client) -> None:
    down = mock.Mock(side_effect=redis.ConnectionError("Redis is down"))
    api_client.raise_request_exception = False
    with mock.patch("core.throttles._sliding_window", return_value=down):
        response = api_client.post(LOGIN, {"username": "dana", "password": "guess"})
    assert response.status_code == 503
    assert response.json()["code"] == "unavailable"
    assert int(response["Retry-After"]) >= 1


@pytest.mark.parametrize("spelling", [" victim", "victim\u3000", "VICTIM", "Victim\u00a0"])
def test_spellings_of_a_username_count_in_its_one_bucket(api_client, rates, spelling) -> None:
    """The per-username key is the name the lookup finds the account by, not the raw field."""
    PlayerFactory.create(registered=True, username="victim")
    rates(login_username="2/min")
    _use_up_the_username(api_client, "victim")

    refused = api_client.post(
        LOGIN, {"username": spelling, "password": PASSWORD}, REMOTE_ADDR="10.0.0.3"
    )

    _assert_throttled(refused, "login_username")


def test_a_dotless_i_is_another_name_not_a_spelling(api_client, rates) -> None:
    """The dotless "v\u0131ctim" has a bucket of its own, so it must not find "victim" either (a
    case-insensitive SQL match, UPPER, makes it "VICTIM")."""
    PlayerFactory.create(registered=True, username="victim")
    rates(login_username="2/min")
    _use_up_the_username(api_client, "victim")

    lookalike = api_client.post(
        LOGIN, {"username": "v\u0131ctim", "password": PASSWORD}, REMOTE_ADDR="10.0.0.3"
    )

    assert lookalike.status_code == 400
    assert lookalike.json()["code"] == "invalid_credentials"
