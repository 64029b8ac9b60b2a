"""Experimental: a bidder that values every call it may make by play-outs.

For each call the seat may make now (pass, or each legal bid) it estimates the
expected utility (its score minus the mean of the others', as in card play) over
deals of the hidden cards sampled from its own observation and weighted by how
well they fit the calls so far (:func:`batak.ai.bots.auction_fit`). In each
sampled deal:

* **bidding b**: the seat plays the deal out as holder once with each trump it
  could name; the bid is worth the utility of the best trump for that bid, unless
  another seat still in the auction holds enough to bid above ``b``: then that
  seat takes the contract (as when passing, below).
* **passing**: the strongest other hand still in the auction takes the contract
  at the level its strength and the competition call for (one more than the
  second strongest, at least the lowest legal bid); if no one is strong enough,
  the high bidder keeps it, or everyone passes and the rules' all-pass case
  applies. That holder's deal is played out too.

"Strong enough" for a sampled hand is the calibrated trick model of
:mod:`batak.ai.bidding`, with the hand's best trump: what the other seats would
expect from their cards, not what the play-out will show (that would read the
other sampled hands). Nothing here reads a real hidden hand: the sampled hands
come from :func:`batak.ai.knowledge.sample_hands` of the seat's observation.

:class:`WeighedBidder` is the hard level bidding this way. It was the hard level's
bidder for a while; measured against the trick model's bids it was level against
an older hard level and behind against the normal level, and behind in
partnerships, so the bot bids by the trick model (``docs/computer-players.md``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from batak.ai.bidding import BidChoice, choose_bid, model_for, tricks_mean
from batak.ai.bots import PLAYS_PER_SECOND, HardPlayer, auction_fit
from batak.ai.easy import hand_best_trump, hand_estimate
from batak.ai.knowledge import infer, sample_hands, sample_unconstrained
from batak.ai.sim import Table, rollout, utility_table
from batak.cards import SUITS, CardMask, Suit
from batak.deal import BIDS, PASS, Action, Bid, Observation
from batak.play import broken_at_start, lead_code, partner
from batak.scoring import side_tricks

Util = Callable[[Sequence[int]], tuple[float, float, float, float]]


HOLDER_MARGIN = 0.2
"""Tricks taken off the seat's own play-out count when it holds (a play-out with
every hand known can be kinder to the holder than strong defenders are), under
``tens`` scoring only; the margins the arena compared are in the documentation."""
HOLDER_MARGIN_TEAM = 0.0
"""The same for a team holding in partnerships."""
NOISE = 0.2
"""The chance that the real play takes one trick fewer than the play-out of a sampled
deal, and the same for one more: a play-out is not the play. Measured on standard
with hard players on all four seats (29 deals, the would-be holder's best trump): the
play-out mean was 6.35 tricks, the play 6.14 (-0.21, within the noise: no margin),
single deals off by 0.9 tricks (SD). Without it the bidder jumped a level too often
(a failed 6 costs 110 points against a made 5; one more level made gains 10)."""


def _shift(won: Sequence[int], seat: int, partnership: bool, k: int) -> list[int]:
    """``won`` with ``k`` tricks of the seat's side given to the opponents (``k`` < 0:
    taken from them), as far as there are tricks to move; always 13 in all."""
    out = list(won)
    side = (seat, partner(seat)) if partnership else (seat,)
    others = [s for s in ((seat + 1) % 4, partner(seat), (seat + 3) % 4) if s not in side]
    giver, takers = (side, others) if k > 0 else (others, list(side))
    for _ in range(abs(k)):
        src = next((s for s in giver if out[s] > 0), None)
        if src is None:
            break
        out[src] -= 1
        out[takers[0]] += 1
    return out


def _variants(
    won: Sequence[int], seat: int, partnership: bool, margin: float, noise: float
) -> list[tuple[float, list[int]]]:
    """A play-out's tricks as the seat's side may really take them when it holds:
    ``margin`` tricks fewer (a fraction blends the two whole numbers around it), and one
    trick fewer or more each with chance ``noise`` (the real play is not the play-out's).
    Each with its weight; the weights add up to 1."""
    k = int(margin)
    f = margin - k
    shifts = [(k, 1.0)] if f == 0 else [(k, 1.0 - f), (k + 1, f)]
    out: list[tuple[float, list[int]]] = []
    for d, p in shifts:
        for e, q in ((d, 1.0 - 2 * noise), (d - 1, noise), (d + 1, noise)):
            if q > 0:
                out.append((p * q, _shift(won, seat, partnership, e) if e else list(won)))
    return out


@dataclass(frozen=True, slots=True)
class WeighedCalls:
    """The bidder's decision and the figures behind it."""

    action: Action
    trump: Suit
    """The trump the seat would name for the chosen bid (passing: its best one)."""
    values: dict[int, float]
    """Expected utility by call: ``0`` is passing, ``b`` the bid of ``b`` tricks (the
    bids weighed: up to three above what the trick model expects of the hand)."""
    worlds: int
    mean: float
    """Expected tricks of the seat's side as holder with its best trump."""
    make: float
    """The chance the seat's side makes the chosen bid with its trump (passing: the
    lowest bid, or the forced one, with its best trump)."""

    @property
    def pass_value(self) -> float:
        return self.values.get(0, float("-inf"))


def _still_in(obs: Observation) -> list[int]:
    """The other seats that have not passed (they may still bid)."""
    passed = {s for s, b in obs.calls if b is None}
    return [s for s in range(4) if s != obs.seat and s not in passed]


def _high_seat(obs: Observation) -> int | None:
    for s, b in reversed(obs.calls):
        if b is not None:
            return s
    return None


def weigh_calls(
    obs: Observation,
    rng: random.Random,
    worlds: int,
    deadline: float,
    fit: Callable[[Observation, list[CardMask]], float],
    clock: Callable[[], float] = time.perf_counter,
) -> WeighedCalls:
    """Value every call of the seat to act by ``worlds`` sampled deals (fewer if
    ``clock()`` passes ``deadline``; at least 8). ``fit`` weighs a sampled deal by
    the calls so far."""
    assert obs.hand is not None
    rules = obs.rules
    seat = obs.seat
    suits = (rules.fixed_trump,) if rules.fixed_trump is not None else SUITS
    # The bids worth weighing: from the lowest legal one up to three above what the
    # trick model expects of the hand with its best trump (higher ones only lose).
    reach_me = max(tricks_mean(rules, obs.hand, t) for t in suits)
    legal_bids = [
        a.tricks for a in obs.legal if isinstance(a, Bid) and a.tricks <= round(reach_me) + 3
    ]
    lowest = min((a.tricks for a in obs.legal if isinstance(a, Bid)), default=None)
    if lowest is not None and not legal_bids:
        legal_bids = [lowest]
    may_pass = PASS in obs.legal
    high = obs.high_bid or 0
    floor = max(high + 1, rules.min_bid)
    high_seat = _high_seat(obs)
    active = _still_in(obs)
    model = model_for(rules)
    know = infer(obs)
    broken = broken_at_start(lead_code(rules.trump_lead))
    tables = [Table.of(rules, int(s), seat, floor) for s in suits]
    utils: dict[tuple[int, int], Util] = {}

    def util(holder: int, bid: int) -> Util:
        u = utils.get((holder, bid))
        if u is None:
            u = utils[(holder, bid)] = utility_table(rules, holder, bid)
        return u

    # Only where a failed contract costs ten a trick: under trick scoring the care
    # costs more than it saves (HOLDER_MARGIN).
    margin = HOLDER_MARGIN_TEAM if rules.partnership else HOLDER_MARGIN
    if rules.scoring != "tens":
        margin = 0.0
    own = {b: [0.0] * len(suits) for b in legal_bids}
    passing = 0.0
    tricks = [0.0] * len(suits)
    hist = [[0.0] * 14 for _ in suits]
    total = 0.0
    n = 0
    while n < worlds:
        hands = sample_hands(know, rng) or sample_unconstrained(know, rng)
        w = max(fit(obs, hands), 1e-6)
        n += 1
        total += w
        # What each other seat still in would expect from its own cards.
        reach: dict[int, tuple[int, Suit]] = {}
        for s in active:
            if rules.fixed_trump is not None:
                trump_s, est = rules.fixed_trump, hand_estimate(hands[s], rules.fixed_trump)
            else:
                trump_s, est = hand_best_trump(hands[s])
            reach[s] = (int(model.intercept + model.slope * est + 0.5), trump_s)
        order = sorted(reach, key=lambda s: (-reach[s][0], (s - seat) % 4))
        top = order[0] if order else None
        top_reach = reach[top][0] if top is not None else -1
        second = reach[order[1]][0] if len(order) > 1 else -1
        # Passing: who holds, at what level, with which trump.
        holder: int | None = None
        level = 0
        trump_h: Suit | None = None
        if top is not None and top_reach >= floor:
            holder, level, trump_h = top, max(floor, min(top_reach, second + 1)), reach[top][1]
        elif high_seat is not None and high_seat != seat:
            holder, level = high_seat, high
            trump_h = reach[high_seat][1] if high_seat in reach else None
        elif rules.all_pass == "dealer-forced":
            holder, level = obs.dealer, rules.forced_bid or rules.min_bid
        else:
            holder, level = obs.dealer, rules.min_bid
        won_me = []
        variants = []
        for j, table in enumerate(tables):
            won = rollout(table, list(hands), [], seat, broken, [0, 0, 0, 0])
            won_me.append(won)
            variants.append(_variants(won, seat, rules.partnership, margin, NOISE))
            side = side_tricks(rules, won, seat)
            tricks[j] += w * side
            hist[j][side] += w
        if holder == seat:
            # Everyone passed to a dealer who is this seat: it holds at the forced bid.
            passing += w * max(util(seat, level)(won)[seat] for won in won_me)
            other_won: list[int] | None = None
        else:
            if trump_h is None:
                trump_h = hand_best_trump(hands[holder])[0] if rules.fixed_trump is None else None
            t = rules.fixed_trump if rules.fixed_trump is not None else trump_h
            assert t is not None
            other_table = Table.of(rules, int(t), holder, level)
            other_won = rollout(other_table, list(hands), [], holder, broken, [0, 0, 0, 0])
            passing += w * util(holder, level)(other_won)[seat]
        for b in legal_bids:
            row = own[b]
            if top is not None and top_reach > b and other_won is not None and holder == top:
                # Someone would bid over b: the contract goes there as if this seat passed.
                lvl = max(b + 1, min(top_reach, second + 1))
                v = util(top, lvl)(other_won)[seat]
                for j in range(len(suits)):
                    row[j] += w * v
                continue
            u = util(seat, b)
            for j, vs in enumerate(variants):
                v = 0.0
                for q, moved in vs:
                    v += q * u(moved)[seat]
                row[j] += w * v
        if n >= 8 and clock() > deadline:
            break
    values: dict[int, float] = {}
    if may_pass:
        values[0] = passing / total
    best_trump_for: dict[int, Suit] = {}
    for b in legal_bids:
        j = max(range(len(suits)), key=lambda j: (own[b][j], -int(suits[j])))
        values[b] = own[b][j] / total
        best_trump_for[b] = suits[j]
    jm = max(range(len(suits)), key=lambda j: (tricks[j], -int(suits[j])))
    mean = tricks[jm] / total
    choice = max(values, key=lambda c: (values[c], c == 0, -c))

    def make(j: int, b: int) -> float:
        return sum(hist[j][b:]) / total

    if choice == 0:
        everyone_passed = len(obs.calls) == 3 and high == 0
        b = (rules.forced_bid or rules.min_bid) if everyone_passed else floor
        return WeighedCalls(PASS, suits[jm], values, n, mean, make(jm, min(b, 13)))
    j = suits.index(best_trump_for[choice])
    return WeighedCalls(BIDS[choice], suits[j], values, n, mean, make(j, choice))


class WeighedBidder(HardPlayer):
    """The hard level, bidding by :func:`weigh_calls` on every preset; ``last_calls``
    keeps the figures of its last bid."""

    name = "hard+weighed-bids"
    last_calls: WeighedCalls | None = None

    def bid(self, obs: Observation) -> BidChoice:
        if obs.hand is None:
            return choose_bid(obs)
        suits = 1 if obs.rules.fixed_trump is not None else 4
        worlds = int(self.budget * PLAYS_PER_SECOND / (52 * (suits + 1)))
        worlds = max(8, min(worlds, self._world_cap(300)))
        rng = self._decision_rng(obs)
        deadline = self._clock() + self.guard
        w = weigh_calls(obs, rng, worlds, deadline, auction_fit, self._clock)
        self.last_calls = w
        value = w.values[w.action.tricks] if isinstance(w.action, Bid) else w.pass_value
        worth = [b for b, v in w.values.items() if b and (v > w.pass_value or 0 not in w.values)]
        return BidChoice(
            w.action, w.trump, w.mean, w.make, value, w.pass_value, max(worth, default=None)
        )


__all__ = [
    "HOLDER_MARGIN",
    "HOLDER_MARGIN_TEAM",
    "WeighedBidder",
    "WeighedCalls",
    "hand_best_trump",
    "hand_estimate",
    "weigh_calls",
]
