"""Shards end to end: the real ``bot.py`` against the fake Discord with two shards.

- one process running both shards (SQLite): tables in servers of each shard play, and the
  operator's port answers ``/healthz`` and ``/metrics`` whose counters move; logs are JSON;
- two processes, one shard each, on one PostgreSQL (only with ``TEST_DATABASE_URL``): one
  is SIGKILLed in the middle of a deal and restarted; both matches finish with every move
  stored once and the leaderboards counting each match once.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import AsyncIterator

import aiohttp
import pytest

from batak import Match, parse_action
from cogs.service import TableSettings
from data import Store
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import BotProcess, running_bot
from tests.fakediscord.server import Channel, MessageRecord, User

FAST = {
    "BOT_DELAY_SECONDS": "0.02",
    "TABLE_EDIT_INTERVAL_SECONDS": "0.2",
    "TURN_TIMEOUT_SECONDS": "600",
}
# Waits last up to this long before failing: what is checked is behaviour, not speed.
PATIENCE = 60.0
PORT_LINE = re.compile(r"operator port: http://127\.0\.0\.1:(\d+)/metrics")


def ids(msg: MessageRecord) -> list[str]:
    return [str(b.get("custom_id", "")) for b in msg.buttons()]


def choices(msg: MessageRecord) -> list[str]:
    return [
        str(b["custom_id"])
        for b in msg.buttons()
        if not b.get("disabled")
        and str(b.get("custom_id", "")).startswith("bt:")
        and str(b["custom_id"]).split(":")[-1] not in ("hint", "ref")
    ]


async def open_table(d: Driver, host: User, channel: Channel) -> MessageRecord:
    """A one-deal table of the host and three computer players, started; its message."""
    await d.slash(host, "batak new", {"deals": 1}, channel=channel, wait="response")
    lobby = await d.wait_for_message(  # in the channel, or a thread the bot opened
        lambda m: any(c.endswith(":start") for c in ids(m)), visible_to=host
    )
    for _ in range(3):
        await d.click(host, lobby, "Add bot", wait="response")
    await d.click(host, lobby, "Start", wait="response")
    await d.wait_until(lambda: any(c.endswith(":show") for c in ids(d.message(lobby.id))))
    return d.message(lobby.id)


async def open_hand(d: Driver, user: User, table: MessageRecord) -> MessageRecord:
    show = next(c for c in ids(d.message(table.id)) if c.endswith(":show"))
    rec = await d.click(user, table, show, wait="response")
    hand = rec.followups[-1] if rec.followups else rec.response
    assert hand is not None and hand.ephemeral_to == user.id
    return hand


async def play(d: Driver, user: User, hand: MessageRecord, cards: int | None) -> MessageRecord:
    """Pass or bid the least, then play the first legal card, ``cards`` times (None: to
    the end of the match, when the hand has no buttons left)."""
    played = 0
    for _ in range(400):
        if cards is not None and played >= cards:
            break
        msg = d.message(hand.id)
        ref = next((c for c in ids(msg) if c.endswith(":ref")), None)
        if ref is None:
            return msg  # the match is over
        await d.click(user, msg, ref, wait="response")
        options = choices(d.message(hand.id))
        if not options:
            await d.wait_until(lambda: True, 0.05)
            continue
        pick = next((c for c in options if c.endswith(":p")), options[0])
        await d.click(user, d.message(hand.id), pick, wait="response")
        if pick.split(":")[-1].startswith("c"):
            played += 1
    assert cards is None or played >= cards
    return d.message(hand.id)


def operator_port(bot: BotProcess) -> int:
    m = PORT_LINE.search(bot.output())
    assert m, bot.output()[-3000:]
    return int(m.group(1))


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as s, s.get(f"http://127.0.0.1:{port}{path}") as r:
        return r.status, await r.text()


def metric(text: str, name: str) -> float:
    """The value of one sample line of the Prometheus text (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def clean(d: Driver, *bots: BotProcess) -> None:
    assert not d.failed_interactions(), [b.all_output()[-3000:] for b in bots]
    assert not d.fake.unhandled
    for b in bots:
        assert "Traceback" not in b.all_output(), b.all_output()[-6000:]


async def test_two_shards_in_one_process_and_the_operator_port() -> None:
    async with Driver(patience=PATIENCE, shard_count=2) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        g0 = d.create_guild("Zero", members=[alice], shard=0)
        g1 = d.create_guild("One", members=[bob], shard=1)
        env = FAST | {"METRICS_PORT": "0", "LOG_FORMAT": "json"}
        async with running_bot(d, env=env, timeout=60.0) as bot:
            assert d.fake.connected_shards() == {(0, 2), (1, 2)}
            port = operator_port(bot)
            status, body = await get(port, "/metrics")
            assert status == 200
            moves_before = metric(body, 'batak_moves_total{actor="player"}')
            t0 = await open_table(d, alice, d.channel(g0))
            t1 = await open_table(d, bob, d.channel(g1))
            await play(d, alice, await open_hand(d, alice, t0), 2)
            await play(d, bob, await open_hand(d, bob, t1), 2)
            status, body = await get(port, "/metrics")
            assert status == 200
            assert metric(body, "batak_open_tables") == 2
            assert metric(body, 'batak_moves_total{actor="player"}') >= moves_before + 4
            assert metric(body, 'batak_moves_total{actor="bot"}') > 0
            assert metric(body, "batak_interaction_ack_seconds_count") >= 10
            assert metric(body, "batak_discord_rate_limited_total") == 0
            status, body = await get(port, "/healthz")
            health = json.loads(body)
            assert status == 200 and health["ok"], health
            assert health["details"]["gateway"] == "all up: 0, 1"
            assert metric((await get(port, "/metrics"))[1], "batak_database_seconds_count") >= 1
            clean(d, bot)
            lines = [ln for ln in bot.all_output().splitlines() if ln.strip()]
            assert lines and all(json.loads(ln)["level"] for ln in lines), lines[:5]


# ---------------------------------------------------------------------------------------
# two processes on PostgreSQL

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A fresh database on the PostgreSQL of ``TEST_DATABASE_URL``, dropped afterwards."""
    if not TEST_DATABASE_URL:
        pytest.skip("TEST_DATABASE_URL is not set: no PostgreSQL for two bot processes")
    import asyncpg

    name = f"batak_shards_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(TEST_DATABASE_URL)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        base, _, _ = TEST_DATABASE_URL.partition("?")
        yield base.rsplit("/", 1)[0] + "/" + name
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def test_two_processes_on_postgresql_survive_a_sigkill(pg_url: str) -> None:
    async with Driver(patience=PATIENCE, shard_count=2) as d:
        alice, bob = d.create_user("alice"), d.create_user("bob")
        g0 = d.create_guild("Zero", members=[alice], shard=0)
        g1 = d.create_guild("One", members=[bob], shard=1)
        env = FAST | {"METRICS_PORT": "0"}
        async with (
            running_bot(d, env=env, shard_count=2, shard_ids=(0,), database_url=pg_url) as b0,
            running_bot(d, env=env, shard_count=2, shard_ids=(1,), database_url=pg_url) as b1,
        ):
            assert d.fake.connected_shards() == {(0, 2), (1, 2)}
            t0 = await open_table(d, alice, d.channel(g0))
            t1 = await open_table(d, bob, d.channel(g1))
            h0 = await play(d, alice, await open_hand(d, alice, t0), 2)
            h1 = await play(d, bob, await open_hand(d, bob, t1), 3)
            await b1.kill()  # SIGKILL in the middle of bob's deal
            assert d.fake.connected_shards() == {(0, 2)}
            h0 = await play(d, alice, h0, 2)  # shard 0 plays on meanwhile
            await b1.start()
            h1 = await play(d, bob, h1, None)  # bob's old hand works again
            h0 = await play(d, alice, h0, None)
            for user in (alice, bob):
                await d.wait_for_message(
                    lambda m: "Winner" in m.text() and not m.ephemeral_to, visible_to=user
                )
            status, body = await get(operator_port(b0), "/metrics")
            assert status == 200 and metric(body, 'batak_moves_total{actor="player"}') >= 13
            clean(d, b0, b1)

        store = await Store.open(pg_url)
        try:
            for g, user in ((g0, alice), (g1, bob)):
                games = await store.list_games(guild_id=g.id, status=None, limit=10)
                assert [x.status for x in games] == ["finished"], games
                game = await store.load_game(games[0].id)
                assert game.move == len(game.actions)  # one log entry per move, none twice
                ts = TableSettings.from_dict(game.settings)
                match = Match.replay(
                    ts.rule_set(),
                    ts.match_seed(),
                    [parse_action(a) for a in game.actions],
                    ts.first_dealer,
                )
                assert match.is_over
                board = await store.leaderboard(g.id, limit=10)
                # one match counted once: the person once, the computer level once per seat
                by_key = {s.player_key: s for s in board}
                person = next(s for s in board if s.user_id == user.id)
                assert (person.matches, person.deals) == (1, len(match.finished)), board
                assert by_key["bot:normal"].matches == 3 and len(board) == 2, board
        finally:
            await store.close()
