"""Soft evidence from the cards the other seats have played.

A sampled deal in which the others' earlier cards are what a sensible player
would have played from those hands is likelier than one in which they are not.
:class:`PlayFit` replays the deal's play once per decision and, for a sampled
deal, asks the card policy (:func:`batak.ai.sim.policy_card`) what each other
seat would have played from its sampled hand, seeing what was public then (the
cards still out, less what the rules proved a seat could not hold). Each card the
policy would not have played (nor one equal to it) multiplies the sample's
weight by ``mismatch``. Like the auction's weight it is evidence, not proof:
people and other programs do not play the policy's cards.

It reads the observation and the sampled hands only, never a real hidden hand.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from batak.ai.sim import Table, policy_card
from batak.cards import ABOVE, SUIT_MASKS, CardMask
from batak.deal import Observation
from batak.play import (
    add_card,
    breaks_trump,
    broken_at_start,
    excluded_by_play,
    lead_code,
    legal_cards,
)

_ALL: CardMask = (1 << 52) - 1


@dataclass(frozen=True, slots=True)
class _Play:
    """One card another seat played, with what was public when it played it."""

    seat: int
    card: int
    trick: tuple[int, ...]
    """The cards already in its trick."""
    leader: int
    broken: bool
    led: int
    led_high: int
    trump_high: int
    unplayed: CardMask
    """The cards not played before this one (this one included)."""
    later: CardMask
    """The cards the same seat played after this one."""
    excluded: tuple[CardMask, CardMask, CardMask, CardMask]
    """What the rules had proved each seat could not hold."""
    has_trick: bool


class PlayFit:
    """The play so far of one observation, ready to weigh sampled deals."""

    __slots__ = ("mismatch", "plays", "table")

    def __init__(self, obs: Observation, table: Table, mismatch: float) -> None:
        if not 0.0 < mismatch <= 1.0:
            raise ValueError(f"mismatch must be in (0, 1], not {mismatch!r}")
        self.table = table
        self.mismatch = mismatch
        tmask = table.tmask
        overtake = table.overtake
        lead_rule = lead_code(obs.rules.trump_lead)
        broken = broken_at_start(lead_rule)
        tricks = [(t.leader, t.cards, t.winner) for t in obs.tricks]
        if obs.trick:
            assert obs.trick_leader is not None
            tricks.append((obs.trick_leader, obs.trick, -1))
        unplayed = _ALL
        excluded = [0, 0, 0, 0]
        won = [0, 0, 0, 0]
        order: list[_Play] = []
        for leader, cards, winner in tricks:
            led = led_high = trump_high = -1
            for i, card in enumerate(cards):
                seat = (leader + i) % 4
                order.append(
                    _Play(
                        seat,
                        card,
                        cards[:i],
                        leader,
                        broken,
                        led,
                        led_high,
                        trump_high,
                        unplayed,
                        0,
                        (excluded[0], excluded[1], excluded[2], excluded[3]),
                        won[seat] > 0,
                    )
                )
                excluded[seat] |= excluded_by_play(
                    card, led, led_high, trump_high, tmask, broken, overtake
                )
                if not broken and breaks_trump(lead_rule, tmask, led, card):
                    broken = True
                led, led_high, trump_high = add_card(led, led_high, trump_high, card, tmask)
                unplayed &= ~(1 << card)
            if winner >= 0:
                won[winner] += 1
        plays: list[_Play] = []
        later = [0, 0, 0, 0]
        for p in reversed(order):
            if p.seat != obs.seat:
                plays.append(replace(p, later=later[p.seat]))
            later[p.seat] |= 1 << p.card
        plays.reverse()
        self.plays = tuple(plays)

    def weight(self, hands: list[CardMask]) -> float:
        """``mismatch`` to the power of the others' cards that this sampled deal (the
        hands held now) does not explain; 1.0 when it explains them all."""
        table = self.table
        tmask = table.tmask
        w = 1.0
        for p in self.plays:
            hand = hands[p.seat] | p.later | (1 << p.card)
            legal = legal_cards(
                hand, p.led, p.led_high, p.trump_high, tmask, p.broken, table.overtake
            )
            if legal & (legal - 1) == 0:
                continue  # a forced card says nothing
            out = p.unplayed & ~hand
            x = p.excluded
            poss = [hand if s == p.seat else out & ~x[s] for s in range(4)]
            guess = policy_card(
                table, p.seat, hand, poss, p.trick, p.leader, p.broken, legal, p.has_trick
            )
            if guess != p.card and not equal_cards(guess, p.card, hand, p.unplayed):
                w *= self.mismatch
        return w


def equal_cards(a: int, b: int, hand: CardMask, unplayed: CardMask) -> bool:
    """Whether two cards of ``hand`` are worth the same: one suit, and no card still
    out in another hand between them."""
    if a // 13 != b // 13:
        return False
    lo, hi = (a, b) if a < b else (b, a)
    between = ABOVE[lo] & ~ABOVE[hi] & ~(1 << hi) & SUIT_MASKS[lo // 13]
    return not between & unplayed & ~hand
