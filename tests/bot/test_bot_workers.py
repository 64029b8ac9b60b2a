"""The worker processes (drawing, thinking) run the work and never outlive the bot."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tables.workers import DEPTH, Worker

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import asyncio, os, sys
sys.path.insert(0, {root!r})
from tables.workers import Worker

async def main():
    w = Worker("test")
    pid = await w.run(os.getpid)
    print(pid, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return "\nState:\tZ" not in f.read()
    except FileNotFoundError:
        return False


async def test_work_runs_in_another_process_and_a_dead_worker_is_replaced() -> None:
    w = Worker("test")
    try:
        first = await w.run(os.getpid)
        assert first != os.getpid()
        os.kill(first, signal.SIGKILL)
        await asyncio.sleep(0.2)
        second = await w.run(os.getpid)  # the broken pool is replaced, the call retried
        assert second not in (first, os.getpid())
    finally:
        w.close()


def pid_after(seconds: float) -> int:
    """Runs in the worker: a call that takes a while, then says which process ran it."""
    time.sleep(seconds)
    return os.getpid()


async def test_a_worker_killed_with_calls_in_flight_is_replaced_once() -> None:
    """Four calls wait on the worker when it is killed: one new process (not four), and
    each of the four is answered by it: the ones handed to the dead process (``DEPTH``)
    tried once more, the others sent there first."""
    w = Worker("test")
    try:
        first = await w.run(os.getpid)
        calls = [asyncio.ensure_future(w.run(pid_after, 0.2)) for _ in range(4)]
        await asyncio.sleep(0.1)  # the first call is running, three are queued
        os.kill(first, signal.SIGKILL)
        pids = await asyncio.gather(*calls)
        assert w.started == 2  # the first process and exactly one replacement
        assert w.retried == DEPTH  # every call handed to the dead process, each once
        assert len(set(pids)) == 1 and first not in pids
        assert await w.run(os.getpid) == pids[0]  # and the replacement stays
    finally:
        w.close()


def stamp(label: str) -> tuple[str, float]:
    return label, time.monotonic()


async def test_an_urgent_call_goes_before_the_waiting_ones() -> None:
    """The process has its ``DEPTH`` calls; of those waiting, the urgent one (a table's
    first picture after Start) is handed over first, although it came last."""
    w = Worker("test")
    try:
        await w.run(os.getpid)
        busy = [asyncio.ensure_future(w.run(pid_after, 0.2)) for _ in range(DEPTH)]
        await asyncio.sleep(0)
        normal = [asyncio.ensure_future(w.run(stamp, f"n{i}")) for i in range(3)]
        urgent = asyncio.ensure_future(w.run(stamp, "urgent", urgent=True))
        await asyncio.gather(*busy)
        done = sorted([*await asyncio.gather(*normal), await urgent], key=lambda r: r[1])
        assert [label for label, _ in done] == ["urgent", "n0", "n1", "n2"]
    finally:
        w.close()


async def test_a_cancelled_wait_hands_its_turn_on() -> None:
    w = Worker("test")
    try:
        await w.run(os.getpid)
        busy = [asyncio.ensure_future(w.run(pid_after, 0.2)) for _ in range(DEPTH)]
        await asyncio.sleep(0)
        gone = asyncio.ensure_future(w.run(stamp, "gone"))
        kept = asyncio.ensure_future(w.run(stamp, "kept"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.gather(*busy)
        assert (await kept)[0] == "kept"
        assert w._handed == 0 and not any(w._waiting)
    finally:
        w.close()


def test_workers_exit_when_the_bot_is_killed() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(root=str(ROOT))],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        worker = int(child.stdout.readline())
        assert _alive(worker)
        child.kill()  # SIGKILL: no clean-up code runs in the bot
        child.wait(5)
        # The worker notices within about a second (it checks its parent once a second);
        # the generous bound only limits how long a broken build takes to fail, so a
        # loaded machine cannot turn a pass into a failure.
        deadline = time.monotonic() + 30
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker), "the worker outlived the killed bot"
    finally:
        child.kill()


async def test_a_worker_runs_below_the_event_loop_priority() -> None:
    w = Worker("test", niceness=5)
    try:
        own = os.getpriority(os.PRIO_PROCESS, 0)
        pid = await w.run(os.getpid)
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(own + 5, 19)
    finally:
        w.close()


def slow_job(seconds: float) -> float:
    """Runs in a worker: a stand-in for a replay or a review (seconds of CPU)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return time.monotonic()


def fake_picture(view: str) -> bytes:
    """Runs in the drawing worker: a stand-in for a table picture."""
    return view.encode()


def slow_replay(record: object, names: object, limit: int, lang: str) -> tuple[bytes, str]:
    """Runs where the bot sends a replay: a stand-in for ``fit_replay`` (0.1 s of CPU)."""
    slow_job(0.1)
    return b"GIF89a", "gif"


@dataclass
class Upload:
    """The parts of ``discord.Attachment`` an uploaded record is read through."""

    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    async def read(self) -> bytes:
        return self.data


async def test_a_table_picture_is_served_before_the_replays_asked_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Twenty uploaded replays asked for first (through ``Reviews.replay``, as the
    command does), then a table's picture (through :func:`cogs.pictures.draw`): the
    picture is back before most of the replays are done. In one shared queue (the
    drawing worker drawing replays too) it would come after all twenty."""
    from cogs import review
    from cogs.cooldowns import Cooldowns, Limit
    from cogs.pictures import Drawing, draw
    from images.samples import _never, play_until
    from tables import workers
    from tests.bot.test_bot_replies import FakeInteraction

    record = play_until("standard", 101, _never).finished[0].to_record()
    upload = Upload(json.dumps(record).encode())
    monkeypatch.setattr(review, "fit_replay", slow_replay)
    bot: Any = SimpleNamespace(store=None, service=None)
    languages: Any = SimpleNamespace(of=lambda _i: asyncio.sleep(0, "en"))
    reviews = review.Reviews(bot, languages, Cooldowns({"replay": Limit(99, 30.0)}))
    asked: list[Any] = []

    async def replay() -> float:
        interaction: Any = FakeInteraction()
        interaction.guild = None
        asked.append(interaction)
        await reviews.replay(interaction, None, None, upload)  # type: ignore[arg-type]
        return time.monotonic()

    try:
        await asyncio.gather(workers.HEAVY.run(os.getpid), workers.DRAWING.run(os.getpid))
        replays = [asyncio.ensure_future(replay()) for _ in range(20)]
        await asyncio.sleep(0.05)
        pic = await draw(Drawing("t.png", "a table", f"table {time.time()}", fake_picture))
        served = time.monotonic()
        assert pic is not None and pic.data.startswith(b"table ")
        done = await asyncio.gather(*replays)
        assert all(i.calls[-1][0] == "edit_original" for i in asked)  # each one answered
        before = sum(1 for finished in done if finished < served)
        assert before <= 5, f"{before} of 20 replays were done before the table's picture"
    finally:
        workers.close_all()


def big(n: int) -> bytes:
    return bytes(range(256)) * (n // 256)


def fails() -> None:
    raise ValueError("no such card")


def unpicklable() -> Any:
    return lambda: None


async def test_a_call_is_one_socket_trip_with_no_helper_thread() -> None:
    """Calls go out and answers come in on the event loop (``tables.channel``): the bot
    process starts no thread for them (an executor started two), an answer of megabytes
    comes whole, an error is raised to the caller, and an answer that cannot be sent
    back is told as an error, the process staying."""
    import threading

    threads = threading.active_count()
    w = Worker("test")
    try:
        pid = await w.run(os.getpid)
        assert await w.run(big, 5 * 2**20) == big(5 * 2**20)
        results = await asyncio.gather(*(w.run(big, 1000 * i) for i in range(1, 9)))
        assert results == [big(1000 * i) for i in range(1, 9)]
        with pytest.raises(ValueError, match="no such card") as raised:
            await w.run(fails)
        assert "in fails" in str(raised.value.__cause__)  # where, in the worker
        with pytest.raises(RuntimeError):
            await w.run(unpicklable)
        assert await w.run(os.getpid) == pid and w.started == 1
        assert threading.active_count() == threads
    finally:
        w.close()


async def test_pictures_drawn_are_counted_by_kind_and_lately_drawn_ones_not() -> None:
    """``batak_pictures_drawn{kind}`` counts what the drawing worker drew, by renderer (a
    ``partial`` of it too); a picture taken from those drawn lately is not drawn again."""
    from functools import partial

    from cogs.pictures import Drawing, draw, picture_kind
    from images.hand import render_hand
    from ops.metrics import METRICS
    from tables import workers

    assert picture_kind(partial(render_hand, theme="dark", lang="en")) == "hand"
    assert picture_kind(partial(partial(fake_picture))) == "fake_picture"

    def drawn() -> float:
        value = METRICS.registry.get_sample_value(
            "batak_pictures_drawn_total", {"kind": "fake_picture"}
        )
        return value or 0.0

    try:
        before = drawn()
        view = f"table {time.time()}"
        first = await draw(Drawing("t.png", "a table", view, fake_picture))
        again = await draw(Drawing("t.png", "a table", view, fake_picture))
        other = await draw(Drawing("t.png", "a table", view + " and a card", fake_picture))
        assert first is not None and again is first and other is not None
        assert drawn() - before == 2
    finally:
        workers.close_all()
