"""Shared test set-up: the project root is importable; the service tests' ``env``."""

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Any]:
    """The table service of ``tests/bot`` on a fake clock, its events recorded:
    ``(service, recorder, timers, store)``, closed after the test."""
    from test_bot_service import make_service  # tests/bot, on the path for its tests

    service, rec, timers, store = await make_service(tmp_path / "t.sqlite3")
    yield service, rec, timers, store
    await service.close()
    await store.close()
