"""End-to-end (real bot.py against the fake Discord): the table message is edited
through the token of the last press on it (:mod:`cogs.table_tokens`), a route Discord's
global limit leaves out, and through the channel once Discord refuses that token.

What people see stays as it was: each press on the table message is answered with one
private message (the same words), and the table message is the same message, edited.
"""

from __future__ import annotations

from tests.bot.e2e_helpers import (
    PATIENCE,
    answers,
    bot_in,
    clean_run,
    ids,
    open_hand,
    play_out,
)
from tests.fakediscord.driver import Driver
from tests.fakediscord.server import InteractionRecord, MessageRecord, RequestLogEntry


def only_answer(rec: InteractionRecord, user_id: int) -> MessageRecord:
    got = answers(rec)
    assert len(got) == 1 and got[0].ephemeral_to == user_id, got
    return got[0]


async def test_table_edits_go_through_the_press_token_then_the_channel() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice = d.create_user("alice")
        guild = d.create_guild("Cafe", members=[alice])
        async with bot_in(d, guild) as bot:
            await d.slash(alice, "batak new", {"deals": 1}, wait="response")
            lobby = await d.wait_for_message(lambda m: any(c.endswith(":start") for c in ids(m)))

            def channel_edits() -> list[RequestLogEntry]:
                path = f"/channels/{lobby.channel_id}/messages/{lobby.id}"
                return [r for r in d.fake.requests if r.method == "PATCH" and r.path == path]

            # The token's own bucket answers 429 once: discord.py waits it out (under a lock
            # of that token only) and the edit still goes through the token.
            d.inject_429(r"/messages/@original$", method="PATCH", retry_after=1.0)
            added = await d.click(alice, lobby, "Add bot", wait="response")
            text = only_answer(added, alice.id).text()
            assert text == "A computer player sits in seat 2."
            # The press's token edits the table message (type 6: its @original is it).
            await d.wait_until(lambda: added.edits >= 1, PATIENCE)
            assert added.ack_type == 6 and added.response is d.message(lobby.id)
            assert "Computer 2" in d.message(lobby.id).text()
            assert d.fake.served_429_by_scope == {"route": 1} and channel_edits() == []
            for _ in range(2):
                await d.click(alice, lobby, "Add bot", wait="response")
            before_start = len(channel_edits())
            started = await d.click(alice, lobby, "Start", wait="response")
            assert only_answer(started, alice.id).text().startswith("The match has started.")
            await d.wait_until(lambda: bool(d.message(lobby.id).attachments), PATIENCE)
            # Start's own token showed the table: its text and buttons, then its picture.
            assert started.edits >= 1 and len(channel_edits()) == before_start
            shown = started.responses[0]
            assert "Deal 1 of 1" in str(shown["content"])
            assert not any(c.endswith(":start") for c in ids(d.message(lobby.id)))

            hand = await open_hand(d, alice, d.message(lobby.id))
            assert await play_out(d, alice, hand, cards=1) == 1
            await d.wait_until(lambda: started.edits >= 3, PATIENCE)
            assert len(channel_edits()) == before_start

            # Fifteen minutes later Discord refuses the token (401 / 50027): the bot
            # edits the table message through the channel from then on.
            d.fake.clock.advance(15 * 60 + 1)
            through_token = started.edits
            assert await play_out(d, alice, hand, cards=1) == 1
            await d.wait_until(lambda: len(channel_edits()) > before_start, PATIENCE)
            refused = [
                e
                for e in d.fake.errors_served
                if e[1].startswith(f"/webhooks/{d.fake.application_id}/{started.token}/")
            ]
            assert refused and all(e[2:] == (401, 50027) for e in refused)
            assert started.edits == through_token
            assert all(r.status == 200 for r in channel_edits())
            final = d.message(lobby.id)
            assert final.attachments and any(c.endswith(":show") for c in ids(final))
            assert not final.deleted
            clean_run(d, bot)
