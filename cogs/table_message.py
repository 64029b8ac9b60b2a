"""The table's public message: what it shows, and how it is edited.

Its text and buttons are made on the event loop, at once; its picture is drawn in the
drawing worker, which can take seconds on a busy machine. Every edit waits for the
picture, but not for long: the first after Start (the message still shows the lobby's
Join and Start) a moment, any other a few seconds. Past that (:func:`edit_table`) the
table's text and buttons go at once, and the picture with a later edit, once it is
drawn (:class:`LatePictures`). Which messages show the lobby is known from this
process's own posts and edits (:class:`Lobbies`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import nullcontext
from dataclasses import replace
from typing import cast

from tables import Table, TableService

from . import pictures
from .budget import mode
from .components import table_view
from .i18n import t
from .payload import MessagePayload
from .pictures import files_of
from .text.summaries import public_summary
from .text.words import clip, table_language

Edit = Callable[[MessagePayload], Awaitable[bool]]
"""Edit the table message to a payload; False when the message was gone."""


def table_parts(
    table: Table, note: str | None, rematch: int | None
) -> tuple[MessagePayload, pictures.Drawing | None]:
    """The table message without its picture (its text and buttons, from the table as it
    is now), and the picture to draw for it. ``note``: a line on what just happened;
    ``rematch``: the table a finished one's rematch opened."""
    lang = table_language(table)
    if table.status == "cancelled":
        return MessagePayload(t("table.cancelled", lang, table=table.id), files=(), view=None), None
    content = clip(public_summary(table, lang, note))
    view = table_view(table, lang, rematch)
    return MessagePayload(content, files=(), view=view), pictures.table_picture(table, lang)


def rematch_of(service: TableService, table: Table) -> int | None:
    """The open rematch of a finished table (its Rematch button then names it)."""
    if not table.finished:
        return None
    for other in service.tables_in(table.game.where_id):
        if other.settings.rematch_of == table.id:
            return other.id
    return None


class Lobbies:
    """The tables whose message shows the lobby, as this process last posted or edited
    it."""

    def __init__(self) -> None:
        self._shown: set[int] = set()

    def starting(self, table_id: int) -> bool:
        """The message of ``table_id`` showed the lobby: its next edit shows the start."""
        return table_id in self._shown

    def shows(self, table: Table) -> bool:
        """The message is about to show ``table`` as it is; True when it showed the lobby
        until now and the match is in play (it has just started)."""
        if table.in_lobby:
            self._shown.add(table.id)
            return False
        if table.id in self._shown:
            self._shown.discard(table.id)
            return table.playing
        return False


QUICK_PICTURE = 0.4
"""Seconds Start waits for the table's first picture before it shows the text alone."""


class LatePictures(pictures.LateDrawings):
    """The table pictures an edit stopped waiting for (:class:`~cogs.pictures.LateDrawings`,
    by table), and which table's next edit goes before others: the first after Start, or
    the one that shows a table's first picture, drawn late."""

    def __init__(self, again: Callable[[int], None], lobbies: Lobbies | None = None) -> None:
        super().__init__(lambda key: again(cast(int, key)))
        self._lobbies = lobbies
        self._first: set[int] = set()

    def urgent(self, table_id: int) -> bool:
        if self._lobbies is not None and self._lobbies.starting(table_id):
            return True
        return table_id in self._first and not self.busy(table_id)

    def first(self, table_id: int, started: bool) -> bool:
        """Whether this edit is to show the table's first picture: it has just
        ``started``, or that picture was drawn late and is ready now."""
        if started:
            return True
        if table_id in self._first and not self.busy(table_id):
            self._first.discard(table_id)
            return True
        return False

    def later(self, table_id: int, first: bool) -> None:
        """The edit went without its picture; ``first``: the table's first one."""
        if first:
            self._first.add(table_id)


async def edit_table(
    edit: Edit,
    bare: MessagePayload,
    drawing: pictures.Drawing | None,
    started: bool,
    late: LatePictures,
    table_id: int,
) -> None:
    """Edit the table message: once, with its picture. When the picture is not drawn
    within :data:`QUICK_PICTURE` (the match has just ``started``) or
    :data:`~cogs.pictures.LATE_PICTURE` (any other edit), the edit shows the table's text
    and buttons at once (the lobby's buttons go; an older picture stays), and ``late``
    asks for another edit when the picture is drawn. A failed drawing: the message goes
    without a picture."""
    first = late.first(table_id, started)
    if drawing is None:
        await edit(bare)
        return
    wait = QUICK_PICTURE if started else pictures.LATE_PICTURE
    pic = await late.draw(table_id, drawing, wait, urgent=first)
    if pic is pictures.LATE:
        # the lobby had no picture; a table's old one stays until the new one is drawn
        if await edit(bare if started else replace(bare, files=None)):
            late.later(table_id, first)
        else:
            late.cancel(table_id)  # gone: posted again, with its own picture
        return
    with mode("urgent") if first else nullcontext():  # a table's first picture goes first
        await edit(replace(bare, files=files_of(pic)))
