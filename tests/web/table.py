"""A player at a table in the browser, as a test drives it: only through the test contract's
`data-testid`s (docs/api.md, "The web client")."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from games.engine.cards import VALUE


class Table:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.root = page.get_by_test_id("table")

    def seq(self) -> int:
        return int(self.root.get_attribute("data-seq") or -1)

    def hand(self) -> list[str]:
        cards = self.page.get_by_test_id("hand").locator("[data-card]")
        return list(cards.evaluate_all("els => els.map(e => e.dataset.card)"))

    def wait_for_my_turn(self) -> bool:
        """True on the player's turn, False once the game has ended."""
        mine = self.page.locator('[data-testid="turn"][data-mine="true"]')
        ended = self.page.get_by_test_id("standings")
        expect(mine.or_(ended)).to_be_visible(timeout=30_000)
        return not ended.is_visible()

    def after_move(self, before: int) -> None:
        """Wait until the table shows a later seq than `before` (the move was applied)."""
        expect(self.root).not_to_have_attribute("data-seq", str(before))

    def play_simple_move(self) -> None:
        """Yaniv when the button allows it, else shed the highest card and draw the stock."""
        before = self.seq()
        yaniv = self.page.get_by_test_id("call-yaniv")
        if yaniv.is_enabled():
            yaniv.click()
        else:
            card = max(self.hand(), key=VALUE.__getitem__)
            self.select(card)
            self.page.get_by_test_id("draw-stock").click()
        self.after_move(before)

    def select(self, *cards: str) -> None:
        """Click these cards of the hand; a code given twice (two decks) is its two copies."""
        hand = self.page.get_by_test_id("hand")
        for index, card in enumerate(cards):
            button = hand.locator(f'[data-card="{card}"]').nth(cards[:index].count(card))
            button.click()
            expect(button).to_have_attribute("aria-pressed", "true")
