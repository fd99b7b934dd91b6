"""Browser tests of the web client (web/): Chromium driven by Playwright against the real
server, started here: the ASGI application under uvicorn (HTTP and the Channels websockets)
on the run's PostgreSQL database and Redis, with a real Celery worker for the CPU turns,
deadlines and ratings. `make test-web` runs them; `make test` leaves them out (marker `web`).

Chromium: `YANIV_CHROMIUM` or Debian's `/usr/bin/chromium` (`apt-get install chromium`) when
it is there, else Playwright's own build (`playwright install chromium`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.conftest import clear_throttle_counters

# The real Celery worker of the games tests (a fixture: pytest finds it by this name).
from tests.games.conftest import celery_worker  # noqa: F401
from tests.servers import serving

CHROMIUM = Path(os.environ.get("YANIV_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = ViewportSize(width=360, height=740)
DESKTOP = ViewportSize(width=1280, height=860)
# Every wait of a browser test: a CPU answers in milliseconds here, a page in less.
TIMEOUT_MS = 15_000


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.web)


@pytest.fixture(scope="session", autouse=True)
def _sync_orm_beside_playwright() -> Iterator[None]:
    """Playwright's sync API keeps an event loop running in the test's thread, so Django takes
    the test's (synchronous) database calls for calls from async code and refuses them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Headless Chromium that runs as root and without a GPU (CI's container)."""
    args = {**browser_type_launch_args}
    args["args"] = [*args.get("args", []), "--no-sandbox", "--disable-gpu"]
    if CHROMIUM.exists():
        args["executable_path"] = str(CHROMIUM)
    return args


@pytest.fixture(scope="session")
def _server_url(django_db_setup: None) -> Iterator[str]:
    """The application as the Procfile serves it, on a free port, for the whole run."""
    with serving() as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def server(
    _server_url: str, transactional_db: None, settings: Any, request: pytest.FixtureRequest
) -> str:
    """The live server's URL, on committed data, with a worker playing CPU turns at once."""
    request.getfixturevalue("celery_worker")
    settings.YANIV_CPU_THINK_SECONDS = 0
    # Every browser context is a new guest, all from 127.0.0.1: no test meets the limits.
    clear_throttle_counters()
    expect.set_options(timeout=TIMEOUT_MS)
    return _server_url


@pytest.fixture
def open_player(browser: Browser, server: str) -> Iterator[Callable[..., Page]]:
    """`open_player(path="/", phone=False, locale="en-US")`: a new browser (a new guest) at
    `path`, once the client shows the guest's name. Console errors and failed page loads fail
    the test."""
    contexts: list[BrowserContext] = []
    problems: list[str] = []

    def open_one(path: str = "/", *, phone: bool = False, locale: str = "en-US") -> Page:
        # The browser's language (its Accept-Language): English unless a test says otherwise.
        context = browser.new_context(
            base_url=server,
            viewport=PHONE if phone else DESKTOP,
            is_mobile=phone,
            has_touch=phone,
            locale=locale,
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(path)
        expect(page.get_by_test_id("you-name")).not_to_have_text("")
        return page

    yield open_one
    for context in contexts:
        context.close()
    # A refused move is answered 400 on purpose (the browser logs the failed fetch): only
    # what is not an HTTP answer the test asked for counts.
    unexpected = [p for p in problems if not re.search(r"status of 4\d\d", p)]
    assert unexpected == []


def shot(page: Page, name: str) -> None:
    """docs/screenshots/<name>.png: the README and docs/web-client.md show them."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


def game_id_of(page: Page) -> str:
    match = re.search(r"/games/([0-9a-f-]{36})", page.url)
    assert match, page.url
    return match.group(1)
