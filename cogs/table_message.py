"""The table's public message: what it shows, and how it is edited.

Its text and buttons are made on the event loop, at once; its picture is drawn in the
drawing worker, which can take seconds on a busy machine. Every edit waits for the
picture, but one: the first after Start. The message still shows the lobby's Join and
Start then, so it is edited twice (:func:`edit_table`): the table's text and buttons at
once, the picture as soon as it is drawn. Which messages show the lobby is known from
this process's own posts and edits (:class:`Lobbies`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

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


async def edit_table(
    edit: Edit, bare: MessagePayload, drawing: pictures.Drawing | None, started: bool
) -> None:
    """Edit the table message: once, with its picture. When the match has just
    ``started`` and its picture is not drawn within :data:`QUICK_PICTURE`, first with the
    table's text and buttons (the lobby's buttons go at once), then with the picture
    once it is drawn (a failed drawing: the text stays)."""
    if started and drawing is not None:
        drawn = asyncio.ensure_future(pictures.draw(drawing, urgent=True))
        done, _ = await asyncio.wait({drawn}, timeout=QUICK_PICTURE)
        if done:  # one edit (through a press's token: cogs.table_tokens)
            await edit(replace(bare, files=files_of(drawn.result())))
            return
        if await edit(bare):
            pic = await drawn
            if pic is not None:
                with mode("urgent"):  # the table's first picture goes before other edits
                    await edit(replace(bare, files=files_of(pic)))
        return
    pic = await pictures.draw(drawing)
    await edit(replace(bare, files=files_of(pic)))
