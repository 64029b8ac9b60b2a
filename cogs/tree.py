"""The command tree: every slash command is checked before it runs, every error of one
is answered once.

Discord's client only offers the declared choices, ranges and user pickers, but the
interaction that reaches the bot is data anyone can write. :class:`BatakTree` compares
each option with the command's declaration before discord.py converts it (a forged
user id would otherwise fail inside discord.py, unanswered), and its ``on_error`` is the
one place a failed command is answered: a specific, translated, private message; a
traceback only in the log, once.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from .service import ServiceError
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
