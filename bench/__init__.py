"""The benchmarks a user can run (`make bench`); bench/README.md says what each measures."""

import sys


def finish(failed: list[str]) -> int:
    """The exit code of a command that ran several benchmarks: 1, naming them, if any failed."""
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
