"""End-to-end (real bot.py against the fake Discord): a press counts only where its table
lives.

Server A has a table; people of server B press forged copies of its buttons (Join,
Cancel by a Manage Server user of B, Take a seat...) on a message of their own server,
from a direct message, and a member of A presses them from another channel of A. Each
press gets one private refusal, only for the presser; the table (its stored row, seats,
log and messages) and everything anyone else sees stay as they were. A spectator view
may still be opened from any channel of the table's own server.
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import Any

from tests.bot.e2e_helpers import FAST, PATIENCE, answers, clean_run, ids
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import BotProcess, running_bot
from tests.fakediscord.server import Guild, InteractionRecord, MessageRecord, User

# The people never play: the match waits at a person's turn (the turn timer is long).
SLOW = FAST | {"TURN_TIMEOUT_SECONDS": "3600"}
OTHER_SERVER = "is not on this server"
IN_A_DM = "Batak is played in a server, not in direct messages."
OTHER_CHANNEL = "is played in another channel"


def stored(bot: BotProcess, table: int, *, messages: bool = True) -> tuple[Any, ...]:
    """The table as the bot's database holds it: its row, seats, log and messages."""
    db = sqlite3.connect(f"file:{bot.database_path}?mode=ro", uri=True, timeout=5)
    with contextlib.closing(db):
        game = db.execute("SELECT * FROM games WHERE id = ?", (table,)).fetchall()
        seats = db.execute(
            "SELECT * FROM game_seats WHERE game_id = ? ORDER BY seat", (table,)
        ).fetchall()
        log = db.execute(
            "SELECT * FROM game_actions WHERE game_id = ? ORDER BY move", (table,)
        ).fetchall()
        posted = (
            db.execute(
                "SELECT * FROM game_messages WHERE game_id = ? ORDER BY message_id", (table,)
            ).fetchall()
            if messages
            else []
        )
    assert game, table
    return game, seats, log, posted


def person_to_act(bot: BotProcess, table: int) -> bool:
    """A person is to act: nothing at the table moves until they do."""
    db = sqlite3.connect(f"file:{bot.database_path}?mode=ro", uri=True, timeout=5)
    with contextlib.closing(db):
        row = db.execute(
            "SELECT s.user_id FROM games g JOIN game_seats s "
            "ON s.game_id = g.id AND s.seat = g.to_act WHERE g.id = ? AND g.status = 'playing'",
            (table,),
        ).fetchone()
    return row is not None and row[0] is not None


def guild_of(d: Driver, msg: MessageRecord) -> int | None:
    return d.fake.channels[msg.channel_id].guild_id


def public(d: Driver) -> list[tuple[int, str, list[str]]]:
    return [(m.id, m.text(), ids(m)) for m in d.messages(include_ephemeral=False)]


def private(d: Driver, people: list[User]) -> dict[int, list[int]]:
    return {u.id: [m.id for m in d.ephemerals(u)] for u in people}


def one_refusal(d: Driver, rec: InteractionRecord, user: User, words: str) -> None:
    """Answered once, at once, privately to the presser, with the reason."""
    got = answers(rec)
    assert len(got) == 1 and rec.followups == [], got
    (answer,) = got
    assert rec.ack_type == 4 and rec.ephemeral and answer.ephemeral_to == user.id
    assert words in answer.text(), answer.text()


async def lobby_of(d: Driver, guild: Guild) -> MessageRecord:
    return await d.wait_for_message(
        lambda m: any(c.endswith(":start") for c in ids(m)) and guild_of(d, m) == guild.id
    )


async def test_a_press_counts_only_where_its_table_lives() -> None:
    async with Driver(patience=PATIENCE) as d:
        alice, anna, dora = d.create_user("alice"), d.create_user("anna"), d.create_user("dora")
        bob, carol = d.create_user("bob"), d.create_user("carol")
        a = d.create_guild("A", members=[alice, anna, dora])
        other = d.create_channel(a, "other")
        b = d.create_guild("B", members=[carol], admins=[bob])
        everyone = [alice, anna, dora, bob, carol]
        async with running_bot(d, env=SLOW) as bot:  # global commands: both servers have them
            await d.slash(alice, "batak new", {"deals": 1}, wait="response")
            table = await lobby_of(d, a)
            t = int(ids(table)[0].split(":")[1])
            await d.slash(bob, "batak new", {"deals": 1}, wait="response")
            b_lobby = await lobby_of(d, b)  # a message of the bot in server B to press on
            assert int(ids(b_lobby)[0].split(":")[1]) != t
            # A message of the bot in another channel of A (a public answer there).
            board = await d.slash(alice, "batak leaderboard", channel=other, wait="response")
            here = board.response
            assert here is not None and here.channel_id == other.id

            async def refused(
                user: User, custom_id: str, words: str, *, where: str, stored_too: bool = True
            ) -> None:
                before = stored(bot, t, messages=stored_too)
                seen, mine = public(d), private(d, [u for u in everyone if u is not user])
                own = len(d.ephemerals(user))
                if where == "B":
                    rec = await d.click_custom_id(user, b_lobby, custom_id, wait="response")
                elif where == "DM":
                    dm = d.dm_channel(user)
                    rec = await d.click_custom_id_in(user, dm, custom_id, wait="response")
                else:
                    rec = await d.click_custom_id_in(
                        user, other, custom_id, message=here, wait="response"
                    )
                one_refusal(d, rec, user, words)
                assert stored(bot, t, messages=stored_too) == before, custom_id
                assert private(d, [u for u in everyone if u is not user]) == mine
                assert len(d.ephemerals(user)) == own + 1
                if stored_too:  # a quiet lobby: not one public message changed
                    assert public(d) == seen, custom_id

            # The lobby: joining, cancelling, starting, the rules panel, from elsewhere.
            await refused(carol, f"bx:{t}:join", OTHER_SERVER, where="B")
            await refused(bob, f"bx:{t}:cancel", OTHER_SERVER, where="B")  # B's manager
            await refused(bob, f"bx:{t}:start", OTHER_SERVER, where="B")
            await refused(carol, f"bh:{t}:rules", OTHER_SERVER, where="B")
            await refused(carol, f"bx:{t}:join", IN_A_DM, where="DM")
            await refused(bob, f"bx:{t}:cancel", IN_A_DM, where="DM")
            await refused(dora, f"bx:{t}:join", OTHER_CHANNEL, where="A#other")
            assert "carol" not in d.message(table.id).text()

            # At the table itself the same button works.
            joined = await d.click(dora, table, "Join", wait="response")
            assert "You sit in seat 2." in answers(joined)[0].text()
            for _ in range(2):
                await d.click(alice, table, "Add bot", wait="response")
            await d.click(alice, table, "Start", wait="response")
            await d.wait_until(lambda: f"bs:{t}:sit" in ids(d.message(table.id)), 30)
            await d.wait_until(lambda: person_to_act(bot, t), 30)

            # In play: taking a computer's seat, cancelling, from elsewhere. (Turn notices
            # may still be posted for the person to act, so messages are checked by what
            # they say, the store's message list aside.)
            start = max(m.id for m in d.messages())
            await refused(carol, f"bs:{t}:sit", OTHER_SERVER, where="B", stored_too=False)
            await refused(bob, f"bx:{t}:cancel", OTHER_SERVER, where="B", stored_too=False)
            await refused(carol, f"bs:{t}:s2", OTHER_SERVER, where="B", stored_too=False)
            await refused(carol, f"bs:{t}:sit", IN_A_DM, where="DM", stored_too=False)
            await refused(anna, f"bs:{t}:sit", OTHER_CHANNEL, where="A#other", stored_too=False)
            rec = await d.slash(carol, "batak watch", {"table": t}, wait="response")
            one_refusal(d, rec, carol, OTHER_SERVER)
            later = [m for m in d.messages(include_ephemeral=False) if m.id > start]
            assert not any("asks to take seat" in m.text() for m in later)
            assert all(guild_of(d, m) == a.id for m in later)  # only the table's own notices
            now = d.message(table.id)
            assert f"bs:{t}:sit" in ids(now) and f"bx:{t}:show" in ids(now)
            for version in now.versions:
                text = str(version.get("content") or "")
                assert "carol" not in text and "anna" not in text and "cancelled" not in text

            # A spectator view opens from any channel of the table's server.
            watch = await d.slash(anna, "batak watch", {"table": t}, channel=other, wait="response")
            view = answers(watch)[-1]
            assert view.ephemeral_to == anna.id and f"Watching table #{t}" in view.text()
            clean_run(d, bot)
