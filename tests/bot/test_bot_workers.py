"""The worker processes (drawing, thinking) run the work and never outlive the bot."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tables.workers import Worker

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
    each of the four is answered by it, tried once more."""
    w = Worker("test")
    try:
        first = await w.run(os.getpid)
        calls = [asyncio.ensure_future(w.run(pid_after, 0.2)) for _ in range(4)]
        await asyncio.sleep(0.1)  # the first call is running, three are queued
        os.kill(first, signal.SIGKILL)
        pids = await asyncio.gather(*calls)
        assert w.started == 2  # the first process and exactly one replacement
        assert w.retried == 4  # every call in flight, each once
        assert len(set(pids)) == 1 and first not in pids
        assert await w.run(os.getpid) == pids[0]  # and the replacement stays
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
