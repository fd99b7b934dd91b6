"""The idle participants a pass seats (tournaments/selectors.py), read in SQL: their ranks are
the standings' (equal keys share one), and only who may sit down is among them."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

import pytest
from django.utils import timezone

from games.models import Game, Seat
from tests.factories import PlayerFactory
from tournaments.models import Participant, PendingTable
from tournaments.selectors import idle_participants, standings, standings_ranked
from tournaments.services import tournament_create, tournament_join

pytestmark = pytest.mark.django_db


def test_the_idle_carry_their_standings_rank_wait_and_previous_table(players) -> None:
    now = timezone.now()
    tournament = tournament_create(
        by=None, name="Ranks", starts_at=now, minutes=30, table_sizes=[2, 3]
    )
    seventh = PlayerFactory.create()
    for player in [*players[:6], seventh]:
        tournament_join(tournament_id=tournament.pk, player=player)
    at = now - timedelta(minutes=1)
    rows = {row.player_id: row for row in Participant.objects.filter(tournament=tournament)}
    a, b, c, d, e, f = (rows[player.pk] for player in players[:6])
    # a and b tie (same score, firsts and time), c ahead of both, d paused, e at a tournament
    # table, f at a private table, the seventh at a pending one: only a, b and c may sit down.
    for row, score in ((a, 2.0), (b, 2.0), (c, 3.5), (d, 9.0), (e, 1.0), (f, 0.5)):
        row.score, row.score_at = score, at
        row.idle_since = now - timedelta(seconds=7.25)
    d.paused = True
    e.game_id = Game.objects.create(max_players=2, rules={}).pk
    a.previous = [str(b.player_id), str(c.player_id)]
    Participant.objects.bulk_update(
        [a, b, c, d, e, f], ["score", "score_at", "idle_since", "paused", "game_id", "previous"]
    )
    Seat.objects.create(game=Game.objects.create(max_players=2, rules={}), seat=0, player=f.player)
    # The seventh sits at a table a pass decided, whose game is not made yet.
    PendingTable.objects.create(game_id=uuid4(), tournament=tournament, players=[seventh.pk])

    idle = {one.key: one for one in idle_participants(tournament, now)}

    ranks = {
        str(row.player_id): rank for rank, row in standings_ranked(list(standings(tournament)))
    }
    assert set(idle) == {str(a.player_id), str(b.player_id), str(c.player_id)}
    assert {key: one.rank for key, one in idle.items()} == {key: ranks[key] for key in idle}
    assert idle[str(a.player_id)].rank == idle[str(b.player_id)].rank == 3  # d 9, c 3.5
    assert idle[str(c.player_id)].rank == 2
    assert idle[str(a.player_id)].idle_seconds == pytest.approx(7.25)
    assert idle[str(a.player_id)].previous == {str(b.player_id), str(c.player_id)}
    assert idle[str(b.player_id)].previous == frozenset()
