"""End-to-end (bot.py against the fake Discord, on a clock the test moves): a season's
roll-over at its boundary. A rated match in March; at midnight on 1 April the first
command closes March: its podium is announced once in the channel (not again after a
restart), March's board stays readable, April's is empty and then filled; an unknown
season and a bad time zone are refused privately."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from tests.bot.clock_bot import set_clock
from tests.bot.e2e_helpers import (
    FAST,
    PATIENCE,
    answer_text,
    answers,
    clean_run,
    open_hand,
    open_table_with_bots,
    play_out,
)
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import running_bot

SCRIPT = Path(__file__).with_name("clock_bot.py")
OVER = "The season March 2027 is over"


async def rated_match(d: Driver, who: object) -> None:
    table = await open_table_with_bots(d, who, deals=3)  # type: ignore[arg-type]
    await play_out(d, who, await open_hand(d, who, table))  # type: ignore[arg-type]
    await d.wait_for_message(lambda m: "Winner" in m.text() and not m.ephemeral_to, PATIENCE)


async def test_a_season_rolls_over_at_its_boundary(tmp_path: Path) -> None:
    clock_file = tmp_path / "clock.json"
    set_clock(clock_file, datetime(2027, 3, 31, 23, 0, tzinfo=UTC))
    async with Driver(patience=PATIENCE) as d:
        alice = d.create_user("alice")
        guild = d.create_guild("Cafe", members=[alice], admins=[alice])
        env = {"DEV_GUILD_ID": str(guild.id), "BATAK_TEST_CLOCK": str(clock_file)} | FAST
        async with running_bot(d, env=env, script=SCRIPT) as bot:
            bad = await d.slash(
                alice, "batak settings server", {"timezone": "Mars/Olympus"}, wait="response"
            )
            assert d.is_ephemeral(answers(bad)[0])
            assert "is not a time zone" in answer_text(bad)
            shown = await d.slash(alice, "batak settings server", wait="response")
            assert "Seasons: monthly · time zone UTC" in answer_text(shown)

            await rated_match(d, alice)
            board = await d.slash(alice, "batak leaderboard", wait="response")
            said = answer_text(board)
            assert "March 2027" in said and "Alice" in said
            assert "A season ranks by wins" in said

            # the boundary: the first command after it closes March, once
            set_clock(clock_file, datetime(2027, 4, 1, 0, 0, tzinfo=UTC))
            april = await d.slash(alice, "batak leaderboard", wait="response")
            assert "No rated match has finished in April 2027 yet" in answer_text(april)
            post = await d.wait_for_message(lambda m: OVER in m.text(), PATIENCE)
            assert not post.ephemeral_to and "Champion" in post.text()
            (podium, *_) = d.images(post)
            assert podium.width == 720
            assert any(a["filename"] == "batak-season-2027-03.png" for a in post.attachments)

            past = await d.slash(alice, "batak leaderboard", {"season": "2027-03"}, wait="response")
            assert "March 2027" in answer_text(past) and "Alice" in answer_text(past)
            assert any(d.images(m) for m in answers(past)), "a season's board is a picture"
            unknown = await d.slash(
                alice, "batak leaderboard", {"season": "forever"}, wait="response"
            )
            assert d.is_ephemeral(answers(unknown)[0])
            assert "There is no season forever" in answer_text(unknown)
            alltime = await d.slash(alice, "batak leaderboard", {"season": "all"}, wait="response")
            assert "all time" in answer_text(alltime)

            await rated_match(d, alice)  # April's first match
            april = await d.slash(alice, "batak leaderboard", wait="response")
            assert "April 2027" in answer_text(april) and "Alice" in answer_text(april)

            # a restart announces nothing again
            await bot.restart()
            await d.slash(alice, "batak leaderboard", wait="response")
            await asyncio.sleep(3)  # the start-up check has run
            posts = [m for m in d.messages() if OVER in m.text()]
            assert len(posts) == 1, [m.text() for m in posts]
            # the one person of the season is its champion, and her stats say so
            assert "Champion: Alice" in post.text()
            stats = await d.slash(alice, "batak stats", wait="response")
            assert "Season champion: March 2027" in answer_text(stats)
            clean_run(d, bot)
