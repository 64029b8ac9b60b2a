"""Experimental: soft evidence from the cards the other seats have played.

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

:class:`PlayFitPlayer` is the hard level with this evidence in its card play. It
helped against the normal level, which plays that very policy, and not against
the hard level, so the bot does not use it (``docs/computer-players.md``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from batak.ai.bots import HARD_BUDGET, HardPlayer
from batak.ai.knowledge import PlayStep, play_steps
from batak.ai.sim import Table, policy_card
from batak.cards import ABOVE, SUIT_MASKS, CardMask
from batak.deal import Observation
from batak.play import excluded_by_play, legal_cards

_ALL: CardMask = (1 << 52) - 1


def checked_mismatch(value: float, name: str = "mismatch") -> float:
    """``value`` if it is a mismatch factor, in (0, 1]; else a ``ValueError`` naming ``name``."""
    if not 0.0 < value <= 1.0:
        raise ValueError(f"{name} must be in (0, 1], not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class _Play:
    """One card another seat played, with what was public when it played it."""

    step: PlayStep
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
        self.table = table
        self.mismatch = checked_mismatch(mismatch)
        unplayed = _ALL
        excluded = [0, 0, 0, 0]
        seen: list[tuple[PlayStep, CardMask, tuple[CardMask, CardMask, CardMask, CardMask]]] = []
        for p in play_steps(obs):
            seen.append((p, unplayed, (excluded[0], excluded[1], excluded[2], excluded[3])))
            excluded[p.seat] |= excluded_by_play(
                p.card, p.led, p.led_high, p.trump_high, table.tmask, p.broken, table.overtake
            )
            unplayed &= ~(1 << p.card)
        plays: list[_Play] = []
        later = [0, 0, 0, 0]
        for p, before, proved in reversed(seen):
            if p.seat != obs.seat:
                won = any(t.winner == p.seat for t in obs.tricks[: p.trick_index])
                plays.append(_Play(p, before, later[p.seat], proved, won))
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
            s = p.step
            hand = hands[s.seat] | p.later | (1 << s.card)
            legal = legal_cards(
                hand, s.led, s.led_high, s.trump_high, tmask, s.broken, table.overtake
            )
            if legal & (legal - 1) == 0:
                continue  # a forced card says nothing
            out = p.unplayed & ~hand
            x = p.excluded
            poss = [hand if q == s.seat else out & ~x[q] for q in range(4)]
            guess = policy_card(
                table, s.seat, hand, poss, s.trick, s.leader, s.broken, legal, p.has_trick
            )
            if guess != s.card and not equal_cards(guess, s.card, hand, p.unplayed):
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


PLAY_FIT = 0.7
"""The mismatch factor :class:`PlayFitPlayer` plays with unless told otherwise (the
value the arena measured)."""


class PlayFitPlayer(HardPlayer):
    """The hard level, whose sampled deals also weigh by how well they explain the
    cards the other seats played (:class:`PlayFit`, factor ``play_fit``; 1.0 leaves
    the play out, and the player decides as the hard level)."""

    name = "hard+play-fit"

    def __init__(
        self,
        seed: int | None = 0,
        budget: float = HARD_BUDGET,
        play_fit: float = PLAY_FIT,
        guard: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(seed, budget=budget, guard=guard, clock=clock)
        self.play_fit = checked_mismatch(play_fit, "play_fit")

    def world_weight(self, obs: Observation, table: Table) -> Callable[[list[CardMask]], float]:
        auction = super().world_weight(obs, table)
        if not (obs.tricks or obs.trick) or self.play_fit >= 1.0:
            return auction
        fit = PlayFit(obs, table, self.play_fit)
        return lambda hands: auction(hands) * fit.weight(hands)


__all__ = ["PLAY_FIT", "PlayFit", "PlayFitPlayer", "checked_mismatch", "equal_cards"]
