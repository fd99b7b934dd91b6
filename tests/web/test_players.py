"""A player's profile (rating, the chart of its history, the match history) and the
leaderboard, over games rated by the real ratings service."""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Player
from games.models import Game, GameStatus, Seat
from games.services.rating import game_rate
from tests.factories import PlayerFactory
from tests.web.conftest import PHONE, shot

# Noa's places in her ranked games against Avi and Dana, oldest first.
PLACES = [1, 2, 1, 1, 3, 1, 2, 1, 1, 2, 1, 1]


def ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}[place]


def _rated_history() -> tuple[Player, list[Player]]:
    noa = PlayerFactory.create(display_name="Noa", is_guest=False, username="noa")
    others = [PlayerFactory.create(display_name=name) for name in ("Avi", "Dana")]
    start = timezone.now() - timedelta(days=len(PLACES))
    for day, place in enumerate(PLACES):
        game = Game.objects.create(
            ranked=True,
            rules={},
            max_players=3,
            status=GameStatus.FINISHED,
            finished_at=start + timedelta(days=day),
        )
        rest = [p for p in (1, 2, 3) if p != place]
        for seat, (player, at) in enumerate(zip([noa, *others], [place, *rest], strict=True)):
            Seat.objects.create(game=game, seat=seat, player=player, place=at, live=False)
        assert game_rate(game_id=game.pk)
    return noa, others


def test_a_profile_charts_the_rating_and_lists_the_games(open_player) -> None:
    noa, _ = _rated_history()

    page = open_player(f"/players/{noa.pk}")

    expect(page.get_by_role("heading", name="Noa")).to_be_visible()
    chart = page.get_by_test_id("rating-chart")
    expect(chart).to_have_attribute("data-points", str(len(PLACES)))
    expect(chart.locator("circle")).to_have_count(len(PLACES))
    rows = page.get_by_test_id("match-history").locator("tbody tr")
    expect(rows).to_have_count(len(PLACES))
    # Newest first, with the place and the rating change of each game.
    for row, place in zip(rows.all(), reversed(PLACES), strict=True):
        expect(row).to_contain_text(ordinal(place))
        expect(row).to_contain_text(re.compile(r"[+-]\d+\.\d\d"))
    shot(page, "profile-desktop")


def test_the_leaderboard_ranks_by_rating(open_player) -> None:
    noa, _ = _rated_history()

    page = open_player("/leaderboard")

    board = page.get_by_test_id("leaderboard")
    expect(board.locator("tbody tr")).to_have_count(3)
    expect(board.locator("tbody tr").first).to_contain_text("Noa")
    shot(page, "leaderboard-desktop")
    board.get_by_role("link", name="Noa").click()
    expect(page).to_have_url(re.compile(f"/players/{noa.pk}$"))
    expect(page.get_by_test_id("rating-chart")).to_be_visible()


def test_a_profile_on_a_phone(open_player) -> None:
    noa, _ = _rated_history()

    page = open_player(f"/players/{noa.pk}", phone=True)

    expect(page.get_by_test_id("rating-chart").locator("circle")).to_have_count(len(PLACES))
    rows = page.get_by_test_id("match-history").locator("tbody tr")
    expect(rows).to_have_count(len(PLACES))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "profile-phone")
