"""Deterministic dealing from integer seeds, the same on every platform.

Shuffling does not use :mod:`random` (whose algorithms are not promised to
stay the same across Python versions). A seed is turned into a stream of
bytes by SHAKE-256 (``"batak-shuffle/1|<seed>"``), read as big-endian 64-bit
numbers, and those drive a Fisher–Yates shuffle with rejection sampling (a
number at or above the largest multiple of ``n`` below 2**64 is skipped), so a
seed gives the same four hands everywhere, forever.

Seeds are non-negative integers below 2**63: they fit SQLite's INTEGER.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import struct

from batak.cards import CardMask

SEED_LIMIT = 1 << 63
_DRAWS = 51


def _stream(seed: int, words: int) -> tuple[int, ...]:
    data = hashlib.shake_256(b"batak-shuffle/1|%d" % seed).digest(8 * words)
    return struct.unpack(f">{words}Q", data)


def shuffled_deck(seed: int) -> list[int]:
    """The 52 cards in the order that ``seed`` gives."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a seed must be an integer 0 <= seed < 2**63, not {seed!r}")
    words = _DRAWS + 8
    numbers = _stream(seed, words)
    deck = list(range(52))
    k = 0
    for i in range(51, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            if k == len(numbers):  # astronomically rare: read further along the stream
                words *= 2
                numbers = _stream(seed, words)
            r = numbers[k]
            k += 1
            if r < limit:
                break
        j = r % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


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
