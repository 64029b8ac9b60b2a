"""Daily deals results and server settings."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from data import DailyAlreadyPlayedError, GuildSettings, InvalidSettingError, Store

from store_clock import Clock

CLOCK_START = datetime(2026, 5, 1, 23, 30, tzinfo=UTC)
"""Where this module's ``clock`` (tests/data/conftest.py) starts."""


async def test_daily_one_result_per_player_per_day(store: Store, clock: Clock) -> None:
    started = await store.daily.start_daily(1, 10, game_id=None)
    assert started.day == "2026-05-01" and not started.finished
    with pytest.raises(
        DailyAlreadyPlayedError, match="already played the daily match of 2026-05-01"
    ):
        await store.daily.start_daily(1, 10)
    done = await store.daily.finish_daily(
        1, 10, 85, placement=1, details={"totals": [85, 3, -9, 12]}
    )
    assert done.finished and done.score == 85 and done.details == {"totals": [85, 3, -9, 12]}
    assert done.started_at == started.started_at
    with pytest.raises(DailyAlreadyPlayedError, match="already has a daily result"):
        await store.daily.finish_daily(1, 10, 99)
    assert (await store.daily.daily_result(1, 10)) == done
    # without start_daily, finish_daily claims the day itself, once
    await store.daily.finish_daily(1, 11, 40)
    with pytest.raises(DailyAlreadyPlayedError):
        await store.daily.finish_daily(1, 11, 41)
    with pytest.raises(DailyAlreadyPlayedError):
        await store.daily.start_daily(1, 11)
    # another day, another server: separate
    clock.now = datetime(2026, 5, 2, 0, 5, tzinfo=UTC)
    assert (await store.daily.daily_result(1, 10)) is None
    await store.daily.start_daily(1, 10)
    await store.daily.finish_daily(2, 10, 7, day="2026-05-01")
    assert (await store.daily.daily_result(1, 10, day=date(2026, 5, 1))) == done


async def test_daily_leaderboard(store: Store) -> None:
    for uid, score in [(1, 30), (2, 85), (3, 30), (4, -20)]:
        await store.daily.finish_daily(5, uid, score)
    await store.daily.start_daily(5, 6)  # started, not finished: not on the board
    await store.daily.finish_daily(5, 7, 500, day="2026-04-30")  # another day
    board = await store.daily.daily_leaderboard(5)
    assert [(r.user_id, r.score, r.rank) for r in board] == [
        (2, 85, 1),
        (1, 30, 2),
        (3, 30, 2),
        (4, -20, 4),
    ]
    assert [r.user_id for r in await store.daily.daily_leaderboard(5, limit=2, offset=1)] == [1, 3]
    assert [r.user_id for r in await store.daily.daily_leaderboard(5, day="2026-04-30")] == [7]
    assert await store.daily.daily_leaderboard(6) == []


async def test_guild_settings_defaults_and_updates(store: Store) -> None:
    s = await store.guild_settings.get_guild_settings(42)
    assert s == GuildSettings(42)
    assert (s.language, s.preset, s.deals, s.pace, s.bot_level, s.use_threads) == (
        "en",
        "standard",
        None,
        "live",
        "auto",
        True,
    )
    assert s.turn_timeout_s() == s.live_turn_timeout_s and s.turn_timeout_s("async") == 12 * 3600
    s2 = await store.guild_settings.update_guild_settings(
        42, language="tr", deals=5, use_threads=False
    )
    assert (s2.language, s2.deals, s2.use_threads, s2.preset) == ("tr", 5, False, "standard")
    assert s2.updated_at is not None
    s3 = await store.guild_settings.update_guild_settings(
        42, pace="async", async_turn_timeout_s=3600, bot_level="hard", preset="esli"
    )
    assert await store.guild_settings.get_guild_settings(42) == s3
    assert (s3.language, s3.deals, s3.pace, s3.bot_level, s3.preset) == (
        "tr",
        5,
        "async",
        "hard",
        "esli",
    )
    assert s3.turn_timeout_s() == 3600
    assert await store.guild_settings.get_guild_settings(43) == GuildSettings(43)
    await store.guild_settings.update_guild_settings(42, deals=None)
    assert (await store.guild_settings.get_guild_settings(42)).deals is None
    assert await store.guild_settings.reset_guild_settings(42) == GuildSettings(42)
    assert await store.guild_settings.get_guild_settings(42) == GuildSettings(42)


@pytest.mark.parametrize(
    "change",
    [
        {"language": "xx"},
        {"preset": "poker"},
        {"deals": 0},
        {"deals": 21},
        {"deals": True},
        {"pace": "slow"},
        {"live_turn_timeout_s": 5},
        {"async_turn_timeout_s": 10 * 86400},
        {"bot_level": "godlike"},
        {"use_threads": "yes"},
        {"colour": "red"},
    ],
)
async def test_invalid_settings_change_nothing(store: Store, change: dict[str, object]) -> None:
    await store.guild_settings.update_guild_settings(1, language="tr")
    with pytest.raises(InvalidSettingError, match="setting"):
        await store.guild_settings.update_guild_settings(1, **{"use_threads": False, **change})
    s = await store.guild_settings.get_guild_settings(1)
    assert s.language == "tr" and s.use_threads is True
