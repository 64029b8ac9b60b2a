"""The rules of the play phase, defined once: legal cards, trump breaking, trick winners,
and who sits across the table (:func:`partner`).

Everything works on the card/mask representation of :mod:`batak.cards` and on
plain ints, so the engine (:class:`~batak.deal.Deal`), the simulator and the
exact solver (:mod:`batak.ai.sim`) and the inference code
(:mod:`batak.ai.knowledge`) can all call it in their inner loops.

A trick on the table is summed up by three ints:

* ``led``: the first card, or ``-1`` when the trick is empty;
* ``led_high``: the highest card of the led suit in it (``-1`` when empty);
* ``trump_high``: the highest trump in it, or ``-1`` when it holds none.

:func:`trick_state` computes them from the cards, :func:`add_card` updates them
card by card (the engine keeps them up to date itself, in its hot path; a test
checks that it agrees). ``tmask`` is the mask of the trump suit; ``lead_rule``
is the :func:`lead_code` of the ``trump_lead`` option.

>>> from batak.cards import SUIT_MASKS, Suit, parse_cards, parse_card, cards_of, card_code
>>> hearts = SUIT_MASKS[Suit.H]
>>> hand = parse_cards(["AS", "2S", "KH", "3D"])
>>> trick = [parse_card("QS")]
>>> [card_code(c) for c in cards_of(legal_mask(hand, trick, hearts, False, False))]
['AS']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from batak.cards import ABOVE as _CARDS_ABOVE
from batak.cards import FULL_DECK, Card, CardMask
from batak.cards import SUIT_MASKS as _CARDS_SUIT_MASKS
from batak.rules import TrumpLead

ABOVE: Final[tuple[CardMask, ...]] = _CARDS_ABOVE
SUIT_MASKS: Final[tuple[CardMask, ...]] = _CARDS_SUIT_MASKS
# (This module's own names for the tables of :mod:`batak.cards`: compiled with mypyc
# (``build_native.py``), a module's own constants are read without a dict lookup.)

LEAD_AFTER_TRUMP: Final = 0
"""``trump_lead = "after-trump-played"``: any trump played breaks trump."""
LEAD_AFTER_RUFF: Final = 1
"""``trump_lead = "after-ruff"``: a trump played on a trick led in another suit breaks it."""
LEAD_FREE: Final = 2
"""``trump_lead = "free"``: trump may always be led."""

_LEAD_CODES: Final[dict[str, int]] = {
    "after-trump-played": LEAD_AFTER_TRUMP,
    "after-ruff": LEAD_AFTER_RUFF,
    "free": LEAD_FREE,
}


def lead_code(trump_lead: TrumpLead) -> int:
    """The int code of a ``trump_lead`` option (what the other functions take).

    >>> lead_code("after-ruff") == LEAD_AFTER_RUFF
    True
    """
    return _LEAD_CODES[trump_lead]


def broken_at_start(lead_rule: int) -> bool:
    """Whether trump counts as broken before the first card (only under ``free``)."""
    return lead_rule == LEAD_FREE


def breaks_trump(lead_rule: int, tmask: CardMask, led: int, card: Card) -> bool:
    """Whether playing ``card`` breaks trump; ``led`` is the trick's first card, or -1
    when ``card`` leads.

    Under ``after-trump-played`` any trump does (leading one from an all-trump
    hand too); under ``after-ruff`` only a trump played to a trick led in
    another suit; under ``free`` trump is broken from the start anyway.

    >>> from batak.cards import SUIT_MASKS, parse_card
    >>> spades = SUIT_MASKS[0]
    >>> breaks_trump(LEAD_AFTER_RUFF, spades, -1, parse_card("AS"))
    False
    >>> breaks_trump(LEAD_AFTER_RUFF, spades, parse_card("2H"), parse_card("3S"))
    True
    >>> breaks_trump(LEAD_AFTER_TRUMP, spades, -1, parse_card("AS"))
    True
    """
    if not tmask >> card & 1:
        return False
    if lead_rule == LEAD_AFTER_RUFF:
        return led >= 0 and not tmask >> led & 1
    return True


@cache
def breaking_cards(lead_rule: int, trump: int) -> tuple[CardMask, ...]:
    """:func:`breaks_trump` as a table for inner loops: ``table[led + 1]`` is the mask
    of the cards that break trump when played to a trick led by ``led`` (-1: leading).

    >>> from batak.cards import parse_card
    >>> table = breaking_cards(LEAD_AFTER_RUFF, 0)
    >>> bool(table[0] >> parse_card("AS") & 1)
    False
    >>> bool(table[parse_card("2H") + 1] >> parse_card("3S") & 1)
    True
    """
    tmask = SUIT_MASKS[trump]
    return tuple(
        sum(1 << card for card in range(52) if breaks_trump(lead_rule, tmask, led, card))
        for led in range(-1, 52)
    )


def must_overtake(led: Card, trump_high: int, tmask: CardMask, overtake: bool) -> bool:
    """Whether a seat following suit must beat the highest card of the led suit.

    It must, unless the led suit is not trump, the trick holds a trump already
    and ``overtake_when_trumped`` is off.
    """
    return trump_high < 0 or overtake or bool(tmask >> led & 1)


def legal_cards(
    hand: CardMask,
    led: int,
    led_high: int,
    trump_high: int,
    tmask: CardMask,
    broken: bool,
    overtake: bool,
) -> CardMask:
    """The cards of ``hand`` that may be played to the trick summed up by
    ``led`` / ``led_high`` / ``trump_high`` (see the module doc).

    Leading: anything but a trump while trump is unbroken (unless the hand holds
    only trumps). Following: the led suit if possible, a card beating the
    highest of the led suit when there is one (see :func:`must_overtake`); else
    a trump, one beating the highest trump when there is one; else anything.
    """
    if led < 0:
        if not broken:
            other = hand & ~tmask
            if other:
                return other
        return hand
    follow = hand & SUIT_MASKS[led // 13]
    if follow:
        if trump_high >= 0 and not overtake and not tmask >> led & 1:
            return follow
        return (follow & ABOVE[led_high]) or follow
    trumps = hand & tmask
    if trumps:
        if trump_high >= 0:
            return (trumps & ABOVE[trump_high]) or trumps
        return trumps
    return hand


def trick_state(trick: Sequence[Card], tmask: CardMask) -> tuple[int, int, int]:
    """``(led, led_high, trump_high)`` of the cards on the table.

    >>> from batak.cards import SUIT_MASKS, parse_card, card_code
    >>> led, high, trump = trick_state([parse_card(c) for c in ("9D", "KD", "2S")], SUIT_MASKS[0])
    >>> card_code(led), card_code(high), card_code(trump)
    ('9D', 'KD', '2S')
    """
    if not trick:
        return -1, -1, -1
    led = trick[0]
    led_high = led
    trump_high = led if tmask >> led & 1 else -1
    suit = led // 13
    for c in trick[1:]:
        if c // 13 == suit and c > led_high:
            led_high = c
        if tmask >> c & 1 and c > trump_high:
            trump_high = c
    return led, led_high, trump_high


def add_card(
    led: int, led_high: int, trump_high: int, card: Card, tmask: CardMask
) -> tuple[int, int, int]:
    """The trick summary after ``card`` is played to it (``led == -1``: ``card`` leads)."""
    if led < 0:
        return card, card, card if tmask >> card & 1 else -1
    if card // 13 == led // 13 and card > led_high:
        led_high = card
    if tmask >> card & 1 and card > trump_high:
        trump_high = card
    return led, led_high, trump_high


def legal_mask(
    hand: CardMask, trick: Sequence[Card], tmask: CardMask, broken: bool, overtake: bool
) -> CardMask:
    """:func:`legal_cards` for the cards on the table, given as a sequence."""
    if not trick:
        if not broken:
            other = hand & ~tmask
            if other:
                return other
        return hand
    # trick_state, written out: this is the simulator's inner loop.
    led = trick[0]
    led_high = led
    trump_high = led if tmask >> led & 1 else -1
    suit = led // 13
    for c in trick[1:]:
        if c // 13 == suit and c > led_high:
            led_high = c
        if tmask >> c & 1 and c > trump_high:
            trump_high = c
    return legal_cards(hand, led, led_high, trump_high, tmask, broken, overtake)


def winning_card(led_high: int, trump_high: int) -> int:
    """The card winning the trick so far: the highest trump, else the highest of the led suit."""
    return trump_high if trump_high >= 0 else led_high


def trick_best(trick: Sequence[Card], tmask: CardMask) -> int:
    """The index in ``trick`` of the card winning it so far.

    >>> from batak.cards import SUIT_MASKS, parse_card
    >>> trick_best([parse_card(c) for c in ("9D", "KD", "2S", "AD")], SUIT_MASKS[0])
    2
    """
    best = 0
    b = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if c // 13 == b // 13:
            if c > b:
                best, b = i, c
        elif tmask >> c & 1:
            best, b = i, c
    return best


def partner(seat: int) -> int:
    """The seat across the table (0 and 2 sit opposite, 1 and 3): the partner when the
    rules play in partnerships. Defined here, beside the other seat arithmetic, so that
    the simulator's card policy (compiled with this module) calls it natively.

    >>> [partner(seat) for seat in range(4)]
    [2, 3, 0, 1]
    """
    return (seat + 2) % 4


def trick_winner(leader: int, cards: Sequence[Card], trump: int | None) -> int:
    """The seat winning a (possibly incomplete) trick led by ``leader`` so far;
    ``trump`` is the trump suit (``None`` before one is named)."""
    tmask = SUIT_MASKS[trump] if trump is not None else 0
    return (leader + trick_best(cards, tmask)) % 4


def excluded_by_play(
    card: Card,
    led: int,
    led_high: int,
    trump_high: int,
    tmask: CardMask,
    broken: bool,
    overtake: bool,
) -> CardMask:
    """The cards a seat cannot have held when it legally played ``card`` to the trick
    summed up by ``led`` / ``led_high`` / ``trump_high``: the inverse of
    :func:`legal_cards`, which the inference of hidden hands rests on.

    Every hand ``h`` holding ``card`` with ``card`` in ``legal_cards(h, ...)``
    has ``h & excluded_by_play(card, ...) == 0``, and the result is the largest
    such set the rules alone give.

    >>> from batak.cards import SUIT_MASKS, parse_card, cards_of, card_code
    >>> hearts = SUIT_MASKS[1]
    >>> out = excluded_by_play(parse_card("4D"), parse_card("9D"), parse_card("9D"), -1,
    ...                        hearts, True, False)
    >>> [card_code(c) for c in cards_of(out)]
    ['TD', 'JD', 'QD', 'KD', 'AD']
    """
    is_trump = tmask >> card & 1
    if led < 0:
        if is_trump and not broken:
            return FULL_DECK & ~tmask  # led trump unbroken: held only trumps
        return 0
    led_mask = SUIT_MASKS[led // 13]
    if led_mask >> card & 1:
        if card < led_high and must_overtake(led, trump_high, tmask, overtake):
            return ABOVE[led_high]
        return 0
    out = led_mask
    if is_trump:
        if card < trump_high:
            out |= ABOVE[trump_high]
    else:
        out |= tmask
    return out
