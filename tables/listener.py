"""Who the service tells what happened, and a listener that ignores it.

The events themselves are in :mod:`tables.events`."""

from __future__ import annotations

import logging
from typing import Protocol

from .events import TableEvent

log = logging.getLogger(__name__)


class TableListener(Protocol):
    """What the service tells the presentation layer (the Discord cog, or a test)."""

    async def on_event(self, event: TableEvent) -> None:
        """One event, after the table's lock was let go; the events of one change
        arrive in the order they happened."""


class NullListener:
    """A listener that ignores everything."""

    async def on_event(self, event: TableEvent) -> None:
        return None


class Listeners:
    """Several listeners told in turn (the table messages first, then, say, the
    tournaments waiting for their tables); one failing does not keep the next from
    being told."""

    def __init__(self, *listeners: TableListener) -> None:
        self.listeners = listeners

    async def on_event(self, event: TableEvent) -> None:
        for listener in self.listeners:
            try:
                await listener.on_event(event)
            except Exception:
                log.exception("a listener failed on %s", type(event).__name__)
