"""A table's stored settings: typed, written as today, and read from every stored row."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from batak import preset
from tables import TableSettings, as_pace

RULES = preset("standard").to_dict()

# What the service has written so far: a lobby, a started match, a rematch, a daily match.
LOBBY: dict[str, Any] = {
    "rules": RULES,
    "pace": "live",
    "turn_timeout_s": 120,
    "bot_level": "normal",
    "language": "tr",
    "first_dealer": 0,
}
STARTED = LOBBY | {"seed": 1234567890123}
REMATCH = LOBBY | {"rematch_of": 7}
DAILY: dict[str, Any] = {
    "rules": RULES,
    "pace": "async",
    "turn_timeout_s": None,
    "bot_level": "hard",
    "language": "en",
    "first_dealer": 0,
    "seed": 42,
    "day": "2026-12-01",
}


@pytest.mark.parametrize("row", [LOBBY, STARTED, REMATCH, DAILY])
def test_stored_rows_read_and_write_back_unchanged(row: dict[str, Any]) -> None:
    settings = TableSettings.from_dict(row)
    assert settings.to_dict() == row
    assert list(settings.to_dict()) == list(row)  # the same keys in the same order


def test_fields_are_typed() -> None:
    s = TableSettings.from_dict(DAILY)
    assert (s.pace, s.turn_timeout_s, s.bot_level, s.language) == ("async", None, "hard", "en")
    assert (s.seed, s.day, s.rematch_of, s.first_dealer) == (42, "2026-12-01", None, 0)
    assert s.rule_set() == preset("standard")
    assert s.match_seed() == 42
    started = replace(TableSettings.from_dict(LOBBY), seed=5)
    assert started.to_dict() == LOBBY | {"seed": 5}


def test_partial_and_odd_rows_take_defaults() -> None:
    s = TableSettings.from_dict({"language": "en", "pace": "live"})
    assert (s.pace, s.bot_level, s.first_dealer, s.turn_timeout_s, s.seed) == (
        "live",
        "normal",
        0,
        None,
        None,
    )
    odd = TableSettings.from_dict(
        {
            "pace": "sometimes",
            "turn_timeout_s": "90",
            "first_dealer": 9,
            "seed": "17",
            "rules": "standard",
            "day": 20261201,
            "rematch_of": True,
        }
    )
    assert (odd.pace, odd.turn_timeout_s, odd.first_dealer, odd.seed) == ("live", 90.0, 0, 17)
    assert (odd.rules, odd.day, odd.rematch_of) == ({}, None, None)
    assert TableSettings.from_dict({"turn_timeout_s": -3}).turn_timeout_s is None


def test_unknown_keys_are_kept() -> None:
    row = STARTED | {"from_a_later_version": [1, 2]}
    assert TableSettings.from_dict(row).to_dict() == row


def test_a_row_without_rules_or_seed_cannot_be_replayed() -> None:
    s = TableSettings.from_dict({"pace": "live"})
    with pytest.raises(ValueError, match="rule set"):
        s.rule_set()
    with pytest.raises(ValueError, match="seed"):
        s.match_seed()


def test_pace_names() -> None:
    assert [as_pace(p) for p in ("live", "async", "Live", "")] == ["live", "async", None, None]
