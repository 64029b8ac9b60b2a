"""Buttons that survive restarts (see :mod:`.codec` for their ``custom_id``).

Both are :class:`discord.ui.DynamicItem`, registered once at start-up, so a
click on a message sent before a restart still reaches the cog.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord
from discord.ext import commands

from .codec import HAND_RE, TABLE_RE, hand_id, table_id


@runtime_checkable
class ButtonHandler(Protocol):
    """Who answers the clicks: the ``/batak`` cog (found by name on the bot)."""

    async def on_hand_button(
        self, interaction: discord.Interaction[Any], table_id: int, seat: int, move: int, code: str
    ) -> None: ...

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, what: str
    ) -> None: ...


def _handler(interaction: discord.Interaction[Any]) -> ButtonHandler:
    client = interaction.client
    cog = client.get_cog("Batak") if isinstance(client, commands.Bot) else None
    if not isinstance(cog, ButtonHandler):
        raise RuntimeError("the Batak cog is not loaded")
    return cog


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HAND_RE):
    """A button of someone's hand (bid, pass, trump, card, hint, refresh)."""

    def __init__(
        self,
        table: int,
        seat: int,
        move: int,
        code: str,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                custom_id=hand_id(table, seat, move, code),
                row=row,
            )
        )
        self.table = table
        self.seat = seat
        self.move = move
        self.code = code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HandButton:
        return cls(
            int(match["table"]),
            int(match["seat"]),
            int(match["move"]),
            match["code"],
            label=getattr(item, "label", None) or "?",
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_hand_button(
            interaction, self.table, self.seat, self.move, self.code
        )


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE_RE):
    """A button of a table's public message (Show hand, lobby buttons, Rematch)."""

    def __init__(
        self,
        table: int,
        what: str,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                custom_id=table_id(table, what),
                row=row,
            )
        )
        self.table = table
        self.what = what

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        return cls(int(match["table"]), match["what"], label=getattr(item, "label", None) or "?")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handler(interaction).on_table_button(interaction, self.table, self.what)


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view holding only dynamic items (so discord.py keeps no state for it)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def release(view: discord.ui.View | None) -> None:
    """Let go of a view once its message is sent.

    Our views hold only dynamic items, which reach the cog through their ``custom_id``
    whatever happens to the view, so discord.py has nothing to keep. But for an
    ephemeral message it gives the view a 15-minute timeout (the life of the
    interaction token) and keeps it, with a sleeping task, until then: with 200 busy
    tables that was ~3,700 hand views alive and ~300 kB of memory per table.
    Stopping it is what the timeout would have done, only now.
    """
    if view is not None:
        view.stop()
