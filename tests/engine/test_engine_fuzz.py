"""Attacks on the engine's two doors: game records and actions.

Records: valid records from every preset, mutated at random (a value replaced,
a key dropped or added, list entries dropped, doubled or swapped, or the text
itself damaged). ``loads`` must raise :class:`RecordError` and nothing else,
whatever it accepts must be valid by :func:`independent_verdict`, which
shares no code with the reader (it uses ``batak_reference`` for the rules),
and whatever that verdict finds valid must be accepted.

Actions: deals in every phase are sent well-formed and malformed actions for
every seat; each either is legal and applied, or raises ``IllegalAction`` and
leaves the deal exactly as it was.

``BATAK_FUZZ_EXAMPLES`` sets the number of examples per test (a quick run in
``make test``; ``make fuzz`` runs many more and prints the counts).
"""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from batak.cli import selfplay_records
from batak.deal import (
    BIDS,
    PASS,
    PLAYS,
    TRUMPS,
    Bid,
    ChooseTrump,
    Deal,
    IllegalAction,
    Phase,
    Play,
)
from batak.records import RecordError, dumps, loads
from batak.rules import PRESET_NAMES, preset
from batak.seeds import deal_hands

from batak_reference import Reject, check_record

EXAMPLES = int(os.environ.get("BATAK_FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
COUNTS: Counter[str] = Counter()

RECORDS: list[dict[str, Any]] = [
    record
    for i, name in enumerate(PRESET_NAMES)
    for record in selfplay_records(preset(name), 2, seed=i, kinds=["easy", "random"] * 2)
]


# --- an independent verdict on a record ----------------------------------------------

RANKS = "23456789TJQKA"
CODES = {r + s for r in RANKS for s in "SHDC"}
OPTION_VALUES: dict[str, tuple[object, ...]] = {
    "all_pass": ("dealer-forced", "dealer-must-bid"),
    "scoring": ("tens", "tricks"),
    "trump_lead": ("after-trump-played", "after-ruff", "free"),
    "preset": ("standard", "classic", "esli", "koz-maca", "kanli"),
}
FLAGS = ("overtake_when_trumped", "partnership", "blind_bidding")
PRESET_TRUMP = {"koz-maca": "S"}


def _is_int(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _fail(why: str) -> None:
    raise Reject(why)


def _card_list(value: object, length: int | None) -> list[str]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        _fail("card list")
    assert isinstance(value, list)
    for card in value:
        if not isinstance(card, str) or card not in CODES:
            _fail("card")
    return value


def _plain_rules(rules: object) -> dict[str, Any]:
    """The rules with the options rules.md marks '–' filled in, or Reject."""
    if not isinstance(rules, dict):
        _fail("rules")
    assert isinstance(rules, dict)
    out = dict(rules)
    if out.get("all_pass") == "dealer-must-bid":
        out.setdefault("forced_bid", None)
    if out.get("preset") in OPTION_VALUES["preset"] and out.get("preset") not in PRESET_TRUMP:
        out.setdefault("fixed_trump", None)
    expected = {"min_bid", "forced_bid", "fixed_trump", *OPTION_VALUES, *FLAGS}
    if set(out) != expected:
        _fail("rule keys")
    for key, values in OPTION_VALUES.items():
        if not isinstance(out[key], str) or out[key] not in values:
            _fail(key)
    for key in FLAGS:
        if type(out[key]) is not bool:
            _fail(key)
    if not _is_int(out["min_bid"], 1, 13):
        _fail("min_bid")
    forced = out["forced_bid"]
    if out["all_pass"] == "dealer-forced" and not _is_int(forced, 1, 13):
        _fail("forced_bid")
    if forced is not None and not _is_int(forced, 1, 13):
        _fail("forced_bid")
    if out["fixed_trump"] is not None and out["fixed_trump"] not in ("S", "H", "D", "C"):
        _fail("fixed_trump")
    return out


def _check_shape(rec: dict[str, Any]) -> None:
    keys = {"format", "rules", "dealer", "hands", "auction", "contract"}
    keys |= {"tricks", "tricks_won", "score"}
    if not keys <= set(rec) <= keys | {"seed"}:
        _fail("top keys")
    if rec["format"] != "batak-deal/1" or not isinstance(rec["format"], str):
        _fail("format")
    seed = rec.get("seed")
    if seed is not None and not _is_int(seed, 0, (1 << 63) - 1):
        _fail("seed")
    if not _is_int(rec["dealer"], 0, 3):
        _fail("dealer")
    if not isinstance(rec["hands"], list) or len(rec["hands"]) != 4:
        _fail("hands")
    for hand in rec["hands"]:
        _card_list(hand, 13)
    if not isinstance(rec["auction"], list):
        _fail("auction")
    for call in rec["auction"]:
        if not isinstance(call, dict) or set(call) != {"seat", "bid"}:
            _fail("call")
        if not _is_int(call["seat"], 0, 3):
            _fail("call seat")
        if call["bid"] is not None and not _is_int(call["bid"], 1, 13):
            _fail("call bid")
    c = rec["contract"]
    if not isinstance(c, dict) or set(c) != {"seat", "bid", "forced", "trump"}:
        _fail("contract")
    if not (_is_int(c["seat"], 0, 3) and _is_int(c["bid"], 1, 13)):
        _fail("contract numbers")
    if type(c["forced"]) is not bool or c["trump"] not in ("S", "H", "D", "C"):
        _fail("contract forced/trump")
    if not isinstance(rec["tricks"], list) or len(rec["tricks"]) != 13:
        _fail("tricks")
    for trick in rec["tricks"]:
        if not isinstance(trick, dict) or set(trick) != {"leader", "cards", "winner", "legal"}:
            _fail("trick")
        if not (_is_int(trick["leader"], 0, 3) and _is_int(trick["winner"], 0, 3)):
            _fail("trick seats")
        _card_list(trick["cards"], 4)
        if not isinstance(trick["legal"], list) or len(trick["legal"]) != 4:
            _fail("legal")
        for legal in trick["legal"]:
            _card_list(legal, None)
    for key in ("tricks_won", "score"):
        value = rec[key]
        if not isinstance(value, list) or len(value) != 4:
            _fail(key)
        if not all(_is_int(v, -1000, 1000) for v in value):
            _fail(key)


def independent_verdict(rec: object) -> bool:
    """Whether a decoded record is valid: strict shape and types, known options, a
    seed that deals the hands, and the rules checked by ``batak_reference``."""
    try:
        if not isinstance(rec, dict):
            return False
        _check_shape(rec)
        plain = dict(rec, rules=_plain_rules(rec["rules"]))
        seed = rec.get("seed")
        hands = rec["hands"]
        if seed is not None:
            dealt = [sorted(RANKS.index(c[0]) + 13 * "SHDC".index(c[1]) for c in h) for h in hands]
            expected = [[c for c in range(52) if h >> c & 1] for h in deal_hands(seed)]
            if dealt != expected:
                return False
        check_record(plain)
    except Reject:
        return False
    return True


def test_the_verdict_accepts_every_written_record_and_refuses_a_broken_one() -> None:
    for record in RECORDS:
        assert independent_verdict(record)
        bad = copy.deepcopy(record)
        bad["tricks_won"] = [True, *bad["tricks_won"][1:]]
        assert not independent_verdict(bad)
        bad = copy.deepcopy(record)
        bad["seed"] = record["seed"] + 1
        assert not independent_verdict(bad)


# --- record mutations ------------------------------------------------------------------

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.integers(),
    st.just(10**4000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 5.0, 13.0, -0.0]),
    st.sampled_from(sorted(CODES)),
    st.sampled_from(
        ["standard", "classic", "esli", "koz-maca", "kanli", "custom", "standard\u2028"]
    ),
    st.sampled_from(["S", "H", "D", "C", "tens", "tricks", "free", "dealer-must-bid", ""]),
    st.text(max_size=8),
    st.lists(st.sampled_from(sorted(CODES)), max_size=14),
    st.lists(st.integers(-2, 14), max_size=5),
    st.dictionaries(st.sampled_from(["seat", "bid", "x"]), st.integers(0, 13), max_size=3),
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, (*path, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(_paths(item, (*path, i)))
    return out


def _parent(record: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        record = record[key]
    return record


@st.composite
def mutated_texts(draw: st.DrawFn) -> str:
    record = copy.deepcopy(draw(st.sampled_from(RECORDS)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(record) if p]
        path = draw(st.sampled_from(paths))
        parent, key = _parent(record, path), path[-1]
        op = draw(st.sampled_from(["replace", "replace", "drop", "add", "double", "swap"]))
        if op == "replace":
            parent[key] = draw(JUNK)
        elif op == "drop":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "seed", "forced_bid", "deals", key]))] = draw(
                JUNK
            )
        elif op == "double" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
    text = dumps([record])
    damage = draw(st.sampled_from(["none"] * 6 + ["cut", "char", "deep", "digits", "nul"]))
    at = draw(st.integers(0, len(text)))
    if damage == "cut":
        text = text[:at]
    elif damage == "char":
        text = text[:at] + draw(st.sampled_from(list('[]{},:"\\0\u2028\r\n'))) + text[at:]
    elif damage == "deep":
        text = '{"format":' + "[" * 100_000 + "]" * 100_000 + "}\n"
    elif damage == "digits":
        text = text.replace('"dealer":', '"dealer":' + "7" * 5000 + ',"x":', 1)
    elif damage == "nul":
        text = text.replace('"batak-deal/1"', '"batak-deal/1\\u0000"', 1)
    return text


def _decoded(text: str) -> list[object] | None:
    """The JSON values of the text's lines, or None when a line is not JSON."""
    out = []
    for line in text.split("\n"):
        if line.strip():
            try:
                out.append(json.loads(line))
            except (ValueError, RecursionError):
                return None
    return out


@FUZZ
@given(mutated_texts())
def test_fuzzed_records_raise_record_error_or_are_valid(text: str) -> None:
    COUNTS["records fuzzed"] += 1
    try:
        deals = loads(text)
    except RecordError as exc:
        COUNTS["records refused"] += 1
        values = _decoded(text)
        if values is not None and all(independent_verdict(v) for v in values):
            COUNTS["valid records refused"] += 1
            raise AssertionError(f"refused a valid record ({exc}): {text[:300]}") from exc
        return
    except BaseException as exc:
        COUNTS["raw exceptions"] += 1
        raise AssertionError(f"raw {type(exc).__name__}: {exc}") from exc
    values = _decoded(text)
    assert values is not None and len(values) == len(deals)
    for value in values:
        if not independent_verdict(value):
            COUNTS["wrong acceptances"] += 1
            raise AssertionError(f"accepted an invalid record: {text[:300]}")
    COUNTS["records accepted (valid)"] += 1


@given(st.text())
def test_loads_dumps_round_trips_any_text_in_a_record(label: str) -> None:
    """A string field holding anything (line separators, quotes, NULs) survives
    dumps/loads; such a preset name is refused by name, never misread."""
    record = dict(RECORDS[0], rules=dict(RECORDS[0]["rules"], preset=label))
    text = dumps([record])
    assert json.loads(text.strip("\n")) == record
    if label in PRESET_NAMES:
        assert len(loads(text)) == 1
    else:
        with pytest.raises(RecordError, match=r"^line 1: rules\.preset"):
            loads(text)


def test_loads_refuses_what_is_not_text() -> None:
    for value in (None, b"{}", 3, ["{}"]):
        with pytest.raises(RecordError, match="expected JSON Lines text"):
            loads(value)  # type: ignore[arg-type]  # any JSON value, on purpose


# --- actions in every phase -------------------------------------------------------------

WEIRD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 60),
    st.floats(),
    st.text(max_size=3),
    st.sampled_from(["AS", "play AS", "S", "bid 5"]),
)


LEGAL = object()
"""Stands for "a legal action of the deal at that moment"."""
KINDS = ["bid", "play", "trump", "pass", "bid?", "play?", "trump?", "thing", "legal"]


@st.composite
def actions(draw: st.DrawFn) -> object:
    kind = draw(st.sampled_from(KINDS))
    if kind == "legal":
        return LEGAL
    if kind == "bid":
        return draw(st.sampled_from(list(BIDS.values())))
    if kind == "play":
        return draw(st.sampled_from(PLAYS))
    if kind == "trump":
        return draw(st.sampled_from(TRUMPS))
    if kind == "pass":
        return PASS
    make = {"bid?": Bid, "play?": Play, "trump?": ChooseTrump}.get(kind)
    value = draw(WEIRD)
    if make is None:
        return value
    try:
        return make(value)  # type: ignore[arg-type]  # weird values, on purpose
    except IllegalAction:
        COUNTS["constructors refused"] += 1
        return None


def _snapshot(deal: Deal) -> tuple[object, ...]:
    return tuple(copy.deepcopy(getattr(deal, name)) for name in Deal.__slots__)


@FUZZ
@given(
    st.sampled_from(PRESET_NAMES),
    st.integers(0, 2**32),
    st.sampled_from(list(Phase)),
    st.integers(0, 60),
    st.lists(st.tuples(actions(), st.one_of(st.none(), st.integers(-1, 4), WEIRD)), max_size=12),
)
def test_fuzzed_actions_are_applied_when_legal_else_change_nothing(
    name: str, seed: int, goal: Phase, extra: int, attempts: list[tuple[object, object]]
) -> None:
    """The deal is played (by a seeded choice among the legal actions) into the
    ``goal`` phase and ``extra`` actions further while it stays in it."""
    deal = Deal.from_seed(preset(name), seed, seed % 4)
    order = list(Phase)
    step = 0
    while order.index(deal.phase) < order.index(goal) or (
        deal.phase is goal and step < extra and deal.phase is not Phase.DONE
    ):
        if deal.phase is goal:
            step += 1
        legal = deal.legal_actions()
        deal.apply(legal[(seed >> (step % 24)) % len(legal)])
    COUNTS[f"phase {deal.phase.value}"] += 1
    for action, seat in attempts:
        COUNTS["actions fuzzed"] += 1
        legal = deal.legal_actions()
        if action is LEGAL:
            action = legal[seed % len(legal)] if legal else PASS
        before = _snapshot(deal)
        may = action in legal and (seat is None or (type(seat) is int and seat == deal.to_act))
        try:
            deal.apply(action, seat)  # type: ignore[arg-type]  # any seat value, on purpose
        except IllegalAction:
            COUNTS["actions refused"] += 1
            assert _snapshot(deal) == before
            assert not may or deal.phase is Phase.DONE
            continue
        except BaseException as exc:
            COUNTS["raw exceptions"] += 1
            raise AssertionError(f"raw {type(exc).__name__} for {action!r}: {exc}") from exc
        assert may, f"{action!r} by seat {seat!r} was applied but is not legal"
        COUNTS["actions applied"] += 1


def test_report_counts() -> None:
    """Prints what the fuzzing did (shown with ``make fuzz``)."""
    print("\nfuzz counts:", dict(sorted(COUNTS.items())))
