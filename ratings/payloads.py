"""What ratings put in payloads: the `player` object of docs/api.md (id, display name, guest
flag and rating), and the entries of a `rated` event.

A player is shown with their rating, so the `player` object is built here, where the rating
is known, and every app above (games' seats, the players' endpoints) takes it from here:
`player_data` for payloads built as plain data, `PlayerSerializer` (built by `player_data`) to
nest in DRF serializers and the OpenAPI schema.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, TypedDict

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone
from rest_framework import serializers

from accounts.models import Player
from core.payloads import Doc, Uuid
from ratings.cpu import cpu_start
from ratings.models import Rating
from ratings.rating import DEFAULT, Skill, aged, days_between


class RatingData(TypedDict):
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool


class PlayerData(TypedDict):
    id: str
    display_name: str
    is_guest: bool
    is_cpu: Annotated[bool, Doc("A CPU level's rated player (named `CPU (expert)`...).")]
    is_bot: Annotated[bool, Doc("A bot account (docs/bots.md): shown with a BOT badge.")]
    rating: RatingData
    placement_games_left: Annotated[
        int,
        Doc(
            "Rated games the player still needs in the current season to be placed on its "
            "leaderboard (0: placed; always 0 for a bot, which stands outside seasons)."
        ),
    ]


class RatedData(TypedDict):
    """A seat's new rating, in a `rated` event."""

    seat: int
    player_id: Uuid
    mu: float
    sigma: float
    ordinal: float
    delta: Annotated[float, Doc("The change of ordinal this game made.")]


def aged_from(skill: Skill, last_game_at: datetime, at: datetime) -> Skill:
    """`skill` as a player brings it to `at`, their last rated game having ended at
    `last_game_at`: aged by the whole UTC days between (ratings/rating.py `aged`, at
    YANIV_RATING_TAU_PER_DAY). Every read and every rating update ages through this."""
    return aged(skill, days_between(last_game_at, at), settings.YANIV_RATING_TAU_PER_DAY)


def shown_skill(rating: Rating, now: datetime | None = None) -> Skill:
    """What a rating row is worth `now` (default: the present): the stored skill aged since the
    player's last rated game. It changes when a game is rated and at UTC midnight, never in
    between."""
    return aged_from(Skill(rating.mu, rating.sigma), rating.last_game_at, now or timezone.now())


def player_rating(player: Player, now: datetime | None = None) -> RatingData:
    """The `rating` of a `player` object: the player's rating row aged to `now`
    (`shown_skill`), or their start before their first rated game. Lists of players read the
    rows along with them (`select_related("rating")`, `"player__rating"`) instead of one query
    each."""
    try:
        row = player.rating
    except ObjectDoesNotExist:
        skill = DEFAULT if player.cpu_level is None else cpu_start(player.cpu_level)
        games = 0
    else:
        skill, games = shown_skill(row, now), row.games
    return {
        "mu": skill.mu,
        "sigma": skill.sigma,
        "ordinal": skill.ordinal,
        "games": games,
        "provisional": skill.sigma > settings.YANIV_PROVISIONAL_SIGMA,
    }


def player_data(player: Player, now: datetime | None = None) -> PlayerData:
    """The `player` object as plain data, for payloads built outside DRF serializers
    (websocket messages, events); PlayerSerializer answers with exactly this. Its rating is
    aged to `now` (default: the present)."""
    return {
        "id": str(player.pk),
        "display_name": player.display_name,
        "is_guest": player.is_guest,
        "is_cpu": player.is_cpu,
        "is_bot": player.is_bot,
        "rating": player_rating(player, now),
        "placement_games_left": placement_games_left(player),
    }


def placement_games_left(player: Player) -> int:
    """How many more rated games place the player in the current season (0: placed). A bot
    stands outside seasons (docs/api.md, Seasons): nothing to place, so 0, as a client that
    hides a 0 shows nothing."""
    if player.is_bot:
        return 0
    try:
        played = player.rating.season_games
    except ObjectDoesNotExist:
        played = 0
    placement: int = settings.YANIV_SEASON_PLACEMENT_GAMES
    return max(0, placement - played)


class RatingSerializer(serializers.Serializer[RatingData]):
    mu = serializers.FloatField()
    sigma = serializers.FloatField(
        help_text="Aged: it widens with each UTC day since the last rated game (docs/api.md, "
        "Ratings)."
    )
    ordinal = serializers.FloatField(help_text="`mu - 3*sigma`; leaderboards sort by it.")
    games = serializers.IntegerField(help_text="Rated games played.")
    provisional = serializers.BooleanField()


class PlayerSerializer(serializers.Serializer[Player]):
    """A player, as every response shows one."""

    # The one representation of a player (docs/api.md `player`); other apps nest this serializer.
    id = serializers.UUIDField(read_only=True)
    display_name = serializers.CharField(read_only=True)
    is_guest = serializers.BooleanField(read_only=True)
    is_cpu = serializers.BooleanField(
        read_only=True, help_text="A CPU level's rated player (`CPU (expert)`...)."
    )
    is_bot = serializers.BooleanField(
        read_only=True, help_text="A bot account (docs/bots.md), shown with a BOT badge."
    )
    rating = RatingSerializer(read_only=True)
    placement_games_left = serializers.IntegerField(
        read_only=True,
        help_text="Rated games still needed in the current season to be placed on its "
        "leaderboard (docs/api.md, Seasons); 0 once placed, and always 0 for a bot (bots "
        "stand outside seasons).",
    )

    def to_representation(self, instance: Player) -> dict[str, Any]:
        # The fields above document the shape; player_data is the one place that builds it.
        return dict(player_data(instance))
