from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.cache import cache
from django.test.client import Client
from redis.exceptions import RedisError
from rest_framework.test import APIClient

from accounts.models import Player
from accounts.services import auth_token_issue
from config.celery import app as celery_app
from core import local_tasks, metrics_shared
from core.redis import get_redis
from core.throttles import CACHE_KEY_PREFIX
from tests.factories import PlayerFactory
from tests.schema_check import PublishedSchema
from web.management.commands.i18n import compile_all


def pytest_configure(config: pytest.Config) -> None:
    """Give this run a database, Redis key space and Celery queue of its own, so that runs
    side by side (and a `make run` on the same servers) never see each other's data, nor
    run each other's tasks (a dev worker took test tasks: "No such game.")."""
    run = f"run{os.getpid()}"
    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["NAME"] = f"test_{database['NAME']}_{run}"
    settings.CACHES["default"]["KEY_PREFIX"] = f"yaniv-test-{run}"
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"yaniv-test-{run}"
    # Tasks (and beat's entries, which name no queue) go to the default queue.
    settings.CELERY_TASK_DEFAULT_QUEUE = celery_app.conf.task_default_queue = _run_queue(run)
    # No publishing thread (core/metrics_shared.py): the page and the snapshot publish this
    # process's counts when they read, and nothing of the suite's races a stalled Redis.
    settings.METRICS_PUBLISH_SECONDS = 0
    if not hasattr(config, "workerinput"):  # once per run, before any worker or server reads
        compile_all()  # the catalogs (.mo) from locale/'s .po files, where out of date


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Behind PgBouncer (`make test-pgbouncer`), its idle server connections to the test
    database would make pytest-django's DROP DATABASE fail ("being accessed by other users")
    and leave the database behind: they are ended first, from the `postgres` database (this
    teardown runs before pytest-django's)."""
    yield
    if settings.DATABASE_POOLER != "pgbouncer":
        return
    from django.db import connection

    name = connection.settings_dict["NAME"]
    with django_db_blocker.unblock(), connection._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )


def _run_queue(run: str) -> str:
    return f"yaniv-test-{run}.tasks"


def pytest_unconfigure(config: pytest.Config) -> None:
    """What this run's tasks left in its queue (no worker consumed them) goes with it."""
    queue = _run_queue(f"run{os.getpid()}")
    with contextlib.suppress(RedisError):
        # kombu keeps a list per priority step ("<queue>\x06\x16<n>") and the bindings.
        steps = [f"{queue}\x06\x16{priority}" for priority in range(10)]
        bindings = [f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}"]
        get_redis().delete(queue, *steps, *bindings)
    # And this run's metrics totals (core/metrics_shared.py), which have no expiry: nothing
    # publishes them again at exit.
    atexit.unregister(metrics_shared.retire)
    with contextlib.suppress(RedisError):
        shared = [metrics_shared.TOTALS, metrics_shared.PROCESSES]
        get_redis().delete(*(cache.make_key(key) for key in shared))


def clear_throttle_counters() -> None:
    """Reset every rate-limit counter, and nothing else in Redis (a dev server may share it)."""
    redis = get_redis()
    keys = list(redis.scan_iter(match=cache.make_key(f"{CACHE_KEY_PREFIX}*"), count=1000))
    if keys:
        redis.delete(*keys)


@pytest.fixture(autouse=True)
def _leaderboard_lists_one_game(settings: Any) -> None:
    """The suite's tables play one rated game each: list players from their first (the
    eligibility rules have their own tests, tests/players/test_public.py, which set them)."""
    settings.YANIV_LEADERBOARD_MIN_GAMES = 1


@pytest.fixture
def clear_throttles() -> None:
    """Counters outlive a test (they are in Redis): without this, a suite would trip the
    limits meant for clients. The API client fixtures use it."""
    clear_throttle_counters()


@pytest.fixture
def staff(db: None) -> Player:
    """A superuser, "root"."""
    return PlayerFactory.create(
        registered=True, username="root", display_name="Root", is_staff=True, is_superuser=True
    )


@pytest.fixture
def admin_client(staff: Player) -> Client:
    """A browser signed in to /admin/ as `staff`."""
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def api_client(clear_throttles: None) -> APIClient:
    return APIClient()


@pytest.fixture
def client_for(clear_throttles: None) -> Callable[[Player], APIClient]:
    """`client_for(player)`: an API client that sends a fresh bearer token of `player`."""

    def make(player: Player) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {auth_token_issue(player=player)}")
        return client

    return make


@pytest.fixture(scope="session", autouse=True)
def published_schema() -> Iterator[PublishedSchema]:
    """Every answer of a test client (Django's, DRF's) and every message a websocket
    communicator receives is checked against the published schema (tests/schema_check.py):
    a test that meets a payload the schema does not describe fails with PayloadMismatch."""
    schema = PublishedSchema()
    request = Client.request
    receive_output = ApplicationCommunicator.receive_output

    def checked_request(client: Client, **environ: Any) -> Any:
        response = request(client, **environ)
        if not response.streaming:
            content_type = response.get("Content-Type", "")
            is_json = content_type.startswith("application/json") and response.content
            schema.check_response(
                environ["REQUEST_METHOD"],
                environ["PATH_INFO"],
                response.status_code,
                response.json() if is_json else response.content or None,
                content_type=content_type,
            )
        return response

    async def checked_receive_output(communicator: Any, timeout: float = 1) -> Any:
        output = await receive_output(communicator, timeout)  # type: ignore[no-untyped-call]
        if output["type"] == "websocket.send" and output.get("text") is not None:
            schema.check_message(communicator.scope["path"], output["text"])
        return output

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Client, "request", checked_request)
        patch.setattr(WebsocketCommunicator, "receive_output", checked_receive_output)
        yield schema


@pytest.fixture
def web_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in a thread of its own, as a web process's runs beside its pool
    threads."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


@pytest.fixture
def local_runner(web_loop: asyncio.AbstractEventLoop) -> Iterator[local_tasks.Runner]:
    """This process runs local tasks, as a web process does (core/local_tasks.py)."""
    runner = local_tasks.install(web_loop)
    yield runner
    local_tasks.uninstall()
    shut_runner(web_loop, runner)


def shut_runner(
    loop: asyncio.AbstractEventLoop, runner: local_tasks.Runner, timeout: float = 5
) -> None:
    """`runner`'s shutdown, on its loop, waited for."""
    asyncio.run_coroutine_threadsafe(runner.shutdown(timeout), loop).result(timeout + 5)
