"""A moderator at work in /admin/, in Chromium: finds a player and bans them for an hour with a
reason, reads a finished game round by round, voids a ranked game through the confirmation
page and sees its ratings rolled back, resolves a report; a live game's page shows no hidden
card. Screenshots of each page go to docs/screenshots/."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, Permission
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from accounts.models import Player, StaffAction
from games.engine.state import GameState
from games.models import Game, GameStatus
from games.services.rating import game_rate
from moderation.models import Report, ReportStatus
from ratings.models import RatingChange
from tests.factories import PASSWORD, PlayerFactory
from tests.games.conftest import play_moves, start_table, wait_for
from tests.web.conftest import DESKTOP, TIMEOUT_MS, shot

CARD = re.compile(r"\b(?:[A2-9TJQK][SHDC]|X[12])\b")


def _moderator_group() -> Group:
    """The group its data migration made; a browser test's database is emptied after each test
    (transactional_db), so it is made again here from the migration's own list."""
    migration = importlib.import_module("moderation.migrations.0002_moderator_group")
    group, _ = Group.objects.get_or_create(name=migration.MODERATOR)
    for app_label, codename in migration.PERMISSIONS:
        group.permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    return group


@pytest.fixture
def moderator_page(browser: Browser, server: str) -> Iterator[Callable[[], Page]]:
    """`moderator_page()`: a moderator (the "moderator" group, nothing more) logged in."""
    contexts: list[BrowserContext] = []

    def open_one() -> Page:
        moderator = PlayerFactory.create(
            registered=True, username="mod", display_name="Mod", is_staff=True
        )
        moderator.groups.add(_moderator_group())
        context = browser.new_context(base_url=server, viewport=DESKTOP)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.goto("/admin/")
        page.get_by_label("Username").fill("mod")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        expect(page.get_by_role("link", name="Players")).to_be_visible()
        return page

    yield open_one
    for context in contexts:
        context.close()


def _run_action(page: Page, action: str, *rows: str) -> None:
    for value in rows:
        page.locator(f'input[name="_selected_action"][value="{value}"]').check()
    page.locator('select[name="action"]').select_option(action)
    page.get_by_role("button", name="Run").or_(page.get_by_role("button", name="Go")).click()


def test_a_moderator_finds_a_player_and_bans_them_for_an_hour(moderator_page) -> None:
    mallory = PlayerFactory.create(display_name="Mallory")
    PlayerFactory.create(display_name="Innocent")
    page = moderator_page()

    page.goto("/admin/accounts/player/")
    page.locator("#searchbar").fill("mallory")
    page.locator("#searchbar").press("Enter")
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    page.get_by_role("link", name="Mallory").click()
    expect(page.get_by_text("reports about them")).to_be_visible()
    expect(page.locator('input[name="is_superuser"]')).to_have_count(0)  # a guest: no pickers
    shot(page, "admin-player")

    page.goto("/admin/accounts/player/?q=mallory")
    _run_action(page, "ban", str(mallory.pk))
    until = timezone.now() + timedelta(hours=1)
    page.get_by_label("Reason").fill("Abusive chat, first offence.")
    page.get_by_label("Until").fill(until.strftime("%Y-%m-%d %H:%M:%S"))
    shot(page, "admin-ban")
    page.get_by_role("button", name="Ban").click()
    expect(page.locator(".messagelist")).to_contain_text("Banned 1 player")

    mallory.refresh_from_db()
    assert mallory.is_banned
    assert mallory.banned_until is not None
    assert abs((mallory.banned_until - until).total_seconds()) < 1
    assert StaffAction.objects.get(action="ban").actor == Player.objects.get(username="mod")


def _finished_ranked_game() -> str:
    game_id, clients = start_table(2)
    Game.objects.filter(pk=game_id).update(ranked=True)
    play_moves(game_id, clients, 3000)
    assert Game.objects.get(pk=game_id).status == GameStatus.FINISHED
    game_rate(game_id=game_id)  # if the worker has not yet
    assert RatingChange.objects.filter(game_id=game_id).count() == 2
    return game_id


def test_a_moderator_reads_a_finished_game_and_voids_it(moderator_page) -> None:
    game_id = _finished_ranked_game()
    name = Game.objects.get(pk=game_id).seats.get(seat=0).player.display_name  # type: ignore[union-attr]
    page = moderator_page()

    page.goto("/admin/games/game/")
    page.locator("#searchbar").fill(name)
    page.locator("#searchbar").press("Enter")
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    shot(page, "admin-games")
    page.get_by_role("link", name=game_id[:8]).click()
    expect(page.get_by_text(re.compile(r"rated at .* \(2 players\)"))).to_be_visible()
    rounds = page.get_by_test_id("rounds").locator("tbody tr")
    count = rounds.count()
    assert count > 1
    shot(page, "admin-game")
    rounds.first.get_by_role("link", name="Round 1").click()
    expect(page.locator("section.round")).to_contain_text("Round 1: ")
    expect(page.locator("section.round")).to_contain_text("Result: ")
    shot(page, "admin-game-round")
    page.get_by_role("link", name="next round").click()
    expect(page.locator("section.round")).to_contain_text("Round 2: ")

    page.goto("/admin/games/game/")
    _run_action(page, "void_games", game_id)
    expect(page.get_by_text("cannot be undone")).to_be_visible()
    expect(page.get_by_label("Reason")).to_have_attribute("required", "")  # no void without
    page.get_by_label("Reason").fill("Collusion between the two seats.")
    shot(page, "admin-void-confirm")
    page.get_by_role("button", name="Void").click()
    expect(page.locator(".messagelist")).to_contain_text("Voided 1 game")

    # The worker rolls the ratings back after the commit.
    wait_for(lambda: not RatingChange.objects.filter(game_id=game_id).exists())
    page.goto(f"/admin/games/game/{game_id}/change/")
    expect(page.get_by_text("voided: rolled back")).to_be_visible()
    expect(page.get_by_text("Collusion between the two seats.")).to_be_visible()
    shot(page, "admin-game-voided")
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.voided_by) == (
        GameStatus.FINISHED,
        Player.objects.get(username="mod"),
    )


def test_a_moderator_resolves_a_report(moderator_page) -> None:
    game_id, clients = start_table(2)
    reported = clients[0].post(
        f"/api/v1/games/{game_id}/reports/", {"seat": 1, "reason": "afk", "text": "Never plays."}
    )
    assert reported.status_code == 201
    page = moderator_page()

    page.goto("/admin/moderation/report/")
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    expect(page.locator("#result_list")).to_contain_text(game_id[:8])
    shot(page, "admin-reports")
    _run_action(page, "resolve", str(Report.objects.get().pk))
    page.get_by_label("Warn the reported player").check()
    page.get_by_label("Note").fill("Warned about idling.")
    shot(page, "admin-report-resolve")
    page.get_by_role("button", name="Resolve").click()
    expect(page.locator(".messagelist")).to_contain_text("Resolved 1 report")
    expect(page.locator("#result_list tbody tr")).to_have_count(0)  # the queue is empty

    assert Report.objects.get().status == ReportStatus.WARNED


def test_a_live_games_admin_page_shows_no_hidden_card(moderator_page) -> None:
    game_id, clients = start_table(3)
    play_moves(game_id, clients, 7)
    page = moderator_page()

    page.goto(f"/admin/games/game/{game_id}/change/")
    expect(page.get_by_text("what a spectator sees")).to_be_visible()
    shot(page, "admin-live-game")
    text = page.content()
    page.goto(f"/admin/games/game/{game_id}/events/")
    expect(page.get_by_test_id("events")).to_be_visible()
    text += page.content()

    state = GameState.from_dict(Game.objects.get(pk=game_id).state or {})
    hidden = set(state.stock[state.stock_pos :])
    for seat, hand in enumerate(state.hands):
        hidden |= set(hand) - set(state.known[seat])
    assert hidden
    assert not set(CARD.findall(text)) & hidden
