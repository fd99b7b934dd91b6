"""The games admin: a live game shows only what a spectator sees, an ended one its full record
round by round; events are paginated; a game is voided with a reason after a confirmation,
and never deleted."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from accounts.models import StaffAction
from games.engine.state import GameState
from games.models import Event, Game, GameStatus
from games.services.rating import game_rate
from tests.games.conftest import finished_two_player_game, play_moves, start_table

CARD = re.compile(r"\b(?:[A2-9TJQK][SHDC]|X[1-4])\b")
GAMES = "/admin/games/game/"


def _hidden(game_id: str) -> set[str]:
    """Every card no spectator may see now: the hands (but cards taken face up) and the stock."""
    state = GameState.from_dict(Game.objects.get(pk=game_id).state or {})
    hidden = set(state.stock[state.stock_pos :])
    for seat, hand in enumerate(state.hands):
        hidden |= set(hand) - set(state.known[seat])
    return hidden


@pytest.fixture
def live_game(db: None) -> str:
    """An active game still in its first round: once a round has ended, its shown hands are
    public and their card codes come again in the new deal, which the text search below
    cannot tell from a leak."""
    for _ in range(20):
        game_id, clients = start_table(3)
        play_moves(game_id, clients, 7)
        game = Game.objects.get(pk=game_id)
        assert game.status == GameStatus.ACTIVE
        if GameState.from_dict(game.state or {}).setup.round == 1:
            return game_id
    raise AssertionError("every table of 3 ended its first round within 7 moves")


@pytest.fixture
def finished_game(db: None) -> str:
    return finished_two_player_game()


def test_a_live_games_admin_pages_show_no_hidden_card(admin_client, live_game) -> None:
    hidden = _hidden(live_game)
    assert hidden
    pages = {
        "list": admin_client.get(GAMES),
        "detail": admin_client.get(f"{GAMES}{live_game}/change/"),
        "events": admin_client.get(f"{GAMES}{live_game}/events/"),
    }
    for name, page in pages.items():
        assert page.status_code == 200, name
        leaked = set(CARD.findall(page.text)) & hidden
        assert not leaked, f"the {name} page shows {leaked}"
    assert "what a spectator sees" in pages["detail"].text
    assert '"deck"' not in pages["events"].text
    assert admin_client.get(f"{GAMES}{live_game}/record/").status_code == 404
    assert admin_client.get(f"{GAMES}{live_game}/rounds/1/").status_code == 404


def test_a_live_games_events_page_leaves_out_what_a_seat_spied(admin_client, live_game) -> None:
    """What the spy queen showed one seat (docs/rules.md §12) is that seat's alone: a spectator's
    view of the log, which staff read while the game is live, does not hold the event."""
    game = Game.objects.get(pk=live_game)
    state = GameState.from_dict(game.state or {})
    seen = {str(seat): list(hand) for seat, hand in enumerate(state.hands) if seat != 1}
    Event.objects.create(game=game, seq=game.seq, type="spied", payload={"seat": 1, "hands": seen})
    page = admin_client.get(f"{GAMES}{live_game}/events/")
    assert page.status_code == 200
    assert "spied" not in page.text
    assert not set(CARD.findall(page.text)) & _hidden(live_game)


def test_an_ended_game_reads_round_by_round(admin_client, finished_game) -> None:
    page = admin_client.get(f"{GAMES}{finished_game}/change/")

    rounds = Event.objects.filter(game_id=finished_game, type="round_started").count()
    assert rounds > 1
    for number in range(1, rounds + 1):
        assert f"{GAMES}{finished_game}/rounds/{number}/" in page.text
    first = admin_client.get(f"{GAMES}{finished_game}/rounds/1/")
    assert first.status_code == 200
    assert "Round 1: " in first.text
    plays = Event.objects.filter(game_id=finished_game, type="played")
    first_play = plays.first()
    assert first_play is not None
    assert " ".join(first_play.payload["cards"]) in first.text
    assert "Result: " in first.text
    assert admin_client.get(f"{GAMES}{finished_game}/rounds/{rounds + 1}/").status_code == 404
    # The record, deck included, is open now.
    record = admin_client.get(f"{GAMES}{finished_game}/record/")
    assert record.status_code == 200
    assert json.loads(record.content)["rounds"][0]["deck"]


def test_events_are_paginated(admin_client, finished_game) -> None:
    total = Event.objects.filter(game_id=finished_game).count()
    assert total > 50
    first = admin_client.get(f"{GAMES}{finished_game}/events/")
    assert first.text.count("<tr><td>") == 50
    assert f"({total} events)" in first.text
    last = admin_client.get(f"{GAMES}{finished_game}/events/", {"page": 999})
    assert last.text.count("<tr><td>") == total - 50 * ((total - 1) // 50)


def test_the_list_shows_players_result_rounds_and_finds_by_player(
    admin_client, finished_game
) -> None:
    game = Game.objects.get(pk=finished_game)
    seats = list(game.seats.select_related("player").order_by("place"))
    winner = seats[0].player
    assert winner is not None
    listed = admin_client.get(GAMES, {"q": str(winner.pk)})
    assert str(game.pk)[:8] in listed.text
    assert f"1. {winner.display_name}" in listed.text
    by_name = admin_client.get(GAMES, {"q": winner.display_name})
    assert str(game.pk)[:8] in by_name.text
    nobody = admin_client.get(GAMES, {"q": "no such player"})
    assert str(game.pk)[:8] not in nobody.text


def _void(admin_client, game_id: str, **extra: Any) -> Any:
    return admin_client.post(
        GAMES, {"action": "void_games", "_selected_action": [game_id], **extra}
    )


def test_voiding_asks_for_a_reason_and_confirmation(
    admin_client, staff, make_game, players, django_capture_on_commit_callbacks
) -> None:
    game = make_game([(players[0], 1), (players[1], 2)])
    assert game_rate(game_id=game.pk)

    form = _void(admin_client, str(game.pk))
    assert form.status_code == 200
    assert 'name="reason"' in form.text
    assert "cannot be undone" in form.text
    refused = _void(admin_client, str(game.pk), apply="Void", reason="")
    assert refused.status_code == 200
    assert Game.objects.get(pk=game.pk).voided_at is None

    with django_capture_on_commit_callbacks(execute=True):
        done = _void(admin_client, str(game.pk), apply="Void", reason="Collusion.")
    assert done.status_code == 302
    game.refresh_from_db()
    assert (game.status, game.void_reason, game.voided_by) == (
        GameStatus.FINISHED,
        "Collusion.",
        staff,
    )
    logged = StaffAction.objects.get(action="void")
    assert (logged.actor, logged.game_id, logged.reason) == (staff, game.pk, "Collusion.")
    assert "voided" in admin_client.get(f"{GAMES}{game.pk}/change/").text


def test_games_are_never_deleted_in_the_admin(admin_client, make_game, players) -> None:
    game = make_game([(players[0], 1), (players[1], 2)])
    listed = admin_client.get(GAMES)
    assert "delete_selected" not in listed.text
    assert admin_client.get(f"{GAMES}{game.pk}/delete/").status_code == 403


def test_the_seat_rows_show_the_cpu_level_without_repeating_their_name(
    admin_client, live_game
) -> None:
    page = admin_client.get(f"{GAMES}{live_game}/change/").text
    assert "games/admin.css" in page  # hides the row's object name Django prints above it
    assert "Cpu level" in page
