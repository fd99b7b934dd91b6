"""Rating finished games, exactly once and in order, and rolling back voided ones
(games/services/rating.py, over ratings/services.py)."""

from __future__ import annotations

import uuid

import pytest

from games.models import Event, Game, GameStatus
from games.selectors import rated_results
from games.services.rating import game_rate, game_unrate
from games.services.staff import game_void
from ratings.models import Rating, RatingChange
from ratings.rating import DEFAULT, Skill, rate
from ratings.rebuild import compare


def skill_of(player) -> Skill:
    row = Rating.objects.get(player=player)
    return Skill(row.mu, row.sigma)


def test_a_finished_ranked_game_is_rated(players, make_game) -> None:
    a, b, c = players[:3]
    game = make_game([(a, 2), (b, 1), (c, 3)])

    assert game_rate(game_id=game.pk) is True

    expected = rate([DEFAULT] * 3, [2, 1, 3])
    for player, skill in zip((a, b, c), expected, strict=True):
        row = Rating.objects.get(player=player)
        assert (row.mu, row.sigma, row.games) == (skill.mu, skill.sigma, 1)
        assert row.ordinal == skill.ordinal
    assert skill_of(b).mu > skill_of(a).mu > skill_of(c).mu

    changes = {change.player_id: change for change in RatingChange.objects.filter(game=game)}
    assert len(changes) == 3
    assert changes[b.pk].seat == 1
    assert changes[b.pk].place == 1
    assert changes[b.pk].at == game.finished_at
    assert (changes[b.pk].mu_before, changes[b.pk].sigma_before) == (DEFAULT.mu, DEFAULT.sigma)
    assert (changes[b.pk].mu, changes[b.pk].sigma) == (expected[1].mu, expected[1].sigma)

    game.refresh_from_db()
    assert game.rated_at is not None
    event = Event.objects.get(game=game, type="rated")
    assert event.seq == game.seq
    assert event.payload == {
        "ratings": [
            {
                "seat": seat,
                "player_id": str(player.pk),
                "mu": skill.mu,
                "sigma": skill.sigma,
                "ordinal": skill.ordinal,
                "delta": skill.ordinal - DEFAULT.ordinal,
            }
            for seat, (player, skill) in enumerate(zip((a, b, c), expected, strict=True))
        ]
    }


def test_cpu_seats_are_left_out_and_the_humans_order_counts(players, make_game) -> None:
    a, b = players[:2]
    game = make_game([(a, 3), (None, 1), (b, 2)])

    game_rate(game_id=game.pk)

    loser, winner = rate([DEFAULT, DEFAULT], [3, 2])
    assert skill_of(a) == loser
    assert skill_of(b) == winner
    assert list(
        RatingChange.objects.filter(game=game).order_by("seat").values_list("seat", flat=True)
    ) == [0, 2]
    ratings = Event.objects.get(game=game, type="rated").payload["ratings"]
    assert [entry["seat"] for entry in ratings] == [0, 2]


def test_a_game_with_one_rated_player_moves_nobody(players, make_game) -> None:
    game = make_game([(players[0], 2), (None, 1)])
    assert game_rate(game_id=game.pk) is True
    game.refresh_from_db()
    assert game.rated_at is not None
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()
    assert game_rate(game_id=game.pk) is False


def test_a_game_is_rated_once(players, make_game) -> None:
    a, b = players[:2]
    game = make_game([(a, 1), (b, 2)])
    assert game_rate(game_id=game.pk) is True
    once = skill_of(a)

    assert game_rate(game_id=game.pk) is False

    assert skill_of(a) == once
    assert Rating.objects.get(player=a).games == 1
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Event.objects.filter(game=game, type="rated").count() == 1


@pytest.mark.parametrize(
    "fields",
    [
        {"ranked": False},
        {"status": GameStatus.ACTIVE, "finished_at": None},
        {"status": GameStatus.ABORTED},
        {"voided_at": "2026-01-01T00:00:00Z", "void_reason": "cheating"},
    ],
    ids=["private", "active", "aborted", "voided"],
)
def test_only_finished_ranked_games_are_rated(players, make_game, fields) -> None:
    game = make_game([(players[0], 1), (players[1], 2)], **fields)
    assert game_rate(game_id=game.pk) is False
    game.refresh_from_db()
    assert game.rated_at is None
    assert not Rating.objects.exists()
    assert not Event.objects.filter(type="rated").exists()


@pytest.mark.parametrize("game_id", [uuid.uuid4(), "not-a-uuid"])
def test_an_unknown_game_is_not_rated(db, game_id) -> None:
    assert game_rate(game_id=game_id) is False
    assert game_unrate(game_id=game_id) is False


def test_ratings_carry_from_game_to_game(players, make_game) -> None:
    a, b, c = players[:3]
    first = make_game([(a, 1), (b, 2)])
    second = make_game([(b, 1), (c, 1), (a, 3)])
    game_rate(game_id=first.pk)
    game_rate(game_id=second.pk)

    after_first = rate([DEFAULT, DEFAULT], [1, 2])
    expected = rate([after_first[1], DEFAULT, after_first[0]], [1, 1, 3])
    assert [skill_of(p) for p in (b, c, a)] == expected
    assert Rating.objects.get(player=a).games == 2
    change = RatingChange.objects.get(game=second, player=a)
    assert (change.mu_before, change.sigma_before) == (after_first[0].mu, after_first[0].sigma)


def test_earlier_games_waiting_for_their_rating_are_rated_first(players, make_game) -> None:
    """A delayed task: the later game's rating rates the players' earlier games first, so every
    rating counts games in the order they ended."""
    a, b, c, d = players[:4]
    first = make_game([(c, 1), (d, 2)])  # only linked to the last game through `second`
    second = make_game([(b, 1), (c, 2)])
    unrelated = make_game([(players[4], 1), (players[5], 2)])
    last = make_game([(a, 1), (b, 2)])

    assert game_rate(game_id=last.pk) is True

    for game in (first, second, last):
        game.refresh_from_db()
        assert game.rated_at is not None
    assert first.rated_at < second.rated_at < last.rated_at
    unrelated.refresh_from_db()
    assert unrelated.rated_at is None
    assert game_rate(game_id=second.pk) is False
    assert compare(rated_results()).equal  # the same as replaying the rated games in order


# Voiding ----------------------------------------------------------------------------------


def test_voiding_a_game_replays_the_later_games_without_it(players, make_game) -> None:
    a, b, c, d, e = players[:5]
    voided = make_game([(a, 1), (b, 2)])
    chained = make_game([(b, 1), (c, 2)])  # b's rating changes, so this game is replayed ...
    further = make_game([(c, 1), (d, 2)])  # ... and c's changes too: this one as well
    apart = make_game([(e, 1), (players[5], 2)])  # nobody touched: left as it is
    for game in (voided, chained, further, apart):
        game_rate(game_id=game.pk)
    apart_before = list(RatingChange.objects.filter(game=apart).values())

    game_void(game_id=voided.pk, reason="cheating")  # its signal runs the task on commit
    assert game_unrate(game_id=voided.pk) is True

    assert not Rating.objects.filter(player=a).exists()  # a's only rated game is gone
    assert not RatingChange.objects.filter(game=voided).exists()
    b_skill, c_skill = rate([DEFAULT, DEFAULT], [1, 2])
    c_skill, d_skill = rate([c_skill, DEFAULT], [1, 2])
    assert skill_of(b) == b_skill
    assert skill_of(c) == c_skill
    assert skill_of(d) == d_skill
    assert Rating.objects.get(player=b).games == 1
    assert Rating.objects.get(player=c).games == 2
    change = RatingChange.objects.get(game=further, player=c)
    assert (change.mu, change.sigma) == (c_skill.mu, c_skill.sigma)
    assert list(RatingChange.objects.filter(game=apart).values()) == apart_before
    assert compare(rated_results()).equal

    assert game_unrate(game_id=voided.pk) is False  # twice: nothing more
    assert compare(rated_results()).equal


def test_only_a_voided_game_is_rolled_back(players, make_game) -> None:
    game = make_game([(players[0], 1), (players[1], 2)])
    game_rate(game_id=game.pk)
    assert game_unrate(game_id=game.pk) is False
    assert RatingChange.objects.filter(game=game).count() == 2


def test_a_game_voided_before_its_rating_is_never_rated(players, make_game) -> None:
    game = make_game([(players[0], 1), (players[1], 2)])
    game_void(game_id=game.pk, reason="abuse")
    assert game_rate(game_id=game.pk) is False
    assert game_unrate(game_id=game.pk) is False
    assert not Rating.objects.exists()
    assert Game.objects.get(pk=game.pk).rated_at is None
