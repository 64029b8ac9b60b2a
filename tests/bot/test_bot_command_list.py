"""The command list as the bot registers it: built like ``CommandTree.sync`` builds it,
every integer bound within Discord's range, checked against Discord's rules before it is
sent (``discordspec``; ``python bot.py --check``), fingerprinted, summed up."""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import BatakBot
from bot import main as bot_main
from cogs.config import load_config
from cogs.i18n import CatalogueTranslator
from cogs.tree import (
    INTEGER_MAX,
    INTEGER_MIN,
    CommandListRefused,
    command_list_problems,
    counted_characters,
    fingerprint,
    payload_summary,
    registration_payload,
    scope_name,
)
from data import Store

Payload = list[dict[str, Any]]


@pytest.fixture
async def bot() -> AsyncIterator[BatakBot]:
    """The real bot with its real commands and translator, offline, on an empty store."""
    store = await Store.open(":memory:", housekeeping=None)
    async with BatakBot(load_config({}, need_token=False), store) as b:
        await b.prepare_commands()
        yield b


def options(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for option in node.get("options") or ():
        yield option
        yield from options(option)


async def test_every_integer_bound_is_one_discord_accepts(bot: BatakBot) -> None:
    """Discord takes integer option values from -(2^53 - 1) to 2^53 - 1 only; one bound
    outside and the whole list is refused (it was: /batak watch table up to 10^18 - 1,
    /batak history match up to 2^53)."""
    assert (INTEGER_MIN, INTEGER_MAX) == (-(2**53) + 1, 2**53 - 1)
    payload = await registration_payload(bot.tree)
    integers = [o for c in payload for o in options(c) if o["type"] == 4]
    assert len(integers) >= 10  # the walk reaches the options inside subcommand groups
    named = {o["name"] for o in integers}
    assert {"table", "match", "deal", "seat", "live_timer"} <= named
    for option in integers:
        for bound in ("min_value", "max_value"):
            if option.get(bound) is not None:
                assert INTEGER_MIN <= option[bound] <= INTEGER_MAX, (option["name"], bound)
    # numbers (type 10) have their own range, -2^53 .. 2^53
    for option in (o for c in payload for o in options(c) if o["type"] == 10):
        for bound in ("min_value", "max_value"):
            if option.get(bound) is not None:
                assert -(2**53) <= option[bound] <= 2**53, (option["name"], bound)


async def test_ids_people_type_are_still_accepted(bot: BatakBot) -> None:
    """The table and match ids: from 1, as high as Discord lets anyone type."""
    payload = await registration_payload(bot.tree)
    subs = {o["name"]: o for o in options(payload[0]) if o["type"] == 1}
    table = next(o for o in subs["watch"]["options"] if o["name"] == "table")
    match = next(o for o in subs["history"]["options"] if o["name"] == "match")
    assert (table["min_value"], table["max_value"]) == (1, INTEGER_MAX)
    assert (match["min_value"], match["max_value"]) == (1, INTEGER_MAX)


async def test_the_payload_is_the_translated_one_sync_sends(bot: BatakBot) -> None:
    payload = await registration_payload(bot.tree)
    assert [c["name"] for c in payload] == ["batak"]
    translator = bot.tree.translator
    assert isinstance(translator, CatalogueTranslator)
    (group,) = bot.tree.get_commands()
    assert payload == [await group.get_translated_payload(bot.tree, translator)]
    assert payload[0]["description_localizations"]["tr"]  # translations are in it
    # without a translator, the plain to_dict of each command (as sync does)
    await bot.tree.set_translator(None)
    plain = await registration_payload(bot.tree)
    assert plain == [group.to_dict(bot.tree)]
    assert "description_localizations" not in plain[0]


async def test_a_server_gets_the_global_list_once_copied(bot: BatakBot) -> None:
    guild = discord.Object(1234)
    assert await registration_payload(bot.tree, guild) == []  # nothing there yet
    bot.tree.copy_global_to(guild=guild)
    assert await registration_payload(bot.tree, guild) == await registration_payload(bot.tree)
    assert scope_name(guild) == "guild:1234" and scope_name(None) == "global"


async def test_the_checked_list_follows_dev_guild_id() -> None:
    store = await Store.open(":memory:", housekeeping=None)
    config = load_config({"DEV_GUILD_ID": "777"}, need_token=False)
    async with BatakBot(config, store) as b:
        await b.prepare_commands()
        guild, payload = await b.checked_command_list()
        assert guild is not None and guild.id == 777
        assert payload == await registration_payload(b.tree, guild)
        assert payload == await registration_payload(b.tree)


def test_fingerprint_is_canonical_and_sees_every_change() -> None:
    payload: Payload = [
        {"name": "a", "description": "Ä", "options": [{"name": "x", "type": 4, "min_value": 1}]}
    ]
    reordered: Payload = [
        {"options": [{"min_value": 1, "type": 4, "name": "x"}], "description": "Ä", "name": "a"}
    ]
    digest = fingerprint(payload)
    assert len(digest) == 64 and int(digest, 16) >= 0
    assert fingerprint(reordered) == digest
    changed = copy.deepcopy(payload)
    changed[0]["options"][0]["min_value"] = 2
    assert fingerprint(changed) != digest
    localized = copy.deepcopy(payload)
    localized[0]["description_localizations"] = {"tr": "Ä"}
    assert fingerprint(localized) != digest
    assert fingerprint([*payload, *payload]) != digest  # the order of commands counts too


def test_characters_count_the_longest_localization_of_each_field() -> None:
    command = {
        "name": "abc",  # 3
        "name_localizations": {"tr": "abcdef"},  # 6 counts instead
        "description": "1234",  # 4
        "options": [
            {
                "name": "sub",  # 3
                "description": "12",  # 2
                "description_localizations": {"de": "1", "fr": "12345"},  # 5 counts
                "type": 1,
                "options": [
                    {
                        "name": "opt",  # 3
                        "description": "d",  # 1
                        "type": 3,
                        "choices": [
                            {"name": "one", "value": "v1"},  # 3 + 2
                            {"name": "x", "name_localizations": {"tr": "xxxx"}, "value": 10},
                        ],  # 4 + 2
                    }
                ],
            }
        ],
    }
    assert counted_characters(command) == 6 + 4 + 3 + 5 + 3 + 1 + 5 + 6


def test_summary_line() -> None:
    payload: Payload = [
        {
            "name": "g",
            "description": "d",
            "name_localizations": {"tr": "g"},
            "options": [
                {"name": "a", "description": "d", "type": 1},
                {
                    "name": "grp",
                    "description": "d",
                    "type": 2,
                    "options": [
                        {
                            "name": "b",
                            "description": "d",
                            "type": 1,
                            "description_localizations": {"de": "d", "fr": "d"},
                        }
                    ],
                },
            ],
        }
    ]
    assert payload_summary(payload) == (
        "1 command, 2 subcommands, 10 of 8,000 characters, 3 locales"
    )
    assert payload_summary([]) == "0 commands, 0 subcommands, 0 of 8,000 characters, 0 locales"


async def test_the_real_summary(bot: BatakBot) -> None:
    payload = await registration_payload(bot.tree)
    line = payload_summary(payload)
    subs = sum(1 for o in options(payload[0]) if o["type"] == 1)
    assert line.startswith(f"1 command, {subs} subcommands, ")
    assert line.endswith(" locales") and counted_characters(payload[0]) <= 8000
    # Discord locales the catalogues cover: tr, de, pt-BR, uk, es-ES, es-419, fr
    assert line.endswith(", 7 locales")


def test_a_plain_tree_without_translator_is_built_like_sync() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)

    @tree.command(name="ping", description="Answers")
    async def ping(interaction: discord.Interaction[discord.Client], n: int) -> None: ...

    payload = asyncio.run(registration_payload(tree))
    assert payload == [ping.to_dict(tree)]
    assert payload[0]["options"][0]["type"] == 4


# -------------------------------------------------------------- Discord's rules, before sync
async def test_the_real_list_keeps_discords_rules(bot: BatakBot) -> None:
    guild, payload = await bot.checked_command_list()
    assert guild is None and payload == await registration_payload(bot.tree)
    assert command_list_problems(payload) == []


async def test_a_bound_discord_refuses_stops_the_list_with_one_line(bot: BatakBot) -> None:
    @bot.tree.command(name="broken", description="Takes too large a number")
    async def broken(
        interaction: discord.Interaction[Any], n: app_commands.Range[int, 1, 2**53]
    ) -> None: ...

    with pytest.raises(CommandListRefused) as refused:
        await bot.checked_command_list()
    (line,) = refused.value.problems
    assert str(refused.value) == line
    assert line.startswith("Cannot register the slash commands: /broken, option 'n'")
    assert str(2**53) in line and "Int53Type" in line  # the value and the rule
    assert "\n" not in line


def test_problems_name_command_option_and_rule_one_line_each() -> None:
    payload: Payload = [
        {
            "name": "g",
            "description": "d",
            "options": [
                {
                    "name": "s",
                    "description": "d",
                    "type": 1,
                    "options": [
                        {"name": "low", "description": "d", "type": 4, "min_value": -(2**53)},
                        {"name": "ok", "description": "d", "type": 4, "max_value": INTEGER_MAX},
                    ],
                },
                {"name": "Bad Name", "description": "d", "type": 1},
            ],
        }
    ]
    problems = command_list_problems(payload)
    assert len(problems) == 2, problems
    low = next(p for p in problems if "'low'" in p)
    assert low.startswith("Cannot register the slash commands: /g s, option 'low'")
    assert str(-(2**53)) in low and "Int53Type" in low
    (bad,) = (p for p in problems if p != low)
    assert bad.startswith("Cannot register the slash commands: /g Bad Name")
    assert "Application Command Naming" in bad  # the documented rule it breaks
    assert all("\n" not in p for p in problems)


def test_bad_arguments_get_the_usage() -> None:
    assert bot_main(["--frobnicate"]) == 2
    assert bot_main(["--check", "extra"]) == 2
    assert bot_main(["--help"]) == 0
