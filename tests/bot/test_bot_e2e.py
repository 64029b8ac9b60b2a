"""End-to-end tests: the real ``bot.py`` as a subprocess against the local fake Discord.

- lobby -> start with three computer players -> the person bids and plays through the
  buttons of their ephemeral hand; nothing of a hand leaks to anyone else;
- a stale, a doubled and a forged click change nothing and answer with a fresh hand;
- the bot is killed in the middle of a deal, restarts, and the old buttons work again;
- the daily match is played privately and only once a day.
"""

from __future__ import annotations

import asyncio

from tests.bot.e2e_helpers import (
    PATIENCE,
    assert_no_leak,
    bot_in,
    choices,
    clean_run,
    hand_cards,
    ids,
    one_button,
    open_hand,
    open_table_with_bots,
    play_daily,
    play_out,
    play_until,
    refresh,
)
from tests.fakediscord.driver import Driver
from tests.fakediscord.server import version_text


async def test_lobby_start_with_bots_and_play_cards() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with bot_in(d, guild) as bot:
            table = await open_table_with_bots(d, alice)
            assert "Alice" in d.message(table.id).text()
            hand = await open_hand(d, alice, table)
            hand = await play_until(d, alice, hand, 3, bot)
            assert_no_leak(d, hand, bob)
            # The public table message shows a picture and a text summary, no hand (the
            # picture may come after the text on a busy machine: cogs.pictures.LateDrawings).
            await d.wait_until(lambda: bool(d.message(table.id).attachments), PATIENCE)
            public = d.message(table.id)
            assert public.attachments and "Show hand" in [b.get("label") for b in public.buttons()]
            clean_run(d, bot)


async def test_stale_doubled_and_forged_clicks() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with bot_in(d, guild) as bot:
            table = await open_table_with_bots(d, alice)
            hand = await open_hand(d, alice, table)
            hand = await play_until(d, alice, hand, 1, bot)
            for _ in range(100):
                hand = await refresh(d, alice, hand)
                if choices(hand):
                    break
            options = choices(hand)
            assert options
            first = options[0]
            await d.click(alice, hand, first, wait="response")
            # The same button again (a doubled click / an old copy): refused; the answer
            # is one edit of her hand, with the warning on top (her hand also follows the
            # game, so it may be edited again as the computers play).
            before = d.message(hand.id).edit_count
            rec = await d.click_custom_id(alice, hand, first, wait="response")
            assert not rec.failed and rec.followups == []
            await d.wait_until(lambda: "out of date" in d.message(hand.id).text())
            assert d.message(hand.id).edit_count > before
            # A forged id for someone else's seat: a new private answer, her hand untouched.
            parts = first.split(":")
            other_seat = f"bt:{parts[1]}:{(int(parts[2]) + 1) % 4}:{parts[3]}:p"
            before = d.message(hand.id).edit_count
            rec = await d.click_custom_id(alice, hand, other_seat, wait="response")
            assert rec.response is not None and rec.response.id != hand.id
            assert rec.response.ephemeral_to == alice.id and "not yours" in rec.response.text()
            assert "not yours" not in d.message(hand.id).text()
            # An action the bot never writes: refused like any unknown button.
            rec = await d.click_custom_id(alice, hand, f"bt:{parts[1]}:{parts[2]}:0:zz")
            await d.wait_response(rec)
            assert rec.response is not None and "does not belong" in rec.response.text()
            assert "does not belong" not in d.message(hand.id).text()
            # Bob (not seated) clicking Show hand gets a polite refusal.
            rec = await d.click(
                bob, table, one_button(d.message(table.id), ":show"), wait="response"
            )
            assert not rec.failed
            clean_run(d, bot)


async def test_restart_in_the_middle_of_a_deal() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice = d.create_user("alice")
        guild = d.create_guild("Cafe", members=[alice])
        async with bot_in(d, guild) as bot:
            table = await open_table_with_bots(d, alice)
            hand = await open_hand(d, alice, table)
            hand = await play_until(d, alice, hand, 2, bot)
            cards_before = hand_cards(d.message(hand.id))
            await bot.restart()  # SIGKILL, then start again on the same database
            assert "1 open table(s) restored" in bot.output(), bot.output()[-3000:]
            # The old hand's buttons still work after the restart.
            hand = await refresh(d, alice, hand)
            assert hand_cards(hand) <= cards_before
            hand = await play_until(d, alice, hand, 1, bot)
            # The table's Show hand button works too (and the hand it gives replaces
            # this one: read its cards first).
            held = hand_cards(d.message(hand.id))
            again = await open_hand(d, alice, table)
            assert hand_cards(again) == held
            clean_run(d, bot)


async def test_daily_match_is_private_and_once_a_day() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with bot_in(d, guild, {"DAILY_DEALS": "1"}) as bot:
            public_before = len(d.messages(include_ephemeral=False))
            await play_daily(d, alice)
            # Nothing public was posted for the daily match.
            assert len(d.messages(include_ephemeral=False)) == public_before
            # One try per day.
            rec = await d.slash(alice, "batak daily", wait="response")
            texts = " ".join(m.text() for m in [rec.response, *rec.followups] if m is not None)
            assert "already" in texts
            board = await d.slash(bob, "batak leaderboard", {"by": "daily"}, wait="response")
            texts = " ".join(m.text() for m in [board.response, *board.followups] if m)
            assert "Alice" in texts or "alice" in texts
            clean_run(d, bot)


async def test_full_match_of_four_people_without_leaks() -> None:
    async with Driver(patience=PATIENCE) as d:
        people = [
            d.create_user(n, locale="tr" if n == "carol" else "en-US")
            for n in ("alice", "bob", "carol", "dave")
        ]
        outsider = d.create_user("eve")
        guild = d.create_guild("Cafe", members=[*people, outsider])
        async with bot_in(d, guild) as bot:
            alice = people[0]
            await d.slash(alice, "batak new", {"deals": 1}, wait="response")
            lobby = await d.wait_for_message(lambda m: any(c.endswith(":start") for c in ids(m)))
            for p in people[1:]:
                await d.click(p, lobby, "Join", wait="response")
            await d.click(alice, lobby, "Start", wait="response")
            await d.wait_until(
                lambda: any(c.endswith(":show") for c in ids(d.message(lobby.id))), 30
            )
            hands = {p.id: await open_hand(d, p, lobby) for p in people}
            # Each person reads their hand in their own Discord language.
            assert hands[people[2].id].text().startswith("Masa #")
            assert hands[people[1].id].text().startswith("Table #")
            # Every hand is only its owner's, and no other person has seen its cards.
            for p in people:
                for q in [*people, outsider]:
                    if q is not p:
                        assert_no_leak(d, d.message(hands[p.id].id), q)
            # Everyone was notified only of their own turns.
            for _ in range(400):
                moved = False
                for p in people:
                    if not choices(d.message(hands[p.id].id)) and not any(
                        c.endswith(":ref") for c in ids(d.message(hands[p.id].id))
                    ):
                        continue
                    h = await refresh(d, p, hands[p.id])
                    options = choices(h)
                    if options:
                        pick = next((c for c in options if c.endswith(":p")), options[0])
                        await d.click(p, h, pick, wait="response")
                        moved = True
                if not moved and all(not choices(d.message(hands[p.id].id)) for p in people):
                    if "is over" in d.message(lobby.id).text():
                        break
                    await asyncio.sleep(0.05)  # a pause (the fake Discord runs on this loop)
            result = await d.wait_for_message(lambda m: "Winner" in m.text() and not m.ephemeral_to)
            assert any(c.endswith(":rematch") for c in ids(result))
            # Pings only ever went to the person whose turn it was, in a notice naming them.
            notified = {
                p.id: [m for m in d.fake.messages.values() if p.id in m.notified]
                for p in [*people, outsider]
            }
            assert notified[outsider.id] == []
            for p in people:
                for m in notified[p.id]:
                    assert f"<@{p.id}>" in m.versions[0].get("content", "")
            # one deal is a try-out: it is not rated, so it stays off the leaderboard
            # (test_bot_standings_e2e plays a rated match of three deals onto it)
            assert "A try-out (fewer than 3 deals): not rated" in result.text()
            board = await d.slash(outsider, "batak leaderboard", wait="response")
            text = " ".join(m.text() for m in [board.response, *board.followups] if m)
            assert "Alice" not in text and "Dave" not in text
            assert "No rated matches on this server yet" in text
            clean_run(d, bot)


async def test_turn_timeouts_hand_the_seat_to_a_computer() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice = d.create_user("alice")
        guild = d.create_guild("Cafe", members=[alice])
        async with bot_in(d, guild, {"TURN_TIMEOUT_SECONDS": "0.5"}) as bot:
            # Five deals: with four computers at the table one deal can be over before the
            # test gets to open the hand on a loaded machine, and the finished table has no
            # Show hand button any more.
            table = await open_table_with_bots(d, alice, deals=5)
            # Alice does nothing: the computer plays for her, then keeps her seat.
            await d.wait_until(lambda: "ran out of time" in d.message(table.id).text(), 15)
            await d.wait_until(lambda: "computer playing" in d.message(table.id).text(), 15)
            # The table is told that a computer took her seat (a message of its own).
            told = await d.wait_for_message(
                lambda m: "ran out of time again" in m.text() and m.id != table.id
            )
            assert told.channel_id == table.channel_id and not told.notified
            since = len(d.message(table.id).versions)
            # Her hand follows a game of half-second turns: not waiting for its picture.
            hand = await open_hand(d, alice, table, picture=False)
            # Said when the hand opens. Its later versions follow the game: she does not
            # play, so a moment later the computer may have her seat again.
            assert any("Welcome back" in version_text(v) for v in hand.versions)
            back = await d.wait_for_message(lambda m: "is back" in m.text())
            assert "Alice" in back.text() and back.channel_id == table.channel_id

            # The table showed her in her seat again. A version of it: she does not play,
            # so two half-second turns later the computer may well have taken it again.
            def shown_back() -> bool:
                versions = d.message(table.id).versions[since:]
                return any("computer playing" not in version_text(v) for v in versions)

            await d.wait_until(shown_back, 5)
            clean_run(d, bot)


async def test_one_person_and_three_computers_play_a_whole_match() -> None:
    """Lobby → start with computers → a whole 1-deal match: a try-out, so no standings
    (nothing on the leaderboard, no statistics), but in the history."""
    from batak.records import loads

    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with bot_in(d, guild) as bot:
            table = await open_table_with_bots(d, alice)
            hand = await open_hand(d, alice, table)
            assert_no_leak(d, hand, bob)  # before any of her cards is played
            await play_out(d, alice, hand)  # to the end of the match
            result = await d.wait_for_message(lambda m: "Winner" in m.text() and not m.ephemeral_to)
            assert d.images(result), "the match result is a picture"

            assert "A try-out (fewer than 3 deals): not rated" in result.text()
            assert "rating" not in result.text().split("A try-out")[0]

            board = await d.slash(bob, "batak leaderboard", wait="response")
            text = " ".join(m.text() for m in [board.response, *board.followups] if m)
            assert "No rated matches on this server yet" in text and "Alice" not in text
            stats = await d.slash(bob, "batak stats", {"user": alice}, wait="response")
            text = " ".join(m.text() for m in [stats.response, *stats.followups] if m)
            assert "has no finished match on this server yet" in text
            history = await d.slash(alice, "batak history", wait="response")
            files = [
                (m, a)
                for m in [history.response, *history.followups]
                if m is not None
                for a in m.attachments
                if a["filename"].endswith(".jsonl")
            ]
            assert files, "history comes with the deal records as JSON Lines"
            msg, att = files[0]
            deals = loads(d.attachment_bytes(msg, att).decode("utf-8"))
            # one deal, or more when it ended level (the tie-break's extra deals); every
            # deal is checked card by card on load
            assert deals and all(deal.is_over for deal in deals)
            clean_run(d, bot)
