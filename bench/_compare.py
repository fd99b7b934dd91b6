"""Benchmarks of this checkout against another commit, in one run (`make bench-compare`).

    python -m bench._compare REF [BENCH ...] [--args "--seconds 15"]   (default: engine api_moves)

REF (a commit, a tag, a branch) is checked out in a throwaway worktree under var/, next to
this one, and each benchmark runs there and here in turn, alternating which goes first (AB,
then BA for the next), on the same interpreter and servers (DATABASE_URL / REDIS_URL, as
`make bench` sets them), so both face the same machine: a figure of one run is only
comparable with the other's of that run. Each output is printed in full under its heading;
the worktree is removed at the end. `--args` goes to every benchmark's command line; a
benchmark named twice runs twice on each side (its second pair in the other order).
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from pathlib import Path

from bench import finish

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ("engine", "api_moves")


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def _run(name: str, checkout: Path, label: str, args: list[str]) -> int:
    print(f"\n=== bench.{name} {' '.join(args)} on {label} ({checkout}) ===", flush=True)
    started = time.monotonic()
    command = [sys.executable, "-m", f"bench.{name}", *args]
    code = subprocess.run(command, cwd=checkout, check=False)
    print(f"(bench.{name} on {label}: {time.monotonic() - started:.0f} s)", flush=True)
    return code.returncode


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="the commit to compare against")
    parser.add_argument("benches", nargs="*", default=list(DEFAULT))
    parser.add_argument("--args", default="", help="arguments for every benchmark")
    args = parser.parse_args(argv)
    commit = _git("rev-parse", "--verify", f"{args.ref}^{{commit}}")
    here = f"this checkout ({_git('rev-parse', '--short', 'HEAD')}, with its changes)"
    there = f"{args.ref} ({commit[:9]})"
    worktree = ROOT / "var" / f"bench-ref-{commit[:12]}"
    if not worktree.exists():
        print(f"checking out {there} in {worktree} ...", flush=True)
        _git("worktree", "add", "--detach", str(worktree), commit)
    (worktree / "var").mkdir(exist_ok=True)
    failed = []
    try:
        for index, name in enumerate(args.benches):
            order = [(worktree, there), (ROOT, here)]
            for checkout, label in order if index % 2 == 0 else reversed(order):
                print(f"\n[{index + 1}/{len(args.benches)}]", end="", flush=True)
                if _run(name, checkout, label, shlex.split(args.args)) != 0:
                    failed.append(f"{name} on {label}")
    finally:
        _git("worktree", "remove", "--force", str(worktree))
    return finish(failed)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
