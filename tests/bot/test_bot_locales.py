"""Every language of the bot is complete: catalogues, picture labels, settings, pictures."""

from __future__ import annotations

import io
import json
import string
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from PIL import Image

from cogs.batak_cog import BatakCog
from cogs.i18n import catalogues, language_of, resolve, t
from data.models import (
    LANGUAGES,
)
from data.settings import (
    InvalidSettingError,
    validate_setting,
)
from images.labels import text_for, upper
from images.samples import Sample, all_samples, forced_table, render_sample

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "locales"

# the languages the bot speaks; Swahili has no Discord client locale (server setting only)
EXPECTED = ("en", "tr", "de", "pt", "uk", "sw", "es", "fr")
NEW = tuple(lang for lang in EXPECTED if lang not in ("en", "tr"))
CHOICE_PREFIXES = ("preset.", "pace.", "level.", "by.", "period.")

_FORMATTER = string.Formatter()


def fields(entry: str | dict[str, str]) -> set[str]:
    """The ``{placeholder}`` names of a message, of every plural form of one."""
    forms = [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k[0] != "_"]
    names = {name for text in forms for _, name, _, _ in _FORMATTER.parse(text) if name}
    if isinstance(entry, dict) and "_count" in entry:
        names.add(entry["_count"])
    return names


def raw(lang: str) -> dict[str, str | dict[str, str]]:
    with (LOCALES / f"{lang}.json").open(encoding="utf-8") as f:
        data: dict[str, str | dict[str, str]] = json.load(f)
    return data


def texts(entry: str | dict[str, str]) -> list[str]:
    return [entry] if isinstance(entry, str) else [v for k, v in entry.items() if k[0] != "_"]


ENGLISH = raw("en")


def test_every_language_has_a_catalogue_labels_and_a_setting() -> None:
    assert set(EXPECTED) <= set(catalogues())
    assert set(catalogues()) <= set(LANGUAGES)
    assert set(LANGUAGES) == set(EXPECTED)


@pytest.mark.parametrize("lang", EXPECTED)
def test_catalogue_has_exactly_the_english_keys(lang: str) -> None:
    data = raw(lang)
    keys = {k for k in data if not k.startswith("_")}
    english = {k for k in ENGLISH if not k.startswith("_")}
    assert sorted(english - keys) == [], "missing"
    assert sorted(keys - english) == [], "extra"
    assert all(t.strip() for k, v in data.items() if k[0] != "_" for t in texts(v))


@pytest.mark.parametrize("lang", EXPECTED)
def test_placeholders_match_english(lang: str) -> None:
    data = raw(lang)
    wrong = [
        k for k, en in ENGLISH.items() if not k.startswith("_") and fields(data[k]) != fields(en)
    ]
    assert wrong == []


@pytest.mark.parametrize("lang", EXPECTED)
def test_markdown_and_line_breaks_match_english(lang: str) -> None:
    data = raw(lang)
    for key, en in ENGLISH.items():
        if key.startswith("_"):
            continue
        en = texts(en)[-1]
        for text in texts(data[key]):
            assert text.count("\n") == en.count("\n"), key
            assert text.count("**") == en.count("**"), key
            for mark in ("⏱", "🏆", "/batak"):
                assert text.count(mark) == en.count(mark), (key, mark)


@pytest.mark.parametrize("lang", EXPECTED)
def test_discord_limits(lang: str) -> None:
    data = raw(lang)
    for key, text in data.items():
        if not isinstance(text, str):
            continue
        if key.startswith(("cmd.", "opt.")):
            assert 1 <= len(text) <= 100, (key, len(text))
        if key.startswith("button."):
            assert 1 <= len(text) <= 80, (key, len(text))
        if key.startswith(CHOICE_PREFIXES):
            assert 1 <= len(text) <= 100, (key, len(text))


@pytest.mark.parametrize("lang", EXPECTED)
def test_every_message_formats(lang: str) -> None:
    cat = catalogues()[lang]
    for key, en in ENGLISH.items():
        if key.startswith("_"):
            continue
        params: dict[str, object] = {name: 7 for name in fields(en)}
        out = t(key, lang, **params)
        assert "{" not in out, (key, out)
        if not params:
            assert out == cat[key]


def test_game_words_stay() -> None:
    for lang in EXPECTED:
        cat = catalogues()[lang]
        assert "İhaleli Batak" in str(cat["rules.title"])
        assert "Batak" in str(cat["cmd.rules"])
        for preset, name in (("esli", "Eşli"), ("koz-maca", "Koz Maça"), ("kanli", "Kanlı")):
            assert str(cat[f"preset.{preset}"]).startswith(name), (lang, preset)
    words = {
        "de": "Trumpf",
        "pt": "trunfo",
        "es": "triunfo",
        "fr": "atout",
        "uk": "козир",
        "sw": "turufu",
    }
    for lang, word in words.items():
        assert word.lower() in str(catalogues()[lang]["rules.trump"]).lower()


def test_locale_resolution_of_discord_locales() -> None:
    assert language_of("pt-BR") == "pt"
    assert language_of("es-ES") == "es"
    assert language_of("es-419") == "es"
    assert language_of("uk") == "uk"
    assert language_of("de") == "de"
    assert language_of("fr") == "fr"
    assert resolve("ja", "sw") == "sw"  # Swahili comes from the server setting
    assert resolve("de", "sw") == "de"
    assert "server" in str(raw("sw")["_comment"]) or "seva" in str(raw("sw")["_comment"])


@pytest.mark.parametrize("lang", EXPECTED)
def test_store_accepts_the_language(lang: str) -> None:
    assert validate_setting("language", lang) == lang


def test_store_rejects_an_unknown_language() -> None:
    with pytest.raises(InvalidSettingError):
        validate_setting("language", "xx")


@pytest.mark.parametrize("which", ["settings_server", "settings_me"])
def test_settings_commands_offer_every_language(which: str) -> None:
    command = getattr(BatakCog, which)
    params = {p.name: p for p in command.parameters}
    choices = {c.value: c.name for c in params["language"].choices}
    assert set(choices) == set(LANGUAGES)
    assert all(1 <= len(name) <= 100 for name in choices.values())
    assert len(set(choices.values())) == len(choices)


@pytest.mark.parametrize("lang", EXPECTED)
def test_picture_labels_come_from_the_catalogue(lang: str) -> None:
    assert text_for(lang, "img.contract") == raw(lang)["img.contract"]
    assert upper(lang, "i") == ("İ" if lang == "tr" else "I")


@cache
def _kinds() -> tuple[Sample, ...]:
    """One engine-made sample of each picture kind (table, auction, deal, match, hand)."""
    picked: dict[str, Sample] = {}
    for s in all_samples():
        if s.lang == "tr":
            picked.setdefault(s.kind, s)
    picked["forced"] = Sample("forced", "table", forced_table())
    return tuple(picked.values())


def test_the_samples_cover_every_kind() -> None:
    assert {s.kind for s in _kinds()} >= {
        "table",
        "auction",
        "deal",
        "match",
        "hand",
        "leaderboard",
    }


@pytest.mark.parametrize("lang", EXPECTED)
def test_pictures_render_in_every_language(lang: str) -> None:
    for sample in _kinds():
        png = render_sample(replace(sample, lang=lang))
        im = Image.open(io.BytesIO(png))
        im.load()
        assert im.width > 100 and im.height > 100, sample.name
