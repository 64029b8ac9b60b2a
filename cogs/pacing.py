"""Coalesce rapid message edits: at most one edit per key per interval.

The first request after a quiet period runs at once; requests that arrive while
an edit is pending or too recent are merged into one trailing edit that shows
the latest state. A table of four computer players thus edits its message at
most every ``interval`` seconds, whatever the speed of play.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)


class EditPacer:
    def __init__(
        self,
        interval: float,
        edit: Callable[[int], Awaitable[None]],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.interval = interval
        self._edit = edit
        self._clock = clock
        self._last: dict[Hashable, float] = {}
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self.edits = 0

    def request(self, key: int) -> None:
        """Ask for the message of ``key`` to be redrawn soon."""
        self._dirty.add(key)
        if key not in self._tasks:
            self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    async def _run(self, key: int) -> None:
        try:
            while key in self._dirty:
                wait = self._last.get(key, float("-inf")) + self.interval - self._clock()
                if wait > 0:
                    await asyncio.sleep(wait)
                self._dirty.discard(key)
                self._last[key] = self._clock()
                self.edits += 1
                try:
                    await self._edit(key)
                except Exception:
                    log.exception("editing the message of table %s failed", key)
        finally:
            self._tasks.pop(key, None)

    async def flush(self, key: int) -> None:
        """Wait until the pending edit of ``key`` (if any) is done."""
        task = self._tasks.get(key)
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(task)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
