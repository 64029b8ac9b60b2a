"""What the real Discord would refuse or deprecate, checked on the real bot against the
fake Discord: no follow-up while an answer is still "thinking" (the first answer edits
that message; an open hand is edited as ``@original``), no thread made for a table
that is then refused (and no thread deleted: that takes Manage Threads), and a
permission Discord refuses told to the host once, naming the permission and where.

Every wait is for a state, with generous limits: nothing depends on the machine's speed.
"""

from __future__ import annotations

import asyncio
import re

from tests.bot.e2e_helpers import (
    PATIENCE,
    answer_text,
    bot_in,
    clean_run,
    ids,
    one_button,
    open_hand,
    open_table_with_bots,
    play_out,
)
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import BotProcess
from tests.fakediscord.server import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    Channel,
    MessageRecord,
    User,
)

ORIGINAL_EDIT = re.compile(r"^/webhooks/\d+/[^/]+/messages/@original$")
FOLLOWUP_EDIT = re.compile(r"^/webhooks/\d+/[^/]+/messages/\d+$")


def webhook_edits(d: Driver, route: re.Pattern[str]) -> int:
    return sum(1 for r in d.fake.requests if r.method == "PATCH" and route.match(r.path))


def channel_deletes(d: Driver) -> list[str]:
    return [r.path for r in d.fake.requests if r.method == "DELETE" and "/messages" not in r.path]


def threads_ever(d: Driver) -> list[Channel]:
    """Every thread there ever was (deleted ones too)."""
    return [c for c in d.fake.channels.values() if c.is_thread]


async def logged(bot: BotProcess, text: str) -> None:
    """Wait until the bot's log says ``text`` (what it does next follows at once)."""
    for _ in range(int(PATIENCE * 10)):
        if text in bot.output():
            return
        await asyncio.sleep(0.1)
    raise TimeoutError(f"the bot never logged {text!r}")


async def test_no_follow_up_is_sent_while_an_answer_is_thinking() -> None:
    async with Driver() as d:
        host, guest = d.create_user("host"), d.create_user("guest")
        guild = d.create_guild("Cafe", members=[host, guest])
        async with bot_in(d, guild, {"HAND_EDIT_INTERVAL_SECONDS": "0.2"}) as bot:
            table = await open_table_with_bots(d, host)
            hand = await open_hand(d, host, table)  # Show hand: a thinking answer, edited
            edits_before = webhook_edits(d, ORIGINAL_EDIT)
            await play_out(d, host, hand, cards=2)  # presses, and a hand that follows
            await d.wait_until(lambda: webhook_edits(d, ORIGINAL_EDIT) > edits_before, PATIENCE)
            # A hand button pressed by someone else, on another message: a new answer.
            forged = await d.click_custom_id(
                guest, table, one_button(d.message(hand.id), ":ref"), wait="response"
            )
            assert forged.ephemeral and answer_text(forged)
            # Commands deferred privately and publicly, with pictures and files, and
            # failing ones (the error replaces the thinking message, or after a public
            # deferral goes privately in a new message).
            await d.slash(host, "batak hand", wait="response", timeout=PATIENCE)
            await d.slash(guest, "batak watch", wait="response", timeout=PATIENCE)
            await d.slash(host, "batak history", wait="response", timeout=PATIENCE)
            missing = await d.slash(
                host, "batak history", {"match": 99999}, wait="response", timeout=PATIENCE
            )
            assert "99999" in answer_text(missing)
            await d.slash(host, "batak leaderboard", wait="response", timeout=PATIENCE)
            await d.slash(guest, "batak leave", wait="response", timeout=PATIENCE)
            assert d.fake.deprecated_followups == [], d.fake.deprecated_followups
            # Open hands and spectator views are their token's original response: never
            # edited as a follow-up message.
            assert webhook_edits(d, FOLLOWUP_EDIT) == 0
            clean_run(d, bot)


async def test_a_refused_table_leaves_no_thread_behind() -> None:
    async with Driver() as d:
        host = d.create_user("host")
        guild = d.create_guild("Cafe", members=[host])
        general = d.channel(guild)
        closed = d.create_channel(guild, "closed")
        async with bot_in(d, guild) as bot:
            # The engine refuses these rules: nothing is made, nothing deleted.
            rec = await d.slash(
                host, "batak new", {"rules": "deals=0"}, wait="response", timeout=PATIENCE
            )
            assert "deals" in answer_text(rec)
            # The bot may neither post here nor in threads: no thread is tried.
            d.set_bot_permissions(closed, deny=SEND_MESSAGES | SEND_MESSAGES_IN_THREADS)
            rec = await d.slash(
                host, "batak new", channel=closed, wait="response", timeout=PATIENCE
            )
            text = answer_text(rec)
            assert "The table was not opened" in text, text
            assert f"<#{closed.id}>" in text and "**Send Messages**" in text, text
            assert "**Send Messages in Threads**" in text, text
            assert threads_ever(d) == [] and channel_deletes(d) == []
            # Where it may, the next table opens in its own thread.
            await d.slash(host, "batak new", channel=general, wait="response", timeout=PATIENCE)
            await d.wait_until(lambda: len(d.threads(general)) == 1, PATIENCE)
            assert channel_deletes(d) == []
            clean_run(d, bot)


async def test_the_host_is_told_which_permission_a_new_table_lacks() -> None:
    async with Driver() as d:
        host = d.create_user("host", locale="tr")
        guild = d.create_guild("Cafe", members=[host])
        general = d.channel(guild)
        pictures = d.create_channel(guild, "pictures")
        d.set_bot_permissions(general, deny=CREATE_PUBLIC_THREADS)
        d.set_bot_permissions(pictures, deny=ATTACH_FILES)
        async with bot_in(d, guild) as bot:
            # No thread allowed: the table opens in the channel, and the host hears why.
            rec = await d.slash(
                host, "batak new", channel=general, wait="response", timeout=PATIENCE
            )
            text = answer_text(rec)
            assert "**Herkese Açık Alt Başlık Oluştur**" in text and f"<#{general.id}>" in text
            lobby = await d.wait_for_message(
                lambda m: any(c.endswith(":start") for c in ids(m)), PATIENCE, channel=general
            )
            assert lobby.channel_id == general.id and threads_ever(d) == []
            await d.click(host, lobby, one_button(lobby, ":cancel"), wait="response")
            # No pictures allowed: the table cannot be shown, so it is not opened; said once.
            rec = await d.slash(
                host, "batak new", channel=pictures, wait="response", timeout=PATIENCE
            )
            text = answer_text(rec)
            assert "Masa açılmadı" in text and text.count("**Dosya Ekle**") == 1, text
            assert threads_ever(d) == []
            clean_run(d, bot)


def pings(d: Driver, user: User, word: str) -> list[MessageRecord]:
    """The messages that pinged ``user`` and say ``word``."""
    return [m for m in d.notifications(user) if word in m.text()]


async def test_a_refusal_later_in_the_game_is_told_to_the_host_once() -> None:
    async with Driver() as d:
        host = d.create_user("host")
        guild = d.create_guild("Cafe", members=[host])
        general = d.channel(guild)
        async with bot_in(d, guild) as bot:
            table = await open_table_with_bots(d, host, deals=2)
            thread = d.fake.channels[table.channel_id]
            assert isinstance(thread, Channel) and thread.parent_id == general.id
            hand = await open_hand(d, host, table)
            # Pictures are refused from now on (a thread's permissions are its channel's);
            # the bot hears of the change (Discord would send a channel update).
            d.set_bot_permissions(general, deny=ATTACH_FILES)
            await d.announce_guild(guild)
            await play_out(d, host, hand, cards=13)  # the first deal: its summary is refused
            await d.wait_until(lambda: bool(pings(d, host, "Attach Files")), PATIENCE)
            told = pings(d, host, "Attach Files")
            assert len(told) == 1 and told[0].channel_id == thread.id, [m.text() for m in told]
            assert f"<#{thread.id}>" in told[0].text() and told[0].notified == [host.id]
            await play_out(d, host, d.message(hand.id))  # the second deal and the result
            await d.wait_until(lambda: "is over" in d.message(table.id).text(), PATIENCE)
            assert len(pings(d, host, "Attach Files")) == 1  # once per table and permission
            clean_run(d, bot)


async def test_a_refusal_nobody_can_see_waits_for_the_hosts_next_answer() -> None:
    async with Driver() as d:
        host, guest = d.create_user("host"), d.create_user("guest")
        guild = d.create_guild("Cafe", members=[host, guest])
        general = d.channel(guild)
        async with bot_in(d, guild) as bot:
            await d.slash(host, "batak new", {"deals": 1}, wait="response", timeout=PATIENCE)
            lobby = await d.wait_for_message(
                lambda m: any(c.endswith(":start") for c in ids(m)), PATIENCE
            )
            await d.click(guest, lobby, one_button(lobby, ":join"), wait="response")
            for _ in range(2):
                await d.click(host, lobby, one_button(lobby, ":bot"), wait="response")
            await d.click(host, lobby, one_button(lobby, ":start"), wait="response")
            await d.wait_until(lambda: any(c.endswith(":show") for c in ids(d.message(lobby.id))))
            # The bot may post neither in the table's thread nor in its channel any more.
            d.set_bot_permissions(general, deny=SEND_MESSAGES | SEND_MESSAGES_IN_THREADS)
            await d.announce_guild(guild)
            await d.slash(guest, "batak leave", channel=d.fake.channels[lobby.channel_id])
            await logged(bot, "cannot tell the host in")  # the table is not told; nor the host
            assert not pings(d, host, "Send Messages")
            rec = await d.slash(host, "batak rules", wait="response", timeout=PATIENCE)
            text = answer_text(rec)
            assert "**Send Messages in Threads**" in text, text
            assert f"<#{lobby.channel_id}>" in text, text
            again = await d.slash(host, "batak rules", wait="response", timeout=PATIENCE)
            assert "Send Messages" not in answer_text(again)  # told once
            clean_run(d, bot)
