"""The words drawn in the pictures: the ``img.`` entries of the catalogues in ``locales/``.

Every renderer takes ``lang`` (``"en"`` default, ``"tr"``, ``"de"``, ``"pt"``, ``"uk"``,
``"sw"``, ``"es"``, ``"fr"``); an unknown language or a missing key falls back to
English. Plural forms and numbers are chosen by :func:`locales.message` from the
values, so ``text_for("uk", "img.n_cards", n=5)`` is "5 карт".
"""

from __future__ import annotations

import locales


def text_for(lang: str, key: str, **values: object) -> str:
    """The label ``key`` (an ``img.`` message id) in ``lang``, with ``values`` filled in."""
    return locales.message(lang, key, **values)


def upper(lang: str, s: str) -> str:
    """Capitals the way ``lang`` writes them (Turkish: i → İ, ı → I)."""
    return locales.upper(lang, s)


SUIT_KEYS = {"S": "img.suit.S", "H": "img.suit.H", "D": "img.suit.D", "C": "img.suit.C"}


def suit_name(lang: str, suit: str) -> str:
    return text_for(lang, SUIT_KEYS[suit])
