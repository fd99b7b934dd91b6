"""`make bench`: run every benchmark under bench/ in turn; each prints its own table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bench import finish

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    names = argv or sorted(p.stem for p in HERE.glob("*.py") if not p.stem.startswith("_"))
    failed = []
    for index, name in enumerate(names, 1):
        print(f"\n== [{index}/{len(names)}] python -m bench.{name} ==", flush=True)
        result = subprocess.run(
            [sys.executable, "-m", f"bench.{name}"], cwd=HERE.parent, check=False
        )
        if result.returncode != 0:
            failed.append(name)
    if not names:
        print("| benchmark | result |\n|---|---|\n(no benchmarks yet)")
    return finish(failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
