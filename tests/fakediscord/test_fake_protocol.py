"""The fake's protocol and rules, spoken to directly over HTTP and the websocket (no bot)."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

import aiohttp
import pytest
from PIL import Image

from .driver import Driver
from .server import CREATE_PUBLIC_THREADS, FLAG_EPHEMERAL, MENTION_EVERYONE, Channel, User


class Api:
    """A bare REST client, as discord.py would send requests."""

    def __init__(self, d: Driver, session: aiohttp.ClientSession) -> None:
        self.base = d.url + "/api/v10"
        self.s = session

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        files: list[tuple[str, bytes]] | None = None,
        auth: bool = True,
        params: dict[str, str] | None = None,
    ) -> tuple[int, Any, aiohttp.typedefs.LooseHeaders]:
        headers = {"Authorization": "Bot fake-token"} if auth else {}
        data: Any = None
        if files:
            form = aiohttp.FormData(quote_fields=False)
            form.add_field("payload_json", json.dumps(body or {}))
            for i, (name, blob) in enumerate(files):
                form.add_field(f"files[{i}]", blob, filename=name)
            data = form
        elif body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body)
        async with self.s.request(
            method, self.base + path, data=data, headers=headers, params=params
        ) as r:
            text = await r.text()
            payload = (
                json.loads(text) if r.headers.get("Content-Type") == "application/json" else text
            )
            return r.status, payload, r.headers


@pytest.fixture
async def api(driver: Driver) -> Any:
    async with aiohttp.ClientSession() as s:
        yield Api(driver, s)


def png_bytes(size: tuple[int, int] = (8, 4)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (1, 2, 3)).save(buf, "PNG")
    return buf.getvalue()


def world(d: Driver) -> tuple[User, User, Channel]:
    alice, bob = d.create_user("alice"), d.create_user("bob")
    g = d.create_guild("Cafe", members=[alice, bob])
    return alice, bob, d.channel(g)


async def test_json_content_type_is_exact_and_auth_is_required(driver: Driver, api: Api) -> None:
    status, me, headers = await api.call("GET", "/users/@me")
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert me["id"] == str(driver.bot_user.id) and me["bot"] is True
    status, app, _ = await api.call("GET", "/oauth2/applications/@me")
    assert status == 200 and app["id"] == str(driver.fake.application_id)
    status, _, _ = await api.call("GET", "/users/@me", auth=False)
    assert status == 401
    status, _, _ = await api.call("GET", "/no/such/route")
    assert status == 404 and driver.fake.unhandled == [("GET", "/api/v10/no/such/route")]


async def test_gateway_ready_then_full_guild_create(driver: Driver) -> None:
    _alice, _, channel = world(driver)
    async with aiohttp.ClientSession() as s, s.ws_connect(driver.fake.gateway_url + "?v=10") as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await ws.receive_json())["op"] == 11
        await ws.send_json({"op": 2, "d": {"token": "fake-token", "intents": 1 | 1 << 9}})
        ready = await ws.receive_json()
        assert ready["t"] == "READY" and ready["s"] == 1
        guild = channel.guild_id
        assert ready["d"]["guilds"] == [{"id": str(guild), "unavailable": True}]
        assert ready["d"]["application"]["id"] == str(driver.fake.application_id)
        gc = (await ws.receive_json())["d"]
        assert gc["id"] == str(guild) and gc["member_count"] == 4  # bot, owner, alice, bob
        assert any(r["id"] == str(guild) and r["name"] == "@everyone" for r in gc["roles"])
        assert all("flags" in m and "joined_at" in m for m in gc["members"])
        assert [c["name"] for c in gc["channels"]] == ["general"]
        assert driver.fake.bot_connected


async def test_privileged_intents_are_refused(driver: Driver) -> None:
    async with aiohttp.ClientSession() as s, s.ws_connect(driver.fake.gateway_url) as ws:
        await ws.receive_json()
        await ws.send_json({"op": 2, "d": {"token": "t", "intents": 1 << 15}})
        msg = await ws.receive()
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4014


async def test_command_sync_returns_ids_and_validates(driver: Driver, api: Api) -> None:
    app = driver.fake.application_id
    cmd = {
        "name": "batak",
        "description": "Play",
        "options": [
            {
                "type": 1,
                "name": "new",
                "description": "New table",
                "options": [{"type": 4, "name": "deals", "description": "Deals"}],
            },
        ],
    }
    status, out, _ = await api.call("PUT", f"/applications/{app}/commands", [cmd])
    assert status == 200 and out[0]["id"].isdigit() and out[0]["application_id"] == str(app)
    status, again, _ = await api.call("PUT", f"/applications/{app}/commands", [cmd])
    assert again[0]["id"] == out[0]["id"]  # same name, same id, as on Discord
    bad = [
        {**cmd, "name": "Batak"},
        {**cmd, "description": "x" * 101},
        {
            "name": "x",
            "description": "d",
            "options": [
                {"type": 3, "name": "a", "description": "a"},
                {"type": 3, "name": "b", "description": "b", "required": True},
            ],
        },
    ]
    for b in bad:
        status, err, _ = await api.call("PUT", f"/applications/{app}/commands", [b])
        assert status == 400 and err["code"] == 50035, b
    assert "batak" in driver.fake.global_commands


async def test_message_limits_use_discord_error_codes(driver: Driver, api: Api) -> None:
    _, _, channel = world(driver)
    path = f"/channels/{channel.id}/messages"

    def row(n: int, prefix: str = "b") -> dict[str, Any]:
        return {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": str(i), "custom_id": f"{prefix}{i}"}
                for i in range(n)
            ],
        }

    cases: list[tuple[dict[str, Any], int, int, str]] = [
        ({"content": "x" * 2001}, 400, 50035, "content"),
        (
            {"content": "x", "components": [row(1, f"r{i}") for i in range(6)]},
            400,
            50035,
            "components",
        ),
        ({"content": "x", "components": [row(6)]}, 400, 50035, "components"),
        (
            {
                "content": "x",
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "l", "custom_id": "c" * 101}
                        ],
                    }
                ],
            },
            400,
            50035,
            "components",
        ),
        (
            {
                "content": "x",
                "components": [
                    row(2, "same"),
                    {
                        "type": 1,
                        "components": [{"type": 2, "style": 1, "label": "l", "custom_id": "same0"}],
                    },
                ],
            },
            400,
            50035,
            "components",
        ),
        ({"content": "", "components": []}, 400, 50006, ""),
        ({"content": "x", "embeds": [{"title": "t" * 257}]}, 400, 50035, "embeds"),
    ]
    for body, status_expected, code, key in cases:
        status, err, _ = await api.call("POST", path, body)
        assert (status, err["code"]) == (status_expected, code), (body, err)
        if key:
            assert key in err["errors"]
    status, ok, _ = await api.call("POST", path, {"content": "x" * 2000, "components": [row(5)]})
    assert status == 200 and len(ok["content"]) == 2000


async def test_file_upload_and_size_limit(driver: Driver, api: Api) -> None:
    alice = driver.create_user("alice")
    g = driver.create_guild(members=[alice], attachment_size_limit=1000)
    path = f"/channels/{driver.channel(g).id}/messages"
    body = {"content": "pic", "attachments": [{"id": 0, "filename": "t.png"}]}
    status, msg, _ = await api.call("POST", path, body, files=[("t.png", png_bytes())])
    assert status == 200
    att = msg["attachments"][0]
    assert (att["filename"], att["content_type"], att["width"], att["height"]) == (
        "t.png",
        "image/png",
        8,
        4,
    )
    rec = driver.message(int(msg["id"]))
    assert driver.images(rec)[0].size == (8, 4)
    status, err, _ = await api.call(
        "POST", path, {"content": "big"}, files=[("b.bin", b"x" * 1001)]
    )
    assert (status, err["code"]) == (413, 40005)
    # Edit keeps listed attachments and adds new ones.
    edit = {"attachments": [{"id": att["id"]}, {"id": 0, "filename": "u.png"}]}
    status, edited, _ = await api.call(
        "PATCH", f"{path}/{msg['id']}", edit, files=[("u.png", png_bytes((2, 2)))]
    )
    assert status == 200 and [a["filename"] for a in edited["attachments"]] == ["t.png", "u.png"]
    assert rec.edit_count == 1


async def test_interaction_deadline_double_ack_and_token_expiry(driver: Driver, api: Api) -> None:
    alice, _, channel = world(driver)
    fake = driver.fake

    def new() -> Any:
        return fake.new_interaction(2, alice, channel, {"id": "1", "name": "x", "type": 1})

    rec = new()
    cb = f"/interactions/{rec.id}/{rec.token}/callback"
    status, out, _ = await api.call(
        "POST",
        cb,
        {"type": 4, "data": {"content": "hi"}},
        auth=False,
        params={"with_response": "1"},
    )
    assert status == 200
    assert out["interaction"]["id"] == str(rec.id)
    assert out["resource"]["type"] == 4 and out["resource"]["message"]["content"] == "hi"
    status, err, _ = await api.call(
        "POST", cb, {"type": 4, "data": {"content": "again"}}, auth=False
    )
    assert (status, err["code"]) == (400, 40060)

    late = new()
    driver.clock.advance(3.01)
    status, err, _ = await api.call(
        "POST", f"/interactions/{late.id}/{late.token}/callback", {"type": 5}, auth=False
    )
    assert (status, err["code"]) == (404, 10062)
    assert late.failed and late in driver.failed_interactions()

    # Without with_response=true the callback answers 204 No Content (changelog
    # "Interaction Callback Response"); the acknowledgement is taken all the same.
    plain = new()
    status, body, _ = await api.call(
        "POST",
        f"/interactions/{plain.id}/{plain.token}/callback",
        {"type": 4, "data": {"content": "plain"}},
        auth=False,
    )
    assert (status, body) == (204, "") and plain.acked

    deferred = new()
    status, out, _ = await api.call(
        "POST",
        f"/interactions/{deferred.id}/{deferred.token}/callback",
        {"type": 5, "data": {"flags": FLAG_EPHEMERAL}},
        auth=False,
        params={"with_response": "true"},
    )
    assert out["interaction"]["response_message_loading"] is True
    assert driver.loading_messages() == [deferred.response]
    hook = f"/webhooks/{fake.application_id}/{deferred.token}"
    # A follow-up while "thinking" would edit the loading message: deprecated, refused.
    status, err, _ = await api.call(
        "POST", hook, {"content": "result"}, auth=False, params={"wait": "true"}
    )
    assert (status, err["code"]) == (400, 50035) and "Create Followup Message" in err["message"]
    assert len(fake.deprecated_followups) == 1 and deferred.followup_ids == []
    assert driver.loading_messages() == [deferred.response]  # nothing changed
    status, msg, _ = await api.call(
        "PATCH", f"{hook}/messages/@original", {"content": "result"}, auth=False
    )
    assert status == 200 and msg["id"] == str(deferred.original_message_id)  # replaced
    assert deferred.response is not None and deferred.response.ephemeral_to == alice.id
    assert deferred.response.content == "result" and not driver.loading_messages()
    status, msg2, _ = await api.call(
        "POST", hook, {"content": "more"}, auth=False, params={"wait": "true"}
    )
    assert msg2["id"] != msg["id"] and deferred.followup_ids == [int(msg2["id"])]
    status, _, _ = await api.call(
        "PATCH", f"{hook}/messages/@original", {"content": "edited"}, auth=False
    )
    assert status == 200 and deferred.response.content == "edited"
    driver.clock.advance(15 * 60)
    status, err, _ = await api.call(
        "PATCH", f"{hook}/messages/@original", {"content": "x"}, auth=False
    )
    assert (status, err["code"]) == (401, 50027)


async def test_ephemeral_messages_are_private(driver: Driver, api: Api) -> None:
    alice, bob, channel = world(driver)
    rec = driver.fake.new_interaction(2, alice, channel, {"id": "1", "name": "x", "type": 1})
    await api.call(
        "POST",
        f"/interactions/{rec.id}/{rec.token}/callback",
        {"type": 4, "data": {"content": "secret hand", "flags": 64}},
        auth=False,
    )
    msg = rec.response
    assert msg is not None and msg.ephemeral_to == alice.id
    assert msg in driver.visible_to(alice) and msg not in driver.visible_to(bob)
    assert "secret hand" in driver.seen_text(alice) and "secret hand" not in driver.seen_text(bob)
    status, err, _ = await api.call("GET", f"/channels/{channel.id}/messages/{msg.id}")
    assert (status, err["code"]) == (404, 10008)
    status, err, _ = await api.call(
        "PATCH", f"/channels/{channel.id}/messages/{msg.id}", {"content": "x"}
    )
    assert (status, err["code"]) == (404, 10008)
    status, history, _ = await api.call("GET", f"/channels/{channel.id}/messages")
    assert status == 200 and history == []
    with pytest.raises(PermissionError):
        await driver.click(bob, msg, "anything")


async def test_threads_permissions_and_mentions(driver: Driver, api: Api) -> None:
    alice, bob, channel = world(driver)
    status, msg, _ = await api.call(
        "POST", f"/channels/{channel.id}/messages", {"content": "lobby"}
    )
    status, thread, _ = await api.call(
        "POST", f"/channels/{channel.id}/messages/{msg['id']}/threads", {"name": "table 1"}
    )
    assert status == 201 and thread["id"] == msg["id"] and thread["type"] == 11
    status, err, _ = await api.call(
        "POST", f"/channels/{channel.id}/messages/{msg['id']}/threads", {"name": "again"}
    )
    assert (status, err["code"]) == (400, 160004)
    status, post, _ = await api.call(
        "POST",
        f"/channels/{thread['id']}/messages",
        {
            "content": f"your turn {bob.mention} (not {alice.mention})",
            "allowed_mentions": {"parse": [], "users": [str(bob.id)]},
        },
    )
    assert status == 200
    assert [m.id for m in driver.notifications(bob)] == [int(post["id"])]
    assert driver.notifications(alice) == []
    await api.call(
        "PATCH",
        f"/channels/{thread['id']}/messages/{post['id']}",
        {"content": f"edited {alice.mention}"},
    )
    assert driver.notifications(alice) == []  # edits never ping
    status, _, _ = await api.call(
        "POST", f"/channels/{channel.id}/messages", {"content": "@everyone look"}
    )
    assert status == 200 and len(driver.notifications(alice)) == 0  # no Mention Everyone
    driver.set_bot_permissions(channel, allow=MENTION_EVERYONE)
    status, _, _ = await api.call(
        "POST",
        f"/channels/{channel.id}/messages",
        {"content": "@everyone look", "allowed_mentions": {"parse": []}},
    )
    assert len(driver.notifications(alice)) == 0  # suppressed by allowed_mentions
    status, _, _ = await api.call(
        "POST", f"/channels/{channel.id}/messages", {"content": "@everyone look"}
    )
    assert (len(driver.notifications(alice)), len(driver.notifications(bob))) == (1, 2)
    driver.set_bot_permissions(channel, deny=CREATE_PUBLIC_THREADS)
    status, err, _ = await api.call(
        "POST", f"/channels/{channel.id}/threads", {"name": "t", "type": 11}
    )
    assert (status, err["code"]) == (403, 50013)


async def test_injected_429_and_rate_limit_buckets(driver: Driver, api: Api) -> None:
    _, _, channel = world(driver)
    path = f"/channels/{channel.id}/messages"
    driver.inject_429(r"/channels/\d+/messages$", method="POST", retry_after=0.25)
    status, body, headers = await api.call("POST", path, {"content": "x"})
    assert status == 429 and body["retry_after"] == 0.25 and headers["Via"]
    assert headers["Retry-After"] == "1"
    status, _, _ = await api.call("POST", path, {"content": "x"})
    assert status == 200
    driver.set_rate_limit(r"/channels/\d+/messages/\d+$", limit=2, per=60, method="PATCH")
    mid = (await api.call("POST", path, {"content": "y"}))[1]["id"]
    for remaining in ("1", "0"):
        status, _, headers = await api.call("PATCH", f"{path}/{mid}", {"content": "z"})
        assert status == 200 and headers["X-RateLimit-Remaining"] == remaining
    status, body, headers = await api.call("PATCH", f"{path}/{mid}", {"content": "z"})
    assert status == 429 and body["retry_after"] > 59
    assert driver.fake.served_429 == 2


async def test_wait_for_message_sees_creates_and_edits(driver: Driver, api: Api) -> None:
    _, _, channel = world(driver)
    path = f"/channels/{channel.id}/messages"

    async def later() -> None:
        await asyncio.sleep(0.05)
        _, m, _ = await api.call("POST", path, {"content": "one"})
        await asyncio.sleep(0.05)
        await api.call("PATCH", f"{path}/{m['id']}", {"content": "two"})

    task = asyncio.create_task(later())
    got = await driver.wait_for_message(lambda m: m.content == "two", 2.0, channel=channel)
    await task
    assert got.edit_count == 1 and [v["content"] for v in got.versions] == ["one", "two"]
    with pytest.raises(TimeoutError):
        await driver.wait_for_message(lambda m: m.content == "three", 0.1)


async def test_discord_like_buckets_throttle_per_channel(driver: Driver, api: Api) -> None:
    _, _, channel = world(driver)
    other = driver.create_channel(driver.fake.guilds[channel.guild_id or 0], "other")
    driver.use_discord_rate_limits()
    for _ in range(5):
        status, _, headers = await api.call(
            "POST", f"/channels/{channel.id}/messages", {"content": "x"}
        )
        assert status == 200 and "X-RateLimit-Bucket" in headers
    status, body, _ = await api.call("POST", f"/channels/{channel.id}/messages", {"content": "x"})
    assert status == 429 and 0 < body["retry_after"] <= 5
    status, _, _ = await api.call("POST", f"/channels/{other.id}/messages", {"content": "x"})
    assert status == 200  # buckets are per channel


async def test_slash_payload_shape_and_localized_names(driver: Driver, api: Api) -> None:
    alice, bob, channel = world(driver)
    app = driver.fake.application_id
    cmd = {
        "name": "batak",
        "description": "Play",
        "name_localizations": {"tr": "batak"},
        "options": [
            {
                "type": 1,
                "name": "kick",
                "description": "Kick",
                "name_localizations": {"tr": "at"},
                "options": [
                    {
                        "type": 6,
                        "name": "user",
                        "description": "Who",
                        "required": True,
                        "name_localizations": {"tr": "oyuncu"},
                    },
                    {
                        "type": 4,
                        "name": "deals",
                        "description": "Deals",
                        "min_value": 1,
                        "max_value": 20,
                    },
                ],
            },
        ],
    }
    guild = channel.guild_id or 0
    status, _, _ = await api.call("PUT", f"/applications/{app}/guilds/{guild}/commands", [cmd])
    assert status == 200
    async with aiohttp.ClientSession() as s, s.ws_connect(driver.fake.gateway_url) as ws:
        await ws.receive_json()
        await ws.send_json({"op": 2, "d": {"token": "t", "intents": 1}})
        assert (await ws.receive_json())["t"] == "READY"
        assert (await ws.receive_json())["t"] == "GUILD_CREATE"
        with pytest.raises(ValueError, match="above"):
            await driver.slash(alice, "batak kick", {"user": bob, "deals": 21}, wait="none")
        rec = await driver.slash(alice, "batak at", {"oyuncu": bob, "deals": 2}, wait="none")
        event = await ws.receive_json()
    assert event["t"] == "INTERACTION_CREATE" and event["d"]["id"] == str(rec.id)
    d = event["d"]
    assert d["type"] == 2 and d["token"] == rec.token and d["attachment_size_limit"] > 0
    assert d["member"]["user"]["id"] == str(alice.id) and "permissions" in d["member"]
    assert d["member"]["flags"] == 0 and d["app_permissions"].isdigit()
    data = d["data"]
    assert data["guild_id"] == str(guild) and data["name"] == "batak"
    sub = data["options"][0]
    assert (sub["name"], sub["type"]) == ("kick", 1)
    assert sub["options"] == [
        {"name": "user", "type": 6, "value": str(bob.id)},
        {"name": "deals", "type": 4, "value": 2},
    ]
    assert data["resolved"]["users"][str(bob.id)]["username"] == "bob"
    assert "user" not in data["resolved"]["members"][str(bob.id)]
    assert rec.name == "batak kick"


async def test_refused_response_leaves_the_interaction_open(driver: Driver, api: Api) -> None:
    alice, _, channel = world(driver)
    rec = driver.fake.new_interaction(2, alice, channel, {"id": "1", "name": "x", "type": 1})
    cb = f"/interactions/{rec.id}/{rec.token}/callback"
    status, err, _ = await api.call(
        "POST", cb, {"type": 4, "data": {"content": "x" * 2001}}, auth=False
    )
    assert (status, err["code"]) == (400, 50035) and "content" in err["errors"]["data"]
    status, err, _ = await api.call("POST", cb, {"type": 7, "data": {"content": "x"}}, auth=False)
    assert (status, err["code"]) == (400, 50035)  # no message to update for a slash command
    assert not rec.acked
    status, _, _ = await api.call("POST", cb, {"type": 4, "data": {"content": "ok"}}, auth=False)
    assert status == 204 and rec.acked and len(rec.rejected) == 2


def test_sitecustomize_points_discord_py_at_the_fake(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    code = (
        "import discord.http, discord.gateway, discord.asset; "
        "print(discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY, "
        "discord.asset.Asset.BASE)"
    )
    env = {k: v for k, v in os.environ.items() if k != "BATAK_FAKE_DISCORD"}
    env["PYTHONPATH"] = str(here)
    plain = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert plain.stdout.split() == [
        "https://discord.com/api/v10",
        "wss://gateway.discord.gg/",
        "https://cdn.discordapp.com",
    ]
    env["BATAK_FAKE_DISCORD"] = "http://127.0.0.1:5555"
    faked = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert faked.stdout.split() == [
        "http://127.0.0.1:5555/api/v10",
        "ws://127.0.0.1:5555/gateway",
        "http://127.0.0.1:5555",
    ]
