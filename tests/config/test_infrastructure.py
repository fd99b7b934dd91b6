"""The suite talks to real servers, and the operational endpoints answer."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings

from core.redis import get_redis

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_database_is_real_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version(), current_setting('server_version_num')::int")
        version, number = cursor.fetchone()
    assert version.startswith("PostgreSQL")
    assert number >= 140000


def test_redis_is_a_real_server() -> None:
    client = get_redis()
    info = client.info("server")
    assert int(info["redis_version"].split(".")[0]) >= 6
    assert info["tcp_port"] > 0  # a listening server, not an in-process fake
    key = f"test:probe:{uuid.uuid4()}"
    client.set(key, "x", ex=5)
    assert client.get(key) == "x"


@pytest.mark.django_db
def test_healthz_ok(api_client) -> None:
    response = api_client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"db": "ok", "redis": "ok"}


@pytest.mark.django_db
def test_healthz_503_when_redis_is_unreachable(api_client) -> None:
    get_redis.cache_clear()
    try:
        with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
            response = api_client.get("/healthz")
    finally:
        get_redis.cache_clear()
    assert response.status_code == 503
    assert response.json() == {"db": "ok", "redis": "error"}


def test_openapi_schema(api_client) -> None:
    response = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Yaniv server API"


def test_swagger_ui_and_admin_are_served(api_client) -> None:
    assert api_client.get("/api/docs/").status_code == 200
    assert api_client.get("/admin/login/").status_code == 200


def test_deploy_checks_pass_with_production_settings() -> None:
    environment = {
        **os.environ,
        "DEBUG": "false",
        "SECURE_SSL": "true",
        "SECRET_KEY": "a-production-secret-key-that-is-long-enough-and-random-8c2f9e1d7b",
        "ALLOWED_HOSTS": "yaniv.example.com",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


_SCHEME_PROBE = """
import asyncio, httpx
from config.asgi import application

async def main():
    transport = httpx.ASGITransport(application, client=("203.0.113.9", 4000))
    async with httpx.AsyncClient(transport=transport, base_url="http://yaniv.example.com") as c:
        response = await c.get("/no-such-page", headers={"X-Forwarded-Proto": "https"})
    print(response.status_code)

asyncio.run(main())
"""


@pytest.mark.parametrize(("trusted", "status"), [("", 301), ("203.0.113.9", 404)])
def test_behind_tls_the_scheme_is_believed_only_from_a_trusted_proxy(trusted, status) -> None:
    """A client's own `X-Forwarded-Proto: https` over plain HTTP is not HTTPS: it is redirected.
    From a proxy of FORWARDED_ALLOW_IPS the header says how the client came."""
    environment = {
        **os.environ,
        "SECURE_SSL": "true",
        "ALLOWED_HOSTS": "yaniv.example.com",
        "FORWARDED_ALLOW_IPS": trusted,
    }
    result = subprocess.run(
        [sys.executable, "-c", _SCHEME_PROBE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.stdout.split()[-1:] == [str(status)], result.stdout + result.stderr
