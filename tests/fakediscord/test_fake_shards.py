"""Sharding in the fake: GET /gateway/bot, IDENTIFY with ``shard``, READY per shard and
every guild's events on the shard ``(guild_id >> 22) % num_shards``, as Discord does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from .driver import Driver
from .server import Guild, shard_of


@pytest_asyncio.fixture
async def sharded() -> AsyncIterator[Driver]:
    async with Driver(shard_count=2) as d:
        yield d


async def identify(
    s: aiohttp.ClientSession, d: Driver, shard: Any
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any], list[dict[str, Any]]]:
    """Connect and IDENTIFY as ``shard``; READY and the GUILD_CREATEs that follow it."""
    ws = await s.ws_connect(d.fake.gateway_url + "?v=10")
    assert (await ws.receive_json())["op"] == 10
    body: dict[str, Any] = {"token": "fake-token", "intents": 1}
    if shard is not None:
        body["shard"] = shard
    await ws.send_json({"op": 2, "d": body})
    ready = await ws.receive_json()
    assert ready["t"] == "READY", ready
    creates = [(await ws.receive_json())["d"] for _ in ready["d"]["guilds"]]
    return ws, ready["d"], creates


def two_guilds(d: Driver) -> tuple[Guild, Guild]:
    alice, bob = d.create_user("alice"), d.create_user("bob")
    return (
        d.create_guild("Zero", members=[alice], shard=0),
        d.create_guild("One", members=[bob], shard=1),
    )


def test_guilds_land_on_the_shard_asked_for(sharded: Driver) -> None:
    for shard in (0, 1, 1, 0, 1):
        g = sharded.create_guild(shard=shard)
        assert shard_of(g.id, 2) == (g.id >> 22) % 2 == shard
    with pytest.raises(ValueError, match="shard must be from 0 to 1"):
        sharded.create_guild(shard=2)


async def test_gateway_bot_recommends_the_shard_count(sharded: Driver) -> None:
    async with (
        aiohttp.ClientSession() as s,
        s.get(
            sharded.url + "/api/v10/gateway/bot", headers={"Authorization": "Bot fake-token"}
        ) as r,
    ):
        body = await r.json()
    assert r.status == 200 and body["shards"] == 2
    assert body["url"] == sharded.fake.gateway_url


async def test_each_shard_gets_ready_and_the_guilds_of_its_shard(sharded: Driver) -> None:
    zero, one = two_guilds(sharded)
    async with aiohttp.ClientSession() as s:
        ws0, ready0, creates0 = await identify(s, sharded, [0, 2])
        ws1, ready1, creates1 = await identify(s, sharded, [1, 2])
        assert ready0["shard"] == [0, 2] and ready1["shard"] == [1, 2]
        assert ready0["guilds"] == [{"id": str(zero.id), "unavailable": True}]
        assert ready1["guilds"] == [{"id": str(one.id), "unavailable": True}]
        assert [g["id"] for g in creates0] == [str(zero.id)]
        assert [g["id"] for g in creates1] == [str(one.id)]
        assert sharded.fake.connected_shards() == {(0, 2), (1, 2)}
        # an interaction in guild One reaches shard 1 only
        bob = sharded.fake.users[next(iter(set(one.members) - {sharded.bot_user.id}))]
        rec = sharded.fake.new_interaction(2, bob, sharded.channel(one), {"name": "x"})
        await sharded.fake.send_interaction(rec)
        got = await ws1.receive_json()
        assert got["t"] == "INTERACTION_CREATE" and got["d"]["guild_id"] == str(one.id)
        # a guild created later goes to its shard only
        late = sharded.create_guild("Late", shard=0)
        await sharded.announce_guild(late)
        got = await ws0.receive_json()
        assert got["t"] == "GUILD_CREATE" and got["d"]["id"] == str(late.id)
        await ws1.send_json({"op": 1, "d": None})
        assert (await ws1.receive_json())["op"] == 11  # nothing else was queued for shard 1
        await ws0.close()
        # shard 0 is gone: guild Zero's interactions cannot be delivered, One's still can
        await sharded.fake.wait_state(lambda: (0, 2) not in sharded.fake.connected_shards(), 5)
        assert not sharded.fake.guild_connected(zero.id) and sharded.fake.guild_connected(one.id)
        await ws1.close()


@pytest.mark.parametrize(
    ("shard", "code"),
    [
        (None, 4011),  # no shard while Discord requires two: Sharding required
        ([0, 1], 4011),  # too few shards
        ([2, 2], 4010),  # shard id not below the count: Invalid shard
        ([-1, 2], 4010),
        ([0, 0], 4010),
        ("0,2", 4010),
        ([0], 4010),
    ],
)
async def test_wrong_shards_are_closed_as_discord_closes_them(
    sharded: Driver, shard: Any, code: int
) -> None:
    async with aiohttp.ClientSession() as s, s.ws_connect(sharded.fake.gateway_url) as ws:
        await ws.receive_json()
        body: dict[str, Any] = {"token": "fake-token", "intents": 1}
        if shard is not None:
            body["shard"] = shard
        await ws.send_json({"op": 2, "d": body})
        msg = await ws.receive()
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == code
    assert sharded.fake.identify_count == 0


async def test_more_shards_than_recommended_are_allowed(sharded: Driver) -> None:
    zero, one = two_guilds(sharded)
    async with aiohttp.ClientSession() as s:
        sessions = [await identify(s, sharded, [i, 4]) for i in range(4)]
        seen = [{g["id"] for g in creates} for _, _, creates in sessions]
        for g in (zero, one):
            assert [str(g.id) in ids for ids in seen].count(True) == 1
            assert str(g.id) in seen[shard_of(g.id, 4)]
        for ws, _, _ in sessions:
            await ws.close()


async def test_an_unsharded_fake_still_takes_an_identify_without_shard(driver: Driver) -> None:
    g = driver.create_guild("Solo")
    async with aiohttp.ClientSession() as s:
        ws, ready, creates = await identify(s, driver, None)
        assert "shard" not in ready and [c["id"] for c in creates] == [str(g.id)]
        assert driver.fake.connected_shards() == {(0, 1)}
        await ws.close()
