"""Discord's global limit kept by the bot (:mod:`cogs.budget`), on a fake clock.

A token bucket: ``burst`` requests at once, then ``rate`` a second; urgent waiters
first, cancelled ones skipped; every request of the bot's HTTP client takes a token
unless one was taken for it (a paced table edit takes its token before drawing, so
the moves made while it waits are merged into that one edit). As requests leave the
HTTP session, a window of one second holds those over its limit, whenever their
tokens were taken.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from cogs.budget import (
    GlobalBudget,
    SendWindow,
    exempt,
    gate_sends,
    limit_http,
    mode,
    send_limit,
    share,
)
from cogs.pacing import EditPacer
from ops.metrics import METRICS
from tests.bot.test_bot_pacing import FakeClock, settle


def budget_on(clock: FakeClock, rate: float = 10.0, burst: int = 2) -> GlobalBudget:
    return GlobalBudget(rate, burst, clock=clock.time, sleep=clock.sleep)


async def test_a_burst_then_the_rate() -> None:
    clock = FakeClock()
    budget = budget_on(clock)
    got: list[float] = []

    async def one() -> None:
        await budget.take()
        got.append(clock.now)

    tasks = [asyncio.ensure_future(one()) for _ in range(6)]
    await clock.advance(1.0)
    await asyncio.gather(*tasks)
    assert got == pytest.approx([0.0, 0.0, 0.1, 0.2, 0.3, 0.4])
    assert budget.taken == 6 and budget.waited == 4


async def test_no_more_than_the_rate_over_any_second() -> None:
    clock = FakeClock()
    budget = budget_on(clock, rate=40, burst=5)
    got: list[float] = []

    async def one() -> None:
        await budget.take()
        got.append(clock.now)

    tasks = [asyncio.ensure_future(one()) for _ in range(300)]
    await clock.advance(10.0)
    await asyncio.gather(*tasks)
    worst = max(sum(1 for t in got if start <= t < start + 1.0) for start in got)
    assert worst <= 40 + 5  # the rate, and the burst once


async def test_urgent_waiters_go_first_and_cancelled_ones_are_skipped() -> None:
    clock = FakeClock()
    budget = budget_on(clock, rate=1, burst=1)
    order: list[str] = []

    async def one(name: str, urgent: bool = False) -> None:
        await budget.take(urgent=urgent)
        order.append(name)

    first = asyncio.ensure_future(one("first"))
    await settle()
    normal = [asyncio.ensure_future(one(f"n{i}")) for i in range(3)]
    await settle()
    gone = asyncio.ensure_future(one("gone", urgent=True))
    start = asyncio.ensure_future(one("start", urgent=True))
    await settle()
    gone.cancel()
    await clock.advance(10.0)
    await asyncio.gather(first, start, *normal)
    assert order == ["first", "start", "n0", "n1", "n2"]
    assert budget.queued == 0


class FakeHttp:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def request(self, route: Any, **kwargs: Any) -> Any:
        self.sent.append(route)
        return None


async def test_every_request_takes_a_token_unless_prepaid() -> None:
    clock = FakeClock()
    budget = budget_on(clock, rate=1, burst=3)
    http: Any = FakeHttp()
    limit_http(http, budget)
    await http.request("a")
    with mode("prepaid"):
        await http.request("b")  # its token was taken before
        await http.request("c")  # one request per token taken before
    await http.request("d")
    assert http.sent == ["a", "b", "c", "d"] and budget.taken == 3


async def test_paced_edits_wait_for_a_token_and_merge() -> None:
    """Tokens are short: the moves made while a table's edit waits for one show in
    that edit; the table is edited twice, not five times."""
    clock = FakeClock()
    budget = budget_on(clock, rate=0.5, burst=1)
    edits: list[tuple[float, int]] = []
    moves = [0]

    async def edit(key: int) -> None:
        edits.append((clock.now, moves[0]))

    pacer = EditPacer(0.1, edit, clock=clock.time, sleep=clock.sleep, budget=budget)
    for move in range(1, 6):
        moves[0] = move
        pacer.request(1)
        await clock.advance(0.3)
    await clock.advance(5.0)
    assert edits == [(0.0, 1), pytest.approx((2.0, 5))]
    await pacer.close()


def test_each_process_keeps_its_shards_share() -> None:
    assert share(None, None, 40) == 40  # every shard here
    assert share(4, (0, 1), 40) == 20
    assert share(2, (1,), 40) == 20


def test_a_budget_needs_a_rate() -> None:
    with pytest.raises(ValueError):
        GlobalBudget(0)


async def test_a_request_made_for_someone_waiting_goes_first() -> None:
    """``/batak new`` posts its table in ``mode("urgent")``: ahead of the table edits
    already waiting for a token."""
    clock = FakeClock()
    budget = budget_on(clock, rate=1, burst=1)
    http: Any = FakeHttp()
    limit_http(http, budget)
    await http.request("first")
    edits = [asyncio.ensure_future(http.request(f"edit {i}")) for i in range(3)]
    await settle()

    async def opened() -> None:
        with mode("urgent"):
            await http.request("new table")

    new = asyncio.ensure_future(opened())
    await clock.advance(10.0)
    await asyncio.gather(new, *edits)
    assert http.sent == ["first", "new table", "edit 0", "edit 1", "edit 2"]


async def test_a_send_window_counts_requests_as_they_leave() -> None:
    """Three may leave in any second: the fourth and fifth wait for the first ones to
    be a second old, in the order they came, and a request later in the window waits
    only for the oldest."""
    clock = FakeClock()
    window = SendWindow(3, clock=clock.time, sleep=clock.sleep)
    left: list[tuple[str, float]] = []

    async def send(name: str) -> None:
        await window.admit()
        left.append((name, clock.now))

    first = [asyncio.ensure_future(send(n)) for n in "abcde"]
    await settle()
    assert left == [("a", 0.0), ("b", 0.0), ("c", 0.0)]
    await clock.advance(1.0)
    await asyncio.gather(*first)
    assert left[3:] == [("d", 1.0), ("e", 1.0)] and window.held == 2
    await clock.advance(0.5)
    await send("f")  # the window [0.5, 1.5] holds d and e: f goes at once
    later = asyncio.ensure_future(send("g"))
    await clock.advance(0.4)
    assert not later.done()
    await clock.advance(0.1)  # d and e are a second old
    await later
    assert left[5:] == [("f", 1.5), ("g", 2.0)]


def test_the_interaction_endpoints_are_exempt() -> None:
    """developers/topics/rate-limits.md, Global Rate Limit: interaction endpoints are
    not bound to it; an owner webhook's routes, or a channel's, are."""
    app = 4242
    assert exempt("/api/v10/interactions/1/tok/callback", app)
    assert exempt("/api/v10/webhooks/4242/tok/messages/@original", app)
    assert exempt("/api/v10/webhooks/4242/tok", app)
    assert not exempt("/api/v10/webhooks/77/tok", app)  # someone's webhook
    assert not exempt("/api/v10/webhooks/4242/tok", None)  # before login: not known yet
    assert not exempt("/api/v10/channels/1/messages", app)
    assert not exempt("/api/v10/interactions/1/tok", app)


def test_each_process_sends_its_shards_part_of_the_window() -> None:
    assert send_limit(1.0) == 45  # 90% of Discord's 50 a second
    assert send_limit(0.5) == 22
    assert send_limit(0.001) == 1
    with pytest.raises(ValueError):
        SendWindow(0)


async def test_the_session_gate_holds_what_leaves_past_the_window() -> None:
    """A real aiohttp session with the gate's trace, against a local server: channel
    routes past the window wait, interaction endpoints do not."""
    seen: list[str] = []

    async def handler(request: web.Request) -> web.Response:
        seen.append(request.path)
        return web.json_response({})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    clock = FakeClock()
    window = SendWindow(2, clock=clock.time, sleep=clock.sleep)
    trace = aiohttp.TraceConfig()
    gate_sends(trace, window, lambda: 9)
    held_before = METRICS.discord_held._value.get()
    base = f"http://127.0.0.1:{port}/api/v10"
    try:
        async with aiohttp.ClientSession(trace_configs=[trace]) as session:

            async def post(path: str) -> None:
                async with session.post(base + path) as r:
                    await r.read()

            paths = [f"/channels/{i}/messages" for i in range(3)]
            paths += ["/interactions/5/t/callback", "/webhooks/9/t/messages/@original"]
            sends = [asyncio.ensure_future(post(p)) for p in paths]
            for _ in range(200):  # the four that may go reach the server
                if len(seen) == 4:
                    break
                await asyncio.sleep(0.01)
            assert sorted(seen) == sorted("/api/v10" + p for p in [*paths[:2], *paths[3:]])
            assert not sends[2].done()
            await clock.advance(1.0)
            await asyncio.gather(*sends)
            assert seen[-1] == "/api/v10" + paths[2] and window.held == 1
            assert METRICS.discord_held._value.get() == held_before + 1
    finally:
        await runner.cleanup()


async def test_closing_cancels_the_requests_waiting_for_a_token() -> None:
    clock = FakeClock()
    budget = budget_on(clock, rate=1, burst=1)
    await budget.take()
    waiting = [asyncio.ensure_future(budget.take()) for _ in range(2)]
    await settle()
    await budget.close()
    await settle()
    assert all(w.cancelled() for w in waiting) and budget.queued == 0
    await budget.close()  # twice: nothing left to do
