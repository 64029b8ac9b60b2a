"""The solver's position and errors, in a module of their own.

:mod:`batak.solver` is compiled with mypyc (see ``build_native.py``), which cannot
compile classes derived from built-in exceptions, and whose compiled classes would
refuse a field of the wrong type with a bare ``TypeError`` before
:func:`check_position` could name it. :mod:`batak.solver` re-exports all of these.
"""

from __future__ import annotations

from dataclasses import dataclass

from batak.cards import Card, CardMask, Suit, card_code
from batak.deal import Deal
from batak.rules import Rules
from batak.scoring import same_side


class BudgetExceeded(RuntimeError):
    """:meth:`Solver.solve` gave up: the search needed more than ``max_nodes`` nodes.

    What it found so far stays in the solver's table, so a later call (with a
    larger budget) goes on from there."""

    def __init__(self, nodes: int) -> None:
        super().__init__(f"the search stopped after {nodes} nodes (max_nodes)")
        self.nodes = nodes


class PositionError(ValueError):
    """A position the solver cannot search; the message starts with the field's name."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Position:
    """A play-phase position with every hand known.

    ``hands`` are the cards each seat still holds; ``trick`` the cards already
    on the table in playing order, the first of them ``leader``'s (empty at the
    start of a trick). ``holder`` is the contract holder; the solver counts
    the tricks of the holder's side (the holder and, with partnerships, the
    seat opposite).
    """

    rules: Rules
    hands: tuple[CardMask, CardMask, CardMask, CardMask]
    trump: Suit
    leader: int
    holder: int
    trump_broken: bool = False
    trick: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        check_position(self)

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, the one on the table included."""
        return self.hands[self.leader].bit_count() + (1 if self.trick else 0)

    def on_side(self, seat: int) -> bool:
        """Whether ``seat`` plays with the contract holder."""
        return same_side(self.rules, seat, self.holder)


def check_position(pos: Position) -> None:
    """Raise :class:`PositionError` naming the field when ``pos`` is not a position."""
    if not isinstance(pos.rules, Rules):
        raise PositionError("rules", "expected a Rules")
    if len(pos.hands) != 4:
        raise PositionError("hands", f"expected 4 hands, got {len(pos.hands)}")
    for name, value in (("leader", pos.leader), ("holder", pos.holder)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
            raise PositionError(name, f"expected a seat 0..3, got {value!r}")
    if not isinstance(pos.trump, Suit):
        raise PositionError("trump", f"expected a suit S, H, D or C, got {pos.trump!r}")
    if pos.rules.fixed_trump is not None and pos.trump != pos.rules.fixed_trump:
        raise PositionError("trump", f"the rules fix trump to {pos.rules.fixed_trump.letter}")
    if not isinstance(pos.trump_broken, bool):
        raise PositionError("trump_broken", f"expected true or false, got {pos.trump_broken!r}")
    seen = 0
    for s, hand in enumerate(pos.hands):
        if not isinstance(hand, int) or hand < 0 or hand >> 52:
            raise PositionError(f"hands[{s}]", "not a set of cards")
        if seen & hand:
            twice = card_code((seen & hand).bit_length() - 1)
            raise PositionError(f"hands[{s}]", f"{twice} is in two hands")
        seen |= hand
    if len(pos.trick) > 3:
        raise PositionError("trick", f"at most 3 cards, got {len(pos.trick)}")
    for i, card in enumerate(pos.trick):
        if not isinstance(card, int) or not 0 <= card < 52:
            raise PositionError(f"trick[{i}]", f"not a card: {card!r}")
        if seen >> card & 1:
            raise PositionError(f"trick[{i}]", f"{card_code(card)} is also in a hand")
        seen |= 1 << card
    sizes = [h.bit_count() for h in pos.hands]
    n = len(pos.trick)
    waiting = sizes[pos.to_act]
    for k in range(4):
        seat = (pos.leader + k) % 4
        want = waiting - 1 if k < n else waiting
        if sizes[seat] != want:
            raise PositionError(
                f"hands[{seat}]",
                f"holds {sizes[seat]} cards, {want} expected"
                + (" (the hands must be of equal length)" if n == 0 else " with this trick"),
            )
    if waiting == 0 and n:
        raise PositionError("trick", "the hands are empty")


def deal_position(deal: Deal) -> Position:
    """Where a deal in its play stands, every hand face up, the seat to act to play."""
    assert deal.contract is not None and deal.trump is not None
    leader = deal.trick_leader if deal.trick else deal.to_act
    h = deal.hands
    return Position(
        deal.rules,
        (h[0], h[1], h[2], h[3]),
        deal.trump,
        leader,
        deal.contract.seat,
        deal.trump_broken,
        tuple(deal.trick),
    )


__all__ = ["BudgetExceeded", "Position", "PositionError", "check_position", "deal_position"]
