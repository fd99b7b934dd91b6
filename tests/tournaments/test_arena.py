"""The arena's pure core: a pairing pass's tables, a game's points, on fire, the standings."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.arena import (
    Idle,
    on_fire,
    outright_first,
    points,
    scores,
    seat,
    split,
    standings_order,
    standings_ranks,
    tally,
)

ALL = frozenset({2, 3, 4, 5})
WAIT = 15.0
LONG = 20.0  # idle past WAIT


def idle(key: str, rank: int, waited: float = 0.0, previous: Iterable[str] = ()) -> Idle:
    return Idle(key, rank, waited, frozenset(previous))


def table_of(keys: str, waited: float = 0.0, first_rank: int = 1) -> list[Idle]:
    """Players just back from one table together, at consecutive ranks."""
    return [
        idle(key, first_rank + index, waited, set(keys) - {key}) for index, key in enumerate(keys)
    ]


def strangers(keys: str, first_rank: int = 1, waited: float = 0.0) -> list[Idle]:
    return [idle(key, first_rank + index, waited) for index, key in enumerate(keys)]


def left_over(players: Sequence[Idle], tables: list[tuple[str, ...]]) -> set[str]:
    seated = {key for table in tables for key in table}
    return {player.key for player in players} - seated


# The split of a pass into table sizes.


def test_the_split_leaves_as_few_over_as_possible_then_takes_the_largest_tables() -> None:
    assert split(7, frozenset({2, 3})) == (3, 2, 2)
    assert split(7, frozenset({4})) == (4,)
    assert split(1, ALL) == ()
    assert split(0, ALL) == ()
    assert split(12, frozenset({3, 4, 5})) == (5, 4, 3)
    assert split(6, frozenset({2, 5})) == (2, 2, 2)  # not 5 with one left over
    assert split(9, frozenset({2, 5})) == (5, 2, 2)
    assert split(11, frozenset({4, 5})) == (5, 5)  # 11 is no sum of 4s and 5s
    assert split(13, ALL) == (5, 5, 3)


def test_seven_at_twos_and_threes_all_sit() -> None:
    tables = seat(strangers("abcdefg"), frozenset({2, 3}), WAIT)

    assert [len(table) for table in tables] == [3, 2, 2]
    assert left_over(strangers("abcdefg"), tables) == set()


def test_seven_at_fours_leave_three_who_waited_least() -> None:
    players = [
        idle(key, rank, waited)
        for key, rank, waited in zip("abcdefg", range(1, 8), [9, 1, 8, 2, 7, 3, 6], strict=True)
    ]

    tables = seat(players, frozenset({4}), WAIT)

    assert tables == [("a", "c", "e", "g")]


def test_a_lone_player_waits() -> None:
    assert seat([idle("a", 1, LONG)], ALL, WAIT) == []
    assert seat([], ALL, WAIT) == []
    assert seat(strangers("ab"), frozenset({3}), WAIT) == []


def test_sizes_must_be_tables_and_keys_unique() -> None:
    with pytest.raises(ValueError, match="2 or more"):
        seat(strangers("ab"), frozenset({1, 2}), WAIT)
    with pytest.raises(ValueError, match="2 or more"):
        seat(strangers("ab"), frozenset(), WAIT)
    with pytest.raises(ValueError, match="twice"):
        seat([idle("a", 1), idle("a", 2)], ALL, WAIT)


# Rank neighbourhood.


def test_players_of_near_rank_sit_together() -> None:
    players = strangers("abcdefgh")
    shuffled = list(players)
    random.Random(3).shuffle(shuffled)

    assert seat(players, frozenset({4}), WAIT) == [("a", "b", "c", "d"), ("e", "f", "g", "h")]
    assert seat(shuffled, frozenset({4}), WAIT) == seat(players, frozenset({4}), WAIT)


def test_the_largest_table_is_at_the_top_of_the_standings() -> None:
    tables = seat(strangers("abcdefghijkl"), frozenset({3, 4, 5}), WAIT)

    assert tables == [("a", "b", "c", "d", "e"), ("f", "g", "h", "i"), ("j", "k", "l")]


def test_equal_ranks_go_to_the_longest_waiter_first() -> None:
    players = [idle("a", 1, 1.0), idle("b", 1, 5.0), idle("c", 2, 0.0), idle("d", 2, 9.0)]

    assert seat(players, frozenset({2}), WAIT) == [("b", "a"), ("d", "c")]


# Repeats of a previous table.


def test_two_who_just_played_each_other_sit_apart() -> None:
    players = table_of("ab") + strangers("cdefgh", first_rank=3)

    tables = seat(players, frozenset({4}), WAIT)

    assert tables == [("a", "c", "d", "e"), ("b", "f", "g", "h")]


def test_the_next_neighbour_in_rank_takes_the_repeat_s_seat() -> None:
    # a and b played together; a table of 2 for a takes c, the next who is no repeat.
    players = table_of("ab") + strangers("cd", first_rank=3)

    assert seat(players, frozenset({2}), WAIT) == [("a", "c"), ("b", "d")]


def test_smaller_tables_rather_than_a_repeat() -> None:
    # a, b, c, d played together; e..h did not. At 4s, one table would repeat; at 2s, none.
    players = [
        idle(key, rank, 0.0, set("abcd") - {key} if key in "abcd" else ())
        for key, rank in zip("aebfcgdh", range(1, 9), strict=True)
    ]

    tables = seat(players, frozenset({2, 3, 4}), WAIT)

    assert tables == [("a", "e"), ("b", "f"), ("c", "g"), ("d", "h")]


def test_a_table_just_finished_waits_rather_than_replaying() -> None:
    assert seat(table_of("abcd"), ALL, WAIT) == []
    assert seat(table_of("ab", waited=WAIT - 0.1), ALL, WAIT) == []


def test_a_previous_partner_counts_even_after_they_played_again() -> None:
    # b has played another game since (their previous table has changed), a has not.
    players = [idle("a", 1, 3.0, {"b"}), idle("b", 2, 1.0, {"x"})]

    assert seat(players, ALL, WAIT) == []


def test_previous_partners_not_idle_are_no_obstacle() -> None:
    players = [idle("a", 1, 0.0, {"x", "y"}), idle("b", 2, 0.0, {"z"})]

    assert seat(players, ALL, WAIT) == [("a", "b")]


def test_after_the_wait_the_same_table_plays_again_rather_than_strand_anyone() -> None:
    # Four who waited long, all of one previous table: they are seated, at two tables of two
    # (two repeated pairs) rather than one of four (six).
    players = table_of("abcd", waited=LONG)

    assert seat(players, ALL, WAIT) == [("a", "b"), ("c", "d")]
    assert seat(players, frozenset({4}), WAIT) == [("a", "b", "c", "d")]


def test_one_long_waiter_is_enough_to_let_a_repeat() -> None:
    players = [idle("a", 1, LONG, {"b"}), idle("b", 2, 0.0, {"a"})]

    assert seat(players, frozenset({2}), WAIT) == [("a", "b")]


def test_a_long_waiter_repeats_only_when_there_is_no_other_seat() -> None:
    # a waited long and played b; c is new to both. a sits with c; b, who has not waited
    # long, is the one left over.
    players = [idle("a", 1, LONG, {"b"}), idle("b", 2, 0.0, {"a"}), idle("c", 3)]

    assert seat(players, frozenset({2}), WAIT) == [("a", "c")]


def test_the_long_waiter_is_not_the_one_left_over() -> None:
    # a and b repeat; c is new. b has waited long, a has not: b sits, with c.
    players = [idle("a", 1, 2.0, {"b"}), idle("b", 2, LONG, {"a"}), idle("c", 3, 5.0)]

    assert seat(players, frozenset({2}), WAIT) == [("b", "c")]


def test_a_large_arena_of_tables_just_finished_mixes_them() -> None:
    # Ten tables of four just finished, their players next to each other in the standings.
    players: list[Idle] = []
    for number in range(10):
        keys = [f"t{number}p{seat_}" for seat_ in range(4)]
        players += [
            idle(key, 4 * number + index + 1, 1.0, set(keys) - {key})
            for index, key in enumerate(keys)
        ]
    previous = {player.key: player.previous for player in players}

    tables = seat(players, frozenset({4}), WAIT)

    assert len(tables) == 10
    for table in tables:
        assert not any(b in previous[a] for a in table for b in table)
    # Each table takes one of four neighbouring tables of before: none spans half the field.
    ranks = {player.key: player.rank for player in players}
    assert max(ranks[table[-1]] - ranks[table[0]] for table in tables) <= 20


def test_a_table_that_cannot_be_mended_waits_and_the_rest_are_seated() -> None:
    # Four who just played together at the bottom of twelve, at three tables of four: one
    # table would have two of them, so eight sit (at most one of the four a table) and four wait.
    players = strangers("efghijkl") + table_of("abcd", first_rank=9)

    tables = seat(players, frozenset({4}), WAIT)

    assert len(tables) == 2
    for table in tables:
        assert len(set(table) & set("abcd")) <= 1
    assert len(left_over(players, tables)) == 4


def test_in_a_large_pool_too_long_waiters_repeat_rather_than_wait() -> None:
    # Five of one previous table among ten, at two tables of five: one table has three of them.
    for waited, seated in ((LONG, 10), (0.0, 5)):
        players = table_of("abcde", waited=waited) + strangers("fghij", first_rank=6)

        tables = seat(players, frozenset({5}), WAIT)

        assert sum(len(table) for table in tables) == seated


# Properties.


@st.composite
def pools(draw: st.DrawFn, most: int = 30) -> tuple[list[Idle], frozenset[int]]:
    count = draw(st.integers(0, most))
    keys = [f"p{index}" for index in range(count)]
    order = draw(st.permutations(keys))
    previous: dict[str, set[str]] = {key: set() for key in keys}
    back = order[: draw(st.integers(0, count))]
    while back:
        size = min(len(back), draw(st.integers(2, 5)))
        table, back = back[:size], back[size:]
        for key in table:
            previous[key] = set(table) - {key}
    waits = st.sampled_from([0.0, 3.0, 10.0, WAIT, LONG])
    players = [
        idle(key, draw(st.integers(1, max(1, count))), draw(waits), previous[key]) for key in keys
    ]
    sizes = draw(st.sets(st.sampled_from(sorted(ALL)), min_size=1).map(frozenset))
    return players, sizes


def check(players: list[Idle], sizes: frozenset[int], tables: list[tuple[str, ...]]) -> None:
    by_key = {player.key: player for player in players}
    seated = [key for table in tables for key in table]
    assert len(seated) == len(set(seated)), "nobody sits twice"
    assert set(seated) <= set(by_key)
    for table in tables:
        assert len(table) in sizes
        for index, a in enumerate(table):
            for b in table[index + 1 :]:
                pa, pb = by_key[a], by_key[b]
                repeat = b in pa.previous or a in pb.previous
                assert not repeat or max(pa.idle_seconds, pb.idle_seconds) >= WAIT


@settings(max_examples=300, deadline=None)
@given(pools())
def test_every_table_is_allowed_and_nobody_sits_twice(
    pool: tuple[list[Idle], frozenset[int]],
) -> None:
    players, sizes = pool
    tables = seat(players, sizes, WAIT)

    check(players, sizes, tables)
    shuffled = list(players)
    random.Random(0).shuffle(shuffled)
    assert seat(shuffled, sizes, WAIT) == tables


@settings(max_examples=200, deadline=None)
@given(pools(), st.booleans())
def test_with_no_repeat_forbidden_the_left_over_is_the_fewest(
    pool: tuple[list[Idle], frozenset[int]], fresh: bool
) -> None:
    players, sizes = pool
    if fresh:  # nobody played anybody here
        players = [idle(p.key, p.rank, p.idle_seconds) for p in players]
    else:  # everybody waited long enough to be let
        players = [idle(p.key, p.rank, LONG, p.previous) for p in players]

    tables = seat(players, sizes, WAIT)

    check(players, sizes, tables)
    assert len(left_over(players, tables)) == len(players) - sum(split(len(players), sizes))


def fewest_left(players: list[Idle], sizes: frozenset[int]) -> int:
    """By brute force: the fewest players any seating with no forbidden repeat leaves over."""

    def forbidden(a: Idle, b: Idle) -> bool:
        repeat = b.key in a.previous or a.key in b.previous
        return repeat and max(a.idle_seconds, b.idle_seconds) < WAIT

    def best(rest: list[Idle]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        found = 1 + best(others)
        for size in sizes:
            for mask in range(1 << len(others)):
                chosen = [p for bit, p in enumerate(others) if mask >> bit & 1]
                if len(chosen) != size - 1:
                    continue
                group = [first, *chosen]
                if any(forbidden(a, b) for i, a in enumerate(group) for b in group[i + 1 :]):
                    continue
                found = min(found, best([p for p in others if p not in chosen]))
        return found

    return best(players)


@settings(max_examples=150, deadline=None)
@given(pools(most=7))
def test_a_small_pool_leaves_the_fewest_over_any_allowed_seating_could(
    pool: tuple[list[Idle], frozenset[int]],
) -> None:
    players, sizes = pool

    tables = seat(players, sizes, WAIT)

    check(players, sizes, tables)
    assert len(left_over(players, tables)) == fewest_left(players, sizes)


# Points, on fire and the standings.


def test_a_player_scores_the_players_finished_behind() -> None:
    assert points([1, 2, 3]) == [2, 1, 0]
    assert points([3, 1, 2, 4, 5]) == [2, 4, 3, 1, 0]
    assert points([2, 1]) == [0, 1]


def test_players_tied_share_the_points_of_their_places() -> None:
    assert points([1, 1, 3]) == [1.5, 1.5, 0]
    assert points([1, 1, 1]) == [1, 1, 1]
    assert points([1, 2, 2, 4]) == [3, 1.5, 1.5, 0]
    assert points([1, 2, 2, 2]) == [3, 1, 1, 1]
    assert points([3, 1, 1]) == [0, 1.5, 1.5]


@given(st.lists(st.integers(1, 5), min_size=2, max_size=5))
def test_a_table_shares_out_as_many_points_as_it_has_pairs(finish: list[int]) -> None:
    # Places by standard competition ranking of any totals.
    places = [1 + sum(other < mine for other in finish) for mine in finish]
    n = len(places)

    assert sum(points(places)) == n * (n - 1) / 2


def test_on_fire_doubles_a_player_s_points() -> None:
    assert scores([1, 2, 3], [False, True, False]) == [2, 2, 0]
    assert scores([1, 1, 3], [True, False, False]) == [3, 1.5, 0]
    with pytest.raises(ValueError, match="a seat"):
        scores([1, 2], [True])


def test_an_outright_first_is_first_alone() -> None:
    assert outright_first([1, 2, 3], 0)
    assert not outright_first([1, 1, 3], 0)
    assert not outright_first([2, 1], 0)


def test_two_outright_firsts_in_a_row_set_a_player_on_fire() -> None:
    assert on_fire([True, True])
    assert on_fire([False, True, True])
    assert not on_fire([True])
    assert not on_fire([])
    assert not on_fire([True, False])
    assert not on_fire([True, True, False])
    assert not on_fire([True, False, True])


def test_the_standings_go_by_score_then_firsts_then_who_reached_it_first() -> None:
    rows = {
        "late": (10.0, 1, 5.0),
        "firsts": (10.0, 2, 9.0),
        "top": (12.0, 0, 20.0),
        "early": (10.0, 1, 3.0),
        "early too": (10.0, 1, 3.0),
    }
    ordered = sorted(rows, key=lambda name: (standings_order(*rows[name]), name))

    assert ordered == ["top", "firsts", "early", "early too", "late"]
    keys = [standings_order(*rows[name]) for name in ordered]
    assert standings_ranks(keys) == [1, 2, 3, 3, 5]


@pytest.mark.parametrize("tables", [(5, 5), (5, 4), (5, 5, 5), (4, 3, 2), (5, 3, 2), (5, 5, 3, 2)])
def test_players_back_from_a_few_tables_are_seated_at_smaller_ones(tables) -> None:
    """Found by bench/tournament.py: more than EXACT_LIMIT players, all just back from a few
    tables, were all left waiting though smaller tables could seat them without a repeat."""
    idle = []
    rank = 0
    for number, size in enumerate(tables):
        keys = [f"t{number}p{seat}" for seat in range(size)]
        for key in keys:
            rank += 1
            others = frozenset(k for k in keys if k != key)
            idle.append(Idle(key, rank, 1.0, others))
    seated = seat(idle, frozenset({2, 3, 4, 5}), repeat_wait=15)
    groups = {player.key: player.key.split("p")[0] for player in idle}
    assert seated
    for table in seated:
        assert len({groups[key] for key in table}) == len(table)  # nobody with a table-mate
    # Everyone who can sit with a stranger does: at most the players of the largest group's
    # surplus wait.
    largest = max(tables)
    assert sum(len(table) for table in seated) >= min(len(idle), 2 * (len(idle) - largest))


# One game of a player: every seat's place (ties allowed) and the player's seat.
game_results = st.integers(2, 5).flatmap(
    lambda size: st.tuples(
        st.lists(st.integers(1, size), min_size=size, max_size=size), st.integers(0, size - 1)
    )
)


@given(st.lists(game_results, max_size=12))
def test_a_tally_adds_up_the_games_as_they_were_scored_one_by_one(games) -> None:
    """`tally` (a voided game's players added up again) equals scoring each game as it ends:
    on fire by the player's previous outright firsts (`on_fire`), points doubled then."""
    score, last = 0.0, None
    history: list[bool] = []
    for index, (places, at) in enumerate(games):
        hot = [on_fire(history) if seat == at else False for seat in range(len(places))]
        gained = scores(places, hot)[at]
        if gained:
            score, last = score + gained, index
        history.append(outright_first(places, at))

    result = tally(games)

    assert result.score == score
    assert (result.games, result.firsts, result.scored) == (len(games), sum(history), last)
    trailing = [False, *history][::-1].index(False)  # outright firsts at the end
    assert result.streak == trailing


def test_a_tally_of_three_outright_wins_doubles_the_third() -> None:
    assert tally([([1, 2], 0)] * 3).score == 1 + 1 + 2
    assert tally([([1, 2], 0), ([2, 1], 0), ([1, 2], 0)]).streak == 1
    assert tally([]).scored is None


@given(pools(), st.data())
def test_players_kept_apart_never_sit_together_however_long_they_wait(pool, data) -> None:
    players, sizes = pool
    keys = [player.key for player in players]
    pairs = st.sets(st.tuples(st.sampled_from(keys), st.sampled_from(keys)), max_size=8)
    apart = {frozenset(pair) for pair in data.draw(pairs) if pair[0] != pair[1]} if keys else set()
    long = [Idle(p.key, p.rank, LONG, p.previous) for p in players]  # every repeat allowed

    for pool_ in (players, long):
        tables = seat(pool_, sizes, WAIT, apart=apart)
        check(pool_, sizes, tables)
        for table in tables:
            assert not any(frozenset(pair) in apart for pair in combinations(table, 2))


def test_two_kept_apart_with_nobody_else_wait_and_sit_down_with_a_third() -> None:
    a, b = idle("a", 1, LONG), idle("b", 2, LONG)
    assert seat([a, b], ALL, WAIT, apart={frozenset("ab")}) == []
    assert seat([a, b, idle("c", 3)], frozenset({2}), WAIT, apart={frozenset("ab")}) in (
        [("a", "c")],
        [("b", "c")],
    )
