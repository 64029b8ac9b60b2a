"""Season arithmetic, pure: which season an instant is in, its label, its start and end.

A server's season is a calendar month (``monthly``, the default) or quarter
(``quarterly``) in the server's time zone, or there are none (``none``: the all-time
board only). A season starts at the first local midnight of its first day and ends
where the next one starts; both are exact UTC instants, and an instant belongs to the
season with ``start <= instant < end`` (a match belongs to the season it *ended* in).

Where a zone's clocks jump over midnight, the season starts at the jump; where they
go back over it, at the first of the two midnights. Labels are ``2027-03`` (monthly)
and ``2027-Q1`` (quarterly).

>>> s = season_at(datetime(2027, 3, 31, 21, 30, tzinfo=UTC), "monthly", "Europe/Istanbul")
>>> s.label, s.start.isoformat(), s.end.isoformat()
('2027-04', '2027-03-31T21:00:00+00:00', '2027-04-30T21:00:00+00:00')
>>> season_at(datetime(2027, 3, 31, 20, 59, 59, tzinfo=UTC), "monthly", "Europe/Istanbul").label
'2027-03'
>>> season_at(datetime(2027, 5, 2, tzinfo=UTC), "quarterly", "UTC").label
'2027-Q2'
>>> season_at(datetime(2027, 5, 2, tzinfo=UTC), "none", "UTC") is None
True
>>> season_of_label("2027-Q1", "UTC").end.isoformat()
'2027-04-01T00:00:00+00:00'
>>> season_of_label("2027-01", "UTC").previous().label
'2026-12'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Final, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

SeasonMode = Literal["monthly", "quarterly", "none"]
SEASON_MODES: Final[tuple[SeasonMode, ...]] = ("monthly", "quarterly", "none")
DEFAULT_TIMEZONE: Final = "UTC"

_MONTHLY: Final = re.compile(r"(\d{4})-(0[1-9]|1[0-2])")
_QUARTERLY: Final = re.compile(r"(\d{4})-Q([1-4])")


@lru_cache(maxsize=512)
def zone(name: str) -> ZoneInfo:
    """The IANA zone ``name``; ``ValueError`` when there is none by that name.

    >>> zone("Europe/Istanbul").key
    'Europe/Istanbul'
    >>> zone("Mars/Olympus")
    Traceback (most recent call last):
    ...
    ValueError: unknown time zone 'Mars/Olympus'
    """
    if not isinstance(name, str) or not name or name != name.strip() or ".." in name:
        raise ValueError(f"unknown time zone {name!r}")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"unknown time zone {name!r}") from None


def timezone_names() -> list[str]:
    """Every IANA zone name this machine knows, sorted (for autocomplete)."""
    return sorted(available_timezones())


@dataclass(frozen=True, slots=True)
class Season:
    """One season of a server: ``mode``, ``year``, ``index`` (month 1-12 or quarter
    1-4), ``tz`` (the zone name), ``start``/``end`` as UTC instants."""

    mode: SeasonMode
    year: int
    index: int
    tz: str
    start: datetime
    end: datetime

    @property
    def label(self) -> str:
        if self.mode == "quarterly":
            return f"{self.year}-Q{self.index}"
        return f"{self.year}-{self.index:02d}"

    @property
    def first_month(self) -> int:
        """The season's first calendar month (1-12)."""
        return self.index if self.mode == "monthly" else 3 * self.index - 2

    def contains(self, instant: datetime) -> bool:
        return self.start <= _utc(instant) < self.end

    def previous(self) -> Season:
        year, index = (
            (self.year, self.index - 1) if self.index > 1 else (self.year - 1, _N[self.mode])
        )
        return _season(self.mode, year, index, self.tz)

    def next(self) -> Season:
        year, index = (
            (self.year, self.index + 1) if self.index < _N[self.mode] else (self.year + 1, 1)
        )
        return _season(self.mode, year, index, self.tz)


_N: Final = {"monthly": 12, "quarterly": 4}


def _utc(instant: datetime) -> datetime:
    if instant.tzinfo is None:
        raise ValueError("a season instant must carry its time zone")
    return instant.astimezone(UTC)


def _local_midnight(year: int, month: int, tz: str) -> datetime:
    """The UTC instant of the first local midnight of ``year-month-01`` (its jump
    when the clocks skip it)."""
    naive = datetime(year, month, 1)
    # fold=0: the first of two midnights when clocks go back; in a gap, the instant
    # the clocks jumped (the old offset still applies to a time that does not exist)
    return naive.replace(tzinfo=zone(tz), fold=0).astimezone(UTC)


def _season(mode: SeasonMode, year: int, index: int, tz: str) -> Season:
    if mode == "none":
        raise ValueError("a server without seasons has no season")
    if mode == "monthly":
        first, after = (year, index), (year + index // 12, index % 12 + 1)
    else:
        m = 3 * index - 2
        first, after = (year, m), (year + (m + 3 > 12), (m + 2) % 12 + 1)
    return Season(mode, year, index, tz, _local_midnight(*first, tz), _local_midnight(*after, tz))


def season_at(instant: datetime, mode: str, tz: str = DEFAULT_TIMEZONE) -> Season | None:
    """The season ``instant`` falls in (None for a server without seasons)."""
    if mode == "none":
        return None
    if mode not in _N:
        raise ValueError(f"unknown season mode {mode!r}")
    m: SeasonMode = "monthly" if mode == "monthly" else "quarterly"
    at = _utc(instant)
    local = at.astimezone(zone(tz))
    index = local.month if m == "monthly" else (local.month - 1) // 3 + 1
    s = _season(m, local.year, index, tz)
    # the local date can disagree with the boundaries only around a midnight the
    # clocks skip or repeat: step to the neighbour that holds the instant
    while at < s.start:
        s = s.previous()
    while at >= s.end:
        s = s.next()
    return s


def mode_of_label(label: str) -> SeasonMode | None:
    """``monthly`` for 2027-03, ``quarterly`` for 2027-Q1, None for anything else."""
    if _MONTHLY.fullmatch(label):
        return "monthly"
    if _QUARTERLY.fullmatch(label):
        return "quarterly"
    return None


def season_of_label(label: str, tz: str = DEFAULT_TIMEZONE) -> Season:
    """The season a label names, in zone ``tz``; ``ValueError`` for a label that is none."""
    mode = mode_of_label(label)
    if mode is None:
        raise ValueError(f"not a season: {label!r} (2027-03 or 2027-Q1)")
    year, index = label.split("-")
    if not 1 <= int(year) <= 9998:
        raise ValueError(f"not a season: {label!r}")
    return _season(mode, int(year), int(index.lstrip("Q")), tz)


def seconds_until_next(instant: datetime, mode: str, tz: str = DEFAULT_TIMEZONE) -> float | None:
    """Seconds from ``instant`` to the end of its season (None: no seasons)."""
    s = season_at(instant, mode, tz)
    return None if s is None else (s.end - _utc(instant)) / timedelta(seconds=1)
