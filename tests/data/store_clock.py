"""A settable clock for store tests (the store takes ``clock=`` for its timestamps)."""

from __future__ import annotations

from datetime import datetime


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now
