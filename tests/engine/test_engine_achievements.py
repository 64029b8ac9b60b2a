"""Achievements from crafted deal records: each one earned, and each one missed by a
record that comes close."""

from __future__ import annotations

from typing import Any

from batak.achievements import (
    CODES,
    MATCH_CODES,
    PlayedMatch,
    Progress,
    daily_week,
    match_facts,
    replay,
)
from batak.rules import preset
from batak.scoring import Holding, score_deal

STANDARD = preset("standard")
ESLI = preset("esli")


def deal(
    holder: int,
    bid: int,
    tricks: list[int],
    *,
    trump: str = "S",
    forced: bool = False,
    partnership: bool = False,
    score: list[int] | None = None,
) -> dict[str, Any]:
    """The fields of a batak-deal/1 record the achievements read, scored by the rules."""
    rules = ESLI if partnership else STANDARD
    assert sum(tricks) == 13
    return {
        "format": "batak-deal/1",
        "rules": rules.deal_dict(),
        "contract": {"seat": holder, "bid": bid, "forced": forced, "trump": trump},
        "tricks_won": tricks,
        "score": score if score is not None else score_deal(rules, Holding(holder, bid), tricks),
    }


def codes(records: list[dict[str, Any]], seat: int) -> set[str]:
    return set(match_facts(records, seat).codes)


def test_codes_are_listed_once() -> None:
    assert len(set(CODES)) == len(CODES) == 8
    assert set(MATCH_CODES) < set(CODES)


# ------------------------------------------------------------------ big_contract
def test_big_contract_made() -> None:
    assert "big_contract" in codes([deal(1, 10, [1, 10, 1, 1])], 1)


def test_big_contract_down_or_too_small_or_not_yours() -> None:
    assert "big_contract" not in codes([deal(1, 10, [2, 9, 1, 1])], 1)  # went down
    assert "big_contract" not in codes([deal(1, 9, [1, 11, 1, 0])], 1)  # a 9, made with 11
    assert "big_contract" not in codes([deal(1, 10, [1, 10, 1, 1])], 0)  # a defender


# ------------------------------------------------------------------ set_contract
def test_set_contract_as_a_defender_with_a_trick() -> None:
    assert "set_contract" in codes([deal(0, 7, [6, 3, 2, 2])], 2)


def test_no_set_without_a_trick_when_made_forced_or_as_the_holder() -> None:
    assert "set_contract" not in codes([deal(0, 7, [6, 0, 4, 3])], 1)  # took no trick
    assert "set_contract" not in codes([deal(0, 7, [7, 2, 2, 2])], 2)  # it was made
    assert "set_contract" not in codes([deal(0, 4, [3, 4, 3, 3], forced=True)], 1)
    assert "set_contract" not in codes([deal(0, 7, [6, 3, 2, 2])], 0)  # the holder


def test_set_contract_in_partnership_not_for_the_holders_partner() -> None:
    record = deal(0, 9, [4, 3, 4, 2], partnership=True)  # the pair 0+2 took 8 of 9
    assert "set_contract" in codes([record], 1)
    assert "set_contract" not in codes([record], 2)


# ------------------------------------------------------------------ all_thirteen
def test_all_thirteen() -> None:
    assert "all_thirteen" in codes([deal(3, 8, [0, 0, 0, 13])], 3)
    assert "all_thirteen" not in codes([deal(3, 8, [0, 1, 0, 12])], 3)


# ------------------------------------------------------------------ flawless
def test_flawless_three_contracts_all_made_never_below_zero() -> None:
    match = [deal(2, 6, [2, 2, 7, 2]), deal(2, 5, [3, 3, 5, 2]), deal(2, 7, [1, 2, 8, 2])]
    assert "flawless" in codes(match, 2)


def test_not_flawless_with_two_contracts_one_down_or_a_minus() -> None:
    two = [deal(2, 6, [2, 2, 7, 2]), deal(2, 5, [3, 3, 5, 2])]
    assert "flawless" not in codes(two, 2)
    down = [*two, deal(2, 7, [2, 3, 6, 2])]
    assert "flawless" not in codes(down, 2)
    minus = [*two, deal(2, 7, [1, 2, 8, 2]), deal(0, 5, [8, 3, 2, 0], score=[80, 30, -20, 10])]
    assert "flawless" not in codes(minus, 2)


# ------------------------------------------------------------------ comeback
def test_comeback_from_last_alone_to_first() -> None:
    match = [
        deal(0, 5, [5, 3, 3, 2], score=[50, 30, 30, -20]),
        deal(3, 12, [0, 0, 1, 12], score=[0, 0, 10, 120]),
    ]
    assert "comeback" in codes(match, 3)


def test_no_comeback_when_shared_last_or_not_first() -> None:
    shared = [
        deal(0, 5, [5, 3, 3, 2], score=[50, 30, -20, -20]),
        deal(3, 12, [0, 0, 1, 12], score=[0, 0, 10, 120]),
    ]
    assert "comeback" not in codes(shared, 3)
    second = [
        deal(0, 5, [5, 3, 3, 2], score=[50, 30, 30, -20]),
        deal(3, 6, [0, 6, 1, 6], score=[0, 0, 10, 60]),
    ]
    assert "comeback" not in codes(second, 3)
    assert "comeback" not in codes([deal(3, 12, [0, 0, 1, 12])], 3)  # one deal only


def test_comeback_in_partnership_by_pairs() -> None:
    match = [
        deal(0, 7, [4, 2, 4, 3], partnership=True, score=[80, -50, 80, -50]),
        deal(1, 11, [1, 6, 0, 6], partnership=True, score=[0, 140, 0, 140]),
    ]
    assert "comeback" in codes(match, 1) and "comeback" in codes(match, 3)
    assert "comeback" not in codes(match, 0)


# ------------------------------------------------------------------ every_trump
def test_every_trump_over_several_matches_once() -> None:
    p = Progress()
    assert p.after_match(match_facts([deal(0, 5, [6, 3, 2, 2], trump="S")], 0)) == []
    assert p.after_match(match_facts([deal(0, 5, [6, 3, 2, 2], trump="H")], 0)) == []
    # a diamond contract that went down does not count
    assert p.after_match(match_facts([deal(0, 5, [4, 3, 3, 3], trump="D")], 0)) == []
    assert p.after_match(match_facts([deal(0, 5, [6, 3, 2, 2], trump="C")], 0)) == []
    assert p.after_match(match_facts([deal(0, 5, [6, 3, 2, 2], trump="D")], 0)) == ["every_trump"]
    assert p.after_match(match_facts([deal(0, 5, [6, 3, 2, 2], trump="S")], 0)) == []


def test_progress_grants_each_code_once() -> None:
    p = Progress()
    big = match_facts([deal(1, 10, [1, 10, 1, 1])], 1)
    assert p.after_match(big) == ["big_contract"]
    assert p.after_match(big) == []


def test_replay_people_only_and_first_match_counts() -> None:
    big = [deal(1, 10, [1, 10, 1, 1])]
    plain = [deal(0, 5, [5, 3, 3, 2])]
    earned, _ = replay(
        [
            PlayedMatch(1, "2026-03-01T10:00:00Z", plain, [7, 8, None, None]),
            PlayedMatch(2, "2026-03-02T10:00:00Z", big, [7, None, 8, None]),  # a computer's 10
            PlayedMatch(3, "2026-03-03T10:00:00Z", big, [None, 7, 8, None]),
            PlayedMatch(4, "2026-03-04T10:00:00Z", big, [None, 7, 8, None]),
        ]
    )
    assert [(e.code, e.match_id) for e in earned[7]] == [("big_contract", 3)]
    assert 8 not in earned  # a defender of contracts that were made


# ------------------------------------------------------------------ daily_week
def test_daily_week_seven_days_in_a_row() -> None:
    days = [(f"2026-03-{d:02d}", f"2026-03-{d:02d}T20:00:00Z") for d in range(1, 8)]
    assert daily_week(days) == ("2026-03-07", "2026-03-07T20:00:00Z")
    assert daily_week(days[:6]) is None
    gap = [r for r in days if r[0] != "2026-03-04"] + [("2026-03-09", "2026-03-09T20:00:00Z")]
    assert daily_week(gap) is None


def test_daily_week_across_a_month_completed_by_a_late_day() -> None:
    days = [("2026-02-26", "a"), ("2026-02-27", "b"), ("2026-02-28", "c"), ("2026-03-02", "d")]
    days += [("2026-03-03", "e"), ("2026-03-04", "f"), ("2026-03-01", "g")]
    # finished in the order a..g: the 1st of March, played last, closes the week
    assert daily_week(days) == ("2026-03-01", "g")
