"""Which computer level a new table gets: hard at async tables unless the server chose;
a retired level (expert) stored before loads as the level that replaced it."""

from __future__ import annotations

from pathlib import Path

import pytest

from batak.ai import PLAYER_KINDS, HardPlayer, make_player
from data import BOT_LEVEL_SETTINGS, BOT_LEVELS, RETIRED_LEVELS, GuildSettings, InvalidSettingError
from data.settings import (
    validate_setting,
)
from tests.bot.test_bot_service import ALICE, CHANNEL, GUILD, make_service


def test_auto_is_the_default_and_the_pace_decides() -> None:
    g = GuildSettings(GUILD)
    assert g.bot_level == "auto"
    assert g.table_level("async") == "hard"
    assert g.table_level("live") == "normal"
    assert g.table_level("async", daily=True) == "normal"  # played in one sitting


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_a_level_the_server_set_wins_everywhere(level: str) -> None:
    g = GuildSettings(GUILD, bot_level=level)
    assert {g.table_level("async"), g.table_level("live"), g.table_level("async", True)} == {level}


def test_the_setting_accepts_auto_and_every_level_and_nothing_else() -> None:
    assert list(BOT_LEVEL_SETTINGS) == ["auto", *BOT_LEVELS]
    assert "expert" not in BOT_LEVELS  # retired: not shown better than hard by the arena
    for value in BOT_LEVEL_SETTINGS:
        assert validate_setting("bot_level", value) == value
    with pytest.raises(InvalidSettingError):
        validate_setting("bot_level", "expert")


def test_a_stored_expert_level_plays_as_hard() -> None:
    assert RETIRED_LEVELS == {"expert": "hard"}
    g = GuildSettings(GUILD, bot_level="expert")  # a row written before the level went
    assert {g.table_level("async"), g.table_level("live")} == {"hard"}
    player = make_player("expert", 3)
    assert isinstance(player, HardPlayer) and player.name == "hard"
    assert "expert" not in PLAYER_KINDS


async def test_a_server_setting_stored_as_expert_loads_as_hard(tmp_path: Path) -> None:
    service, _rec, _timers, store = await make_service(tmp_path / "t.sqlite3")
    try:
        await store.guild_settings.update_guild_settings(GUILD, bot_level="hard")
        # as an older version stored it (the settings no longer accept the name)
        async with store.guild_settings.database.tx() as db:
            await db.execute(
                "UPDATE guild_settings SET bot_level = ? WHERE guild_id = ?", ("expert", GUILD)
            )
        settings = await store.guild_settings.get_guild_settings(GUILD)
        assert settings.bot_level == "hard"
        table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="async")
        assert table.bot_level == "hard"
    finally:
        await service.close()
        await store.close()


async def test_new_tables_get_their_level_from_the_pace_and_the_server(tmp_path: Path) -> None:
    service, _rec, _timers, store = await make_service(tmp_path / "t.sqlite3")
    try:
        slow = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="async")
        assert slow.bot_level == "hard"
        seat = await service.add_bot(slow.id, ALICE)
        assert service.get(slow.id).seats[seat].bot_level == "hard"
        await service.leave(slow.id, ALICE)
        live = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="live")
        assert live.bot_level == "normal"
        await service.leave(live.id, ALICE)
        # The server's own choice wins over the pace.
        await store.guild_settings.update_guild_settings(GUILD, bot_level="easy")
        chosen = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="async")
        assert chosen.bot_level == "easy"
        await service.leave(chosen.id, ALICE)
        # Back to automatic: async tables are hard again.
        await store.guild_settings.update_guild_settings(GUILD, bot_level="auto")
        again = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="async")
        assert again.bot_level == "hard"
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
