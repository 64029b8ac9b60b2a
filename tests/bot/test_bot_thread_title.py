"""A table's thread title: a person's name with its markup taken out (a thread name
shows as written, so escapes would show), no link or mention form, at most 100
characters, in every language."""

from __future__ import annotations

import re

import pytest

from cogs.text.words import MAX_THREAD_NAME, display_name, thread_title, title_name
from data import LANGUAGES
from tests.bot.test_bot_trust_e2e import HOSTILE


def no_markup_forms(title: str) -> None:
    assert not re.search(r"\[[^\]]*\]\(", title), title  # no masked link
    assert "://" not in title and "\\" not in title, title  # no link, no escape shown
    assert "@" not in title and "<" not in title and ">" not in title, title
    assert "\u202e" not in title and "\n" not in title, title
    assert 1 <= len(title) <= MAX_THREAD_NAME


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names(lang: str, name: str) -> None:
    no_markup_forms(thread_title(lang, name, 42))


def test_what_is_left_of_each_name() -> None:
    assert [title_name(n) for n in HOSTILE] == [
        "x **BIG** ||x||",  # the link's label; the rest shows as written
        "everyone &1 1234567890123…",  # 32 characters before the marks go
        "evil ```py x``` # H",
    ]
    assert title_name("Ayşe_K (TR)") == "Ayşe_K (TR)"  # ordinary names untouched
    assert thread_title("en", "see https://e.vil/x now", 7) == "Batak with see e.vil/x now"


def test_empty_after_cleaning_and_long_titles() -> None:
    assert thread_title("en", "<@>", 99) == "Batak with #99"
    long = "y" * 500  # plain_name keeps 32 characters; the title stays within 100
    assert len(thread_title("en", long, 1)) <= MAX_THREAD_NAME


def test_display_name_then_title() -> None:
    class User:
        id = 5
        display_name = "[x](https://e.vil) **BIG** ||x||"
        name = "mallory"

    no_markup_forms(thread_title("tr", display_name(User()), User.id))  # type: ignore[arg-type]
