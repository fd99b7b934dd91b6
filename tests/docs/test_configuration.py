"""docs/configuration.md's Settings table names exactly the variables config/settings.py reads
from the environment: a setting added without its row, or a row left behind, fails."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "config" / "settings.py"
CONFIGURATION_MD = ROOT / "docs" / "configuration.md"

# A row of the table: "| `NAME` | default | meaning |".
_ROW = re.compile(r"^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|")


def read_from_the_environment(source: str) -> set[str]:
    """The names of `env("NAME")` and `env.<cast>("NAME", ...)` calls (django-environ)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.value if isinstance(func, ast.Attribute) else func
        if (
            isinstance(called, ast.Name)
            and called.id == "env"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
    return names


def documented(markdown: str) -> set[str]:
    """The variables of the table under `## Settings`, up to the next `## ` heading."""
    section = re.search(r"^## Settings\n(.*?)(?=^## |\Z)", markdown, re.M | re.S)
    assert section, "docs/configuration.md has no '## Settings' section"
    return {match[1] for line in section[1].splitlines() if (match := _ROW.match(line)) is not None}


def test_docs_configuration_md_and_settings_name_the_same_variables() -> None:
    read = read_from_the_environment(SETTINGS.read_text())
    rows = documented(CONFIGURATION_MD.read_text())
    assert not read - rows, f"read by config/settings.py, no row in docs: {sorted(read - rows)}"
    assert not rows - read, f"a row in docs, not read by config/settings.py: {sorted(rows - read)}"


def test_the_readers_find_env_calls_and_table_rows_only() -> None:
    source = (
        'A = env.int("A_SECONDS", default=1)\n'
        'B = env("B_URL")\n'
        'C = other.str("NOT_ENV")\n'
        "D = env.str(name)\n"
        "E = {'x': env.bool(\"E_FLAG\", default=False)}\n"
    )
    assert read_from_the_environment(source) == {"A_SECONDS", "B_URL", "E_FLAG"}

    markdown = (
        "# Configuration\n\n## Settings\n\n| variable | default |\n|---|---|\n"
        "| `A_SECONDS` | `1` |\n| `lower` | no |\nText naming `B_URL`.\n\n"
        "## Read elsewhere\n\n| `PORT` | `8000` |\n"
    )
    assert documented(markdown) == {"A_SECONDS"}
