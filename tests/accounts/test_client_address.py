"""Which address the per-IP limits count: the peer's, or the forwarded client of a trusted
proxy (FORWARDED_ALLOW_IPS), through the web servers' commands as they are configured."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from django.conf import settings
from django.test import override_settings

from config import asgi
from tests.conftest import clear_throttle_counters
from tests.servers import dockerfile_command, procfile_command, uvicorn_parameters

GUEST = "/api/v1/auth/guest/"
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)  # requests run in the web pool's threads


@pytest.fixture
def two_guests_an_hour() -> Iterator[None]:
    rest_framework = {**settings.REST_FRAMEWORK}
    rest_framework["DEFAULT_THROTTLE_RATES"] = {
        **rest_framework["DEFAULT_THROTTLE_RATES"],
        "guest_create": "2/hour",
    }
    with override_settings(REST_FRAMEWORK=rest_framework):
        clear_throttle_counters()
        yield


def _served_as(command: str, app: Any = asgi.application) -> Any:
    """The project's application wrapped as uvicorn wraps it when run with `command`."""
    parameters = uvicorn_parameters(command)
    config = uvicorn.Config(
        app,
        proxy_headers=parameters["proxy_headers"],
        forwarded_allow_ips=parameters["forwarded_allow_ips"],
    )
    config.load()
    return config.loaded_app


async def _guest_statuses(app: Any, peer: str, forwarded_for: list[str]) -> list[int]:
    transport = httpx.ASGITransport(app=app, client=(peer, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        return [
            (await client.post(GUEST, json={}, headers={"X-Forwarded-For": address})).status_code
            for address in forwarded_for
        ]


@pytest.mark.parametrize("command", [dockerfile_command, procfile_command])
@pytest.mark.parametrize("peer", ["203.0.113.9", "127.0.0.1"])
async def test_a_forged_forwarded_for_counts_against_the_real_address(
    two_guests_an_hour, command: Callable[[], str], peer: str
) -> None:
    """No proxy is trusted by default: a client naming a new address in each request is
    still one address (before: the image trusted anyone, `make run` anyone on localhost)."""
    app = _served_as(command())

    statuses = await _guest_statuses(app, peer, ["1.1.1.1", "2.2.2.2", "3.3.3.3"])

    assert statuses == [201, 201, 429]


async def test_a_trusted_proxy_names_the_client(two_guests_an_hour) -> None:
    with override_settings(FORWARDED_ALLOW_IPS=["10.0.0.1"]):
        app = _served_as(dockerfile_command(), asgi.trusting_proxies(asgi.router))

    through_proxy = await _guest_statuses(app, "10.0.0.1", ["1.1.1.1", "1.1.1.1", "1.1.1.1"])
    another_client = await _guest_statuses(app, "10.0.0.1", ["2.2.2.2"])
    # A peer that is not the proxy is counted as itself, whatever it forwards.
    direct = await _guest_statuses(app, "10.0.0.9", ["1.1.1.1", "2.2.2.2", "3.3.3.3"])

    assert through_proxy == [201, 201, 429]
    assert another_client == [201]
    assert direct == [201, 201, 429]
