"""Playing against the CPU in the browser, by clicks only, from the first visit to the end."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from games.models import Seat
from tests.web.conftest import game_id_of, shot
from tests.web.table import Table


def test_a_first_visit_plays_a_whole_game_against_the_cpu_by_clicks(open_player) -> None:
    page = open_player("/")
    name = page.get_by_test_id("you-name").inner_text()
    assert re.fullmatch(r".{3,}", name), name
    shot(page, "home-desktop")

    # A short game (docs/rules.md §9): the first total over 100 ends it, and an Assaf is
    # worth 100, so the first refuted call does it.
    page.get_by_test_id("max-players").select_option("2")
    page.get_by_test_id("house-rules").locator("summary").click()  # collapsed at first
    page.get_by_label("The game ends").select_option("first_over_100")
    page.get_by_label("Assaf penalty").fill("100")
    page.get_by_label("Call limit (Yaniv at or below)").fill("10")
    page.get_by_test_id("new-table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    page.get_by_test_id("cpu-level").select_option("easy")
    page.get_by_test_id("add-cpu").click()
    expect(page.get_by_test_id("seat-1")).to_contain_text("CPU 2 (easy)")
    assert Seat.objects.get(game_id=game_id_of(page), seat=1).cpu_level == "easy"
    expect(page.get_by_test_id("invite-link")).to_have_attribute("href", re.compile("/join/"))
    shot(page, "table-waiting-desktop")
    page.get_by_test_id("start-game").click()

    table = Table(page)
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)
    moves = 0
    shown: set[str] = set()
    while table.wait_for_my_turn():
        if "table" not in shown:
            shot(page, "table-desktop")
            shown.add("table")
        if "round" not in shown and page.get_by_test_id("round-result").is_visible():
            shot(page, "round-result-desktop")
            shown.add("round")
        table.play_simple_move()
        moves += 1
        assert moves < 300, "the game should have ended"

    standings = page.get_by_test_id("standings")
    expect(standings.locator("li")).to_have_count(2)
    expect(page.get_by_test_id("round-result")).to_be_visible()
    expect(table.root).to_have_attribute("data-status", "finished")
    shot(page, "standings-desktop")

    # The replay viewer steps through the record with every hand shown.
    game_id = game_id_of(page)
    page.get_by_role("link", name="Replay this game").click()
    expect(page).to_have_url(re.compile(f"/replay/{game_id}$"))
    for seat in (0, 1):
        expect(page.get_by_test_id(f"seat-{seat}").locator("[data-card]")).to_have_count(5)
    page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-position")).to_contain_text("action 1")
    expect(page.get_by_test_id("replay-action")).to_contain_text("discarded")
    shot(page, "replay-desktop")
