"""A deploy seen from the browser (docs/web-client.md, "Staying in sync"): the server's process
drains (core/drain.py) and closes the page's sockets with 4503; the page reconnects at once,
without an error or a "connecting" blink, and resumes from the seq it had: a move the CPU made
while it had no socket appears, and the log has no gap."""

from __future__ import annotations

import re
import time
from urllib.parse import urlsplit

from playwright.sync_api import Page, Route, expect

from core.drain import CLOSE_DRAINING
from games.engine.cards import VALUE
from games.models import Event, Game
from tests.servers import close_sockets_as_a_drain
from tests.web.conftest import game_id_of
from tests.web.table import Table

# Every close code the page's sockets hear, in order.
RECORD_CLOSES = """
window.closes = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("close", (event) => window.closes.push(event.code));
  }
};
"""


def _table_against_the_cpu(page: Page) -> None:
    page.get_by_test_id("max-players").select_option("2")
    page.get_by_test_id("new-table").click()
    expect(page).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    page.get_by_test_id("cpu-level").select_option("easy")
    page.get_by_test_id("add-cpu").click()
    expect(page.get_by_test_id("seat-1")).to_contain_text("CPU")
    page.get_by_test_id("start-game").click()


def test_a_drained_socket_reconnects_at_once_and_misses_nothing(open_player, server) -> None:
    page = open_player("/")
    page.add_init_script(RECORD_CLOSES)
    page.reload()
    expect(page.get_by_test_id("you-name")).not_to_have_text("")
    _table_against_the_cpu(page)
    table = Table(page)
    assert table.wait_for_my_turn()
    link = page.locator(".table-head .link")
    expect(link).to_have_class(re.compile(r"\bopen\b"))
    game_id = game_id_of(page)
    before = table.seq()

    # The reconnects wait for their tickets until the CPU has moved: what it did meanwhile
    # can only come from the resumed socket.
    held: list[Route] = []
    page.route("**/api/v1/auth/ws-ticket/", lambda route: held.append(route))
    closed_before = page.evaluate("window.closes.length")
    close_sockets_as_a_drain(urlsplit(server).port or 0)
    # The game's socket and the player's own.
    page.wait_for_function(f"window.closes.length >= {closed_before + 2}")
    assert page.evaluate("window.closes")[closed_before:] == [CLOSE_DRAINING] * 2

    # A move of the player's own, answered by REST, and the CPU's answer, pushed to nobody.
    table.select(max(table.hand(), key=VALUE.__getitem__))
    page.get_by_test_id("draw-stock").click()
    table.after_move(before)
    deadline = time.monotonic() + 15
    while Game.objects.get(pk=game_id).seq < before + 2:
        assert time.monotonic() < deadline, "the CPU did not move"
        page.wait_for_timeout(50)
    page.wait_for_timeout(200)  # a blink of "connecting…" would show by now
    expect(link).to_have_class(re.compile(r"\bopen\b"))  # no error, no blink
    assert len(held) == 2  # both reconnected at once, with no backoff
    for route in held:
        route.continue_()

    # Resumed from its seq: the CPU's move shows, and every seq since `before` is logged.
    server_seq = Game.objects.get(pk=game_id).seq
    expect(table.root).to_have_attribute("data-seq", str(server_seq))
    log = page.get_by_test_id("log")
    expect(log.locator(f'li[data-seq="{before + 2}"]')).not_to_have_count(0)
    shown = {int(s) for s in log.locator("li").evaluate_all("els => els.map(e => e.dataset.seq)")}
    played = set(
        Event.objects.filter(game_id=game_id, seq__gt=before, type="played").values_list(
            "seq", flat=True
        )
    )
    assert before + 1 in played  # the player's own move, whose event no socket carried then
    assert {before + 1, before + 2} | played <= shown
    expect(page.get_by_test_id("error")).to_have_count(0)
    expect(link).to_have_class(re.compile(r"\bopen\b"))
    assert page.evaluate("window.closes")[closed_before:] == [CLOSE_DRAINING] * 2
