"""Reads of ratings' own rows (ratings/selectors.py)."""

from __future__ import annotations

import uuid

from games.services.rating import game_rate
from ratings.models import Rating
from ratings.rating import Skill
from ratings.selectors import player_ratings


def test_player_ratings_for_many_players_at_once(players, make_game, django_assert_num_queries):
    a, b, c = players[:3]
    game_rate(game_id=make_game([(a, 1), (b, 2)]).pk)
    with django_assert_num_queries(1):
        ratings = player_ratings([a.pk, str(b.pk), c.pk, uuid.uuid4()])
    assert set(ratings) == {a.pk, b.pk, c.pk}
    row = Rating.objects.get(player=a)
    assert ratings[a.pk]["ordinal"] == Skill(row.mu, row.sigma).ordinal
    assert ratings[c.pk]["games"] == 0
