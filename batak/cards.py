"""Cards, suits, ranks and hands.

A card is a plain ``int`` from 0 to 51: ``suit * 13 + (rank - 2)``. A set of
cards (a hand, the cards played so far, a legal set) is a 52-bit mask, also a
plain ``int``: bit ``c`` is set when card ``c`` is in the set. Masks make the
rules fast (following suit is one ``&``) and are cheap to copy.

The text notation is the one of ``game-record.md``: rank then suit, ranks
``2 3 4 5 6 7 8 9 T J Q K A`` and suits ``S H D C``, e.g. ``"TH"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

Card = int
"""A card: ``suit * 13 + rank - 2``, 0..51."""

CardMask = int
"""A set of cards as a 52-bit mask."""


class Suit(IntEnum):
    """The four suits, in the order of the record notation."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def letter(self) -> str:
        """The record letter: ``"S"``, ``"H"``, ``"D"`` or ``"C"``."""
        return self.name

    @property
    def symbol(self) -> str:
        """The suit symbol: ♠ ♥ ♦ ♣."""
        return SUIT_SYMBOLS[self]

    @property
    def english(self) -> str:
        """The English name, plural: ``"Spades"``."""
        return SUIT_NAMES[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.H, Suit.D)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter (``"H"``), symbol (``"♥"``) or English name."""
        key = text.strip()
        for suit in cls:
            if key.upper() in (suit.letter, suit.english.upper(), suit.english[:-1].upper()):
                return suit
            if key == suit.symbol or key == SUIT_OUTLINE_SYMBOLS[suit]:
                return suit
        raise ValueError(f"not a suit: {text!r} (use S, H, D or C)")


SUITS: Final = (Suit.S, Suit.H, Suit.D, Suit.C)
SUIT_SYMBOLS: Final = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
SUIT_OUTLINE_SYMBOLS: Final = {Suit.S: "♤", Suit.H: "♡", Suit.D: "♢", Suit.C: "♧"}
SUIT_NAMES: Final = {Suit.S: "Spades", Suit.H: "Hearts", Suit.D: "Diamonds", Suit.C: "Clubs"}

RANKS: Final = tuple(range(2, 15))
"""Ranks 2..14; 11 = J, 12 = Q, 13 = K, 14 = A."""

RANK_CHARS: Final = "23456789TJQKA"
RANK_LABELS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

FULL_DECK: Final[CardMask] = (1 << 52) - 1
SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
"""``SUIT_MASKS[suit]``: the 13 cards of a suit."""

ABOVE: Final = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
"""``ABOVE[card]``: the cards of the same suit that beat ``card``."""

_BIT_INDEX: Final = {1 << i: i for i in range(52)}


def make_card(rank: int, suit: Suit | int) -> Card:
    """The card of this rank (2..14) and suit."""
    if not 2 <= rank <= 14:
        raise ValueError(f"rank must be 2..14, not {rank}")
    return int(suit) * 13 + rank - 2


def card_suit(card: Card) -> Suit:
    return SUITS[card // 13]


def card_rank(card: Card) -> int:
    """2..14 (14 is the ace)."""
    return card % 13 + 2


def card_code(card: Card) -> str:
    """The record notation: ``"TH"``."""
    return RANK_CHARS[card % 13] + "SHDC"[card // 13]


def card_label(card: Card) -> str:
    """What a person reads: ``"10♥"``, ``"A♠"``."""
    return RANK_LABELS[card % 13] + SUIT_SYMBOLS[SUITS[card // 13]]


_CODES: Final = {card_code(c): c for c in range(52)}


def parse_card(text: str) -> Card:
    """A card from the record notation (``"TH"``) or a looser human form.

    Accepted: ``"TH"``, ``"th"``, ``"10H"``, ``"10♥"``, ``"A♠"``, ``"qs"``.
    Raises ``ValueError`` naming the input otherwise.
    """
    code = _CODES.get(text)
    if code is not None:
        return code
    raw = text.strip().upper().replace(" ", "")
    if len(raw) >= 2:
        rank_part, suit_part = raw[:-1], raw[-1]
        if rank_part == "10":
            rank_part = "T"
        for suit in SUITS:
            if suit_part in (suit.letter, suit.symbol, SUIT_OUTLINE_SYMBOLS[suit]):
                if len(rank_part) == 1 and rank_part in RANK_CHARS:
                    return suit * 13 + RANK_CHARS.index(rank_part)
                break
    raise ValueError(f"not a card: {text!r} (examples: AS, TH, 10H, 7♣)")


def bit(card: Card) -> CardMask:
    return 1 << card


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def iter_cards(mask: CardMask) -> Iterator[Card]:
    """The cards of a mask, lowest first (spades 2 … clubs A)."""
    while mask:
        low = mask & -mask
        yield _BIT_INDEX[low]
        mask ^= low


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask as a sorted list."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_BIT_INDEX[low])
        mask ^= low
    return out


def lowest(mask: CardMask) -> Card:
    """The lowest card of a non-empty mask."""
    return _BIT_INDEX[mask & -mask]


def highest(mask: CardMask) -> Card:
    """The highest card of a non-empty mask."""
    return mask.bit_length() - 1


def count(mask: CardMask) -> int:
    return mask.bit_count()


def parse_cards(texts: Iterable[str]) -> CardMask:
    return mask_of(parse_card(t) for t in texts)


# --- the one order a hand is shown in (texts, buttons and pictures) -----------------

HAND_SUIT_ORDER: Final[tuple[Suit, Suit, Suit, Suit]] = (Suit.S, Suit.H, Suit.C, Suit.D)
"""Suits in the order a hand is shown: ♠ ♥ ♣ ♦, so that the colours alternate."""

_HAND_KEYS: Final = tuple((HAND_SUIT_ORDER.index(SUITS[c // 13]), 12 - c % 13) for c in range(52))


def hand_order_key(card: Card) -> tuple[int, int]:
    """The sort key of the hand order: by suit ♠ ♥ ♣ ♦, high card first.

    >>> hand_order_key(parse_card("AS")) < hand_order_key(parse_card("2S"))
    True
    >>> hand_order_key(parse_card("2H")) < hand_order_key(parse_card("AC"))
    True
    """
    return _HAND_KEYS[card]


def sort_hand(cards: CardMask | Iterable[Card]) -> list[Card]:
    """The cards (a mask, or an iterable of cards) in the order a hand is shown.

    >>> [card_code(c) for c in sort_hand(parse_cards(["2D", "AS", "TC", "KH", "3S"]))]
    ['AS', '3S', 'KH', 'TC', '2D']
    """
    items = cards_of(cards) if isinstance(cards, int) else list(cards)
    return sorted(items, key=_HAND_KEYS.__getitem__)


def sort_codes(codes: Iterable[str]) -> list[str]:
    """Record codes (``"TH"``) in the order a hand is shown; raises ``ValueError``
    on a code that is not a card.

    >>> sort_codes(["2D", "AS", "TC", "KH", "3S"])
    ['AS', '3S', 'KH', 'TC', '2D']
    """
    return [card_code(c) for c in sort_hand(parse_card(code) for code in codes)]


def format_cards(mask: CardMask) -> str:
    """A hand for people, by suit in the hand order, high cards first.

    >>> format_cards(parse_cards(["AS", "7S", "TH", "QC", "2C"]))
    '♠ A 7  ♥ 10  ♣ Q 2  ♦ –'
    """
    parts = []
    for suit in HAND_SUIT_ORDER:
        ranks = [RANK_LABELS[c % 13] for c in reversed(cards_of(mask & SUIT_MASKS[suit]))]
        parts.append(f"{suit.symbol} {' '.join(ranks) if ranks else '–'}")
    return "  ".join(parts)
