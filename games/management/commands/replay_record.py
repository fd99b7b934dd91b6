"""``python manage.py replay_record FILE...``: check game records against the rules.

Prints one JSON line per file, in order: the replay summary of docs/api.md "Record", or
``{"error", "round", "action"}``. ``-`` reads standard input. Exits 1 when any file failed.
Needs no database: the engine does all the work.
"""

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.record import replay_text
from games.game_rules import record_rules


class Command(BaseCommand):
    help = "Replay yaniv-record/1 files ('-' for stdin); print one JSON summary line per file."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        files: list[str] = options["files"]
        failed = 0
        for name in files:
            result = _replay_file(name)
            failed += "error" in result
            self.stdout.write(json.dumps(result))
        if failed:
            raise CommandError(f"{failed} of {len(files)} records did not replay", returncode=1)


def _replay_file(name: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return {"error": f"cannot read {name}: {error}", "round": 0, "action": 0}
    return replay_text(text, record_rules)
