"""What a scrape reads: the samples of every process writing to this host's (this pod's)
metrics directory, and gauges computed at scrape time from the database (each a cheap indexed
count; the staff page reads those too)."""

from __future__ import annotations

from collections.abc import Iterator

from django.db import connection
from django.db.models import Count
from prometheus_client import CollectorRegistry
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from core import metrics
from games.models import Game, GameStatus
from matchmaking.models import Ticket, TicketStatus


class DatabaseCollector(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        active = GaugeMetricFamily(
            "yaniv_active_games", "Games being played", labels=["size", "ranked"]
        )
        rows = (
            Game.objects.filter(status=GameStatus.ACTIVE)
            .values_list("max_players", "ranked")
            .annotate(n=Count("id"))
            .order_by()
        )
        for size, ranked, n in rows:
            active.add_metric([str(size), str(ranked).lower()], n)
        yield active

        searching = GaugeMetricFamily(
            "yaniv_tickets_searching",
            "Matchmaking tickets searching, by each table size they accept",
            labels=["size"],
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT size, count(*) FROM {Ticket._meta.db_table},"  # noqa: S608
                " unnest(player_counts) AS size WHERE status = %s GROUP BY size",
                [TicketStatus.SEARCHING.value],
            )
            for size, n in cursor.fetchall():
                searching.add_metric([str(size)], n)
        yield searching

        unrated = Game.objects.filter(
            status=GameStatus.FINISHED, ranked=True, rated_at__isnull=True
        ).count()
        yield GaugeMetricFamily(
            "yaniv_games_unrated", "Finished ranked games not yet rated", value=unrated
        )


def scrape_registry(*, database: bool = True) -> CollectorRegistry:
    """The registry /metrics serves: the samples every process of this host (pod) wrote,
    summed, and (`database`) the gauges read from the database."""
    metrics.mark_dead_processes()
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(metrics.MULTIPROC_DIR))  # type: ignore[no-untyped-call]
    if database:
        registry.register(DatabaseCollector())
    return registry
