"""How fast are ratings? The pure update, the rating service on the database,
`recompute_ratings` over a long history of generated games, and a leaderboard page with ageing.

    python bench/ratings.py [--games 100000] [--service-games 2000] [--players 5000]
        [--board-players 100000]

Uses the PostgreSQL server of DATABASE_URL (and Redis of REDIS_URL, which the service notifies
on commit), in a scratch database `bench_ratings_<pid>` that it creates, migrates and drops: the
database DATABASE_URL names is not touched. Games are rows as the games app leaves them when a
game ends (2 to 5 seats, some CPU seats, some shared places), generated with bulk inserts.
The first `--service-games` are rated one by one through `games.services.rating.game_rate`; the
rest are marked rated without a rating, so that the first `recompute_ratings` finds them all
missing, `--write` rebuilds the whole history, and a last check proves it equal. Then
`--board-players` more rated players (their rating rows and one rated game's change each, last
played up to 60 days ago, so about half are listed) and the leaderboard's pages read through its
view, ordered by the aged ordinal. Last, the season: its live leaderboard, its end (every rated
player's standing frozen and sigma reset, in one transaction), its frozen leaderboard.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

# Run as a script (`python bench/ratings.py`), the repository root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

from ratings.rating import MAX_PLAYERS, Skill, rate

BATCH = 5000


def places_for(players: int, rng: random.Random) -> list[int]:
    """Standard competition places from random totals: ties happen, as in Yaniv endings."""
    totals = [rng.randrange(12) for _ in range(players)]
    return [1 + sum(other < total for other in totals) for total in totals]


def bench_pure(calls: int, rng: random.Random) -> float:
    games = []
    for _ in range(calls):
        players = rng.randint(2, MAX_PLAYERS)
        skills = [Skill(rng.uniform(15, 35), rng.uniform(2, 8.4)) for _ in range(players)]
        games.append((skills, places_for(players, rng)))
    started = time.perf_counter()
    for skills, places in games:
        rate(skills, places)
    return calls / (time.perf_counter() - started)


def generate(games: int, players: int, rated_from: int, rng: random.Random) -> list[uuid.UUID]:
    """`games` finished ranked games among `players` guests, a second apart; those from index
    `rated_from` on are marked rated. Returns the game ids in the order they ended."""
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from accounts.models import Player
    from games.models import Game, GameStatus, Seat

    unusable = make_password(None)  # guests: no password to log in with
    people = Player.objects.bulk_create(
        (Player(display_name=f"bench {n}", password=unusable) for n in range(players)),
        batch_size=BATCH,
    )
    start = timezone.now() - timedelta(seconds=games)
    ids: list[uuid.UUID] = []
    for first in range(0, games, BATCH):
        rows, seats = [], []
        for index in range(first, min(games, first + BATCH)):
            table = rng.randint(2, MAX_PLAYERS)
            finished_at = start + timedelta(seconds=index)
            game = Game(
                id=uuid.uuid4(),
                ranked=True,
                status=GameStatus.FINISHED,
                rules={},
                max_players=table,
                finished_at=finished_at,
                rated_at=finished_at if index >= rated_from else None,
            )
            rows.append(game)
            ids.append(game.id)
            humans: list[Player | None] = list(rng.sample(people, table))
            if table > 2 and rng.random() < 0.1:
                humans[rng.randrange(table)] = None  # a CPU seat
            for seat, (player, place) in enumerate(
                zip(humans, places_for(table, rng), strict=True)
            ):
                seats.append(
                    Seat(
                        game=game,
                        seat=seat,
                        player=player,
                        is_cpu=player is None,
                        place=place,
                        live=False,
                    )
                )
        Game.objects.bulk_create(rows)
        Seat.objects.bulk_create(seats)
    return ids


def generate_board(players: int, rng: random.Random) -> None:
    """`players` rated players as the rating service leaves them, each with one rated game's
    change (its game one of a few hundred), last played 0 to 60 days ago."""
    from django.contrib.auth.hashers import make_password
    from django.db import connection
    from django.utils import timezone

    from accounts.models import Player
    from games.models import Game, GameStatus
    from ratings.models import Rating, RatingChange

    unusable = make_password(None)
    now = timezone.now()
    for first in range(0, players, BATCH):
        people = Player.objects.bulk_create(
            Player(display_name=f"board {n}", password=unusable)
            for n in range(first, min(players, first + BATCH))
        )
        ends = [now - timedelta(seconds=rng.uniform(0, 60 * 86400)) for _ in people]
        games = Game.objects.bulk_create(
            Game(
                id=uuid.uuid4(),
                ranked=True,
                status=GameStatus.FINISHED,
                rules={},
                max_players=2,
                finished_at=now,
                rated_at=now,
            )
            for _ in range(BATCH // 100)
        )
        skills = [Skill(rng.gauss(25, 4), rng.uniform(1.0, 8.3)) for _ in people]
        RatingChange.objects.bulk_create(
            RatingChange(
                player=person,
                game=games[index % len(games)],
                seat=0,
                place=1,
                at=at,
                mu_before=25.0,
                sigma_before=25 / 3,
                mu=skill.mu,
                sigma=skill.sigma,
            )
            for index, (person, at, skill) in enumerate(zip(people, ends, skills, strict=True))
        )
        Rating.objects.bulk_create(
            Rating(
                player=person,
                mu=skill.mu,
                sigma=skill.sigma,
                ordinal=skill.ordinal,
                games=(played := rng.randint(1, 200)),
                # Most have played this season, 60 games at most.
                season_games=rng.randint(0, min(played, 60)),
                last_game_at=at,
            )
            for person, at, skill in zip(people, ends, skills, strict=True)
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def timed_board_page(query: str, reads: int = 30, season: int | None = None) -> tuple[float, int]:
    """The median time of a leaderboard page (the season's, with `season`) read through its
    view (no throttle), and how many players are listed."""
    from django.test import RequestFactory

    from players.apis import LeaderboardApi
    from seasons.apis import SeasonLeaderboardApi

    if season is None:
        view = LeaderboardApi.as_view(throttle_classes=())
        path, kwargs = f"/api/v1/leaderboard/{query}", {}
    else:
        view = SeasonLeaderboardApi.as_view(throttle_classes=())
        path, kwargs = f"/api/v1/seasons/{season}/leaderboard/{query}", {"number": season}
    request = RequestFactory().get(path, HTTP_HOST="localhost")
    times = []
    count = 0
    for n in range(reads + 3):
        started = time.perf_counter()
        response = view(request, **kwargs)
        response.render()
        if n >= 3:  # after warming up
            times.append(time.perf_counter() - started)
        count = response.data["count"]
    return statistics.median(times), count


def bench_rollover(rating: Any) -> list[tuple[str, str]]:
    """The current season's leaderboard, then its end: every rated player's standing frozen
    and sigma reset (`seasons_roll_over`, one transaction), then the frozen board."""
    from django.utils import timezone

    from ratings.models import Rating
    from seasons.services import season_current

    rows = []
    season = season_current()
    median, listed = timed_board_page("", season=season.number)
    rows.append(
        (
            f"season {season.number} leaderboard page of 50 (live, aged), median of 30",
            f"{median * 1000:.1f} ms ({listed:,} placed)",
        )
    )
    season.ends_at = timezone.now()
    season.save(update_fields=["ends_at"])
    rated = Rating.objects.count()
    started = time.perf_counter()
    following = rating.seasons_roll_over()
    elapsed = time.perf_counter() - started
    assert following is not None
    rows.append((f"season rollover: {rated:,} rated players frozen and reset", f"{elapsed:.1f} s"))
    median, listed = timed_board_page("", season=season.number)
    rows.append(
        (
            f"season {season.number} leaderboard page of 50 (frozen), median of 30",
            f"{median * 1000:.1f} ms ({listed:,} placed)",
        )
    )
    return rows


def timed_recompute(*args: str) -> tuple[float, bool, str]:
    from django.core.management import CommandError, call_command

    out = io.StringIO()
    # The progress bar is for a terminal; in a log it would be a thousand redraws.
    progress = sys.stderr if sys.stderr.isatty() else io.StringIO()
    started = time.perf_counter()
    try:
        call_command("recompute_ratings", *args, stdout=out, stderr=progress)
        equal = True
    except CommandError:
        equal = False
    difference = next(
        (line for line in out.getvalue().splitlines() if line.startswith("max difference")),
        "",
    )
    return time.perf_counter() - started, equal, difference


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--service-games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--pure-calls", type=int, default=20_000)
    parser.add_argument("--board-players", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    django.setup()
    from django.conf import settings
    from django.db import connection

    from games.services import rating

    rng = random.Random(options.seed)
    rows: list[tuple[str, str]] = []

    pure = bench_pure(options.pure_calls, rng)
    rows.append(("pure `rate` (2-5 players)", f"{pure:,.0f} games/s"))

    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["NAME"] = f"bench_ratings_{os.getpid()}"
    original = database["NAME"]
    started = time.perf_counter()
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        rows.append(
            ("scratch database created and migrated", f"{time.perf_counter() - started:.1f} s")
        )
        started = time.perf_counter()
        ids = generate(options.games, options.players, options.service_games, rng)
        elapsed = time.perf_counter() - started
        rows.append((f"generate {options.games:,} games (bulk inserts)", f"{elapsed:.1f} s"))

        started = time.perf_counter()
        for game_id in ids[: options.service_games]:
            rating.game_rate(game_id=game_id)
        elapsed = time.perf_counter() - started
        each = elapsed / options.service_games * 1000
        rows.append(
            (
                f"`game_rate` service, {options.service_games:,} games, one transaction each",
                f"{options.service_games / elapsed:,.0f} games/s ({each:.2f} ms each)",
            )
        )

        for label, args in (
            ("`recompute_ratings` (check; most games found missing)", ()),
            ("`recompute_ratings --write` (check, then rebuild all)", ("--write",)),
            ("`recompute_ratings` (check again)", ()),
        ):
            elapsed, equal, difference = timed_recompute(*args)
            verdict = "equal" if equal else "differs"
            rows.append(
                (f"{label}, {options.games:,} games", f"{elapsed:.1f} s, {verdict}, {difference}")
            )

        started = time.perf_counter()
        generate_board(options.board_players, rng)
        elapsed = time.perf_counter() - started
        rows.append((f"generate {options.board_players:,} more rated players", f"{elapsed:.1f} s"))
        for query in ("", "?offset=1000", "?offset=20000"):
            median, listed = timed_board_page(query)
            rows.append(
                (
                    f"leaderboard page of 50 with ageing `{query or '?offset=0'}`, median of 30",
                    f"{median * 1000:.1f} ms ({listed:,} listed)",
                )
            )
        rows.extend(bench_rollover(rating))
    finally:
        connection.creation.destroy_test_db(original, verbosity=0)

    width = max(len(name) for name, _ in rows)
    print(f"| {'ratings'.ljust(width)} | result |")
    print(f"|{'-' * (width + 2)}|--------|")
    for name, result in rows:
        print(f"| {name.ljust(width)} | {result} |")


if __name__ == "__main__":
    main()
