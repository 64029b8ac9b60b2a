"""Which computer level a new table gets: expert at async tables unless the server chose."""

from __future__ import annotations

from pathlib import Path

import pytest

from data import BOT_LEVEL_SETTINGS, BOT_LEVELS, GuildSettings
from data.settings import (
    validate_setting,
)
from tests.bot.test_bot_service import ALICE, CHANNEL, GUILD, make_service


def test_auto_is_the_default_and_the_pace_decides() -> None:
    g = GuildSettings(GUILD)
    assert g.bot_level == "auto"
    assert g.table_level("async") == "expert"
    assert g.table_level("live") == "normal"
    assert g.table_level("async", daily=True) == "normal"  # played in one sitting


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_a_level_the_server_set_wins_everywhere(level: str) -> None:
    g = GuildSettings(GUILD, bot_level=level)
    assert {g.table_level("async"), g.table_level("live"), g.table_level("async", True)} == {level}


def test_the_setting_accepts_auto_and_every_level_and_nothing_else() -> None:
    assert list(BOT_LEVEL_SETTINGS) == ["auto", *BOT_LEVELS]
    assert "expert" in BOT_LEVELS
    for value in BOT_LEVEL_SETTINGS:
        assert validate_setting("bot_level", value) == value


async def test_new_tables_get_their_level_from_the_pace_and_the_server(tmp_path: Path) -> None:
    service, _rec, _timers, store = await make_service(tmp_path / "t.sqlite3")
    try:
        slow = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="async")
        assert slow.bot_level == "expert"
        seat = await service.add_bot(slow.id, ALICE)
        assert service.get(slow.id).seats[seat].bot_level == "expert"
        await service.leave(slow.id, ALICE)
        live = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="live")
        assert live.bot_level == "normal"
        await service.leave(live.id, ALICE)
        # The server's own choice wins over the pace.
        await store.guild_settings.update_guild_settings(GUILD, bot_level="hard")
        chosen = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="async")
        assert chosen.bot_level == "hard"
        await service.leave(chosen.id, ALICE)
        # Back to automatic: async tables are expert again.
        await store.guild_settings.update_guild_settings(GUILD, bot_level="auto")
        again = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="async")
        assert again.bot_level == "expert"
    finally:
        await service.close()
        await store.close()


async def test_the_daily_match_stays_normal_unless_the_server_chose(tmp_path: Path) -> None:
    service, _rec, _timers, store = await make_service(tmp_path / "t.sqlite3")
    try:
        table = await service.start_daily(GUILD, CHANNEL, ALICE, "Alice")
        assert table.is_daily and table.bot_level == "normal"
        assert {s.bot_level for s in table.seats[1:]} == {"normal"}
    finally:
        await service.close()
        await store.close()
