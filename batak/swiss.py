"""Swiss tournaments of four-player tables: the pairing of a round and the standings.

Pure and deterministic: players are plain integers (Discord user ids in the bot), a
computer seat is ``None``. Nothing here knows a store, a clock or Discord.

Points
    Each table gives its people tournament points by their place at the table:
    1st 3, 2nd 2, 3rd 1, 4th 0 (:data:`PLACE_POINTS`). Equal match totals share the
    better place (and its points), as the match result does. A computer takes part in
    the placing but collects nothing.

Tie-breaks, in order (:func:`standings`)
    1. opponents' points (Buchholz): for every table a player sat at, the tournament
       points of the other people at it, as they stand now, added up (a computer
       counts 0);
    2. total game score: the player's match totals added up;
    3. first places: how many tables the player won;
    Players equal in all of these share a rank (listed in sign-up order).

Pairing (:func:`pair_round`)
    The people still in are ranked by the standings and cut into ``ceil(n / 4)``
    tables as even as possible (:func:`table_sizes`: full tables first, a short one
    is filled by computers). Among all such splits the pairing looks for one where
    nobody meets a person they already shared a table with (each repeated pair
    costs, counted once per earlier meeting), and then for tables of players close in
    the ranking (the leaders together). It starts from a greedy split down the
    ranking and improves it by swapping two players of different tables while that
    lowers the cost.

Rounds (:func:`default_rounds`)
    By default ``ceil(log2(n))`` rounds for ``n`` players (at least one): the number
    of halvings that separates a single leader in a two-player Swiss, more than
    enough with four at a table. The organiser may choose another number.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

TABLE_SIZE: Final = 4
PLACE_POINTS: Final = (3, 2, 1, 0)
"""Tournament points for 1st, 2nd, 3rd and 4th place at a table."""
MAX_ROUNDS: Final = 12

Pair = frozenset[int]


def place_points(placement: int) -> int:
    """The tournament points of a place at a table (1 = best)."""
    if not 1 <= placement <= TABLE_SIZE:
        raise ValueError(f"a place at a table is 1 to {TABLE_SIZE}, not {placement}")
    return PLACE_POINTS[placement - 1]


def default_rounds(players: int) -> int:
    """Rounds when the organiser chose none: ``ceil(log2(players))``, at least 1."""
    if players < 2:
        return 1
    return min(MAX_ROUNDS, max(1, math.ceil(math.log2(players))))


def table_sizes(players: int) -> list[int]:
    """How many people sit at each table of a round: ``ceil(players / 4)`` tables, as
    even as possible, the fuller ones first (computers fill the rest of a table)."""
    if players < 1:
        return []
    tables = -(-players // TABLE_SIZE)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


@dataclass(frozen=True, slots=True)
class TableResult:
    """One finished table of a round: who sat where (None: a computer), each seat's
    place (1 = best) and match total."""

    players: tuple[int | None, ...]
    placements: tuple[int, ...]
    totals: tuple[int, ...]

    def __post_init__(self) -> None:
        if not len(self.players) == len(self.placements) == len(self.totals) == TABLE_SIZE:
            raise ValueError("a table result has four seats")

    def people(self) -> list[int]:
        return [p for p in self.players if p is not None]


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    player: int
    rank: int
    """1 = leader; players equal in points and every tie-break share a rank."""
    points: int
    opponents_points: int
    score: int
    firsts: int
    tables: int
    withdrawn: bool = False

    def key(self) -> tuple[int, int, int, int]:
        """What the ranking compares, best first when sorted in reverse."""
        return (self.points, self.opponents_points, self.score, self.firsts)


def met_counts(tables: Iterable[Sequence[int | None]]) -> Counter[Pair]:
    """How many times each pair of people shared a table."""
    met: Counter[Pair] = Counter()
    for table in tables:
        people = [p for p in table if p is not None]
        for a, b in combinations(people, 2):
            met[frozenset((a, b))] += 1
    return met


def standings(
    players: Sequence[int], results: Iterable[TableResult], withdrawn: Collection[int] = ()
) -> list[Standing]:
    """The standings of ``players`` (in sign-up order) after ``results``: by points,
    then opponents' points, total score and first places; equals share a rank and keep
    sign-up order. Withdrawn players keep their line (marked)."""
    known = set(players)
    points: Counter[int] = Counter()
    score: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    played: Counter[int] = Counter()
    mates: dict[int, list[int]] = {p: [] for p in players}
    done = list(results)
    for r in done:
        for seat, p in enumerate(r.players):
            if p is None:
                continue
            if p not in known:
                raise ValueError(f"player {p} of a result is not in the tournament")
            points[p] += place_points(r.placements[seat])
            score[p] += r.totals[seat]
            firsts[p] += r.placements[seat] == 1
            played[p] += 1
            mates[p].extend(q for q in r.players if q is not None and q != p)
    lines = [
        Standing(
            player=p,
            rank=0,
            points=points[p],
            opponents_points=sum(points[q] for q in mates[p]),
            score=score[p],
            firsts=firsts[p],
            tables=played[p],
            withdrawn=p in withdrawn,
        )
        for p in players
    ]
    order = {p: i for i, p in enumerate(players)}
    lines.sort(key=lambda s: (tuple(-k for k in s.key()), order[s.player]))
    ranked: list[Standing] = []
    for i, line in enumerate(lines):
        rank = ranked[-1].rank if ranked and ranked[-1].key() == line.key() else i + 1
        ranked.append(
            Standing(
                line.player,
                rank,
                line.points,
                line.opponents_points,
                line.score,
                line.firsts,
                line.tables,
                line.withdrawn,
            )
        )
    return ranked


def _repeats(table: Sequence[int], met: Mapping[Pair, int]) -> int:
    return sum(met.get(frozenset((a, b)), 0) for a, b in combinations(table, 2))


def _spread(table: Sequence[int], rank: Mapping[int, int]) -> int:
    return sum((rank[a] - rank[b]) ** 2 for a, b in combinations(table, 2))


def pairing_cost(
    tables: Sequence[Sequence[int]], ranked: Sequence[int], met: Mapping[Pair, int]
) -> tuple[int, int]:
    """(repeated table-mates, ranking spread) of a pairing: lower is better, the
    repeats first."""
    rank = {p: i for i, p in enumerate(ranked)}
    return (
        sum(_repeats(t, met) for t in tables),
        sum(_spread(t, rank) for t in tables),
    )


def pair_round(ranked: Sequence[int], met: Mapping[Pair, int] | None = None) -> list[list[int]]:
    """The tables of a round for the people in ``ranked`` (best first), each table's
    people best first; ``met``: how often each pair already shared a table
    (:func:`met_counts`). Fewer people than four at a table: the computers fill it."""
    if len(set(ranked)) != len(ranked):
        raise ValueError("a player is listed twice")
    if len(ranked) < 2:
        raise ValueError("a round needs at least two players")
    seen: Mapping[Pair, int] = met or {}
    rank = {p: i for i, p in enumerate(ranked)}
    # a greedy start: down the ranking, each table takes the best-placed players who
    # repeat the fewest meetings with those already seated at it
    left = list(ranked)
    tables: list[list[int]] = []
    for size in table_sizes(len(ranked)):
        table = [left.pop(0)]
        while len(table) < size:
            best = min(
                range(len(left)),
                key=lambda i: (sum(seen.get(frozenset((left[i], q)), 0) for q in table), i),
            )
            table.append(left.pop(best))
        tables.append(table)

    def cost(t: Sequence[int]) -> tuple[int, int]:
        return (_repeats(t, seen), _spread(t, rank))

    # then swaps of two players of different tables while one lowers the cost
    costs = [cost(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    ta, tb = list(tables[a]), list(tables[b])
                    ta[i], tb[j] = tb[j], ta[i]
                    ca, cb = cost(ta), cost(tb)
                    before = _add(costs[a], costs[b])
                    if _add(ca, cb) < before:
                        tables[a], tables[b] = ta, tb
                        costs[a], costs[b] = ca, cb
                        improved = True
    for t in tables:
        t.sort(key=rank.__getitem__)
    tables.sort(key=lambda t: rank[t[0]])
    return tables


def _add(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    return (x[0] + y[0], x[1] + y[1])


def seat_table(people: Sequence[int]) -> tuple[int | None, ...]:
    """A table's four seats: its people, then computers."""
    if not 1 <= len(people) <= TABLE_SIZE:
        raise ValueError(f"a table seats 1 to {TABLE_SIZE} people, not {len(people)}")
    return (*people, *([None] * (TABLE_SIZE - len(people))))
