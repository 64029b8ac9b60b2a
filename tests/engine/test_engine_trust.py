"""The engine's doors refuse bad input by name: records and actions."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from batak.cli import selfplay_records
from batak.deal import Bid, ChooseTrump, Deal, IllegalAction, Play
from batak.records import RecordError, deal_from_record, dumps, loads
from batak.rules import Rules, RulesError, preset


def _record(name: str = "standard", seed: int = 3) -> dict[str, Any]:
    return selfplay_records(preset(name), 1, seed=seed, kinds=["easy"] * 4)[0]


def _where(record: object) -> str:
    with pytest.raises(RecordError) as info:
        deal_from_record(record)
    return info.value.where


def test_text_that_json_itself_chokes_on_is_a_record_error() -> None:
    line = dumps([_record()])
    with pytest.raises(RecordError, match="line 1: not JSON"):
        loads(line.replace('"dealer":', '"dealer":' + "9" * 5000 + ',"x":', 1))
    with pytest.raises(RecordError, match="nested too deeply"):
        loads("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="expected JSON Lines text, got NoneType"):
        loads(None)  # type: ignore[arg-type]  # the wrong type on purpose


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("score", 0), 1.0),
        (("score", 0), True),
        (("tricks_won", 1), 2.0),
        (("contract", "bid"), 6.0),
        (("contract", "seat"), True),
        (("dealer",), 0.0),
    ],
)
def test_integers_are_strict(path: tuple[Any, ...], value: object) -> None:
    record = _record()
    target = record
    for key in path[:-1]:
        target = target[key]
    old = target[path[-1]]
    if type(value) is bool or value == old:  # same number, other type
        target[path[-1]] = value
    else:
        target[path[-1]] = type(value)(old)  # type: ignore[call-arg]  # int/float/str of a JSON value
    where = _where(record)
    assert where.startswith(path[0])


def test_a_seed_must_deal_the_hands() -> None:
    record = _record()
    record["seed"] += 1
    assert _where(record) == "seed"
    del record["seed"]
    assert deal_from_record(record).seed is None


def test_options_marked_dash_may_be_omitted() -> None:
    for name in ("classic", "esli"):  # dealer-must-bid: forced_bid is "–"
        record = _record(name)
        del record["rules"]["forced_bid"]
        del record["rules"]["fixed_trump"]
        deal = deal_from_record(record)
        assert deal.rules.forced_bid is None and deal.rules.fixed_trump is None
    record = _record("standard")  # dealer-forced: forced_bid has a value
    del record["rules"]["forced_bid"]
    assert _where(record) == "rules.forced_bid"
    record = _record("koz-maca")  # the preset fixes spades: not "–"
    del record["rules"]["fixed_trump"]
    assert _where(record) == "rules.fixed_trump"


def test_unknown_presets_are_refused() -> None:
    record = _record()
    record["rules"]["preset"] = "house-rules"
    assert _where(record) == "rules.preset"
    with pytest.raises(RulesError, match="preset"):
        Rules(preset="house-rules")  # type: ignore[arg-type]  # not a preset, on purpose
    with pytest.raises(RulesError, match="preset"):
        Rules.from_dict({"preset": "house-rules"})


def test_any_text_round_trips_through_dumps_and_loads() -> None:
    record = _record()
    record["rules"]["preset"] = "standard\u2028x"
    text = dumps([record])
    assert json.loads(text) == record
    with pytest.raises(RecordError, match=r"^line 1: rules\.preset"):
        loads(text)
    # A line separator inside a string does not split the line.
    good = _record()
    assert [d.to_record() for d in loads(dumps([good, good]).replace("\n", "\r\n"))] == [
        good,
        good,
    ]


def test_match_options_are_not_deal_options() -> None:
    record = copy.deepcopy(_record())
    record["rules"]["deals"] = 5
    assert _where(record) == "rules.deals"


@pytest.mark.parametrize(
    "make",
    [
        lambda: Play(-1),
        lambda: Play(52),
        lambda: Play("AS"),
        lambda: Play(True),
        lambda: Play(3.0),
        lambda: Bid(None),
        lambda: Bid(True),
        lambda: Bid(0),
        lambda: Bid(14),
        lambda: Bid("5"),
        lambda: ChooseTrump("H"),
        lambda: ChooseTrump(1),
    ],
)
def test_malformed_actions_are_refused_when_made(make: Any) -> None:
    with pytest.raises(IllegalAction, match="must be"):
        make()


def test_apply_refuses_bad_cards_seats_and_objects_and_changes_nothing() -> None:
    deal = Deal.from_seed(preset("standard"), 7)
    before = deal.legal_actions()
    for bad in (None, "bid 5", 5, object()):
        with pytest.raises(IllegalAction, match="not an action"):
            deal.apply(bad)  # type: ignore[arg-type]  # not an action, on purpose
    with pytest.raises(IllegalAction, match="a seat must be"):
        deal.apply(Bid(5), seat=True)  # type: ignore[arg-type]  # a bool seat, on purpose
    with pytest.raises(IllegalAction, match="a card must be"):
        deal.play_card("AS")  # type: ignore[arg-type]  # a code, not a card, on purpose
    with pytest.raises(IllegalAction, match="a card must be"):
        deal.play_card(-1)
    assert deal.legal_actions() == before and deal.calls == []
