"""Scoring, defined once: who is contracted to what, whether the contract was made,
deal scores, places in a match, and the order a hand is shown in.

The texts, buttons and pictures of the outer layers read these functions
instead of working the answers out again.

>>> from batak.rules import preset
>>> rules = preset("standard")
>>> contract = Holding(seat=1, bid=6)
>>> targets(rules, contract)
(1, 6, 1, 1)
>>> contract_made(rules, contract, [2, 7, 3, 1])
True
>>> score_deal(rules, contract, [2, 7, 3, 1])
[11, 61, 12, 10]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from batak.cards import HAND_SUIT_ORDER, hand_order_key, sort_codes, sort_hand
from batak.play import partner
from batak.rules import Rules, Scoring


class ContractLike(Protocol):
    """Anything with the holder's seat and the bid (a :class:`~batak.deal.Contract`)."""

    @property
    def seat(self) -> int: ...

    @property
    def bid(self) -> int: ...


class SidesLike(Protocol):
    """Anything that says whether partners score together: a :class:`~batak.rules.Rules`,
    or a picture's view model that carries the ``partnership`` flag."""

    @property
    def partnership(self) -> bool: ...


class Holding(NamedTuple):
    """A bare contract (holder and bid), for callers without a :class:`~batak.deal.Contract`."""

    seat: int
    bid: int


# --- sides and targets --------------------------------------------------------------


def same_side(rules: SidesLike, a: int, b: int) -> bool:
    """Whether seats ``a`` and ``b`` score together (the same seat, or partners).

    >>> from batak.rules import preset
    >>> same_side(preset("esli"), 0, 2), same_side(preset("standard"), 0, 2)
    (True, False)
    """
    return a == b or (rules.partnership and a == partner(b))


def is_holder_side(rules: SidesLike, contract: ContractLike, seat: int) -> bool:
    """Whether ``seat`` is the contract holder or, in partnerships, its partner."""
    return same_side(rules, seat, contract.seat)


def side_tricks(rules: SidesLike, tricks_won: Sequence[int], seat: int) -> int:
    """The tricks that count for ``seat``: its own, plus its partner's in partnerships.

    >>> from batak.rules import preset
    >>> side_tricks(preset("esli"), [3, 4, 2, 4], 0)
    5
    """
    if rules.partnership:
        return tricks_won[seat] + tricks_won[partner(seat)]
    return tricks_won[seat]


def target(rules: Rules, contract: ContractLike, seat: int) -> int | None:
    """The tricks ``seat`` (its side, in partnerships) is contracted to take.

    The holder's side: the bid. The others: 1 under ``"tens"`` scoring, none
    (``None``) under ``"tricks"``, where they simply score their tricks.
    """
    if is_holder_side(rules, contract, seat):
        return contract.bid
    return 1 if rules.scoring == "tens" else None


def targets(
    rules: Rules, contract: ContractLike | None
) -> tuple[int | None, int | None, int | None, int | None]:
    """:func:`target` for the four seats (all ``None`` before there is a contract).

    >>> from batak.rules import preset
    >>> targets(preset("classic"), Holding(2, 5))
    (None, None, 5, None)
    >>> targets(preset("esli"), Holding(1, 8))
    (None, 8, None, 8)
    """
    if contract is None:
        return (None, None, None, None)
    return (
        target(rules, contract, 0),
        target(rules, contract, 1),
        target(rules, contract, 2),
        target(rules, contract, 3),
    )


def tricks_to_defeat(contract: ContractLike) -> int:
    """How many tricks the defenders together need to make the holder go down.

    >>> tricks_to_defeat(Holding(0, 6))
    8
    """
    return 14 - contract.bid


def contract_made(rules: SidesLike, contract: ContractLike, tricks_won: Sequence[int]) -> bool:
    """Whether the holder (with its partner in partnerships) took at least the bid.

    ``tricks_won`` may be the final counts or those so far (then: made already).

    >>> from batak.rules import preset
    >>> contract_made(preset("esli"), Holding(0, 7), [4, 3, 3, 3])
    True
    >>> contract_made(preset("standard"), Holding(0, 7), [4, 3, 3, 3])
    False
    """
    return side_tricks(rules, tricks_won, contract.seat) >= contract.bid


def seat_made(
    rules: Rules, contract: ContractLike, tricks_won: Sequence[int], seat: int
) -> bool | None:
    """Whether ``seat`` reached its :func:`target` (``None`` for a seat without one).

    >>> from batak.rules import preset
    >>> seat_made(preset("standard"), Holding(0, 5), [6, 0, 4, 3], 1)
    False
    """
    return target_made(rules, target(rules, contract, seat), tricks_won, seat)


def target_made(
    rules: SidesLike, goal: int | None, tricks_won: Sequence[int], seat: int
) -> bool | None:
    """Whether ``seat``'s side took its ``goal`` (a :func:`target`; ``None``: no target,
    so neither made nor down). For callers that keep the targets, like the pictures.

    >>> from batak.rules import preset
    >>> esli = preset("esli")
    >>> target_made(esli, 7, [4, 0, 3, 6], 0), target_made(esli, None, [0] * 4, 1)
    (True, None)
    """
    if goal is None:
        return None
    return side_tricks(rules, tricks_won, seat) >= goal


# --- deal scores ----------------------------------------------------------------


def seat_score(scoring: Scoring, tricks: int, is_holder: bool, bid: int) -> int:
    """One seat's (or side's) score for a deal, by the ``scoring`` rule.

    >>> seat_score("tens", 7, True, 6), seat_score("tens", 5, True, 6)
    (61, -60)
    >>> seat_score("tens", 3, False, 6), seat_score("tens", 0, False, 6)
    (12, -10)
    >>> seat_score("tricks", 7, True, 6), seat_score("tricks", 5, True, 6)
    (7, -6)
    """
    if scoring == "tens":
        goal = bid if is_holder else 1
        return 10 * goal + (tricks - goal) if tricks >= goal else -10 * goal
    if is_holder:
        return tricks if tricks >= bid else -bid
    return tricks


def score_deal(rules: Rules, contract: ContractLike, tricks_won: Sequence[int]) -> list[int]:
    """The score of each seat for a finished deal, by ``rules.scoring``.

    In partnerships both partners get their team's score.

    >>> from batak.rules import preset
    >>> score_deal(preset("esli"), Holding(1, 8), [3, 5, 2, 3])
    [5, 8, 5, 8]
    """
    holder, bid = contract.seat, contract.bid
    return [
        seat_score(
            rules.scoring,
            side_tricks(rules, tricks_won, s),
            same_side(rules, s, holder),
            bid,
        )
        for s in range(4)
    ]


# --- a match ----------------------------------------------------------------------


def placements(totals: Sequence[int], partnership: bool = False) -> list[int]:
    """Each seat's place in a match, 1 = best; equal totals share a place.

    Alone: 1 + the number of seats with a higher total. In partnerships the
    pairs are placed, not the seats: there are two places, the winning pair is
    both 1st and the other pair both 2nd (both 1st when the pairs are level).

    >>> placements([30, 12, 30, -5])
    [1, 3, 1, 4]
    >>> placements([40, 25, 40, 25], partnership=True)
    [1, 2, 1, 2]
    >>> placements([10, 10, 10, 10], partnership=True)
    [1, 1, 1, 1]
    """
    if len(totals) != 4:
        raise ValueError(f"placements need four totals, got {len(totals)}")
    if partnership:
        sides = (totals[0], totals[1])
        return [1 + sum(1 for t in sides if t > totals[s % 2]) for s in range(4)]
    return [1 + sum(1 for t in totals if t > totals[s]) for s in range(4)]


def winners(totals: Sequence[int]) -> list[int]:
    """The seats with the highest total (partners share a total, so win together).

    >>> winners([30, 12, 30, -5])
    [0, 2]
    """
    top = max(totals)
    return [s for s in range(len(totals)) if totals[s] == top]


# --- the order a hand is shown in, and the seat across ------------------------------
# Defined in batak.cards (the lowest layer, so that format_cards uses it too) and
# offered here with the other presentation facts: HAND_SUIT_ORDER, hand_order_key,
# sort_hand and sort_codes. The same for partner, defined in batak.play.


__all__ = [
    "HAND_SUIT_ORDER",
    "ContractLike",
    "Holding",
    "SidesLike",
    "contract_made",
    "hand_order_key",
    "is_holder_side",
    "partner",
    "placements",
    "same_side",
    "score_deal",
    "seat_made",
    "seat_score",
    "side_tricks",
    "sort_codes",
    "sort_hand",
    "target",
    "target_made",
    "targets",
    "tricks_to_defeat",
    "winners",
]
