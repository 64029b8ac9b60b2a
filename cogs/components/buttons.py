"""Our buttons, and the views that carry them.

A button is only a ``custom_id`` (see :mod:`.codec`) with a label: every click, on a
message sent a second or a month ago, before or after a restart, arrives at one
place, :meth:`cogs.batak_cog.BatakCog.on_interaction`, which answers it exactly once.
discord.py keeps nothing for our views: :class:`Components` says it has nothing to
dispatch, so no view is stored, timed out or dispatched behind the cog's back.
"""

from __future__ import annotations

from typing import Any

import discord

from .codec import hand_id, table_id


class HandButton(discord.ui.Button[Any]):
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
            label=label,
            style=style,
            disabled=disabled,
            custom_id=hand_id(table, seat, move, code),
            row=row,
        )
        self.table = table
        self.seat = seat
        self.move = move
        self.code = code


class TableButton(discord.ui.Button[Any]):
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
            label=label,
            style=style,
            disabled=disabled,
            custom_id=table_id(table, what),
            row=row,
        )
        self.table = table
        self.what = what


class Components(discord.ui.View):
    """Buttons to show, with nothing for discord.py to dispatch or keep.

    discord.py stores a view that ``is_dispatchable()`` (and gives one on an ephemeral
    message a 15-minute timer): with 200 busy tables that was thousands of views. Ours
    are answered by the cog from the ``custom_id`` alone, so there is nothing to store.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view of our buttons."""
    view = Components()
    for item in items:
        view.add_item(item)
    return view


def release(view: discord.ui.View | None) -> None:
    """Let go of a view once its message is sent (ours are never stored; kept for views
    made elsewhere)."""
    if view is not None:
        view.stop()
