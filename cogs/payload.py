"""Typed message payloads: what a message shows, and the keyword arguments discord.py
takes to send it or to edit it.

A send and an edit differ in what leaving a part out means. A new message has only
what it is given. An edit changes only the fields it sends: attachments that are not
sent are kept, and so are components (Discord's developer documentation,
``developers/resources/message.mdx``, "Edit Message": every field is optional, and the
``attachments`` given are all the message keeps). So :class:`MessagePayload` tells
"leave it as it is" (:data:`KEEP`, or ``files=None``) apart from "take it away"
(``view=None``, ``files=()``).
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import discord


class Keep(enum.Enum):
    """The type of :data:`KEEP`."""

    KEEP = "keep"


KEEP: Final = Keep.KEEP
"""A part of the message an edit leaves as it is (a send: the message has none)."""


@dataclass(frozen=True, slots=True)
class MessagePayload:
    """A message's text, pictures and buttons."""

    content: str
    files: Sequence[discord.File] | None = None
    """The pictures. None: an edit keeps those the message has (a send has none); an
    empty sequence: an edit removes them."""
    view: discord.ui.View | Keep | None = KEEP
    """The buttons. :data:`KEEP`: an edit keeps those the message has; None: an edit
    removes them (a send has none either way)."""

    @property
    def shown_view(self) -> discord.ui.View | None:
        """The view this payload puts on the message, if any."""
        return self.view if isinstance(self.view, discord.ui.View) else None

    def send_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``send`` (a channel's, or an interaction's)."""
        out: dict[str, Any] = {"content": self.content}
        if self.files is not None:
            out["files"] = list(self.files)
        if isinstance(self.view, discord.ui.View):
            out["view"] = self.view
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of an edit (a message's, or an interaction's response)."""
        out: dict[str, Any] = {"content": self.content}
        if self.files is not None:
            out["attachments"] = list(self.files)
        if not isinstance(self.view, Keep):
            out["view"] = self.view
        return out


@dataclass(frozen=True, slots=True)
class Drawn:
    """A private message drawn from a table (a hand, a spectator view): what it shows,
    and what it was drawn from."""

    message: MessagePayload
    picture: Any = None
    """The key of the picture it shows (None: no picture, or none known)."""
    state: Hashable = None
    """What the message was drawn from (:data:`cogs.live.State`); None when it is not
    the plain view of the table (a notice on top): the next change draws it again."""
    late: bool = False
    """Its picture was not drawn in time: the message goes without it, and is edited
    again once it is drawn (:class:`cogs.pictures.LateDrawings`)."""
