"""The ``normal``, ``hard`` and ``expert`` computer players.

All receive only an :class:`~batak.deal.Observation` and return one of its
legal actions.

* ``normal``: bids and names trump by expected score from the calibrated
  trick model; plays with card counting and the exact inferences of
  :mod:`batak.ai.knowledge` (who is void, who holds nothing higher).
* ``hard``: for every card it might play, deals the hidden cards many times
  consistently with everything it knows (weighting each deal by how well it
  fits the auction), plays each deal out and picks the card with the best
  average utility. Early in a deal it plays out with fast rollouts; once the
  hands are small it solves each sampled deal exactly. The work is counted in
  simulated card plays, so a decision is the same for a given seed whatever
  the machine's load; a wall-clock guard (:data:`GUARD_SECONDS`) stops only a
  decision starved of CPU. It bids by the trick model's formula with expected tricks
  from play-outs.
* ``expert``: ``hard`` with :data:`EXPERT_BUDGET` per decision and its own
  guard (:data:`EXPERT_GUARD`).

What the arena measured for these choices, and for the variants that were tried
and left out, is in ``docs/computer-players.md``; the variants still worth
measuring live in :mod:`batak.ai.experimental`, which the bot never imports.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from batak.ai.bidding import BidChoice, choose_bid, choose_trump, model_for, tricks_mean
from batak.ai.easy import best_trump, estimate_tricks
from batak.ai.knowledge import Knowledge, infer, sample_hands, sample_unconstrained
from batak.ai.sim import (
    Solver,
    Table,
    distinct_cards,
    play_one,
    policy_card,
    rollout,
    utility_table,
)
from batak.cards import SUITS, CardMask, Suit
from batak.deal import PLAYS, TRUMPS, Action, Observation, Phase, Play
from batak.play import partner
from batak.scoring import contract_made, is_holder_side, side_tricks

PLAYS_PER_SECOND = 250_000
"""Simulated card plays per second of budget (a conservative figure for one
busy core; it turns a time budget into a fixed amount of work)."""

GUARD_SECONDS = 1.5
"""A decision stops early only if it runs this long (or four budgets): a guard
against a starved CPU that keeps decisions under 2 s. Below it, decisions
depend on the seed alone."""

EXACT_CARDS = 4
"""Solve exactly once every hand holds at most this many cards."""

HARD_BUDGET = 0.25
"""The hard level's thinking per decision, in seconds of work."""


def _legal_cards(obs: Observation) -> CardMask:
    legal = 0
    for a in obs.legal:
        if isinstance(a, Play):
            legal |= 1 << a.card
    return legal


def _table(obs: Observation) -> Table:
    assert obs.contract is not None and obs.trump is not None
    return Table.of(obs.rules, int(obs.trump), obs.contract.seat, obs.contract.bid)


class NormalPlayer:
    """Card counting and exact inferences; bids by expected score."""

    name = "normal"

    def __init__(self, seed: int | None = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        obs = observation
        if not obs.legal:
            raise ValueError("this seat has nothing to do now")
        if len(obs.legal) == 1:
            return obs.legal[0]
        if obs.phase is Phase.AUCTION:
            return choose_bid(obs).action
        if obs.phase is Phase.TRUMP:
            return TRUMPS[choose_trump(obs)[0]]
        know = infer(obs)
        return PLAYS[normal_card(obs, know)]


def normal_card(obs: Observation, know: Knowledge) -> int:
    assert obs.hand is not None
    table = _table(obs)
    leader = obs.trick_leader if obs.trick and obs.trick_leader is not None else obs.seat
    return policy_card(
        table,
        obs.seat,
        obs.hand,
        know.possible,
        obs.trick,
        leader,
        obs.trump_broken,
        _legal_cards(obs),
        obs.tricks_won[obs.seat] > 0,
    )


@dataclass(slots=True)
class CardStats:
    """What the hard level found for one candidate card."""

    card: int
    weight: float = 0.0
    total: float = 0.0
    tricks: float = 0.0
    makes: float = 0.0
    active: bool = True
    values: list[float] = field(default_factory=list)

    @property
    def value(self) -> float:
        return self.total / self.weight if self.weight else -1e9


@dataclass(slots=True)
class PlayAnalysis:
    """The hard level's evaluation of a play decision."""

    stats: list[CardStats]
    worlds: int
    exact: bool
    best: int
    side_tricks: float = 0.0
    make_chance: float = 0.0
    notes: dict[str, float] = field(default_factory=dict)


def auction_fit(obs: Observation, hands: list[CardMask]) -> float:
    """How well a sampled deal fits the other seats' calls (1 = perfectly).

    A seat that bid ``b`` should expect about ``b`` tricks from its hand; one
    that passed should not have expected more than the bid it declined, unless
    its partner held the high bid (partners leave the contract to each other:
    :func:`batak.ai.bidding.choose_bid`). The weight falls off smoothly (the calls
    are evidence, not proof).
    """
    rules = obs.rules
    if rules.blind_bidding or not obs.calls:
        return 1.0
    model = model_for(rules)
    high = 0
    high_seat = -1
    penalty = 0.0
    seen_mean: dict[int, float] = {}
    for seat, bid in obs.calls:
        if seat == obs.seat:
            if bid is not None:
                high, high_seat = bid, seat
            continue
        if bid is None and rules.partnership and high_seat == partner(seat):
            continue  # left the contract to its partner: that says nothing of its hand
        mean = seen_mean.get(seat)
        if mean is None:
            hand = hands[seat]
            if rules.fixed_trump is not None:
                est = estimate_tricks(hand, rules.fixed_trump)
            elif obs.contract is not None and obs.contract.seat == seat and obs.trump is not None:
                est = estimate_tricks(hand, obs.trump)
            else:
                est = best_trump(hand)[1]
            mean = model.intercept + model.slope * est
            seen_mean[seat] = mean
        if bid is None:
            floor = max(high + 1, rules.min_bid)
            d = mean - (floor + 0.5)
        else:
            d = (bid - 0.8) - mean
            high, high_seat = bid, seat
        if d > 0:
            penalty += d * d
    return math.exp(-0.5 * penalty)


def _original_hands(obs: Observation, hands: list[CardMask]) -> list[CardMask]:
    """The 13-card hands of a sampled world (current hands plus cards played)."""
    full = list(hands)
    for t in obs.tricks:
        for i, c in enumerate(t.cards):
            full[(t.leader + i) % 4] |= 1 << c
    if obs.trick:
        assert obs.trick_leader is not None
        for i, c in enumerate(obs.trick):
            full[(obs.trick_leader + i) % 4] |= 1 << c
    return full


class HardPlayer:
    """Sampling, play-outs and exact endgames, to a budget per decision."""

    name = "hard"

    def __init__(
        self,
        seed: int | None = 0,
        budget: float = HARD_BUDGET,
        exact_cards: int = EXACT_CARDS,
        guard: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._seed = seed
        self.budget = budget
        self.exact_cards = exact_cards
        self.guard = max(GUARD_SECONDS, 4 * budget) if guard is None else guard
        """Wall-clock seconds after which a decision stops early (a starved CPU)."""
        self._clock = clock
        """The guard's clock (tests give one that stands still: decisions then depend
        on the seed alone, whatever the machine's load)."""
        self.last_analysis: PlayAnalysis | None = None

    def choose(self, observation: Observation) -> Action:
        obs = observation
        if not obs.legal:
            raise ValueError("this seat has nothing to do now")
        if len(obs.legal) == 1:
            return obs.legal[0]
        if obs.phase is Phase.AUCTION:
            return self.bid(obs).action
        if obs.phase is Phase.TRUMP:
            return TRUMPS[self.trump(obs)[0]]
        return PLAYS[self.analyse_play(obs).best]

    def _decision_rng(self, obs: Observation) -> random.Random:
        """A random stream that depends only on the seed and the observation, so a
        decision is the same whether this player sat down at the start or took the
        seat over mid-deal (and after the bot restarts)."""
        calls = ",".join(f"{s}:{b}" for s, b in obs.calls)
        key = (
            f"batak-ai/1|{self._seed}|{obs.seat}|{obs.dealer}|{obs.phase.value}|{calls}|"
            f"{obs.hand}|{obs.played}|{obs.trick}"
        )
        return random.Random(key)

    # --- auction and trump ---------------------------------------------------

    def bid(self, obs: Observation) -> BidChoice:
        if obs.hand is None:
            return choose_bid(obs)
        means, sd = self.suit_means(obs)
        return choose_bid(obs, means, sd)

    def _world_cap(self, at_default: int) -> int:
        """A cap on sampled deals that grows with the budget (``at_default`` at
        :data:`HARD_BUDGET`)."""
        return max(at_default, int(at_default * self.budget / HARD_BUDGET))

    def trump(self, obs: Observation) -> tuple[Suit, float, float]:
        means, sd = self.suit_means(obs)
        return choose_trump(obs, means, sd)

    def suit_means(self, obs: Observation) -> tuple[dict[Suit, float], float]:
        """Expected tricks for the seat's side as holder with each possible trump.

        Deals the hidden cards many times (weighted by the other seats' calls),
        plays each deal out with this seat holding the contract and leading,
        and blends the mean with the calibrated model (the blend predicts the normal
        level's results better than either alone).
        """
        assert obs.hand is not None
        rules = obs.rules
        rng = self._decision_rng(obs)
        suits = (rules.fixed_trump,) if rules.fixed_trump is not None else SUITS
        know = infer(obs)
        seat = obs.seat
        holder_bid = obs.contract.bid if obs.contract is not None else rules.min_bid
        tables = [Table.of(rules, int(s), seat, holder_bid) for s in suits]
        sums = [0.0] * len(suits)
        weights = 0.0
        limit = max(8, int(self.budget * PLAYS_PER_SECOND / (52 * len(suits))))
        limit = min(limit, self._world_cap(300))
        start = self._clock()
        broken = rules.trump_lead == "free"
        for i in range(limit):
            hands = sample_hands(know, rng) or sample_unconstrained(know, rng)
            weight = max(auction_fit(obs, hands), 1e-6)
            weights += weight
            for j, table in enumerate(tables):
                won = rollout(table, list(hands), [], seat, broken, [0, 0, 0, 0])
                sums[j] += weight * side_tricks(rules, won, seat)
            if i >= 8 and self._clock() - start > self.guard:
                break
        blend = 0.5 if rules.partnership else 0.7
        sd = 1.5 if rules.partnership else 0.9
        means = {}
        for j, s in enumerate(suits):
            rolled = sums[j] / weights
            means[s] = blend * rolled + (1 - blend) * tricks_mean(rules, obs.hand, s)
        return means, sd

    # --- card play -------------------------------------------------------------

    def world_weight(self, obs: Observation, table: Table) -> Callable[[list[CardMask]], float]:
        """How much a sampled deal (the hands held now) counts in this card decision:
        how well it fits the calls (:func:`auction_fit`), 1 when there were none.
        Built once per decision; an experimental player may weigh in more evidence."""
        if not obs.calls:
            return lambda hands: 1.0
        return lambda hands: auction_fit(obs, _original_hands(obs, hands))

    def analyse_play(self, obs: Observation, force: bool = False) -> PlayAnalysis:
        """Evaluate the legal cards; ``force`` simulates even when only one card
        differs from the others (hints want the figures)."""
        assert obs.hand is not None and obs.contract is not None
        rng = self._decision_rng(obs)
        know = infer(obs)
        legal = _legal_cards(obs)
        cands = distinct_cards(legal, know.unseen | obs.hand)
        table = _table(obs)
        seat = obs.seat
        rules = obs.rules
        contract = obs.contract
        holder_side = is_holder_side(rules, contract, seat)
        if len(cands) == 1 and not force:
            a = PlayAnalysis([CardStats(cands[0])], 0, False, cands[0])
            self.last_analysis = a
            return a
        util = utility_table(rules, table.holder, contract.bid)
        leader0 = obs.trick_leader if obs.trick and obs.trick_leader is not None else seat
        stats = [CardStats(c) for c in cands]
        remaining = sum(obs.hand_sizes)
        exact = max(obs.hand_sizes) <= self.exact_cards
        work_budget = self.budget * PLAYS_PER_SECOND
        work = 0.0
        worlds = 0
        deadline = self._clock() + self.guard
        max_worlds = self._world_cap(400)
        min_worlds = 6
        solver = Solver(table, util) if exact else None
        fallbacks = 0
        side_total = 0.0
        make_total = 0.0
        w_total = 0.0
        weights_seen: list[float] = []
        weigh = self.world_weight(obs, table)
        while worlds < max_worlds:
            hands = sample_hands(know, rng)
            if hands is None:
                fallbacks += 1
                hands = sample_unconstrained(know, rng)
            weight = weigh(hands)
            worlds += 1
            if weight < 1e-6:
                weight = 1e-6
            weights_seen.append(weight)
            for st in stats:
                if not st.active:
                    continue
                h = list(hands)
                trick = list(obs.trick)
                won = list(obs.tricks_won)
                leader, broken = play_one(table, h, trick, leader0, obs.trump_broken, won, st.card)
                final: Sequence[int]
                if solver is not None:
                    before = solver.nodes
                    final = solver.solve(h, trick, leader, broken, tuple(won))
                    work += (solver.nodes - before) * 0.6
                else:
                    final = rollout(table, h, trick, leader, broken, won)
                    work += remaining
                u = util(final)[seat]
                st.values.append(u)
                st.weight += weight
                st.total += weight * u
                st.tricks += weight * side_tricks(rules, final, seat)
                st.makes += weight * (1.0 if contract_made(rules, contract, final) else 0.0)
            if worlds >= min_worlds and (work >= work_budget or self._clock() > deadline):
                break
            if worlds % 8 == 0:
                _prune(stats, weights_seen)
                if sum(st.active for st in stats) == 1 and not force:
                    break
        best = max((st for st in stats if st.active), key=lambda st: (round(st.value, 9), -st.card))
        if best.weight:
            side_total = best.tricks / best.weight
            make_total = best.makes / best.weight
            w_total = best.weight
        analysis = PlayAnalysis(
            stats,
            worlds,
            exact,
            best.card,
            side_total,
            make_total if holder_side else 1 - make_total,
            {"fallbacks": float(fallbacks), "weight": w_total},
        )
        self.last_analysis = analysis
        return analysis


EXPERT_BUDGET = 2.0
"""The expert level's thinking per decision, in seconds of work (eight times hard's)."""

EXPERT_GUARD = 2.2
"""The expert level stops a decision starved of CPU after this many seconds (so its
decisions stay under 2.5 s on a busy machine)."""


class ExpertPlayer(HardPlayer):
    """The hard level with :data:`EXPERT_BUDGET` per decision (for async tables)."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = 0,
        budget: float = EXPERT_BUDGET,
        guard: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(
            seed,
            budget=budget,
            guard=min(EXPERT_GUARD, max(GUARD_SECONDS, 4 * budget)) if guard is None else guard,
            clock=clock,
        )


def _prune(stats: list[CardStats], weights: list[float]) -> None:
    """Stop simulating cards that are clearly worse than the current best.

    A card is dropped when its paired difference from the best card (same
    sampled deals) is below zero by more than two standard errors.
    """
    active = [st for st in stats if st.active]
    best = max(active, key=lambda st: (st.value, -st.card))
    total = sum(weights)
    if total <= 0:
        return
    for st in active:
        if st is best:
            continue
        diffs = [a - b for a, b in zip(st.values, best.values, strict=True)]
        mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
        var = sum(w * w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True))
        se = math.sqrt(var) / total
        if mean + 2.0 * se + 1e-9 < 0:
            st.active = False


__all__ = [
    "EXPERT_BUDGET",
    "EXPERT_GUARD",
    "HARD_BUDGET",
    "PLAYS_PER_SECOND",
    "CardStats",
    "ExpertPlayer",
    "HardPlayer",
    "NormalPlayer",
    "PlayAnalysis",
    "auction_fit",
    "normal_card",
]
