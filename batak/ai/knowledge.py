"""What one seat knows about the hidden hands: card counting and exact inferences.

Everything here is computed from an :class:`~batak.deal.Observation` alone:
the seat's own hand, the calls, the contract and the cards played. The rules
make some inferences exact:

* a seat that did not follow suit is void in the led suit;
* a seat that discarded (neither followed nor trumped) holds no trump;
* a seat that followed below the highest card of the led suit, while the duty
  to go higher applied, holds nothing higher in that suit;
* a seat that trumped under a higher trump holds no trump above it;
* a seat that led trump before trump was broken held only trumps.

Each inference is :func:`batak.play.excluded_by_play`, the inverse of the
engine's own legality rule, so the two cannot drift apart.

The ``legal`` sets stored in :class:`~batak.deal.Trick` are never read: they
describe other seats' hands, which a fair player may not see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from batak.ai.sim import draw_hands
from batak.cards import FULL_DECK, SUIT_MASKS, CardMask
from batak.deal import Observation
from batak.play import add_card, breaks_trump, broken_at_start, excluded_by_play, lead_code


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's view of where the unseen cards can be.

    ``possible[s]`` is the set of unseen cards seat ``s`` may hold (for the
    seat itself: its own hand); ``sizes[s]`` the number of cards it holds.
    """

    seat: int
    hand: CardMask
    unseen: CardMask
    possible: tuple[CardMask, CardMask, CardMask, CardMask]
    sizes: tuple[int, int, int, int]
    voids: tuple[int, int, int, int]
    """Bit ``suit`` set when the seat is known to be void in that suit."""

    def may_hold(self, seat: int, cards: CardMask) -> bool:
        return bool(self.possible[seat] & cards)


@dataclass(frozen=True, slots=True)
class PlayStep:
    """One card of the play so far, with the trick's state just before it."""

    seat: int
    card: int
    trick_index: int
    """Which trick (0 = the first)."""
    leader: int
    trick: tuple[int, ...]
    """The cards already in this trick."""
    led: int
    led_high: int
    trump_high: int
    broken: bool
    """Whether trump was broken before this card."""


def play_steps(obs: Observation) -> list[PlayStep]:
    """The cards played so far in order, each with the state it was played in
    (nothing before trump is named)."""
    steps: list[PlayStep] = []
    trump = obs.trump
    if trump is None:
        return steps
    tmask = SUIT_MASKS[trump]
    lead_rule = lead_code(obs.rules.trump_lead)
    broken = broken_at_start(lead_rule)
    tricks: list[tuple[int, tuple[int, ...]]] = [(t.leader, t.cards) for t in obs.tricks]
    if obs.trick:
        assert obs.trick_leader is not None
        tricks.append((obs.trick_leader, obs.trick))
    for index, (leader, cards) in enumerate(tricks):
        led, led_high, trump_high = -1, -1, -1
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            steps.append(
                PlayStep(seat, card, index, leader, cards[:i], led, led_high, trump_high, broken)
            )
            if not broken and breaks_trump(lead_rule, tmask, led, card):
                broken = True
            led, led_high, trump_high = add_card(led, led_high, trump_high, card, tmask)
    return steps


def exclusions(obs: Observation) -> list[CardMask]:
    """For each seat, the cards the rules prove it cannot hold (played or not)."""
    excluded = [0, 0, 0, 0]
    if obs.trump is None:
        return excluded
    tmask = SUIT_MASKS[obs.trump]
    overtake = obs.rules.overtake_when_trumped
    for p in play_steps(obs):
        excluded[p.seat] |= excluded_by_play(
            p.card, p.led, p.led_high, p.trump_high, tmask, p.broken, overtake
        )
    return excluded


def infer(obs: Observation) -> Knowledge:
    """The seat's knowledge of the hidden cards (needs a visible hand)."""
    hand = obs.hand
    if hand is None:
        raise ValueError("no hand to reason from (blind bidding)")
    seat = obs.seat
    unseen = FULL_DECK & ~obs.played & ~hand
    excluded = exclusions(obs)
    possible = [0, 0, 0, 0]
    voids = [0, 0, 0, 0]
    for s in range(4):
        if s == seat:
            possible[s] = hand
        else:
            possible[s] = unseen & ~excluded[s]
        for suit in range(4):
            if not possible[s] & SUIT_MASKS[suit]:
                voids[s] |= 1 << suit
    sizes = obs.hand_sizes
    return Knowledge(
        seat,
        hand,
        unseen,
        (possible[0], possible[1], possible[2], possible[3]),
        (sizes[0], sizes[1], sizes[2], sizes[3]),
        (voids[0], voids[1], voids[2], voids[3]),
    )


def deal_order(know: Knowledge) -> list[tuple[int, int]] | None:
    """``(number of other seats that may hold it, card)`` for every unseen card, most
    constrained first (``None`` when some card has nowhere to go). It depends on
    ``know`` alone: a decision computes it once for all its sampled deals."""
    seat = know.seat
    others = [s for s in range(4) if s != seat]
    cards: list[tuple[int, int]] = []
    m = know.unseen
    poss = know.possible
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        opts = 0
        for s in others:
            if poss[s] & low:
                opts |= 1 << s
        if not opts:
            return None
        cards.append((opts.bit_count(), c))
    cards.sort()
    return cards


def sample_hands(
    know: Knowledge,
    rng: random.Random,
    tries: int = 60,
    order: list[tuple[int, int]] | None = None,
) -> list[CardMask] | None:
    """Four hands consistent with ``know``, drawn at random (``None`` if none found).

    Cards that only one seat may hold go there; the rest are dealt one by one,
    most constrained first, each to a seat that may hold it, weighted by the
    room left in that seat's hand. A dead end restarts the draw. ``order`` is
    :func:`deal_order` of ``know`` when the caller kept it (the loop itself is
    :func:`batak.ai.sim.draw_hands`, compiled).
    """
    if order is None:
        order = deal_order(know)
        if order is None:
            return None
    return draw_hands(know.seat, know.hand, know.possible, know.sizes, order, rng.random, tries)


def sample_unconstrained(know: Knowledge, rng: random.Random) -> list[CardMask]:
    """A draw that respects only the hand sizes (the fallback when inferences clash)."""
    cards = []
    m = know.unseen
    while m:
        low = m & -m
        cards.append(low.bit_length() - 1)
        m ^= low
    rng.shuffle(cards)
    hands = [0, 0, 0, 0]
    hands[know.seat] = know.hand
    i = 0
    for s in range(4):
        if s == know.seat:
            continue
        for c in cards[i : i + know.sizes[s]]:
            hands[s] |= 1 << c
        i += know.sizes[s]
    return hands
