"""The live table through the fake Discord: hands that follow the game, bearable pings,
a visible clock that survives a restart, seat changes told, the thread link, rematch.

Every wait here is for a state (a message showing something), with generous limits:
nothing depends on how fast the machine is.
"""

from __future__ import annotations

import re
import time

from tests.bot.e2e_helpers import FAST, choices, ids, one_button
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import BotProcess, running_bot
from tests.fakediscord.server import MessageRecord, User

LIVE = FAST | {"HAND_EDIT_INTERVAL_SECONDS": "0.2", "PING_GRACE_SECONDS": "600"}
STAMP = re.compile(r"<t:(\d+):R>")
SLOW = 60.0  # seconds: a limit for a state to appear, generous for a busy machine


def pings_of(d: Driver, user: User) -> list[MessageRecord]:
    """Every message that ever notified ``user`` (deleted ones too)."""
    return [m for m in d.fake.messages.values() if user.id in m.notified]


def clicks_on(d: Driver, code: str) -> int:
    return sum(1 for r in d.fake.interactions.values() if str(r.name).endswith(":" + code))


async def open_hand(d: Driver, user: User, msg: MessageRecord) -> MessageRecord:
    rec = await d.click(
        user, msg, one_button(d.message(msg.id), ":show"), wait="response", timeout=SLOW
    )
    hand = rec.followups[-1] if rec.followups else rec.response
    assert hand is not None and hand.ephemeral_to == user.id
    return hand


async def lobby_of_four(d: Driver, people: list[User], **options: object) -> MessageRecord:
    await d.slash(people[0], "batak new", {"deals": 1, **options}, wait="response", timeout=SLOW)
    lobby = await d.wait_for_message(lambda m: any(c.endswith(":start") for c in ids(m)), SLOW)
    for p in people[1:]:
        await d.click(p, lobby, "Join", wait="response", timeout=SLOW)
    return lobby


async def start(d: Driver, host: User, lobby: MessageRecord) -> None:
    await d.click(host, lobby, "Start", wait="response", timeout=SLOW)
    await d.wait_until(lambda: any(c.endswith(":show") for c in ids(d.message(lobby.id))), SLOW)


def pick(options: list[str]) -> str:
    return next((c for c in options if c.endswith(":p")), options[0])


async def play_in_open_hands(
    d: Driver, hands: dict[int, MessageRecord], people: list[User], table: MessageRecord
) -> int:
    """Each person plays in the one hand message they opened, only when it shows their
    turn (never Refresh). Returns the number of actions; checks the clock on each turn."""
    actions = 0
    by_id = {p.id: p for p in people}

    def someone_can_act() -> bool:
        over = "is over" in d.message(table.id).text()
        return over or any(choices(d.message(h.id)) for h in hands.values())

    for _ in range(400):
        await d.wait_until(someone_can_act, SLOW)
        if "is over" in d.message(table.id).text():
            break
        for uid, h in hands.items():
            now = d.message(h.id)
            options = choices(now)
            if not options:
                continue
            assert STAMP.search(now.text()), now.text()  # the deadline, in every turn
            await d.click(by_id[uid], now, pick(options), wait="response", timeout=SLOW)
            actions += 1
    return actions


async def test_four_people_play_a_live_deal_in_the_hands_they_opened() -> None:
    async with Driver() as d:
        people = [d.create_user(n) for n in ("alice", "bob", "carol", "dave")]
        guild = d.create_guild("Cafe", members=people)
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)} | LIVE) as bot:
            lobby = await lobby_of_four(d, people)
            # The lobby is in a thread; the channel has one short message linking to it.
            general = d.channel(guild, "general")
            links = [
                m
                for m in d.messages(general, include_ephemeral=False)
                if f"<#{lobby.channel_id}>" in m.text() and m.id != lobby.id
            ]
            assert lobby.channel_id != general.id and len(links) == 1, links
            await start(d, people[0], lobby)
            created_before = len(d.fake.messages)
            hands = {p.id: await open_hand(d, p, lobby) for p in people}
            actions = await play_in_open_hands(d, hands, people, lobby)
            assert actions >= 52
            assert clicks_on(d, "ref") == 0
            # Every hand shows the end of the match, not someone to wait for.
            for h in hands.values():
                await d.wait_until(lambda h=h: "match is over" in d.message(h.id).text(), SLOW)
                assert "Waiting" not in d.message(h.id).text()
            for p in people:
                assert len(pings_of(d, p)) <= 2, [m.text() for m in pings_of(d, p)]
            created = len(d.fake.messages) - created_before
            print(f"\nlive deal: {actions} actions, 0 refreshes, pings", end=" ")
            print([len(pings_of(d, p)) for p in people], f"messages created {created}")
            # The link is edited to the result.
            await d.wait_until(lambda: "is over" in d.message(links[0].id).text(), SLOW)
            # Rematch: the seated people are mentioned once, the presser told they host.
            result = await d.wait_for_message(
                lambda m: any(c.endswith(":rematch") for c in ids(m)), SLOW
            )
            rec = await d.click(people[1], result, "Rematch", wait="response", timeout=SLOW)
            told = " ".join(m.text() for m in [rec.response, *rec.followups] if m is not None)
            assert "you host" in told, told
            call = await d.wait_for_message(lambda m: "rematch at table" in m.text(), SLOW)
            assert all(p.id in call.notified for p in people)
            assert sum(1 for m in d.fake.messages.values() if "rematch at table" in m.text()) == 1
            assert "Bob hosts" in call.text()
            # The old table message's Rematch button names the rematch now, greyed.
            new = call.text().split("rematch at table #")[1].split("!")[0]
            await d.wait_until(
                lambda: (
                    [
                        (b.get("label"), b.get("disabled"))
                        for b in d.message(lobby.id).buttons()
                        if str(b.get("custom_id")).endswith(":rematch")
                    ]
                    == [(f"Rematch open: table #{new}", True)]
                ),
                SLOW,
            )
            check_clean(d, bot)


def table_of(msg: MessageRecord) -> int:
    return int(next(c for c in ids(msg) if c.startswith("bx:")).split(":")[1])


async def bots_table(d: Driver, alice: User) -> MessageRecord:
    await d.slash(alice, "batak new", {"deals": 1}, wait="response", timeout=SLOW)
    lobby = await d.wait_for_message(lambda m: any(c.endswith(":start") for c in ids(m)), SLOW)
    for _ in range(3):
        await d.click(alice, lobby, "Add bot", wait="response", timeout=SLOW)
    await start(d, alice, lobby)
    return lobby


def check_clean(d: Driver, bot: BotProcess) -> None:
    assert d.failed_interactions() == []
    assert d.loading_messages() == []
    assert "Traceback" not in bot.all_output(), bot.all_output()[-4000:]


def streaks(seats: list[int], seat: int) -> int:
    """How many runs of consecutive turns ``seat`` had in the sequence of acting seats."""
    return sum(1 for i, s in enumerate(seats) if s == seat and (i == 0 or seats[i - 1] != seat))


async def acting_seats(bot: BotProcess, table_id: int) -> list[int]:
    import aiosqlite

    async with aiosqlite.connect(bot.database_path) as db:
        rows = await db.execute_fetchall(
            "SELECT seat FROM game_actions WHERE game_id = ? ORDER BY move", (table_id,)
        )
    return [int(r[0]) for r in rows]


async def test_async_table_pings_once_per_turn_streak_as_each_person_chose() -> None:
    async with Driver() as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        guild = d.create_guild("Cafe", owner=alice, members=[bob])
        env = {"DEV_GUILD_ID": str(guild.id)} | LIVE
        async with running_bot(d, env=env) as bot:
            # The pings are tested, not the computers: normal ones (auto would pick hard
            # at an async table).
            rec = await d.slash(
                alice, "batak settings server", {"computer": "normal"}, wait="response"
            )
            assert rec.response is not None and "normal" in rec.response.text().lower()
            lobby = await lobby_of_four(d, [alice, bob], pace="async")
            # Alice wants a ping every turn (even with her hand open), Bob never.
            for who, mode in ((alice, "every"), (bob, "never")):
                rec = await d.slash(
                    who, "batak settings me", {"notifications": mode}, wait="response", timeout=SLOW
                )
                text = " ".join(m.text() for m in [rec.response, *rec.followups] if m)
                assert "Your turn notifications" in text, text
            await start(d, alice, lobby)
            hands = {p.id: await open_hand(d, p, lobby) for p in (alice, bob)}
            await play_in_open_hands(d, hands, [alice, bob], lobby)
            seats = await acting_seats(bot, table_of(d.message(lobby.id)))
            await d.wait_until(lambda: len(pings_of(d, alice)) >= streaks(seats, 0), SLOW)
            assert len(pings_of(d, alice)) == streaks(seats, 0) > 1
            assert pings_of(d, bob) == []
            # Every notice shows the deadline, and points at a message that still exists.
            for m in pings_of(d, alice):
                assert STAMP.search(m.versions[0]["content"])
            assert any(not m.deleted for m in pings_of(d, alice))
            check_clean(d, bot)


async def test_a_person_who_cannot_see_their_turn_is_pinged_once() -> None:
    async with Driver() as d:
        alice = d.create_user("alice")
        guild = d.create_guild("Cafe", members=[alice])
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)} | LIVE) as bot:
            lobby = await bots_table(d, alice)
            # No hand open: her turn is told by a ping, with the deadline and Show hand.
            notice = await d.wait_for_message(lambda m: alice.id in m.notified, SLOW)
            assert STAMP.search(notice.text()) and "Show hand" in notice.text()
            first = await open_hand(d, alice, notice)
            # Opening the hand again: the new message follows the game, the old one says so.
            hand = await open_hand(d, alice, lobby)
            await d.wait_until(lambda: "replaced" in d.message(first.id).text(), SLOW)
            assert d.message(first.id).buttons() == []
            await play_in_open_hands(d, {alice.id: hand}, [alice], lobby)
            # Her hand was open from then on: no more pings for the rest of the deal.
            assert len(pings_of(d, alice)) == 1
            check_clean(d, bot)


async def test_restart_resumes_the_turn_timer_with_the_time_left() -> None:
    async with Driver() as d:
        alice = d.create_user("alice")
        guild = d.create_guild("Cafe", members=[alice])
        # 60 s: a restart on a busy machine stays well within the turn.
        env = {"DEV_GUILD_ID": str(guild.id)} | LIVE | {"TURN_TIMEOUT_SECONDS": "60"}
        async with running_bot(d, env=env) as bot:
            lobby = await bots_table(d, alice)
            notice = await d.wait_for_message(lambda m: alice.id in m.notified, SLOW)
            found = STAMP.search(notice.text())
            assert found
            deadline = int(found.group(1))
            await d.wait_until(lambda: "Alice to bid" in d.message(lobby.id).text(), SLOW)
            await bot.restart()  # SIGKILL mid-turn, start again on the same database
            # Told again after the restart, with the same deadline (not a fresh 60 s).
            again = await d.wait_for_message(
                lambda m: alice.id in m.notified and m.id != notice.id, SLOW
            )
            found = STAMP.search(again.text())
            assert found and abs(int(found.group(1)) - deadline) <= 1, (deadline, again.text())
            # The time-out passes for her (never bids) once the time that was left is up.
            await d.wait_until(lambda: "ran out of time" in d.message(lobby.id).text(), 2 * SLOW)
            assert "passes" in d.message(lobby.id).text()
            assert time.time() >= deadline - 1
            check_clean(d, bot)


async def test_a_server_speaks_its_discord_locale_until_it_chooses_a_language() -> None:
    async with Driver() as d:
        alice, bob = d.create_user("alice"), d.create_user("bob", locale="tr")
        guild = d.create_guild("Kahve", members=[alice, bob], admins=[alice], locale="tr")
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)} | LIVE) as bot:
            rec = await d.slash(alice, "batak new", {"deals": 1}, wait="response", timeout=SLOW)
            lobby = await d.wait_for_message(
                lambda m: any(c.endswith(":start") for c in ids(m)), SLOW
            )
            labels = [b.get("label") for b in lobby.buttons()]
            assert "Otur" in labels and "Başlat" in labels, labels  # public: the server's
            reply = " ".join(m.text() for m in [rec.response, *rec.followups] if m)
            # Alice reads English, and the buttons it names are the ones on the lobby.
            assert reply.startswith("Table #") and "Otur" in reply and "Başlat" in reply, reply
            assert "Join" not in reply
            # Once the server chooses a language, new tables use it.
            await d.slash(alice, "batak settings server", {"language": "en"}, wait="response")
            await d.slash(alice, "batak cancel", wait="response", timeout=SLOW)
            await d.slash(bob, "batak new", {"deals": 1}, wait="response", timeout=SLOW)
            second = await d.wait_for_message(
                lambda m: m.id != lobby.id and any(c.endswith(":start") for c in ids(m)), SLOW
            )
            assert "Join" in [b.get("label") for b in second.buttons()]
            check_clean(d, bot)
