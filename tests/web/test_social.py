"""Friends, challenges and chat in the web client (docs/api.md, Friends, blocks and presence;
Challenges; Chat): two registered players, one at a desktop and one on a phone, find each other
by name and become friends, each seeing the other online; a challenge declined, then one
accepted, which seats both at a table where they play a move; a phrase and a free text arrive
live on the other side (as text, never markup); then a block, from a message, hides each from
the other: the blocker's open chats (her other tab's too) drop the blocked one's messages at
once, the blocked one no longer sees the blocker among their friends nor finds them, neither
sees the other's messages, and the blocked one's challenge is refused. Last, settings saved on
the start page."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Locator, Page, Response, expect

from accounts.models import Player
from accounts.services import auth_token_issue
from chat.models import ChatReport
from social.services import block_create, friend_add
from tests.factories import PlayerFactory
from tests.web.conftest import game_id_of, shot
from tests.web.table import Table


def _log_in(page: Page, player: Player) -> None:
    """This browser becomes `player` (their token in its storage), on the page it is at."""
    token = auth_token_issue(player=player)
    page.evaluate("token => localStorage.setItem('yaniv.token', token)", token)
    page.reload()
    expect(page.get_by_test_id("you-name")).to_have_text(player.display_name)


def _saved(page: Page, change: Callable[[], object]) -> None:
    """Make a change of the start page's settings, and wait until it is saved (`PATCH /me/`)
    and the page has read the player again (`GET /me/`)."""

    def me(method: str) -> Callable[[Response], bool]:
        return lambda r: r.url.endswith("/api/v1/me/") and r.request.method == method

    with page.expect_response(me("GET")), page.expect_response(me("PATCH")):
        change()


def _row(page: Page, testid: str, player: Player) -> Locator:
    return page.locator(f'[data-testid="{testid}"][data-player="{player.pk}"]')


def _challenge(page: Page, direction: str) -> Locator:
    return page.locator(f'[data-testid="challenge"][data-direction="{direction}"]')


def _said(page: Page, player: Player) -> Locator:
    return page.get_by_test_id("chat-messages").locator(f'[data-player="{player.pk}"]')


def test_friends_challenge_chat_and_a_block(open_player, settings) -> None:
    settings.YANIV_CHAT_MIN_GAMES = 1  # free text after a finished game: none yet
    dana = PlayerFactory.create(display_name="Dana Levi", username="dana", is_guest=False)
    eli = PlayerFactory.create(display_name="Eli Cohen", username="eli", is_guest=False)
    # Dana's other relations, for the page to show them all: a friend offline, a request to
    # her, a guest she blocks.
    noa = PlayerFactory.create(display_name="Noa Katz", username="noa", is_guest=False)
    avi = PlayerFactory.create(display_name="Avi Ben-David", username="avi", is_guest=False)
    friend_add(player=noa, other_id=dana.pk)
    friend_add(player=dana, other_id=noa.pk)
    friend_add(player=avi, other_id=dana.pk)
    block_create(player=dana, other_id=PlayerFactory.create(display_name="Loud Crow 13").pk)
    desk = open_player("/friends")
    _log_in(desk, dana)
    phone = open_player("/friends", phone=True)
    _log_in(phone, eli)

    # Dana finds Eli by a part of his name and asks; the request reaches Eli's page live.
    desk.get_by_test_id("player-search").fill("cOH")
    desk.get_by_test_id("search-submit").click()
    result = _row(desk, "search-result", eli)
    expect(desk.get_by_test_id("search-result")).to_have_count(1)
    result.get_by_test_id("add-friend").click()
    expect(result.get_by_test_id("friend-status")).to_have_text("request sent")
    expect(_row(desk, "friend-request", eli)).to_have_attribute("data-direction", "outgoing")
    request = _row(phone, "friend-request", dana)
    expect(request).to_have_attribute("data-direction", "incoming")
    request.get_by_test_id("accept-request").click()

    # Friends, each seeing the other online (Dana's row of Eli came on her socket).
    expect(_row(phone, "friend", dana)).to_have_attribute("data-presence", "online")
    expect(_row(desk, "friend", eli)).to_have_attribute("data-presence", "online")
    expect(_row(desk, "friend-request", eli)).to_have_count(0)
    expect(_row(desk, "friend-request", avi)).to_have_attribute("data-direction", "incoming")
    # Those on first: Eli, then Noa, offline.
    expect(desk.get_by_test_id("friend")).to_have_count(2)
    expect(desk.get_by_test_id("friend").first).to_have_attribute("data-player", str(eli.pk))
    expect(_row(desk, "friend", noa)).to_have_attribute("data-presence", "offline")
    expect(desk.get_by_test_id("blocked")).to_contain_text("Loud Crow 13")
    shot(desk, "friends-desktop")
    shot(phone, "friends-phone")

    # Eli challenges Dana, who is told on her page and declines; Eli is told.
    _row(phone, "friend", dana).get_by_test_id("challenge-player").click()
    expect(_challenge(phone, "outgoing")).to_contain_text("You challenged Dana Levi")
    incoming = _challenge(desk, "incoming")
    expect(incoming).to_contain_text("Eli Cohen challenges you")
    expect(incoming.get_by_test_id("challenge-expiry")).to_have_text(re.compile(r"^\d+ s left$"))
    shot(desk, "challenge-incoming-desktop")
    incoming.get_by_test_id("decline-challenge").click()
    expect(_challenge(phone, "outgoing").get_by_test_id("challenge-outcome")).to_have_text(
        "Dana Levi declined."
    )

    # Dana challenges Eli from his profile; he accepts: both at the table, playing.
    desk.goto(f"/players/{eli.pk}")
    desk.get_by_test_id("challenge-player").click()
    incoming = _challenge(phone, "incoming")
    expect(incoming).to_contain_text("Dana Levi challenges you")
    shot(phone, "challenge-incoming-phone")
    incoming.get_by_test_id("accept-challenge").click()
    expect(phone).to_have_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    expect(desk).to_have_url(phone.url)
    game_id = game_id_of(phone)
    tables = {dana: Table(desk), eli: Table(phone)}
    for table in tables.values():
        expect(table.root).to_have_attribute("data-status", "active")
    expect(desk.get_by_test_id("turn")).to_be_visible()
    mine = desk.get_by_test_id("turn").get_attribute("data-mine") == "true"
    mover = tables[dana] if mine else tables[eli]
    assert mover.wait_for_my_turn()
    mover.play_simple_move()
    for table in tables.values():
        expect(table.root).to_have_attribute("data-seq", str(mover.seq()))

    # A phrase and a free text arrive live on the other side; the text stays text.
    expect(desk.get_by_test_id("chat")).to_have_attribute("data-room", "players")
    desk.locator('[data-testid="chat-phrase"][data-phrase="good_luck"]').click()
    expect(_said(phone, dana)).to_have_text(re.compile(r"^Dana Levi Good luck"))
    phone.get_by_test_id("chat-text").fill("Thanks! <b>not bold</b>")
    phone.get_by_test_id("chat-send").click()
    expect(phone.get_by_test_id("chat-note")).to_contain_text("Free text opens after 1 finished")
    expect(phone.get_by_test_id("chat-text")).to_have_value("Thanks! <b>not bold</b>")
    settings.YANIV_CHAT_MIN_GAMES = 0
    phone.get_by_test_id("chat-send").click()
    expect(phone.get_by_test_id("chat-note")).to_have_count(0)
    expect(phone.get_by_test_id("chat-text")).to_have_value("")
    said = _said(desk, eli)
    expect(said).to_contain_text("Thanks! <b>not bold</b>")
    expect(said.locator("b")).to_have_count(0)
    expect(said.get_by_test_id("report-message")).to_be_visible()
    shot(desk, "table-chat-desktop")
    shot(phone, "table-chat-phone")
    said.get_by_test_id("report-message").click()  # the confirmation is accepted
    expect(said.get_by_test_id("reported")).to_have_text("reported")
    assert ChatReport.objects.filter(reporter=dana, message__author=eli).count() == 1

    # Dana blocks Eli from his message: his messages leave her chat at once, in this tab and
    # in her other tab on the table (hers stay), and his profile (his name at the table links
    # to it) says she blocks him.
    other_tab = desk.context.new_page()
    other_tab.goto(f"/games/{game_id}")
    expect(_said(other_tab, eli)).not_to_have_count(0)
    said.get_by_test_id("block-author").click()  # the confirmation is accepted
    expect(_said(desk, eli)).to_have_count(0)
    expect(_said(desk, dana)).not_to_have_count(0)
    expect(_said(other_tab, eli)).to_have_count(0)
    expect(_said(other_tab, dana)).not_to_have_count(0)
    other_tab.close()
    desk.get_by_test_id("table").get_by_role("link", name="Eli Cohen").click()
    expect(desk.get_by_test_id("unblock-player")).to_be_visible()
    expect(desk.get_by_test_id("challenge-player")).to_have_count(0)

    # Neither reads the other's messages any more, nor does Eli see Dana among his friends or
    # find her by name.
    desk.goto(f"/games/{game_id}")
    expect(desk.get_by_test_id("chat-message")).not_to_have_count(0)  # her own phrase
    expect(_said(desk, eli)).to_have_count(0)
    phone.reload()
    expect(phone.get_by_test_id("chat-message")).not_to_have_count(0)
    expect(_said(phone, dana)).to_have_count(0)
    phone.get_by_test_id("friends-link").click()
    expect(phone.get_by_test_id("friends-list")).to_contain_text("No friends yet")
    phone.get_by_test_id("player-search").fill("dana")
    phone.get_by_test_id("search-submit").click()
    expect(phone.get_by_test_id("search-results")).to_contain_text("No registered player")

    # His challenge is refused: the client cannot know of her block, the server says no.
    phone.goto(f"/players/{dana.pk}")
    phone.get_by_test_id("challenge-player").click()
    expect(phone.get_by_test_id("error")).to_contain_text("blocks")
    expect(_challenge(desk, "incoming")).to_have_count(0)

    # Her settings, on the start page, are saved as they change.
    desk.goto("/")
    challengers = desk.get_by_test_id("setting-challenges-from")
    _saved(desk, lambda: challengers.select_option("nobody"))
    _saved(desk, lambda: desk.get_by_test_id("setting-appear-offline").check())
    desk.reload()
    expect(desk.get_by_test_id("setting-appear-offline")).to_be_checked()
    expect(desk.get_by_test_id("setting-challenges-from")).to_have_value("nobody")
    desk.get_by_test_id("friends-link").click()
    expect(desk.get_by_test_id("appear-offline")).to_contain_text("You appear offline")


def test_a_guest_reads_why_friends_need_an_account(open_player) -> None:
    page = open_player("/")
    page.get_by_test_id("friends-link").click()
    expect(page.get_by_test_id("friends-guest")).to_contain_text("for registered players")
    expect(page.get_by_test_id("friends-list")).to_contain_text("No friends yet")
    expect(page.get_by_test_id("blocked-list")).to_have_text("You block nobody.")
