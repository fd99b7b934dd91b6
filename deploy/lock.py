"""Split a `pip freeze` of the developers' environment into the two locks (`make lock`).

    python deploy/lock.py FREEZE REPORT

FREEZE is `pip freeze` with `.[dev]` installed; REPORT is the `pip install --dry-run --report`
of the project alone, constrained by FREEZE: what it would install is the runtime. Writes
requirements.lock (the runtime: the image) and requirements-dev.lock (the rest: tests, lint,
benchmarks, the embedded servers), both with FREEZE's pins, so no version moves.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = "yaniv-server"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def main(freeze: Path, report: Path) -> None:
    installs = json.loads(report.read_text())["install"]
    runtime = {canonical(item["metadata"]["name"]) for item in installs} - {PROJECT}
    pins = [line for line in freeze.read_text().splitlines() if "==" in line]
    names = {canonical(line.split("==")[0]) for line in pins}
    if missing := runtime - names:
        raise SystemExit(f"runtime packages missing from the freeze: {sorted(missing)}")
    is_runtime = [canonical(line.split("==")[0]) in runtime for line in pins]
    (ROOT / "requirements.lock").write_text(
        "".join(f"{p}\n" for p, keep in zip(pins, is_runtime, strict=True) if keep)
    )
    (ROOT / "requirements-dev.lock").write_text(
        "# Developers' tools on top of requirements.lock (make install installs both).\n"
        + "".join(f"{p}\n" for p, keep in zip(pins, is_runtime, strict=True) if not keep)
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
