"""Coalesce rapid message edits: at most one edit per key per interval.

The first request after a quiet period runs at once; requests that arrive while
an edit is pending or too recent are merged into one trailing edit that shows
the latest state. A table of four computer players thus edits its message at
most every ``interval`` seconds, whatever the speed of play.

Time comes from ``clock`` and waiting from ``sleep``; by default the running
event loop's clock and :func:`asyncio.sleep` (which waits on that clock), so
tests can hand in a fake clock and a sleep that only ends when they move it.

With a :class:`~cogs.budget.GlobalBudget` an edit also waits for a token of
Discord's global limit, before anything is drawn: on a busy bot the requests that
arrive meanwhile are merged into it. An edit of an ``exempt`` key goes through an
interaction token (:mod:`cogs.table_tokens`), which the global limit leaves out: it takes
no token of the budget (if it has to fall back on the bot's token, that request takes
one itself).

A wait of an edit (the interval, or a token of the budget) is cut short by a new
request of its key when that request changed the reason to wait: the key became
``urgent`` (the table has just started: its first picture goes at once) or ``exempt``
(a press on the message gave a token, so no token of the budget is needed). Without
this, a table started while its lobby's edit queued for the global limit behind
a burst of other tables' posts showed its start only when that turn came (up to 14 s
for 200 tables opened within 2 s).

The pacer remembers when it last edited each key only while that still holds an
edit back: a time older than ``interval`` is forgotten (forgetting it changes
nothing, the next edit of that key runs at once either way), so a long-running
bot does not keep one entry for every table it ever edited.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable

from .budget import GlobalBudget, mode

log = logging.getLogger(__name__)

Clock = Callable[[], float]
"""The time now, in seconds (any origin; only differences matter)."""

Sleep = Callable[[float], Awaitable[None]]
"""Wait ``seconds`` on the same clock."""


class EditPacer:
    def __init__(
        self,
        interval: float,
        edit: Callable[[int], Awaitable[None]],
        clock: Clock | None = None,
        sleep: Sleep = asyncio.sleep,
        budget: GlobalBudget | None = None,
        urgent: Callable[[int], bool] = lambda key: False,
        exempt: Callable[[int], bool] = lambda key: False,
    ) -> None:
        """``budget``: each edit takes a token of Discord's global limit before it is
        drawn (requests that come while it waits are merged into it); ``urgent``: the
        keys whose edit goes before the others waiting for a token; ``exempt``: the keys
        whose edit now needs none (it goes through an interaction token)."""
        self.interval = interval
        self._budget = budget
        self._urgent = urgent
        self._exempt = exempt
        self._edit = edit
        self._clock = clock
        self._sleep = sleep
        self._last: dict[Hashable, float] = {}
        """When each key was last edited, oldest first (re-inserted on each edit)."""
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        """The keys whose edit waits (interval or budget): set by a new request."""
        self.edits = 0
        self.woken = 0
        """Waits cut short because a key became urgent or exempt."""

    def _now(self) -> float:
        if self._clock is not None:
            return self._clock()
        return asyncio.get_running_loop().time()

    @property
    def remembered(self) -> int:
        """How many last-edit times the pacer holds (only those younger than ``interval``)."""
        return len(self._last)

    def _forget_old(self, now: float) -> None:
        """Drop the last-edit times that no longer hold an edit back (the oldest are
        first: each edit moves its key to the end)."""
        last = self._last
        while last:
            key = next(iter(last))
            if last[key] + self.interval > now:
                break
            del last[key]

    def request(self, key: int) -> None:
        """Ask for the message of ``key`` to be redrawn soon."""
        self._forget_old(self._now())
        self._dirty.add(key)
        wake = self._wake.get(key)
        if wake is not None:
            wake.set()
        if key not in self._tasks:
            self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    async def _run(self, key: int) -> None:
        try:
            while key in self._dirty:
                wait = self._last.get(key, float("-inf")) + self.interval - self._now()
                if (  # a start is shown at once
                    wait > 0
                    and not self._urgent(key)
                    and not await self._unless_woken(key, self._sleep(wait), self._urgent)
                ):
                    continue
                prepaid = self._budget is not None and not self._exempt(key)
                if self._budget is not None and prepaid:
                    took = self._budget.take(urgent=self._urgent(key))
                    if not await self._unless_woken(key, took, self._needs_no_wait(key)):
                        continue
                self._dirty.discard(key)
                now = self._now()
                self._last.pop(key, None)
                self._last[key] = now
                self._forget_old(now)
                self.edits += 1
                try:
                    with mode("prepaid" if prepaid else "normal"):
                        await self._edit(key)
                except Exception:
                    log.exception("editing the message of table %s failed", key)
        finally:
            self._tasks.pop(key, None)

    def _needs_no_wait(self, key: int) -> Callable[[int], bool]:
        """Whether a wait for a token of the budget, queued as urgent as ``key`` is now,
        should be decided again: the key became exempt, or urgent."""
        urgent = self._urgent(key)
        return lambda k: self._exempt(k) or self._urgent(k) != urgent

    async def _unless_woken(
        self, key: int, wait: Awaitable[None], changed: Callable[[int], bool]
    ) -> bool:
        """Await ``wait``; False if a request of ``key`` came meanwhile after which
        ``changed(key)`` holds (``wait`` is then cancelled: the caller decides again)."""
        task = asyncio.ensure_future(wait)
        while True:
            wake = self._wake[key] = asyncio.Event()
            woken = asyncio.ensure_future(wake.wait())
            try:
                await asyncio.wait({task, woken}, return_when=asyncio.FIRST_COMPLETED)
            except BaseException:
                task.cancel()
                raise
            finally:
                woken.cancel()
                self._wake.pop(key, None)
            if task.done():
                task.result()
                return True
            if changed(key):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                self.woken += 1
                return False

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
