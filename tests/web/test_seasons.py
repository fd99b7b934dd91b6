"""Seasons in the web client: the season leaderboard and its picker, a profile's tier badges and
live season rank, and the rating chart's mark where a season starts. Over games rated by the
real ratings service and a season ended by the real rollover."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from accounts.models import Player
from accounts.services import auth_token_issue
from games.models import Game, GameStatus, Seat
from games.services.rating import game_rate, seasons_roll_over
from seasons.models import Season, SeasonStatus
from tests.factories import PlayerFactory
from tests.web.conftest import PHONE, shot

PLACEMENT = 3


def _play(players: list[Player], places: list[int], finished_at: datetime) -> None:
    """A finished ranked game of `players`, each at their place, rated."""
    game = Game.objects.create(
        ranked=True,
        rules={},
        max_players=len(players),
        status=GameStatus.FINISHED,
        finished_at=finished_at,
    )
    for seat, (player, place) in enumerate(zip(players, places, strict=True)):
        Seat.objects.create(game=game, seat=seat, player=player, place=place, live=False)
    assert game_rate(game_id=game.pk)


def _two_seasons(settings: Any) -> dict[str, Player]:
    """Season 1, finished: Noa, Avi and Dana play 4 games each (Noa wins 3), so all three are
    placed; Season 2, current: Avi, Dana and Eli play 3 games (placed), Noa 1 (2 to go)."""
    settings.YANIV_SEASON_PLACEMENT_GAMES = PLACEMENT
    names = ("Noa", "Avi", "Dana", "Eli")
    noa, avi, dana, eli = (
        PlayerFactory.create(display_name=name, username=name.lower(), is_guest=False)
        for name in names
    )
    now = timezone.now()
    for day, places in enumerate([[1, 2, 3], [1, 3, 2], [2, 1, 3], [1, 2, 3]]):
        _play([noa, avi, dana], places, now - timedelta(days=10 - day))
    Season.objects.filter(status=SeasonStatus.CURRENT).update(ends_at=now - timedelta(hours=2))
    assert seasons_roll_over() is not None
    start = now - timedelta(hours=1)
    for minute, places in enumerate([[1, 2, 3], [1, 3, 2], [2, 1, 3]]):
        _play([avi, dana, eli], places, start + timedelta(minutes=minute))
    _play([noa, avi, dana], [1, 2, 3], start + timedelta(minutes=10))
    return dict(zip(names, (noa, avi, dana, eli), strict=True))


def _log_in(page: Page, player: Player) -> None:
    """This browser becomes `player` (their token in its storage), on the page it is at."""
    token = auth_token_issue(player=player)
    page.evaluate("token => localStorage.setItem('yaniv.token', token)", token)
    page.reload()
    expect(page.get_by_test_id("you-name")).to_have_text(player.display_name)


def _board_rows(page: Page) -> Locator:
    return page.get_by_test_id("season-leaderboard").locator("tbody tr")


def _expect_board(page: Page, season: int, games: dict[str, int]) -> None:
    """The board of `season` lists exactly these players, with their games in it, ranked
    1, 2, 3... by the rating shown."""
    board = page.get_by_test_id("season-leaderboard")
    expect(board).to_have_attribute("data-season", str(season))
    rows = _board_rows(page)
    expect(rows).to_have_count(len(games))
    shown = {}
    ordinals = []
    for rank, row in enumerate(rows.all(), start=1):
        rank_cell, rating, played = (row.locator("td").nth(i) for i in range(3))
        expect(rank_cell).to_have_text(str(rank))
        shown[row.locator("th a").inner_text()] = int(played.inner_text())
        ordinals.append(float(rating.inner_text()))
    assert shown == games
    assert ordinals == sorted(ordinals, reverse=True)


def test_the_season_picker_switches_between_a_finished_and_the_current_season(
    open_player, settings
) -> None:
    players = _two_seasons(settings)
    page = open_player("/leaderboard")
    _log_in(page, players["Noa"])  # 1 of the 3 placement games played this season

    page.get_by_test_id("seasons-link").click()
    expect(page).to_have_url(re.compile(r"/seasons$"))
    picker = page.get_by_test_id("season-picker")
    # The current season first, then the finished one; each with its status.
    expect(picker.locator("option")).to_have_text(
        [re.compile(r"^Season 2 \(current\) · "), re.compile(r"^Season 1 \(finished\) · ")]
    )
    expect(picker).to_have_value("2")
    info = page.get_by_test_id("season-info")
    expect(info).to_have_attribute("data-status", "current")
    expect(page.get_by_test_id("placement")).to_contain_text("after 3 rated games")
    expect(page.get_by_test_id("placement-left")).to_have_text("You have 2 placement games left.")
    _expect_board(page, 2, {"Avi": 4, "Dana": 4, "Eli": 3})
    shot(page, "seasons-desktop")

    picker.focus()
    picker.select_option("1")
    expect(page).to_have_url(re.compile(r"/seasons/1$"))
    expect(info).to_have_attribute("data-status", "finished")
    expect(page.get_by_test_id("placement-left")).to_have_count(0)
    _expect_board(page, 1, {"Noa": 4, "Avi": 4, "Dana": 4})
    first = _board_rows(page).first
    expect(first).to_contain_text("Noa")
    expect(first).to_contain_text("you")  # the browser's player, marked
    expect(picker).to_be_focused()  # picking a season keeps the keyboard's place

    page.go_back()
    expect(page).to_have_url(re.compile(r"/seasons$"))
    _expect_board(page, 2, {"Avi": 4, "Dana": 4, "Eli": 3})
    page.goto("/seasons/1")
    expect(page.get_by_test_id("season-picker")).to_have_value("1")
    _expect_board(page, 1, {"Noa": 4, "Avi": 4, "Dana": 4})
    _board_rows(page).first.get_by_role("link", name="Noa").click()
    expect(page).to_have_url(re.compile(f"/players/{players['Noa'].pk}$"))


def test_a_profile_shows_a_badge_per_season_and_the_live_rank(open_player, settings) -> None:
    players = _two_seasons(settings)
    page = open_player(f"/players/{players['Noa'].pk}")

    badges = page.get_by_test_id("season-badge")
    expect(badges).to_have_count(2)  # newest first
    # Rank 1 of 3 placed: the top 1% rounded up, a legend.
    expect(badges.nth(1)).to_have_attribute("data-season", "1")
    expect(badges.nth(1)).to_have_text("Season 1 · Legend")
    expect(badges.nth(0)).to_have_attribute("data-tier", "placement")
    expect(badges.nth(0)).to_have_text("Season 2 · placement 1/3 games")
    expect(page.get_by_test_id("season-rank")).to_have_text(
        "Season 2: placement, 1 of 3 games played"
    )

    # Avi's live rank this season is the row the season's board shows him in.
    page.goto("/seasons")
    avi_row = _board_rows(page).filter(has_text="Avi")
    rank = avi_row.locator("td").first.inner_text()
    avi_row.get_by_role("link", name="Avi").click()
    expect(page.get_by_test_id("season-live-rank")).to_have_text(f"#{rank}")
    expect(page.get_by_test_id("season-rank")).to_contain_text("of 3 ·")
    tiers = {"1": "Legend", "2": "Silver", "3": "Bronze"}  # of 3 placed
    expect(page.get_by_test_id("season-rank")).to_contain_text(tiers[rank])
    expect(page.get_by_test_id("season-badge").first).to_have_text(f"Season 2 · {tiers[rank]}")
    expect(page.get_by_test_id("match-history").locator("tbody tr")).to_have_count(8)
    shot(page, "seasons-profile-desktop")


def test_the_rating_chart_marks_the_season_start(open_player, settings) -> None:
    players = _two_seasons(settings)
    page = open_player(f"/players/{players['Noa'].pk}")

    chart = page.get_by_test_id("rating-chart")
    # 5 games are 5 points; the reset between them is a mark, not a game.
    expect(chart).to_have_attribute("data-points", "5")
    expect(chart.locator("circle")).to_have_count(5)
    marks = chart.get_by_test_id("season-mark")
    expect(marks).to_have_count(1)
    expect(marks).to_have_attribute("data-season", "2")
    expect(marks).to_contain_text("Season 2")
    # Between the last game of season 1 and the first of season 2.
    at = float(marks.locator("line").get_attribute("x1") or "nan")
    dots = [float(c.get_attribute("cx") or "nan") for c in chart.locator("circle").all()]
    assert dots[3] < at < dots[4]
    expect(page.get_by_test_id("match-history").locator("tbody tr")).to_have_count(5)


def test_seasons_on_a_phone(open_player, settings) -> None:
    players = _two_seasons(settings)
    page = open_player("/seasons/1", phone=True)

    _expect_board(page, 1, {"Noa": 4, "Avi": 4, "Dana": 4})
    # A closed <select> is narrow here: the dates are on the line below it.
    expect(page.get_by_test_id("season-picker").locator("option")).to_have_text(
        ["Season 2 (current)", "Season 1 (finished)"]
    )
    expect(page.get_by_test_id("season-info")).to_contain_text("final standings")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "seasons-phone")

    page.goto(f"/players/{players['Noa'].pk}")
    expect(page.get_by_test_id("season-badge")).to_have_count(2)
    expect(page.get_by_test_id("rating-chart").get_by_test_id("season-mark")).to_have_count(1)
    expect(page.get_by_test_id("match-history").locator("tbody tr")).to_have_count(5)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "seasons-profile-phone")


def test_a_season_board_a_page_at_a_time(open_player, settings) -> None:
    settings.YANIV_SEASON_PLACEMENT_GAMES = 1
    players = [PlayerFactory.create(display_name=f"P{n:02}") for n in range(54)]
    start = timezone.now() - timedelta(hours=1)
    for n in range(18):
        _play(players[3 * n : 3 * n + 3], [1, 2, 3], start + timedelta(minutes=n))

    page = open_player("/seasons")
    expect(_board_rows(page)).to_have_count(50)
    expect(page.get_by_text("54 placed players")).to_be_visible()
    first = {row.get_attribute("data-player") for row in _board_rows(page).all()}
    page.get_by_role("link", name="Next").click()
    expect(page).to_have_url(re.compile(r"/seasons/1\?offset=50$"))
    expect(_board_rows(page)).to_have_count(4)
    rest = {row.get_attribute("data-player") for row in _board_rows(page).all()}
    # Every placed player once (equal ordinals share a rank, so ranks alone would not say).
    assert first | rest == {str(p.pk) for p in players}
    assert len(first) + len(rest) == 54
    expect(page.get_by_role("link", name="Next")).to_have_count(0)
    page.get_by_role("link", name="Previous").click()
    expect(page).to_have_url(re.compile(r"/seasons/1\?offset=0$"))
    expect(_board_rows(page)).to_have_count(50)
    expect(_board_rows(page).first.locator("td").first).to_have_text("1")
