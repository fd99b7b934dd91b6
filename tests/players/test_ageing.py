"""The leaderboard and the public reads show aged ratings (docs/api.md, Ratings): a player who
stops playing falls only through sigma, pages agree with the aged order, and a conditional
read after UTC midnight is answered anew."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from rest_framework.test import APIClient

from accounts.models import Player
from ratings.models import Rating, RatingChange
from ratings.rating import Skill, aged
from tests.factories import PlayerFactory

NOON = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
TAU = 0.05

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_game_lists(settings) -> None:
    settings.YANIV_LEADERBOARD_MIN_GAMES = 1


def with_rating(make_game, skill: Skill, at: datetime) -> Player:
    """A player whose one rated game ended `at` and left them `skill` (rows as the rating
    service leaves them)."""
    player = PlayerFactory.create()
    game = make_game([(player, 1), (None, 2)], finished_at=at)
    RatingChange.objects.create(
        player=player,
        game=game,
        seat=0,
        place=1,
        at=at,
        mu_before=25.0,
        sigma_before=8.0,
        mu=skill.mu,
        sigma=skill.sigma,
    )
    Rating.objects.create(
        player=player,
        mu=skill.mu,
        sigma=skill.sigma,
        ordinal=skill.ordinal,
        games=1,
        last_game_at=at,
    )
    return player


def board(client: APIClient, query: str = "") -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/leaderboard/{query}")
    assert response.status_code == 200
    return list(response.json()["results"])


def test_a_player_who_stops_playing_falls_only_through_sigma(
    api_client, make_game, settings
) -> None:
    away_skill, playing_skill = Skill(30.0, 2.0), Skill(29.98, 2.0)
    away = with_rating(make_game, away_skill, NOON - timedelta(days=20))
    playing = with_rating(make_game, playing_skill, NOON)
    assert away_skill.ordinal > playing_skill.ordinal  # stored, the absent one leads

    with time_machine.travel(NOON + timedelta(hours=1), tick=False):
        entries = board(api_client)
        second_page = board(api_client, "?limit=1&offset=1")
        settings.YANIV_RATING_TAU_PER_DAY = 0
        unaged = board(api_client)

    widened = aged(away_skill, 20, TAU)
    assert [(e["rank"], e["player"]["id"]) for e in entries] == [
        (1, str(playing.pk)),
        (2, str(away.pk)),
    ]
    assert entries[1]["player"]["rating"]["mu"] == away_skill.mu
    assert entries[1]["player"]["rating"]["sigma"] == widened.sigma
    assert entries[1]["player"]["rating"]["ordinal"] == widened.ordinal
    assert entries[1]["rating"] == entries[1]["player"]["rating"]
    assert [(e["rank"], e["player"]["id"]) for e in second_page] == [(2, str(away.pk))]
    # Without ageing the stored order stands: ageing alone moved them.
    assert [e["player"]["id"] for e in unaged] == [str(away.pk), str(playing.pk)]
    assert Rating.objects.get(player=away).mu == away_skill.mu


def test_every_page_follows_the_aged_order(api_client, make_game, settings) -> None:
    settings.YANIV_RATING_TAU_PER_DAY = 0.3  # ages a lot in the 30 days a listed player may rest
    rows = [
        (Skill(30.0 - 0.4 * n, 1.0 + 0.1 * (n % 4)), NOON - timedelta(days=(7 * n) % 29))
        for n in range(14)
    ]
    players = [with_rating(make_game, skill, at) for skill, at in rows]
    now = NOON + timedelta(hours=1)
    shown = {
        str(player.pk): aged(skill, (now.date() - at.date()).days, 0.3).ordinal
        for player, (skill, at) in zip(players, rows, strict=True)
    }
    expected = sorted(shown, key=lambda pk: (-shown[pk], pk))
    stored_ordinal = {
        str(player.pk): skill.ordinal for player, (skill, _) in zip(players, rows, strict=True)
    }
    assert expected != sorted(stored_ordinal, key=lambda pk: -stored_ordinal[pk])

    with time_machine.travel(now, tick=False):
        pages = [board(api_client, f"?limit=3&offset={offset}") for offset in range(0, 14, 3)]
    listed = [entry for page in pages for entry in page]
    assert [entry["player"]["id"] for entry in listed] == expected
    assert [entry["rank"] for entry in listed] == list(range(1, 15))
    assert [entry["player"]["rating"]["ordinal"] for entry in listed] == [
        shown[pk] for pk in expected
    ]


def test_a_conditional_read_after_midnight_is_answered_anew(api_client, make_game) -> None:
    player = with_rating(make_game, Skill(28.0, 2.5), NOON)
    paths = ["/api/v1/leaderboard/", f"/api/v1/players/{player.pk}/"]

    with time_machine.travel(datetime(2026, 6, 15, 23, 59, tzinfo=UTC), tick=False):
        tags = [api_client.get(path)["ETag"] for path in paths]
        for path, tag in zip(paths, tags, strict=True):
            assert api_client.get(path, HTTP_IF_NONE_MATCH=tag).status_code == 304
    with time_machine.travel(datetime(2026, 6, 16, 0, 1, tzinfo=UTC), tick=False):
        answers = [
            api_client.get(path, HTTP_IF_NONE_MATCH=tag)
            for path, tag in zip(paths, tags, strict=True)
        ]
    for answer in answers:
        assert answer.status_code == 200
    assert answers[1].json()["rating"]["sigma"] == aged(Skill(28.0, 2.5), 1, TAU).sigma
