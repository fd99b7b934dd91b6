"""The staff page of live figures (admin, ops/live.py): what it shows after a game is played,
who may see it, and the arithmetic of its rates."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test.client import Client as BrowserClient
from django.utils import translation
from prometheus_client.parser import text_string_to_metric_families
from redis import exceptions as redis_errors

from core import metrics, metrics_shared
from core.redis import get_redis
from games.models import Event
from matchmaking.services import matchmaking_pass, ticket_create
from ops import live, tasks
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
    metrics.LOCAL_TASK_RUNS.labels("games.game_cpu_reply", "failure").inc()  # a web process's
    metrics.LOCAL_TASK_RUNS.labels("games.game_cpu_reply", "success").inc()
    metrics.HTTP_REQUESTS.labels("/api/v1/games/", "POST", 500).inc()
    response = admin_client.get(PAGE)
    failed = {"games.tasks.game_cpu_turn": 1, "games.game_cpu_reply": 1}
    assert response.context["errors_tasks"] == failed
    assert response.context["errors_http"] == {"/api/v1/games/": 1}
    assert response.context["errors_total"] == 3


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


def test_increase_never_counts_a_fall() -> None:
    assert live.increase([3, 5, 9]) == 6
    # A failover lost 3 of the totals: nothing counted for the fall, never the whole 2 again.
    assert live.increase([3, 5, 2, 4]) == 2 + 0 + 2
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


def test_the_snapshots_keep_the_last_hour_of_this_epoch_only(db) -> None:
    for minute in range(live.SNAPSHOTS_KEPT + 5):
        live.snapshot_take(now=minute * 60.0)
    kept = live.snapshots()
    assert len(kept) == live.SNAPSHOTS_KEPT
    assert kept[0]["at"] == 5 * 60.0
    assert all(taken["source"] == live.source() != "" for taken in kept)


def test_totals_redis_lost_start_a_new_epoch_and_no_rate_spans_two(admin_client) -> None:
    metrics.MOVES_APPLIED.labels("player").inc(5)
    tasks.snapshot_take.apply()
    assert len(live.snapshots()) == 1
    get_redis().delete(cache.make_key(metrics_shared.TOTALS))  # as a Redis that lost its data
    metrics.MOVES_APPLIED.labels("player").inc(2)
    shown = _figures_shown(admin_client)
    assert shown.snapshots == 0  # the old epoch's snapshot is left out
    assert shown.moves == {}  # no rate without history: never 2 - 5
    tasks.snapshot_take.apply()
    metrics.MOVES_APPLIED.labels("player").inc(3)
    assert _figures_shown(admin_client).moves == {"player": 3}


# Processes of other hosts (pods): each writes its metrics to a directory of its own, and
# publishes to the Redis of the test (its cache key prefix). Its hostname (and, with a fourth
# argument, its pid: pids repeat across pods and restarts) as given, it counts moves (published,
# then more not published) and opens sockets, says so, and lives until its stdin closes.
_HOST_PROCESS = """
import os, socket, sys
socket.gethostname = lambda: sys.argv[1]
if len(sys.argv) > 5:
    os.getpid = lambda: int(sys.argv[5])
import django
from django.conf import settings
settings.CACHES["default"]["KEY_PREFIX"] = sys.argv[2]
django.setup()
from core import metrics, metrics_shared
moves, unpublished = (int(n) for n in sys.argv[3].split("+"))
metrics.MOVES_APPLIED.labels("player").inc(moves)
metrics.OPEN_WEBSOCKETS.inc(int(sys.argv[4]))
metrics_shared.publish()
metrics.MOVES_APPLIED.labels("player").inc(unpublished)
print("ready", metrics_shared.TALLY.name, flush=True)
sys.stdin.readline()
"""


class Host:
    def __init__(self, process: subprocess.Popen[str], name: str) -> None:
        self.process, self.name = process, name

    def end(self) -> None:
        """As a process that exits (atexit publishes what is left, drops its gauges)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait() == 0

    def kill(self) -> None:
        """As a pod killed: nothing runs."""
        self.process.kill()
        self.process.wait()


@pytest.fixture
def hosts(tmp_path: Path) -> Iterator[Callable[..., Host]]:
    started: list[Host] = []

    def start(hostname: str, moves: str, sockets: int, *pid: str, directory: str = "") -> Host:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / (directory or hostname)),
            "METRICS_PUBLISH_SECONDS": "0",
        }
        prefix = settings.CACHES["default"]["KEY_PREFIX"]
        process = subprocess.Popen(
            [sys.executable, "-c", _HOST_PROCESS, hostname, prefix, moves, str(sockets), *pid],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert process.stdout is not None
        line = process.stdout.readline().split()
        assert line[:1] == ["ready"], line
        started.append(Host(process, line[1]))
        return started[-1]

    yield start
    for host in started:
        if host.process.poll() is None:
            host.end()  # its gauges go with it


def _moves_scraped() -> float:
    response = BrowserClient().get("/metrics")
    return sum(
        sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
        if sample.name == "yaniv_moves_applied_total"
    )


def test_two_hosts_with_directories_of_their_own_are_both_on_the_page(admin_client, hosts) -> None:
    """Each pod's /metrics is its own; the page counts every pod's moves and sockets."""
    tasks.snapshot_take.apply()
    before = _figures_shown(admin_client)
    scraped = _moves_scraped()

    web_1 = hosts("web-1", "3+0", 4)
    web_2 = hosts("web-2", "5+0", 6)
    assert web_1.name != web_2.name
    shown = _figures_shown(admin_client)

    assert shown.moves["player"] - before.moves.get("player", 0.0) == 8
    assert shown.sockets - before.sockets == 10
    assert _moves_scraped() == scraped  # this process's /metrics: not the other pods'


def test_a_process_gone_drops_its_live_gauges(admin_client, hosts) -> None:
    before = _figures_shown(admin_client).sockets
    ended, killed = hosts("web-1", "0+0", 4), hosts("web-2", "0+0", 6)
    assert _figures_shown(admin_client).sockets == before + 10

    ended.end()
    assert _figures_shown(admin_client).sockets == before + 6

    killed.kill()
    redis, key = get_redis(), cache.make_key(metrics_shared.GAUGES + killed.name)
    # Its gauges outlive it until their key expires, a few publishing intervals at most...
    assert 0 < redis.ttl(key) <= metrics_shared.TTL_INTERVALS * 10
    redis.delete(key)  # ... as it does now
    assert _figures_shown(admin_client).sockets == before
    assert killed.name not in redis.smembers(cache.make_key(metrics_shared.PROCESSES))


def test_a_restart_neither_doubles_nor_takes_back_counts(admin_client, hosts) -> None:
    """A process killed with counts not yet published, restarted under the same host, pid and
    shared directory (its counter's file counts on from the dead one's): the page counts what
    the new one added, never the dead one's again, never less than before."""
    first = hosts("web-1", "5+2", 0, "9", directory="shared")
    tasks.snapshot_take.apply()
    first.kill()  # the 2 unpublished are lost to the page (not to the pod's /metrics)
    hosts("web-1", "3+0", 0, "9", directory="shared")
    shown = _figures_shown(admin_client)
    assert shown.moves == {"player": 3}
    assert shown.hour.of("moves/") == {"player": 3}


def test_counts_a_failed_publish_kept_are_published_next_time(db, monkeypatch) -> None:
    _, totals = metrics_shared.totals()
    metrics.MOVES_APPLIED.labels("timeout").inc(2)

    def broken() -> Any:
        raise redis_errors.ConnectionError("down")

    monkeypatch.setattr(metrics_shared, "_redis", broken)
    with pytest.raises(redis_errors.ConnectionError):
        metrics_shared.publish()
    monkeypatch.undo()
    metrics.MOVES_APPLIED.labels("timeout").inc(1)
    metrics_shared.publish()
    assert metrics_shared.totals()[1]["moves/timeout"] == totals.get("moves/timeout", 0.0) + 3


def test_spans_read_as_time() -> None:
    with translation.override("en"):  # whatever language a test before left active
        spans = [live.span(s) for s in (45, 97, 120, 3540)]
    assert spans == ["45 s", "1 min 37 s", "2 min", "59 min"]
