"""The Discord side of reviews without Discord: button ids and reading an upload."""

from __future__ import annotations

import json
import re

import pytest

from batak import Deal, preset
from batak.ai.bots import NormalPlayer
from batak.review import REASONS, Decision, Review
from cogs.i18n import t
from cogs.review import CompareClick, ReviewClick, parse_review_id, read_upload
from cogs.text.refusals import error_text
from cogs.text.review import review_text
from data.models import LANGUAGES
from tables import ServiceError


def finished_record(seed: int) -> dict[str, object]:
    deal = Deal.from_seed(preset("standard"), seed)
    bots = [NormalPlayer(i) for i in range(4)]
    while not deal.is_over:
        deal.apply(bots[deal.to_act].choose(deal.observation(deal.to_act)))
    return deal.to_record()


def test_only_the_exact_ids_written_are_taken() -> None:
    assert parse_review_id("br:12:0") == ReviewClick(12, 0)
    assert parse_review_id("bd:2026-12-01") == CompareClick("2026-12-01")
    for forged in ("br:012:0", "br:12:00", "br:12:0:x", "bd:2026-13-01", "bd:2026-12-1", "bx:1"):
        assert parse_review_id(forged) is None, forged


def test_an_upload_of_a_match_picks_its_deal() -> None:
    records = [finished_record(1), finished_record(2)]
    text = "".join(json.dumps(r) + "\n" for r in records).encode()
    assert read_upload(text, None) == (records[1], 2)
    assert read_upload(text, 1) == (records[0], 1)
    with pytest.raises(ServiceError) as err:
        read_upload(text, 3)
    assert err.value.key == "error.bad_deal_number" and err.value.params == {"count": 2}


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        (lambda r: r.update(dealer=9), "dealer", "expected an integer 0..3, got 9"),
        (lambda r: r.pop("hands"), "hands", "missing"),
        (lambda r: r.update(format="batak-deal/9"), "format", "expected 'batak-deal/1'"),
    ],
)
def test_a_bad_upload_names_the_line_and_field(change: object, field: str, problem: str) -> None:
    record = finished_record(3)
    change(record)  # type: ignore[operator]
    text = json.dumps(finished_record(4)) + "\n" + json.dumps(record) + "\n"
    with pytest.raises(ServiceError) as err:
        read_upload(text.encode(), None)
    assert err.value.key == "error.bad_record_field"
    assert err.value.params["line"] == 2 and err.value.params["field"] == field
    assert str(err.value.params["problem"]).startswith(problem), err.value.params
    # the frame is the reader's language; the path and the reader's detail stay as written
    tr = error_text(err.value, "tr")
    assert tr.startswith("Bu dosya geçerli bir batak-deal/1 kaydı değil: 2. satırda ")
    assert f"`{field}` alanı hatalı (`{problem}" in tr


def test_a_file_without_text_or_records_is_refused() -> None:
    with pytest.raises(ServiceError) as err:
        read_upload(b"\xff\xfe", None)
    assert err.value.key == "error.record_not_text" and err.value.params == {}
    assert (
        error_text(err.value, "tr") == "Bu dosya bir batak-deal/1 kaydı değil: UTF-8 metin değil."
    )
    with pytest.raises(ServiceError) as err:
        read_upload(b"\n\n", None)
    assert err.value.key == "error.record_empty"
    with pytest.raises(ServiceError) as err:
        read_upload(b"{nope\n", None)
    assert err.value.key == "error.bad_record_line" and err.value.params["line"] == 1
    with pytest.raises(ServiceError) as err:
        read_upload(b'\n{"a": [1, 2\n', None)
    assert err.value.key == "error.bad_record_line" and err.value.params["line"] == 2
    assert err.value.params["problem"].startswith("Expecting")  # json's own words, technical
    assert error_text(err.value, "de").startswith(
        "Diese Datei ist kein gültiger batak-deal/1-Datensatz: Zeile 2 ist kein JSON (`Expecting"
    )


def _d(move: int, phase: str, chosen: str, better: str, reason: str, **kw: object) -> Decision:
    trick = None if phase != "play" else move // 4 + 1
    return Decision(0, move, phase, trick, chosen, better, -30.0, 12.5, reason=reason, **kw)  # type: ignore[arg-type]


TOLD = (
    _d(3, "auction", "bid 9", "pass", "overbid", lost=1.6, swing=0.7),
    _d(5, "auction", "pass", "bid 6", "passed_maker", swing=0.6, holder_side=True),
    _d(8, "trump", "trump D", "trump S", "trump_choice", lost=1.2, holder_side=True),
    _d(20, "play", "play 2C", "play AH", "uncashed", lost=1.0, swing=1.0, holder_side=True),
    _d(30, "play", "play 9D", "play 4S", "other", lost=2.2, swing=0.6),
)


def sample_review() -> Review:
    return Review(
        holder=0,
        bid=7,
        trump="S",
        side_tricks=6,
        made=False,
        par=7,
        turn=None,
        decisions={0: TOLD, 2: ()},
    )


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_review_tells_tricks_and_reasons_in_every_language(lang: str) -> None:
    text = review_text(sample_review(), ["Alice", "B", "Cem", "D"], 3, lang)
    assert "{" not in text and "}" not in text, text
    assert not re.search(r"[+-][0-9]+[.,][0-9]", text), text  # no expected scores any more
    for d in TOLD:
        if d.reason != "other":
            assert t(f"review.why.{d.reason}", lang) in text
    assert t("review.effect.tricks", lang, better="4♠", chosen="9♦", tricks=2) in text
    assert t("review.effect.set", lang, better="4♠") in text  # the defender's lost chance
    assert t("review.effect.made", lang, better="A♥") in text  # the holder's
    assert t("review.effect.short", lang, tricks=2) in text  # the overbid
    assert t("review.none", lang) in text  # Cem's decisions cost nothing worth telling
    assert all(t(f"review.why.{r}", lang) for r in REASONS if r != "other")


def test_the_turkish_review_speaks_turkish() -> None:
    text = review_text(sample_review(), ["Alice", "B", "Cem", "D"], 3, "tr")
    words = set(re.findall(r"[a-zçğıöşü]+", text.lower()))
    english = {
        "trick",
        "tricks",
        "the",
        "would",
        "have",
        "better",
        "contract",
        "auction",
        "bid",
        "trump",
        "pass",
        "made",
        "set",
        "with",
        "about",
        "more",
        "than",
    }
    assert not words & english, sorted(words & english)
    assert "20. el" not in text and "6. el" in text  # tricks are "el"
    assert "ihale" in text.lower() and "koz" in text.lower()
    assert "el daha alınırdı" in text


def test_the_english_review_shows_tricks_not_points() -> None:
    text = review_text(sample_review(), ["Alice", "B", "Cem", "D"], 3, "en")
    assert "Trick 6: 2♣. Left a sure trick uncashed." in text
    assert "4♠ would have taken about 2 tricks more than 9♦." in text
    assert "With A♥ the contract would likely have been made." in text
    assert "Pass was better." in text  # an action's words starting a sentence get a capital
    assert "expected score" not in text
