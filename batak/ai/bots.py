"""The ``normal`` and ``hard`` computer players.

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
  decision starved of CPU. Every card decision plays out its whole budget: a
  stopping rule that ended decisions once they seemed settled made hard ten times
  cheaper but weaker, and the compiled sampling made the budget cheap enough
  (``docs/computer-players.md``). It bids by the trick model's formula with
  expected tricks from play-outs.

(An ``expert`` level, hard with eight times the work per decision, was not shown
stronger than hard by the arena's sequential test and is gone: see
``docs/computer-players.md``.)

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
from batak.ai.easy import hand_best_trump, hand_estimate
from batak.ai.knowledge import (
    Knowledge,
    deal_order,
    infer,
    sample_hands,
    sample_unconstrained,
)
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
depend on the seed alone. (At a table the bot shortens :attr:`HardPlayer.guard` by
the time the decision waited for its worker: ``tables.computer.computer_decision``.)"""

EXACT_CARDS = 4
"""Solve exactly once every hand holds at most this many cards."""

HARD_BUDGET = 0.25
"""The hard level's thinking per decision, in seconds of work (:data:`PLAYS_PER_SECOND`
simulated card plays a second): a card decision plays sampled deals until it is spent."""

MAX_WORLDS = 400
"""Sampled deals per card decision at most (at :data:`HARD_BUDGET`; more with a
larger budget)."""

BID_WORLDS = 300
"""Sampled deals per bid or trump decision at most (at :data:`HARD_BUDGET`)."""

MIN_WORLDS = 16
"""Sampled deals a decision simulates at least (a bid or trump cut short by the guard
before this many leans on the trick model alone)."""

TRUSTED_WORLDS = 16
"""A decision the wall-clock guard cut before this many sampled deals plays the
normal level's card instead of its ranking so far."""


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
    values: list[float] = field(default_factory=list)
    """The card's utility on each sampled deal, in order (the same deals for every card)."""

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
    are evidence, not proof). ``hands`` are the 13-card hands; a decision that weighs
    many deals builds :func:`fit_function` once instead.
    """
    return fit_function(obs)(hands)


def fit_function(obs: Observation) -> Callable[[list[CardMask]], float]:
    """:func:`auction_fit` for ``obs``, with what depends only on the observation (the
    calls, the bids they declined, which trump each seat's hand is valued with)
    worked out once: the returned function takes the 13-card hands of a sampled deal."""
    rules = obs.rules
    if rules.blind_bidding or not obs.calls:
        return lambda hands: 1.0
    model = model_for(rules)
    high = 0
    high_seat = -1
    # (seat, sign, bound): the call's shortfall is sign * (mean - bound) where ``mean``
    # is the trick model's figure for the seat's hand.
    terms: list[tuple[int, float, float]] = []
    for seat, bid in obs.calls:
        if seat == obs.seat:
            if bid is not None:
                high, high_seat = bid, seat
            continue
        if bid is None and rules.partnership and high_seat == partner(seat):
            continue  # left the contract to its partner: that says nothing of its hand
        if bid is None:
            terms.append((seat, 1.0, max(high + 1, rules.min_bid) + 0.5))
        else:
            terms.append((seat, -1.0, bid - 0.8))
            high, high_seat = bid, seat
    trump_of: dict[int, int] = {}
    for seat, _sign, _bound in terms:
        if rules.fixed_trump is not None:
            trump_of[seat] = int(rules.fixed_trump)
        elif obs.contract is not None and obs.contract.seat == seat and obs.trump is not None:
            trump_of[seat] = int(obs.trump)
        else:
            trump_of[seat] = -1  # the hand's best trump
    intercept, slope = model.intercept, model.slope

    def fit(hands: list[CardMask]) -> float:
        means: dict[int, float] = {}
        for seat, t in trump_of.items():
            hand = hands[seat]
            est = hand_best_trump(hand)[1] if t < 0 else hand_estimate(hand, t)
            means[seat] = intercept + slope * est
        penalty = 0.0
        for seat, sign, bound in terms:
            d = sign * (means[seat] - bound)
            if d > 0:
                penalty += d * d
        return math.exp(-0.5 * penalty)

    return fit


def _played_by(obs: Observation) -> tuple[CardMask, CardMask, CardMask, CardMask]:
    """The cards each seat has played so far in this deal (a sampled deal's current
    hands with these are its 13-card hands)."""
    full = [0, 0, 0, 0]
    for t in obs.tricks:
        for i, c in enumerate(t.cards):
            full[(t.leader + i) % 4] |= 1 << c
    if obs.trick:
        assert obs.trick_leader is not None
        for i, c in enumerate(obs.trick):
            full[(obs.trick_leader + i) % 4] |= 1 << c
    return full[0], full[1], full[2], full[3]


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
        self.decisions = 0
        """Decisions this player simulated (bids, trump and cards)."""
        self.decisions_cut = 0
        """Of those, the ones its wall-clock guard cut short (a starved CPU)."""

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
        order = deal_order(know)
        fit = fit_function(obs)
        seat = obs.seat
        holder_bid = obs.contract.bid if obs.contract is not None else rules.min_bid
        tables = [Table.of(rules, int(s), seat, holder_bid) for s in suits]
        sums = [0.0] * len(suits)
        weights = 0.0
        limit = max(8, int(self.budget * PLAYS_PER_SECOND / (52 * len(suits))))
        limit = min(limit, self._world_cap(BID_WORLDS))
        deadline = self._clock() + self.guard
        broken = rules.trump_lead == "free"
        done = 0
        cut = False
        for _ in range(limit):
            if self._clock() > deadline:
                cut = True
                break
            hands = (sample_hands(know, rng, order=order) if order is not None else None) or (
                sample_unconstrained(know, rng)
            )
            weight = max(fit(hands), 1e-6)
            weights += weight
            for j, table in enumerate(tables):
                won = rollout(table, list(hands), [], seat, broken, [0, 0, 0, 0])
                sums[j] += weight * side_tricks(rules, won, seat)
            done += 1
        self._count(cut)
        blend = 0.5 if rules.partnership else 0.7
        if done < MIN_WORLDS:
            blend = 0.0  # cut short before the play-outs say much: the trick model alone
        sd = 1.5 if rules.partnership else 0.9
        means = {}
        for j, s in enumerate(suits):
            rolled = sums[j] / weights if weights else 0.0
            means[s] = blend * rolled + (1 - blend) * tricks_mean(rules, obs.hand, s)
        return means, sd

    def _count(self, cut: bool) -> None:
        self.decisions += 1
        if cut:
            self.decisions_cut += 1

    # --- card play -------------------------------------------------------------

    def world_weight(self, obs: Observation, table: Table) -> Callable[[list[CardMask]], float]:
        """How much a sampled deal (the hands held now) counts in this card decision:
        how well it fits the calls (:func:`auction_fit`), 1 when there were none.
        Built once per decision; an experimental player may weigh in more evidence."""
        if not obs.calls or obs.rules.blind_bidding:
            return lambda hands: 1.0
        fit = fit_function(obs)
        played = _played_by(obs)
        p0, p1, p2, p3 = played
        return lambda hands: fit([hands[0] | p0, hands[1] | p1, hands[2] | p2, hands[3] | p3])

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
        max_worlds = self._world_cap(MAX_WORLDS)
        solver = Solver(table, util) if exact else None
        fallbacks = 0
        side_total = 0.0
        make_total = 0.0
        w_total = 0.0
        weigh = self.world_weight(obs, table)
        order = deal_order(know)
        cut = False
        while worlds < max_worlds:
            if self._clock() > deadline:
                cut = True
                break
            hands = sample_hands(know, rng, order=order) if order is not None else None
            if hands is None:
                fallbacks += 1
                hands = sample_unconstrained(know, rng)
            weight = weigh(hands)
            worlds += 1
            if weight < 1e-6:
                weight = 1e-6
            for st in stats:
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
            if worlds >= MIN_WORLDS and work >= work_budget:
                break
        self._count(cut)
        best = max(stats, key=lambda st: (round(st.value, 9), -st.card))
        if best.weight:
            side_total = best.tricks / best.weight
            make_total = best.makes / best.weight
            w_total = best.weight
        chosen = best.card
        if cut and worlds < TRUSTED_WORLDS and len(stats) > 1:
            # Cut short by the guard before the sampled deals could rank the cards: the
            # normal level's card, never worse than what that level would play.
            chosen = normal_card(obs, know)
        analysis = PlayAnalysis(
            stats,
            worlds,
            exact,
            chosen,
            side_total,
            make_total if holder_side else 1 - make_total,
            {"fallbacks": float(fallbacks), "weight": w_total, "cut": float(cut)},
        )
        self.last_analysis = analysis
        return analysis


__all__ = [
    "HARD_BUDGET",
    "PLAYS_PER_SECOND",
    "CardStats",
    "HardPlayer",
    "NormalPlayer",
    "PlayAnalysis",
    "auction_fit",
    "normal_card",
]
