"""The fake refuses what Discord refuses: every request body against discordspec (400 /
50035 with Discord's errors tree, nothing changed)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from .driver import Driver
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
