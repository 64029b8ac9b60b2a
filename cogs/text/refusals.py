"""The engine's refusals in the reader's language.

The engine says why it refuses a move as a :class:`~batak.Refusal` (a code and values:
cards, suits, numbers); here it becomes the message ``refusal.<code>``, its cards
written as the bot writes them (``9♥``), its suits with their names in the language
(``♥ Kupa``), the cards allowed instead joined the language's way (``9♥ veya J♥``) and
seats counted from 1. A :class:`~tables.ServiceError` whose parameters hold a refusal
(``error.illegal``) is worded through :func:`error_text`.

Table settings the engine refuses (a :class:`~batak.RulesError`, ``error.bad_rules``) and
server or personal settings the store refuses (an :class:`~data.InvalidSettingError`,
``error.bad_setting``) are worded the same way, from their code and values
(``bad_rules.<code>``, ``bad_setting.<code>``). Option names and values stay as people
type them (``min_bid``, ``on``), in code marks: they are what to write, not words.
"""

from __future__ import annotations

from collections.abc import Mapping

from batak import SUITS, Refusal, RulesError, card_label
from data import InvalidSettingError
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


def _code(value: object) -> str:
    """A name or value as it is typed, in code marks (a repr's quotes dropped)."""
    text = str(value)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return "`" + text.replace("`", "'") + "`"


def _values(params: Mapping[str, object], lang: str) -> dict[str, object]:
    """The values of a rules or setting error as a message shows them: names and values
    in code marks, the ones to choose from joined the language's way."""
    values: dict[str, object] = {}
    for name, value in params.items():
        if name in ("allowed", "presets") and isinstance(value, tuple):
            values[name] = or_list([_code(v) for v in value], lang)
        elif name in ("options", "known") and isinstance(value, tuple):
            values[name] = ", ".join(_code(v) for v in value)
        elif name in ("option", "name", "value", "text"):
            values[name] = _code(value)
        else:
            values[name] = value
    return values


def rules_error_text(error: RulesError, lang: str) -> str:
    """Why table settings were refused, in ``lang`` (the message ``bad_rules.<code>``)."""
    return t(f"bad_rules.{error.code}", lang, **_values(error.params, lang))


def setting_error_text(error: InvalidSettingError, lang: str) -> str:
    """Why a setting was refused, in ``lang`` (the message ``bad_setting.<code>``)."""
    return t(f"bad_setting.{error.code}", lang, **_values(error.params, lang))


def _reason(value: object, lang: str) -> object:
    if isinstance(value, Refusal):
        return refusal_text(value, lang)
    if isinstance(value, RulesError):
        return rules_error_text(value, lang)
    if isinstance(value, InvalidSettingError):
        return setting_error_text(value, lang)
    return value


def error_text(error: ServiceError, lang: str) -> str:
    """The message of a refused request in ``lang``, an engine refusal, a rules error or
    a setting error among its parameters worded in ``lang`` too (never the English of
    the engine or the store)."""
    params = {name: _reason(value, lang) for name, value in error.params.items()}
    return t(error.key, lang, **params)
