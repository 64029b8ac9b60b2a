"""Fixtures the service tests of this folder share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_bot_service import make_service


@pytest.fixture
async def env(tmp_path: Path) -> Any:
    """The table service on a fake clock with its events recorded, and its store:
    ``(service, recorder, timers, store)``."""
    service, rec, timers, store = await make_service(tmp_path / "t.sqlite3")
    yield service, rec, timers, store
    await service.close()
    await store.close()
