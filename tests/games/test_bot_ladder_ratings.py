"""Rating the bots' ladder (docs/api.md, The bot ladder): a ladder game rates its bots' seats
only, its CPU seats fixed anchors at their calibrated starts (never stored, never moved); the
CPU levels' ratings among people do not move; voids, games rated out of order and
recompute_ratings treat the anchors alike, so its check holds."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from accounts.models import Player
from games.models import Event, Game, Pool
from games.selectors import fixed_seats, rated_results
from games.services.rating import game_rate, game_unrate
from games.services.staff import game_void
from ratings import cpu
from ratings.models import Rating, RatingChange
from ratings.rating import DEFAULT, Skill, rate
from ratings.rebuild import compare
from ratings.results import GameResult, SeatResult
from ratings.services import cpu_players, game_ratings_apply, ratings_rebuild
from seasons.selectors import season_starts
from tests.factories import PlayerFactory
from tests.games.test_cpu_ratings import ranked_game

pytestmark = pytest.mark.django_db

HARD, EXPERT = Skill(27.0, 4.0), Skill(31.0, 4.0)
# On the bots' ladder the levels stand at their mu, held at the anchors' sigma (ratings/cpu.py).
HARD_ANCHOR, EXPERT_ANCHOR = Skill(27.0, cpu.ANCHOR_SIGMA), Skill(31.0, cpu.ANCHOR_SIGMA)

Who = Player | str  # a player, or a CPU seat's level
Make = Callable[..., Game]


@pytest.fixture(autouse=True)
def _calibrated(monkeypatch) -> None:
    monkeypatch.setattr(cpu, "_starts", lambda: {"hard": HARD, "expert": EXPERT})


@pytest.fixture
def bots(db) -> list[Player]:
    return [PlayerFactory.create(registered=True, is_bot=True) for _ in range(3)]


@pytest.fixture
def ranked(make_game) -> Make:
    """`ranked([(who, place), ...], pool)`: a finished ranked game of that pool."""

    def make(places: Sequence[tuple[Who, int]], pool: Pool = Pool.BOTS) -> Game:
        return ranked_game(make_game, places, pool)

    return make


def skill_of(player: Player) -> Skill:
    row = Rating.objects.get(player=player)
    return Skill(row.mu, row.sigma)


def replay_equal() -> bool:
    return compare(rated_results(), season_starts()).equal


def test_a_ladder_game_rates_its_bots_against_the_anchors(bots, ranked) -> None:
    a, b = bots[:2]
    game = ranked([(a, 2), ("expert", 1), (b, 3), ("hard", 4)])

    assert game_rate(game_id=game.pk) is True

    after = rate([DEFAULT, EXPERT_ANCHOR, DEFAULT, HARD_ANCHOR], [2, 1, 3, 4])
    assert skill_of(a) == after[0]
    assert skill_of(b) == after[2]
    assert set(RatingChange.objects.filter(game=game).values_list("player", flat=True)) == {
        a.pk,
        b.pk,
    }
    # The anchors: no rating, no history, whatever their levels' players.
    cpus = Player.objects.filter(cpu_level__isnull=False)
    assert not Rating.objects.filter(player__in=cpus).exists()
    assert not RatingChange.objects.filter(player__in=cpus).exists()
    [event] = Event.objects.filter(game=game, type="rated")
    assert [entry["seat"] for entry in event.payload["ratings"]] == [0, 2]
    assert replay_equal()


def test_one_bot_among_cpus_is_rated(bots, ranked) -> None:
    a = bots[0]
    game_rate(game_id=ranked([("hard", 1), (a, 2)]).pk)
    assert skill_of(a) == rate([HARD_ANCHOR, DEFAULT], [1, 2])[1]
    # Again: the anchor has not moved, the bot has.
    game_rate(game_id=ranked([("hard", 1), (a, 2)]).pk)
    assert skill_of(a) == rate([HARD_ANCHOR, rate([HARD_ANCHOR, DEFAULT], [1, 2])[1]], [1, 2])[1]
    assert Rating.objects.get(player=a).games == 2
    assert replay_equal()


def test_a_ladder_game_of_cpus_alone_rates_nobody(ranked) -> None:
    game = ranked([("hard", 1), ("expert", 2)])
    assert game_rate(game_id=game.pk) is True
    assert not RatingChange.objects.exists()
    assert not Event.objects.filter(game=game, type="rated").exists()


def test_the_levels_people_ratings_do_not_move_on_the_ladder(players, bots, ranked) -> None:
    person = players[0]
    game_rate(game_id=ranked([(person, 1), ("hard", 2)], Pool.RANKED).pk)
    hard = Player.objects.get(cpu_level="hard")
    among_people = (skill_of(hard), Rating.objects.get(player=hard).games)
    assert among_people[0] == rate([DEFAULT, HARD], [1, 2])[1]

    for _ in range(3):
        game_rate(game_id=ranked([(bots[0], 2), ("hard", 1)]).pk)

    assert (skill_of(hard), Rating.objects.get(player=hard).games) == among_people
    # The bot rated against the anchor, not the level's rating among people.
    skill = DEFAULT
    for _ in range(3):
        skill = rate([skill, HARD_ANCHOR], [2, 1])[0]
    assert skill_of(bots[0]) == skill
    # A game of people with the level afterwards starts from its people's rating.
    game_rate(game_id=ranked([(person, 2), ("hard", 1)], Pool.RANKED).pk)
    assert skill_of(hard) == rate([rate([DEFAULT, HARD], [1, 2])[0], among_people[0]], [2, 1])[1]
    assert replay_equal()


def test_recompute_agrees_after_ladder_and_people_games(players, bots, ranked) -> None:
    a, b, c = bots
    person, other = players[:2]
    games = [
        ranked([(a, 1), ("hard", 2), (b, 3)]),
        ranked([(person, 1), ("hard", 2), (other, 3)], Pool.RANKED),
        ranked([("expert", 1), (c, 2), (a, 2)]),
        ranked([(b, 1), ("hard", 2), ("expert", 3), (c, 4)]),
        ranked([("expert", 1), (person, 2)], Pool.RANKED),
        ranked([(a, 1), (b, 2), (c, 3)]),
    ]
    for game in games:
        game_rate(game_id=game.pk)
    assert replay_equal()
    stored = {row.player_id: (row.mu, row.sigma, row.games) for row in Rating.objects.all()}
    changes = RatingChange.objects.count()

    ratings_rebuild(games=rated_results(), starts=season_starts())

    assert {row.player_id: (row.mu, row.sigma, row.games) for row in Rating.objects.all()} == stored
    assert RatingChange.objects.count() == changes == 2 + 3 + 2 + 2 + 2 + 3
    assert replay_equal()


def test_a_void_replays_later_ladder_games_with_their_anchors(bots, ranked) -> None:
    a, b = bots[:2]
    voided = ranked([(a, 1), (b, 2)])
    later = ranked([("expert", 1), (a, 2), ("hard", 3)])  # one bot: the anchors are the table
    for game in (voided, later):
        game_rate(game_id=game.pk)

    game_void(game_id=voided.pk, reason="a bug in the bot")
    assert game_unrate(game_id=voided.pk) is True

    assert skill_of(a) == rate([EXPERT_ANCHOR, DEFAULT, HARD_ANCHOR], [1, 2, 3])[1]
    assert not Rating.objects.filter(player=b).exists()
    assert replay_equal()


def test_a_ladder_game_rated_out_of_order_is_put_in_its_place(bots, ranked) -> None:
    a, b = bots[:2]
    cpu_players(["hard"])  # as rating a game with the level makes it
    earlier = ranked([(a, 2), (b, 1)])
    later = ranked([("hard", 1), (a, 2)])
    Game.objects.filter(pk=earlier.pk).update(rated_at=later.finished_at)
    Game.objects.filter(pk=later.pk).update(rated_at=later.finished_at)

    def result(game: Game) -> GameResult:
        [found] = [r for r in rated_results() if r.game_id == game.pk]
        return found

    # The later game first, as a season's turn can order them; then the earlier one.
    game_ratings_apply(result=result(later))
    game_ratings_apply(result=result(earlier), fixed_seats=fixed_seats)

    a_first = rate([DEFAULT, DEFAULT], [2, 1])[0]
    assert skill_of(a) == rate([HARD_ANCHOR, a_first], [1, 2])[1]
    assert replay_equal()


def test_fixed_seats_are_a_ladder_games_cpu_seats(bots, ranked) -> None:
    game = ranked([(bots[0], 2), ("expert", 1), ("hard", 3)])
    game_rate(game_id=game.pk)
    cpus = {p.cpu_level: p.pk for p in Player.objects.filter(cpu_level__isnull=False)}
    assert fixed_seats(game.pk) == [
        SeatResult(cpus["expert"], 1, 1, EXPERT_ANCHOR, True),
        SeatResult(cpus["hard"], 2, 3, HARD_ANCHOR, True),
    ]
    people = ranked([(bots[1], 1), ("hard", 2)], Pool.RANKED)
    assert fixed_seats(people.pk) == []
