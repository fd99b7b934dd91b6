"""The translators' command (docs/languages.md): `python manage.py i18n make|compile|check`.

- `make`: the catalogs from the code (Django's makemessages, both domains: `django` for the
  Python code and templates, `djangojs` for the web client), new strings added empty.
- `compile`: every `.po` to its `.mo` (Babel: no GNU gettext needed), only those out of date
  unless `--force`. `make run`, `make test` and the image do it.
- `check`: fails on a missing, empty or fuzzy entry, a placeholder a translation lost or
  invented, a header that is not ours, and a catalog older than the code (what `make` would
  change, compared in a copy of the project, so nothing here is touched). The last needs GNU
  gettext (`xgettext`); without it that part is skipped with a notice.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

LOCALES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ("django", "djangojs")
# What makemessages reads: the apps and their templates (`django`), the web client (`djangojs`).
# Tests, benchmarks, developers' tools, examples and docs say nothing to a player.
IGNORE = [
    "tests/*", "bench/*", "devtools/*", "examples/*", "docs/*", "deploy/*", "site/*", "var/*",
    "node_modules/*", "staticfiles/*", "locale/*", "*/migrations/*",
]  # fmt: skip
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"
# Copied into a scratch project by `check`: what makemessages reads, and the catalogs.
_SKIP_COPY = shutil.ignore_patterns(
    ".*", "node_modules", "var", "site", "staticfiles", "__pycache__", "*.mo", "docs", "bench"
)
_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")


def locale_dir() -> Path:
    return Path(settings.LOCALE_PATHS[0])


def po_files(root: Path | None = None) -> list[Path]:
    base = root or locale_dir()
    return sorted(base.glob("*/LC_MESSAGES/*.po"))


def read(path: Path) -> Any:
    with path.open("rb") as file:
        return read_po(file, locale=path.parent.parent.name, domain=path.stem)


def make_messages(root: Path, *, verbosity: int = 1) -> None:
    """makemessages in `root` (the project, or a copy of it) for every locale and domain."""
    for domain in DOMAINS:
        args = [
            sys.executable, "manage.py", "makemessages", "--domain", domain, "--no-obsolete",
            "--add-location", "file", "--no-wrap", f"--verbosity={verbosity}",
            *(f"--locale={code}" for code in LOCALES),
            *(f"--ignore={pattern}" for pattern in IGNORE),
        ]  # fmt: skip
        if domain == "djangojs":
            args.append("--extension=js")
        subprocess.run(args, cwd=root, check=True)


def compile_all(*, force: bool = False, root: Path | None = None) -> list[Path]:
    """Each `.po` to its `.mo` when the `.mo` is missing or older; returns those written."""
    written = []
    for po in po_files(root):
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        catalog = read(po)
        partial = mo.with_suffix(f".mo.{os.getpid()}")
        with partial.open("wb") as file:
            write_mo(file, catalog, use_fuzzy=False)
        partial.replace(mo)  # whole or not at all: a server may be reading it
        written.append(mo)
    return written


def problems(path: Path) -> list[str]:
    """What is wrong with one catalog, as lines a translator can act on."""
    catalog = read(path)
    found = []
    if catalog.plural_forms != PLURAL_FORMS:
        found.append(f"Plural-Forms is {catalog.plural_forms!r}, not {PLURAL_FORMS!r}")
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            found.append(f"fuzzy: {msgid!r}")
        if not all(strings):
            found.append(f"untranslated: {msgid!r}")
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = sorted(set(_PLACEHOLDER.findall(" ".join(ids))))
        for string in strings:
            if sorted(set(_PLACEHOLDER.findall(string))) != wanted:
                found.append(f"placeholders differ: {msgid!r} -> {string!r}")
    return found


def _without_dates(text: str) -> str:
    return re.sub(r'^"(POT-Creation-Date|PO-Revision-Date): .*\\n"$', "", text, flags=re.M)


def stale() -> list[str] | None:
    """The catalogs makemessages would change (compared in a copy), or None without xgettext."""
    if shutil.which("xgettext") is None:
        return None
    base = Path(settings.BASE_DIR)
    with tempfile.TemporaryDirectory(prefix="yaniv-i18n-") as scratch:
        copy = Path(scratch) / "project"
        shutil.copytree(base, copy, ignore=_SKIP_COPY)
        shutil.copytree(locale_dir(), copy / "locale", dirs_exist_ok=True, ignore=_SKIP_COPY)
        make_messages(copy, verbosity=0)
        changed = []
        for po in po_files(copy / "locale"):
            ours = locale_dir() / po.relative_to(copy / "locale")
            before = _without_dates(ours.read_text()) if ours.exists() else ""
            if _without_dates(po.read_text()) != before:
                changed.append(str(ours.relative_to(base)))
        return changed


class Command(BaseCommand):
    help = "The translation catalogs: make (from the code), compile (.po to .mo), check."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["make", "compile", "check"])
        parser.add_argument("--force", action="store_true", help="compile: every catalog")

    def handle(self, *args: Any, action: str, force: bool, **options: Any) -> None:
        if action == "make":
            make_messages(Path(settings.BASE_DIR), verbosity=options["verbosity"])
            self.stdout.write("catalogs made; now translate the empty entries and compile")
        elif action == "compile":
            for mo in compile_all(force=force):
                self.stdout.write(f"compiled {mo.relative_to(settings.BASE_DIR)}")
        else:
            self.check_catalogs()

    def check_catalogs(self) -> None:
        failed = False
        for po in po_files():
            self.stdout.write(f"checking {po.relative_to(settings.BASE_DIR)}")
            for line in problems(po):
                failed = True
                self.stdout.write(f"  {line}")
        self.stdout.write("comparing with the code (makemessages in a copy of the project)...")
        changed = stale()
        if changed is None:
            self.stdout.write("  skipped: no xgettext (install GNU gettext to compare)")
        for name in changed or []:
            failed = True
            self.stdout.write(f"  {name} is older than the code: run `manage.py i18n make`")
        if failed:
            raise CommandError("the catalogs need work (above)")
        self.stdout.write(self.style.SUCCESS("every catalog complete and up to date"))
