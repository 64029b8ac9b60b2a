"""The engine's refusals in the reader's language.

The engine says why it refuses a move as a :class:`~batak.Refusal` (a code and values:
cards, suits, numbers); here it becomes the message ``refusal.<code>``, its cards
written as the bot writes them (``9♥``), its suits with their names in the language
(``♥ Kupa``), the cards allowed instead joined the language's way (``9♥ veya J♥``) and
seats counted from 1. A :class:`~tables.ServiceError` whose parameters hold a refusal
(``error.illegal``) is worded through :func:`error_text`.
"""

from __future__ import annotations

from batak import SUITS, Refusal, card_label
from tables import ServiceError

from ..i18n import or_list, t
from .words import suit_text


def refusal_text(refusal: Refusal, lang: str) -> str:
    """``refusal`` as a sentence in ``lang`` (the message ``refusal.<code>``)."""
    values: dict[str, object] = {}
    for name, value in refusal.params.items():
        if name == "card" and isinstance(value, int):
            values[name] = card_label(value)
        elif name == "choices" and isinstance(value, tuple):
            values[name] = or_list([card_label(c) for c in value], lang)
        elif name in ("suit", "trump") and isinstance(value, int):
            values[name] = suit_text(SUITS[value], lang)
        elif name == "seat" and isinstance(value, int):
            values[name] = value + 1  # people count seats from 1
        else:
            values[name] = value
    return t(f"refusal.{refusal.code}", lang, **values)


def error_text(error: ServiceError, lang: str) -> str:
    """The message of a refused request in ``lang``, an engine refusal among its
    parameters worded in ``lang`` too (never the engine's English)."""
    params = {
        name: refusal_text(value, lang) if isinstance(value, Refusal) else value
        for name, value in error.params.items()
    }
    return t(error.key, lang, **params)
