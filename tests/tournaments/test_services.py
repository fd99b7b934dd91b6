"""Arena tournaments' writes (tournaments/services.py): joining, pausing, withdrawing, and what
beat drives (the start, the pairing pass, the end) with a finished game's points."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import uuid4

import pytest
from django.utils import timezone

from accounts.models import Offence, QueueBan
from core.errors import ApplicationError
from games.models import Game, GameStatus, Seat
from games.services.play import game_leave
from games.services.staff import game_void
from ratings.models import Rating
from social.services import block_create
from tests.factories import PlayerFactory
from tests.games.test_rating_concurrency import at_once
from tournaments import tasks
from tournaments.models import Participant, Tournament, TournamentStatus
from tournaments.services import (
    _tournament_pass,
    tournament_cancel,
    tournament_create,
    tournament_end_now,
    tournament_game_score,
    tournament_game_unscore,
    tournament_join,
    tournament_pause,
    tournament_step,
    tournament_tables_make,
    tournament_withdraw,
    tournaments_tick,
)

pytestmark = pytest.mark.django_db


def arena(**fields) -> Tournament:
    fields.setdefault("starts_at", timezone.now() - timedelta(seconds=1))
    return tournament_create(
        by=None, name="Hourly", minutes=fields.pop("minutes", 30), table_sizes=[2], **fields
    )


def finish(game: Game, places: dict[Any, int], away: tuple[Any, ...] = ()) -> None:
    """End a tournament game with these places (by player), as the games app leaves it; the
    players of `away` away at the end."""
    for seat in game.seats.all():
        seat.place = places[seat.player]
        seat.live = False
        seat.away = seat.player in away
        seat.save()
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    game.save()


def at_a_table(*seated: Any) -> tuple[Tournament, Game]:
    """A running arena of tables of two that these two joined, and the table its pass made."""
    tournament = arena()
    for player in seated:
        tournament_join(tournament_id=tournament.pk, player=player)
    tournaments_tick()
    return tournament, Game.objects.get(tournament_id=tournament.pk)


def entry(tournament: Tournament, player) -> Participant:
    return Participant.objects.get(tournament=tournament, player=player)


def test_joining_and_its_refusals(players, settings) -> None:
    a, b, c = players[:3]
    closed = arena(password="sesame", max_players=2, min_rated_games=0)
    with pytest.raises(ApplicationError) as refused:
        tournament_join(tournament_id=closed.pk, player=a, password="nope")
    assert (refused.value.code, refused.value.status) == ("bad_password", 403)
    tournament_join(tournament_id=closed.pk, player=a, password="sesame")
    tournament_join(tournament_id=closed.pk, player=a)  # again: nothing new, no password asked
    tournament_join(tournament_id=closed.pk, player=b, password="sesame")
    with pytest.raises(ApplicationError) as full:
        tournament_join(tournament_id=closed.pk, player=c, password="sesame")
    assert (full.value.code, full.value.status) == ("not_open", 409)

    picky = arena(min_rated_games=5)
    with pytest.raises(ApplicationError) as novice:
        tournament_join(tournament_id=picky.pk, player=c)
    assert (novice.value.code, novice.value.status) == ("not_eligible", 403)
    Rating.objects.create(
        player=c, mu=25, sigma=5, ordinal=10, games=5, last_game_at=timezone.now()
    )
    tournament_join(tournament_id=picky.pk, player=c)


def test_bots_do_not_join_tournaments(players) -> None:
    bot = PlayerFactory.create(registered=True, is_bot=True)
    with pytest.raises(ApplicationError) as refused:
        tournament_join(tournament_id=arena(min_rated_games=0).pk, player=bot)
    assert (refused.value.code, refused.value.status) == ("not_eligible", 403)


def test_withdraw_before_the_start_only(players) -> None:
    later = arena(starts_at=timezone.now() + timedelta(hours=1))
    tournament_join(tournament_id=later.pk, player=players[0])
    tournament_withdraw(tournament_id=later.pk, player=players[0])
    assert not later.participants.exists()
    running = arena()
    tournament_join(tournament_id=running.pk, player=players[0])
    tournaments_tick()
    with pytest.raises(ApplicationError) as refused:
        tournament_withdraw(tournament_id=running.pk, player=players[0])
    assert refused.value.code == "not_open"


def test_a_pass_starts_the_tournament_and_seats_the_idle(players) -> None:
    tournament = arena(rated=False)
    for player in players[:5]:
        tournament_join(tournament_id=tournament.pk, player=player)
    tournament_pause(tournament_id=tournament.pk, player=players[4])

    assert tournaments_tick() == 2

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    games = list(Game.objects.filter(tournament_id=tournament.pk))
    assert len(games) == 2
    assert all(g.ranked and not g.rated and g.status == GameStatus.ACTIVE for g in games)
    assert games[0].rules["turn_seconds"] == 30
    seated = {seat.player_id for seat in Seat.objects.filter(game__in=games)}
    assert seated == {p.pk for p in players[:4]}
    assert entry(tournament, players[4]).game_id is None  # paused: not seated
    assert tournaments_tick() == 0  # everyone else is at a table


def test_points_fire_and_absence(players, settings) -> None:
    settings.YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS = 0  # two players: the same table again
    a, b = players[:2]
    tournament = arena()
    for player in (a, b):
        tournament_join(tournament_id=tournament.pk, player=player)
    for _ in range(3):
        tournaments_tick()
        game = Game.objects.get(tournament_id=tournament.pk, status=GameStatus.ACTIVE)
        finish(game, {a: 1, b: 2})
        assert tournament_game_score(game_id=game.pk)
        assert not tournament_game_score(game_id=game.pk)  # once
    # 1 + 1, then on fire: 2.
    assert (entry(tournament, a).score, entry(tournament, a).firsts) == (4.0, 3)
    assert entry(tournament, b).score == 0.0
    assert entry(tournament, a).previous == [str(b.pk)]
    # A tie for first: half a point each, and the streak ends.
    tournaments_tick()
    game = Game.objects.get(tournament_id=tournament.pk, status=GameStatus.ACTIVE)
    finish(game, {a: 1, b: 1}, away=(b,))
    tournament_game_score(game_id=game.pk)
    assert entry(tournament, a).score == 4.0 + 1.0  # on fire: 0.5 doubled
    assert entry(tournament, a).streak == 0
    assert entry(tournament, b).score == 0.5
    assert entry(tournament, b).paused  # away at the end
    assert tournaments_tick() == 0


def test_the_end_lets_games_finish_then_closes(players) -> None:
    a, b = players[:2]
    tournament, game = at_a_table(a, b)
    later = tournament.ends_at + timedelta(seconds=1)
    assert tournaments_tick(now=later) == 0
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING  # its game is still on
    finish(game, {a: 2, b: 1})
    tournaments_tick(now=later)  # scores the game (its task lost) and closes
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert entry(tournament, b).score == 1.0
    assert Game.objects.filter(tournament_id=tournament.pk).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_passes_at_once_seat_each_player_once(players) -> None:
    tournament = arena()
    for player in players[:4]:
        tournament_join(tournament_id=tournament.pk, player=player)
    now = timezone.now()

    at_once(2, lambda: tournament_step(tournament_id=tournament.pk, now=now))

    assert Game.objects.filter(tournament_id=tournament.pk).count() == 2
    assert Seat.objects.filter(game__tournament_id=tournament.pk).count() == 4


def test_a_schedule_keeps_its_next_tournament_made(settings) -> None:
    from tournaments.models import TournamentSchedule
    from tournaments.services import schedules_make_ahead

    schedule = TournamentSchedule.objects.create(
        name="Hourly blitz", every="hourly", minute=0, minutes=30, table_sizes=[2, 3]
    )
    now = timezone.now()
    assert schedules_make_ahead(now=now) == 1
    assert schedules_make_ahead(now=now) == 0  # one upcoming at a time
    made = Tournament.objects.get(schedule=schedule)
    assert made.starts_at > now
    assert (made.starts_at.minute, made.starts_at.second) == (0, 0)
    assert made.ends_at - made.starts_at == timedelta(minutes=30)
    # Once it has started, the next hour's is made.
    tournaments_tick(now=made.starts_at + timedelta(seconds=1))
    made.refresh_from_db()
    assert made.status == TournamentStatus.RUNNING
    following = Tournament.objects.get(schedule=schedule, status=TournamentStatus.UPCOMING)
    assert following.starts_at == made.starts_at + timedelta(hours=1)


def test_an_aborted_game_counts_for_nothing(players) -> None:
    a, b = players[:2]
    tournament, game = at_a_table(a, b)
    game.status = GameStatus.ABORTED
    game.save()
    game.seats.update(live=False)

    assert tournament_game_score(game_id=game.pk)

    for player in (a, b):
        scored = entry(tournament, player)
        assert (scored.score, scored.games, scored.game_id) == (0.0, 0, None)


def _play(tournament: Tournament, places: dict[Any, int]) -> Game:
    """Beat's pass seats the table, which then ends with these places and is scored."""
    tournaments_tick()
    game = Game.objects.get(tournament_id=tournament.pk, status=GameStatus.ACTIVE)
    finish(game, places)
    assert tournament_game_score(game_id=game.pk)
    return game


def test_a_voided_game_takes_back_its_points_and_the_fire_it_lit(
    players, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS = 0
    a, b = players[:2]
    tournament = arena(rated=False)
    for player in (a, b):
        tournament_join(tournament_id=tournament.pk, player=player)
    first = _play(tournament, {a: 1, b: 2})
    _play(tournament, {a: 1, b: 2})
    _play(tournament, {a: 1, b: 2})  # on fire: 2 points
    assert (entry(tournament, a).score, entry(tournament, a).streak) == (4.0, 3)
    queued: list[str] = []
    monkeypatch.setattr(tasks.tournament_game_unscore, "delay", queued.append)

    with django_capture_on_commit_callbacks(execute=True):
        game_void(game_id=first.pk, reason="collusion")

    assert queued == [str(first.pk)]  # an unrated game's void still reaches the tournament
    assert tournament_game_unscore(game_id=first.pk)
    a_now, b_now = entry(tournament, a), entry(tournament, b)
    # Two games stand: 1 + 1 (the second is no longer on fire), two firsts in a row.
    assert (a_now.score, a_now.games, a_now.firsts, a_now.streak) == (2.0, 2, 2, 2)
    assert (b_now.score, b_now.games, b_now.firsts) == (0.0, 2, 0)
    assert (
        a_now.score_at
        == Game.objects.filter(tournament_id=tournament.pk).latest("finished_at").finished_at
    )
    # The next game is on fire again (two outright firsts in a row still stand).
    _play(tournament, {a: 1, b: 2})
    assert entry(tournament, a).score == 4.0


def test_a_game_voided_before_its_points_counts_for_nothing(players, settings) -> None:
    a, b = players[:2]
    tournament, game = at_a_table(a, b)
    finish(game, {a: 1, b: 2})
    game_void(game_id=game.pk, reason="a bug")

    assert tournament_game_score(game_id=game.pk)

    for player in (a, b):
        assert (entry(tournament, player).score, entry(tournament, player).games) == (0.0, 0)
    assert not tournament_game_unscore(game_id=uuid4())  # no such voided game


def test_joining_a_running_tournament_from_another_table_is_in_game(players) -> None:
    a, b = players[:2]
    elsewhere = Game.objects.create(max_players=2, rules={})
    Seat.objects.create(game=elsewhere, seat=0, player=a)
    upcoming = arena(starts_at=timezone.now() + timedelta(hours=1))
    tournament_join(tournament_id=upcoming.pk, player=a)  # before the start: seated later

    running = arena()
    tournament_join(tournament_id=running.pk, player=b)
    tournaments_tick()
    with pytest.raises(ApplicationError) as refused:
        tournament_join(tournament_id=running.pk, player=a)
    assert (refused.value.code, refused.value.status) == ("in_game", 409)
    # A player paused at the tournament's own table comes back while it plays on.
    tournament_join(tournament_id=running.pk, player=players[2])
    tournaments_tick()
    tournament_pause(tournament_id=running.pk, player=b)
    assert not tournament_join(tournament_id=running.pk, player=b).paused


def test_a_pass_decides_the_tables_and_a_lost_making_is_made_by_the_next(players) -> None:
    tournament = arena()
    for player in players[:4]:
        tournament_join(tournament_id=tournament.pk, player=player)
    now = timezone.now()

    # The pass alone (the worker died before making its tables): two pending tables.
    assert _tournament_pass(tournament_id=tournament.pk, now=now) == 2
    pending = set(tournament.pending_tables.values_list("game_id", flat=True))
    assert len(pending) == 2
    assert set(tournament.participants.values_list("game_id", flat=True)) == {None}
    assert not Game.objects.filter(tournament_id=tournament.pk).exists()
    assert _tournament_pass(tournament_id=tournament.pk, now=now) == 0  # nobody is idle

    assert tournament_step(tournament_id=tournament.pk, now=now) == 2
    games = Game.objects.filter(tournament_id=tournament.pk)
    assert set(games.values_list("pk", flat=True)) == pending
    assert all(game.status == GameStatus.ACTIVE for game in games)
    for game in games:
        seated = {seat.player_id for seat in game.seats.all()}
        assert (
            set(tournament.participants.filter(game_id=game.pk).values_list("player_id", flat=True))
            == seated
        )
    assert not tournament.pending_tables.exists()
    assert tournament_tables_make(tournament_id=tournament.pk) == 0  # once


def test_a_table_whose_player_sat_down_elsewhere_meanwhile_is_not_made(players) -> None:
    a, b, c = players[:3]
    tournament = arena()
    for player in (a, b):
        tournament_join(tournament_id=tournament.pk, player=player)
    assert _tournament_pass(tournament_id=tournament.pk, now=timezone.now()) == 1
    private = Game.objects.create(max_players=2, rules={})
    Seat.objects.create(game=private, seat=0, player=b)

    assert tournament_tables_make(tournament_id=tournament.pk) == 0

    assert not Game.objects.filter(tournament_id=tournament.pk).exists()
    assert set(tournament.participants.values_list("game_id", flat=True)) == {None}
    assert not tournament.pending_tables.exists()
    # b is busy, so the next pass seats a with the next idle player.
    tournament_join(tournament_id=tournament.pk, player=c)
    assert tournaments_tick() == 1
    seated = Seat.objects.filter(game__tournament_id=tournament.pk).values_list(
        "player_id", flat=True
    )
    assert set(seated) == {a.pk, c.pk}


@pytest.mark.parametrize(("waited", "at_once"), [(0, False), (10, True)])
def test_a_game_s_end_seats_at_once_whoever_a_pass_passed_over(players, waited, at_once) -> None:
    tournament = arena()
    for player in players[:3]:
        tournament_join(tournament_id=tournament.pk, player=player)
    tournaments_tick()  # two of them sit down; the third waits alone
    game = Game.objects.get(tournament_id=tournament.pk)
    lone = tournament.participants.get(game_id=None)
    lone.idle_since = timezone.now() - timedelta(seconds=waited)
    lone.save()
    finish(game, {seat.player: seat.seat + 1 for seat in game.seats.all()})

    assert tournament_game_score(game_id=game.pk)

    games = Game.objects.filter(tournament_id=tournament.pk, status=GameStatus.ACTIVE)
    assert games.count() == at_once  # else the next beat's pass seats them
    if at_once:
        seated = {seat.player_id for seat in games.get().seats.all()}
        assert lone.player_id in seated
        assert len(seated) == 2


def test_a_cancelled_tournament_makes_none_of_its_pending_tables(players) -> None:
    tournament = arena()
    for player in players[:2]:
        tournament_join(tournament_id=tournament.pk, player=player)
    assert _tournament_pass(tournament_id=tournament.pk, now=timezone.now()) == 1

    tournament_cancel(tournament_id=tournament.pk)

    assert tournament_tables_make(tournament_id=tournament.pk) == 0
    assert not Game.objects.filter(tournament_id=tournament.pk).exists()
    assert not tournament.pending_tables.exists()


def test_an_arena_never_seats_together_two_players_of_whom_one_blocks_the_other(
    players, settings
) -> None:
    settings.YANIV_TOURNAMENT_REPEAT_WAIT_SECONDS = 0
    a, b, c = players[:3]
    block_create(player=b, other_id=a.pk)
    tournament = arena()
    for player in (a, b):
        tournament_join(tournament_id=tournament.pk, player=player)

    assert tournaments_tick() == 0  # they wait, however long

    tournament_join(tournament_id=tournament.pk, player=c)
    assert tournaments_tick() == 1
    game = Game.objects.get(tournament_id=tournament.pk)
    seated = {seat.player_id for seat in game.seats.all()}
    assert c.pk in seated
    assert {a.pk, b.pk} - seated  # one of them still waits


def test_leaving_a_tournament_game_pauses_at_once_and_a_comeback_stands(
    players, django_capture_on_commit_callbacks
) -> None:
    a, b = players[:2]
    tournament, game = at_a_table(a, b)

    with django_capture_on_commit_callbacks(execute=True):
        game_leave(game_id=game.pk, player=a)

    assert entry(tournament, a).paused  # at once, not when the game is scored
    assert entry(tournament, a).game_id == game.pk  # the CPU plays the seat on
    assert not entry(tournament, b).paused
    # Back while the CPU still plays their seat: the game's end does not pause them again.
    assert not tournament_join(tournament_id=tournament.pk, player=a).paused
    finish(game, {a: 2, b: 1})
    assert tournament_game_score(game_id=game.pk)
    back = entry(tournament, a)
    assert (back.paused, back.games, back.game_id) == (False, 1, None)


def test_a_leaver_whose_pause_was_lost_is_paused_when_the_game_is_scored(players) -> None:
    a, b = players[:2]
    tournament, game = at_a_table(a, b)
    game_leave(game_id=game.pk, player=a)  # its after-commit pause never runs here
    assert not entry(tournament, a).paused
    tournament_join(tournament_id=tournament.pk, player=a)  # not paused: nothing to come back from

    finish(game, {a: 2, b: 1})
    assert tournament_game_score(game_id=game.pk)

    assert entry(tournament, a).paused
    assert not entry(tournament, b).paused


def test_no_join_once_the_end_has_come_while_the_last_games_finish(players) -> None:
    a, b, c = players[:3]
    tournament, _ = at_a_table(a, b)
    Tournament.objects.filter(pk=tournament.pk).update(
        ends_at=timezone.now() - timedelta(seconds=1)
    )
    tournaments_tick()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING  # its game is still on

    with pytest.raises(ApplicationError) as refused:
        tournament_join(tournament_id=tournament.pk, player=c)

    assert (refused.value.code, refused.value.status) == ("not_open", 409)
    assert not Participant.objects.filter(tournament=tournament, player=c).exists()
    # Nor after staff ended one early, before its start.
    later = arena(starts_at=timezone.now() + timedelta(hours=1))
    tournament_end_now(tournament_id=later.pk)
    with pytest.raises(ApplicationError) as early:
        tournament_join(tournament_id=later.pk, player=c)
    assert early.value.code == "not_open"


def test_a_player_banned_from_the_queue_may_not_join(players) -> None:
    a, b = players[:2]
    game = Game.objects.create(max_players=2, rules={})
    offence = Offence.objects.create(player=a, game=game, kind="left")
    QueueBan.objects.create(
        player=a, offence=offence, level=1, until=timezone.now() + timedelta(hours=1)
    )
    tournament = arena()

    with pytest.raises(ApplicationError) as refused:
        tournament_join(tournament_id=tournament.pk, player=a)

    assert (refused.value.code, refused.value.status) == ("not_eligible", 403)
    assert not tournament.participants.exists()
    tournament_join(tournament_id=tournament.pk, player=b)  # the others may
    QueueBan.objects.update(until=timezone.now() - timedelta(seconds=1))
    tournament_join(tournament_id=tournament.pk, player=a)  # once it has run out, they may too


def test_a_schedule_out_of_bounds_is_logged_and_the_others_are_made(caplog) -> None:
    from tournaments.models import TournamentSchedule

    good = TournamentSchedule.objects.create(
        name="Hourly", every="hourly", minute=0, minutes=30, table_sizes=[2]
    )
    # Saved past the admin's form: too short, and a turn limit no arena may set.
    short = TournamentSchedule.objects.create(
        name="Short", every="hourly", minute=0, minutes=1, table_sizes=[2]
    )
    slow = TournamentSchedule.objects.create(
        name="Slow", every="daily", minute=0, hour=3, turn_seconds=3600, table_sizes=[2]
    )

    with caplog.at_level("ERROR", logger="tournaments.services"):
        tournaments_tick()  # the beat goes on

    assert list(Tournament.objects.values_list("schedule", flat=True)) == [good.pk]
    logged = [record.getMessage() for record in caplog.records]
    assert any(f"Schedule {short.pk} " in line for line in logged)
    assert any(f"Schedule {slow.pk} " in line for line in logged)
