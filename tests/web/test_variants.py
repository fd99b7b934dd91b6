"""A variant table (docs/rules.md §12) in the browser: the preset fills the house rules, two decks
seat eight, the table shows its rules and the round's wild card, and plays."""

from __future__ import annotations

import re

from django.templatetags.static import static
from playwright.sync_api import expect

from tests.web.conftest import shot
from tests.web.table import Table


def test_a_least_count_table_against_the_cpu(open_player) -> None:
    page = open_player("/")
    seats = page.get_by_test_id("max-players")
    # One deck seats five: more is not offered until the rules have two decks.
    expect(seats.locator('option[value="8"]')).to_be_disabled()
    page.get_by_test_id("house-rules").locator("summary").click()
    # The form starts at the defaults the server gives (GET /rules/).
    expect(page.locator("#rule-call_limit")).to_have_value("5")
    expect(page.locator("#rule-assaf_penalty")).to_have_value("30")
    expect(page.locator("#rule-first_turn_call")).to_have_value("true")
    page.get_by_test_id("preset").select_option("least_count")
    expect(page.locator("#rule-decks")).to_have_value("2")
    expect(page.locator("#rule-wild_rank")).to_have_value("true")
    expect(page.locator("#rule-call_limit")).to_have_value("4")
    expect(seats.locator('option[value="8"]')).to_be_enabled()
    seats.select_option("8")
    page.locator("#rule-decks").select_option("1")  # one deck again: the seats come back to 5
    expect(seats).to_have_value("5")
    page.locator("#rule-decks").select_option("2")
    seats.select_option("3")
    page.locator("#rule-call_limit").fill("6")  # a key over the preset
    page.get_by_test_id("new-table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))

    rules = page.get_by_test_id("table-rules")
    expect(rules).to_have_attribute("data-preset", "least_count")
    expect(rules.locator('[data-rule="decks"]')).to_have_text("two (2-8 players)")
    expect(rules.locator('[data-rule="call_limit"]')).to_have_text("6")
    page.get_by_test_id("add-cpu").click()
    expect(page.get_by_test_id("seat-1")).to_be_visible()
    page.get_by_test_id("add-cpu").click()
    expect(page.get_by_test_id("seat-2")).to_be_visible()
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)
    wild = page.get_by_test_id("wild").locator("[data-card]")
    expect(wild).to_have_count(1)

    table = Table(page)
    for _ in range(3):
        if not table.wait_for_my_turn():
            break
        table.play_simple_move()
    expect(page.get_by_test_id("log").locator("li").first).to_be_visible()
    shot(page, "table-variant-desktop")


def test_a_played_copy_leaves_its_twin_in_the_hand_unselected(open_player) -> None:
    """Two decks: a hand holds 7S twice, one is selected and played. The other stays in the hand
    and was never selected, so it shows unselected (it did show selected, and the next click on
    it took it away). The game page's reducer, run in the page as the page imports it."""
    page = open_player("/")
    module = static("web/pages/game/store.js")
    got = page.evaluate(
        """async (url) => {
          const { initialState, reduce } = await import(url);
          const catalog = { cpu_levels: ["easy"], default_cpu_level: "easy" };
          const game = (seq, round, hand) => ({ seq, round, you: { hand }, last_round: null });
          let state = initialState({ game: game(4, 1, ["7S", "7S", "KD"]), history: [], catalog });
          const selections = [];
          const see = (action) => {
            state = reduce(state, action);
            selections.push(state.selected);
          };
          see({ type: "toggle", code: "7S", copy: 0 });
          // Another seat's move: the hand is as it was, the selection stays.
          see({ type: "game", game: game(5, 1, ["7S", "7S", "KD"]) });
          // The player's move: one 7S played, the stock's 2C drawn.
          see({ type: "answered", game: game(6, 1, ["7S", "KD", "2C"]) });
          see({ type: "toggle", code: "KD", copy: 0 });
          // A new round deals a new hand, which may hold the same code.
          see({ type: "game", game: game(9, 2, ["KD", "3H", "4H", "5H", "9C"]) });
          return selections;
        }""",
        module,
    )
    assert got == [["7S"], ["7S"], [], ["KD"], []]
