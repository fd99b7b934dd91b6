"""No payload sent to a viewer holds a card outside that viewer's sight (docs/rules.md §11, §12).

Whole tables play through REST, and after every move every viewer's game object is scanned for
the cards it may not see: other seats' hands (beyond the cards they took face up), the stock,
cards others drew from the stock (by choice or forced by a seven), and what the spy queen
showed another seat. Every viewer's event list is scanned the same way, event by event against
the full event in the log, and so is every message published towards its socket. The variant
tables play every preset of docs/rules.md §12, with the two keys that hide something more (sevens,
the spy queen), at two seats and at the largest table the preset's decks seat, to the end.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from core import sockets
from games import notify, tasks
from games.engine.cpu import Level, cpu_action
from games.engine.rules import Preset, Rules
from games.engine.state import CallYaniv, GameState
from games.models import Event, Game
from games.projection import events_shown, game_events, game_payload, game_state
from games.selectors import game_seats
from games.services.clock import RNG, game_cpu_turn
from tests.conftest import clear_throttle_counters
from tests.games.conftest import Client, game_secrets, simple_move

CARD = re.compile(r"\b(?:[A2-9TJQK][SHDC]|X[1-4])\b")
# The keys of docs/rules.md §12 that hide something more than a hand: forced draws, spied hands.
PRIVATE_KEYS = {"sevens": True, "spy_queen": True}
# A variant game is read through `GET /games/{id}/` by each player every this many moves.
READ_EVERY = 7
MAX_MOVES = 3000  # a heads-up game takes a few hundred
PLAYER_MOVES = 60
PRIVATE_MOVES = 150


def _cards_in(value: Any) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


def _round_events(log: list[Event]) -> list[Event]:
    """The events of the round in play: from its `round_started` on."""
    for index in range(len(log) - 1, -1, -1):
        if log[index].type == "round_started":
            return log[index:]
    return []


def _check_game(
    game: Mapping[str, Any], state: GameState, seat: int | None, log: list[Event]
) -> None:
    """`game` as `seat` (None: a stranger) got it holds only what that viewer may see."""
    you = game["you"]
    assert (you is None) == (seat is None)
    seen: set[str] = set(state.group) | set(state.pile)
    seen |= {card for cards in state.known for card in cards}
    if state.wild is not None:
        seen.add(state.wild)
        assert game["wild"] == state.wild  # face up: everyone's
    if you is not None:
        assert seat is not None
        assert Counter(you["hand"]) == Counter(state.hands[seat])
        seen |= set(state.hands[seat])
        spied = you["spied"]
        spies = [e for e in _round_events(log) if e.type == "spied" and e.payload["seat"] == seat]
        if not spies:
            assert spied is None, f"seat {seat} did not spy this round"
        elif spied is not None:
            # What it saw then (the log's full event) and that hand still holds.
            for other, cards in spied.items():
                assert int(other) != seat
                assert set(cards) <= set(spies[-1].payload["hands"][other])
                assert not Counter(cards) - Counter(state.hands[int(other)])
                seen |= set(cards)
    assert [s["hand_count"] for s in game["seats"]] == [len(hand) for hand in state.hands]
    current = {key: value for key, value in game.items() if key != "last_round"}
    leaked = _cards_in(current) - seen
    assert not leaked, f"seat {seat} sees {leaked}"
    # Hands shown at the end of the last round belong to that round, not the current deal.
    if game["last_round"] is not None:
        assert set(game["last_round"]["hands"]) <= {str(s) for s in range(len(state.hands))}


def _public_cards(event: Event) -> set[str]:
    """The cards of a logged (full) event that everyone may see."""
    data = event.payload
    cards = {data["wild"]} if "wild" in data else set()
    if event.type == "played":
        cards |= set(data["cards"]) | ({data["draw"]} - {"stock"})
    elif event.type == "round_ended":
        cards |= {card for hand in data["hands"].values() for card in hand}
    return cards


def _own_cards(event: Event) -> set[str]:
    """The cards of a logged event that only its seat may see."""
    data = event.payload
    if event.type in ("played", "forced_draw"):
        return {data["drawn"]}
    if event.type == "spied":
        return {card for hand in data["hands"].values() for card in hand}
    return set()


def _visible(log: list[Event], seat: int | None) -> list[Event]:
    """The logged events `seat` should be shown: all but another seat's spying."""
    return [e for e in log if not (e.type == "spied" and e.payload["seat"] != seat)]


def _check_events(shown: Sequence[Mapping[str, Any]], log: list[Event], seat: int | None) -> None:
    """`shown` (what `seat` got of `log`) holds, event by event, only what `seat` may see."""
    expected = _visible(log, seat)
    assert [(e["seq"], e["type"]) for e in shown] == [(e.seq, e.type) for e in expected]
    for event, full in zip(shown, expected, strict=True):
        assert "deck" not in event
        assert "stock" not in event
        mine = seat is not None and full.payload.get("seat") == seat
        allowed = _public_cards(full) | (_own_cards(full) if mine else set())
        leaked = _cards_in(event) - allowed
        assert not leaked, f"seat {seat} sees {leaked} in {event}"
        if event["type"] in ("played", "forced_draw") and not mine:
            assert "drawn" not in event


def _log(game_id: str, after: list[Event] | None = None) -> list[Event]:
    """The game's log; given the log read before, only what came since is read."""
    known = after or []
    since = known[-1].pk if known else 0
    return known + list(Event.objects.filter(game_id=game_id, id__gt=since).order_by("id"))


def _all_events(client: Client, game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    page = f"/api/v1/games/{game_id}/events/?limit=500"
    while page:
        body = client.get(page).json()
        events += body["results"]
        page = body["next"]
    return events


def _play_and_scan(game_id: str, clients: list[Client], moves: int) -> int:
    checked = 0
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            break
        state = GameState.from_dict(game.state or {})
        log = _log(game_id)
        for client in clients:
            view = client.game(game_id)
            _check_game(view, state, view["you"]["seat"], log)
            checked += 1
        mover = clients[state.turn or 0]
        response = mover.act(mover.game(game_id), **simple_move(mover.game(game_id)))
        assert response.status_code == 200, response.content
        # The action's own response is a payload too.
        after = Game.objects.get(pk=game_id)
        if after.status == "active":
            shown = response.json()
            _check_game(
                shown, GameState.from_dict(after.state or {}), shown["you"]["seat"], _log(game_id)
            )
    log = _log(game_id)
    for seat, client in enumerate(clients):
        _check_events(_all_events(client, game_id), log, seat)
    return checked


def _table(
    make_client, seats: int, rules: dict[str, Any] | None = None
) -> tuple[str, list[Client]]:
    clients = [make_client(f"P{index}") for index in range(seats)]
    host = clients[0]
    game = host.post("/api/v1/games/", {"max_players": seats, "rules": rules or {}}).json()
    for client in clients[1:]:
        client.post(f"/api/v1/games/{game['id']}/join/", {"invite_code": game["invite_code"]})
    host.post(f"/api/v1/games/{game['id']}/start/")
    return game["id"], clients


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_no_rest_payload_leaks_a_hidden_card(make_client, seats) -> None:
    game_id, clients = _table(make_client, seats)
    assert _play_and_scan(game_id, clients, moves=60) > 0


# Variant tables: players and CPU seats ------------------------------------------------------


@contextmanager
def _published(django_capture_on_commit_callbacks, monkeypatch) -> Iterator[list[Any]]:
    """What leaves after each commit towards the sockets (games/notify.py), in order: the
    messages each viewer's socket forwards as they are. No task is queued: the test plays
    the CPU seats itself."""
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(notify, "send_to_group", lambda group, msg: sent.append((group, msg)))
    monkeypatch.setattr(tasks.game_cpu_turn, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.game_timeout, "apply_async", lambda *args, **kwargs: None)
    with django_capture_on_commit_callbacks(execute=True):
        yield sent


class VariantTable:
    """A private table of `players` guests (seats 0..players-1) and CPU seats, started, whose
    every payload and message is checked as it is played."""

    def __init__(self, make_client, seats: int, players: int, rules: dict[str, Any], capture):
        self.clients = [make_client(f"P{index}") for index in range(players)]
        host = self.clients[0]
        game = host.post("/api/v1/games/", {"max_players": seats, "rules": rules}).json()
        self.game_id = game_id = game["id"]
        for client in self.clients[1:]:
            client.post(f"/api/v1/games/{game_id}/join/", {"invite_code": game["invite_code"]})
        for _ in range(seats - players):
            host.post(f"/api/v1/games/{game_id}/cpu/", {"level": "hard"})
        assert host.post(f"/api/v1/games/{game_id}/start/").status_code == 200
        self.capture = capture
        self.groups = {
            sockets.viewer_group(game_id, client.player.pk): seat
            for seat, client in enumerate(self.clients)
        }
        self.log = _log(game_id)
        self.moves = 0

    def row(self) -> Game:
        return Game.objects.get(pk=self.game_id)

    def secrets(self) -> list[str]:
        return game_secrets(self.game_id)

    def play(self, moves: int) -> None:
        """Play up to `moves` moves (or to the end), checking every viewer after each: the
        players' socket messages and answers, a spectator's view, now and then a read."""
        for _ in range(moves):
            row = self.row()
            if row.status != "active":
                return
            state = game_state(row)
            assert state is not None
            if self.moves % READ_EVERY == 0:
                for seat, client in enumerate(self.clients):
                    shown = client.game(self.game_id)
                    _check_game(shown, state, seat, self.log)
                    assert not any(secret in json.dumps(shown) for secret in self.secrets())
            # What a spectator (staff's live pages, a ranked game's watchers) would be shown.
            _check_game(game_payload(row, state, game_seats(row), None), state, None, self.log)
            with self.capture() as sent:
                self._move(state, row.seq)
            self._check_published(sent)
            self.moves += 1
            if self.moves % 200 == 0:
                clear_throttle_counters()  # a whole game is more requests than a minute's limit

    def _move(self, state: GameState, seq: int) -> None:
        """A player's move through the API (chosen as the CPU would), a CPU seat's by the
        clock (all the rest of the game at once when no player is left)."""
        turn = state.turn
        assert turn is not None
        if self.row().seats.get(seat=turn).cpu_plays:
            assert game_cpu_turn(game_id=self.game_id, seq=seq)
            return
        action = cpu_action(state, turn, RNG, Level.HARD)
        body: dict[str, Any] = (
            {"type": "yaniv"}
            if isinstance(action, CallYaniv)
            else {"type": "play", "cards": list(action.cards), "draw": action.draw}
        )
        response = self.clients[turn].post(
            f"/api/v1/games/{self.game_id}/actions/", {"seq": seq, **body}
        )
        assert response.status_code == 200, response.content
        after = self.row()
        if after.status == "active":
            _check_game(
                response.json(), game_state(after) or state, turn, _log(self.game_id, self.log)
            )

    def _check_published(self, sent: list[tuple[str, dict[str, Any]]]) -> None:
        """Each player's socket got the game and the new events as that seat may see them
        (several messages when the CPUs played on: the last holds the game now)."""
        now = _log(self.game_id, self.log)
        new, self.log = now[len(self.log) :], now
        state = game_state(self.row())
        assert state is not None
        updates: dict[str, list[dict[str, Any]]] = {}
        for group, message in sent:
            if message["type"] == "game.update":
                updates.setdefault(group, []).append(message)
        assert set(updates) == set(self.groups)
        # Nothing of a server seed, nor the game seed, before the game has ended.
        if self.row().status == "active":
            published = json.dumps(sent)
            assert not any(secret in published for secret in self.secrets())
        for group, seat in self.groups.items():
            # The frames each socket sends as they are (games/notify.py encodes them).
            frames = [json.loads(frame) for m in updates[group] for frame in m["frames"]]
            assert all(frame["type"] == "game" for frame in frames)
            _check_game(frames[-1]["game"], state, seat, now)
            _check_events([f["event"] for f in frames if f["event"] is not None], new, seat)

    def leave_and_finish(self) -> None:
        """Every player leaves (their seats stay theirs to watch); the CPUs play to the end."""
        for client in self.clients:
            with self.capture() as sent:
                assert client.post(f"/api/v1/games/{self.game_id}/leave/").status_code == 200
            self._check_published(sent)
        self.play(1)  # the CPU's one call plays every move left (no player is left)
        assert self.row().status == "finished"

    def check_the_whole_log(self) -> set[str]:
        """Every player's event list, and a stranger's, against the log; the event types."""
        clear_throttle_counters()
        for seat, client in enumerate(self.clients):
            _check_events(_all_events(client, self.game_id), self.log, seat)
        stranger = list(game_events(self.row(), -1, None))
        _check_events(events_shown(stranger, None), self.log, None)
        return {event.type for event in self.log}


def _presets_at(seats: Callable[[Rules], int]) -> list[Any]:
    return [
        pytest.param(preset.value, seats(Rules.from_dict({"preset": preset.value})), id=preset)
        for preset in Preset
    ]


@pytest.fixture
def capture(django_capture_on_commit_callbacks, monkeypatch) -> Callable[[], Any]:
    return lambda: _published(django_capture_on_commit_callbacks, monkeypatch)


@pytest.mark.parametrize(("preset", "seats"), _presets_at(lambda rules: 2))
def test_every_preset_heads_up_with_sevens_and_the_spy_queen(
    make_client, api_client, capture, preset: str, seats: int
) -> None:
    """A player against a CPU, every move checked, to the end of the game; another game when
    the deal gave no seven or QD to discard (a game may end without either), up to three."""
    seen: set[str] = set()
    for _ in range(3):
        table = VariantTable(make_client, seats, 1, {"preset": preset, **PRIVATE_KEYS}, capture)
        # A stranger to a private table, and nobody at all, get nothing of it.
        assert make_client("Stranger").get(f"/api/v1/games/{table.game_id}/").status_code == 403
        assert api_client.get(f"/api/v1/games/{table.game_id}/").status_code == 401
        assert api_client.get(f"/api/v1/games/{table.game_id}/events/").status_code == 401
        table.play(MAX_MOVES)
        assert table.row().status == "finished"
        seen |= table.check_the_whole_log()
        if {"forced_draw", "spied"} <= seen:
            break
    # Games this long have had a seven and the QD discarded, by one side or the other.
    assert {"forced_draw", "spied"} <= seen


@pytest.mark.parametrize(("preset", "seats"), _presets_at(lambda rules: rules.max_players))
def test_every_preset_at_its_largest_table(make_client, capture, preset: str, seats: int) -> None:
    """Two players and CPU seats: the players play a while, every move checked, then leave,
    and the CPUs play to the end, every message still checked. A deal may end the game within
    the players' stretch (a short game at five): then another table, up to three."""
    for _ in range(3):
        table = VariantTable(make_client, seats, 2, {"preset": preset}, capture)
        table.play(PLAYER_MOVES)
        if table.row().status == "active":
            break
        table.check_the_whole_log()
    assert table.row().status == "active", "three games ended within the players' stretch"
    table.leave_and_finish()
    table.check_the_whole_log()


def test_forced_draws_and_spying_at_eight(make_client, capture) -> None:
    """Two decks at eight (eight sevens, two QD), the private keys on: a game there runs to
    thousands of moves (hands grow with each seven), so a stretch of it, every move checked."""
    rules = {"preset": "least_count", **PRIVATE_KEYS}
    table = VariantTable(make_client, 8, 2, rules, capture)
    table.play(PRIVATE_MOVES)
    assert table.row().status == "active"
    types = table.check_the_whole_log()
    assert "forced_draw" in types, types


# The sockets themselves --------------------------------------------------------------------


def _state(game_id: str) -> tuple[GameState, int, list[Event]]:
    game = Game.objects.get(pk=game_id)
    return GameState.from_dict(game.state or {}), game.seq, _log(game_id)


async def _connect(game_id: str, client: Client) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application,
        f"/ws/v1/games/{game_id}/",
        headers=[(b"authorization", f"Bearer {client.token}".encode())],
    )
    connected, _ = await socket.connect()
    assert connected
    return socket


async def _drain(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    messages = [await socket.receive_json_from(timeout=5)]
    while not await socket.receive_nothing(timeout=0.1):
        messages.append(await socket.receive_json_from(timeout=5))
    return messages


@pytest.mark.parametrize(
    "rules", [{}, {"preset": "least_count", **PRIVATE_KEYS}], ids=["standard", "least_count"]
)
@pytest.mark.django_db(transaction=True)
async def test_no_websocket_message_leaks_a_hidden_card(make_client, rules) -> None:
    game_id, clients = await database_sync_to_async(_table)(make_client, 3, rules)
    sockets = [await _connect(game_id, client) for client in clients]
    state, _, log = await database_sync_to_async(_state)(game_id)
    for seat, socket in enumerate(sockets):
        first = await socket.receive_json_from(timeout=5)
        assert first["event"] is None
        _check_game(first["game"], state, seat, log)
    for _ in range(12):
        mover = clients[state.turn or 0]
        view = await database_sync_to_async(mover.game)(game_id)
        response = await database_sync_to_async(mover.act)(view, **simple_move(view))
        assert response.status_code == 200
        before = len(log)
        state, seq, log = await database_sync_to_async(_state)(game_id)
        for seat, socket in enumerate(sockets):
            messages = await _drain(socket)
            for message in messages:
                assert message["type"] == "game"
                assert message["game"]["seq"] == seq
                _check_game(message["game"], state, seat, log)
            _check_events([m["event"] for m in messages], log[before:], seat)
    for socket in sockets:
        await socket.disconnect()
