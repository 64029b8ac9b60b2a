"""The arena's ceiling: a seat that sees all four hands.

:class:`Oracle` is not a computer player. It breaks the rule every player keeps
(decide from the seat's observation alone): the arena hands it the :class:`Deal`
itself, and it plays double-dummy. Its use is to measure how much room a fair
player has at all: what a seat gains over a baseline when it knows where every
card is. :func:`batak.ai.make_player` cannot build it and the bot never seats it;
only :mod:`batak.ai.arena` does, for the kind ``oracle``.

* **Cards**: every legal card valued by the double-dummy solver
  (:func:`batak.solver.card_values`, one solver a trump and side for the deal, so
  its table is shared), the best for the seat's side taken; among equal cards the
  cheapest (a side card before a trump, the lower rank first).
* **Bidding**: the team's (solo: the seat's) double-dummy tricks as holder with
  each trump it could name, leading the first trick. It passes when its partner
  holds the high bid; otherwise it bids what it would make with its best trump (under
  tens scoring, where a contract scores ten a trick of the bid, the highest such bid;
  under trick scoring the lowest), and passes when it would make none (or, when it may
  not pass, bids the lowest legal bid).
* **Trump**: the suit with the most double-dummy tricks.

Its bidding is simple on purpose: any gain it shows is the worth of knowing the
cards, not of a clever auction.
"""

from __future__ import annotations

from batak.ai.bidding import partner_holds_high
from batak.cards import SUIT_MASKS, SUITS, Suit
from batak.deal import BIDS, PASS, PLAYS, TRUMPS, Action, Bid, Deal, Observation, Phase
from batak.solver import Position, Solver, card_values, deal_position

ORACLE = "oracle"
"""The arena kind that seats an :class:`Oracle`."""


class Oracle:
    """A seat that plays ``deal`` with every hand face up (arena only)."""

    name = ORACLE

    def __init__(self, deal: Deal, seat: int) -> None:
        self._deal = deal
        self._seat = seat
        self._solvers: dict[tuple[Suit, int], Solver] = {}
        self._as_holder: dict[Suit, int] | None = None

    def _solver(self, trump: Suit, holder: int) -> Solver:
        side = holder % 2 if self._deal.rules.partnership else holder
        solver = self._solvers.get((trump, side))
        if solver is None:
            solver = self._solvers[(trump, side)] = Solver(self._deal.rules, trump, holder)
        return solver

    def tricks_as_holder(self) -> dict[Suit, int]:
        """The seat's side's double-dummy tricks if it held with each nameable trump."""
        if self._as_holder is None:
            rules = self._deal.rules
            hands = self._deal.initial_hands
            four = (hands[0], hands[1], hands[2], hands[3])
            suits = (rules.fixed_trump,) if rules.fixed_trump is not None else SUITS
            seat = self._seat
            self._as_holder = {
                t: self._solver(t, seat).solve(Position(rules, four, t, seat, seat)) for t in suits
            }
        return self._as_holder

    def choose(self, observation: Observation) -> Action:
        obs = observation
        if obs.seat != self._seat:
            raise ValueError("this oracle sits in another seat")
        if not obs.legal:
            raise ValueError("this seat has nothing to do now")
        if len(obs.legal) == 1:
            return obs.legal[0]
        if obs.phase is Phase.AUCTION:
            return self._call(obs)
        if obs.phase is Phase.TRUMP:
            tricks = self.tricks_as_holder()
            return TRUMPS[max(tricks, key=lambda t: (tricks[t], -int(t)))]
        return PLAYS[self._card(obs)]

    def _call(self, obs: Observation) -> Action:
        may_pass = PASS in obs.legal
        bids = sorted(a.tricks for a in obs.legal if isinstance(a, Bid))
        if may_pass and partner_holds_high(obs):
            return PASS
        reach = max(self.tricks_as_holder().values())
        makes = [b for b in bids if b <= reach]
        if makes:
            # Under tens scoring a contract scores ten a trick of the bid: bid all it makes.
            return BIDS[makes[-1] if obs.rules.scoring == "tens" else makes[0]]
        return PASS if may_pass else BIDS[bids[0]]

    def _card(self, obs: Observation) -> int:
        pos = deal_position(self._deal)
        values = card_values(pos, self._solver(pos.trump, pos.holder))
        best = max(values.values()) if pos.on_side(obs.seat) else min(values.values())
        tmask = SUIT_MASKS[pos.trump]
        return min(
            (c for c, v in values.items() if v == best), key=lambda c: (tmask >> c & 1, c % 13, c)
        )


__all__ = ["ORACLE", "Oracle"]
