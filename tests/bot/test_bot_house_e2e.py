"""End-to-end (real bot.py against the fake Discord): a casual match under house rules
set with ``/batak new rules:`` and the host's panel, played to the end (its records carry
the rules, no rating changes); a spectator who follows a match and never sees a card
before it is public, then every hand at the deal's end; watching turned off."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from batak.records import loads
from tests.bot.e2e_helpers import (
    FAST,
    LABEL,
    PATIENCE,
    answers,
    choices,
    clean_run,
    hand_labels,
    ids,
    open_hand,
    refresh,
)
from tests.bot.e2e_helpers import answer_text as text_of
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import BotProcess, running_bot
from tests.fakediscord.server import InteractionRecord, MessageRecord, User, version_text

TRICK_LINE = re.compile(r"^(On the table|Last trick): ")


def panel_of(d: Driver, rec: InteractionRecord) -> MessageRecord:
    (msg,) = [m for m in answers(rec) if m.selects()]
    return d.message(msg.id)


async def lobby_of(d: Driver, host: User, options: dict[str, object]) -> MessageRecord:
    await d.slash(host, "batak new", options, wait="response")
    return await d.wait_for_message(
        lambda m: any(c.endswith(":start") for c in ids(m)) and not m.ephemeral_to
    )


async def start_with_computers(d: Driver, host: User, lobby: MessageRecord) -> MessageRecord:
    for _ in range(3):
        await d.click(host, lobby, "Add bot", wait="response")
    await d.click(host, lobby, "Start", wait="response")
    await d.wait_until(lambda: any(c.endswith(":show") for c in ids(d.message(lobby.id))), 30)
    return d.message(lobby.id)


async def play_to_the_end(
    d: Driver,
    player: User,
    hand: MessageRecord,
    bot: BotProcess,
    each_turn: Callable[[MessageRecord], None] | None = None,
) -> None:
    """The person takes the first legal choice (passing when they may) until the match
    is over; ``each_turn(hand)`` is called before each of their moves."""
    for _ in range(400):
        if not any(c.endswith(":ref") for c in ids(d.message(hand.id))):
            return  # the match is over: the hand has no buttons left
        try:
            hand = await refresh(d, player, hand)
        except LookupError:  # the hand moved on between reading its buttons and the press
            continue
        options = choices(hand)
        if not options:
            await asyncio.sleep(0.05)  # a pause (the fake Discord runs on this loop)
            continue
        if each_turn is not None:
            each_turn(hand)
        pick = next((c for c in options if c.endswith(":p")), options[0])
        await d.click(player, hand, pick, wait="response")
    raise AssertionError("the match did not end: " + bot.output()[-2000:])


async def test_a_casual_match_under_house_rules() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)} | FAST) as bot:
            # refused, naming the option; nothing is opened
            bad = await d.slash(bob, "batak new", {"rules": "min_bid=14"}, wait="response")
            assert "`min_bid` must be a number from 1 to 13, not `14`" in text_of(bad)
            bad = await d.slash(
                bob,
                "batak new",
                {"rules": "preset=classic all_pass=dealer-forced"},
                wait="response",
            )
            assert "`forced_bid` must be a number from 1 to 13 while" in text_of(bad)
            bad = await d.slash(bob, "batak new", {"rules": "trumps=S"}, wait="response")
            assert "there is no option `trumps`" in text_of(bad)
            assert not [m for m in d.messages() if any(c.endswith(":start") for c in ids(m))]

            lobby = await lobby_of(
                d, alice, {"deals": 1, "rules": "min_bid=6 partnership=on trump_lead=free"}
            )
            assert "House rules: min_bid=6 · trump_lead=free · partnership=on" in lobby.text()
            assert "Casual table" in lobby.text()

            # the host's panel: one more option through the menus, and a refused one
            other = await d.click(bob, lobby, "House rules", wait="response")
            assert "Only the host" in text_of(other)
            opened = await d.click(alice, lobby, "House rules", wait="response")
            panel = panel_of(d, opened)
            assert d.is_ephemeral(panel) and panel.ephemeral_to == alice.id
            tid = int(one_id(lobby, ":start").split(":")[1])
            await d.select(alice, panel, f"bh:{tid}:opt", ["tie_break"], wait="response")
            await d.select(alice, panel, f"bh:{tid}:set:tie_break", ["share"], wait="response")
            assert "`tie_break` = **share** ✱" in d.message(panel.id).text()
            await d.select(alice, panel, f"bh:{tid}:opt", ["forced_bid"], wait="response")
            await d.select(alice, panel, f"bh:{tid}:set:forced_bid", ["none"], wait="response")
            said = d.message(panel.id).text()
            assert "⚠️" in said and "`forced_bid` must be a number from 1 to 13 while" in said
            assert "`forced_bid` = **4**" in said  # unchanged
            await d.wait_until(lambda: "tie_break=share" in d.message(lobby.id).text(), 10)

            table = await start_with_computers(d, alice, lobby)
            rules = await d.slash(alice, "batak rules", wait="response")
            said = text_of(rules)
            assert f"rules in force at table #{tid}" in said and "at least 6" in said
            assert "tie_break=share" in said and "Eşli" in said
            assert "House rules: min_bid=6" in table.text()

            hand = await open_hand(d, alice, table)
            await play_to_the_end(d, alice, hand, bot)
            result = await d.wait_for_message(lambda m: "Winner" in m.text() and not m.ephemeral_to)
            assert "A casual match: the ratings did not change." in result.text()

            board = await d.slash(bob, "batak leaderboard", wait="response")
            assert not [line for line in text_of(board).splitlines() if "Alice" in line]

            history = await d.slash(alice, "batak history", wait="response")
            msg = next(m for m in answers(history) if m.attachments)
            att = next(a for a in msg.attachments if a["filename"].endswith(".jsonl"))
            deals = loads(d.attachment_bytes(msg, att).decode("utf-8"))
            assert deals and all(deal.is_over for deal in deals)  # checked card by card
            for deal in deals:
                r = deal.rules
                assert (r.min_bid, r.partnership, r.trump_lead) == (6, True, "free")
                contract = deal.contract
                assert contract is not None and (contract.bid >= 6 or contract.forced)
            assert "casual" in text_of(history)
            clean_run(d, bot)


def one_id(msg: MessageRecord, suffix: str) -> str:
    return next(c for c in ids(msg) if c.endswith(suffix))


def card_labels_outside_tricks(text: str) -> set[str]:
    """Card labels a spectator's text shows anywhere but the played cards' lines."""
    return {
        found
        for line in text.splitlines()
        if not TRICK_LINE.match(line)
        for found in LABEL.findall(line)
    }


async def test_a_spectator_follows_a_match_and_sees_the_hands_at_the_end() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)} | FAST) as bot:
            lobby = await lobby_of(d, alice, {"deals": 1})
            table = await start_with_computers(d, alice, lobby)
            mine = await d.click(alice, table, one_id(table, ":watch"), wait="response")
            assert "You sit at this table" in text_of(mine)

            show = await d.click(bob, table, one_id(table, ":show"), wait="response")
            assert "Press Watch on the table message" in text_of(show)  # not seated
            rec = await d.click(bob, table, one_id(table, ":watch"), wait="response")
            (view,) = [m for m in answers(rec) if m.text().startswith("👁 Watching table")]
            assert d.is_ephemeral(view) and view.ephemeral_to == bob.id
            assert d.images(view), "the table picture, drawn from no seat"
            hand = await open_hand(d, alice, table)
            dealt = hand_labels(hand)
            assert len(dealt) == 13

            def nothing_hidden(now: MessageRecord) -> None:
                # Alice's cards still in her hand were never shown to Bob, anywhere
                # (until the first deal is over: then its hands are everyone's).
                seen = d.seen_text(bob)
                if "The hands as dealt:" in seen:
                    return
                for card in hand_labels(now):
                    assert card not in seen, (card, seen[-1500:])

            await play_to_the_end(d, alice, hand, bot, nothing_hidden)
            summary = await d.wait_for_message(
                lambda m: "The hands as dealt:" in m.text() and not m.ephemeral_to
            )
            await d.wait_until(lambda: "as dealt" in d.message(view.id).text(), 20)

            final = d.message(view.id)
            assert final.edit_count >= 5, "the view followed the game without a press"
            before_end = [v for v in final.versions if "as dealt" not in version_text(v)]
            assert before_end
            for version in before_end:  # a card is shown only once it is played
                assert card_labels_outside_tricks(version_text(version)) == set()
            for text in (final.text(), summary.text()):
                lines = text.splitlines()
                start = lines.index("The hands as dealt:")
                shown = lines[start + 1 : start + 5]
                assert len(shown) == 4 and shown[0].startswith("Alice: ")
                assert len(set(LABEL.findall("\n".join(shown)))) == 52
            first = summary.text().splitlines()  # the first deal's summary
            alice_line = first[first.index("The hands as dealt:") + 1]
            assert set(LABEL.findall(alice_line)) == dealt  # her hand, as dealt
            clean_run(d, bot)


async def test_watching_turned_off_is_refused_politely() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)} | FAST) as bot:
            lobby = await lobby_of(d, alice, {"deals": 1})
            opened = await d.click(alice, lobby, "House rules", wait="response")
            panel = panel_of(d, opened)
            await d.click(alice, panel, "Turn watching off", wait="response")
            assert "Watching is off at this table." in d.message(panel.id).text()
            await d.wait_until(lambda: "Watching is off" in d.message(lobby.id).text(), 10)
            assert "Casual" not in d.message(lobby.id).text()  # no rule changed: still rated
            table = await start_with_computers(d, alice, lobby)
            assert not any(c.endswith(":watch") for c in ids(table))  # no Watch button
            old = one_id(table, ":show").replace("bx:", "bh:").replace(":show", ":watch")
            pressed = await d.click_custom_id(bob, table, old, wait="response")  # an old one
            assert "Watching is off at this table: the host chose" in text_of(pressed)
            typed = await d.slash(bob, "batak watch", wait="response")
            assert "Watching is off at this table: the host chose" in text_of(typed)
            assert not [m for m in d.ephemerals(bob) if m.text().startswith("👁")]
            clean_run(d, bot)
