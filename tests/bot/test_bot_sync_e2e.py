"""Registering the command list end to end: the real ``bot.py`` against the fake Discord.

A first start registers the list (one ``PUT .../commands``); a restart with the same
list does not (the fingerprint in the database matches), ``SYNC_COMMANDS=always``
registers at every start, ``never`` not at all, a changed list is registered again.
What the fake receives is exactly the payload the bot checks offline.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import bot as bot_module
from bot import UNCHANGED_COMMANDS, BatakBot
from cogs.config import load_config
from cogs.tree import registration_payload
from data import Store
from tests.bot.e2e_helpers import FAST, PATIENCE
from tests.fakediscord import fixtures
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import running_bot

PUT_GUILD = "PUT /applications/{id}/guilds/{id}/commands"
PUT_GLOBAL = "PUT /applications/{id}/commands"


async def offline_payload() -> list[dict[str, Any]]:
    """The bot's command list built in this process, without Discord or a database."""
    store = await Store.open(":memory:", housekeeping=None)
    async with BatakBot(load_config({}, need_token=False), store) as b:
        await b.prepare_commands()
        return await registration_payload(b.tree)


def test_the_fixture_waits_for_the_line_the_bot_logs() -> None:
    assert fixtures.UNCHANGED_COMMANDS == UNCHANGED_COMMANDS == bot_module.UNCHANGED_COMMANDS


async def test_a_restart_with_the_same_list_does_not_register_it_again() -> None:
    async with Driver() as d:
        alice = d.create_user("alice")
        guild = d.create_guild(members=[alice])
        env = {"DEV_GUILD_ID": str(guild.id)} | FAST
        async with running_bot(d, env=env) as bot:
            assert d.fake.route_counts[PUT_GUILD] == 1
            assert d.fake.route_counts[PUT_GLOBAL] == 0
            assert f"synced 1 command(s) to server {guild.id}" in bot.output()
            # the fake holds exactly what the bot checks offline
            (sent,) = d.fake.guild_commands[guild.id].values()
            (expected,) = await offline_payload()
            assert {k: sent[k] for k in expected} == expected

            await bot.restart()  # SIGKILL, same database, same list
            assert d.fake.route_counts[PUT_GUILD] == 1
            assert UNCHANGED_COMMANDS in bot.output() and "synced" not in bot.output()
            # the commands registered before still work
            r = await d.slash(alice, "batak rules", wait="response", timeout=PATIENCE)
            assert r.acked and not r.failed

            await bot.stop()
            bot.env["SYNC_COMMANDS"] = "always"
            await bot.start()
            assert d.fake.route_counts[PUT_GUILD] == 2
            assert f"synced 1 command(s) to server {guild.id}" in bot.output()

            await bot.stop()
            bot.env["SYNC_COMMANDS"] = "never"
            bot.expect_commands = False  # nothing will come
            await bot.start()
            assert d.fake.route_counts[PUT_GUILD] == 2
            assert "SYNC_COMMANDS=never: the command list is not registered" in bot.output()
            bot.expect_commands = True


async def test_global_commands_and_a_changed_list() -> None:
    async with Driver() as d:
        alice = d.create_user("alice")
        d.create_guild(members=[alice])
        async with running_bot(d, env=FAST) as bot:
            assert d.fake.route_counts[PUT_GLOBAL] == 1
            assert d.fake.route_counts[PUT_GUILD] == 0
            assert "synced 1 global command(s)" in bot.output()
            await bot.stop()
            # The list registered last time is not this one (as after an upgrade that
            # changed a command): its fingerprint in the database differs.
            with sqlite3.connect(bot.database_path) as db:
                keys = [r[0] for r in db.execute("SELECT key FROM bot_state")]
                assert keys == [f"commands:{d.fake.application_id}:global"]
                db.execute("UPDATE bot_state SET value = ?", ("0" * 64,))
            await bot.start()
            assert d.fake.route_counts[PUT_GLOBAL] == 2
            await bot.restart()
            assert d.fake.route_counts[PUT_GLOBAL] == 2
            assert UNCHANGED_COMMANDS in bot.output()
