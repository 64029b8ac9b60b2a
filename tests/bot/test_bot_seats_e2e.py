"""End-to-end (real bot.py against the fake Discord): seats in a running match.

- a person not seated takes a computer's seat: the host is asked on the table (pinged,
  Approve / Refuse); approved once, refused once, and nobody else may answer;
- the host leaves: the next seated person hosts, and is told;
- a person takes back the seat they left, at once;
- every person leaves: the computers finish the match, recorded unrated (the leaderboard
  does not change; the history says so).
"""

from __future__ import annotations

from tests.bot.e2e_helpers import FAST, PATIENCE, answers, clean_run, ids, open_table_with_bots
from tests.bot.e2e_helpers import answer_text as text_of
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import running_bot
from tests.fakediscord.server import InteractionRecord, MessageRecord

# a match long enough not to end while the test changes its seats: the people never play,
# so it waits at a person's turn (the turn timer is long)
SLOW = FAST | {"TURN_TIMEOUT_SECONDS": "3600"}


def reply(rec: InteractionRecord) -> MessageRecord:
    found = answers(rec)
    assert found, rec
    return found[-1]


def seat_line(d: Driver, table: MessageRecord) -> str:
    return d.message(table.id).text()


async def test_taking_a_computers_seat_host_answers_and_hand_over() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob, carol, dave = (d.create_user(n) for n in ("alice", "bob", "carol", "dave"))
        guild = d.create_guild("Cafe", members=[alice, bob, carol, dave])
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)} | SLOW) as bot:
            await d.slash(alice, "batak new", {"deals": 5}, wait="response")
            lobby = await d.wait_for_message(lambda m: any(c.endswith(":start") for c in ids(m)))
            await d.click(bob, lobby, "Join", wait="response")
            for _ in range(2):
                await d.click(alice, lobby, "Add bot", wait="response")
            await d.click(alice, lobby, "Start", wait="response")
            await d.wait_until(lambda: "Take a seat" in labels(d, lobby), 30)
            table = d.message(lobby.id)

            # Carol: two computers' seats, so she is asked which; the host is asked for it
            pick = reply(await d.click(carol, table, "Take a seat", wait="response"))
            assert pick.ephemeral_to == carol.id and "Which seat?" in pick.text()
            assert {b.get("label") for b in pick.buttons()} == {"Seat 3", "Seat 4"}
            asked = reply(await d.click(carol, pick, "Seat 3", wait="response"))
            assert "The host has been asked" in asked.text()
            request = await d.wait_for_message(lambda m: "asks to take seat 3" in m.text())
            assert request.notified == [alice.id] and not request.ephemeral_to
            # only the host answers
            wrong = reply(await d.click(bob, request, "Approve", wait="response"))
            assert "Only the host" in wrong.text() and wrong.ephemeral_to == bob.id
            done = reply(await d.click(alice, request, "Approve", wait="response"))
            assert "Approved: Carol plays seat 3" in done.text()
            await d.wait_until(lambda: "The host approved" in d.message(request.id).text())
            assert d.message(request.id).buttons() == []  # answered: no buttons left
            await d.wait_for_message(lambda m: "Carol takes seat 3 from the computer" in m.text())
            await d.wait_until(lambda: "Carol" in seat_line(d, table))

            # Dave asks for seat 4 with the command; the host refuses
            rec = await d.slash(dave, "batak sit", {"seat": 4}, wait="response")
            assert "The host has been asked to let you take seat 4" in text_of(rec)
            ask = await d.wait_for_message(lambda m: "Dave asks to take seat 4" in m.text())
            no = reply(await d.click(alice, ask, "Refuse", wait="response"))
            assert "Refused" in no.text()
            await d.wait_until(lambda: "The host refused" in d.message(ask.id).text())
            again = await d.slash(dave, "batak sit", {"seat": 2}, wait="response")
            assert "Seat 2 is not played by a computer" in text_of(again)
            assert "Dave" not in seat_line(d, table)

            # the host leaves: Bob (the next seat) hosts, and is told so (pinged)
            await d.slash(alice, "batak leave", wait="response")
            host = await d.wait_for_message(lambda m: "hosts this table now" in m.text())
            assert f"<@{bob.id}>" in host.text() and host.notified == [bob.id]
            # Alice takes back the seat she left, at once (no host asked)
            back = await d.slash(alice, "batak sit", wait="response")
            assert "You play seat 1 again" in text_of(back)
            await d.wait_for_message(lambda m: "Alice is back and plays seat 1 again" in m.text())
            # Dave asks again; Bob, the host now, is asked
            await d.slash(dave, "batak sit", wait="response")
            ask = await d.wait_for_message(
                lambda m: "Dave asks to take seat 4" in m.text() and bool(m.buttons())
            )
            assert ask.notified == [bob.id]
            clean_run(d, bot)


def labels(d: Driver, msg: MessageRecord) -> list[str]:
    return [str(b.get("label")) for b in d.message(msg.id).buttons()]


async def test_a_match_every_person_left_is_finished_by_the_computers_unrated() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", members=[alice, bob])
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)} | SLOW) as bot:
            before = await d.slash(bob, "batak leaderboard", wait="response")
            assert "No rated matches on this server yet" in text_of(before)
            # three deals: long enough to be rated, so only everyone leaving unrates it
            table = await open_table_with_bots(d, alice, deals=3)
            await d.slash(alice, "batak leave", wait="response")
            await d.wait_for_message(lambda m: "the last person at it" in m.text())
            result = await d.wait_for_message(
                lambda m: "Winner" in m.text() and not m.ephemeral_to, timeout=120
            )
            assert "the computers finished this match: it is not rated" in result.text()
            assert "Take a seat" not in labels(d, table)
            after = await d.slash(bob, "batak leaderboard", wait="response")
            assert text_of(after) == text_of(before)  # nothing rated: the board is the same
            history = await d.slash(alice, "batak history", wait="response")
            assert "unrated: everyone left, the computers finished it" in text_of(history)
            clean_run(d, bot)
