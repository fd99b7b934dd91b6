"""A variant table (docs/rules.md §12) in the browser: the preset fills the house rules, two decks
seat eight, the table shows its rules and the round's wild card, and plays."""

from __future__ import annotations

import re

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
