"""The ``easy`` level: sensible Batak by a few rules of thumb, and the hand
estimates (:func:`estimate_tricks`, :func:`best_trump`) the other levels start from."""

from __future__ import annotations

import random

from batak.cards import ABOVE, SUIT_MASKS, SUITS, Card, CardMask, Suit, cards_of, highest, lowest
from batak.deal import (
    BIDS,
    PASS,
    PLAYS,
    TRUMPS,
    Action,
    Bid,
    Observation,
    Phase,
    Play,
)
from batak.play import trick_winner


def estimate_tricks(hand: CardMask, trump: Suit) -> float:
    """A rule-of-thumb count of the tricks ``hand`` takes with ``trump``.

    Side suits: an ace is a trick, a king with a guard about half a trick, a
    queen with two guards a little. Trumps: each top honour counts, and every
    trump beyond the third is expected to win a trick late in the deal.
    """
    total = 0.0
    for suit in SUITS:
        cards = hand & SUIT_MASKS[suit]
        n = cards.bit_count()
        has = [bool((cards >> (suit * 13 + r - 2)) & 1) for r in (14, 13, 12, 11)]
        if suit == trump:
            honours = sum(1.0 for h in has[:3] if h) + (0.5 if has[3] else 0.0)
            total += max(honours, min(n, 3) * 0.45) + max(0, n - 3) * 0.9
        else:
            if has[0]:
                total += 1.0
            if has[1] and n >= 2:
                total += 0.6 if has[0] else 0.45
            if has[2] and n >= 3 and (has[0] or has[1]):
                total += 0.3
            if n <= 1 and hand & SUIT_MASKS[trump]:
                total += 0.4 * (2 - n) * min(1.0, (hand & SUIT_MASKS[trump]).bit_count() / 4)
    return total


def best_trump(hand: CardMask) -> tuple[Suit, float]:
    """The suit with the highest :func:`estimate_tricks`, and that estimate."""
    scored = [(estimate_tricks(hand, s), -int(s)) for s in SUITS]
    value, neg = max(scored)
    return SUITS[-neg], value


def _chunk_tables() -> tuple[list[float], list[float], list[int]]:
    """Per 13-card suit pattern: :func:`estimate_tricks`'s count for it as a side suit
    (without the shortness bonus) and as trump, and its length."""
    side, trump, length = [], [], []
    for chunk in range(1 << 13):
        has = [bool(chunk >> (r - 2) & 1) for r in (14, 13, 12, 11)]
        n = chunk.bit_count()
        honours = sum(1.0 for h in has[:3] if h) + (0.5 if has[3] else 0.0)
        trump.append(max(honours, min(n, 3) * 0.45) + max(0, n - 3) * 0.9)
        v = 0.0
        if has[0]:
            v += 1.0
        if has[1] and n >= 2:
            v += 0.6 if has[0] else 0.45
        if has[2] and n >= 3 and (has[0] or has[1]):
            v += 0.3
        side.append(v)
        length.append(n)
    return side, trump, length


_SIDE, _TRUMP, _LENGTH = _chunk_tables()


def hand_estimate(hand: CardMask, trump: int) -> float:
    """:func:`estimate_tricks` by table (the same count, summed in another order: equal
    to it up to rounding); the hard level weighs thousands of sampled hands with it."""
    chunks = [(hand >> (13 * s)) & 0x1FFF for s in range(4)]
    trumps = _LENGTH[chunks[trump]]
    total = _TRUMP[chunks[trump]]
    for s in range(4):
        if s != trump:
            total += _SIDE[chunks[s]]
            n = _LENGTH[chunks[s]]
            if n <= 1 and trumps:
                total += 0.4 * (2 - n) * min(1.0, trumps / 4)
    return total


def hand_best_trump(hand: CardMask) -> tuple[Suit, float]:
    """:func:`best_trump` by table (:func:`hand_estimate`)."""
    best, value = 0, -1.0
    for t in range(4):
        v = hand_estimate(hand, t)
        if v > value + 1e-9:
            best, value = t, v
    return SUITS[best], value


class RuleOfThumbPlayer:
    """Plays sensible Batak by a few rules of thumb (the ``easy`` level).

    Bids what it can count (sure tricks for its best trump); the holder pulls
    trump and cashes winners; a defender tries to take its trick; everyone
    ducks a trick that is lost anyway and wins one as cheaply as possible.
    """

    name = "easy"

    def __init__(self, seed: int | None = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        obs = observation
        if not obs.legal:
            raise ValueError("this seat has nothing to do now")
        if obs.phase is Phase.AUCTION:
            return self._bid(obs)
        if obs.phase is Phase.TRUMP:
            assert obs.hand is not None
            return TRUMPS[best_trump(obs.hand)[0]]
        return PLAYS[self._card(obs)]

    def _bid(self, obs: Observation) -> Action:
        if obs.hand is None:  # blind bidding: nothing to count on but the average
            estimate = 3.25 + self._rng.random() * 2
        else:
            estimate = (
                best_trump(obs.hand)[1]
                if obs.rules.fixed_trump is None
                else (estimate_tricks(obs.hand, obs.rules.fixed_trump))
            )
        if obs.rules.partnership:
            estimate += 2.5  # a partner usually brings two or three tricks
        target = int(estimate + 0.25)
        bids = [a for a in obs.legal if isinstance(a, Bid)]
        if PASS in obs.legal and (not bids or target < bids[0].tricks):
            return PASS
        if not bids:
            return PASS
        if target < bids[0].tricks:
            return bids[0]
        return BIDS[min(target, bids[-1].tricks)] if target >= bids[0].tricks else bids[0]

    def _card(self, obs: Observation) -> Card:
        legal = 0
        for action in obs.legal:
            assert isinstance(action, Play)
            legal |= 1 << action.card
        trump = obs.trump
        assert trump is not None and obs.contract is not None and obs.hand is not None
        tmask = SUIT_MASKS[trump]
        me = obs.seat
        holder = obs.contract.seat
        partner = obs.partner()
        if not obs.trick:
            return self._lead(obs, legal, tmask, me == holder or partner == holder)
        leader = obs.trick_leader
        assert leader is not None
        winning_seat = trick_winner(leader, obs.trick, trump)
        best = obs.trick[(winning_seat - leader) % 4]
        if winning_seat == partner:
            return _cheapest(legal, tmask)
        winners = _beating(legal, best, tmask)
        if not winners:
            return _cheapest(legal, tmask)
        last = len(obs.trick) == 3
        if last:
            return _cheapest(winners, tmask)
        # Not last: win with the top card of the suit when it is the highest left.
        unseen = ~(obs.played | obs.hand) & ((1 << 52) - 1)
        top = highest(winners)
        if not (ABOVE[top] & unseen) or top // 13 == trump:
            return _cheapest(winners, tmask) if top // 13 == trump else top
        return _cheapest(legal, tmask)

    def _lead(self, obs: Observation, legal: CardMask, tmask: CardMask, attacking: bool) -> Card:
        assert obs.hand is not None
        unseen = ~(obs.played | obs.hand) & ((1 << 52) - 1)
        trumps_out = unseen & tmask
        if attacking and legal & tmask and trumps_out:
            return highest(legal & tmask)  # pull trump
        # Cash a side-suit card that nobody can beat.
        for suit in SUITS:
            cards = legal & SUIT_MASKS[suit] & ~tmask
            if cards:
                top = highest(cards)
                if not ABOVE[top] & unseen:
                    return top
        side = legal & ~tmask
        if side:
            # Lead low from the longest side suit.
            suit = max(SUITS, key=lambda s: ((side & SUIT_MASKS[s]).bit_count(), -int(s)))
            return lowest(side & SUIT_MASKS[suit])
        return lowest(legal)


def _beating(legal: CardMask, best: Card, tmask: CardMask) -> CardMask:
    """The legal cards that beat ``best``."""
    out = legal & ABOVE[best]
    if not (tmask >> best) & 1:
        out |= legal & tmask
    return out


def _cheapest(cards: CardMask, tmask: CardMask) -> Card:
    """The least valuable card: a low side card before any trump."""
    side = cards & ~tmask
    pool = side or cards
    return min(cards_of(pool), key=lambda c: (c % 13, c))
