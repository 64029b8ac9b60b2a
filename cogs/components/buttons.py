"""Our buttons, and the views that carry them.

Every button (and menu) the bot sends is a :class:`Press`: a discord.py
:class:`~discord.ui.DynamicItem` whose template is the shape of its family's
``custom_id`` (see :mod:`.codec`). One class both draws the button and receives its
presses: the cog registers the classes once (``bot.add_dynamic_items``), and discord.py
makes a new item of the matching class for each press, on a message sent a second or a
month ago, before or after a restart. Its :meth:`Press.callback` sends the press to
:meth:`cogs.batak_cog.BatakCog.pressed`, which takes the common steps (the place of the
press, the one polite answer to any error) and hands the click to its family's handler.

discord.py keeps nothing for our views: :class:`Components` says it has nothing to
dispatch, so no view is stored, timed out or dispatched behind the cog's back. Where
discord.py stores a view all the same (the first answer to an interaction), a view of
ours holds only dynamic items, so it adds no entry to the view store and takes no
template away when it is released (see :class:`Components`).
"""

from __future__ import annotations

import re
from abc import abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

import discord
from discord.ui import DynamicItem

from .codec import (
    HAND_RE,
    TABLE_RE,
    HandClick,
    TableClick,
    hand_id,
    parse_hand_id,
    parse_table_id,
    table_id,
)

if TYPE_CHECKING:
    from ..batak_cog import BatakCog

C = TypeVar("C")
"""The click of a family: what its ``custom_id`` asks for."""

COG = "Batak"
"""The name of the cog every press is sent to."""

NO_ID = r"(?!)"
"""A template no ``custom_id`` matches: :class:`Press` itself is never registered."""


class Press(DynamicItem[discord.ui.Item[Any]], Generic[C], template=NO_ID):
    """A button (or menu) of one family of ours, drawn or pressed.

    A subclass names its family's template, reads an id (:meth:`read`, only the exact
    ids the bot writes), says which table a click names (:meth:`table_of`) and whether a
    press counts anywhere in that table's server (:attr:`server_wide`), and sends a
    click on to its handler (:meth:`handle`).

    Nothing is decided in :meth:`from_custom_id` or ``interaction_check``: discord.py
    logs an error raised there and leaves the press unanswered. An id that matches the
    template but is not one the bot writes (``007`` for ``7``, ``cth`` for ``cTH``)
    gives an item whose :attr:`click` is None, answered like any unknown button.
    """

    server_wide: ClassVar[bool] = False
    """A press counts anywhere in its table's server, not only where the table is
    (:meth:`~tables.TableService.check_place`)."""

    def __init__(self, item: discord.ui.Item[Any], click: C | None) -> None:
        super().__init__(item)
        self.click: C | None = click
        """What the press asks for; None when the bot never writes this id."""

    @classmethod
    @abstractmethod
    def read(cls, custom_id: str) -> C | None:
        """The click of an id this family writes, or None for any other id."""

    @staticmethod
    @abstractmethod
    def table_of(click: C) -> int | None:
        """The table the click names (None: it names none)."""

    @abstractmethod
    async def handle(self, cog: BatakCog, interaction: discord.Interaction[Any], click: C) -> None:
        """Send the click on to the handler of its family (once the common steps
        passed)."""

    @classmethod
    def received(cls, item: discord.ui.Item[Any], custom_id: str) -> Self:
        """The item for a press of ``item`` (as the pressed message has it), its click
        read from ``custom_id``; the drawing arguments of the class are not needed."""
        press = cls.__new__(cls)
        Press.__init__(press, item, cls.read(custom_id))
        return press

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        return cls.received(item, match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Every press of every family goes to the cog's one entry for presses."""
        client = interaction.client
        get_cog = getattr(client, "get_cog", None)
        cog: BatakCog | None = get_cog(COG) if get_cog is not None else None
        if cog is None:
            raise LookupError(f"no {COG} cog to answer {self.custom_id!r}")
        await cog.pressed(interaction, self)


def matching(
    custom_id: str, families: tuple[type[Press[Any]], ...]
) -> tuple[type[Press[Any]], re.Match[str]] | None:
    """The family whose template matches ``custom_id`` as discord.py matches it (the
    whole id, ``fullmatch``), or None. The templates of our families never overlap."""
    for family in families:
        found = family.__discord_ui_compiled_template__.fullmatch(custom_id)
        if found is not None:
            return family, found
    return None


def dispatched(message: discord.Message | None, component_type: int, custom_id: str) -> bool:
    """Whether discord.py runs the matching dynamic item of a press of ``custom_id``.

    It does so only when the press comes with its message and that message still has a
    component of that type and id (``ViewStore.schedule_dynamic_item_call`` in
    ``discord/ui/view.py`` rebuilds the message's view and returns silently otherwise).
    The same lookup is made here, so the cog answers exactly the presses discord.py
    leaves: a forged id, one sent from another place, one the message no longer has."""
    if message is None:
        return False
    try:
        if message.flags.components_v2:
            view: discord.ui.View | discord.ui.LayoutView = discord.ui.LayoutView.from_message(
                message, timeout=None
            )
        else:
            view = discord.ui.View.from_message(message, timeout=None)
    except (TypeError, ValueError):  # discord.py fails the same way, and answers nothing
        return False
    return any(
        item.type.value == component_type and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


class HandButton(Press[HandClick], template=HAND_RE):
    """A button of someone's hand (bid, pass, trump, card, hint, refresh).

    Pressed anywhere in the table's server: a hand may be opened in any channel."""

    server_wide = True

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
        custom_id = hand_id(table, seat, move, code)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, disabled=disabled, custom_id=custom_id, row=row
        )
        super().__init__(button, self.read(custom_id))

    @classmethod
    def read(cls, custom_id: str) -> HandClick | None:
        return parse_hand_id(custom_id)

    @staticmethod
    def table_of(click: HandClick) -> int:
        return click.table

    async def handle(
        self, cog: BatakCog, interaction: discord.Interaction[Any], click: HandClick
    ) -> None:
        await cog.hands.on_hand_button(interaction, click)


class TableButton(Press[TableClick], template=TABLE_RE):
    """A button of a table's public message (Show hand, lobby buttons, Rematch); it
    counts only in the table's channel or thread."""

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
        custom_id = table_id(table, what)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, disabled=disabled, custom_id=custom_id, row=row
        )
        super().__init__(button, self.read(custom_id))

    @classmethod
    def read(cls, custom_id: str) -> TableClick | None:
        return parse_table_id(custom_id)

    @staticmethod
    def table_of(click: TableClick) -> int:
        return click.table

    async def handle(
        self, cog: BatakCog, interaction: discord.Interaction[Any], click: TableClick
    ) -> None:
        await cog.hands.on_table_button(interaction, click.table, click.what)


class Components(discord.ui.View):
    """Buttons to show, with nothing for discord.py to dispatch or keep.

    discord.py stores a view that ``is_dispatchable()`` (and gives one on an ephemeral
    message a 15-minute timer): with 200 busy tables that was thousands of views. Ours
    are answered through their templates, so there is nothing to store.

    Only our dynamic items are taken (anything else that can be pressed is refused
    here). That keeps the view store as it is even where discord.py stores a view
    regardless (``InteractionResponse.send_message``): ``ViewStore.add_view`` files a
    dynamic item under its template, which is registered already, and nothing under
    the message; and ``ViewStore.remove_view``, on :func:`release`, takes templates away
    only from a view that also had plain items stored, which ours never have.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    def add_item(self, item: discord.ui.Item[Any]) -> Self:
        if item.is_dispatchable() and not isinstance(item, Press):
            raise TypeError(f"{item!r} is not one of our buttons: nothing would answer it")
        return super().add_item(item)


class Prebuilt(Components):
    """Buttons given already in Discord's JSON form (the action rows of a message),
    for an edit: discord.py sends ``to_components()`` and has no item to make, keep
    or dispatch (a press is answered through its family's template all the same)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__()
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self._components


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    """A view of our buttons."""
    view = Components()
    for item in items:
        view.add_item(item)
    return view


def release(view: discord.ui.View | None) -> None:
    """Let go of a view once its message is sent (discord.py stores the view of a first
    answer to an interaction, with a timer on an ephemeral one, until it is stopped)."""
    if view is not None:
        view.stop()
