"""The bot's own records (``bot_state``): a value by name, kept across restarts."""

from __future__ import annotations

from datetime import UTC, datetime

from data import Store

from store_clock import Clock

CLOCK_START = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
"""Where this module's ``clock`` (tests/data/conftest.py) starts."""


async def test_a_value_is_kept_replaced_and_separate_by_key(store: Store, clock: Clock) -> None:
    assert await store.maintenance.get_bot_state("commands:1:global") is None
    await store.maintenance.set_bot_state("commands:1:global", "a" * 64)
    await store.maintenance.set_bot_state("commands:1:guild:42", "b" * 64)
    assert await store.maintenance.get_bot_state("commands:1:global") == "a" * 64
    assert await store.maintenance.get_bot_state("commands:1:guild:42") == "b" * 64
    clock.now = datetime(2026, 6, 2, tzinfo=UTC)
    await store.maintenance.set_bot_state("commands:1:global", "c" * 64)  # replaced, not added
    assert await store.maintenance.get_bot_state("commands:1:global") == "c" * 64
    assert await store.maintenance.get_bot_state("commands:1:guild:42") == "b" * 64
    async with store.database.read():
        rows = await store.database.scalar("SELECT count(*) FROM bot_state")
        when = await store.database.scalar(
            "SELECT updated_at FROM bot_state WHERE key = ?", ("commands:1:global",)
        )
    assert rows == 2
    assert str(when).startswith("2026-06-02T00:00:00")


async def test_a_value_survives_closing_and_reopening(db_url: str, clock: Clock) -> None:
    first = await Store.open(db_url, clock=clock, housekeeping=None)
    try:
        await store_twice(first)
    finally:
        await first.close()
    again = await Store.open(db_url, clock=clock, housekeeping=None)
    try:
        assert await again.maintenance.get_bot_state("k") == "second"
        assert await again.maintenance.get_bot_state("K") is None  # keys are exact
    finally:
        await again.close()


async def store_twice(store: Store) -> None:
    await store.maintenance.set_bot_state("k", "first")
    await store.maintenance.set_bot_state("k", "second")
