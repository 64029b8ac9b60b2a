"""Game records in the ``batak-deal/1`` format of ``game-record.md``.

:func:`deal_to_record` exports a finished deal; :func:`deal_from_record`
reads one back by replaying it through the engine and checking every field
on the way: every call, every legal set, every winner and score. A broken
record raises :class:`RecordError` naming the field (``tricks[3].legal[2]``)
and nothing is half-loaded. :func:`dumps` / :func:`loads` convert records to
and from JSON Lines text.
"""

from __future__ import annotations

import json
from typing import Any, Final

from batak.cards import CardMask, Suit, card_code, cards_of, parse_card
from batak.deal import (
    BIDS,
    PASS,
    PLAYS,
    RECORD_FORMAT,
    TRUMPS,
    Action,
    Deal,
    IllegalAction,
    Phase,
)
from batak.rules import PRESETS, Rules, RulesError, show_value
from batak.seeds import deal_hands

FORMAT: Final = RECORD_FORMAT
_TOP_KEYS: Final = {
    "format",
    "rules",
    "seed",
    "dealer",
    "hands",
    "auction",
    "contract",
    "tricks",
    "tricks_won",
    "score",
}
_REQUIRED: Final = _TOP_KEYS - {"seed"}
_RULE_KEYS: Final = (
    "preset",
    "min_bid",
    "forced_bid",
    "all_pass",
    "scoring",
    "trump_lead",
    "overtake_when_trumped",
    "partnership",
    "fixed_trump",
    "blind_bidding",
)


class RecordError(ValueError):
    """A record that breaks the format; the message starts with the field's path.

    From :func:`loads`, ``line`` is the line's number and ``field`` the path inside its
    record (None when the line is no JSON); ``where`` is both, as the message says."""

    def __init__(
        self, where: str, problem: str, *, line: int | None = None, field: str | None = None
    ) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem
        self.line = line
        self.field = field


def _codes(mask: CardMask) -> list[str]:
    return [card_code(c) for c in cards_of(mask)]


def deal_to_record(deal: Deal) -> dict[str, Any]:
    """The record of a finished deal (the same as :meth:`Deal.to_record`)."""
    return deal.to_record()


def dumps(records: list[dict[str, Any]]) -> str:
    """JSON Lines text: one compact record a line."""
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)


def loads(text: str) -> list[Deal]:
    """Read JSON Lines text; every record is checked. Errors name the line.

    Lines end at ``"\n"`` only (a ``"\r"`` before it is dropped), so any text in
    a string field, U+2028 included, reads back as :func:`dumps` wrote it.
    Anything wrong raises :class:`RecordError`, never another exception.
    """
    if not isinstance(text, str):
        raise RecordError("text", f"expected JSON Lines text, got {type(text).__name__}")
    deals = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"line {number}", f"not JSON: {exc.msg}", line=number) from None
        except RecursionError:
            raise RecordError(
                f"line {number}", "not JSON: nested too deeply", line=number
            ) from None
        except ValueError as exc:  # e.g. an integer with thousands of digits
            raise RecordError(f"line {number}", f"not JSON: {exc}", line=number) from None
        try:
            deals.append(deal_from_record(data))
        except RecordError as exc:
            where = f"line {number}: {exc.where}"
            raise RecordError(where, exc.problem, line=number, field=exc.where) from None
    return deals


# --- reading -------------------------------------------------------------------


def _int(value: Any, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RecordError(where, f"expected an integer {low}..{high}, got {show_value(value)}")
    return value


def _list(value: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(where, f"expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise RecordError(where, f"expected {length} entries, got {len(value)}")
    return value


def _card(value: Any, where: str) -> int:
    if not isinstance(value, str) or len(value) != 2:
        raise RecordError(where, f"not a card: {show_value(value)}")
    try:
        card = parse_card(value)
    except ValueError:
        raise RecordError(where, f"not a card: {show_value(value)}") from None
    if card_code(card) != value:
        raise RecordError(where, f"not a card in record notation: {show_value(value)}")
    return card


def _read_rules(value: Any) -> Rules:
    """The record's ``rules``: every deal option, except the ones ``rules.md`` marks
    "–" for this table, which a writer may leave out: ``forced_bid`` under
    ``dealer-must-bid`` and ``fixed_trump`` when the preset fixes no trump."""
    if not isinstance(value, dict):
        raise RecordError("rules", "expected an object")
    values = dict(value)
    for key in _RULE_KEYS:
        if key in values:
            continue
        if (key == "forced_bid" and values.get("all_pass") == "dealer-must-bid") or (
            key == "fixed_trump" and _preset_fixes_no_trump(values.get("preset"))
        ):
            values[key] = None
        else:
            raise RecordError(f"rules.{key}", "missing")
    for key in sorted(k for k in values if k not in _RULE_KEYS):
        raise RecordError(f"rules.{key}", "not an option of a deal")
    try:
        return Rules.from_dict(values)
    except RulesError as exc:
        option, _, problem = str(exc).partition(": ")  # messages start with the option
        raise RecordError(f"rules.{option}", problem) from None


def _preset_fixes_no_trump(name: object) -> bool:
    return isinstance(name, str) and name in PRESETS and PRESETS[name].fixed_trump is None


def _ints(value: Any, where: str, length: int, low: int, high: int) -> list[int]:
    items = _list(value, where, length)
    return [_int(item, f"{where}[{i}]", low, high) for i, item in enumerate(items)]


def deal_from_record(record: Any) -> Deal:
    """The finished deal a record describes, checked against the rules.

    Raises :class:`RecordError` naming the first field that is wrong.
    """
    if not isinstance(record, dict):
        raise RecordError("record", "expected a JSON object")
    for key in sorted(_REQUIRED - set(record)):
        raise RecordError(key, "missing")
    for key in sorted(set(record) - _TOP_KEYS):
        raise RecordError(key, "unknown field")
    if record["format"] != FORMAT:
        raise RecordError("format", f"expected {FORMAT!r}, got {show_value(record['format'])}")
    rules = _read_rules(record["rules"])
    seed = record.get("seed")
    if seed is not None:
        seed = _int(seed, "seed", 0, (1 << 63) - 1)
    dealer = _int(record["dealer"], "dealer", 0, 3)

    hands_in = _list(record["hands"], "hands", 4)
    hands = []
    seen = 0
    for s, hand in enumerate(hands_in):
        mask = 0
        for i, text in enumerate(_list(hand, f"hands[{s}]", 13)):
            card = _card(text, f"hands[{s}][{i}]")
            if (seen >> card) & 1:
                raise RecordError(f"hands[{s}][{i}]", f"{text} is dealt twice")
            seen |= 1 << card
            mask |= 1 << card
        hands.append(mask)
    if seed is not None and list(deal_hands(seed)) != hands:
        raise RecordError("seed", f"{seed} does not deal these hands")
    deal = Deal(rules, hands, dealer, seed)

    for i, call in enumerate(_list(record["auction"], "auction")):
        where = f"auction[{i}]"
        if not isinstance(call, dict) or set(call) != {"seat", "bid"}:
            raise RecordError(where, "expected an object with seat and bid")
        if deal.phase is not Phase.AUCTION:
            raise RecordError(where, "the auction was already over")
        seat = _int(call["seat"], f"{where}.seat", 0, 3)
        if seat != deal.to_act:
            raise RecordError(f"{where}.seat", f"seat {deal.to_act} was to call, not {seat}")
        bid = call["bid"]
        action: Action = PASS if bid is None else BIDS[_int(bid, f"{where}.bid", 1, 13)]
        try:
            deal.apply(action)
        except IllegalAction as exc:
            raise RecordError(f"{where}.bid", str(exc)) from None
    if deal.phase is Phase.AUCTION:
        raise RecordError("auction", "ends before the auction is over")

    contract = record["contract"]
    if not isinstance(contract, dict) or set(contract) != {"seat", "bid", "forced", "trump"}:
        raise RecordError("contract", "expected an object with seat, bid, forced and trump")
    assert deal.contract is not None
    expected = deal.contract
    if _int(contract["seat"], "contract.seat", 0, 3) != expected.seat:
        raise RecordError("contract.seat", f"the auction gives seat {expected.seat}")
    if _int(contract["bid"], "contract.bid", 1, 13) != expected.bid:
        raise RecordError("contract.bid", f"the auction gives {expected.bid}")
    if contract["forced"] is not expected.forced:
        raise RecordError("contract.forced", f"the auction gives {str(expected.forced).lower()}")
    trump_text = contract["trump"]
    if not isinstance(trump_text, str) or trump_text not in Suit.__members__:
        raise RecordError("contract.trump", f"not a suit: {show_value(trump_text)}")
    if deal.phase is Phase.TRUMP:
        deal.apply(TRUMPS[Suit[trump_text]])
    elif deal.trump is None or deal.trump.letter != trump_text:
        raise RecordError("contract.trump", "trump is fixed by the rules")

    tricks = _list(record["tricks"], "tricks", 13)
    for t, trick in enumerate(tricks):
        where = f"tricks[{t}]"
        if not isinstance(trick, dict) or set(trick) != {"leader", "cards", "winner", "legal"}:
            raise RecordError(where, "expected an object with leader, cards, winner and legal")
        leader = _int(trick["leader"], f"{where}.leader", 0, 3)
        if leader != deal.to_act:
            raise RecordError(f"{where}.leader", f"seat {deal.to_act} was to lead, not {leader}")
        cards = _list(trick["cards"], f"{where}.cards", 4)
        legal_sets = _list(trick["legal"], f"{where}.legal", 4)
        for i in range(4):
            card = _card(cards[i], f"{where}.cards[{i}]")
            offered = 0
            for j, text in enumerate(_list(legal_sets[i], f"{where}.legal[{i}]")):
                c = _card(text, f"{where}.legal[{i}][{j}]")
                if (offered >> c) & 1:
                    raise RecordError(f"{where}.legal[{i}]", f"{text} is listed twice")
                offered |= 1 << c
            allowed = deal.legal_card_mask()
            if offered != allowed:
                raise RecordError(
                    f"{where}.legal[{i}]",
                    f"the rules allow {sorted(_codes(allowed))}, not {sorted(_codes(offered))}",
                )
            if not (offered >> card) & 1:
                raise RecordError(f"{where}.cards[{i}]", f"{cards[i]} is not in the legal set")
            deal.apply(PLAYS[card])
        winner = _int(trick["winner"], f"{where}.winner", 0, 3)
        if winner != deal.tricks[-1].winner:
            raise RecordError(f"{where}.winner", f"seat {deal.tricks[-1].winner} won the trick")

    assert deal.scores is not None
    for key, actual, low, high in (
        ("tricks_won", deal.tricks_won, 0, 13),
        ("score", deal.scores, -130, 130),
    ):
        given = _ints(record[key], key, 4, low, high)
        if given != actual:
            raise RecordError(key, f"expected {actual}, got {given}")
    return deal
