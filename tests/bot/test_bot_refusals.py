"""The engine's refusals in the reader's language: every ``refusal.<code>`` in every
catalogue, filled (no ``{placeholder}`` left), suits and card lists worded the
language's way, and a Turkish refusal without one English word."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from batak import PASS, Bid, Deal, IllegalAction, Play, Refusal, parse_card, preset
from batak.refusals import CODES
from cogs.i18n import catalogues, languages, or_list
from cogs.replies import Languages, fail
from cogs.text.refusals import error_text, refusal_text
from data import Store
from tables import IllegalMove, ServiceError
from tests.bot.test_bot_replies import FakeInteraction
from tests.engine.test_engine_refusals import CASES, position

LANGS = ("en", "tr", "de", "es", "fr", "pt", "sw", "uk")
LABEL = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")
"""A card as the bot writes it in every language (``9♥``): not a word."""

ENGLISH_WORDS = """
you your must may play played follow follows suit suits trump trumps bid bids higher
high highest lower lowest low the a an heart hearts spade spades club clubs diamond
diamonds pass passed turn seat card cards lead led another not is are no nobody or
and so yet over broken chosen named auction deal match hold have that move allowed
read more than at least tricks trick it to of in act dealer everyone else
"""

ENGLISH = frozenset(ENGLISH_WORDS.split())
"""English words that must not reach a Turkish player."""


def refusal(make: Any) -> Refusal:
    got = make()
    assert isinstance(got, Refusal)
    return got


SAMPLES: dict[str, Refusal] = {}
"""One real refusal of the engine per code (made on first use)."""


def sample(code: str) -> Refusal:
    if not SAMPLES:
        SAMPLES.update({case[0]: refusal(case[1]) for case in CASES})
    return SAMPLES[code]


def words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]+", LABEL.sub(" ", text))}


def raised(deal: Deal, action: Any, seat: int | None = None) -> Refusal:
    with pytest.raises(IllegalAction) as err:
        deal.apply(action, seat)
    return err.value.refusal


def turkish_cases() -> dict[str, Refusal]:
    """The refusals a Turkish group meets first, made by the engine."""
    auction = Deal.from_seed(preset("standard"), seed=11, dealer=0)
    auction.apply(Bid(7))
    hands = ["2D 3D 4D", "2S QS AS 5D", "5S 6S 7S 8S", "9D TD JD QD"]
    void = ["2D 3D 4D", "2H 5H 5D 4C", "5S 6S 7S 8S", "9D TD JD QD"]
    return {
        "follow-suit": raised(position(hands, "9S"), Play(parse_card("5D"))),
        "must-trump": raised(position(void, "9S"), Play(parse_card("5D"))),
        "bid-too-low": raised(auction, Bid(6)),
        "not-your-turn": raised(auction, PASS, seat=0),
    }


def test_the_catalogues_are_the_eight_languages() -> None:
    assert sorted(languages()) == sorted(LANGS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", sorted(CODES))
def test_every_refusal_is_worded_in_every_language(code: str, lang: str) -> None:
    assert f"refusal.{code}" in catalogues()[lang]  # its own words, not the English fallback
    text = refusal_text(sample(code), lang)
    assert text and "{" not in text and "}" not in text, text
    if lang != "en":
        assert text != refusal_text(sample(code), "en")
    framed = error_text(IllegalMove(sample(code)), lang)
    assert framed.endswith(text) and "{" not in framed


@pytest.mark.parametrize("code", ["follow-suit", "must-trump", "bid-too-low", "not-your-turn"])
def test_a_turkish_refusal_has_no_english_word(code: str) -> None:
    text = error_text(IllegalMove(turkish_cases()[code]), "tr")
    assert text.startswith("Bu hamleye izin yok: "), text
    assert not words(text) & ENGLISH, (text, words(text) & ENGLISH)
    # The engine's own wording is English: the check would catch it.
    assert words(str(turkish_cases()[code])) & ENGLISH


def test_every_turkish_refusal_has_no_english_word() -> None:
    for code in sorted(CODES):
        text = refusal_text(sample(code), "tr")
        assert not words(text) & ENGLISH, (code, text)


def test_suits_and_choices_are_the_languages_own() -> None:
    follow = turkish_cases()["follow-suit"]
    assert follow.params["choices"] == (parse_card("AS"), parse_card("QS"))
    assert error_text(IllegalMove(follow), "tr") == (
        "Bu hamleye izin yok: yerdeki renge uymalısın (♠ Maça): A♠ veya Q♠"
    )
    assert "(♠ Pik): A♠ oder Q♠" in refusal_text(follow, "de")
    assert "(♠ Піки): A♠ або Q♠" in refusal_text(follow, "uk")
    assert refusal_text(follow, "en") == "you must follow the led suit (♠ Spades): A♠ or Q♠"
    ruff = turkish_cases()["must-trump"]
    assert (
        refusal_text(ruff, "tr") == "yerdeki renkten (♠ Maça) kartın yok, koz atmalısın: 5♥ veya 2♥"
    )
    assert refusal_text(sample("trump-not-broken"), "tr").startswith("koz (♥ Kupa) henüz açılmadı")


def test_numbers_and_seats_are_filled_in() -> None:
    cases = turkish_cases()
    assert refusal_text(cases["bid-too-low"], "tr") == (
        "en yüksek teklif 7: en az 8 teklif ver ya da pas geç"
    )
    assert refusal_text(cases["not-your-turn"], "tr") == "sıra sende değil: sıra 3. koltukta"
    assert cases["not-your-turn"].params["seat"] == 2  # the engine counts from 0, people from 1


@pytest.mark.parametrize(
    ("lang", "joined"),
    [
        ("en", "9♥, J♥, or A♥"),
        ("tr", "9♥, J♥ veya A♥"),
        ("uk", "9♥, J♥ або A♥"),
        ("sw", "9♥, J♥ au A♥"),
        ("xx", "9♥, J♥, or A♥"),
    ],
)
def test_choices_are_joined_the_languages_way(lang: str, joined: str) -> None:
    assert or_list(["9♥", "J♥", "A♥"], lang) == joined
    assert or_list(["9♥"], lang) == "9♥"


def test_other_refusals_are_worded_as_before() -> None:
    assert error_text(ServiceError("error.not_your_turn"), "tr") == "Sıra sende değil."
    assert error_text(ServiceError("error.bad_deal_number", count=3), "en") == (
        "That match has 3 deals; choose a deal from 1 to 3."
    )


@pytest.fixture
async def reader_languages(tmp_path: Path) -> AsyncIterator[Languages]:
    store = await Store.open(tmp_path / "refusals.db")
    try:
        yield Languages(store)
    finally:
        await store.close()


async def test_a_refused_move_is_answered_in_turkish(reader_languages: Languages) -> None:
    """The answer to any refused request (``cogs.replies.fail``) words the refusal."""
    interaction: Any = FakeInteraction(locale="tr")
    await fail(interaction, IllegalMove(turkish_cases()["follow-suit"]), reader_languages)
    ((route, text),) = interaction.calls
    assert route == "respond"
    assert text == "Bu hamleye izin yok: yerdeki renge uymalısın (♠ Maça): A♠ veya Q♠"
