"""Engine benchmark: ``python bench/engine.py [--games N] [--seed S]``.

Plays seeded random legal games (2-5 players, a spread of house rules), exports their records,
then times, in CPU seconds of this one process: whole random games, record replay (the figure
that matters for ``replay_record`` and for re-checking stored games; also of eight-player games
with two decks, docs/rules.md §12), live ``apply``,
legal-move generation, state save/load (the service does one of each per move) and a seat's
view. Every game is dealt as the server deals it, from a fair deal's streams
(docs/fairness.md), and its record carries the revealed seeds: replay is timed with their check
and without it (the cost of the HMAC streams). Prints a table.
"""

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import fair
from games.engine.cards import hand_total
from games.engine.moves import legal_groups, legal_moves
from games.engine.record import record_from_events, replay
from games.engine.rules import AssafScores, Ending, ExactScores, Rules
from games.engine.state import Action, CallYaniv, EngineEvent, GameState, Play, apply, start_game
from games.engine.view import view

RULE_SETS = [
    Rules(),
    Rules(call_limit=7),
    Rules(call_limit=7, assaf_scores=AssafScores.ZERO, exact_scores=ExactScores.HALVE_50),
    Rules(jokers=0, ending=Ending.OUT_OVER_200),
    Rules(ending=Ending.FIRST_OVER_100, assaf_penalty=25),
]
EIGHT_SEATS = (8, Rules(decks=2))
"""The largest table (RULES.md §12): eight players, two decks."""
TARGET_REPLAY = 300_000
KEPT_POSITIONS = 100_000
"""Positions kept (from the first games) to time live apply, move generation and views."""

Step = tuple[GameState, Action]


def choose(state: GameState, rng: random.Random) -> Action:
    """A random legal move, greedy half the time so that rounds end."""
    assert state.turn is not None
    moves = legal_moves(state, state.turn)
    if isinstance(moves[0], CallYaniv) and rng.random() < 0.7:
        return moves[0]
    if rng.random() < 0.5:
        plays = [move for move in moves if isinstance(move, Play)]
        best = max(hand_total(move.cards) for move in plays)
        return rng.choice([move for move in plays if hand_total(move.cards) == best])
    return rng.choice(moves)


def play_game(
    seed: int, keep: bool, table: tuple[int, Rules] | None = None
) -> tuple[int, Rules, list[EngineEvent], list[Step], dict[str, Any]]:
    """One seeded game (at ``table``: seats and rules, else a spread of them), dealt from a
    fair deal of one human seat's seeded pair; with ``keep``, also every position with the
    action taken there. And the record's ``fairness`` block."""
    rng = random.Random(seed)
    players, rules = table or (2 + seed % 4, RULE_SETS[seed % len(RULE_SETS)])
    server_seed, client_seed = rng.randbytes(fair.SEED_BYTES), f"bench-{seed}"
    deal = fair.FairDeal(fair.game_seed([(server_seed, client_seed)]))
    state, events = start_game(players, rules, deal)
    steps: list[Step] = []
    while not state.finished:
        action = choose(state, rng)
        if keep:
            steps.append((state, action))
        state, happened = apply(state, action, deal)
        events.extend(happened)
    revealed = {
        "version": fair.VERSION,
        "game_seed": deal.seed.hex(),
        "seats": [
            {
                "seat": 0,
                "player_id": "bench",
                "commitment": fair.commitment(server_seed),
                "client_seed": client_seed,
                "server_seed": server_seed.hex(),
            }
        ],
    }
    return players, rules, events, steps, revealed


def with_fairness(
    games: list[tuple[int, Rules, list[EngineEvent], list[Step], dict[str, Any]]],
) -> list[dict[str, Any]]:
    """The games' records, each with its revealed seeds, through JSON as a file holds them."""
    records = []
    for players, rules, events, _, revealed in games:
        record = record_from_events(rules, players, events)
        record["fairness"] = revealed
        # As an API record: seat 0 the one human (its pair above), the others CPU seats.
        record["seats"] = [
            {"seat": 0, "player_id": "bench", "is_cpu": False},
            *({"seat": n, "player_id": None, "is_cpu": True} for n in range(1, players)),
        ]
        records.append(record)
    loaded: list[dict[str, Any]] = json.loads(json.dumps(records))
    return loaded


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The least CPU time of ``runs`` runs: CPU time, so that other busy processes on the
    machine do not count against the engine."""
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()

    started = time.process_time()
    games = []
    kept = 0
    for index in range(options.games):
        game = play_game(options.seed * 1_000_003 + index, keep=kept < KEPT_POSITIONS)
        kept += len(game[3])
        games.append(game)
    generation = time.process_time() - started
    fair_records = with_fairness(games)
    records = [
        {key: value for key, value in record.items() if key != "fairness"}
        for record in fair_records
    ]
    actions = sum(len(entry["actions"]) for record in records for entry in record["rounds"])
    rounds = sum(len(record["rounds"]) for record in records)
    steps = [step for _, _, _, game_steps, _ in games for step in game_steps]
    del games
    # The kept positions and records are long-lived; keep them out of the cyclic collector's
    # sight, as a service holding one state at a time would not make it walk them.
    gc.collect()
    gc.freeze()

    def replay_all() -> None:
        for record in records:
            result = replay(record)
            if "error" in result:
                raise SystemExit(f"replay failed: {result}")

    replay_seconds = best_of(3, replay_all)

    def replay_and_check_all() -> None:
        for record in fair_records:
            result = replay(record)
            if result.get("fairness") != "verified":
                raise SystemExit(f"replay with the fair deal's check failed: {result}")

    checked_seconds = best_of(3, replay_and_check_all)

    # Eight seats and two decks: hands, groups and decks are larger, and codes repeat.
    eight = [
        play_game(options.seed * 1_000_003 + index, keep=False, table=EIGHT_SEATS)
        for index in range(max(10, options.games // 20))
    ]
    eight_records = with_fairness(eight)
    eight_actions = sum(
        len(entry["actions"]) for record in eight_records for entry in record["rounds"]
    )
    # Out of the collector's sight too: left in it, they made every later full collection
    # (the saves, loads and views below keep what they build) walk them again.
    del eight
    gc.collect()
    gc.freeze()
    eight_seconds = best_of(3, lambda: [replay(record) for record in eight_records])
    if any(replay(record).get("fairness") != "verified" for record in eight_records):
        raise SystemExit("replay of an eight-seat game failed")

    # Live apply over the same positions, each with the action that was played there, dealing
    # (a round's end, a reshuffle) from a fair deal as the server does.
    def apply_all() -> None:
        deal = fair.FairDeal(bytes(32))
        for state, action in steps:
            apply(state, action, deal)

    apply_seconds = best_of(3, apply_all)
    # Every kept position is mid-game, so someone is to act.
    sample = [(state, state.turn) for state, _ in steps[:: max(1, len(steps) // 10_000)]]
    seated = [(state, turn) for state, turn in sample if turn is not None]
    assert len(seated) == len(sample)
    moves_seconds = best_of(3, lambda: [legal_moves(state, turn) for state, turn in seated])
    groups_seconds = best_of(3, lambda: [legal_groups(state.hands[turn]) for state, turn in seated])
    moves_per_state = sum(len(legal_moves(state, turn)) for state, turn in seated) / len(seated)
    texts = [json.dumps(state.to_dict()) for state, _ in seated]
    save_seconds = best_of(3, lambda: [json.dumps(state.to_dict()) for state, _ in seated])
    load_seconds = best_of(3, lambda: [GameState.from_dict(json.loads(text)) for text in texts])
    view_seconds = best_of(3, lambda: [view(state, turn) for state, turn in seated])

    replay_rate = actions / replay_seconds
    per = 1e6 / len(seated)
    rows = [
        ("games generated (random legal play)", f"{options.games}"),
        ("  rounds / recorded actions", f"{rounds} / {actions}"),
        ("random games per second (choose + apply)", f"{options.games / generation:,.0f}"),
        ("replay throughput, actions/s", f"{replay_rate:,.0f}"),
        ("  target", f"{TARGET_REPLAY:,} ({'met' if replay_rate >= TARGET_REPLAY else 'NOT met'})"),
        ("replay, us per action", f"{1e6 / replay_rate:.2f}"),
        (
            "replay with the fair deal's check (every deck and reshuffle), actions/s",
            f"{actions / checked_seconds:,.0f}",
        ),
        (
            "  the check's cost, % of replay time (target <= 5)",
            f"{100 * (checked_seconds - replay_seconds) / replay_seconds:.1f}",
        ),
        (
            f"replay, 8 seats, two decks, checked ({len(eight_records)} games), actions/s",
            f"{eight_actions / eight_seconds:,.0f}",
        ),
        ("  us per action", f"{1e6 * eight_seconds / eight_actions:.2f}"),
        ("live apply, actions/s", f"{len(steps) / apply_seconds:,.0f}"),
        ("legal_moves, us per position", f"{moves_seconds * per:.1f}"),
        ("  moves per position (mean)", f"{moves_per_state:.1f}"),
        ("legal_groups, us per hand", f"{groups_seconds * per:.1f}"),
        ("state to_dict + json.dumps, us", f"{save_seconds * per:.1f}"),
        ("json.loads + GameState.from_dict, us", f"{load_seconds * per:.1f}"),
        ("view (seat to act), us", f"{view_seconds * per:.1f}"),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"Python {sys.version.split()[0]}; CPU seconds of one process, best of 3 runs.")
    print(f"| {'engine (one core)'.ljust(width)} | result |")
    print(f"|{'-' * (width + 2)}|--------|")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
