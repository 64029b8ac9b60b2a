"""Fixtures shared by the store tests: ``clock`` (a settable clock, at ``CLOCK_START``
of the module when it has one, else 10 March 2026 at noon UTC), ``db_url`` and ``store``.

``db_url`` (and the ``store`` opened on it) is parametrised by backend: SQLite (a file
in the test's temporary folder) always, PostgreSQL when ``TEST_DATABASE_URL`` points at
a server where its user may create databases (``.ci/run`` starts one with
``tests/pg_cluster.sh``): each test gets a database of its own, dropped afterwards.
Tests marked ``sqlite_only`` check what only an SQLite file has (pages, WAL, the backup
API, PRAGMAs) and run on SQLite alone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from data import Store
from tests.postgres import drop_database, fresh_database, server_url

from store_clock import Clock

PG_URL = server_url() or ""
BACKENDS = ["sqlite", "postgresql"] if PG_URL else ["sqlite"]


CLOCK_START = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(request: pytest.FixtureRequest) -> Clock:
    """The store's clock; a test moves it by setting ``clock.now``."""
    return Clock(getattr(request.module, "CLOCK_START", CLOCK_START))


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where a test's store lives: an SQLite file or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    url = await fresh_database(PG_URL)
    try:
        yield url
    finally:
        await drop_database(PG_URL, url)


@pytest.fixture
async def store(db_url: str, clock: Clock) -> AsyncIterator[Store]:
    s = await Store.open(db_url, clock=clock, housekeeping=None)
    yield s
    await s.close()
