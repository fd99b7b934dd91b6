"""Bots in the web client (docs/web-client.md, Bots): a BOT badge beside a bot's name at a
table and on the leaderboard, the leaderboard's Bots tab (the bots' ladder, with the house CPU
levels as its fixed anchors), and a bot's profile with the description its owner chose, its
ladder games as such, and no season (bots stand outside seasons)."""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import Player
from games.models import Game, GameStatus, Pool, Seat
from games.services.lobby import game_join
from games.services.rating import game_rate
from ratings.models import ChangeKind, Rating, RatingChange
from seasons.models import Season, SeasonStatus
from tests.factories import PlayerFactory
from tests.web.conftest import game_id_of, shot

DESCRIPTION = "Discards its highest cards first and calls Yaniv as soon as it may. Written in Go."
# The places of a bot in its ladder games against another bot and CPU (hard), oldest first.
PLACES = [1, 2, 1, 1, 3, 1, 2, 1]
# The first of them after a season's start.
SEASON_TURN = 4


def _bot(name: str, description: str = "") -> Player:
    return PlayerFactory.create(
        display_name=name,
        username=name.lower().replace(" ", "-"),
        is_bot=True,
        is_guest=False,
        bot_description=description,
    )


def _rate(player: Player, mu: float, sigma: float, games: int) -> None:
    Rating.objects.create(
        player=player,
        mu=mu,
        sigma=sigma,
        ordinal=mu - 3 * sigma,
        games=games,
        last_game_at=timezone.now(),
    )


def _ladder_history(bot: Player, other: Player) -> None:
    """Ladder games (pool `bots`) of `bot`, `other` and CPU (hard), rated by the real service,
    a season ending halfway (the game after it rolls the next one in, as any game would)."""
    start = timezone.now() - timedelta(days=len(PLACES))
    for day, place in enumerate(PLACES):
        if day == SEASON_TURN:
            Season.objects.filter(status=SeasonStatus.CURRENT).update(
                ends_at=start + timedelta(days=day, hours=-12)
            )
        game = Game.objects.create(
            ranked=True,
            pool=Pool.BOTS,
            rules={},
            max_players=3,
            status=GameStatus.FINISHED,
            finished_at=start + timedelta(days=day),
        )
        rest = [p for p in (1, 2, 3) if p != place]
        Seat.objects.create(game=game, seat=0, player=bot, place=place, live=False)
        Seat.objects.create(game=game, seat=1, player=other, place=rest[0], live=False)
        Seat.objects.create(
            game=game, seat=2, is_cpu=True, cpu_level="hard", place=rest[1], live=False
        )
        assert game_rate(game_id=game.pk)


def test_a_bot_at_the_table_wears_its_badge(open_player) -> None:
    host = open_player("/")
    host.get_by_test_id("max-players").select_option("2")
    host.get_by_test_id("new-table").click()
    expect(host.get_by_test_id("invite-link")).to_be_visible()
    game = Game.objects.get(pk=game_id_of(host))
    bot = _bot("Gin Rummy Bot")

    game_join(game_id=game.pk, player=bot, invite_code=game.invite_code)

    # The seat taken arrives on the socket with its player, who says it is a bot.
    seat = host.get_by_test_id("seat-1")
    expect(seat).to_contain_text("Gin Rummy Bot")
    badge = seat.get_by_test_id("bot-badge")
    expect(badge).to_have_text("BOT")
    expect(badge).to_have_attribute("aria-label", "bot account")
    expect(seat.locator("bdi")).to_have_text("Gin Rummy Bot")
    expect(host.get_by_test_id("seat-0").get_by_test_id("bot-badge")).to_have_count(0)
    host.get_by_test_id("start-game").click()
    expect(host.get_by_test_id("hand").locator("[data-card]")).to_have_count(5)
    expect(host.get_by_test_id("seat-1").get_by_test_id("bot-badge")).to_be_visible()


def test_the_bots_tab_ranks_bots_among_the_cpu_levels(open_player) -> None:
    human = PlayerFactory.create(display_name="Noa", is_guest=False, username="noa")
    _rate(human, 27.0, 2.0, 30)
    strong = _bot("Deep Yaniv", DESCRIPTION)
    _rate(strong, 30.0, 1.5, 120)
    _rate(_bot("Random Walker"), 18.0, 3.0, 40)

    page = open_player("/leaderboard")

    # The players' board: no bot there, and its tab is the current one.
    expect(page.get_by_test_id("pool-ranked")).to_have_attribute("aria-current", "page")
    board = page.get_by_test_id("leaderboard")
    expect(board).to_have_attribute("data-pool", "ranked")
    expect(board.locator("tbody tr")).to_have_count(1)
    expect(board.locator("tbody tr")).to_contain_text("Noa")
    expect(board.get_by_test_id("bot-badge")).to_have_count(0)

    with page.expect_request(re.compile(r"/api/v1/leaderboard/\?pool=bots")):
        page.get_by_test_id("pool-bots").click()
    expect(page).to_have_url(re.compile(r"/leaderboard\?pool=bots$"))
    expect(page.get_by_test_id("pool-bots")).to_have_attribute("aria-current", "page")
    board = page.get_by_test_id("leaderboard")
    expect(board).to_have_attribute("data-pool", "bots")
    rows = board.locator("tbody tr")
    # The two bots and the four CPU levels at their anchors; never a human.
    expect(rows).to_have_count(6)
    expect(board).not_to_contain_text("Noa")
    for name in ("Deep Yaniv", "Random Walker"):
        row = board.locator("tr", has_text=name)
        expect(row.get_by_test_id("bot-badge")).to_have_text("BOT")
    for level in ("easy", "medium", "hard", "expert"):
        row = board.locator("tr", has_text=f"CPU ({level})")
        expect(row).to_have_attribute("data-anchor", "true")
        expect(row).to_contain_text("fixed")
        expect(row.get_by_test_id("bot-badge")).to_have_count(0)
    expect(rows.first).to_contain_text("Deep Yaniv")
    shot(page, "leaderboard-bots-desktop")

    # A reload keeps the tab; the bot's name opens its profile.
    page.reload()
    expect(page.get_by_test_id("leaderboard")).to_have_attribute("data-pool", "bots")
    page.get_by_test_id("leaderboard").get_by_role("link", name="Deep Yaniv").click()
    expect(page).to_have_url(re.compile(f"/players/{strong.pk}$"))


def test_a_bots_profile_shows_its_badge_and_description(open_player) -> None:
    bot = _bot("Deep Yaniv", DESCRIPTION)
    _ladder_history(bot, _bot("Random Walker"))
    human = PlayerFactory.create(display_name="Noa", is_guest=False, username="noa")

    page = open_player(f"/players/{bot.pk}")

    heading = page.get_by_role("heading", level=1)
    expect(heading.locator("bdi")).to_have_text("Deep Yaniv")
    expect(heading.get_by_test_id("bot-badge")).to_have_text("BOT")
    expect(page.get_by_test_id("bot-description")).to_have_text(DESCRIPTION)
    chart = page.get_by_test_id("rating-chart")
    expect(chart.locator("circle")).to_have_count(len(PLACES))
    # Its games span two seasons, and it stands in neither: no season line, badge or mark.
    assert Season.objects.count() == 2
    assert not RatingChange.objects.filter(player=bot, kind=ChangeKind.SEASON_RESET).exists()
    expect(chart.get_by_test_id("season-mark")).to_have_count(0)
    expect(page.get_by_test_id("season-rank")).to_have_count(0)
    expect(page.get_by_test_id("season-badges")).to_have_count(0)
    expect(page.locator("dl.facts")).not_to_contain_text("season")
    # The match history names the other bot with its badge, the CPU seat by its level, and
    # says each game is the bots' ladder's.
    rows = page.get_by_test_id("match-history").locator("tbody tr")
    expect(rows).to_have_count(len(PLACES))
    expect(rows.locator("td:nth-child(2)")).to_have_text(["bot ladder"] * len(PLACES))
    players = rows.first.locator("td").nth(4)
    expect(players).to_have_text(
        re.compile(r"^Deep Yaniv\s*BOT, Random Walker\s*BOT, CPU \(hard\)$")
    )
    expect(players.get_by_test_id("bot-badge")).to_have_count(2)
    shot(page, "bot-profile-desktop")

    # A human's profile has neither.
    page.goto(f"/players/{human.pk}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Noa")
    expect(page.get_by_test_id("bot-badge")).to_have_count(0)
    expect(page.get_by_test_id("bot-description")).to_have_count(0)
    expect(page.get_by_test_id("season-rank")).to_have_text("No rated game this season yet")
