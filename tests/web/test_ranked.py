"""The ranked queue in two browsers until they meet at a table; a third watches it; both
leave, the CPU plays their seats to the end, and the game is rated."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from matchmaking import tasks
from tests.web.conftest import game_id_of, shot


@pytest.fixture
def matchmaking_beat(server: str) -> Iterator[None]:
    """What beat does under `make run`: a matchmaking pass every half second."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(0.5):
            tasks.matchmaking_pass.delay()

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    yield
    stop.set()
    thread.join()


def _queue_for_two(page: Page) -> None:
    for size in (3, 4, 5):
        page.get_by_label(f"{size} players").uncheck()
    page.get_by_test_id("queue-ranked").click()
    expect(page.get_by_test_id("queue-status")).to_have_attribute("data-status", "searching")


@pytest.mark.usefixtures("matchmaking_beat")
def test_two_queued_players_are_matched_watched_and_rated(open_player) -> None:
    noa, avi = open_player("/"), open_player("/")

    _queue_for_two(noa)
    expect(noa.get_by_test_id("queue-status")).to_contain_text("waited")
    noa.get_by_test_id("cancel-queue").click()
    expect(noa.get_by_test_id("queue-status")).to_have_attribute("data-status", "cancelled")
    _queue_for_two(noa)
    shot(noa, "queue-desktop")
    _queue_for_two(avi)

    for page in (noa, avi):
        expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
        expect(page.get_by_role("heading", name="Ranked table")).to_be_visible()
        expect(page.get_by_test_id("turn")).to_be_visible()
        expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)
    game_id = game_id_of(noa)
    assert game_id_of(avi) == game_id
    # Ranked games have a turn limit: the countdown shows it.
    expect(noa.get_by_test_id("turn")).to_contain_text("s left")

    watcher = open_player("/watch")
    live = watcher.get_by_test_id("live-games").locator(f'[data-game="{game_id}"]')
    live.get_by_role("link", name="Watch").click()
    expect(watcher).to_have_url(re.compile(f"/games/{game_id}$"))
    expect(watcher.get_by_role("heading", name="Watching a table")).to_be_visible()
    expect(watcher.get_by_test_id("seat-1")).to_be_visible()
    expect(watcher.get_by_test_id("hand")).to_have_count(0)  # a stranger sees no hand
    expect(watcher.get_by_test_id("call-yaniv")).to_have_count(0)
    # The spectators' own chat room (the players' room is the seated players'): a guest says
    # a phrase, and has no text field.
    chat = watcher.get_by_test_id("chat")
    expect(chat).to_have_attribute("data-room", "spectators")
    expect(noa.get_by_test_id("chat")).to_have_attribute("data-room", "players")
    chat.locator('[data-testid="chat-phrase"][data-phrase="wow"]').click()
    expect(chat.get_by_test_id("chat-message")).to_have_text(re.compile(r"^You Wow!"))
    expect(chat.get_by_test_id("chat-text")).to_have_count(0)
    shot(watcher, "watch-desktop")

    for page in (noa, avi):
        page.get_by_role("button", name="Leave the table").click()
    for page in (noa, avi, watcher):
        standings = page.get_by_test_id("standings")
        expect(standings.locator("li")).to_have_count(2, timeout=60_000)
    # The rating change arrives with the `rated` event.
    expect(noa.get_by_test_id("standings")).to_contain_text("rating", timeout=30_000)
    shot(noa, "standings-ranked-desktop")

    noa.get_by_role("link", name="Profile").click()
    expect(noa.get_by_test_id("rating-chart")).to_have_attribute("data-points", "1")
    expect(noa.get_by_test_id("match-history").locator(f'[data-game="{game_id}"]')).to_be_visible()
    noa.get_by_role("link", name="Leaderboard").click()
    board = noa.get_by_test_id("leaderboard")
    for page in (noa, avi):
        expect(board).to_contain_text(page.get_by_test_id("you-name").inner_text())
