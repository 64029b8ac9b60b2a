"""Season arithmetic (data.season_calendar): boundaries exact, in the server's zone,
through DST changes, monthly and quarterly, and none."""

from __future__ import annotations

import doctest
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from data import season_calendar
from data.season_calendar import (
    Season,
    mode_of_label,
    season_at,
    season_of_label,
    seconds_until_next,
    zone,
)

# zones with DST, with jumps at or near midnight, far from UTC, with half hours
ZONES = (
    "UTC",
    "Europe/Istanbul",
    "Europe/Berlin",
    "America/New_York",
    "America/Santiago",
    "America/Havana",
    "America/Asuncion",
    "Asia/Tehran",
    "Asia/Kolkata",
    "Pacific/Kiritimati",
    "Pacific/Pago_Pago",
    "Australia/Lord_Howe",
)
TINY = timedelta(microseconds=1)

instants = st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2060, 12, 31), timezones=st.just(UTC)
)


def test_doctests() -> None:
    failed, attempted = doctest.testmod(season_calendar)
    assert attempted >= 8 and failed == 0


@settings(max_examples=400, deadline=None)
@given(instants, st.sampled_from(("monthly", "quarterly")), st.sampled_from(ZONES))
def test_an_instant_is_in_exactly_one_season(at: datetime, mode: str, tz: str) -> None:
    s = season_at(at, mode, tz)
    assert s is not None
    assert s.start <= at < s.end
    assert s.contains(at)
    # the neighbours touch: no gap, no overlap
    assert s.previous().end == s.start and s.next().start == s.end
    assert season_at(s.start, mode, tz) == s
    assert season_at(s.start - TINY, mode, tz) == s.previous()
    assert season_at(s.end - TINY, mode, tz) == s
    assert season_at(s.end, mode, tz) == s.next()
    # the label names the season again, and its kind
    assert season_of_label(s.label, tz) == s
    assert mode_of_label(s.label) == mode
    left = seconds_until_next(at, mode, tz)
    assert left is not None and 0 < left <= 93 * 86400


@settings(max_examples=200, deadline=None)
@given(instants, st.sampled_from(ZONES))
def test_a_quarter_is_its_three_months(at: datetime, tz: str) -> None:
    q = season_at(at, "quarterly", tz)
    m = season_at(at, "monthly", tz)
    assert q is not None and m is not None
    assert q.start <= m.start and m.end <= q.end
    assert (m.index - 1) // 3 + 1 == q.index and m.year == q.year
    first = season_of_label(f"{q.year}-{q.first_month:02d}", tz)
    assert first.start == q.start


def test_the_boundary_is_local_midnight_in_the_zone() -> None:
    # Istanbul is UTC+3 all year: April starts at 21:00 UTC on 31 March
    s = season_at(datetime(2027, 4, 10, tzinfo=UTC), "monthly", "Europe/Istanbul")
    assert s is not None and s.label == "2027-04"
    assert s.start == datetime(2027, 3, 31, 21, tzinfo=UTC)
    before = season_at(
        datetime(2027, 3, 31, 20, 59, 59, 999999, tzinfo=UTC), "monthly", "Europe/Istanbul"
    )
    assert before is not None and before.label == "2027-03"
    # the same instant is already April in Istanbul and still March in UTC
    at = datetime(2027, 3, 31, 22, tzinfo=UTC)
    assert season_at(at, "monthly", "UTC").label == "2027-03"  # type: ignore[union-attr]
    assert season_at(at, "monthly", "Europe/Istanbul").label == "2027-04"  # type: ignore[union-attr]


def test_dst_changes_move_the_boundary_by_the_offset() -> None:
    # New York: EST (-5) on 1 March, EDT (-4) on 1 April and 1 November
    march = season_of_label("2027-03", "America/New_York")
    assert march.start == datetime(2027, 3, 1, 5, tzinfo=UTC)
    assert march.end == datetime(2027, 4, 1, 4, tzinfo=UTC)  # DST began inside March
    oct_ = season_of_label("2027-10", "America/New_York")
    assert oct_.end == datetime(2027, 11, 1, 4, tzinfo=UTC)
    # a month with the spring jump in it is an hour shorter
    assert march.end - march.start == timedelta(days=31, hours=-1)


def test_a_midnight_the_clocks_skip_starts_the_season_at_the_jump() -> None:
    # Havana springs forward at midnight: 2027-03-14 00:00 does not exist (not a 1st);
    # Asuncion (until 2024) went forward at midnight on 1 October 2017
    s = season_of_label("2017-10", "America/Asuncion")
    assert s.start.astimezone(zone("America/Asuncion")).hour in (0, 1)
    assert season_at(s.start, "monthly", "America/Asuncion") == s
    assert season_at(s.start - TINY, "monthly", "America/Asuncion").label == "2017-09"  # type: ignore[union-attr]


def test_no_seasons() -> None:
    assert season_at(datetime(2027, 1, 1, tzinfo=UTC), "none") is None
    assert seconds_until_next(datetime(2027, 1, 1, tzinfo=UTC), "none") is None


@pytest.mark.parametrize("bad", ["", "Mars/Olympus", "utc ", "../etc/passwd", "Europe/"])
def test_unknown_zones_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="unknown time zone"):
        zone(bad)


@pytest.mark.parametrize("bad", ["2027-13", "2027-Q5", "27-03", "2027-3", "all", "0000-01"])
def test_labels_that_are_no_season(bad: str) -> None:
    with pytest.raises(ValueError, match="not a season"):
        season_of_label(bad)


def test_naive_instants_are_refused() -> None:
    with pytest.raises(ValueError, match="time zone"):
        season_at(datetime(2027, 1, 1), "monthly")
    with pytest.raises(ValueError, match="mode"):
        season_at(datetime(2027, 1, 1, tzinfo=UTC), "weekly")


def test_season_is_a_plain_value() -> None:
    s = season_of_label("2027-Q4", "UTC")
    assert isinstance(s, Season) and s.first_month == 10
    assert s.next().label == "2028-Q1" and s.next().previous() == s
