"""End-to-end (real bot.py against the fake Discord): every press is answered exactly
once, whichever way it comes in.

A button on the pressed message is run by discord.py through its family's dynamic item;
an id of no family, or one discord.py drops (the pressed message does not have it), is
answered by the cog's fallback. A double answer would be a second callback the fake
refuses (``rejected``): none may be, and each press has one answer, only for the
presser. The records are read once the bot has stopped, so a late second answer would
be there too.
"""

from __future__ import annotations

from tests.bot.e2e_helpers import PATIENCE, answers, bot_in, clean_run, ids, one_button
from tests.fakediscord.driver import Driver
from tests.fakediscord.server import InteractionRecord, MessageRecord, User

UNKNOWN = "does not belong to anything I have open"


def the_answer(rec: InteractionRecord, user: User) -> MessageRecord:
    got = answers(rec)
    assert len(got) == 1, got
    assert got[0].ephemeral_to == user.id
    return got[0]


async def test_every_press_is_answered_once_whichever_way_it_comes_in() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        pressed: list[tuple[InteractionRecord, User]] = []
        async with bot_in(d, guild) as bot:
            await d.slash(alice, "batak new", {"deals": 1}, wait="response")
            lobby = await d.wait_for_message(lambda m: any(c.endswith(":start") for c in ids(m)))
            t = int(one_button(lobby, ":start").split(":")[1])

            # Buttons and a menu of the pressed message: run by discord.py.
            joined = await d.click(bob, lobby, "Join", wait="response")
            assert "You sit in seat 2." in the_answer(joined, bob).text()
            opened = await d.click(alice, lobby, "House rules", wait="response")
            panel = opened.followups[-1] if opened.followups else opened.response
            assert panel is not None and panel.ephemeral_to == alice.id
            picked = await d.select(alice, panel, f"bh:{t}:opt", ["min_bid"], wait="response")
            assert f"bh:{t}:set:min_bid" in [
                str(c.get("custom_id")) for c in d.message(panel.id).selects()
            ]
            pressed += [(joined, bob), (opened, alice), (picked, alice)]

            # A real id the pressed message does not have: discord.py drops it, the cog
            # reads it through its family (Add bot, pressed on the host's panel).
            added = await d.click_custom_id(alice, panel, f"bx:{t}:bot", wait="response")
            the_answer(added, alice)
            await d.wait_until(lambda: "Computer 3" in d.message(lobby.id).text(), PATIENCE)
            pressed.append((added, alice))

            # Ids the bot never writes: of no family, or fitting a family's template.
            before = (d.message(lobby.id).text(), ids(d.message(lobby.id)))
            for cid in (
                "other-bot:42",
                f"bx:{t}:explode",
                f"bt:{t}:0:5:p:1",
                f"bx:0{t}:join",
                f"bt:{t}:1:0:cth",
                f"bh:{t}:set:seed",
            ):
                rec = await d.click_custom_id(bob, lobby, cid, wait="response")
                assert UNKNOWN in the_answer(rec, bob).text(), cid
                pressed.append((rec, bob))
            after = (d.message(lobby.id).text(), ids(d.message(lobby.id)))
            assert after == before  # the forgeries changed nothing
            clean_run(d, bot)
        for rec, user in pressed:  # the bot has stopped: every answer it gave is here
            the_answer(rec, user)
            # The answer replaced the "thinking" message; or, for a press on the table
            # message (a deferred update: its token edits that message), it is the one
            # follow-up (cogs.table_tokens).
            assert rec.rejected == [], rec.name
            on_table = rec.ack_type == 6 and rec.original_message_id == lobby.id
            assert rec.followups == [] or on_table, rec.name
