"""Deterministic dealing from integer seeds, the same on every platform.

Shuffling does not use :mod:`random` (whose algorithms are not promised to
stay the same across Python versions). A seed is turned into 52 keys of 64
bits by SHAKE-256 (the bytes of ``"batak-shuffle/1|<seed>"``, read as big-endian
unsigned 64-bit numbers), one key per card in card order (spades 2 … clubs A),
and the deck is the cards sorted by key (equal keys, which practically never
happen, keep card order). Sorting by independent uniform keys is a uniform
shuffle, so a seed gives the same four hands everywhere, forever.

Seeds are non-negative integers below 2**63: they fit SQLite's INTEGER.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import struct

from batak.cards import CardMask

SEED_LIMIT = 1 << 63
_UNPACK = struct.Struct(">52Q").unpack


def shuffled_deck(seed: int) -> list[int]:
    """The 52 cards in the order that ``seed`` gives."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a seed must be an integer 0 <= seed < 2**63, not {seed!r}")
    keys = _UNPACK(hashlib.shake_256(b"batak-shuffle/1|%d" % seed).digest(416))
    return sorted(range(52), key=keys.__getitem__)


def deal_hands(seed: int) -> tuple[CardMask, CardMask, CardMask, CardMask]:
    """Four 13-card hands: seat ``s`` gets cards ``13*s .. 13*s+12`` of the shuffled deck."""
    deck = shuffled_deck(seed)
    hands = [0, 0, 0, 0]
    for i, card in enumerate(deck):
        hands[i // 13] |= 1 << card
    return hands[0], hands[1], hands[2], hands[3]


def _hash_seed(text: str) -> int:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_seed(match_seed: int, index: int) -> int:
    """The seed of deal ``index`` (0-based) of the match played from ``match_seed``.

    ``SHA-256("batak-deal/1|<match_seed>|<index>")``, first 8 bytes big-endian, shifted
    right by one bit (so it is below 2**63).
    """
    return _hash_seed(f"batak-deal/1|{match_seed}|{index}")


def daily_seed(day: _dt.date, scope: str) -> int:
    """The match seed for ``day`` (a UTC date) and ``scope`` (e.g. a server id).

    Everyone who asks with the same day and scope gets the same seed, so the
    same deals: ``SHA-256("batak-daily/1|<YYYY-MM-DD>|<scope>")``, first 8 bytes
    big-endian, shifted right by one bit. Pass ``datetime.now(timezone.utc).date()``.
    """
    if isinstance(day, _dt.datetime):
        if day.tzinfo is not None:
            day = day.astimezone(_dt.UTC)
        day = day.date()
    return _hash_seed(f"batak-daily/1|{day.isoformat()}|{scope}")
