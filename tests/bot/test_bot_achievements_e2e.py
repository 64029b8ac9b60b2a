"""End-to-end (real bot.py against the fake Discord): an achievement granted by the bot,
told to its owner only, shown in ``/batak stats`` (new ones marked once), granted once
and recomputed identically from what is stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from data import Store
from tests.bot.e2e_helpers import PATIENCE, answer_text, bot_in, clean_run, play_daily
from tests.fakediscord.driver import Driver


async def seed(path: Path, guild_id: int, user_id: int) -> str:
    """Six daily matches finished on the six days before today, and a tournament win:
    the database the bot opens."""
    today = datetime.now(UTC).date()
    store = await Store.open(str(path), housekeeping=None)
    try:
        for back in range(6, 0, -1):
            await store.daily.finish_daily(
                guild_id, user_id, 10, day=(today - timedelta(days=back)).isoformat()
            )
        assert await store.achievements.grant_tournament_win(
            guild_id, user_id, datetime(2026, 1, 5, 20, tzinfo=UTC), 3
        )
    finally:
        await store.close()
    return today.isoformat()


async def test_daily_week_granted_told_privately_and_in_stats(tmp_path: Path) -> None:
    db = tmp_path / "batak.db"
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        today = await seed(db, guild.id, alice.id)
        async with bot_in(d, guild, env={"DATABASE_PATH": str(db)}) as bot:
            final = await play_daily(d, alice)  # the seventh day in a row
            assert "Achievement earned: A week of daily matches." in final
            assert "seven days in a row" in final
            # told to her only: nothing about it anywhere bob can see
            assert "week of daily matches" not in d.seen_text(bob)

            stats = answer_text(await d.slash(alice, "batak stats", wait="response"))
            lines = stats.splitlines()
            assert "Achievements:" in lines
            assert f"· A week of daily matches ({today})" in lines  # told: not new
            assert "· Tournament winner (2026-01-05) · new!" in lines  # never told yet
            again = answer_text(await d.slash(alice, "batak stats", wait="response"))
            assert "· Tournament winner (2026-01-05)" in again.splitlines()  # seen now
            assert "new!" not in again
            # another person's stats show hers without marking anything
            theirs = await d.slash(bob, "batak stats", {"user": alice.id}, wait="response")
            assert f"· A week of daily matches ({today})" in answer_text(theirs)
            clean_run(d, bot)

    store = await Store.open(str(db), housekeeping=None)
    try:
        held = await store.achievements.of_player(guild.id, alice.id)
        assert [(a.code, a.day) for a in held] == [
            ("daily_week", today),
            ("tournament_win", None),
        ]
        assert all(not a.new for a in held)
        recount = await store.achievements.recompute()
        assert recount.same and list(recount.computed) == [(guild.id, alice.id, "daily_week")]
    finally:
        await store.close()
