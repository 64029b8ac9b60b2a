"""The translation catalogues of batak-bot and the one function that renders a message.

Every text the bot shows, in messages and in pictures, lives in ``locales/xx.json``
(``xx`` a language code); keys starting ``img.`` are drawn in the pictures. A value
is either a text with ``{name}`` placeholders or, where a noun follows a number, an
object of CLDR plural forms::

    "img.n_deals": {"one": "{n} deal", "other": "{n} deals"}

The form is picked (through Babel's CLDR rules) by the placeholder of the ``other``
form, or by the one named in ``"_count"`` when that form has several. Every
category of the language must be there (English ``one``/``other``, Ukrainian
``one``/``few``/``many``/``other``...).

Numbers are written the way the language writes them, inside :func:`message`:

- ``{x}`` — an int, a float or a string written as a decimal number (``"5.9"``)
  is formatted per locale (``5,9`` in Turkish), keeping a string's digits;
- ``{x:.1f}`` — a fixed count of decimals, ``{x:+.1f}`` with a sign;
- ``{x:percent}`` — ``x`` counted in hundredths: ``62`` → ``62%``, ``%62``, ``62 %``;
- ``{x:count.tricks}`` — the number with its noun: the plural entry
  ``count.tricks`` rendered for ``x`` (``1 trick``, ``5,9 tricks``, ``5 взяток``).

This package imports neither discord nor the cogs, so the pictures use it too.
"""

from __future__ import annotations

import json
import logging
import re
import string
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent, get_plus_sign_symbol

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent
DEFAULT = "en"

Plural = Mapping[str, str]
Entry = str | Plural

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
_FIXED = re.compile(r"^(\+?)\.(\d)f$")
_DECIMAL = re.compile(r"^[+\-−]?\d+(\.\d+)?$")
_FORMATTER = string.Formatter()


@cache
def catalogues() -> Mapping[str, Mapping[str, Entry]]:
    """Every catalogue in ``locales/``, by language code (``_`` keys left out)."""
    out: dict[str, dict[str, Entry]] = {}
    for path in sorted(LOCALES_DIR.glob("*.json")):
        with path.open(encoding="utf-8") as f:
            data = json.load(f)
        cat: dict[str, Entry] = {}
        for k, v in data.items():
            if k.startswith("_"):
                continue
            if isinstance(v, dict):
                cat[str(k)] = {str(c): str(text) for c, text in v.items()}
            else:
                cat[str(k)] = str(v)
        out[path.stem] = cat
    if DEFAULT not in out:
        raise RuntimeError(f"no English catalogue in {LOCALES_DIR}")
    return out


def languages() -> tuple[str, ...]:
    return tuple(catalogues())


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_categories(lang: str) -> frozenset[str]:
    """The CLDR plural categories of ``lang`` (always with ``other``)."""
    return frozenset(_locale(lang).plural_form.tags) | {"other"}


def fields(text: str) -> list[str]:
    """The placeholder names of ``text``, in order (format spec and conversion ignored)."""
    return [name for _, name, _, _ in _FORMATTER.parse(text) if name is not None]


def specs(text: str) -> list[str]:
    """The format specs of ``text``'s placeholders (``count.tricks``, ``percent``...)."""
    return [spec for _, name, spec, _ in _FORMATTER.parse(text) if name is not None and spec]


def selector(entry: Plural) -> str:
    """The placeholder that picks the form of a plural entry."""
    named = entry.get("_count")
    if named:
        return named
    names = set(fields(entry.get("other", "")))
    if len(names) != 1:
        raise ValueError(f"plural entry needs a _count: its other form has {sorted(names)}")
    return names.pop()


def number(value: object) -> Decimal | None:
    """``value`` as a number when it is one (int, float, or a decimal string), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, Decimal):
        return value
    if isinstance(value, str) and _DECIMAL.match(value.strip()):
        try:
            return Decimal(value.strip().replace("−", "-"))
        except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
            return None
    return None


def _digits(value: object, n: Decimal) -> int:
    """How many decimals to show: a string's own, a float's (at most 3), none for an int."""
    if isinstance(value, str | Decimal):
        exp = n.as_tuple().exponent
        return -exp if isinstance(exp, int) and exp < 0 else 0
    if isinstance(value, float):
        return min(3, max(0, -int(n.normalize().as_tuple().exponent)))
    return 0


def format_number(lang: str, n: Decimal, digits: int, plus: bool = False) -> str:
    """``n`` with ``digits`` decimals, the language's separator and minus, no grouping."""
    return _format_number(lang, str(n), digits, plus)  # str: -0 and 0 stay apart


@lru_cache(maxsize=4096)
def _format_number(lang: str, value: str, digits: int, plus: bool) -> str:
    n = Decimal(value)
    pattern = "0" if digits == 0 else "0." + "0" * digits
    out = format_decimal(n, format=pattern, locale=_locale(lang))
    if out.startswith("-"):
        out = "−" + out[1:]  # the real minus sign, as the pictures write scores
    if plus and n >= 0:
        out = get_plus_sign_symbol(_locale(lang)) + out
    return out


def plural_form(lang: str, n: Decimal) -> str:
    """The CLDR category of ``n`` in ``lang`` (``5.9`` keeps its decimals: "other")."""
    return str(_locale(lang).plural_form(n))


class _Missing:
    def __init__(self, name: str) -> None:
        self.name = name

    def __format__(self, spec: str) -> str:
        return "{" + self.name + "}"


class _LocaleFormatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and key not in kwargs:
            return _Missing(key)
        return super().get_value(key, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> Any:
        if isinstance(value, _Missing):
            return format(value, format_spec)
        n = number(value)
        if format_spec == "":
            if n is None:
                return str(value)
            plus = isinstance(value, str) and value.strip().startswith("+")
            return format_number(self.lang, n, _digits(value, n), plus=plus)
        fixed = _FIXED.match(format_spec)
        if fixed is not None and n is not None:
            return format_number(self.lang, n, int(fixed.group(2)), plus=bool(fixed.group(1)))
        if format_spec == "percent" and n is not None:
            return format_percent(n / 100, locale=_locale(self.lang))
        if _entry(self.lang, format_spec) is not None:
            return counted(self.lang, format_spec, value)
        if n is None and (format_spec == "percent" or fixed is not None):
            return str(value)  # "?" where a number was expected: shown as it is
        return super().format_field(value, format_spec)


def _entry(lang: str, key: str) -> Entry | None:
    cats = catalogues()
    entry = cats.get(lang, {}).get(key)
    return entry if entry is not None else cats[DEFAULT].get(key)


def _pick(lang: str, entry: Plural, value: object) -> str:
    n = number(value)
    form = plural_form(lang, n) if n is not None else "other"
    return entry.get(form) or entry["other"]


def counted(lang: str, key: str, value: object) -> str:
    """The plural entry ``key`` for the number ``value``: ``counted("en", "count.tricks", 1)``
    is ``"1 trick"``."""
    entry = _entry(lang, key)
    if entry is None:
        log.warning("missing message id %r", key)
        return str(value)
    if isinstance(entry, str):
        return message(lang, key, n=value)
    return message(lang, key, **{selector(entry): value})


def or_list(lang: str, items: Sequence[str]) -> str:
    """Alternatives joined the language's way (CLDR): ``9♥ or J♥``, ``9♥ veya J♥``,
    ``9♥, J♥ або A♥``."""
    if lang not in catalogues():
        lang = DEFAULT
    return str(format_list(list(items), style="or", locale=_locale(lang)))


def message(lang: str, key: str, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` (else English, else the key) with ``params`` in.

    Plural forms are chosen and numbers formatted here, from the values; a
    placeholder without a value stays as ``{name}``. The catalogues do not change
    while the bot runs, so a message asked for again with the same values (a hand's
    title, edited after every card) is answered from a bounded cache.
    """
    # Only plain values make a key (an object could render differently later), and
    # their types are part of it: True == 1 == 1.0, yet each is written its own way.
    if not all(type(v) in _PLAIN for v in params.values()):
        return _message(lang, key, params)
    return _cached_message(lang, key, tuple(sorted((k, type(v), v) for k, v in params.items())))


_PLAIN = frozenset({str, int, float, bool, Decimal, type(None)})


@lru_cache(maxsize=4096)
def _cached_message(lang: str, key: str, items: tuple[tuple[str, type, Any], ...]) -> str:
    return _message(lang, key, {k: v for k, _, v in items})


def _message(lang: str, key: str, params: Mapping[str, Any]) -> str:
    cats = catalogues()
    if lang not in cats:
        lang = DEFAULT
    entry = cats[lang].get(key)
    if entry is None:
        entry = cats[DEFAULT].get(key)
        if entry is None:
            log.warning("missing message id %r", key)
            return key
        lang = DEFAULT
    if isinstance(entry, str):
        text = entry
    else:
        try:
            text = _pick(lang, entry, params.get(selector(entry)))
        except ValueError:
            log.warning("plural entry %r (%s) has no selector", key, lang)
            text = entry["other"]
    if not params and not isinstance(entry, Mapping):
        return text
    try:
        return _LocaleFormatter(lang).vformat(text, (), params)
    except (ValueError, IndexError, KeyError):
        log.warning("bad placeholders in %r (%s)", key, lang)
        return text


def upper(lang: str, s: str) -> str:
    """Capitals the way ``lang`` writes them (Turkish: i → İ, ı → I)."""
    if lang == "tr":
        s = s.replace("i", "İ").replace("ı", "I")
    return s.upper()
