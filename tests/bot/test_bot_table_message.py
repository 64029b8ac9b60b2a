"""The table message's edits: after Start the text first and the picture once drawn; one
edit with its picture at every other time."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from batak import Match, preset
from cogs import pictures, table_message
from cogs.payload import MessagePayload
from cogs.table_message import Lobbies, edit_table, table_parts
from tests.bot.test_bot_button_sets import table_of


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Drawings are not made in a worker here: each gives a small picture at once (the
    names of those drawn are listed)."""
    names: list[str] = []

    async def draw(
        drawing: pictures.Drawing | None, *, urgent: bool = False
    ) -> pictures.Picture | None:
        if drawing is None:
            return None
        names.append(drawing.filename + (" (urgent)" if urgent else ""))
        return pictures.Picture(drawing.filename, b"png", drawing.description)

    monkeypatch.setattr(table_message.pictures, "draw", draw)
    return names


class Message:
    """The table message as the edits leave it."""

    def __init__(self, gone: bool = False) -> None:
        self.edits: list[dict[str, Any]] = []
        self.gone = gone

    async def edit(self, payload: MessagePayload) -> bool:
        if self.gone:
            return False
        self.edits.append(payload.edit_kwargs())
        return True


def lobby_buttons(edit: dict[str, Any]) -> list[str]:
    view = edit["view"]
    return [str(getattr(i, "item", i).custom_id).split(":")[-1] for i in view.children]


async def test_start_edits_the_text_first_then_the_picture(
    drawn: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture not drawn at once: the text (the lobby's buttons gone), then the picture."""
    quick = table_message.pictures.draw

    async def slow(drawing: pictures.Drawing | None, *, urgent: bool = False) -> Any:
        await asyncio.sleep(0.05)
        return await quick(drawing, urgent=urgent)

    monkeypatch.setattr(table_message.pictures, "draw", slow)
    monkeypatch.setattr(table_message, "QUICK_PICTURE", 0.01)
    lobbies, message = Lobbies(), Message()
    lobby = table_of(None, "lobby")
    bare, drawing = table_parts(lobby, None, None)
    await edit_table(message.edit, bare, drawing, lobbies.shows(lobby))
    assert [e["attachments"] for e in message.edits] == [[]]  # the lobby: no picture
    assert "start" in lobby_buttons(message.edits[0])
    assert lobbies.starting(lobby.id)  # its next edit goes before others (cogs.budget)

    started = table_of(Match(preset("standard"), seed=1))
    bare, drawing = table_parts(started, None, None)
    await edit_table(message.edit, bare, drawing, lobbies.shows(started))
    text, picture = message.edits[1:]
    assert "Deal 1 of" in text["content"] and "start" not in lobby_buttons(text)
    assert "show" in lobby_buttons(text) and text["attachments"] == []
    assert picture["content"] == text["content"] and len(picture["attachments"]) == 1
    assert drawn == ["batak-table-9.png (urgent)"]  # before the other pictures waiting
    assert not lobbies.starting(started.id)

    # A move: one edit, with its picture.
    bare, drawing = table_parts(started, None, None)
    await edit_table(message.edit, bare, drawing, lobbies.shows(started))
    assert len(message.edits) == 4 and len(message.edits[3]["attachments"]) == 1


async def test_a_start_drawn_at_once_is_one_edit(drawn: list[str]) -> None:
    """One request of Discord's global limit instead of two when the picture is quick."""
    lobbies, message = Lobbies(), Message()
    lobby = table_of(None, "lobby")
    await edit_table(message.edit, *table_parts(lobby, None, None), lobbies.shows(lobby))
    started = table_of(Match(preset("standard"), seed=1))
    bare, drawing = table_parts(started, None, None)
    await edit_table(message.edit, bare, drawing, lobbies.shows(started))
    assert len(message.edits) == 2  # the lobby, then the start with its picture
    start = message.edits[1]
    assert "Deal 1 of" in start["content"] and "start" not in lobby_buttons(start)
    assert len(start["attachments"]) == 1 and drawn == ["batak-table-9.png (urgent)"]


async def test_only_a_message_that_showed_the_lobby_gets_two_edits(drawn: list[str]) -> None:
    playing = table_of(Match(preset("standard"), seed=1))
    lobbies, message = Lobbies(), Message()
    # After a restart (this process never showed its lobby): one edit.
    bare, drawing = table_parts(playing, None, None)
    await edit_table(message.edit, bare, drawing, lobbies.shows(playing))
    assert len(message.edits) == 1 and len(message.edits[0]["attachments"]) == 1
    # A cancelled lobby is forgotten: nothing to start there.
    lobby = table_of(None, "lobby")
    assert not lobbies.shows(lobby)
    assert not lobbies.shows(table_of(None, "cancelled")) and not lobbies.shows(playing)


async def test_a_message_gone_at_start_is_not_edited_again(drawn: list[str]) -> None:
    lobbies, message = Lobbies(), Message(gone=True)
    lobbies.shows(table_of(None, "lobby"))
    playing = table_of(Match(preset("standard"), seed=1))
    bare, drawing = table_parts(playing, None, None)
    await edit_table(message.edit, bare, drawing, lobbies.shows(playing))
    assert message.edits == []  # posted again by the caller, with its picture
