"""How long the drawing worker takes to recover when it is killed with pictures in flight.

    .venv/bin/python -m tests.bot.bench_workers [--pictures 4] [--rounds 5]

Each round: warm drawing worker (the bot's: images warmed up, lower priority), N table
pictures submitted, the worker SIGKILLed while drawing, then the time until every one of
the N pictures is delivered by the replacement, and how many processes were started.
Figures only (no pass/fail on time): the tests assert on the counts.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import time

from images.samples import Sample, forced_table, render_sample
from tables.workers import BACKGROUND, Worker, _warm_up_drawing


def _sample() -> Sample:
    return Sample("forced table", "table", forced_table())


async def one_round(pictures: int) -> tuple[float, float, int, int]:
    w = Worker("drawing", _warm_up_drawing, BACKGROUND)
    try:
        sample = _sample()
        pid = await w.run(os.getpid)
        await w.run(render_sample, sample)  # warm
        calls = [asyncio.ensure_future(w.run(render_sample, sample)) for _ in range(pictures)]
        await asyncio.sleep(0.05)
        killed = time.perf_counter()
        os.kill(pid, signal.SIGKILL)
        first = None
        for call in asyncio.as_completed(calls):
            data = await call
            assert isinstance(data, bytes) and data
            first = first or time.perf_counter() - killed
        took = time.perf_counter() - killed
        return first or took, took, w.started - 1, w.retried
    finally:
        w.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    firsts, times = [], []
    for i in range(args.rounds):
        first, took, replacements, retried = await one_round(args.pictures)
        firsts.append(first)
        times.append(took)
        print(
            f"round {i + 1}: {args.pictures} pictures in flight; the first delivered "
            f"{first:.2f} s, all {took:.2f} s after the kill; {replacements} replacement "
            f"process(es), {retried} call(s) retried"
        )
    print(
        f"first picture again: median {statistics.median(firsts):.2f} s; all of them: median "
        f"{statistics.median(times):.2f} s, max {max(times):.2f} s "
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    asyncio.run(main())
