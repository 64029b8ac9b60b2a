"""Attacks on the real bot through the fake Discord: presses of someone else's buttons,
forged custom_ids and option values, hostile names. Each is answered once, privately,
specifically; none changes anything it should not.

Run with ``-s`` to see the counts (forged ids / options sent, answered, accepted).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from tests.bot.e2e_helpers import (
    answers,
    assert_no_leak,
    bot_in,
    choices,
    clean_run,
    ids,
    open_hand,
    refresh,
)
from tests.fakediscord.driver import Driver
from tests.fakediscord.server import InteractionRecord, MessageRecord, User, iter_components

SLOW = 30.0  # seconds: first pictures wait for the drawing worker on a busy machine


async def two_people_and_two_computers(d: Driver, alice: User, bob: User) -> MessageRecord:
    await d.slash(alice, "batak new", {"deals": 1}, wait="response", timeout=SLOW)
    lobby = await d.wait_for_message(lambda m: any(c.endswith(":start") for c in ids(m)))
    await d.click(bob, lobby, "Join", wait="response")
    for _ in range(2):
        await d.click(alice, lobby, "Add bot", wait="response")
    await d.click(alice, lobby, "Start", wait="response")
    await d.wait_until(lambda: any(c.endswith(":show") for c in ids(d.message(lobby.id))), SLOW)
    return d.message(lobby.id)


def snapshot(msg: MessageRecord) -> tuple[int, str, list[str]]:
    return msg.edit_count, msg.text(), ids(msg)


async def test_a_press_of_someone_elses_hand_never_touches_it() -> None:
    async with Driver() as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with bot_in(d, guild) as bot:
            table = await two_people_and_two_computers(d, alice, bob)
            a_hand = await open_hand(d, alice, table)
            b_hand = await open_hand(d, bob, table)
            # Her real buttons (bids and Pass in the auction, cards later, Waiting, Refresh).
            a_cards = [c for c in ids(d.message(a_hand.id)) if c.startswith("bt:")]
            assert len(a_cards) >= 2
            before_a = snapshot(d.message(a_hand.id))
            before_b = snapshot(d.message(b_hand.id))
            before_table = d.message(table.id).text()
            pressed = 0
            for where in (b_hand, table):
                for cid in a_cards:
                    rec = await d.click_custom_id(bob, where, cid, wait="response", timeout=SLOW)
                    pressed += 1
                    got = answers(rec)
                    assert len(got) == 1, got  # one answer per click
                    (answer,) = got
                    assert answer.id not in (a_hand.id, b_hand.id, table.id)
                    assert answer.ephemeral_to == bob.id
                    assert "not yours" in answer.text()
                    assert snapshot(d.message(a_hand.id)) == before_a  # Alice's hand untouched
                    assert snapshot(d.message(b_hand.id)) == before_b  # so is the pressed one
            assert d.message(table.id).text() == before_table  # nothing was played
            assert_no_leak(d, d.message(a_hand.id), bob)
            print(f"\nforeign presses: {pressed}, answered once each, 0 hands changed")
            clean_run(d, bot)


def forged_ids(valid: str, table: int) -> list[str]:
    """Ids the bot never writes, most of them one character away from a real one."""
    _, t, seat, move, code = valid.split(":")
    forged = [
        f"bt:{t}:{seat}:0{move}:{code}",  # zero-padded move
        f"bt:0{t}:{seat}:{move}:{code}",  # zero-padded table
        f"bt:{t}:{seat}:{move}:{code.lower()}",  # lower-case card
        f"bt:{t}:{seat}:{move}:{code}:x",  # an extra field
        f"bt:{t}:{seat}:{move}",  # a field missing
        f"bt:{t}:{seat}:+{move}:{code}",
        f"bt:{t}:{seat}:{move}:{code} ",
        f"bt:{t}:{seat}:{move}:b07",
        f"bt:{t}:7:{move}:{code}",
        f"bt:{t}:{seat}:{move}:zz",
        f"bt:{t}:{seat}:-1:{code}",
        f"bt:{t}:{seat}:{move}:hint2",
        f"bt:99999:{seat}:{move}:{code}",  # a table that does not exist
        f"bx:{table}:explode",
        f"bx:0{table}:show",
        f"bx:{table}:show:1",
        f"BX:{table}:show",
        "bx:",
        "",
        "other-bot:ping",
        "x" * 100,
        "bt:١:0:0:p",  # Arabic-Indic digit
    ]
    return [f for f in forged if f != valid]  # "b5".lower() is itself


def forged_options(d: Driver, guild: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    """(subcommand, raw options) that Discord's client would never send."""
    return [
        ("leaderboard", [{"name": "by", "type": 3, "value": "everything"}]),
        ("leaderboard", [{"name": "season", "type": 4, "value": 1}]),
        ("leaderboard", [{"name": "by", "type": 4, "value": 1}]),
        ("stats", [{"name": "user", "type": 6, "value": "not-a-user"}]),
        ("stats", [{"name": "user", "type": 6, "value": "0"}]),
        ("stats", [{"name": "who", "type": 6, "value": "1"}]),
        ("new", [{"name": "deals", "type": 4, "value": 99}]),
        ("new", [{"name": "deals", "type": 4, "value": True}]),
        ("new", [{"name": "preset", "type": 3, "value": "no-such-rules"}]),
        ("new", [{"name": "pace", "type": 3, "value": "warp"}]),
        ("rules", [{"name": "preset", "type": 3, "value": "../../etc"}]),
        ("settings", [{"name": "language", "type": 3, "value": "xx"}]),
        ("explode", []),
    ]


async def forge_slash(
    d: Driver, user: User, sub: str, options: list[dict[str, Any]]
) -> InteractionRecord:
    """A raw ``/batak <sub>`` interaction, sent as written (the driver's checks skipped)."""
    channel = d._home_channel(user)
    cmd = d.fake.lookup_command(channel.guild_id, "batak")
    assert cmd is not None
    data: dict[str, Any] = {
        "id": cmd["id"],
        "name": cmd["name"],
        "type": 1,
        "options": [{"name": sub, "type": 1, "options": options}],
    }
    if cmd.get("guild_id"):
        data["guild_id"] = cmd["guild_id"]
    rec = d.fake.new_interaction(2, user, channel, data)
    return await d._run(rec, "response", SLOW)


async def test_forged_ids_and_options_are_answered_and_never_accepted() -> None:
    async with Driver() as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with bot_in(d, guild) as bot:
            table = await two_people_and_two_computers(d, alice, bob)
            hands = {u.id: await open_hand(d, u, table) for u in (alice, bob)}
            # Whoever is to act gets a real, currently valid button to forge from.
            found: tuple[User, MessageRecord] | None = None
            for _ in range(100):
                for user in (alice, bob):
                    h = await refresh(d, user, hands[user.id])
                    if choices(h):
                        found = user, h
                        break
                if found is not None:
                    break
                await asyncio.sleep(0.1)
            assert found is not None
            mover, hand = found
            valid = choices(d.message(hand.id))[0]
            table_id = int(valid.split(":")[1])
            before = snapshot(d.message(table.id))
            sent = answered = accepted = 0
            for target in (hand, table):
                for cid in forged_ids(valid, table_id):
                    rec = await d.click_custom_id(mover, target, cid, wait="response", timeout=SLOW)
                    sent += 1
                    got = answers(rec)
                    if len(got) == 1 and got[0].ephemeral_to == mover.id:
                        answered += 1
                    assert got and got[0].id != target.id, cid  # never the pressed message
                    if snapshot(d.message(table.id)) != before:
                        accepted += 1
            # The real button still works: none of its forged copies was played.
            assert valid in choices(d.message(hand.id))
            rec = await d.click(mover, hand, valid, wait="response", timeout=SLOW)
            assert "⚠️" not in d.message(hand.id).text()
            print(f"\nforged custom_ids: {sent} sent, {answered} answered, {accepted} accepted")
            assert (answered, accepted) == (sent, 0)

            sent = answered = 0
            for sub, options in forged_options(d, guild):
                rec = await forge_slash(d, bob, sub, options)
                sent += 1
                got = answers(rec)
                assert len(got) == 1 and got[0].ephemeral_to == bob.id, (sub, options, got)
                text = got[0].text()
                assert "does not accept" in text or "do not know that command" in text, text
                answered += 1
            print(f"forged options: {sent} sent, {answered} answered privately, 0 accepted")
            assert len(d.fake.guild_commands) <= 1
            clean_run(d, bot)


HOSTILE = [
    "[x](https://e.vil) **BIG** ||x||",  # 32 characters: shown whole
    "@everyone <@&1> <@1234567890123456789>",
    "\u202eevil\u202c ```py\nx``` # H",
]


async def test_names_are_shown_as_data_and_ping_no_one() -> None:
    async with Driver() as d:
        people = [d.create_user(n) for n in ("mallory", "trudy", "eve")]
        for person, name in zip(people, HOSTILE, strict=True):
            person.global_name = name
        outsider = d.create_user("olivia")
        guild = d.create_guild("Cafe", members=[*people, outsider])
        async with bot_in(d, guild) as bot:
            host = people[0]
            await d.slash(host, "batak new", {"deals": 1}, wait="response", timeout=SLOW)
            lobby = await d.wait_for_message(lambda m: any(c.endswith(":start") for c in ids(m)))
            for p in people[1:]:
                await d.click(p, lobby, "Join", wait="response")
            await d.click(host, lobby, "Add bot", wait="response")
            await d.click(host, lobby, "Start", wait="response")
            await d.wait_until(
                lambda: any(c.endswith(":show") for c in ids(d.message(lobby.id))), SLOW
            )
            await open_hand(d, host, lobby)
            # A button's label is shown as written (no markdown, never a mention), so a
            # name there ("Waiting for …") is plain characters: no direction overrides,
            # one line. Everything else a reader sees is checked for escaping.
            labels = [
                str(c.get("label") or "")
                for m in d.messages()
                for c in iter_components(m.components)
            ]
            for label in labels:
                assert "\u202e" not in label and "\n" not in label, label
            everything = "\n".join(m.text() for m in d.messages())
            for label in sorted(labels, key=len, reverse=True):
                everything = everything.replace(label, "")
            for p in people:  # the turn notices' own mentions are the bot's, not a name's
                everything = everything.replace(f"<@{p.id}>", "")
            for raw in ("**BIG**", "||x||", "](https://", "```", "\u202e", "@everyone"):
                assert raw not in everything, raw
            assert not re.search(r"(?<!\\)<@", everything)  # every <@ escaped
            assert "\\*\\*BIG\\*\\*" in d.message(lobby.id).text()
            # The thread's title shows as written: markup taken out, not escaped.
            (thread,) = d.threads()
            assert thread.name == "Batak with x **BIG** ||x||", thread.name
            # Nobody was pinged but by their own turn notices.
            assert d.notifications(outsider) == []
            for p in people:
                assert all(f"<@{p.id}>" in m.text() for m in d.notifications(p))
            # /batak table: not for someone who does not sit there.
            before = d.message(lobby.id)
            rec = await d.slash(outsider, "batak table", wait="response", channel=None)
            (answer,) = answers(rec)
            assert answer.ephemeral_to == outsider.id and "Only the players" in answer.text()
            assert not d.message(before.id).deleted
            clean_run(d, bot)
