"""The ranked queue never seats together two players of whom one blocks the other: the pairing
(pure) keeps such tickets apart, a ticket that could only sit with one it is kept from waits,
and the CPU fill still serves it; and the pass reads the blocks, whichever way they go."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest
from django.core.cache import cache
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games.models import Game, Seat
from matchmaking import services
from matchmaking.models import Ticket, TicketStatus
from matchmaking.pairing import Policy, pair
from matchmaking.pairing import Ticket as PairingTicket
from social.services import block_create
from tests.factories import PlayerFactory
from tests.matchmaking.conftest import queue

LONG = 200.0
CPUS = (("easy", -10.0), ("medium", -2.0), ("hard", 4.0), ("expert", 12.0))


def ticket(key: str, rating: float = 0.0, sizes=(2, 3, 4, 5), waited: float = LONG):
    return PairingTicket(key, rating, frozenset(sizes), waited)


def apart(*pairs: str) -> set[frozenset[str]]:
    return {frozenset(pair) for pair in pairs}


def tables(matches) -> list[set[str]]:
    return [set(match.tickets) for match in matches]


# The pairing ---------------------------------------------------------------------------


def test_two_kept_apart_never_make_a_table_of_two() -> None:
    two = [ticket("a", sizes=[2]), ticket("b", sizes=[2])]
    assert tables(pair(two)) == [{"a", "b"}]  # without the block they would
    assert pair(two, apart=apart("ab")) == []


def test_a_third_ticket_sits_with_one_of_them_and_the_other_waits() -> None:
    three = [ticket("a", 0.0, [2]), ticket("b", 0.1, [2]), ticket("c", 0.2, [2])]
    [table] = tables(pair(three, apart=apart("ac", "bc")))
    assert table == {"a", "b"}
    [table] = tables(pair(three, apart=apart("ab")))
    assert table in ({"a", "c"}, {"b", "c"})


def test_a_window_leaves_out_one_of_a_kept_apart_pair() -> None:
    # Five who accept only four: one table, and it holds at most one of "b" and "c".
    five = [ticket(key, rating=i / 10, sizes=[4]) for i, key in enumerate("abcde")]
    assert tables(pair(five)) == [set("abcd")]
    [table] = tables(pair(five, apart=apart("bc")))
    assert len(table) == 4
    assert not {"b", "c"} <= table


def test_the_cpu_fill_still_serves_tickets_that_could_only_sit_together() -> None:
    fill = Policy(cpu_fill_seconds=30.0, cpus=CPUS)
    two = [ticket("a", sizes=[2], waited=10), ticket("b", sizes=[2], waited=10)]
    assert pair(two, fill, apart=apart("ab")) == []  # before the fill: they wait
    later = [ticket("a", sizes=[2], waited=31), ticket("b", sizes=[2], waited=31)]
    matches = pair(later, fill, apart=apart("ab"))
    assert sorted(match.tickets for match in matches) == [("a",), ("b",)]
    assert all(len(match.cpus) == 1 for match in matches)


keys = st.sampled_from("abcdefghij")


@given(
    st.lists(
        st.tuples(st.floats(-20, 40), st.sets(st.sampled_from((2, 3, 4, 5)), min_size=1)),
        min_size=2,
        max_size=10,
    ),
    st.sets(st.tuples(keys, keys).filter(lambda pair_: pair_[0] != pair_[1]), max_size=12),
)
def test_no_table_ever_holds_a_pair_kept_apart(entries, pairs) -> None:
    queue_ = [
        ticket("abcdefghij"[index], rating, sizes) for index, (rating, sizes) in enumerate(entries)
    ]
    kept = {frozenset(pair_) for pair_ in pairs}
    fill = Policy(cpu_fill_seconds=30.0, cpus=CPUS)
    for match in pair(queue_, fill, apart=kept):
        seated = set(match.tickets)
        assert not any(pair_ <= seated for pair_ in kept)


# The pass ------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _no_pass_request_pending() -> None:
    cache.delete(services.TRIGGER_FLAG)


def run_pass(seconds: float) -> list[UUID]:
    result = services.matchmaking_pass(now=timezone.now() + timedelta(seconds=seconds))
    assert result is not None
    return result.games


@pytest.mark.django_db
@pytest.mark.parametrize("blocker", [0, 1])
def test_the_pass_never_seats_a_blocked_pair_together_and_fills_them_apart(
    settings, blocker
) -> None:
    settings.YANIV_QUEUE_CPU_FILL_SECONDS = 0
    pair_ = [PlayerFactory.create(), PlayerFactory.create()]
    block_create(player=pair_[blocker], other_id=pair_[1 - blocker].pk)
    tickets = [queue(player, [2]) for player in pair_]

    assert run_pass(120) == []
    assert [Ticket.objects.get(pk=t.pk).status for t in tickets] == [TicketStatus.SEARCHING] * 2

    settings.YANIV_QUEUE_CPU_FILL_SECONDS = 30
    games = run_pass(120)

    assert len(games) == 2
    for game in Game.objects.filter(pk__in=games):
        humans = [seat.player_id for seat in Seat.objects.filter(game=game, is_cpu=False)]
        assert len(humans) == 1
    assert [Ticket.objects.get(pk=t.pk).status for t in tickets] == [TicketStatus.MATCHED] * 2


@pytest.mark.django_db
def test_the_pass_seats_the_others_of_a_queue_with_a_block(settings) -> None:
    settings.YANIV_QUEUE_CPU_FILL_SECONDS = 0
    alice, bob, carol = (PlayerFactory.create() for _ in range(3))
    block_create(player=alice, other_id=bob.pk)
    for player in (alice, bob, carol):
        queue(player, [2])

    [game_id] = run_pass(120)

    seated = set(Seat.objects.filter(game_id=game_id).values_list("player_id", flat=True))
    assert carol.pk in seated
    assert seated in ({alice.pk, carol.pk}, {bob.pk, carol.pk})
