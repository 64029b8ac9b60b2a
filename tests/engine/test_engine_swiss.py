"""Swiss pairing and standings (batak.swiss): no repeat table-mates where that can be
avoided, computers filling short tables, the points and the tie-breaks."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from batak.swiss import (
    TableResult,
    default_rounds,
    met_counts,
    pair_round,
    pairing_cost,
    place_points,
    seat_table,
    standings,
    table_sizes,
)


def _splits(players: list[int], sizes: list[int]) -> list[list[list[int]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (brute force)."""
    if not sizes:
        return [[]]
    out = []
    first, rest = players[0], players[1:]
    for others in combinations(rest, sizes[0] - 1):
        table = [first, *others]
        left = [p for p in rest if p not in others]
        for tail in _splits(left, sizes[1:]):
            out.append([table, *tail])
    return out


def test_points_rounds_and_sizes() -> None:
    assert [place_points(p) for p in (1, 2, 3, 4)] == [3, 2, 1, 0]
    with pytest.raises(ValueError):
        place_points(5)
    assert [default_rounds(n) for n in (0, 1, 2, 3, 4, 5, 8, 9, 16, 17)] == [
        1, 1, 1, 2, 2, 3, 3, 4, 4, 5,
    ]  # fmt: skip
    assert table_sizes(8) == [4, 4]
    assert table_sizes(7) == [4, 3]
    assert table_sizes(9) == [3, 3, 3]
    assert table_sizes(10) == [4, 3, 3]
    assert table_sizes(5) == [3, 2]
    assert table_sizes(2) == [2]
    assert seat_table([7, 8, 9]) == (7, 8, 9, None)


def test_first_round_seats_the_ranking_in_order() -> None:
    tables = pair_round([1, 2, 3, 4, 5, 6, 7, 8])
    assert tables == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_second_round_of_sixteen_has_no_repeats() -> None:
    players = list(range(1, 17))
    first = pair_round(players)
    met = met_counts(first)
    rng = random.Random(5)
    ranked = players[:]
    rng.shuffle(ranked)
    second = pair_round(ranked, met)
    assert sorted(p for t in second for p in t) == players
    assert pairing_cost(second, ranked, met)[0] == 0
    for t in second:
        for a, b in combinations(t, 2):
            assert met[frozenset((a, b))] == 0


@pytest.mark.parametrize("seed", range(12))
def test_repeats_are_as_few_as_any_split_can_make(seed: int) -> None:
    """Eight (or seven) players after one or two random rounds: the pairing repeats no
    more meetings than the best of every possible split."""
    rng = random.Random(seed)
    n = 8 if seed % 2 == 0 else 7
    players = list(range(1, n + 1))
    history: list[list[int]] = []
    for _ in range(1 + seed % 2):
        order = players[:]
        rng.shuffle(order)
        history.extend(pair_round(order, met_counts(history)))
    met = met_counts(history)
    ranked = players[:]
    rng.shuffle(ranked)
    got = pair_round(ranked, met)
    best = min(pairing_cost(s, ranked, met)[0] for s in _splits(sorted(players), table_sizes(n)))
    assert pairing_cost(got, ranked, met)[0] == best


def test_the_third_round_of_eight_repeats_only_what_it_must() -> None:
    # after {1,2,3,4} {5,6,7,8} and {1,2,5,6} {3,4,7,8}, every split repeats 8 meetings
    history = [[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 5, 6], [3, 4, 7, 8]]
    met = met_counts(history)
    got = pair_round([1, 2, 3, 4, 5, 6, 7, 8], met)
    assert pairing_cost(got, list(range(1, 9)), met)[0] == 8
    assert {frozenset(t) for t in got} & {frozenset(t) for t in history} == set()


def test_a_short_table_is_filled_by_computers() -> None:
    tables = pair_round([10, 20, 30, 40, 50])
    assert [len(t) for t in tables] == [3, 2]
    assert [seat_table(t) for t in tables] == [(10, 20, 30, None), (40, 50, None, None)]
    with pytest.raises(ValueError):
        pair_round([1])
    with pytest.raises(ValueError):
        pair_round([1, 1, 2])


def test_standings_points_then_opponents_points_then_score() -> None:
    # two tables of round one
    r1 = [
        TableResult((1, 2, 3, 4), (1, 2, 3, 4), (30, 20, 10, 0)),
        TableResult((5, 6, 7, None), (2, 1, 3, 4), (20, 40, 5, -10)),
    ]
    lines = standings([1, 2, 3, 4, 5, 6, 7], r1)
    by = {s.player: s for s in lines}
    assert by[1].points == 3 and by[6].points == 3 and by[5].points == 2
    # 1 and 6 both have 3 points; 1's opponents have 2+1+0 = 3, 6's have 2+1 = 3 (the
    # computer counts nothing); the total score decides: 6 (40) before 1 (30)
    assert by[1].opponents_points == 3 and by[6].opponents_points == 3
    assert [s.player for s in lines][:2] == [6, 1]
    assert [s.rank for s in lines][:2] == [1, 2]
    assert by[7].tables == 1 and by[7].firsts == 0


def test_opponents_points_break_a_tie_before_the_score() -> None:
    results = [
        TableResult((1, 3, None, None), (1, 2, 3, 4), (10, 5, 0, 0)),
        TableResult((2, 4, None, None), (1, 2, 3, 4), (50, 5, 0, 0)),
        TableResult((3, 4, None, None), (1, 2, 3, 4), (10, 0, 0, 0)),
    ]
    lines = standings([1, 2, 3, 4], results)
    # 3 has 5 points, 4 has 4; 1 and 2 have 3: 1 met 3 (5 points), 2 met 4 (4
    # points), so 1 is before 2 though 2 scored more
    assert [s.player for s in lines] == [3, 4, 1, 2]
    assert [s.opponents_points for s in lines][2:] == [5, 4]


def test_equal_players_share_a_rank_and_withdrawn_are_marked() -> None:
    results = [TableResult((1, 2, None, None), (1, 1, 3, 3), (10, 10, 0, 0))]
    lines = standings([2, 1, 3], results, withdrawn={3})
    assert [(s.player, s.rank) for s in lines] == [(2, 1), (1, 1), (3, 3)]
    assert lines[2].withdrawn and lines[2].tables == 0
    with pytest.raises(ValueError):
        standings([1], results)
