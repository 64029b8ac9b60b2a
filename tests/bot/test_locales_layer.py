"""The translation layer: plural forms by CLDR, numbers per locale, every key present and used."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import locales
from cogs.i18n import t
from images.labels import text_for

ROOT = Path(__file__).resolve().parents[2]
LANGS = locales.languages()
ENGLISH = locales.catalogues()["en"]
CODE = [
    *(ROOT / "cogs").rglob("*.py"),
    *(ROOT / "tables").rglob("*.py"),
    *(ROOT / "images").rglob("*.py"),
    ROOT / "bot.py",
]


def test_plurals_follow_the_number() -> None:
    assert text_for("en", "img.n_deals", n=1) == "1 deal"
    assert text_for("en", "img.n_deals", n=2) == "2 deals"
    assert [text_for("uk", "img.n_cards", n=n) for n in (1, 3, 5, 21)] == [
        "1 карта",
        "3 карти",
        "5 карт",
        "21 карта",
    ]
    assert t("count.tricks", "uk", n="5.9") == "5,9 взятки"
    assert t("count.tricks", "en", n="1.0") == "1.0 tricks"
    assert t("leaderboard.line", "en", rank=1, name="A", rating=9, wins=1, matches=1) == (
        "1. A — rating 9 · 1 win in 1 match"
    )


def test_numbers_and_percent_per_locale() -> None:
    assert t("hint.percent", "en", n=62) == "62%"
    assert t("hint.percent", "tr", n=62) == "%62"
    assert t("hint.percent", "de", n=62) == "62\xa0%"
    base = {"trump": "♠", "extra": ""}
    assert "5,9" in t("hint.base", "tr", tricks="5.9", **base)
    assert "5.9" in t("hint.base", "en", tricks="5.9", **base)
    assert "5,9" in t("hint.base", "fr", tricks=5.9, **base)
    assert t("result.rating", "de", rating="1012", change="+1.5") == "· Wertung 1012 (+1,5)"
    assert t("summary.head", "en", table=1234, preset="x", deals=1).startswith("Batak table #1234")


def test_a_missing_value_stays_a_placeholder() -> None:
    assert t("hint.suggest", "en") == "Hint: {action}."


def test_a_word_where_a_number_goes_is_shown_as_it_is() -> None:
    assert t("hint.pass-blind-none", "en", tricks="?") == (
        "Pass: an unseen hand averages only about ? tricks."
    )
    assert t("hint.percent", "tr", n="?") == "?"


@pytest.mark.parametrize("lang", LANGS)
def test_every_plural_entry_has_the_languages_forms(lang: str) -> None:
    wanted = locales.plural_categories(lang)
    for key, entry in locales.catalogues()[lang].items():
        if isinstance(entry, str):
            assert not isinstance(ENGLISH[key], dict), (key, "plural in English")
            continue
        forms = {k for k in entry if not k.startswith("_")}
        assert forms == wanted, (key, sorted(forms), sorted(wanted))
        name = locales.selector(entry)
        assert all(name in locales.fields(v) or "_count" in entry for v in entry.values())


def test_the_layer_knows_the_cldr_categories() -> None:
    assert locales.plural_categories("uk") == {"one", "few", "many", "other"}
    assert locales.plural_categories("tr") == {"one", "other"}


def _literals(path: Path) -> tuple[set[str], set[str]]:
    """String literals of a file, and f-string patterns (``"preset.*"``) made of a literal
    prefix and one placeholder."""
    plain: set[str] = set()
    patterns: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            plain.add(node.value)
        elif isinstance(node, ast.JoinedStr):
            parts = node.values
            if (
                len(parts) == 2
                and isinstance(parts[0], ast.Constant)
                and isinstance(parts[0].value, str)
                and isinstance(parts[1], ast.FormattedValue)
            ):
                patterns.add(parts[0].value)
    return plain, patterns


def used_keys() -> set[str]:
    """Keys the code names: a literal equal to the key, or an f-string ``"prefix.{x}"``
    whose variable part is itself a literal somewhere in the code (``"after-ruff"``,
    ``"koz-maca"``, ``"auction"``); then the plural entries those keys' texts count with."""
    plain: set[str] = set()
    prefixes: set[str] = set()
    for path in [*CODE, *(ROOT / "batak").rglob("*.py"), *(ROOT / "data").rglob("*.py")]:
        p, f = _literals(path)
        plain |= p
        if path in CODE:
            prefixes |= f
    used = {k for k in ENGLISH if k in plain}
    used |= {k for k in ENGLISH for pre in prefixes if k.startswith(pre) and k[len(pre) :] in plain}
    todo = list(used)
    while todo:
        entry = ENGLISH[todo.pop()]
        for text in [entry] if isinstance(entry, str) else list(entry.values()):
            for spec in locales.specs(text):
                if spec in ENGLISH and spec not in used:
                    used.add(spec)
                    todo.append(spec)
    return used


def test_every_key_is_used() -> None:
    assert sorted(set(ENGLISH) - used_keys()) == []


def test_the_scan_finds_keys_by_literal_pattern_and_spec() -> None:
    used = used_keys()
    assert {"button.join", "preset.koz-maca", "count.tricks", "img.act.auction"} <= used
    assert "rules.trump_lead.after-ruff" in used


def test_every_key_the_code_names_exists() -> None:
    named = set()
    for path in CODE:
        named |= set(re.findall(r'"((?:img|count)\.[a-z_.]+[a-z_])"', path.read_text()))
    assert sorted(k for k in named if k not in ENGLISH) == []
