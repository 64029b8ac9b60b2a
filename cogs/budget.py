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

A token is taken before a request is on its way, not when it leaves: a paced edit's
while its picture is drawn, any request's before discord.py waits for its route's
bucket, and discord.py's own retries of a request (after a route 429, a 5xx) take
none. On a busy process these requests can leave together, more in one second than
the bucket's rate. :class:`SendWindow` is the last check, made as each request leaves
the bot's HTTP session (an aiohttp trace, :func:`gate_sends`): at most ``limit``
requests in any window of one second, counted when they are sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any, Literal

import aiohttp
import discord

from ops.metrics import METRICS

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
        """Stop serving: every request still waiting for a token is cancelled."""
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
        for line in self._waiting:
            while line:
                line.popleft().cancel()


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


SEND_SHARE = 0.9
"""Of Discord's global limit, the part the requests sent in any one second may use
(:class:`SendWindow`): the token bucket keeps to its own, lower rate; this is the
ceiling when requests that took their tokens at different times leave together."""

_INTERACTION_CALLBACK = re.compile(r"/interactions/\d+/[^/]+/callback$")
_WEBHOOK = re.compile(r"/webhooks/(\d+)/")


def exempt(path: str, application_id: int | None) -> bool:
    """Whether a request path is an interaction endpoint, which the global limit leaves
    out (developers/topics/rate-limits.md, Global Rate Limit): the callback, or a route
    of an interaction token's webhook (its id is the application's)."""
    if _INTERACTION_CALLBACK.search(path):
        return True
    hook = _WEBHOOK.search(path)
    return hook is not None and application_id is not None and int(hook[1]) == application_id


class SendWindow:
    """At most ``limit`` requests leave in any ``window`` seconds, counted as they leave:
    a request past it waits until the oldest of the window is ``window`` old. Waiters
    leave in the order they came."""

    def __init__(
        self,
        limit: int,
        window: float = 1.0,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a send window needs a limit of at least 1 and a length")
        self.limit = limit
        self.window = window
        self._clock = clock
        self._sleep = sleep
        self._sent: deque[float] = deque()
        self._line = asyncio.Lock()
        self.held = 0
        """Requests that had to wait (they would have gone over ``limit``)."""

    async def admit(self) -> bool:
        """Return when one more request may leave now, and count it as sent; True when
        it had to wait."""
        waited = self._line.locked()  # someone waits for the window already: so do we
        async with self._line:
            while True:
                now = self._clock()
                while self._sent and now - self._sent[0] >= self.window - EPSILON:
                    self._sent.popleft()
                if len(self._sent) < self.limit:
                    break
                waited = True
                await self._sleep(self._sent[0] + self.window - now)
            self._sent.append(now)
            self.held += waited
            return waited


def send_limit(rate_share: float, discord_limit: float = DISCORD_GLOBAL_LIMIT) -> int:
    """This process's :class:`SendWindow` limit: its part (``rate_share``, 0..1, of the
    shards) of :data:`SEND_SHARE` of Discord's limit, at least 1."""
    return max(1, int(discord_limit * SEND_SHARE * rate_share))


def gate_sends(
    trace: aiohttp.TraceConfig, window: SendWindow, application_id: Callable[[], int | None]
) -> None:
    """Every request of the session that ``trace`` is given to, except the interaction
    endpoints, passes ``window`` as it starts (aiohttp awaits the trace before it sends,
    for discord.py's every try)."""

    async def on_request_start(
        session: aiohttp.ClientSession, ctx: Any, params: aiohttp.TraceRequestStartParams
    ) -> None:
        if not exempt(params.url.path, application_id()) and await window.admit():
            METRICS.discord_held.inc()

    trace.on_request_start.append(on_request_start)
