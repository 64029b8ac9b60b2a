"""The documentation's examples are what the engine really does."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from batak.cards import card_code, cards_of
from batak.records import RecordError, deal_from_record, dumps, loads
from batak.seeds import deal_hands

DOCS = Path(__file__).resolve().parents[2] / "docs"


def example_record() -> dict[str, Any]:
    text = (DOCS / "game-record.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)
    record: dict[str, Any] = json.loads(block)
    return record


def test_the_example_record_is_a_valid_deal_of_its_seed() -> None:
    record = example_record()
    deal = deal_from_record(record)
    assert deal.to_record() == record  # the engine writes exactly this record
    assert deal.seed is not None
    assert record["hands"] == [[card_code(c) for c in cards_of(h)] for h in deal_hands(deal.seed)]
    assert loads(dumps([record]))[0].scores == record["score"]


def test_the_error_messages_quoted_in_the_record_doc() -> None:
    record = example_record()
    bad = copy.deepcopy(record)
    bad["auction"][1]["seat"] = 3
    with pytest.raises(RecordError, match=r"^auction\[1\]\.seat: seat 2 was to call, not 3$"):
        deal_from_record(bad)
    bad = copy.deepcopy(record)
    bad["contract"]["bid"] = 6
    lines = dumps([record, record, record]) + json.dumps(bad) + "\n"
    with pytest.raises(RecordError, match=r"^line 4: contract\.bid: the auction gives 8$"):
        loads(lines)
    bad = copy.deepcopy(record)
    bad["tricks"][0]["legal"][0].remove("AS")
    with pytest.raises(RecordError, match=r"^tricks\[0\]\.legal\[0\]: the rules allow \["):
        deal_from_record(bad)
    for spelling in ("10H", "qh", "Q♥"):
        bad = copy.deepcopy(record)
        bad["hands"][0][0] = spelling
        with pytest.raises(RecordError, match=r"^hands\[0\]\[0\]: not a card"):
            deal_from_record(bad)
