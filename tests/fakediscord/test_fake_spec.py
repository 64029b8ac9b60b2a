"""The fake refuses what Discord refuses: every request body against discordspec (400 /
50035 with Discord's errors tree, nothing changed), and the permissions of the thread,
pin and message routes."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from .driver import Driver
from .server import (
    DISCORD_EPOCH_MS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    PIN_MESSAGES,
    SEND_MESSAGES,
    Channel,
)
from .test_fake_protocol import Api, png_bytes, world


@pytest.fixture
async def api(driver: Driver) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as s:
        yield Api(driver, s)


def old_command_list(max_value: int) -> list[dict[str, Any]]:
    return [
        {
            "name": "batak",
            "description": "Play",
            "options": [
                {"type": 1, "name": "new", "description": "New table", "options": []},
                {
                    "type": 1,
                    "name": "watch",
                    "description": "Watch a table",
                    "options": [
                        {
                            "type": 4,
                            "name": "table",
                            "description": "Table",
                            "min_value": 1,
                            "max_value": max_value,
                        }
                    ],
                },
            ],
        }
    ]


def leaf(errors: dict[str, Any], *path: str | int) -> list[dict[str, str]]:
    node = errors
    for key in path:
        node = node[str(key)]
    out: list[dict[str, str]] = node["_errors"]
    return out


@pytest.mark.parametrize("max_value", [999_999_999_999_999_999, 2**53])
async def test_the_old_command_list_is_refused(driver: Driver, api: Api, max_value: int) -> None:
    world(driver)
    app, fake = driver.fake.application_id, driver.fake
    guild = next(iter(fake.guilds))
    for path in (f"/applications/{app}/commands", f"/applications/{app}/guilds/{guild}/commands"):
        status, err, _ = await api.call("PUT", path, old_command_list(max_value))
        assert (status, err["code"], err["message"]) == (400, 50035, "Invalid Form Body")
        assert leaf(err["errors"], 0, "options", 1, "options", 0, "max_value") == [
            {
                "code": "NUMBER_TYPE_MAX",
                "message": "int value should be less than or equal to 9007199254740991.",
            }
        ]
        assert set(err["errors"]) == {"0"}  # nothing else is wrong
    assert fake.global_commands == {} and fake.guild_commands.get(guild, {}) == {}
    assert fake.command_syncs == 0
    assert fake.checked["PUT /applications/{app}/commands"] == 1
    assert fake.checked["PUT /applications/{app}/guilds/{guild}/commands"] == 1
    assert sum(fake.refused.values()) == 2
    assert [(m, r, v.code) for m, r, v in fake.violations] == [
        ("PUT", "PUT /applications/{app}/commands", "NUMBER_TYPE_MAX"),
        ("PUT", "PUT /applications/{app}/guilds/{guild}/commands", "NUMBER_TYPE_MAX"),
    ]
    assert driver.violations()[0].startswith(
        "PUT /applications/{app}/commands: at 0.options.1.options.0: max_value:"
    )
    status, out, _ = await api.call(
        "PUT", f"/applications/{app}/commands", old_command_list(2**53 - 1)
    )
    assert status == 200 and out[0]["name"] == "batak" and "batak" in fake.global_commands


async def test_a_refused_body_changes_nothing(driver: Driver, api: Api) -> None:
    alice, _, channel = world(driver)
    fake = driver.fake
    path = f"/channels/{channel.id}/messages"
    cases: list[tuple[dict[str, Any], list[tuple[str, bytes]] | None, tuple[str | int, ...]]] = [
        ({"content": "x" * 2001}, [("t.png", png_bytes())], ("content",)),  # multipart
        ({"content": "x", "flags": 64}, None, ("flags",)),  # EPHEMERAL on Create Message
        (
            {"content": "x", "embeds": [{"fields": [{"name": "n"}]}]},
            None,
            ("embeds", 0, "fields", 0, "value"),
        ),
        ({"content": 5}, None, ("content",)),
    ]
    for body, files, where in cases:
        status, err, _ = await api.call("POST", path, body, files=files)
        assert (status, err["code"]) == (400, 50035), body
        assert leaf(err["errors"], *where), body
    assert driver.messages(channel) == []
    assert fake.checked["POST /channels/{channel}/messages"] == len(cases)

    rec = fake.new_interaction(2, alice, channel, {"id": "1", "name": "x", "type": 1})
    cb = f"/interactions/{rec.id}/{rec.token}/callback"
    modal = {"type": 9, "data": {"custom_id": "m", "title": "t" * 46, "components": []}}
    status, err, _ = await api.call("POST", cb, modal, auth=False)
    assert (status, err["code"]) == (400, 50035)
    assert set(err["errors"]["data"]) == {"title", "components"}
    assert not rec.acked and rec.modal is None and rec.rejected[-1].code == 50035

    hook = fake.create_webhook(channel)
    async with aiohttp.ClientSession() as s:
        async with s.post(hook, json={"content": "x", "flags": 64}) as r:
            assert r.status == 400 and "flags" in (await r.json())["errors"]
        async with s.post(hook + "?wait=true", json={"content": "x", "flags": 4}) as r:
            assert r.status == 200
    assert [p["content"] for p in fake.webhook_posts] == ["x"]


async def bot_thread(api: Api, channel: Channel) -> dict[str, Any]:
    status, thread, _ = await api.call(
        "POST", f"/channels/{channel.id}/threads", {"name": "table 1", "type": 11}
    )
    assert status == 201
    return thread


async def test_deleting_a_thread_needs_manage_threads_even_for_its_creator(
    driver: Driver, api: Api
) -> None:
    _, _, channel = world(driver)
    thread = await bot_thread(api, channel)
    assert driver.fake.channels[int(thread["id"])].owner_id == driver.bot_user.id
    status, err, _ = await api.call("DELETE", f"/channels/{thread['id']}")
    assert (status, err["code"]) == (403, 50013)
    assert driver.threads(channel) != []
    driver.set_bot_permissions(channel, allow=MANAGE_THREADS)
    status, _, _ = await api.call("DELETE", f"/channels/{thread['id']}")
    assert status == 200 and driver.threads(channel) == []


async def test_archiving_locking_and_unarchiving_a_thread(driver: Driver, api: Api) -> None:
    _, _, channel = world(driver)
    thread = await bot_thread(api, channel)
    t = driver.fake.channels[int(thread["id"])]
    path = f"/channels/{thread['id']}"
    for change in ({"archived": True}, {"locked": True}, {"name": "renamed"}):
        status, err, _ = await api.call("PATCH", path, change)
        assert (status, err["code"]) == (403, 50013), change
    assert not t.archived and not t.locked and t.name == "table 1"

    driver.set_bot_permissions(channel, allow=MANAGE_THREADS)
    status, _, _ = await api.call("PATCH", path, {"archived": True})
    assert status == 200 and t.archived
    status, err, _ = await api.call("PATCH", path, {"name": "renamed"})
    assert (status, err["code"]) == (400, 50083)  # archived: unarchive first

    driver.set_bot_permissions(channel)  # back to the invite's permissions
    status, _, _ = await api.call("PATCH", path, {"archived": False})
    assert status == 200 and not t.archived  # an unlocked thread: SEND_MESSAGES is enough
    driver.set_bot_permissions(channel, deny=SEND_MESSAGES)
    await api.call("PATCH", path, {"archived": True})
    t.archived = True
    status, err, _ = await api.call("PATCH", path, {"archived": False})
    assert (status, err["code"]) == (403, 50013)

    driver.set_bot_permissions(channel, allow=MANAGE_THREADS, deny=SEND_MESSAGES)
    status, _, _ = await api.call("PATCH", path, {"archived": False})
    assert status == 200 and not t.archived  # a moderator unarchives without SEND_MESSAGES
    status, _, _ = await api.call("PATCH", path, {"archived": True, "locked": True})
    assert status == 200 and t.archived and t.locked
    driver.set_bot_permissions(channel)
    status, err, _ = await api.call("PATCH", path, {"archived": False})
    assert (status, err["code"]) == (403, 50013)  # only MANAGE_THREADS unarchives a locked one
    status, err, _ = await api.call("PATCH", path, {"archived": False, "locked": False})
    assert (status, err["code"]) == (403, 50013)
    assert t.archived and t.locked


async def test_pins_need_pin_messages(driver: Driver, api: Api) -> None:
    _, _, channel = world(driver)
    _, msg, _ = await api.call("POST", f"/channels/{channel.id}/messages", {"content": "rules"})
    for route in (
        f"/channels/{channel.id}/messages/pins/{msg['id']}",
        f"/channels/{channel.id}/pins/{msg['id']}",
    ):
        status, err, _ = await api.call("PUT", route)
        assert (status, err["code"]) == (403, 50013), route
    assert driver.message(int(msg["id"])).data["pinned"] is False

    driver.set_bot_permissions(channel, allow=PIN_MESSAGES)
    status, _, _ = await api.call("PUT", f"/channels/{channel.id}/messages/pins/{msg['id']}")
    assert status == 204 and driver.message(int(msg["id"])).data["pinned"] is True
    status, pins, _ = await api.call("GET", f"/channels/{channel.id}/messages/pins")
    assert status == 200 and [p["message"]["id"] for p in pins["items"]] == [msg["id"]]
    assert pins["has_more"] is False and pins["items"][0]["pinned_at"]
    status, old_style, _ = await api.call("GET", f"/channels/{channel.id}/pins")
    assert [m["id"] for m in old_style] == [msg["id"]]
    status, _, _ = await api.call("DELETE", f"/channels/{channel.id}/pins/{msg['id']}")
    assert status == 204 and driver.message(int(msg["id"])).data["pinned"] is False


async def test_deleting_other_peoples_messages_needs_manage_messages(
    driver: Driver, api: Api
) -> None:
    alice, bob, channel = world(driver)
    said = await driver.say(alice, channel, "hello")
    other = await driver.say(bob, channel, "hi")
    _, own, _ = await api.call("POST", f"/channels/{channel.id}/messages", {"content": "mine"})
    status, err, _ = await api.call("DELETE", f"/channels/{channel.id}/messages/{said.id}")
    assert (status, err["code"]) == (403, 50013) and not said.deleted
    status, _, _ = await api.call("DELETE", f"/channels/{channel.id}/messages/{own['id']}")
    assert status == 204  # its own message: no permission needed
    bulk = f"/channels/{channel.id}/messages/bulk-delete"
    status, err, _ = await api.call("POST", bulk, {"messages": [str(said.id), str(other.id)]})
    assert (status, err["code"]) == (403, 50013) and not other.deleted

    driver.set_bot_permissions(channel, allow=MANAGE_MESSAGES)
    two_weeks_ago = int(time.time() * 1000) - DISCORD_EPOCH_MS - 15 * 24 * 3600 * 1000
    old_id = str(two_weeks_ago << 22)
    status, err, _ = await api.call("POST", bulk, {"messages": [str(said.id), old_id]})
    assert (status, err["code"]) == (400, 50034) and not said.deleted
    status, err, _ = await api.call("POST", bulk, {"messages": [str(said.id), str(said.id)]})
    assert (status, err["code"]) == (400, 50035)  # duplicates (the schema's uniqueItems)
    status, _, _ = await api.call("POST", bulk, {"messages": [str(said.id), str(other.id)]})
    assert status == 204 and said.deleted and other.deleted


def test_the_bots_role_has_exactly_the_invite_permissions() -> None:
    """The fake gives the bot's managed role what bot.py's invite link asks for, nothing
    more: an e2e test passes only with the permissions a real server would grant."""
    from bot import INVITE_PERMISSIONS

    from .server import BOT_ROLE_DEFAULT

    assert INVITE_PERMISSIONS.value == BOT_ROLE_DEFAULT
