"""Discord's global rate limit in the fake: 50 requests per second per bot token, shared by
every connection and process of the token, interaction endpoints exempt
(discord-api-docs, topics/rate-limits.mdx › Global Rate Limit).

The fake's clock is stopped in these tests, so "in one second" does not depend on how
fast a busy machine sends the requests."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from .driver import Driver
from .global_limit import GlobalRateLimit, global_route, is_interaction_endpoint
from .server import Clock
from .test_fake_protocol import Api, world


class StoppedClock(Clock):
    """The fake's clock, standing still until a test advances it."""

    def __init__(self) -> None:
        super().__init__()
        self.at = 1000.0

    def now(self) -> float:
        return self.at + self.offset


@pytest_asyncio.fixture
async def stopped() -> AsyncIterator[Driver]:
    async with Driver(clock=StoppedClock()) as d:
        yield d


@pytest_asyncio.fixture
async def api(stopped: Driver) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as s:
        yield Api(stopped, s)


class TokenApi(Api):
    """A REST client of another bot token (or none)."""

    def __init__(self, d: Driver, session: aiohttp.ClientSession, token: str | None) -> None:
        super().__init__(d, session)
        self.token = token

    async def call(self, method: str, path: str, body: Any = None, **kw: Any) -> Any:
        headers = {"Authorization": f"Bot {self.token}"} if self.token else {}
        data = json.dumps(body) if body is not None else None
        if data is not None:
            headers["Content-Type"] = "application/json"
        async with self.s.request(
            method, self.base + path, data=data, headers=headers, params=kw.get("params")
        ) as r:
            return r.status, await r.json(content_type=None), r.headers


async def spend(api: Api, n: int) -> list[int]:
    """``n`` requests that count against the global limit; their statuses."""
    return [(await api.call("GET", "/users/@me"))[0] for _ in range(n)]


async def test_the_51st_request_in_a_second_is_a_global_429(stopped: Driver, api: Api) -> None:
    assert await spend(api, 50) == [200] * 50
    status, body, headers = await api.call("GET", "/users/@me")
    assert status == 429
    assert body == {
        "message": "You are being rate limited.",
        "retry_after": 1.0,
        "global": True,
        "code": 0,
    }
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "1" and headers["Via"]  # discord.py retries with Via
    assert "X-RateLimit-Bucket" not in headers  # not a route's limit
    # every route counts, not only messages; a refused request does not use the budget
    _, _, channel = world(stopped)
    status, _, _ = await api.call("POST", f"/channels/{channel.id}/messages", {"content": "x"})
    assert status == 429 and not stopped.messages(channel)
    assert stopped.fake.served_429_by_scope == {"global": 2}
    stopped.clock.advance(0.4)
    status, body, _ = await api.call("GET", "/users/@me")
    assert status == 429 and body["retry_after"] == pytest.approx(0.6)
    stopped.clock.advance(0.6)  # the window is over: the whole budget is back
    assert await spend(api, 50) == [200] * 50
    assert (await api.call("GET", "/users/@me"))[0] == 429
    limit = stopped.fake.global_limit
    assert limit is not None
    assert limit.counted["GET /users/@me"] == 100
    assert limit.counted["POST /channels/{id}/messages"] == 0
    assert limit.refused == {"GET /users/@me": 3, "POST /channels/{id}/messages": 1}


async def test_two_connections_and_two_processes_of_one_token_share_it(
    stopped: Driver, api: Api
) -> None:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1)) as other:
        second = Api(stopped, other)  # a connection of its own
        assert await spend(api, 20) == [200] * 20
        assert await spend(second, 20) == [200] * 20
        # a process of its own (a second shard process of the same bot)
        code = (
            "import sys, urllib.request, urllib.error\n"
            "ok = 0\n"
            "auth = {'Authorization': 'Bot fake-token'}\n"
            "for _ in range(10):\n"
            "    r = urllib.request.Request(sys.argv[1], headers=auth)\n"
            "    try:\n"
            "        ok += urllib.request.urlopen(r).status == 200\n"
            "    except urllib.error.HTTPError as e:\n"
            "        print(e.code)\n"
            "print(ok)\n"
        )
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            code,
            stopped.url + "/api/v10/users/@me",
            stdout=asyncio.subprocess.PIPE,
        )
        out, _ = await proc.communicate()
        assert out.decode().split() == ["10"]
        status, body, _ = await second.call("GET", "/users/@me")
        assert (status, body["global"]) == (429, True)
        assert (await api.call("GET", "/users/@me"))[0] == 429


async def test_interaction_endpoints_are_not_counted(stopped: Driver, api: Api) -> None:
    alice, _, channel = world(stopped)
    fake = stopped.fake
    hook_url = fake.create_webhook(channel)  # an owner's webhook: not an interaction's
    assert await spend(api, 50) == [200] * 50
    assert (await api.call("GET", "/users/@me"))[0] == 429
    for auth in (False, True):  # as discord.py sends them (no token), and with the token
        rec = fake.new_interaction(2, alice, channel, {"id": "1", "name": "x", "type": 1})
        cb = f"/interactions/{rec.id}/{rec.token}/callback"
        assert (await api.call("POST", cb, {"type": 5}, auth=auth))[0] == 204
        hook = f"/webhooks/{fake.application_id}/{rec.token}"
        for i in range(30):
            status, _, _ = await api.call(
                "PATCH", f"{hook}/messages/@original", {"content": f"e{i}"}, auth=auth
            )
            assert status == 200
        for i in range(30):
            status, msg, _ = await api.call(
                "POST", hook, {"content": f"f{i}"}, auth=auth, params={"wait": "true"}
            )
            assert status == 200
        status, _, _ = await api.call(
            "PATCH", f"{hook}/messages/{msg['id']}", {"content": "edited"}, auth=auth
        )
        assert status == 200
    assert fake.served_429_by_scope == {"global": 1}
    # An owner's webhook is no interaction endpoint: without a token, its requests draw on
    # the budget of the IP address (its own 50).
    async with aiohttp.ClientSession() as s:
        for i in range(51):
            async with s.post(hook_url, json={"content": f"w{i}"}) as r:
                assert r.status == (429 if i == 50 else 204), i
    assert fake.served_429_by_scope == {"global": 2}


async def test_another_token_has_its_own_budget(stopped: Driver, api: Api) -> None:
    async with aiohttp.ClientSession() as s:
        other = TokenApi(stopped, s, "another-bot")
        assert await spend(api, 50) == [200] * 50
        assert (await api.call("GET", "/users/@me"))[0] == 429
        assert await spend(other, 50) == [200] * 50
        assert (await other.call("GET", "/users/@me"))[0] == 429


async def test_the_limit_can_be_turned_off_for_a_flood_that_says_so() -> None:
    async with Driver(clock=StoppedClock(), global_limit=None) as d, aiohttp.ClientSession() as s:
        assert await spend(Api(d, s), 60) == [200] * 60
        assert d.fake.served_429 == 0 and d.fake.global_limit is None


def test_which_paths_are_interaction_endpoints() -> None:
    app = 1234567890123
    assert is_interaction_endpoint("/interactions/99999999/tok/callback", app)
    assert is_interaction_endpoint(f"/webhooks/{app}/tok", app)
    assert is_interaction_endpoint(f"/webhooks/{app}/tok/messages/@original", app)
    assert is_interaction_endpoint(f"/webhooks/{app}/tok/messages/55555555", app)
    assert not is_interaction_endpoint("/webhooks/7777777777/owner-token", app)
    assert not is_interaction_endpoint("/channels/55555555/messages", app)
    assert not is_interaction_endpoint("/interactions/99999999/tok", app)
    assert global_route("POST", "/webhooks/7777777777/owner-token") == (
        "POST /webhooks/{webhook}/{token}"
    )
    assert global_route("PATCH", "/channels/55555555/messages/66666666") == (
        "PATCH /channels/{id}/messages/{id}"
    )


def test_a_window_frees_its_whole_budget_when_it_ends() -> None:
    limit = GlobalRateLimit(limit=3, window=1.0)
    assert [limit.take("a", "r", 0.0) for _ in range(3)] == [None] * 3
    assert limit.take("a", "r", 0.25) == pytest.approx(0.75)
    assert limit.take("b", "r", 0.25) is None  # someone else's budget
    assert [limit.take("a", "r", 1.0) for _ in range(3)] == [None] * 3
    assert limit.take("a", "r", 1.5) == pytest.approx(0.5)
    assert limit.counted == {"r": 7} and limit.refused == {"r": 2}
