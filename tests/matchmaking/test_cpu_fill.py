"""Seating a lone ticket with CPU players after YANIV_QUEUE_CPU_FILL_SECONDS: the pairing's
fills (pure), and the pass that seats them in a ranked game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import Player
from games import tasks
from games.models import Game, GameStatus
from games.services import play
from games.services.rating import game_rate
from matchmaking import services
from matchmaking.models import Ticket, TicketStatus
from matchmaking.pairing import Policy, pair
from matchmaking.pairing import Ticket as PairingTicket
from ratings import cpu
from ratings.models import Rating, RatingChange
from ratings.rating import Skill
from tests.factories import PlayerFactory
from tests.matchmaking.conftest import queue

CPUS = (("easy", -10.0), ("medium", -2.0), ("hard", 4.0), ("expert", 12.0))
FILL = Policy(cpu_fill_seconds=30.0, cpus=CPUS)


def ticket(key: str, rating: float = 0.0, sizes=(2, 3, 4, 5), waited: float = 0.0):
    return PairingTicket(key, rating, frozenset(sizes), waited)


# The pairing ---------------------------------------------------------------------------


def test_a_lone_ticket_is_filled_after_the_wait_and_not_before() -> None:
    assert pair([ticket("a", waited=29.9)], FILL) == []
    [match] = pair([ticket("a", rating=3.0, sizes=(2, 3), waited=30.0)], FILL)
    # Its largest size, with the CPUs rated nearest it (4 and -2 against 3).
    assert (match.tickets, match.cpus) == (("a",), ("hard", "medium"))
    assert match.spread == 6.0


def test_no_fill_when_it_is_turned_off() -> None:
    assert pair([ticket("a", waited=1e6)], Policy(cpus=CPUS)) == []


def test_a_fill_seats_each_cpu_once_at_the_largest_table() -> None:
    [match] = pair([ticket("a", sizes=(5,), waited=60.0)], FILL)
    assert sorted(match.cpus) == sorted(key for key, _ in CPUS)


def test_humans_who_can_play_together_are_not_filled() -> None:
    # Both waited past the fill, but they make a table of two together.
    [match] = pair([ticket("a", sizes=(2,), waited=90.0), ticket("b", sizes=(2,))], FILL)
    assert (set(match.tickets), match.cpus) == ({"a", "b"}, ())


def test_a_fill_never_takes_a_seat_a_human_could_have_had() -> None:
    # "a" waited long; "b", "c", "d" have just come and with "a" make a table of four.
    queue_ = [ticket("a", sizes=(4,), waited=45.0), *(ticket(k, sizes=(4,)) for k in "bcd")]
    [match] = pair(queue_, FILL)
    assert (set(match.tickets), match.cpus) == (set("abcd"), ())


@given(
    st.lists(
        st.tuples(
            st.floats(-20, 40),
            st.sets(st.sampled_from((2, 3, 4, 5)), min_size=1),
            st.floats(0, 120),
        ),
        max_size=12,
    )
)
def test_fills_take_only_what_the_human_pass_left(entries) -> None:
    tickets = [ticket(str(i), r, sizes, w) for i, (r, sizes, w) in enumerate(entries)]
    humans = pair(tickets, Policy())
    with_fill = pair(tickets, FILL)
    # The human tables are exactly the same; fills come after them, one waiting ticket each.
    assert with_fill[: len(humans)] == humans
    seated = {key for match in humans for key in match.tickets}
    for match in with_fill[len(humans) :]:
        [key] = match.tickets
        waiting = tickets[int(key)]
        assert key not in seated
        assert waiting.waited >= FILL.cpu_fill_seconds
        assert len(match.cpus) == max(waiting.sizes) - 1 == len(set(match.cpus))


# The pass ------------------------------------------------------------------------------


def later(seconds: float) -> Any:
    return timezone.now() + timedelta(seconds=seconds)


def run_pass(seconds: float) -> list[Any]:
    """The games a pass run `seconds` from now starts."""
    result = services.matchmaking_pass(now=later(seconds))
    assert result is not None
    return result.games


@pytest.fixture
def fill_after_30(settings, monkeypatch) -> None:
    settings.YANIV_QUEUE_CPU_FILL_SECONDS = 30
    # Calibrated starts (ordinals 10, 1, -1, 20) whatever ratings/cpu_start.json holds now.
    starts = {"easy": Skill(19, 3), "medium": Skill(10, 3), "hard": Skill(8, 3)}
    monkeypatch.setattr(cpu, "_starts", lambda: {**starts, "expert": Skill(29, 3)})


@pytest.mark.django_db
@pytest.mark.usefixtures("fill_after_30")
def test_the_pass_seats_a_lone_ticket_with_cpus_after_the_setting(
    sent, django_capture_on_commit_callbacks
) -> None:
    player = PlayerFactory.create()
    waiting = queue(player, [2, 3])
    assert run_pass(25) == []
    assert Ticket.objects.get(pk=waiting.pk).status == TicketStatus.SEARCHING

    with django_capture_on_commit_callbacks(execute=True):
        games = run_pass(31)

    [game_id] = games
    game = Game.objects.get(pk=game_id)
    assert (game.ranked, game.status, game.max_players) == (True, GameStatus.ACTIVE, 3)
    seats = list(game.seats.order_by("seat"))
    assert [seat.player_id for seat in seats if not seat.is_cpu] == [player.pk]
    levels = [seat.cpu_level for seat in seats if seat.is_cpu]
    # A new player's ordinal is 0: the levels rated nearest it are hard (-1) and medium (1).
    assert sorted(levels) == ["hard", "medium"]
    assert all(not seat.live for seat in seats if seat.is_cpu)
    waiting.refresh_from_db()
    assert (waiting.status, waiting.game_id, waiting.cpu_seats) == ("matched", game.pk, 2)
    [(_, message)] = [m for m in sent if m[1]["message"]["ticket"]["status"] == "matched"]
    assert message["message"]["ticket"]["cpu_seats"] == 2


@pytest.mark.django_db
@pytest.mark.usefixtures("fill_after_30")
def test_the_pass_seats_queued_humans_together_before_any_fill() -> None:
    first, second = PlayerFactory.create(), PlayerFactory.create()
    a = queue(first, [2])
    b = queue(second, [2])
    [game_id] = run_pass(60)
    game = Game.objects.get(pk=game_id)
    assert {seat.player_id for seat in game.seats.all()} == {first.pk, second.pk}
    assert not game.seats.filter(is_cpu=True).exists()
    assert [Ticket.objects.get(pk=t.pk).cpu_seats for t in (a, b)] == [0, 0]


@pytest.mark.django_db
def test_the_pass_never_fills_with_the_setting_at_zero() -> None:
    waiting = queue(PlayerFactory.create(), [2])
    assert run_pass(300) == []
    assert Ticket.objects.get(pk=waiting.pk).status == TicketStatus.SEARCHING


@pytest.mark.django_db
@pytest.mark.usefixtures("fill_after_30")
def test_a_filled_game_left_by_its_human_ends_at_once_and_rates_everyone(monkeypatch) -> None:
    monkeypatch.setattr("games.tasks.game_cpu_turn.apply_async", lambda *args, **options: None)
    monkeypatch.setattr("games.tasks.game_timeout.apply_async", lambda *args, **options: None)
    player = PlayerFactory.create()
    queue(player, [4])
    [game_id] = run_pass(31)
    play.game_leave(game_id=game_id, player=player)
    game = Game.objects.get(pk=game_id)
    assert game.status == GameStatus.ACTIVE
    # Nobody is left to play: the next CPU turn plays the game to its end.
    assert tasks.game_cpu_turn(str(game_id), game.seq) is True
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED

    assert game_rate(game_id=game_id) is True
    rated = {change.player_id for change in RatingChange.objects.filter(game_id=game_id)}
    cpus = set(Player.objects.filter(cpu_level__isnull=False).values_list("pk", flat=True))
    # The human who left still counts; the three CPU seats count as their levels' players.
    assert rated == {player.pk, *cpus}
    assert len(cpus) == 3
    assert Rating.objects.filter(player__in=cpus, games=1).count() == 3
