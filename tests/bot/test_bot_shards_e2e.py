"""Shards end to end: the real ``bot.py`` against the fake Discord with two shards.

- one process running both shards (SQLite): tables in servers of each shard play, and the
  operator's port answers ``/healthz`` and ``/metrics`` whose counters move; logs are JSON;
- two processes, one shard each, on one PostgreSQL (only with ``TEST_DATABASE_URL``): one
  is SIGKILLed in the middle of a deal and restarted; both matches finish with every move
  stored once and the leaderboards counting each match once.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

import aiohttp
import pytest

from batak import Match, parse_action
from data import Store
from tables import TableSettings
from tests.bot.e2e_helpers import (
    FAST,
    PATIENCE,
    clean_run,
    open_hand,
    open_table_with_bots,
    play_out,
)
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import BotProcess, running_bot
from tests.fakediscord.server import MessageRecord, User
from tests.postgres import drop_database, fresh_database, server_url

PORT_LINE = re.compile(r"operator port: http://127\.0\.0\.1:(\d+)/metrics")


async def play(d: Driver, user: User, hand: MessageRecord, cards: int | None) -> MessageRecord:
    """``cards`` cards played (None: to the end of the match); the hand then."""
    played = await play_out(d, user, hand, cards)
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
    clean_run(d, *bots)
    assert not d.fake.unhandled


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
            # rated matches (fewer than 3 deals is a try-out, left off the standings)
            t0 = await open_table_with_bots(d, alice, deals=3, channel=d.channel(g0))
            t1 = await open_table_with_bots(d, bob, deals=3, channel=d.channel(g1))
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


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A fresh database on the PostgreSQL of ``TEST_DATABASE_URL``, dropped afterwards."""
    server = server_url()
    if server is None:
        pytest.skip("TEST_DATABASE_URL is not set: no PostgreSQL for two bot processes")
    url = await fresh_database(server)
    try:
        yield url
    finally:
        await drop_database(server, url)


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
            # rated matches (fewer than 3 deals is a try-out, left off the standings)
            t0 = await open_table_with_bots(d, alice, deals=3, channel=d.channel(g0))
            t1 = await open_table_with_bots(d, bob, deals=3, channel=d.channel(g1))
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
                games = await store.games.list_games(guild_id=g.id, status=None, limit=10)
                assert [x.status for x in games] == ["finished"], games
                game = await store.games.load_game(games[0].id)
                assert game.move == len(game.actions)  # one log entry per move, none twice
                ts = TableSettings.from_dict(game.settings)
                match = Match.replay(
                    ts.rule_set(),
                    ts.match_seed(),
                    [parse_action(a) for a in game.actions],
                    ts.first_dealer,
                )
                assert match.is_over
                board = await store.standings.leaderboard(g.id, limit=10)
                # one match counted once: the person once, the computer level once per seat
                by_key = {s.player_key: s for s in board}
                person = next(s for s in board if s.user_id == user.id)
                assert (person.matches, person.deals) == (1, len(match.finished)), board
                assert by_key["bot:normal"].matches == 3 and len(board) == 2, board
        finally:
            await store.close()
