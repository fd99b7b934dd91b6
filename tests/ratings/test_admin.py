"""The ratings' admin lists show mu, sigma and the ordinal to two decimals, not sixteen."""

from __future__ import annotations

import pytest
from django.utils import timezone

from ratings.models import Rating
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_the_ratings_list_shows_two_decimals(admin_client) -> None:
    player = PlayerFactory.create(display_name="Noa")
    Rating.objects.create(
        player=player,
        mu=27.123456789,
        sigma=4.987654321,
        ordinal=12.160493826,
        games=3,
        last_game_at=timezone.now(),
    )

    page = admin_client.get("/admin/ratings/rating/").content.decode()

    for shown in ("27.12", "4.99", "12.16"):
        assert shown in page
    for hidden in ("27.1234", "4.9876"):
        assert hidden not in page
