"""The web client in the player's language (docs/languages.md): the page speaks the browser's
language (Accept-Language), Hebrew right to left with the layout mirrored but every card and
card code still read left to right; the header's picker switches the language; and a page in
Hebrew shows no English of ours."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import Player
from tests.web.conftest import game_id_of, shot
from tests.web.table import Table

# Every text of ours on a page, and every attribute a person reads (title, aria-label,
# placeholder, alt), but what is not ours to translate: a player's name (`<bdi>`), anything
# marked translate="no" (the picker's language names, invite links), a card's face (its name
# for a screen reader is checked), code (seeds, hex values), digits and punctuation.
TEXTS_JS = """() => {
  // An attribute or the title is plain text: a player's name in it ("Dana's hand") is left
  // out, as the page's <bdi> elements name them.
  const names = [...document.querySelectorAll("bdi")].map((b) => b.textContent.trim());
  const unnamed = (text) => names.filter(Boolean).reduce((t, name) => t.split(name).join(""), text);
  const skipText = "bdi, [translate='no'], [data-card], code, script, style, template, noscript";
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (!text || node.parentElement.closest(skipText)) continue;
    found.push(text);
  }
  const skipAttrs = "bdi, [translate='no']:not([data-card]), code, template, noscript";
  for (const el of document.body.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
    if (el.closest(skipAttrs)) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (!value || (name === "placeholder" && value.includes("/join/"))) continue;
      found.push(unnamed(value));
    }
  }
  found.push(unnamed(document.title));
  return found;
}"""
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def english_on(page: Page) -> list[str]:
    """The texts of the page that hold a Latin word of two letters or more."""
    return [text for text in page.evaluate(TEXTS_JS) if LATIN_WORD.search(text)]


def _short_game(page: Page) -> None:
    """From the start page: a private table for two against an easy CPU, whose first total
    over 100 ends it (an Assaf is worth 100), started. Fields by id: the labels are Hebrew."""
    page.get_by_test_id("max-players").select_option("2")
    rules = page.get_by_test_id("house-rules")
    if rules.get_attribute("open") is None:  # collapsed at first
        rules.locator("summary").click()
    page.locator("#rule-ending").select_option("first_over_100")
    page.locator("#rule-assaf_penalty").fill("100")
    page.locator("#rule-call_limit").fill("10")
    page.get_by_test_id("new-table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    page.get_by_test_id("cpu-level").select_option("easy")
    page.get_by_test_id("add-cpu").click()
    expect(page.get_by_test_id("seat-1")).to_contain_text("מחשב 2 (קל)")
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)


def _box(page: Page, selector: str) -> dict[str, Any]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return dict(box)


@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_a_whole_game_in_hebrew_right_to_left(open_player, phone: bool) -> None:
    page = open_player("/", phone=phone, locale="he-IL")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", "he")
    expect(html).to_have_attribute("dir", "rtl")
    picker = page.get_by_test_id("language-picker")
    expect(picker).to_have_value("he")
    assert picker.evaluate("el => el.selectedOptions[0].textContent") == "עברית"
    expect(page.get_by_test_id("new-table")).to_have_text("שולחן חדש")

    # Mirrored: the brand at the right edge of the header, the player's name to its left.
    width = page.viewport_size["width"]
    brand = _box(page, ".brand")
    assert brand["x"] + brand["width"] > width - 40, brand
    assert brand["x"] > width / 2, brand

    suffix = "phone" if phone else "desktop"
    shot(page, f"home-he-{suffix}")

    _short_game(page)
    table = Table(page)
    # A card's face and code still read left to right: "10" is one, then its suit.
    hand_card = page.get_by_test_id("hand").locator("[data-card]").first
    expect(hand_card).to_have_css("direction", "ltr")
    name = hand_card.get_attribute("aria-label") or ""
    assert name, name
    assert not LATIN_WORD.search(name), name  # "אס לב", not "ace of hearts"
    expect(page.get_by_test_id("turn")).to_contain_text("התור")

    moves = 0
    shown = False
    while table.wait_for_my_turn():
        if not shown:
            shot(page, f"game-he-{suffix}")
            shown = True
        table.play_simple_move()
        moves += 1
        assert moves < 300, "the game should have ended"

    expect(table.root).to_have_attribute("data-status", "finished")
    standings = page.get_by_test_id("standings")
    expect(standings.locator("li")).to_have_count(2)
    expect(standings.locator("h2")).to_have_text("התוצאות הסופיות")
    expect(page.get_by_test_id("round-result")).to_contain_text("תוצאת סיבוב")
    expect(page.get_by_test_id("fair-verdict")).to_have_attribute("data-status", "verified")
    expect(page.get_by_test_id("fair-verdict")).to_contain_text("החלוקה אומתה")
    # A hand's cards and their total read left to right inside the right-to-left table.
    shown_card = page.get_by_test_id("round-result").locator("[data-card]").first
    expect(shown_card).to_have_css("direction", "ltr")
    shot(page, f"game-he-{suffix}-end")


def test_no_english_is_left_on_any_page_in_hebrew(open_player) -> None:
    page = open_player("/", locale="he-IL")
    found: dict[str, list[str]] = {}

    def visit(path: str, ready: str) -> None:
        page.goto(path)
        expect(page.locator(ready).first).to_be_visible()
        page.wait_for_load_state("networkidle")
        english = english_on(page)
        if english:
            found[path] = english

    visit("/", "[data-testid='new-table']")
    page.get_by_test_id("house-rules").locator("summary").click()
    english = english_on(page)  # the house rules' labels and options too
    if english:
        found["/ (house rules)"] = english
    _short_game(page)
    game = game_id_of(page)
    english = english_on(page)
    if english:
        found["/games/<id> (playing)"] = english
    page.get_by_test_id("table-rules").locator("summary").click()
    english = english_on(page)
    if english:
        found["/games/<id> (house rules)"] = english
    # Left for good (the dialog is accepted): the CPU plays the seat to the end.
    page.get_by_role("button", name="לעזוב את השולחן").click()
    expect(page.get_by_test_id("standings")).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("fair-verdict")).to_have_attribute("data-status", "verified")
    english = english_on(page)
    if english:
        found["/games/<id> (finished)"] = english

    me = Player.objects.get(display_name=page.get_by_test_id("you-name").inner_text())
    visit("/how-to-play", "[data-testid='how-to-play'] h1")
    expect(page.get_by_test_id("how-to-play").locator("h1")).to_have_text("איך משחקים יניב")
    shot(page, "how-to-play-he-desktop")
    # Its cards ("4♥ 5♥ 6♥") read left to right in the Hebrew text.
    example = page.get_by_test_id("how-to-play").locator(".cards-text").first
    expect(example).to_have_css("direction", "ltr")
    visit("/leaderboard", "main h1")
    visit("/seasons", "main h1")
    visit("/tournaments", "main h1")
    visit("/friends", "main h1")
    visit("/watch", "main h1")
    visit(f"/players/{me.id}", "main h1")
    visit(f"/replay/{game}", "[data-testid='replay-action']")

    report = "\n".join(f"{path}: {texts}" for path, texts in found.items())
    assert found == {}, f"English left in Hebrew:\n{report}"


def test_the_picker_switches_the_language(open_player) -> None:
    page = open_player("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    # The guide, reached from the header: read from the server's page for the path.
    page.get_by_test_id("how-to-play-link").click()
    expect(page).to_have_url(re.compile(r"/how-to-play$"))
    guide = page.get_by_test_id("how-to-play")
    expect(guide.locator("h1")).to_have_text("How to play Yaniv")

    page.get_by_test_id("language-picker").select_option(label="नेपाली")
    expect(page.locator("html")).to_have_attribute("lang", "ne")
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.get_by_test_id("language-picker")).to_have_value("ne")
    expect(page.get_by_test_id("how-to-play-link")).to_have_text("कसरी खेल्ने")
    # The same page again, in Nepali: the server's guide for the language, in the page.
    expect(guide.locator("h1")).to_have_text("यानिभ कसरी खेल्ने")
    shot(page, "how-to-play-ne-desktop")
    page.get_by_role("link", name="खेल्नुहोस्").click()
    expect(page.get_by_test_id("new-table")).to_have_text("नयाँ टेबल")

    # The player's own language follows the page's (their pushes speak it): PATCH /me/.
    you = Player.objects.get(display_name=page.get_by_test_id("you-name").inner_text())
    for _ in range(50):
        you.refresh_from_db()
        if you.language == "ne":
            break
        page.wait_for_timeout(100)
    assert you.language == "ne"
