"""Friends at a private table, a reload in the middle of a game, a refused move, a phone."""

from __future__ import annotations

import re

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.web.conftest import PHONE, game_id_of, shot
from tests.web.table import Table


def _table_against_the_cpu(page: Page) -> Table:
    page.get_by_test_id("max-players").select_option("2")
    page.get_by_test_id("new-table").click()
    page.get_by_test_id("add-cpu").click()
    page.get_by_test_id("start-game").click()
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)
    return Table(page)


def test_two_friends_sit_at_one_table_through_the_invite_link(open_player) -> None:
    host = open_player("/")
    host.get_by_test_id("max-players").select_option("2")
    host.get_by_test_id("new-table").click()
    link = host.get_by_test_id("invite-link").get_attribute("href")
    assert link is not None
    assert re.search(r"/join/[0-9a-f-]{36}/\w+$", link), link

    friend = open_player(link)
    expect(friend).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    assert game_id_of(friend) == game_id_of(host)
    friend_name = friend.get_by_test_id("you-name").inner_text()
    # The host's table shows the new seat as it is taken (the websocket's push).
    expect(host.get_by_test_id("seat-1")).to_contain_text(friend_name)
    expect(friend.get_by_test_id("start-game")).to_have_count(0)  # only the host starts
    host.get_by_test_id("start-game").click()

    tables = {host: Table(host), friend: Table(friend)}
    for page in tables:
        expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)
        expect(page.get_by_test_id("turn")).to_be_visible()
    seat = int(host.get_by_test_id("turn").get_attribute("data-seat") or -1)
    mover = host if seat == 0 else friend
    other = friend if mover is host else host
    expect(mover.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
    expect(other.get_by_test_id("turn")).to_have_attribute("data-mine", "false")

    before = tables[other].seq()
    tables[mover].play_simple_move()
    # The other browser sees the move, and that it is now their turn.
    tables[other].after_move(before)
    expect(other.get_by_test_id("turn")).to_have_attribute("data-mine", "true")
    expect(other.get_by_test_id("discard").locator("[data-card]").first).to_be_visible()
    shot(other, "table-friends-desktop")


def test_a_reload_in_the_middle_of_a_game_returns_to_the_seat(open_player) -> None:
    page = open_player("/")
    table = _table_against_the_cpu(page)
    table.wait_for_my_turn()
    table.play_simple_move()
    table.wait_for_my_turn()
    hand, seq, url = table.hand(), table.seq(), page.url

    page.reload()

    expect(page).to_have_url(url)
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(len(hand))
    assert sorted(Table(page).hand()) == sorted(hand)
    assert Table(page).seq() == seq
    expect(page.get_by_test_id("seat-0")).to_contain_text("you")
    # Reopening the start page offers the table back, and the table plays on.
    page.goto("/")
    page.get_by_role("link", name="Return to it").click()
    expect(page).to_have_url(url)
    table = Table(page)
    assert table.wait_for_my_turn()
    table.play_simple_move()


def test_a_refused_move_shows_the_servers_reason(open_player) -> None:
    page = open_player("/")
    table = _table_against_the_cpu(page)
    table.wait_for_my_turn()
    hand = table.hand()
    # Two cards of different ranks are neither a set nor a run (runs take three or more).
    first = hand[0]
    second = next(card for card in hand[1:] if card[0] != first[0] or "X" in (card[0], first[0]))
    before = table.seq()
    table.select(first, second)

    with page.expect_response(re.compile(r"/actions/$")) as answer:
        page.get_by_test_id("draw-stock").click()

    assert answer.value.status == 400
    refusal = answer.value.json()
    assert refusal["code"] == "illegal_move"
    expect(page.get_by_test_id("error")).to_have_text(refusal["detail"])
    assert table.seq() == before
    expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)
    shot(page, "refused-move-desktop")


def test_a_phone_plays_at_360_by_740(open_player) -> None:
    page = open_player("/", phone=True)
    assert _page_width(page) <= PHONE["width"]
    shot(page, "home-phone")

    table = _table_against_the_cpu(page)
    table.wait_for_my_turn()
    assert _page_width(page) <= PHONE["width"]
    for card in page.get_by_test_id("hand").locator("[data-card]").all():
        box = card.bounding_box()
        assert box is not None
        assert 0 <= box["x"] <= box["x"] + box["width"] <= PHONE["width"], box
    shot(page, "table-phone")
    # Tapping plays as clicking does.
    before = table.seq()
    page.get_by_test_id("hand").locator("[data-card]").first.tap()
    page.get_by_test_id("draw-stock").tap()
    table.after_move(before)


def _page_width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


# Keeps every socket the page opens, so that a test can drop them as a network would.
KEEP_SOCKETS = """
window.openedSockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.openedSockets.push(this); }
};
"""


def test_a_dropped_socket_reconnects_and_the_game_goes_on(open_player) -> None:
    page = open_player("/")
    page.add_init_script(KEEP_SOCKETS)
    table = _table_against_the_cpu(page)
    page.reload()  # now with the sockets kept
    table.wait_for_my_turn()
    expect(page.get_by_text("live", exact=True)).to_be_visible()
    opened = page.evaluate("openedSockets.length")
    games = len(_game_socket_urls(page))
    seq = table.seq()

    page.evaluate("openedSockets.forEach((socket) => socket.close())")

    # A new ticket and a new socket, after a short backoff. (Polled from here: the page's
    # Content-Security-Policy forbids the eval that `wait_for_function` needs.)
    for _ in range(100):
        if page.evaluate("openedSockets.length") > opened:
            break
        page.wait_for_timeout(100)
    assert page.evaluate("openedSockets.length") > opened
    expect(page.get_by_text("live", exact=True)).to_be_visible()
    # The new game socket asks for what came after the seq the page shows (docs/api.md).
    _wait_for_a_new_game_socket(page, games)
    assert f"after={seq}" in _game_socket_urls(page)[-1]
    # The CPU's answers to the next moves arrive on the new socket.
    for _ in range(2):
        table.play_simple_move()
        if not table.wait_for_my_turn():
            break


def _game_socket_urls(page: Page) -> list[str]:
    urls = page.evaluate("openedSockets.map((socket) => socket.url)")
    return [url for url in urls if "/ws/v1/games/" in url]


def _wait_for_a_new_game_socket(page: Page, opened: int) -> None:
    """Until the page has opened more than `opened` game sockets (polled, as above)."""
    for _ in range(100):
        if len(_game_socket_urls(page)) > opened:
            return
        page.wait_for_timeout(100)
    raise AssertionError("no new game socket")


def test_a_silent_link_is_pinged_then_replaced(open_player) -> None:
    """The page pings every 20 s (the server closes a socket silent for 60 s); when it has heard
    nothing for 60 s, not even a keep-alive, it takes the link for dead and opens another,
    asking for what came after its seq. (The page's clock is Playwright's, 70 s in no time;
    its sockets go through a relay that can go deaf, as a dead link is.)"""
    page = open_player("/")
    page.add_init_script(KEEP_SOCKETS)
    table = _table_against_the_cpu(page)
    sent: list[str | bytes] = []
    deaf = [False]

    def relay(route: WebSocketRoute) -> None:
        server = route.connect_to_server()
        server.on_message(lambda message: None if deaf[0] else route.send(message))

        def up(message: str | bytes) -> None:
            sent.append(message)
            server.send(message)

        route.on_message(up)

    page.route_web_socket(re.compile("/ws/v1/"), relay)
    page.clock.install()
    page.reload()
    table.wait_for_my_turn()
    expect(page.get_by_text("live", exact=True)).to_be_visible()
    opened = len(_game_socket_urls(page))
    seq = table.seq()

    deaf[0] = True  # the pongs never arrive
    page.clock.run_for(70_000)  # checked every 5 s: dropped at 65 s, 60 s after the last word
    deaf[0] = False

    assert sent.count('{"type":"ping"}') >= 2 * 2  # the game's socket and the player's
    _wait_for_a_new_game_socket(page, opened)
    assert f"after={seq}" in _game_socket_urls(page)[-1]
    expect(page.get_by_text("live", exact=True)).to_be_visible()
    table.play_simple_move()
    table.wait_for_my_turn()


def test_a_move_by_keyboard_alone(open_player) -> None:
    page = open_player("/")
    table = _table_against_the_cpu(page)
    table.wait_for_my_turn()
    card = page.get_by_test_id("hand").locator("[data-card]").first
    before = table.seq()

    card.focus()
    page.keyboard.press("Space")
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(card).to_be_focused()  # the page is drawn anew; the focus stays on the card
    page.get_by_test_id("draw-stock").focus()
    page.keyboard.press("Enter")

    table.after_move(before)


# Loses the message of the first CPU move that another CPU's turn follows, as a network might
# (the socket stays open): only the next move's message shows the gap in `seq`.
DROP_A_CPU_MOVE = """
window.droppedSeqs = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  addEventListener(type, listener, ...rest) {
    if (type !== "message") return super.addEventListener(type, listener, ...rest);
    return super.addEventListener(type, (message) => {
      const { event, game } = JSON.parse(message.data);
      const next = game?.turn?.seat;
      const cpuNext = game?.you && next !== undefined && next !== game.you.seat;
      if (!window.droppedSeqs.length && event?.type === "played" && event.by === "cpu" && cpuNext) {
        window.droppedSeqs.push(event.seq);
        return;
      }
      listener(message);
    }, ...rest);
  }
};
"""


def test_a_lost_message_is_filled_from_the_event_list(open_player) -> None:
    page = open_player("/")
    page.add_init_script(DROP_A_CPU_MOVE)
    page.get_by_test_id("max-players").select_option("3")
    page.get_by_test_id("new-table").click()
    for seat in (1, 2):
        page.get_by_test_id("add-cpu").click()
        expect(page.get_by_test_id(f"seat-{seat}")).to_be_visible()
    page.reload()  # now with the message lost
    page.get_by_test_id("start-game").click()
    table = Table(page)

    for _ in range(30):
        assert table.wait_for_my_turn()
        if page.evaluate("droppedSeqs.length"):
            break
        table.play_simple_move()
    [lost] = page.evaluate("droppedSeqs")

    # The move after it showed the gap: the lost move is read back into the log.
    line = page.get_by_test_id("log").locator(f'li[data-seq="{lost}"]')
    expect(line).to_have_attribute("data-type", "played")
