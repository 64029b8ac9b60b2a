"""The Discord side of reviews without Discord: button ids and reading an upload."""

from __future__ import annotations

import json

import pytest

from batak import Deal, preset
from batak.ai.bots import NormalPlayer
from cogs.review import CompareClick, ReviewClick, parse_review_id, read_upload
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
    ("change", "field"),
    [
        (lambda r: r.update(dealer=9), "line 1: dealer"),
        (lambda r: r.pop("hands"), "line 1: hands"),
        (lambda r: r.update(format="batak-deal/9"), "line 1: format"),
    ],
)
def test_a_bad_upload_names_the_field(change: object, field: str) -> None:
    record = finished_record(3)
    change(record)  # type: ignore[operator]
    with pytest.raises(ServiceError) as err:
        read_upload(json.dumps(record).encode(), None)
    assert err.value.key == "error.bad_record"
    assert str(err.value.params["reason"]).startswith(field), err.value.params


def test_a_file_without_text_or_records_is_refused() -> None:
    with pytest.raises(ServiceError) as err:
        read_upload(b"\xff\xfe", None)
    assert "UTF-8" in str(err.value.params["reason"])
    with pytest.raises(ServiceError) as err:
        read_upload(b"\n\n", None)
    assert err.value.key == "error.bad_record"
