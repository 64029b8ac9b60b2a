"""End-to-end (real bot.py against the fake Discord): Start looks instant.

The table message loses the lobby's buttons and shows the table's text in its first edit
after Start, with the picture when it is drawn within ``QUICK_PICTURE``; else the picture
(drawn in a worker process, slow on a busy machine) follows in a later edit, the edits
in between without it. The times
are printed (``-s``) for the record, never asserted.
"""

from __future__ import annotations

import asyncio

from tests.bot.e2e_helpers import (
    PATIENCE,
    bot_in,
    clean_run,
    ids,
    message_edits,
    open_hand,
    play_out,
)
from tests.fakediscord.driver import Driver

LOBBY_BUTTONS = (":join", ":leave", ":bot", ":start", ":cancel")


def button_ids(version: dict[str, object]) -> list[str]:
    rows = version.get("components") or []
    assert isinstance(rows, list)
    return [str(b.get("custom_id", "")) for row in rows for b in row.get("components") or []]


async def test_start_shows_the_table_text_before_the_picture() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice = d.create_user("alice")
        guild = d.create_guild("Cafe", members=[alice])
        async with bot_in(d, guild) as bot:
            await d.slash(alice, "batak new", {"deals": 1}, wait="response")
            lobby = await d.wait_for_message(lambda m: any(c.endswith(":start") for c in ids(m)))
            await asyncio.sleep(0.5)  # the lobby's paced edits are out
            seen = len(d.message(lobby.id).versions)
            started = await d.click(alice, lobby, "Start", wait="response")
            await d.wait_until(lambda: bool(d.message(lobby.id).attachments), PATIENCE)
            # The game goes on: its edits of the table message carry the picture each time.
            hand = await open_hand(d, alice, d.message(lobby.id))
            assert await play_out(d, alice, hand, cards=2) == 2
            clean_run(d, bot)

        versions = d.message(lobby.id).versions[seen:]
        edits = [r.at for r in message_edits(d, lobby.id)][-len(versions) :]
        first = next(
            i
            for i, v in enumerate(versions)
            if not any(c.endswith(LOBBY_BUTTONS) for c in button_ids(v))
        )
        pictured = next(i for i, v in enumerate(versions) if v.get("attachments"))
        table = versions[first]
        text_after = edits[first] - started.dispatched_at
        picture_after = edits[pictured] - started.dispatched_at
        print(f"\nStart -> table text {text_after:.2f} s, Start -> picture {picture_after:.2f} s")
        # The first edit without the lobby's buttons: the table's text and its buttons,
        # with the picture when it was drawn within QUICK_PICTURE (one edit), else
        # before it: the edits go without it (the game goes on) until a later edit brings
        # it (cogs.pictures.LateDrawings). Edits of both routes are counted: Start's own
        # token edits the table message (cogs.table_tokens).
        assert "Lobby" not in str(table["content"]) and "Deal 1 of 1" in str(table["content"])
        assert any(c.endswith(":show") for c in button_ids(table))
        assert pictured >= first
        assert not any(versions[i].get("attachments") for i in range(first, pictured))
        # Once shown, the table always has a picture (an edit sent while a newer one is
        # drawn keeps the one it has).
        assert all(v.get("attachments") for v in versions[pictured:])
        assert len(versions) - pictured >= 3, len(versions)
