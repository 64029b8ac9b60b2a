"""Fixtures shared by the store tests: a module supplies its own ``clock`` fixture.

``db_url`` (and the ``store`` opened on it) is parametrised by backend: SQLite (a file
in the test's temporary folder) always, PostgreSQL when ``TEST_DATABASE_URL`` points at
a server where its user may create databases (``.ci/run`` starts one with
``tests/pg_cluster.sh``): each test gets a database of its own, dropped afterwards.
Tests marked ``sqlite_only`` check what only an SQLite file has (pages, WAL, the backup
API, PRAGMAs) and run on SQLite alone.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from data import Store

from store_clock import Clock

PG_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
BACKENDS = ["sqlite", "postgresql"] if PG_URL else ["sqlite"]


def with_database(url: str, name: str) -> str:
    """``url`` with its database name replaced by ``name``."""
    base, _, query = url.partition("?")
    head, _, _ = base.rstrip("/").rpartition("/")
    if "://" not in head:  # no database in the URL at all
        head = base.rstrip("/")
    return f"{head}/{name}" + (f"?{query}" if query else "")


async def fresh_pg_database(server_url: str) -> str:
    """Create an empty database on the server; its URL."""
    name = f"batak_test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return with_database(server_url, name)


async def drop_pg_database(server_url: str, url: str) -> None:
    name = url.partition("?")[0].rsplit("/", 1)[1]
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where a test's store lives: an SQLite file or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    url = await fresh_pg_database(PG_URL)
    try:
        yield url
    finally:
        await drop_pg_database(PG_URL, url)


@pytest.fixture
async def store(db_url: str, clock: Clock) -> AsyncIterator[Store]:
    s = await Store.open(db_url, clock=clock, housekeeping=None)
    yield s
    await s.close()
