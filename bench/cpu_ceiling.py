"""What would better calls be worth? ``hard`` against itself, calling with the hidden cards in view.

    python bench/cpu_ceiling.py [--games N] [--workers W]

Three cheating players play ``hard``'s discards and draws heads-up against ``hard``, and decide
the call seeing the other hand (only here: no CPU level ever sees a hidden card). *Oracle*
calls exactly when Yaniv would stand; *oracle, no Assaf* makes ``hard``'s calls except those
that would be an Assaf; *oracle, every safe call* makes ``hard``'s calls and also every one
that would stand. ``hard`` against ``hard`` is the control (par, 50%). The gap from the control
to each row bounds what any reading of the hidden hand from the seat's view could win by the
call alone: the searching ``expert`` (bench/cpu_strength.py) would need most of the first row's
gap to beat ``hard`` in 60% of games. Intervals are 95% Wilson score intervals.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Run as a script (`python bench/cpu_ceiling.py`), the repository root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cpu_strength import Player, play_game, wilson
from games.engine.cards import hand_total
from games.engine.cpu import hard
from games.engine.rng import Rng
from games.engine.state import Action, CallYaniv, GameState
from games.engine.view import ViewData

_now: list[GameState] = []
"""The state of the game this process is playing, shown to it before each decision."""


def _peek(state: GameState) -> None:
    _now[:] = [state]


def _stands(view: hard.View) -> bool:
    """Whether a call now would stand: every other hand is worth more (peeking)."""
    hands = _now[0].hands
    return all(hand_total(hands[seat]) > view.total for seat in view.opponents)


def _cheat(call: Callable[[hard.View, Rng], bool]) -> Player:
    """``hard``'s discards and draws, and a call whenever ``call`` says so."""

    def player(seen: ViewData, rng: Rng) -> Action:
        view = hard.View(seen)
        if seen["you"]["can_call_yaniv"] and call(view, rng):
            return CallYaniv(view.seat)
        return hard.best_play(view, rng)

    return player


oracle = _cheat(lambda view, rng: _stands(view))
oracle_no_assaf = _cheat(lambda view, rng: hard.should_call(view, rng) and _stands(view))
oracle_every_safe_call = _cheat(lambda view, rng: hard.should_call(view, rng) or _stands(view))


ROWS: dict[str, Player] = {
    "hard (control)": hard.choose,
    "oracle": oracle,
    "oracle, no Assaf": oracle_no_assaf,
    "oracle, every safe call": oracle_every_safe_call,
}


def _run(job: tuple[str, int]) -> float:
    name, seed = job
    return play_game([ROWS[name], hard.choose], seed, peek=_peek).share


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per row")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1, help="first game's seed")
    args = parser.parse_args(argv)

    rows = []
    with multiprocessing.Pool(args.workers) as pool:
        for name in ROWS:
            started = time.perf_counter()
            jobs = [(name, args.seed + game) for game in range(args.games)]
            wins = sum(pool.imap_unordered(_run, jobs, chunksize=10))
            print(f"  {name}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
            rows.append((name, wins / args.games, *wilson(wins, args.games)))

    print(f"\n{args.games} heads-up games per row against hard, default rules\n")
    print("| player (hard's plays) | wins | 95% interval |")
    print("|---|---|---|")
    for name, rate, low, high in rows:
        print(f"| {name} | {rate:.1%} | {low:.1%} - {high:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
