"""The Discord side of the translation layer: locale resolution and command translations.

The catalogues and the rendering of a message (plural forms, numbers) are in the
:mod:`locales` package, which the pictures use too; this module keeps the
names the cogs call (:func:`t`, :func:`resolve`, :func:`ls`...) over it.

The reply language is the user's Discord locale when a catalogue exists for it,
else the server's language setting, else English.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import discord
from discord import app_commands

import locales
from locales import DEFAULT, LOCALES_DIR, Entry
from locales import catalogues as _catalogues

log = logging.getLogger(__name__)

__all__ = [
    "DEFAULT",
    "LOCALES_DIR",
    "CatalogueTranslator",
    "catalogues",
    "has",
    "language_of",
    "languages",
    "ls",
    "missing_keys",
    "or_list",
    "resolve",
    "t",
]


def catalogues() -> Mapping[str, Mapping[str, Entry]]:
    """Every catalogue in ``locales/``, by language code."""
    return _catalogues()


def languages() -> tuple[str, ...]:
    return locales.languages()


def language_of(locale: str | discord.Locale | None) -> str | None:
    """The catalogue language for a Discord locale (``en-US`` -> ``en``), or None."""
    if locale is None:
        return None
    cats = catalogues()
    if type(locale) is str and locale in cats:  # the common case, before the slow enum check
        return locale
    code = locale.value if isinstance(locale, discord.Locale) else str(locale)
    if code in cats:
        return code
    base = code.split("-")[0].lower()
    return base if base in cats else None


def resolve(user_locale: str | discord.Locale | None, server_language: str | None = None) -> str:
    """The reply language: the user's locale, else the server's setting, else English."""
    return language_of(user_locale) or language_of(server_language) or DEFAULT


def t(key: str, locale: str | discord.Locale | None = None, /, **params: object) -> str:
    """The message ``key`` in ``locale`` (falling back to English, then to the key), its
    plural form and numbers chosen from ``params`` (see :mod:`locales`)."""
    return locales.message(language_of(locale) or DEFAULT, key, **params)


def or_list(items: Sequence[str], locale: str | discord.Locale | None = None) -> str:
    """Alternatives joined the way ``locale`` joins them: ``9♥ or J♥``, ``9♥ veya J♥``."""
    return locales.or_list(language_of(locale) or DEFAULT, items)


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
        text = catalogues().get(lang, {}).get(str(key))
        return text if isinstance(text, str) else None
