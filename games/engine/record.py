"""Game records (``yaniv-record/1``, docs/api.md "Record"): export from events, and replay.

Replay drives the very code that live play uses: ``apply_play`` and ``apply_yaniv``, which
``apply`` dispatches to. The record's decks and reshuffles enter through the engine's
randomness seam: a scripted ``Rng`` that hands back the recorded order, after checking that
it is a permutation of exactly the cards the engine asked it to shuffle.

Forced draws (docs/rules.md §12, sevens) and what the spy queen shows are derived, never recorded:
the record holds only the reshuffles they cause, after the action, in the order they happened.
Under ``final_turns`` the round goes on after the ``yaniv`` entry and ends with the last of the
others' final plays.

A record's ``rules`` describe the whole table. A server whose tables have settings beyond
``Rules`` (the turn limit) writes them through ``record_from_events``' ``rules`` and reads them
back through ``replay``'s ``read_rules``; the engine itself plays by ``Rules`` alone.
"""

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from games.engine.errors import IllegalMove, InvalidRules, Reason
from games.engine.fair import Unfair, check_record
from games.engine.rules import Rules
from games.engine.state import (
    MIN_PLAYERS,
    EngineEvent,
    GameState,
    apply_play,
    apply_yaniv,
    standings_list,
    start_game,
)

RECORD_FORMAT = "yaniv-record/1"
_EXTRA_KEYS = ("at", "by")
_NO_DECK = object()
"""What a script holds when no deal is due (a record's deck may be any JSON, even null)."""

RulesReader = Callable[[object], Rules]
"""Reads a record's ``rules`` object into the ``Rules`` to play by; raises ``InvalidRules``."""


class RecordRules(Protocol):
    """What a record's ``rules`` show: ``Rules``, or a server's settings that hold them."""

    def to_dict(self) -> dict[str, Any]: ...


def record_from_events(
    rules: RecordRules,
    players: int,
    events: Iterable[Mapping[str, Any]],
    seats: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The record of a game from its engine events, in order. Events of other types (the
    service's own, such as ``player_away``) are skipped; ``at`` and ``by`` are kept. The
    record's ``rules`` are ``rules.to_dict()``."""
    rounds: list[dict[str, Any]] = []
    for event in events:
        kind = event.get("type")
        if kind == "round_started":
            rounds.append({"starter": event["starter"], "deck": list(event["deck"]), "actions": []})
            continue
        if kind == "played":
            action = {"seat": event["seat"], "discard": list(event["cards"]), "draw": event["draw"]}
        elif kind == "yaniv_called":
            action = {"seat": event["seat"], "yaniv": True}
        elif kind == "reshuffled":
            action = {"reshuffle": list(event["stock"])}
        else:
            continue
        for key in _EXTRA_KEYS:
            if key in event:
                action[key] = event[key]
        rounds[-1]["actions"].append(action)
    record: dict[str, Any] = {"format": RECORD_FORMAT, "rules": rules.to_dict(), "players": players}
    if seats is not None:
        record["seats"] = [dict(seat) for seat in seats]
    record["rounds"] = rounds
    return record


class _Fault(Exception):
    def __init__(self, reason: str, round_index: int, action_index: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.round_index = round_index
        self.action_index = action_index


class _ScriptFault(Exception):
    def __init__(self, reason: Reason, deal: bool = False) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.deal = deal
        """Whether the fault is in the next round's deck (else in a reshuffle)."""


class _Script:
    """An ``Rng`` that plays back a record.

    A deal (a shuffle of the whole deck: a reshuffle never holds the cards in the hands) takes
    the deck queued in ``deck``. A reshuffle takes the record's next reshuffle entry after the
    action being applied (``actions[at]``, and after the reshuffles it has already taken, up
    to ``reshuffled_at``): looking it up only when the engine shuffles keeps the per-action
    cost of replay to one attribute store.
    """

    __slots__ = ("actions", "at", "deal_size", "deck", "reshuffled_at", "starter")

    def __init__(self, starter: int, deck: object, deal_size: int) -> None:
        self.starter = starter
        self.deck = deck
        self.deal_size = deal_size
        self.actions: list[Any] = []
        self.at = -1
        self.reshuffled_at = -1

    def randrange(self, stop: int, /) -> int:
        return self.starter

    def shuffle(self, x: list[Any], /) -> None:
        if len(x) == self.deal_size:
            deck = self.deck
            self.deck = _NO_DECK
            if not isinstance(deck, list) or not _same_cards(deck, x):
                raise _ScriptFault(Reason.BAD_DECK, deal=True)
            x[:] = deck
            return
        following = max(self.at, self.reshuffled_at) + 1
        entry = self.actions[following] if following < len(self.actions) else None
        if type(entry) is not dict or "reshuffle" not in entry:
            raise _ScriptFault(Reason.MISSING_RESHUFFLE)
        order = entry["reshuffle"]
        if not isinstance(order, list) or not _same_cards(order, x):
            raise _ScriptFault(Reason.BAD_RESHUFFLE)
        self.reshuffled_at = following
        x[:] = order


def _same_cards(order: list[Any], cards: list[str]) -> bool:
    """Whether ``order`` is a permutation of the multiset ``cards``."""
    try:
        seen = set(order)
    except TypeError:  # unhashable junk in the record
        return False
    if len(seen) == len(order) == len(cards):  # distinct codes: one deck
        return seen.issuperset(cards)
    return len(order) == len(cards) and Counter(order) == Counter(cards)


def replay_text(text: str | bytes, read_rules: RulesReader = Rules.from_dict) -> dict[str, Any]:
    """Replay JSON text holding a record or a scenario wrapper (what ``replay_record`` reads)."""
    try:
        document = json.loads(text)
    except ValueError as error:
        return {"error": f"invalid JSON: {error}", "round": 0, "action": 0}
    except RecursionError:
        return {"error": "invalid JSON: nested too deeply", "round": 0, "action": 0}
    return replay_document(document, read_rules)


def replay_document(document: object, read_rules: RulesReader = Rules.from_dict) -> dict[str, Any]:
    """Replay a bare record, or a ``{"record": ..., "expect": ...}`` scenario wrapper."""
    if isinstance(document, Mapping) and "format" not in document and "record" in document:
        return replay(document["record"], read_rules)
    return replay(document, read_rules)


def replay(record: object, read_rules: RulesReader = Rules.from_dict) -> dict[str, Any]:
    """The summary of docs/api.md "Record", or ``{"error", "round", "action"}`` (0-based) at the
    first thing the rules refuse. Faults in a round's ``starter`` or ``deck`` are action 0;
    faults in the header (format, rules, players) are round 0, action 0. ``read_rules`` reads
    the record's ``rules`` (missing: ``{}``)."""
    try:
        return _replay(record, read_rules)
    except _Fault as fault:
        return {
            "error": str(fault.reason),
            "round": fault.round_index,
            "action": fault.action_index,
        }


def _replay(record: object, read_rules: RulesReader) -> dict[str, Any]:
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise _Fault(Reason.UNKNOWN_FORMAT, 0, 0)
    try:
        rules = read_rules(record.get("rules", {}))
    except InvalidRules as error:
        raise _Fault(f"{Reason.INVALID_RULES}: {error}", 0, 0) from error
    players = record.get("players")
    if type(players) is not int or not MIN_PLAYERS <= players <= rules.max_players:
        raise _Fault(Reason.INVALID_PLAYERS, 0, 0)
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not all(
        isinstance(entry, Mapping) and isinstance(entry.get("actions"), list) for entry in rounds
    ):
        raise _Fault(Reason.MALFORMED_ACTION, 0, 0)
    summary: list[dict[str, Any]] = []
    if not rounds:
        return {"status": "in_progress", "rounds": summary, "standings": None}

    starter = rounds[0].get("starter")
    if type(starter) is not int or not 0 <= starter < players:
        raise _Fault(Reason.WRONG_STARTER, 0, 0)
    script = _Script(starter, rounds[0].get("deck"), len(rules.deck))
    try:
        state, _ = start_game(players, rules, script)
    except _ScriptFault as fault:
        raise _Fault(fault.reason, 0, 0) from fault

    for round_index in range(len(rounds)):
        if round_index and state.round != round_index + 1:
            raise _Fault(
                Reason.GAME_OVER if state.finished else Reason.ROUND_NOT_ENDED, round_index, 0
            )
        state = _replay_round(state, script, rules, rounds, round_index, summary)
    result = {
        "status": "finished" if state.finished else "in_progress",
        "rounds": summary,
        "standings": standings_list(state.standings),
    }
    if "fairness" in record:
        result["fairness"] = _check_fairness(record)
    return result


def _check_fairness(record: Mapping[str, Any]) -> str:
    """A record played by the rules, its chance checked against its revealed seeds
    (docs/fairness.md): ``"verified"``, or the fault at the first thing that disagrees (a
    round's deck or starter: its action 0; a reshuffle: its entry)."""
    try:
        check_record(record)
    except Unfair as unfair:
        raise _Fault(f"{Reason.UNFAIR}: {unfair}", *unfair.at) from unfair
    except (TypeError, ValueError, LookupError, AttributeError) as error:
        # What check_record has not named (it names every malformed part it knows of).
        raise _Fault(f"{Reason.UNFAIR}: fairness: malformed: {error}", 0, 0) from error
    return "verified"


def _replay_round(
    state: GameState,
    script: _Script,
    rules: Rules,
    rounds: list[Any],
    round_index: int,
    summary: list[dict[str, Any]],
) -> GameState:
    actions: list[Any] = rounds[round_index]["actions"]
    script.actions = actions
    script.reshuffled_at = -1
    has_next = round_index + 1 < len(rounds)
    # The deal that the round's end asks for. Without a next round in the record the next
    # deal is unknown, and nothing reported depends on it: any permutation will do.
    script.deck = rounds[round_index + 1].get("deck") if has_next else list(rules.deck)
    setup = state.setup
    for index, entry in enumerate(actions):
        try:
            seat, cards, draw = entry["seat"], entry["discard"], entry["draw"]
        except (KeyError, TypeError):
            if index <= script.reshuffled_at:
                continue  # a reshuffle that the action before it used
            script.at = index
            state, events = _replay_call(state, script, entry, round_index, index)
        else:
            if type(cards) is not list or type(seat) is not int:
                raise _Fault(Reason.MALFORMED_ACTION, round_index, index)
            script.at = index
            try:
                state, events = apply_play(state, seat, cards, draw, script)
            except IllegalMove as illegal:
                raise _Fault(illegal.reason, round_index, index) from illegal
            except _ScriptFault as fault:
                raise _fault_at(fault, round_index, index + 1) from fault
        if state.setup is not setup:  # the round has ended
            _end_of_round(state, rounds, round_index, max(index, script.reshuffled_at) + 1)
            _summarise(events, summary)
            return state
    return state


def _fault_at(fault: _ScriptFault, round_index: int, action_index: int) -> _Fault:
    """A fault of the script: in the next round's deck (action 0 of that round), else in the
    reshuffle at ``action_index``."""
    if fault.deal:
        return _Fault(fault.reason, round_index + 1, 0)
    return _Fault(fault.reason, round_index, action_index)


def _replay_call(
    state: GameState, script: _Script, entry: object, round_index: int, index: int
) -> tuple[GameState, list[EngineEvent]]:
    """Replay an action that is not a play: it must be a Yaniv call."""
    if type(entry) is dict and "reshuffle" in entry:
        raise _Fault(Reason.UNEXPECTED_RESHUFFLE, round_index, index)
    if (
        type(entry) is not dict
        or type(entry.get("seat")) is not int
        or entry.get("yaniv") is not True
    ):
        raise _Fault(Reason.MALFORMED_ACTION, round_index, index)
    try:
        return apply_yaniv(state, entry["seat"], script)
    except IllegalMove as illegal:
        raise _Fault(illegal.reason, round_index, index) from illegal
    except _ScriptFault as fault:
        raise _fault_at(fault, round_index, index + 1) from fault


def _end_of_round(state: GameState, rounds: list[Any], round_index: int, rest: int) -> None:
    """Check what follows the round's last action: nothing more in the round, and the next
    round's starter as the rules say."""
    if rest < len(rounds[round_index]["actions"]):
        reason = Reason.GAME_OVER if state.finished else Reason.ROUND_ALREADY_ENDED
        raise _Fault(reason, round_index, rest)
    if round_index + 1 < len(rounds) and not state.finished:
        starter = rounds[round_index + 1].get("starter")
        if type(starter) is not int or starter != state.starter:
            raise _Fault(Reason.WRONG_STARTER, round_index + 1, 0)


def _summarise(events: list[EngineEvent], summary: list[dict[str, Any]]) -> None:
    for event in events:
        if event["type"] == "round_ended":
            summary.append(
                {
                    key: event[key]
                    for key in (
                        "caller",
                        "outcome",
                        "hand_totals",
                        "points",
                        "totals",
                        "eliminated",
                        "next_starter",
                        "wild",
                    )
                    if key in event
                }
            )
