"""A short chaos run in every ``make test`` (``make chaos`` runs 50 kills or more): eight
people at three tables, one kill of each kind (random, right after an acknowledged move,
right after a match is recorded), every check of the long run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.bot.chaos import Reader, ReadError, run


async def test_three_kinds_of_sigkill_lose_nothing() -> None:
    report = await run(kills=3, seed=7)
    print(report)
    assert report.kills == {"random": 1, "after ack": 1, "after record": 1}, str(report)
    assert report.ok(), str(report)
    assert report.acknowledged >= 1
    assert report.matches >= 1


async def test_the_reader_raises_on_a_database_error(tmp_path: Path) -> None:
    """A read error is surfaced, never taken for "no rows"."""
    reader = Reader(str(tmp_path / "missing.db"), None)
    with pytest.raises(ReadError, match="SQLite"):
        await reader.rows("SELECT id FROM games")
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database" * 100)
    with pytest.raises(ReadError, match="SQLite"):
        await Reader(str(broken), None).rows("SELECT id FROM games")


@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="no TEST_DATABASE_URL")
async def test_the_reader_raises_on_a_postgresql_error() -> None:
    reader = Reader(None, os.environ["TEST_DATABASE_URL"])
    await reader.open()
    try:
        with pytest.raises(ReadError, match="PostgreSQL"):
            await reader.rows("SELECT id FROM no_such_table_here")
        assert await reader.rows("SELECT ?::int + 1", (1,)) == [(2,)]
    finally:
        await reader.close()
