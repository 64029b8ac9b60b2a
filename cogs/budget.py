"""Discord's global rate limit, kept by the bot itself.

A bot token may make 50 requests per second in all, whatever the route, across all
its shards and processes; interaction callbacks and the webhook routes of an
interaction's token are exempt (developers/topics/rate-limits.md, Global Rate Limit).
Past it Discord answers 429 with ``"global": true``, and many refused requests get a
bot's address banned for a while (Invalid Request Limit). discord.py waits when it is
told, but it does not stay under the limit on its own.

:class:`GlobalBudget` is a token bucket of ``rate`` requests per second (this
process's share of what the bot may send: the share of its shards in all the
shards), with a small ``burst``. Every request of the bot's HTTP client takes a token
first (:func:`limit_http`). Public table edits take theirs before the message is
drawn (:class:`cogs.pacing.EditPacer`): while they wait, the moves played meanwhile
are merged into that one edit, so a busy bot draws and sends fewer table pictures
instead of queueing stale ones. Waiters are served in order; a table that has just
started (its first picture) and other ``urgent`` requests go first.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any, Literal

import discord

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

DISCORD_GLOBAL_LIMIT = 50.0
"""Requests per second per bot token (developers/topics/rate-limits.md)."""

EPSILON = 1e-9
"""A token short by less than this is a token (a sleep on a float clock ends a hair early)."""

_Mode = Literal["normal", "urgent", "prepaid"]
_MODE: ContextVar[_Mode] = ContextVar("global budget mode", default="normal")


class GlobalBudget:
    """A token bucket of ``rate`` requests per second and ``burst`` at once."""

    def __init__(
        self,
        rate: float,
        burst: int = 2,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a budget needs a positive rate and a burst of at least 1")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._sleep = sleep
        self._tokens = float(burst)
        self._stamp = clock()
        self._waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(),
            deque(),
        )
        self._pump: asyncio.Task[None] | None = None
        self.taken = 0
        """Tokens handed out (requests sent, or about to be)."""
        self.waited = 0
        """Of those, how many had to wait for one."""

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    @property
    def queued(self) -> int:
        return sum(len(q) for q in self._waiting)

    async def take(self, *, urgent: bool = False) -> None:
        """Wait for a token (at once when one is left and no one waits before us)."""
        self._refill()
        if self._tokens >= 1 - EPSILON and not self.queued:
            self._tokens -= 1
            self.taken += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[0 if urgent else 1].append(waiter)
        if self._pump is None:
            self._pump = asyncio.get_running_loop().create_task(self._serve())
        await waiter  # a cancelled waiter is skipped by _serve

    async def _serve(self) -> None:
        try:
            while self.queued:
                self._refill()
                if self._tokens < 1 - EPSILON:
                    await self._sleep((1 - self._tokens) / self.rate)
                    continue
                urgent, normal = self._waiting
                waiter = (urgent or normal).popleft()
                if waiter.done():  # cancelled while it waited
                    continue
                self._tokens -= 1
                self.taken += 1
                self.waited += 1
                waiter.set_result(None)
        finally:
            self._pump = None

    async def close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump


@contextlib.contextmanager
def mode(value: _Mode) -> Iterator[None]:
    """Within the block, the requests of this task are ``urgent`` (served first) or
    ``prepaid`` (the first of them uses a token taken already)."""
    token = _MODE.set(value)
    try:
        yield
    finally:
        _MODE.reset(token)


def share(shard_count: int | None, shard_ids: tuple[int, ...] | None, rate: float) -> float:
    """This process's part of ``rate``: its shards' share of all the shards."""
    if shard_count is None or shard_ids is None or shard_count < 1:
        return rate
    return rate * len(shard_ids) / shard_count


def limit_http(http: discord.http.HTTPClient, budget: GlobalBudget) -> None:
    """Every request of ``http`` (the bot token's; interaction responses do not go
    through it) takes a token of ``budget`` first."""
    send = http.request

    async def request(route: discord.http.Route, **kwargs: Any) -> Any:
        current = _MODE.get()
        if current == "prepaid":
            _MODE.set("normal")  # one request per token taken beforehand
        else:
            await budget.take(urgent=current == "urgent")
        return await send(route, **kwargs)

    http.request = request  # type: ignore[method-assign]
