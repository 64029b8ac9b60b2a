"""The drawing worker: how long it takes to recover when killed, how it fares in a flood.

    .venv/bin/python -m tests.bot.bench_workers [--pictures 4] [--rounds 5]
    .venv/bin/python -m tests.bot.bench_workers --flood [--replays 40] [--reviews 10]

Each round: warm drawing worker (the bot's: images warmed up, lower priority), N table
pictures submitted, the worker SIGKILLed while drawing, then the time until every one of
the N pictures is delivered by the replacement, and how many processes were started.

``--flood``: a table's picture latency (p50/p95 of 20 pictures, one every 0.1 s) alone,
then while another person's replays and reviews are all asked for at once, in two
designs: "before" (replays drawn in the drawing worker, reviews in a worker of their own)
and "after" (the bot's: replays and reviews in the heavy worker, the drawing worker kept
for the live pictures). Figures only (no pass/fail on time): the tests assert on the
order and the counts.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import time
from typing import Any

from batak.review import review_record
from images.replay_fit import fit_replay
from images.samples import Sample, _never, forced_table, play_until, render_sample
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


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile (p in 0..100)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))]


async def _pictures(drawing: Worker, sample: Sample, count: int) -> list[float]:
    """The latency of ``count`` table pictures, one asked for every 0.1 s."""

    async def one() -> float:
        start = time.perf_counter()
        data = await drawing.run(render_sample, sample)
        assert isinstance(data, bytes) and data
        return time.perf_counter() - start

    calls = []
    for _ in range(count):
        calls.append(asyncio.ensure_future(one()))
        await asyncio.sleep(0.1)
    return list(await asyncio.gather(*calls))


async def flood_round(design: str, replays: int, reviews: int) -> tuple[list[float], list[float]]:
    """A table's picture latencies alone and during a flood, in ``design``."""
    drawing = Worker("drawing", _warm_up_drawing, BACKGROUND)
    heavy = Worker("heavy", niceness=BACKGROUND + 5)
    review = Worker("review", niceness=BACKGROUND + 5)
    replay_worker, review_worker = (drawing, review) if design == "before" else (heavy, heavy)
    try:
        sample = _sample()
        record: dict[str, Any] = play_until("standard", 101, _never).finished[0].to_record()
        names = ["Ayşe", "Mehmet", "Zeynep", "Can"]
        await drawing.run(_warm_up_drawing)
        await replay_worker.run(fit_replay, record, names, 8 * 2**20, "tr")
        await review_worker.run(review_record, record, (0,))
        alone = await _pictures(drawing, sample, 20)
        flood = [
            asyncio.ensure_future(replay_worker.run(fit_replay, record, names, 8 * 2**20, "tr"))
            for _ in range(replays)
        ] + [
            asyncio.ensure_future(review_worker.run(review_record, record, (i % 4,)))
            for i in range(reviews)
        ]
        await asyncio.sleep(0.05)
        flooded = await _pictures(drawing, sample, 20)
        for call in flood:
            call.cancel()
        return alone, flooded
    finally:
        for w in (drawing, heavy, review):
            w.close()


async def flood(replays: int, reviews: int) -> None:
    for design in ("before", "after"):
        alone, flooded = await flood_round(design, replays, reviews)
        print(
            f"{design}: a table's picture alone p50 {statistics.median(alone):.3f} s, "
            f"p95 {percentile(alone, 95):.3f} s; while {replays} replays and {reviews} "
            f"reviews are asked for: p50 {statistics.median(flooded):.3f} s, "
            f"p95 {percentile(flooded, 95):.3f} s"
        )
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--flood", action="store_true", help="a table's picture in a flood")
    parser.add_argument("--replays", type=int, default=40)
    parser.add_argument("--reviews", type=int, default=10)
    args = parser.parse_args()
    if args.flood:
        await flood(args.replays, args.reviews)
        return
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
