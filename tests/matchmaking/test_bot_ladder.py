"""The bots' ladder in matchmaking (docs/api.md, The bot ladder): a ticket's pool and its
refusals, the pools paired apart (a bot and a person never share a table, CPU fills
included), the bots' fills after YANIV_BOT_FILL_SECONDS at the levels' anchors, the game's
pool, and YANIV_BOT_GAMES_PER_DAY."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from accounts.models import Player
from core.errors import ApplicationError
from games.models import Game, Pool
from matchmaking import services
from matchmaking.models import Ticket, TicketStatus
from ratings import cpu
from ratings.models import Rating
from ratings.rating import Skill
from ratings.services import cpu_players
from tests.factories import PlayerFactory
from tests.matchmaking.conftest import TICKETS

pytestmark = pytest.mark.django_db


def bot() -> Player:
    return PlayerFactory.create(registered=True, is_bot=True)


def person() -> Player:
    return PlayerFactory.create()


def queue(player: Player, counts: list[int], pool: Pool | None = None) -> Ticket:
    pool = pool or (Pool.BOTS if player.is_bot else Pool.RANKED)
    return services.ticket_create(player=player, player_counts=counts, pool=pool)


def run_pass(seconds: float) -> list[Game]:
    """The games a pass run `seconds` from now starts."""
    result = services.matchmaking_pass(now=timezone.now() + timedelta(seconds=seconds))
    assert result is not None
    return list(Game.objects.filter(pk__in=result.games))


def seated(game: Game) -> list[Player]:
    return [seat.player for seat in game.seats.select_related("player") if seat.player]


@pytest.fixture
def anchors(monkeypatch) -> None:
    """Calibrated starts (ordinals: easy 10, medium 1, hard -1, expert 20), whatever
    ratings/cpu_start.json holds now."""
    starts = {"easy": Skill(19, 3), "medium": Skill(10, 3), "hard": Skill(8, 3)}
    monkeypatch.setattr(cpu, "_starts", lambda: {**starts, "expert": Skill(29, 3)})


# Tickets -------------------------------------------------------------------------------


def test_a_bot_queues_on_the_ladder(client_for, passes_requested) -> None:
    player = bot()
    response = client_for(player).post(
        TICKETS, {"player_counts": [2, 3], "pool": "bots"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["pool"] == "bots"
    assert Ticket.objects.get(player=player).pool == Pool.BOTS


def test_a_bot_is_refused_the_human_queue(client_for) -> None:
    client = client_for(bot())
    for body in ({"player_counts": [2]}, {"player_counts": [2], "pool": "ranked"}):
        response = client.post(TICKETS, body, format="json")
        assert response.status_code == 409
        assert response.json()["code"] == "bot"
    assert not Ticket.objects.exists()


def test_a_person_is_refused_the_ladder(client_for, passes_requested) -> None:
    player = person()
    client = client_for(player)
    response = client.post(TICKETS, {"player_counts": [2], "pool": "bots"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "not_bot"
    # The human queue, as ever, by default.
    response = client.post(TICKETS, {"player_counts": [2]}, format="json")
    assert response.status_code == 201
    assert response.json()["pool"] == "ranked"


def test_an_unknown_pool_is_invalid(client_for) -> None:
    response = client_for(bot()).post(
        TICKETS, {"player_counts": [2], "pool": "people"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "pool" in response.json()["errors"]


# The pass --------------------------------------------------------------------------------


def test_bots_and_people_are_paired_apart(client_for) -> None:
    bots, people = [bot(), bot()], [person(), person()]
    for player in (*bots, *people):
        queue(player, [2, 4])

    games = run_pass(60)

    assert len(games) == 2
    by_pool = {game.pool: {p.pk for p in seated(game)} for game in games}
    assert by_pool == {
        Pool.BOTS: {player.pk for player in bots},
        Pool.RANKED: {player.pk for player in people},
    }
    assert all(game.ranked and game.max_players == 2 for game in games)
    # The game object says its pool.
    ladder = next(game for game in games if game.pool == Pool.BOTS)
    body = client_for(bots[0]).get(f"/api/v1/games/{ladder.pk}/").json()
    assert (body["ranked"], body["pool"]) == (True, "bots")
    body = client_for(people[0]).get(f"/api/v1/games/{ladder.pk}/").json()
    assert body["pool"] == "bots"


@pytest.mark.usefixtures("anchors")
@pytest.mark.parametrize("seed", range(6))
def test_a_bot_and_a_person_never_share_a_table_fills_included(settings, seed) -> None:
    settings.YANIV_QUEUE_CPU_FILL_SECONDS = 30
    settings.YANIV_BOT_FILL_SECONDS = 10
    rng = random.Random(seed)
    players = [bot() if rng.random() < 0.5 else person() for _ in range(rng.randint(1, 11))]
    for player in players:
        queue(player, sorted(rng.sample([2, 3, 4, 5], rng.randint(1, 4))))

    games = [game for seconds in (0, 5, 11, 20, 31, 60, 120) for game in run_pass(seconds)]

    assert not Ticket.objects.filter(status=TicketStatus.SEARCHING).exists()  # all filled
    for game in games:
        kinds = {player.is_bot for player in seated(game)}
        assert len(kinds) == 1, game
        assert game.pool == (Pool.BOTS if kinds == {True} else Pool.RANKED)
    assert sum(len(seated(game)) for game in games) == len(players)


@pytest.mark.usefixtures("anchors")
def test_a_lone_bot_is_filled_after_the_bots_wait(settings) -> None:
    settings.YANIV_QUEUE_CPU_FILL_SECONDS = 30
    settings.YANIV_BOT_FILL_SECONDS = 10
    waiting, human = queue(bot(), [2, 3]), queue(person(), [2])
    assert run_pass(9) == []

    [game] = run_pass(11)

    assert game.pool == Pool.BOTS
    assert Ticket.objects.get(pk=waiting.pk).cpu_seats == 2
    # A new bot's ordinal is 0: the anchors nearest it are hard (-1) and medium (1).
    assert sorted(seat.cpu_level for seat in game.seats.filter(is_cpu=True)) == ["hard", "medium"]
    # The human queue keeps its own wait.
    assert Ticket.objects.get(pk=human.pk).status == TicketStatus.SEARCHING
    [game] = run_pass(31)
    assert game.pool == Pool.RANKED


@pytest.mark.usefixtures("anchors")
def test_the_bots_fill_chooses_by_the_anchors_not_the_levels_people_ratings(settings) -> None:
    settings.YANIV_QUEUE_CPU_FILL_SECONDS = 10
    settings.YANIV_BOT_FILL_SECONDS = 10
    # The levels' ratings among people, far from their anchors: hard and medium rate 50 there.
    levels = cpu_players(["hard", "medium"])
    for level in levels.values():
        Rating.objects.create(
            player=level, mu=59.0, sigma=3.0, ordinal=50.0, games=9, last_game_at=timezone.now()
        )
    queue(bot(), [3])
    queue(person(), [3])

    games = {game.pool: game for game in run_pass(11)}

    def levels_of(game: Game) -> list[str]:
        return sorted(seat.cpu_level for seat in game.seats.filter(is_cpu=True))

    assert levels_of(games[Pool.BOTS]) == ["hard", "medium"]  # anchors -1 and 1, nearest 0
    assert levels_of(games[Pool.RANKED]) == ["easy", "expert"]  # 10 and 20 now nearest 0


def test_no_bots_fill_with_the_setting_at_zero(settings) -> None:
    settings.YANIV_BOT_FILL_SECONDS = 0
    waiting = queue(bot(), [2])
    assert run_pass(300) == []
    assert Ticket.objects.get(pk=waiting.pk).status == TicketStatus.SEARCHING


# YANIV_BOT_GAMES_PER_DAY -------------------------------------------------------------------

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


def played(player: Player, hours_ago: float, pool: Pool = Pool.BOTS, **fields: Any) -> None:
    """A ticket of the player's, matched `hours_ago` hours ago."""
    fields.setdefault("status", TicketStatus.MATCHED)
    Ticket.objects.create(
        player=player,
        player_counts=[2],
        pool=pool,
        created_at=NOW - timedelta(hours=hours_ago, seconds=5),
        ended_at=NOW - timedelta(hours=hours_ago),
        **fields,
    )


def test_a_bot_at_its_daily_games_is_throttled(settings, client_for, passes_requested) -> None:
    settings.YANIV_BOT_GAMES_PER_DAY = 2
    player = bot()
    client = client_for(player)
    played(player, 25)  # out of the 24 hours
    played(player, 20, status=TicketStatus.CANCELLED)  # no game
    played(player, 23)
    with time_machine.travel(NOW, tick=False):
        assert client.post(TICKETS, {"player_counts": [2], "pool": "bots"}).status_code == 201
        Ticket.objects.filter(status=TicketStatus.SEARCHING).delete()
        played(player, 1)

        response = client.post(TICKETS, {"player_counts": [2], "pool": "bots"}, format="json")

    assert response.status_code == 429
    body = response.json()
    # Until the game of 23 hours ago leaves the 24 hours: an hour.
    assert (body["code"], body["scope"], body["retry_after"]) == ("throttled", "bot_games", 3600)
    assert response["Retry-After"] == "3600"
    assert body["detail"]
    assert not Ticket.objects.filter(status=TicketStatus.SEARCHING).exists()
    # Past that hour, it may queue again.
    with time_machine.travel(NOW + timedelta(seconds=3600), tick=False):
        assert client.post(TICKETS, {"player_counts": [2], "pool": "bots"}).status_code == 201


def test_the_limit_waits_for_the_game_that_brings_it_under(settings) -> None:
    settings.YANIV_BOT_GAMES_PER_DAY = 2
    player = bot()
    for hours_ago in (23.5, 10, 2):  # three: one over (two passes raced, say)
        played(player, hours_ago)
    with time_machine.travel(NOW, tick=False), pytest.raises(ApplicationError) as refused:
        queue(player, [2])
    # Under the limit once two have left: the one of 10 hours ago leaves in 14 hours.
    assert (refused.value.code, refused.value.status) == ("throttled", 429)
    assert refused.value.extra == {"scope": "bot_games", "retry_after": 14 * 3600}
    assert refused.value.retry_after == 14 * 3600


def test_the_ladder_games_of_a_real_pass_count(settings) -> None:
    settings.YANIV_BOT_GAMES_PER_DAY = 1
    first, second = bot(), bot()
    queue(first, [2])
    queue(second, [2])
    [game] = run_pass(0)
    assert game.pool == Pool.BOTS
    Game.objects.filter(pk=game.pk).update(status="finished")
    game.seats.update(live=False)
    with pytest.raises(ApplicationError) as refused:
        queue(first, [2])
    assert refused.value.code == "throttled"
    queue(PlayerFactory.create(registered=True, is_bot=True), [2])  # another bot may
