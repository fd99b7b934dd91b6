"""No path that does not exist: every repository path the docs, the docstrings and the comments
name is in the repository.

A clone must lack nothing it points at: the rules and the API's contract, which the project's
team keeps beside it, are `docs/rules.md` and `docs/api.md` here, and a module that moved or
became a package leaves no comment naming its old file.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]

# A path as prose names one: segments of letters, digits, `_`, `.` and `-`, joined by `/`,
# ending in a file's name or in `/` (a folder). `../` may lead. What comes right before it
# decides whether it is one at all (_REFERENCE_START).
_CANDIDATE = re.compile(r"(?:\.\./)*[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*/?")
# Made at run time, so never in a clone (.gitignore): var/backups/..., staticfiles/, site/.
_RUNTIME = {"var", ".venv", "staticfiles", "site", "node_modules", ".git", "build"}
# A bare file name (no `/`) is checked when it has one of these endings: `settings.py` is
# somewhere in the repository, a guide kept beside it is not. (Dotted module names end otherwise.)
_FILE_ENDINGS = (".py", ".md", ".js", ".css", ".html", ".json", ".yml", ".yaml", ".toml")
# `games/s`, `requests/min`: a rate, not a folder's file.
_UNITS = {"s", "ms", "min", "h", "hour", "day"}
# Comment markers of the other files, each at a line's start or after a space.
_HASH_COMMENTED = ("Makefile", "Dockerfile", "Procfile", ".importlinter", ".ci/run", ".gitignore")


def repository_files() -> set[str]:
    """Every file of the repository (tracked, or new and not ignored), relative to its root."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {name for name in listed.split("\0") if name and (ROOT / name).exists()}


class Repository:
    """What exists: the files, and the folders that hold them."""

    def __init__(self, files: set[str]) -> None:
        self.files = files
        self.folders = {str(parent) for name in files for parent in PurePosixPath(name).parents}
        self.folder_names = {PurePosixPath(folder).name for folder in self.folders} - {""}
        self.file_names = {PurePosixPath(name).name for name in files}

    def ends_a_path(self, tail: str) -> bool:
        tail = "/" + tail.strip("/")
        return any(("/" + path).endswith(tail) for path in self.files | self.folders)

    def exists(self, path: str) -> bool:
        path = path.rstrip("/")
        return path in self.files or path in self.folders


def _is_reference(text: str, start: int, end: int, token: str) -> bool:
    """Whether `token` (at text[start:end]) is meant as a path: not part of a URL, an API
    path (`/api/v1/games/`), a glob (`pkg/*.py`), a placeholder (`yaniv-<time>.dump`), a
    dotted module name or a number pair (`p50/p99`)."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    if before in "/\\:@.<{*$%~=" or before.isalnum() or after in "*<{$(=@:" + "\\":
        return False
    if after == "/" or re.match(r"[A-Za-z0-9_]", after):
        return False
    return not text[max(0, start - 3) : start].endswith("://")


def references(text: str, repository: Repository) -> Iterator[tuple[int, str]]:
    """The (line, path) pairs of `text` that name a repository path (existing or not)."""
    for number, line in enumerate(text.splitlines(), 1):
        for match in _CANDIDATE.finditer(line):
            token = match.group().rstrip(".")
            if not _is_reference(line, match.start(), match.start() + len(token), token):
                continue
            parts = [part for part in token.split("/") if part]
            if not parts or parts[0] in _RUNTIME:
                continue
            if "/" not in token:
                if token.endswith(_FILE_ENDINGS) and not token.startswith("."):
                    yield number, token
                continue
            first = next((part for part in parts if part != ".."), "")
            if parts[-1] in _UNITS:
                continue
            if first in repository.folder_names or token.endswith(_FILE_ENDINGS):
                yield number, token


def resolves(token: str, source: str, repository: Repository) -> bool:
    """A path is there relative to the root or to the folder of the file naming it or one of
    that folder's parents, or as the end of a path that is (a comment in games/ may say
    `engine/cpu/`, a layout tree `screenshots/` under `docs/`); a bare file name is there when
    a file of that name is anywhere (`settings.py`)."""
    if "/" not in token:
        return token in repository.file_names
    if not token.startswith("../") and repository.ends_a_path(token):
        return True
    base = PurePosixPath(source).parent
    for folder in [base, *base.parents]:
        joined = PurePosixPath(folder, token)
        parts: list[str] = []
        for part in joined.parts:
            if part == "..":
                if not parts:
                    break
                parts.pop()
            elif part != ".":
                parts.append(part)
        else:
            if repository.exists("/".join(parts)):
                return True
    return False


def python_prose(source: str) -> Iterator[tuple[int, str]]:
    """The comments and docstrings of a Python file, each with the line it starts on."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                yield body[0].lineno, body[0].value.value


def marked_comments(source: str, marker: str) -> Iterator[tuple[int, str]]:
    """The comments a line-comment `marker` (`#`, `//`) starts, at a line's start or after a
    space (so that `https://` and `a#b` are not comments)."""
    pattern = re.compile(rf"(?:^|\s){re.escape(marker)}(.*)$")
    for number, line in enumerate(source.splitlines(), 1):
        match = pattern.search(line)
        if match:
            yield number, match.group(1)


def prose_of(name: str, source: str) -> Iterator[tuple[int, str]]:
    """What of a file is prose: a Markdown file whole, the comments and docstrings of code."""
    if name.endswith(".md"):
        yield 1, source
    elif name.endswith(".py"):
        yield from python_prose(source)
    elif name.endswith(".js"):
        yield from marked_comments(source, "//")
    elif name.endswith((".yml", ".yaml", ".conf", ".toml")) or name in _HASH_COMMENTED:
        yield from marked_comments(source, "#")


def _is_documentation(name: str) -> bool:
    """README.md, bench/README.md and the pages of docs/ (other Markdown is data, like the
    scenarios' notes)."""
    return (
        name in {"README.md", "bench/README.md"}
        or re.fullmatch(r"docs/[^/]+\.md", name) is not None
    )


def broken(repository: Repository) -> list[str]:
    """`file:line: path` of every path named that does not exist."""
    found = []
    for name in sorted(repository.files):
        if name.endswith(".md") and not _is_documentation(name):
            continue
        path = ROOT / name
        if path.is_symlink() or path.suffix in {".png", ".svg", ".json", ".lock"}:
            continue
        prose = list(prose_of(name, path.read_text()))
        for first_line, text in prose:
            for offset, token in references(text, repository):
                if not resolves(token, name, repository):
                    found.append(f"{name}:{first_line + offset - 1}: {token}")
    return found


def test_every_path_the_docs_and_comments_name_exists() -> None:
    missing = broken(Repository(repository_files()))
    assert not missing, "paths that are not in the repository:\n" + "\n".join(missing)


SAMPLE = Repository(
    {"docs/api.md", "docs/rules.md", "games/engine/cpu/__init__.py", "config/settings.py"}
)


def _named(text: str) -> list[str]:
    return [token for _, token in references(text, SAMPLE)]


def test_the_finder_reads_paths_and_leaves_urls_api_paths_globs_and_modules() -> None:
    text = (
        "See docs/api.md and `games/engine/cpu/`, RULES.md §4, [rules](rules.md);\n"
        "not https://example.com/games/x.py, GET /api/v1/games/{id}/, games/*.py,\n"
        "games.engine.cpu, p50/p99, var/backups/yaniv-<time>.dump, config.settings,\n"
        "59 games/s, LockedGame.lock."
    )
    assert _named(text) == ["docs/api.md", "games/engine/cpu/", "RULES.md", "rules.md"]


def test_a_path_that_is_not_there_is_broken() -> None:
    assert resolves("docs/api.md", "README.md", SAMPLE)
    assert resolves("api.md", "docs/architecture.md", SAMPLE)
    assert resolves("../docs/rules.md", "bench/README.md", SAMPLE)
    assert resolves("engine/cpu/", "games/services/clock.py", SAMPLE)
    assert resolves("perf/", "README.md", SAMPLE) is False
    assert resolves("cpu/", "README.md", SAMPLE)
    assert resolves("settings.py", "games/apis.py", SAMPLE)
    assert not resolves("games/engine/cpu.py", "README.md", SAMPLE)
    assert not resolves("RULES.md", "games/engine/rules.py", SAMPLE)
    assert not resolves("../../docs/api.md", "bench/README.md", SAMPLE)


def test_python_prose_is_its_comments_and_docstrings_not_its_code() -> None:
    source = '"""Module, docs/api.md."""\nPATH = "games/table.py"  # a comment: API.md\n'
    assert sorted(python_prose(source)) == [(1, "Module, docs/api.md."), (2, "# a comment: API.md")]
