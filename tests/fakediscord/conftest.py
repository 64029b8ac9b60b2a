from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from .driver import Driver


@pytest_asyncio.fixture
async def driver() -> AsyncIterator[Driver]:
    """A started fake Discord (no bot, no guilds yet)."""
    async with Driver() as d:
        yield d
