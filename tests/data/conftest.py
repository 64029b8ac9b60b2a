"""Fixtures shared by the store tests: a module supplies its own ``clock`` fixture."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import Store

from store_clock import Clock


@pytest.fixture
async def store(tmp_path: Path, clock: Clock) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "store.sqlite3", clock=clock, housekeeping=None)
    yield s
    await s.close()
