"""The matchmaking pass on the real database: tables become ranked games, tickets expire,
and nothing is seated twice however passes and requests interleave."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Player
from core.locks import AdvisoryLock
from core.sockets import player_group
from games.models import Game, GameStatus
from games.services.lobby import game_create
from matchmaking import pairing, services, tasks
from matchmaking.models import Ticket, TicketStatus
from tests.factories import PlayerFactory
from tests.matchmaking.conftest import queue
from tests.transactions import held_elsewhere

pytestmark = pytest.mark.django_db


def players(count: int) -> list[Player]:
    return [PlayerFactory.create() for _ in range(count)]


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def statuses(tickets: list[Ticket]) -> list[str]:
    return [Ticket.objects.get(pk=ticket.pk).status for ticket in tickets]


def test_four_who_want_four_get_one_ranked_active_game(
    settings, django_capture_on_commit_callbacks, sent
):
    settings.YANIV_RANKED_TURN_SECONDS = 45
    four = players(4)
    tickets = [queue(player, [4]) for player in four]
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        result = services.matchmaking_pass()

    assert result is not None
    assert len(result.games) == 1
    game = Game.objects.get(pk=result.games[0])
    assert (game.ranked, game.status, game.max_players) == (True, GameStatus.ACTIVE, 4)
    assert game.rules["turn_seconds"] == 45
    assert {seat.player_id for seat in game.seats.all()} == {player.pk for player in four}
    for ticket in tickets:
        ticket.refresh_from_db()
        assert (ticket.status, ticket.game_id) == (TicketStatus.MATCHED, game.pk)
        assert ticket.ended_at is not None
    told = {group: message["message"] for group, message in sent}
    for player, ticket in zip(four, tickets, strict=True):
        assert told[player_group(player.pk)] == {
            "type": "ticket",
            "ticket": {
                "id": str(ticket.pk),
                "status": "matched",
                "player_counts": [4],
                "created_at": ticket.created_at.isoformat(),
                "game_id": str(game.pk),
                "cpu_seats": 0,
                "pool": "ranked",
            },
        }


def test_the_largest_table_everyone_accepts():
    tickets = [queue(player) for player in players(5)]

    # Fresh tickets hold out for five: five are here, so five it is at once.
    result = services.matchmaking_pass()

    assert result is not None
    assert [Game.objects.get(pk=game).max_players for game in result.games] == [5]
    assert set(statuses(tickets)) == {TicketStatus.MATCHED}


def test_fresh_tickets_hold_out_for_a_larger_table():
    tickets = [queue(player) for player in players(4)]

    assert services.matchmaking_pass() == services.PassResult(expired=0, games=[])
    result = services.matchmaking_pass(now=later(pairing.Policy().hold_seconds + 1))

    assert result is not None
    assert [Game.objects.get(pk=game).max_players for game in result.games] == [4]
    assert set(statuses(tickets)) == {TicketStatus.MATCHED}


def test_far_apart_players_are_paired_once_they_have_waited(set_ordinals):
    low, high = players(2)
    set_ordinals({low: 0.0, high: 20.0})
    tickets = [queue(low, [2]), queue(high, [2])]

    assert services.matchmaking_pass(now=later(5)) == services.PassResult(expired=0, games=[])
    result = services.matchmaking_pass(now=later(40))

    assert result is not None
    assert len(result.games) == 1
    assert statuses(tickets) == [TicketStatus.MATCHED] * 2


def test_stale_tickets_expire(settings, django_capture_on_commit_callbacks, sent):
    settings.YANIV_TICKET_EXPIRY_SECONDS = 30
    old, young = players(2)
    stale = queue(old, [5])
    Ticket.objects.filter(pk=stale.pk).update(created_at=timezone.now() - timedelta(seconds=31))
    fresh = queue(young, [5])
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        result = services.matchmaking_pass()

    assert result == services.PassResult(expired=1, games=[])
    stale.refresh_from_db()
    assert stale.status == TicketStatus.EXPIRED
    assert stale.ended_at is not None
    assert statuses([fresh]) == [TicketStatus.SEARCHING]
    assert [(group, message["message"]["ticket"]["status"]) for group, message in sent] == [
        (player_group(old.pk), "expired")
    ]


def test_tickets_expire_after_ten_minutes_by_default():
    ticket = queue(PlayerFactory.create(), [5])

    services.matchmaking_pass(now=later(599))
    assert statuses([ticket]) == [TicketStatus.SEARCHING]
    services.matchmaking_pass(now=later(601))
    assert statuses([ticket]) == [TicketStatus.EXPIRED]


def test_an_expired_ticket_is_not_seated():
    for player in players(2):
        queue(player, [2])

    result = services.matchmaking_pass(now=later(601))

    assert result == services.PassResult(expired=2, games=[])
    assert not Game.objects.exists()


def test_players_at_a_table_are_left_in_the_queue():
    seated, other = players(2)
    tickets = [queue(seated, [2]), queue(other, [2])]
    game_create(host=seated, max_players=2, rules={})

    assert services.matchmaking_pass() == services.PassResult(expired=0, games=[])
    assert statuses(tickets) == [TicketStatus.SEARCHING] * 2


def test_banned_players_are_left_out():
    """Their receiver cancels their tickets; until it has, the pass skips them."""
    banned, other = players(2)
    tickets = [queue(banned, [2]), queue(other, [2])]
    Player.objects.filter(pk=banned.pk).update(banned_at=timezone.now())

    assert services.matchmaking_pass() == services.PassResult(expired=0, games=[])
    assert statuses(tickets) == [TicketStatus.SEARCHING] * 2


def test_a_ban_that_ended_lets_the_player_be_seated():
    banned, other = players(2)
    tickets = [queue(banned, [2]), queue(other, [2])]
    Player.objects.filter(pk=banned.pk).update(
        banned_at=timezone.now() - timedelta(days=2), banned_until=timezone.now()
    )

    result = services.matchmaking_pass()

    assert result is not None
    assert len(result.games) == 1
    assert statuses(tickets) == [TicketStatus.MATCHED] * 2


def test_a_table_whose_ticket_ended_meanwhile_is_not_seated(monkeypatch):
    tickets = [queue(player, [2]) for player in players(2)]
    real_pair = pairing.pair

    def pair_then_cancel(queue_, policy=None, apart=()):
        tables = real_pair(queue_, policy, apart)
        Ticket.objects.filter(pk=tickets[1].pk).update(status=TicketStatus.CANCELLED)
        return tables

    monkeypatch.setattr(pairing, "pair", pair_then_cancel)

    assert services.matchmaking_pass() == services.PassResult(expired=0, games=[])
    assert statuses(tickets) == [TicketStatus.SEARCHING, TicketStatus.CANCELLED]
    assert not Game.objects.exists()


def test_a_player_who_sat_down_elsewhere_meanwhile_spoils_only_their_table(monkeypatch):
    first, second, third, fourth = players(4)
    tickets = [queue(player, [2]) for player in (first, second, third, fourth)]
    real_pair = pairing.pair

    def pair_then_sit_down(queue_, policy=None, apart=()):
        tables = real_pair(queue_, policy, apart)
        game_create(host=first, max_players=2, rules={})
        return tables

    monkeypatch.setattr(pairing, "pair", pair_then_sit_down)

    result = services.matchmaking_pass()

    assert result is not None
    assert len(result.games) == 1
    assert Game.objects.filter(ranked=True).count() == 1  # the spoilt table's game was undone
    assert Ticket.objects.get(player=first).status == TicketStatus.SEARCHING
    matched = Ticket.objects.filter(status=TicketStatus.MATCHED)
    assert matched.count() == 2
    assert first.pk not in {ticket.player_id for ticket in matched}
    assert statuses(tickets).count(TicketStatus.SEARCHING) == 2


def test_at_most_so_many_tables_a_pass_longest_waiters_first(settings):
    settings.YANIV_MATCHMAKING_TABLES_PER_PASS = 1
    tickets = [queue(player, [2]) for player in players(4)]
    old = tickets[2:]
    Ticket.objects.filter(pk__in=[t.pk for t in old]).update(
        created_at=timezone.now() - timedelta(seconds=30)
    )

    result = services.matchmaking_pass()

    assert result is not None
    assert len(result.games) == 1
    assert statuses(tickets) == [TicketStatus.SEARCHING] * 2 + [TicketStatus.MATCHED] * 2
    result = services.matchmaking_pass()
    assert result is not None
    assert len(result.games) == 1
    assert set(statuses(tickets)) == {TicketStatus.MATCHED}


@pytest.mark.parametrize("count", [3, 30])
def test_reading_the_queue_takes_the_same_queries_however_long_it_is(count, monkeypatch):
    for player in players(count):
        queue(player, [5])
    monkeypatch.setattr(pairing, "pair", lambda queue_, policy=None, apart=(): [])

    with CaptureQueriesContext(connection) as queries:
        services.matchmaking_pass()

    sql = [query["sql"] for query in queries if "SAVEPOINT" not in query["sql"]]
    # The lock, the tickets to expire (none), the queue, the players' ratings and their blocks.
    assert len(sql) == 5, sql


def test_a_pass_does_nothing_while_another_runs():
    tickets = [queue(player, [2]) for player in players(2)]
    other = psycopg.connect(**_conninfo(), autocommit=True)
    try:
        # Held in a transaction, as the passes hold it (a session lock would stay on the server
        # connection behind PgBouncer: make test-pgbouncer).
        with other.transaction():
            other.execute("SELECT pg_advisory_xact_lock(%s)", [int(AdvisoryLock.MATCHMAKING_PASS)])

            assert services.matchmaking_pass() is None
            assert statuses(tickets) == [TicketStatus.SEARCHING] * 2

        result = services.matchmaking_pass()
        assert result is not None
        assert len(result.games) == 1
    finally:
        other.close()


def _conninfo() -> dict[str, Any]:
    params = connection.get_connection_params()
    return {key: params[key] for key in ("dbname", "user", "host", "port") if key in params}


@pytest.mark.django_db(transaction=True)
def test_a_ticket_locked_by_a_cancel_in_flight_is_not_seated():
    """The pass skips locked tickets rather than wait: the cancel wins, the pass moves on."""
    tickets = [queue(player, [2]) for player in players(2)]
    mine = Ticket.objects.filter(pk=tickets[0].pk)

    # A cancel in flight: the ticket locked, then cancelled once the pass has run.
    with held_elsewhere(
        lambda: mine.select_for_update().get(),
        then=lambda: mine.update(status=TicketStatus.CANCELLED),
    ):
        assert services.matchmaking_pass() == services.PassResult(expired=0, games=[])
    assert statuses(tickets) == [TicketStatus.CANCELLED, TicketStatus.SEARCHING]
    assert not Game.objects.exists()


def test_the_task_runs_a_pass():
    for player in players(2):
        queue(player, [2])

    assert tasks.matchmaking_pass() == 1
    assert tasks.matchmaking_pass() == 0


def test_the_beat_runs_a_pass_every_second():
    entry = tasks.BEAT_SCHEDULE["matchmaking.pass"]

    assert entry["task"] == tasks.matchmaking_pass.name
    assert entry["schedule"] == 1.0
