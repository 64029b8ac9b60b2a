"""CPU work away from the event loop: one worker process draws pictures, one thinks.

(And one that starts on first use, for the heavy work people ask for: replays, reviews,
the daily comparison.)

Drawing a table (Pillow) and a computer player's search (pure Python) are CPU work. In
a thread they would hold the bot process's GIL, and every interaction waiting to be
acknowledged would wait for them. In a worker process they run on another core while
the event loop stays free for Discord. The functions sent to a worker and their
arguments are plain, picklable data: view models, observations, levels and seeds.

A worker that dies (killed, out of memory) is replaced by exactly one new process,
however many calls were waiting on it (the first caller to see the broken pool replaces
it; the others find the replacement already there), and every call that was in flight
is tried once more on it. A worker whose bot dies (even by SIGKILL, which runs no
clean-up) notices within a second and exits, so crashes leave no processes behind.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ops.metrics import METRICS

from .channel import Channel, serve

log = logging.getLogger(__name__)

T = TypeVar("T")

DEPTH = 2
"""Calls handed to a worker process at once: the one it runs and the next, so it never
waits for the event loop between two; the rest wait in the bot, in order of urgency."""


class Worker:
    """One worker process, started on first use (``spawn``: safe next to threads)."""

    def __init__(
        self, name: str, warm_up: Callable[[], None] | None = None, niceness: int = 0
    ) -> None:
        self.name = name
        self._warm_up = warm_up
        """Run by :meth:`start` as the first job (caches for later calls). Not on a
        replacement: the calls retried there are what people wait for, and warming
        up first took 5-6 s of a busy machine's CPU before the first of them."""
        self._niceness = niceness
        self._pool: Channel | None = None
        self._handed = 0
        self._waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(),
            deque(),
        )
        self.started = 0
        """How many worker processes were started (the first, then one per death)."""
        self.retried = 0
        """How many calls were tried again because their worker died."""
        self.pid: int | None = None
        """The current worker process, once it answered (for the health check)."""

    def _executor(self) -> Channel:
        if self._pool is None:
            self._pool = Channel(self.name, serve, _start_worker, os.getpid(), self._niceness)
            self.started += 1
        return self._pool

    def _call(self, pool: Channel, fn: Callable[..., T], args: tuple[Any, ...]) -> Any:
        done = pool.call(fn, args)
        done.add_done_callback(lambda f: self._learn_pid(pool, f))
        return done

    def _learn_pid(self, pool: Channel, done: asyncio.Future[Any]) -> None:
        if pool is self._pool and not done.cancelled() and done.exception() is None:
            self.pid = pool.pid

    def alive(self) -> bool:
        """The worker process exists and is not a zombie (False before it answered once
        and after it died, until it is replaced)."""
        if self.pid is None:
            return False
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return False
        return state not in ("Z", "X")

    async def run(self, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``fn(*args)`` in the worker process; once more on a new one if it dies.

        At most :data:`DEPTH` calls are handed to the process at a time; the others wait
        here, ``urgent`` ones (a table's first picture after Start) before the rest."""
        await self._turn(urgent)
        try:
            pool = self._executor()
            try:
                result: T = await self._call(pool, fn, args)
            except BrokenProcessPool:
                self._replace(pool)
                self.retried += 1
                result = await self._call(self._executor(), fn, args)
            return result
        finally:
            self._next()

    async def _turn(self, urgent: bool) -> None:
        if self._handed < DEPTH and not (self._waiting[0] or self._waiting[1]):
            self._handed += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[0 if urgent else 1].append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given the turn, then cancelled
                self._next()
            raise

    def _next(self) -> None:
        """A call handed to the process is done: hand over the next waiting one."""
        self._handed -= 1
        urgent, normal = self._waiting
        while urgent or normal:
            turn = (urgent or normal).popleft()
            if not turn.done():
                self._handed += 1
                turn.set_result(None)
                return

    def _replace(self, broken: Channel) -> None:
        """Replace ``broken`` unless that was done already (single flight: this runs on
        the event loop without awaiting, so the first caller replaces, the rest reuse)."""
        if self._pool is not broken:
            return
        log.warning("%s worker died; starting one new worker", self.name)
        broken.close()
        self._pool, self.pid = None, None
        METRICS.worker_restarts.labels(self.name).inc()
        self._start(_nothing)  # the new process starts now, cold

    def start(self) -> None:
        """Start the process now (it warms up in the background)."""
        self._start(self._warm_up or _nothing)

    def _start(self, first: Callable[[], None]) -> None:
        pool = self._executor()
        self._call(pool, first, ()).add_done_callback(_quiet)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
            self.pid = None


def _nothing() -> None:
    return None


def _quiet(done: asyncio.Future[Any]) -> None:
    """A call nobody waits for: its error (the process died at once) is not logged."""
    if not done.cancelled():
        done.exception()


def _start_worker(parent: int, niceness: int = 0) -> None:
    """Runs first in each worker: lower its priority, exit when the bot is gone."""
    if niceness:
        try:
            os.nice(niceness)
        except OSError:  # pragma: no cover - not allowed here: run at normal priority
            log.warning("could not lower the priority of a worker process")

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _warm_up_drawing() -> None:
    import images

    images.warm_up()


# Below the event loop's priority: when the cores are busy, acknowledging an interaction
# (Discord allows 3 seconds) comes before finishing a picture or a computer's move.
BACKGROUND = 10
DRAWING = Worker("drawing", _warm_up_drawing, BACKGROUND)
THINKING = Worker("thinking", niceness=BACKGROUND)
# What one person can ask for many times, seconds each: replays (an animated picture of a
# whole deal, uploaded files too), reviews and the daily comparison (double-dummy searches).
# A process of their own, lower still: a table's or a hand's picture in the drawing worker
# never queues behind a replay, a computer player's move never behind a review, and on a
# busy machine the live work gets the cores first.
HEAVY = Worker("heavy", niceness=BACKGROUND + 5)


ALL = (DRAWING, THINKING)


def start_all() -> None:
    for w in ALL:
        w.start()


def alive() -> dict[str, bool]:
    """Each worker by name: is its process alive?"""
    return {w.name: w.alive() for w in ALL}


def close_all() -> None:
    DRAWING.close()
    THINKING.close()
    HEAVY.close()
