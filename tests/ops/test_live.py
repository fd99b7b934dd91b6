"""The staff page of live figures (admin, ops/live.py): what it shows after a game is played,
who may see it, and the arithmetic of its rates."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test.client import Client as BrowserClient

from core import metrics
from games.models import Event
from matchmaking.services import matchmaking_pass, ticket_create
from ops import live, tasks
from ops.collectors import scrape_registry
from tests.core.test_metrics import ROOT, _play_against_a_cpu
from tests.factories import PlayerFactory
from tests.games.conftest import Client
from tests.games.test_leaks import CARD

PAGE = "/admin/live/"


@pytest.fixture(autouse=True)
def no_snapshots() -> Iterator[None]:
    """Each test starts with no snapshot (they are kept in the cache, beyond a test)."""
    cache.delete(live.SNAPSHOTS_KEY)
    yield
    cache.delete(live.SNAPSHOTS_KEY)


def _player_moves_of_a_game(host: Client) -> int:
    """A game against a CPU, some moves into it (as the /metrics test plays it); the player's."""
    game = _play_against_a_cpu(host)
    return Event.objects.filter(game_id=game["id"], type="played", payload__by="player").count()


def _figures_shown(client: BrowserClient) -> live.Figures:
    response = client.get(PAGE)
    assert response.status_code == 200
    figures: live.Figures = response.context["figures"]
    return figures


def test_the_page_shows_the_moves_played_since_the_last_snapshot(admin_client, db) -> None:
    tasks.snapshot_take.apply()
    before = _figures_shown(admin_client)
    assert before.snapshots >= 1

    played = _player_moves_of_a_game(Client.guest("Host"))
    after = _figures_shown(admin_client)

    assert played >= 1
    # (At least: a `make run` of this checkout counts into the same metrics.)
    assert after.moves["player"] - before.moves.get("player", 0.0) >= played
    assert after.moves["cpu"] >= 1
    assert ("2", "private", 1) in after.active_games
    html = admin_client.get(PAGE).content.decode()
    assert re.search(r'data-testid="moves-total"><th>all</th><th>[1-9]', html)
    # Figures only: no card of the game (nor of any game) is on the page.
    assert not CARD.findall(html.split('data-testid="live-figures"', 1)[1])


def test_the_queue_and_the_waits_of_matched_tickets(admin_client, db) -> None:
    tasks.snapshot_take.apply()
    ticket_create(player=Client.guest("Waiting").player, player_counts=[3, 4])
    first = _figures_shown(admin_client)
    assert ("3", 1) in first.queue
    assert ("4", 1) in first.queue

    for name in ("A", "B"):
        ticket_create(player=Client.guest(name).player, player_counts=[2])
    matchmaking_pass()
    shown = _figures_shown(admin_client)

    assert shown.waits is not None
    assert shown.waits.matched == 2
    assert shown.waits.mean is not None
    assert shown.waits.mean < 60
    assert ("2", "ranked", 1) in shown.active_games


def test_errors_of_the_last_hour_count_failed_tasks_and_5xx(admin_client, db) -> None:
    tasks.snapshot_take.apply()
    metrics.CELERY_TASK_RUNS.labels("games.tasks.game_cpu_turn", "failure").inc()
    metrics.HTTP_REQUESTS.labels("/api/v1/games/", "POST", 500).inc()
    response = admin_client.get(PAGE)
    assert response.context["errors_tasks"] == {"games.tasks.game_cpu_turn": 1}
    assert response.context["errors_http"] == {"/api/v1/games/": 1}
    assert response.context["errors_total"] == 2


def test_the_admin_index_links_to_the_page(admin_client) -> None:
    assert f'href="{PAGE}"' in admin_client.get("/admin/").content.decode()


@pytest.fixture
def moderator_client(db: None) -> BrowserClient:
    from django.contrib.auth.models import Group

    moderator = PlayerFactory.create(registered=True, username="mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name="moderator"))
    client = BrowserClient()
    client.force_login(moderator)
    return client


def test_moderators_see_it_too(moderator_client) -> None:
    assert moderator_client.get(PAGE).status_code == 200
    assert f'href="{PAGE}"' in moderator_client.get("/admin/").content.decode()


def test_it_is_refused_to_anyone_not_staff(db) -> None:
    anonymous = BrowserClient().get(PAGE)
    assert anonymous.status_code == 302
    assert "/admin/login/" in anonymous["Location"]
    player = BrowserClient()
    player.force_login(PlayerFactory.create(registered=True, username="plain"))
    refused = player.get(PAGE)
    assert refused.status_code == 302
    assert "/admin/login/" in refused["Location"]
    assert "figures" not in (refused.context or {})


# The arithmetic --------------------------------------------------------------------------------


def _snapshot(at: float, **values: float) -> live.Snapshot:
    return live.Snapshot(
        at=at, source="here", values={k.replace("_", "/"): v for k, v in values.items()}
    )


def test_increase_counts_on_from_zero_after_a_reset() -> None:
    assert live.increase([3, 5, 9]) == 6
    assert live.increase([3, 5, 2, 4]) == 2 + 2 + 2  # restarted at 0 before 2
    assert live.increase([7]) == 0


def test_gains_are_from_the_newest_snapshot_old_enough() -> None:
    history = [_snapshot(t, moves_player=t / 10) for t in (0, 60, 120, 180)]
    now = _snapshot(200, moves_player=20)
    minute = live.gained_since(history, now, 60)
    assert (minute.seconds, minute.of("moves/")) == (80, {"player": 20 - 12})
    hour = live.gained_since(history, now, 3600)  # less history than that: all of it
    assert (hour.seconds, hour.of("moves/")) == (200, {"player": 20})
    assert live.gained_since([], now, 60) == live.Gained({}, 0.0)


def test_the_quantile_interpolates_within_its_bucket() -> None:
    buckets = [(1.0, 0), (5.0, 10), (10.0, 20), (math.inf, 20)]
    assert live.quantile(0.5, buckets) == pytest.approx(5.0)
    assert live.quantile(0.25, buckets) == pytest.approx(3.0)
    assert live.quantile(0.75, buckets) == pytest.approx(7.5)
    assert live.quantile(0.99, [(1.0, 0), (5.0, 1), (math.inf, 4)]) == 5.0  # beyond the last bound
    assert live.quantile(0.5, [(1.0, 0), (math.inf, 0)]) is None


def test_the_snapshots_keep_the_last_hour_of_this_directory_only(db) -> None:
    for minute in range(live.SNAPSHOTS_KEPT + 5):
        live.snapshot_take(scrape_registry(database=False), now=minute * 60.0)
    kept = live.snapshots()
    assert len(kept) == live.SNAPSHOTS_KEPT
    assert kept[0]["at"] == 5 * 60.0
    assert all(taken["source"] == live.source() for taken in kept)


def test_every_process_sharing_the_directory_tags_its_snapshots_alike(tmp_path: Path) -> None:
    """A worker in another container (another hostname) sharing the directory takes
    snapshots the page reads as its own; one with a directory of its own does not."""
    script = (
        "import socket; socket.gethostname = lambda: 'worker-9'; "
        "from core import metrics; print(metrics.registry_id())"
    )

    def registry_of(directory: Path) -> str:
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)}
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert registry_of(metrics.MULTIPROC_DIR) == live.source()
    assert registry_of(tmp_path) not in ("", live.source())


def test_spans_read_as_time() -> None:
    assert [live.span(s) for s in (45, 97, 120, 3540)] == ["45 s", "1 min 37 s", "2 min", "59 min"]
