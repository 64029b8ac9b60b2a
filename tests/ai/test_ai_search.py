"""The fast simulation agrees with the engine, and the exact search is exact."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from batak.ai.sim import Solver, Table, legal_mask, rollout, trick_best, utility_table
from batak.cards import SUIT_MASKS
from batak.deal import Deal, Phase
from batak.players import make_player
from batak.rules import preset

Utility = Callable[[Sequence[int]], tuple[float, float, float, float]]


def _endgame(rules_name: str, seed: int, cards: int) -> Deal:
    rules = preset(rules_name)
    deal = Deal.from_seed(rules, seed, 0)
    players = [make_player("normal", s) for s in range(4)]
    while (
        deal.phase is not Phase.PLAY or deal.trick or max(h.bit_count() for h in deal.hands) > cards
    ):
        seat = deal.to_act
        deal.apply(players[seat].choose(deal.observation(seat)))
    return deal


def _naive(
    table: Table,
    util: Utility,
    hands: list[int],
    trick: list[int],
    leader: int,
    broken: bool,
    won: list[int],
) -> tuple[int, ...]:
    """Plain max^n over every legal card, no table, no equivalences."""
    n = len(trick)
    seat = (leader + n) % 4
    if not hands[seat]:
        return tuple(won)
    legal = legal_mask(hands[seat], trick, table.tmask, broken, table.overtake)
    best: tuple[int, ...] | None = None
    key: tuple[float, int] = (-1e9, -1)
    friend = table.friend(seat)
    for card in [c for c in range(52) if legal >> c & 1]:
        h = list(hands)
        h[seat] &= ~(1 << card)
        t = [*trick, card]
        nb = broken or bool(table.tmask >> card & 1)  # standard: any trump breaks
        if n == 3:
            w = list(won)
            winner = (leader + trick_best(t, table.tmask)) % 4
            w[winner] += 1
            res = _naive(table, util, h, [], winner, nb, w)
        else:
            res = _naive(table, util, h, t, leader, nb, won)
        side = res[seat] + (res[friend] if friend != seat else 0)
        k = (util(res)[seat], side)
        if k > key:
            key, best = k, res
    assert best is not None
    return best


def _value(util: Utility, seat: int, result: Sequence[int]) -> float:
    return float(util(result)[seat])


def test_solver_matches_plain_search() -> None:
    for seed in range(8):
        deal = _endgame("standard", 40 + seed, 3)
        assert deal.contract is not None and deal.trump is not None
        table = Table.of(deal.rules, int(deal.trump), deal.contract.seat, deal.contract.bid)
        util = utility_table(deal.rules, deal.contract.seat, deal.contract.bid)
        solver = Solver(table, util)
        seat = deal.to_act
        fast = solver.solve(list(deal.hands), [], seat, deal.trump_broken, tuple(deal.tricks_won))
        slow = _naive(
            table, util, list(deal.hands), [], seat, deal.trump_broken, list(deal.tricks_won)
        )
        assert sum(fast) == 13
        # Equivalent cards may change who ends with which trick only among equal choices.
        assert _value(util, seat, fast) == _value(util, seat, slow)


def test_rollout_finishes_the_deal() -> None:
    rng = random.Random(1)
    for name in ("standard", "classic", "esli"):
        deal = _endgame(name, rng.randrange(1000), 13)
        assert deal.contract is not None and deal.trump is not None
        table = Table.of(deal.rules, int(deal.trump), deal.contract.seat, deal.contract.bid)
        won = rollout(table, list(deal.hands), [], deal.to_act, deal.trump_broken, [0] * 4)
        assert sum(won) == 13
        assert table.tmask == SUIT_MASKS[deal.trump]
