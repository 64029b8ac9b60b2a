"""Registering the command list end to end: the real ``bot.py`` against the fake Discord.

A first start registers the list (one ``PUT .../commands``); a restart with the same
list does not (the fingerprint in the database matches), ``SYNC_COMMANDS=always``
registers at every start, ``never`` not at all, a changed list is registered again.
What the fake receives is exactly the payload the bot checks offline; a list that
breaks one of Discord's rules is never sent: the bot stops with one line per rule, and
``python bot.py --check`` says the same without a token, a database or a connection.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import bot as bot_module
from bot import UNCHANGED_COMMANDS, BatakBot
from cogs.config import load_config
from cogs.tree import registration_payload
from data import DEFAULT_PATH, Store
from tests.bot.e2e_helpers import FAST, PATIENCE
from tests.fakediscord import fixtures
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import bot_env, running_bot

LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ ")
PUT_GUILD = "PUT /applications/{id}/guilds/{id}/commands"
PUT_GLOBAL = "PUT /applications/{id}/commands"
ROOT = fixtures.REPO_ROOT


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


# -------------------------------------------------------------- python bot.py --check
def offline_env() -> dict[str, str]:
    """No token, no database setting, nothing of a developer's own."""
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DATABASE_", "BATAK_", "DEV_GUILD", "SHARD_"))
    } | {"PYTHONPATH": str(ROOT)}


def test_check_passes_without_token_database_or_network(tmp_path: Path) -> None:
    default_db_existed = DEFAULT_PATH.exists()
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "--check"],
        cwd=tmp_path,  # no .env here
        env=offline_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert re.fullmatch(
        r"command list OK: 1 command, \d+ subcommands, [\d,]+ of 8,000 characters, "
        r"7 locales\n",
        proc.stdout,
    ), proc.stdout
    assert list(tmp_path.iterdir()) == []  # no database file, nothing written
    assert DEFAULT_PATH.exists() == default_db_existed


BROKEN_BOT = '''\
"""bot.py with one more command, whose integer bound Discord refuses."""
import sys
from typing import Any

import discord
from discord import app_commands

import bot

prepare = bot.BatakBot.prepare_commands


async def prepare_broken(self: bot.BatakBot) -> None:
    await prepare(self)

    @self.tree.command(name="broken", description="Takes too large a number")
    async def broken(
        interaction: discord.Interaction[Any], n: app_commands.Range[int, 1, 2**53]
    ) -> None: ...


bot.BatakBot.prepare_commands = prepare_broken
sys.exit(bot.main())
'''


def test_check_refuses_a_broken_list_with_one_line(tmp_path: Path) -> None:
    script = tmp_path / "broken_bot.py"
    script.write_text(BROKEN_BOT)
    proc = subprocess.run(
        [sys.executable, str(script), "--check"],
        cwd=tmp_path,
        env=offline_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    assert line.startswith("Cannot register the slash commands: /broken, option 'n'")


async def test_a_bot_whose_list_breaks_a_rule_stops_before_sending_it(tmp_path: Path) -> None:
    """The real bot.py with one command more, its bound over Discord's limit: it logs in,
    checks its list, says which rule it breaks in one line, exits 2, sends no list."""
    script = tmp_path / "broken_bot.py"
    script.write_text(BROKEN_BOT)
    async with Driver() as d:
        alice = d.create_user("alice")
        guild = d.create_guild(members=[alice])
        env = bot_env(d, tmp_path, {"DEV_GUILD_ID": str(guild.id)})
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            cwd=str(ROOT),
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 120)
        assert proc.returncode == 2, err.decode()
        # besides its log lines (timestamped), exactly one line: the broken rule
        (line,) = [x for x in err.decode().splitlines() if not LOG_LINE.match(x)]
        assert line.startswith("Cannot register the slash commands: /broken, option 'n'")
        assert "Traceback" not in err.decode() + out.decode()
        assert not [r for r in d.fake.route_counts if r.endswith("/commands")]
        assert d.fake.identify_count == 0  # stopped before connecting to the gateway
