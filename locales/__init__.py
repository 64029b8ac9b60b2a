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

Each catalogue also holds its language's glossary, the ``_glossary`` object at its top:
one word for each idea of the game (deal, trick, bid...) with the forms it takes in a
text, the words that must never stand for that idea, and the form of address the
texts use (see :func:`glossary`; ``tests/bot/test_bot_glossary.py`` holds every text to it).

This package imports neither discord nor the cogs, so the pictures use it too.
"""

from __future__ import annotations

import json
import logging
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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


@cache
def _raw_glossaries() -> Mapping[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    for path in sorted(LOCALES_DIR.glob("*.json")):
        with path.open(encoding="utf-8") as f:
            out[path.stem] = json.load(f).get("_glossary", {})
    return out


@dataclass(frozen=True)
class Term:
    """The word a language uses for one idea of the game.

    ``forms`` are how it shows in a text: a word, a phrase, ``"x*"`` for the words
    that start with ``x``, ``"*x"`` for those ending with it. ``never`` are words
    that must not stand for the idea. A ``normal`` word is also an ordinary word
    of the language (Ukrainian "карти", cards, for the hand), so it is not looked for
    in texts about other ideas.
    """

    idea: str
    word: str
    forms: tuple[str, ...]
    never: tuple[str, ...] = ()
    normal: bool = False
    unlike: tuple[str, ...] = ()
    """Words a form matches that are other words (Turkish "turnuva", a tournament, is
    not a "tur*", a deal)."""

    def found(self, lang: str, text: str) -> list[str]:
        """The places where ``text`` uses this term, as written there."""
        found = _find(lang, self.forms, text)
        if not self.unlike:
            return found
        other = _pattern(tuple(fold(lang, f) for f in self.unlike))
        return [w for w in found if other is None or not other.fullmatch(fold(lang, w))]

    def misused(self, lang: str, text: str) -> list[str]:
        """The words of ``never`` that ``text`` uses."""
        return _find(lang, self.never, text)


@dataclass(frozen=True)
class Address:
    """How the texts speak to the player: ``use`` (``"sen"``, ``"du"``...) and what
    betrays the other form: whole words (``avoid``), word endings (French ``-ez``),
    pieces inside a word (Turkish ``-nız``, as in "ayarlarınızı"), and the words that
    start like an exception ("yalnızca", "chez") though they have such a piece."""

    use: str
    avoid: tuple[str, ...] = ()
    endings: tuple[str, ...] = ()
    inside: tuple[str, ...] = ()
    exceptions: tuple[str, ...] = ()

    def other_form(self, lang: str, text: str) -> list[str]:
        """The words of ``text`` that address the reader in the other form."""
        hits = _find(lang, self.avoid, text, folded=lang not in CASED_ADDRESS)
        keep = tuple(fold(lang, w) for w in self.exceptions)
        for word in _WORD.findall(_PLACEHOLDER.sub(" ", text)):
            low = fold(lang, word)
            if low.startswith(keep) if keep else False:
                continue
            if any(low.endswith(e) for e in self.endings) or any(i in low for i in self.inside):
                hits.append(word)
        return hits


@dataclass(frozen=True)
class Glossary:
    """A language's glossary: its terms by idea and its form of address."""

    lang: str
    terms: Mapping[str, Term]
    address: Address


# German tells "Sie" (you) from "sie" (they) by the capital letter only.
CASED_ADDRESS = frozenset({"de"})
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"\w+")


def fold(lang: str, s: str) -> str:
    """``s`` in small letters the way ``lang`` writes them (Turkish: İ → i, I → ı)."""
    if lang == "tr":
        s = s.replace("İ", "i").replace("I", "ı")
    return s.lower()


@lru_cache(maxsize=1024)
def _pattern(forms: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for whole words or phrases; ``*`` at a piece's start or end stands
    for any letters there."""
    parts = []
    for form in forms:
        pieces = [
            ("\\w*" if p.startswith("*") else "")
            + re.escape(p.strip("*"))
            + ("\\w*" if p.endswith("*") else "")
            for p in form.split()
        ]
        parts.append("\\s+".join(pieces))
    if not parts:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)")


def _find(lang: str, forms: tuple[str, ...], text: str, folded: bool = True) -> list[str]:
    """The words of ``text`` (placeholders left out) that one of ``forms`` matches,
    in small letters when ``folded``, else with the capitals as written."""
    pattern = _pattern(tuple(fold(lang, f) for f in forms) if folded else forms)
    if pattern is None:
        return []
    plain = _PLACEHOLDER.sub(" ", text)
    return [m.group() for m in pattern.finditer(fold(lang, plain) if folded else plain)]


def glossary(lang: str) -> Glossary:
    """The glossary of ``lang`` (the ``_glossary`` object of its catalogue)."""
    return _glossary(lang)


@cache
def _glossary(lang: str) -> Glossary:
    data = _raw_glossaries().get(lang)
    if not data:
        raise KeyError(f"no glossary in locales/{lang}.json")
    terms = {}
    for idea, entry in data.items():
        if idea.startswith("_") or idea == "address":
            continue
        terms[idea] = Term(
            idea=idea,
            word=str(entry["word"]),
            forms=tuple(str(f) for f in entry.get("forms", [])),
            unlike=tuple(str(f) for f in entry.get("unlike", [])),
            never=tuple(str(f) for f in entry.get("never", [])),
            normal=bool(entry.get("normal", False)),
        )
    a = data["address"]
    address = Address(
        use=str(a["use"]),
        avoid=tuple(str(w) for w in a.get("avoid", [])),
        endings=tuple(str(w) for w in a.get("endings", [])),
        inside=tuple(str(w) for w in a.get("inside", [])),
        exceptions=tuple(str(w) for w in a.get("except", [])),
    )
    return Glossary(lang, terms, address)


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
