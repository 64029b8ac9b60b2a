"""Who the service tells what happened, and a listener that ignores it.

The events themselves are in :mod:`tables.events`."""

from __future__ import annotations

from typing import Protocol

from .events import TableEvent


class TableListener(Protocol):
    """What the service tells the presentation layer (the Discord cog, or a test)."""

    async def on_event(self, event: TableEvent) -> None:
        """One event, after the table's lock was let go; the events of one change
        arrive in the order they happened."""


class NullListener:
    """A listener that ignores everything."""

    async def on_event(self, event: TableEvent) -> None:
        return None
