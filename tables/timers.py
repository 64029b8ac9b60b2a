"""Named, replaceable timers: real ones on asyncio, and a fake clock for tests."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)

Callback = Callable[[], Awaitable[None]]


class Timers(Protocol):
    """Run a callback after a delay; one timer per key (scheduling a key replaces it)."""

    def schedule(self, key: str, delay: float, callback: Callback) -> None: ...

    def cancel(self, key: str) -> None: ...

    def pending(self, key: str) -> bool: ...

    async def close(self) -> None: ...


class AsyncioTimers:
    """Timers as asyncio tasks."""

    def __init__(self) -> None:
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def schedule(self, key: str, delay: float, callback: Callback) -> None:
        self.cancel(key)
        task = asyncio.get_running_loop().create_task(self._run(key, delay, callback))
        self._tasks[key] = task

    async def _run(self, key: str, delay: float, callback: Callback) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]
            await callback()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer %s failed", key)

    def cancel(self, key: str) -> None:
        task = self._tasks.pop(key, None)
        # A callback that reschedules its own key must not cancel itself.
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def pending(self, key: str) -> bool:
        return key in self._tasks

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class FakeTimers:
    """A manual clock for tests: nothing runs until :meth:`advance` or :meth:`run_until_idle`."""

    def __init__(self) -> None:
        self.now = 0.0
        self._heap: list[tuple[float, int, str]] = []
        self._live: dict[str, tuple[int, Callback]] = {}
        self._ids = itertools.count()

    def schedule(self, key: str, delay: float, callback: Callback) -> None:
        ident = next(self._ids)
        self._live[key] = (ident, callback)
        heapq.heappush(self._heap, (self.now + max(0.0, delay), ident, key))

    def cancel(self, key: str) -> None:
        self._live.pop(key, None)

    def pending(self, key: str) -> bool:
        return key in self._live

    def due(self, key: str) -> float | None:
        """When the timer of ``key`` fires (fake seconds), or None."""
        live = self._live.get(key)
        if live is None:
            return None
        for when, ident, k in self._heap:
            if k == key and ident == live[0]:
                return when
        return None

    async def _pop_due(self, until: float) -> bool:
        while self._heap and self._heap[0][0] <= until:
            when, ident, key = heapq.heappop(self._heap)
            live = self._live.get(key)
            if live is None or live[0] != ident:
                continue
            del self._live[key]
            self.now = max(self.now, when)
            await live[1]()
            return True
        return False

    async def advance(self, seconds: float) -> None:
        """Move the clock forward, running every timer that falls due on the way."""
        until = self.now + seconds
        while await self._pop_due(until):
            pass
        self.now = until

    async def run_until_idle(self, max_delay: float = 3600.0, limit: int = 100_000) -> int:
        """Run timers due within ``max_delay`` of the clock, repeatedly, until none is left.

        Returns how many ran. Timers further away (e.g. a human's turn timer when
        ``max_delay`` is small) stay pending.
        """
        ran = 0
        while ran < limit and await self._pop_due(self.now + max_delay):
            ran += 1
        return ran

    async def close(self) -> None:
        self._live.clear()
        self._heap.clear()
