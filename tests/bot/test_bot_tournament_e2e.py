"""End to end through the fake Discord: an 8-person Swiss tournament of 3 rounds (two
tables a round), one person withdrawing after round 1 (a computer takes the seat),
the standings after each round (text and picture), a SIGKILL in the middle of round 2,
the final announcement; and the refusals, each private."""

from __future__ import annotations

import asyncio
import re
import time

from tests.bot.e2e_helpers import (
    PATIENCE,
    answer_text,
    bot_in,
    choices,
    clean_run,
    ids,
    open_hand,
    refresh,
)
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import BotProcess
from tests.fakediscord.server import MessageRecord, User

NAMES = ("ana", "ben", "cem", "dia", "eda", "fil", "gul", "hak")
TABLE_LINE = re.compile(r"^Table (\d+): (.*) → table #(\d+)$", re.M)


def round_tables(text: str) -> dict[int, list[str]]:
    """The tables of a round's message: table id -> the names seated."""
    return {int(m.group(3)): m.group(2).split(", ") for m in TABLE_LINE.finditer(text)}


async def private(d: Driver, rec_text: str, *expected: str) -> None:
    for e in expected:
        assert e in rec_text, rec_text


async def open_round(
    d: Driver, people: dict[str, User], round_no: int
) -> dict[int, tuple[User, MessageRecord]]:
    """The round's tables from its message; each person's hand at their table."""
    msg = await d.wait_for_message(
        lambda m: f"round {round_no} of 3** has begun" in m.text(), timeout=PATIENCE
    )
    tables = round_tables(msg.text())
    assert len(tables) == 2, msg.text()
    hands: dict[int, tuple[User, MessageRecord]] = {}
    for tid, names in tables.items():
        table_msg = await d.wait_for_message(
            lambda m, tid=tid: f"bx:{tid}:show" in ids(m), timeout=PATIENCE
        )
        for name in names:
            user = people.get(name.lower())
            if user is not None:
                hands[user.id] = (user, await open_hand(d, user, table_msg))
    return hands


async def play_some(
    d: Driver,
    hands: dict[int, tuple[User, MessageRecord]],
    done: str,
    bot: BotProcess,
    moves: int | None = None,
) -> int:
    """Everyone with a hand presses a legal button when it is their turn (pass, else the
    first card), until ``done`` is posted (or ``moves`` presses were made)."""
    made = 0
    deadline = time.monotonic() + 420
    while time.monotonic() < deadline:
        if moves is not None and made >= moves:
            return made
        if any(done in m.text() for m in d.messages(include_ephemeral=False)):
            return made
        # the hands follow the game on their own; a refresh only when none shows a turn
        ready = [(u, h) for u, h in hands.values() if choices(d.message(h.id))]
        if not ready:
            for user, hand in hands.values():
                if any(c.endswith(":ref") for c in ids(d.message(hand.id))):
                    await refresh(d, user, hand)
            ready = [(u, h) for u, h in hands.values() if choices(d.message(h.id))]
        for user, hand in ready:
            options = choices(d.message(hand.id))
            if options:
                pick = next((c for c in options if c.endswith(":p")), options[0])
                await d.click(user, hand, pick, wait="response")
                made += 1
        if not ready:
            await asyncio.sleep(0.1)  # a pause (the fake Discord runs on this loop)
    seen = "\n".join(d.message(h.id).text()[:300] for _, h in hands.values())
    public = "\n".join(m.text()[:300] for m in d.messages(include_ephemeral=False)[-6:])
    raise AssertionError(f"{done!r} never came:\n{seen}\n--\n{public}\n{bot.output()[-3000:]}")


async def test_an_eight_person_swiss_tournament() -> None:
    async with Driver(patience=PATIENCE) as d:
        olga = d.create_user("olga")
        people = {n: d.create_user(n) for n in NAMES}
        late = d.create_user("zed")
        guild = d.create_guild("Cafe", members=[*people.values(), late], admins=[olga])
        ana, ben = people["ana"], people["ben"]
        async with bot_in(d, guild) as bot:
            # only Manage Server opens one; nothing open yet, nothing to start
            rec = await d.slash(ana, "batak tournament new", {"deals": 1}, wait="response")
            await private(d, answer_text(rec), "Manage Server")
            assert rec.response is not None and rec.response.ephemeral_to == ana.id
            rec = await d.slash(olga, "batak tournament start", wait="response")
            await private(d, answer_text(rec), "No tournament is open")
            rec = await d.slash(
                olga, "batak tournament new", {"deals": 1, "rounds": 3}, wait="response"
            )
            await private(d, answer_text(rec), "Tournament #1 is open for sign-ups")
            signup = await d.wait_for_message(lambda m: "bz:1:join" in ids(m))
            rec = await d.slash(olga, "batak tournament start", wait="response")
            await private(d, answer_text(rec), "at least 2 players; 0 signed up")
            await d.click(ana, signup, "Sign up", wait="response")
            rec = await d.slash(olga, "batak tournament start", wait="response")
            await private(d, answer_text(rec), "at least 2 players; 1 signed up")
            for user in list(people.values())[1:]:
                rec = await d.click(user, signup, "Sign up", wait="response")
                await private(d, answer_text(rec), "You are signed up for tournament #1")
            rec = await d.click(ana, signup, "Sign up", wait="response")
            await private(d, answer_text(rec), "already signed up")
            await d.wait_until(lambda: "Signed up (8)" in d.message(signup.id).text(), 10)
            rec = await d.slash(ben, "batak tournament start", wait="response")
            await private(d, answer_text(rec), "Only the tournament's organiser")
            rec = await d.slash(
                olga, "batak tournament standings", {"tournament": 9}, wait="response"
            )
            await private(d, answer_text(rec), "There is no tournament #9")

            rec = await d.slash(olga, "batak tournament start", wait="response")
            await private(d, answer_text(rec), "Round 1 of tournament #1 has begun")
            rec = await d.slash(olga, "batak tournament start", wait="response")
            await private(d, answer_text(rec), "Round 1 has already begun")
            # no late sign-up once round 1 began: the button goes, an old press is refused
            await d.wait_until(lambda: "bz:1:join" not in ids(d.message(signup.id)), 10)
            rec = await d.click_custom_id(late, signup, "bz:1:join", wait="response")
            await private(d, answer_text(rec), "Sign-ups are closed")

            # round 1: everyone plays their cards
            hands = await open_round(d, people, 1)
            assert len(hands) == 8
            await play_some(d, hands, "standings after round 1 of 3", bot)
            first = next(
                m
                for m in d.messages(include_ephemeral=False)
                if "standings after round 1 of 3" in m.text()
            )
            assert first.attachments and first.attachments[0]["filename"] == "tournament.png"
            assert first.text().count(" pts · opp. ") == 8

            # round 2: one person withdraws (a computer plays the seat); a SIGKILL mid-round
            hands = await open_round(d, people, 2)
            quitter_id = next(iter(hands))
            quitter, _ = hands.pop(quitter_id)
            rec = await d.click(quitter, signup, "Withdraw", wait="response")
            await private(d, answer_text(rec), "You have withdrawn from tournament #1")
            await play_some(d, hands, "standings after round 2 of 3", bot, moves=6)
            await bot.restart()  # SIGKILL, then start again on the same database
            assert "open table(s) restored" in bot.output(), bot.output()[-3000:]
            await play_some(d, hands, "standings after round 2 of 3", bot)
            second = next(
                m
                for m in d.messages(include_ephemeral=False)
                if "standings after round 2 of 3" in m.text()
            )
            assert "(withdrawn)" in second.text()

            # round 3: seven people, one computer fills a table
            msg = await d.wait_for_message(
                lambda m: "round 3 of 3** has begun" in m.text(), timeout=PATIENCE
            )
            seated = [n for names in round_tables(msg.text()).values() for n in names]
            assert seated.count("computer") == 1 and len(seated) == 8
            assert quitter.global_name not in seated
            hands = await open_round(d, people, 3)
            assert quitter.id not in hands and len(hands) == 7
            await play_some(d, hands, "Tournament #1 is over", bot)
            final = await d.wait_for_message(lambda m: "Tournament #1 is over" in m.text())
            assert final.attachments and "The winner: <@" in final.text()
            found = re.search(r"The winner: <@(\d+)>", final.text())
            assert found is not None
            winner = int(found.group(1))
            assert not final.notified  # nobody pinged
            assert "standings after round 3 of 3" in "\n".join(
                m.text() for m in d.messages(include_ephemeral=False)
            )
            # the winner's statistics say so
            user = next(u for u in people.values() if u.id == winner)
            rec = await d.slash(user, "batak stats", wait="response")
            assert "Tournaments won: 1" in answer_text(rec)
            # once over: no button left on the sign-up message, nothing to withdraw from
            assert ids(d.message(signup.id)) == []
            rec = await d.slash(olga, "batak tournament cancel", {"tournament": 1}, wait="response")
            await private(d, answer_text(rec), "over or cancelled")
            clean_run(d, bot)
