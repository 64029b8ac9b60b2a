"""The one translation layer: message catalogues, locale resolution, command translations.

Catalogues are JSON files in ``locales/`` named by language (``en.json``,
``tr.json``), each a flat object from message id to text with ``{name}``
placeholders. To add a language, copy ``en.json`` to ``xx.json``, translate the
values and add ``xx`` to the server languages in the store.

The reply language is the user's Discord locale when a catalogue exists for it,
else the server's language setting, else English.
"""

from __future__ import annotations

import json
import logging
import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DEFAULT = "en"


@cache
def catalogues() -> dict[str, dict[str, str]]:
    """Every catalogue in ``locales/``, by language code."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted(LOCALES_DIR.glob("*.json")):
        with path.open(encoding="utf-8") as f:
            data = json.load(f)
        out[path.stem] = {str(k): str(v) for k, v in data.items() if not k.startswith("_")}
    if DEFAULT not in out:
        raise RuntimeError(f"no English catalogue in {LOCALES_DIR}")
    return out


def languages() -> tuple[str, ...]:
    return tuple(catalogues())


def language_of(locale: str | discord.Locale | None) -> str | None:
    """The catalogue language for a Discord locale (``en-US`` -> ``en``), or None."""
    if locale is None:
        return None
    code = locale.value if isinstance(locale, discord.Locale) else str(locale)
    cats = catalogues()
    if code in cats:
        return code
    base = code.split("-")[0].lower()
    return base if base in cats else None


def resolve(user_locale: str | discord.Locale | None, server_language: str | None = None) -> str:
    """The reply language: the user's locale, else the server's setting, else English."""
    return language_of(user_locale) or language_of(server_language) or DEFAULT


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


_FORMATTER = string.Formatter()


def t(key: str, locale: str | discord.Locale | None = None, /, **params: Any) -> str:
    """The message ``key`` in ``locale`` (falling back to English, then to the key)."""
    lang = language_of(locale) or DEFAULT
    cats = catalogues()
    text = cats.get(lang, {}).get(key)
    if text is None:
        text = cats[DEFAULT].get(key)
        if text is None:
            log.warning("missing message id %r", key)
            return key
    if not params:
        return text
    try:
        return _FORMATTER.vformat(text, (), _Params(params))
    except (ValueError, IndexError, KeyError):
        log.warning("bad placeholders in %r (%s)", key, lang)
        return text


def has(key: str, locale: str | None = None) -> bool:
    return key in catalogues().get(locale or DEFAULT, {})


def missing_keys() -> Mapping[str, list[str]]:
    """For each language, the English message ids it lacks (tests keep this empty)."""
    cats = catalogues()
    english = set(cats[DEFAULT])
    return {lang: sorted(english - set(c)) for lang, c in cats.items() if lang != DEFAULT}


def ls(text: str, key: str) -> app_commands.locale_str:
    """A command string whose translations live under ``key``."""
    return app_commands.locale_str(text, key=key)


class CatalogueTranslator(app_commands.Translator):
    """Translates command descriptions, option descriptions and choice names.

    A string is translated when it was made with :func:`ls` and the catalogue of
    the locale has its key; otherwise Discord shows the English text. Command
    and option names stay English on purpose (they are what people learn).
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not key:
            return None
        lang = language_of(locale)
        if lang is None or lang == DEFAULT:
            return None
        return catalogues().get(lang, {}).get(str(key))
