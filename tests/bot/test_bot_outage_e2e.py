"""The real bot during a storage outage: another program holds the SQLite file's write
lock past the busy timeout. The move pressed meanwhile is refused in plain words, nothing
is played, the log has one line for the outage's start and one for its end (no
traceback), and the same press plays once the file is free."""

from __future__ import annotations

import asyncio
import sqlite3

import locales
from tests.bot.e2e_helpers import (
    bot_in,
    choices,
    clean_run,
    open_hand,
    open_table_with_bots,
    refresh,
    shown,
)
from tests.fakediscord.driver import Driver

SLOW = 60.0


async def test_a_move_while_the_database_is_locked_is_refused_plainly() -> None:
    async with Driver() as d:
        ayse = d.create_user("ayse")
        guild = d.create_guild("Kahve", owner=ayse)
        async with bot_in(d, guild) as bot:
            table = await open_table_with_bots(d, ayse, bots=3)
            hand = await open_hand(d, ayse, table)
            options: list[str] = []
            for _ in range(400):  # until it is her turn
                hand = await refresh(d, ayse, hand)
                options = choices(hand)
                if options:
                    break
                await asyncio.sleep(0.05)  # a pause (the fake Discord runs on this loop)
            assert options, bot.output()[-3000:]
            pick = next((c for c in options if c.endswith(":p")), options[0])
            # the table message follows a pacing interval behind the hand: let it catch up
            await d.wait_until(lambda: "Ayse to " in d.message(table.id).text(), SLOW)
            # What was played shows in the text and the buttons (a picture drawn late may
            # still come for the state they show).
            before = shown(d.message(table.id))
            hand_before = shown(d.message(hand.id))
            other = sqlite3.connect(bot.database_path, timeout=0, isolation_level=None)
            try:
                other.execute("BEGIN IMMEDIATE")  # the write lock, held past every retry
                rec = await d.click_custom_id(ayse, hand, pick, wait="ack", timeout=SLOW)
                await d.wait_until(lambda: bool(rec.followups), SLOW)
                told = rec.followups[-1]
                assert d.is_ephemeral(told) and told.ephemeral_to == ayse.id
                assert told.text() == locales.message("en", "error.storage_down_move")
                assert shown(d.message(table.id)) == before  # nothing was played
                assert shown(d.message(hand.id)) == hand_before
            finally:
                other.execute("ROLLBACK")
                other.close()
            await d.click_custom_id(ayse, hand, pick, wait="response", timeout=SLOW)
            await d.wait_until(lambda: shown(d.message(hand.id)) != hand_before, SLOW)
            await d.wait_until(lambda: "storage back after" in bot.all_output(), SLOW)
            out = bot.all_output()
            assert out.count("storage unavailable since") == 1, out[-3000:]
            assert out.count("storage back after") == 1, out[-3000:]
            assert "1 press(es) refused" in out
            clean_run(d, bot)
