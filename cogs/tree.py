"""The command tree: every slash command is checked before it runs, every error of one
is answered once.

Discord's client only offers the declared choices, ranges and user pickers, but the
interaction that reaches the bot is data anyone can write. :class:`BatakTree` compares
each option with the command's declaration before discord.py converts it (a forged
user id would otherwise fail inside discord.py, unanswered), and its ``on_error`` is the
one place a failed command is answered: a specific, translated, private message; a
traceback only in the log, once.

The command list as registered: :func:`registration_payload` builds what
``CommandTree.sync`` sends (translations included), :func:`command_list_problems` checks
it against Discord's rules (:mod:`discordspec`) before anything is sent, and
:func:`fingerprint` names it, so a restart registers it only when it changed.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import discordspec
from tables import ServiceError

from .text.words import safe_name

if TYPE_CHECKING:
    from .batak_cog import BatakCog

log = logging.getLogger(__name__)

OptionType = discord.AppCommandOptionType

# What Discord accepts as an INTEGER option's value, and so as its min_value / max_value
# (developers/interactions/application-commands.mdx, "Application Command Option Type"):
# one bound out of this range and the whole registration of the command list is refused.
INTEGER_MIN = -(2**53) + 1
INTEGER_MAX = 2**53 - 1
SNOWFLAKE_TYPES = (
    OptionType.user,
    OptionType.channel,
    OptionType.role,
    OptionType.mentionable,
    OptionType.attachment,
)


class BadOption(app_commands.CheckFailure):
    """An option the command does not declare, or a value it does not accept."""

    def __init__(self, option: str) -> None:
        super().__init__(f"option {option!r} is not valid")
        self.option = option


class UnknownCommand(app_commands.CheckFailure):
    """A command (or subcommand) the bot does not have (any more)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no command {name!r}")
        self.name = name


def _cog(client: discord.Client) -> BatakCog | None:
    get_cog = getattr(client, "get_cog", None)
    cog: BatakCog | None = get_cog("Batak") if get_cog is not None else None
    return cog


def find_command(
    tree: app_commands.CommandTree[Any], data: Any
) -> tuple[app_commands.Command[Any, ..., Any], list[dict[str, Any]]]:
    """The command an interaction names and its own options (through subcommands)."""
    name = str(data.get("name", ""))
    guild_id = data.get("guild_id")
    found: Any = tree.get_command(name)
    if found is None and guild_id is not None:
        found = tree.get_command(name, guild=discord.Object(int(guild_id)))
    options: list[dict[str, Any]] = list(data.get("options") or [])
    while isinstance(found, app_commands.Group):
        sub = next((o for o in options if o.get("type") in (1, 2)), None)
        if sub is None:
            raise UnknownCommand(name)
        name = f"{name} {sub.get('name')}"
        found = found.get_command(str(sub.get("name")))
        options = list(sub.get("options") or [])
    if not isinstance(found, app_commands.Command):
        raise UnknownCommand(name)
    return found, options


def check_options(command: app_commands.Command[Any, ..., Any], options: list[Any]) -> None:
    """Raise :class:`BadOption` unless every option is one the command declares, of its
    type, among its choices and within its range; and every required one is there."""
    seen: set[str] = set()
    for option in options:
        if not isinstance(option, dict):
            raise BadOption("?")
        name = str(option.get("name", ""))
        param = command.get_parameter(name)
        if param is None or name in seen or option.get("type") != param.type.value:
            raise BadOption(name)
        seen.add(name)
        value = option.get("value")
        if not _acceptable(param, value):
            raise BadOption(param.display_name)
    for param in command.parameters:
        if param.required and param.name not in seen:
            raise BadOption(param.display_name)


def _acceptable(param: app_commands.Parameter, value: Any) -> bool:
    kind = param.type
    if kind in SNOWFLAKE_TYPES:
        return isinstance(value, str) and value.isascii() and value.isdigit() and int(value) > 0
    expected: tuple[type, ...] = {
        OptionType.string: (str,),
        OptionType.integer: (int,),
        OptionType.number: (int, float),
        OptionType.boolean: (bool,),
    }.get(kind, ())
    if type(value) not in expected:  # exactly: True is not an integer here
        return False
    # For a string, discord.py keeps its declared min/max length as min/max value.
    size: float = len(value) if isinstance(value, str) else value
    if param.min_value is not None and size < param.min_value:
        return False
    if param.max_value is not None and size > param.max_value:
        return False
    if param.choices:
        return any(value == c.value and type(value) is type(c.value) for c in param.choices)
    return True


class BatakTree(app_commands.CommandTree[Any]):
    """discord.py's tree with the checks above and one error handler."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.type is not discord.InteractionType.application_command:
            return True  # autocomplete only suggests; components never come here
        try:
            command, options = find_command(self, interaction.data or {})
            check_options(command, options)
        except (BadOption, UnknownCommand) as exc:
            await self.on_error(interaction, exc)
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        cog = _cog(interaction.client)
        if cog is None:  # the cog failed to load: nothing sensible to answer with
            log.error("command failed and the Batak cog is not loaded", exc_info=error)
            return
        await cog.command_failed(interaction, error)


def service_error(error: BaseException) -> BaseException:
    """The error to answer with: what a failed check or option means for the person,
    or the exception a command raised."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    if isinstance(error, app_commands.MissingPermissions):
        return ServiceError("error.manage_server")
    if isinstance(error, app_commands.NoPrivateMessage):
        return ServiceError("error.guild_only")
    if isinstance(error, BadOption):
        return ServiceError("error.bad_option", option=error.option)
    if isinstance(error, UnknownCommand | app_commands.CommandNotFound):
        return ServiceError("error.unknown_command")
    if isinstance(error, app_commands.TransformerError):
        return ServiceError("error.bad_option", option=safe_name(str(error.value)))
    if isinstance(error, app_commands.CommandSignatureMismatch):
        return ServiceError("error.unknown_command")
    return error


# ---------------------------------------------------------------------- registration
async def registration_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None = None
) -> list[dict[str, Any]]:
    """The command list ``tree.sync(guild=guild)`` sends to Discord, built the way
    discord.py 2.7.1's ``CommandTree.sync`` builds it: the commands of that scope (global
    ones, or the server's own, e.g. copied there by ``copy_global_to``), each through
    ``get_translated_payload`` when the tree has a translator, else ``to_dict``."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


def fingerprint(payload: list[dict[str, Any]]) -> str:
    """sha256 (hex) of the payload's canonical JSON (sorted keys, no spaces, UTF-8):
    the same for the same command list, whatever order dictionaries were built in."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def scope_name(guild: discord.abc.Snowflake | None) -> str:
    """``global``, or ``guild:<id>`` for one server's commands."""
    return "global" if guild is None else f"guild:{guild.id}"


# Discord counts at most 8,000 characters per command: names, descriptions and choice
# values of the command and everything in it, each field at its longest localization
# (developers/interactions/application-commands.mdx, "Slash Commands").
COMMAND_CHARACTERS = 8000


def _options(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every option under a command, subcommands and groups included, depth first."""
    for option in node.get("options") or ():
        yield option
        yield from _options(option)


def _longest(node: dict[str, Any], field: str) -> int:
    localized = node.get(f"{field}_localizations") or {}
    return max([len(str(node.get(field) or "")), *(len(str(v)) for v in localized.values())])


def counted_characters(command: dict[str, Any]) -> int:
    """A command's size as Discord counts it against :data:`COMMAND_CHARACTERS`."""
    total = _longest(command, "name") + _longest(command, "description")
    for option in _options(command):
        total += _longest(option, "name") + _longest(option, "description")
        for choice in option.get("choices") or ():
            total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def payload_summary(payload: list[dict[str, Any]]) -> str:
    """E.g. ``1 command, 31 subcommands, 4,321 of 8,000 characters, 7 locales`` (the
    characters of the largest command; the locales any name or description is in)."""
    subcommands = sum(
        1 for command in payload for option in _options(command) if option.get("type") == 1
    )
    locales: set[str] = set()
    for node in [*payload, *(o for c in payload for o in _options(c))]:
        for field in ("name_localizations", "description_localizations"):
            locales.update(node.get(field) or {})
        for choice in node.get("choices") or ():
            locales.update(choice.get("name_localizations") or {})
    largest = max((counted_characters(c) for c in payload), default=0)
    return (
        f"{_plural(len(payload), 'command')}, {_plural(subcommands, 'subcommand')}, "
        f"{largest:,} of {COMMAND_CHARACTERS:,} characters, {_plural(len(locales), 'locale')}"
    )


def command_list_problems(payload: list[dict[str, Any]]) -> list[str]:
    """One line per rule of Discord's the command list breaks (none: it may be sent),
    naming the command, the option and the rule."""
    return [
        f"Cannot register the slash commands: {discordspec.describe(v, payload)}"
        for v in discordspec.check_commands(payload)
    ]


class CommandListRefused(Exception):
    """The command list breaks Discord's rules: registering it would be refused whole.
    Its text is one line per broken rule (see :func:`command_list_problems`)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems
