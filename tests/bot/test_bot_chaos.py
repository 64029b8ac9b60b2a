"""A short chaos run in every ``make test`` (``make chaos`` runs 50 kills or more)."""

from __future__ import annotations

from tests.bot.chaos import run


async def test_sigkill_at_random_moments_and_at_match_end_loses_nothing() -> None:
    report = await run(kills=3, seed=7)
    print(report)
    assert report.kills == 3
    assert report.ok(), str(report)
    assert report.matches >= 1
