"""The table message's edits: after Start the text first and the picture once drawn; one
edit with its picture at every other time, unless the picture is late."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from batak import Match, preset
from cogs import pictures, table_message
from cogs.payload import MessagePayload
from cogs.table_message import LatePictures, Lobbies, edit_table, table_parts
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


never = LatePictures(lambda table_id: None)  # for tests whose pictures are never late


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


class Edits:
    """The table message's edits as the announcer makes them: ``again`` (a late picture
    drawn) asks the pacer for one more edit of the table as it is (here: :meth:`edit`)."""

    def __init__(self, message: Message) -> None:
        self.message, self.lobbies = message, Lobbies()
        self.asked: list[int] = []
        self.late = LatePictures(self.asked.append, self.lobbies)

    async def edit(self, table: Any, note: str | None = None) -> None:
        bare, drawing = table_parts(table, note, None)
        started = self.lobbies.shows(table)
        await edit_table(self.message.edit, bare, drawing, started, self.late, table.id)

    async def drawn_late(self) -> None:
        """Until the late picture is drawn, and the pacer asked again."""
        for _ in range(3000):
            if self.asked:
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the late picture never asked for an edit")


async def test_start_edits_the_text_first_then_the_picture(
    drawn: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture not drawn at once: the text (the lobby's buttons gone), then the picture."""
    slowed(monkeypatch)
    monkeypatch.setattr(table_message, "QUICK_PICTURE", 0.01)
    edits = Edits(message := Message())
    lobby = table_of(None, "lobby")
    await edits.edit(lobby)
    assert [e["attachments"] for e in message.edits] == [[]]  # the lobby: no picture
    assert "start" in lobby_buttons(message.edits[0])
    assert edits.late.urgent(lobby.id)  # its next edit goes before others (cogs.budget)

    started = table_of(Match(preset("standard"), seed=1))
    await edits.edit(started)
    assert len(message.edits) == 2 and not edits.late.urgent(started.id)
    text = message.edits[1]
    assert "Deal 1 of" in text["content"] and "start" not in lobby_buttons(text)
    assert "show" in lobby_buttons(text) and text["attachments"] == []
    await edits.drawn_late()
    assert edits.asked == [9] and edits.late.urgent(9)  # the first picture: before others
    await edits.edit(started)
    picture = message.edits[2]
    assert picture["content"] == text["content"] and len(picture["attachments"]) == 1
    assert drawn == ["batak-table-9.png (urgent)"]  # drawn once, before the others waiting
    assert not edits.late.urgent(9)

    # A move: one edit, with its picture.
    monkeypatch.setattr(table_message.pictures, "LATE_PICTURE", 1.0)
    await edits.edit(started)
    assert len(message.edits) == 4 and len(message.edits[3]["attachments"]) == 1


async def test_a_start_drawn_at_once_is_one_edit(drawn: list[str]) -> None:
    """One request of Discord's global limit instead of two when the picture is quick."""
    lobbies, message = Lobbies(), Message()
    lobby = table_of(None, "lobby")
    await edit_table(message.edit, *table_parts(lobby, None, None), lobbies.shows(lobby), never, 9)
    started = table_of(Match(preset("standard"), seed=1))
    bare, drawing = table_parts(started, None, None)
    await edit_table(message.edit, bare, drawing, lobbies.shows(started), never, 9)
    assert len(message.edits) == 2  # the lobby, then the start with its picture
    start = message.edits[1]
    assert "Deal 1 of" in start["content"] and "start" not in lobby_buttons(start)
    assert len(start["attachments"]) == 1 and drawn == ["batak-table-9.png (urgent)"]


def slowed(monkeypatch: pytest.MonkeyPatch, fails: bool = False) -> None:
    """Pictures take 50 ms (None when the drawing ``fails``); a late one is 10 ms."""
    quick = table_message.pictures.draw

    async def slow(drawing: pictures.Drawing | None, *, urgent: bool = False) -> Any:
        await asyncio.sleep(0.05)
        return None if fails else await quick(drawing, urgent=urgent)

    monkeypatch.setattr(table_message.pictures, "draw", slow)
    monkeypatch.setattr(table_message.pictures, "LATE_PICTURE", 0.01)


async def test_a_late_picture_lets_the_text_go_first(
    drawn: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A starved drawing worker does not hold the turn, the notes and the buttons: the
    text goes alone (the old picture kept), and the picture with the edit after."""
    slowed(monkeypatch)
    edits = Edits(message := Message())
    playing = table_of(Match(preset("standard"), seed=1))
    await edits.edit(playing, "a note")
    text = message.edits[0]
    assert "a note" in text["content"] and "attachments" not in text  # the old one stays
    assert "show" in lobby_buttons(text)
    # While it is drawn, edits go without waiting for a picture (none is drawn for them).
    await edits.edit(playing, "another note")
    assert "another note" in message.edits[1]["content"] and "attachments" not in message.edits[1]
    await edits.drawn_late()
    await edits.edit(playing, "another note")
    picture = message.edits[2]
    assert picture["content"] == message.edits[1]["content"] and len(picture["attachments"]) == 1
    assert drawn == ["batak-table-9.png"]  # once; not before the others: not a start


async def test_a_late_picture_of_a_table_since_changed_is_drawn_again(
    drawn: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    slowed(monkeypatch)
    edits = Edits(message := Message())
    match = Match(preset("standard"), seed=1)
    await edits.edit(table_of(match))
    await edits.drawn_late()
    match.apply(match.legal_actions()[0])  # a bid: the late picture shows the table as it was
    monkeypatch.setattr(table_message.pictures, "LATE_PICTURE", 1.0)
    await edits.edit(table_of(match))
    assert len(message.edits) == 2 and len(message.edits[1]["attachments"]) == 1
    assert drawn == ["batak-table-9.png", "batak-table-9.png"]


async def test_a_late_picture_that_fails_takes_the_old_one_away(
    drawn: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old picture shows the table as it was: when the new one cannot be drawn, the
    message goes without one."""
    slowed(monkeypatch, fails=True)
    edits = Edits(message := Message())
    playing = table_of(Match(preset("standard"), seed=1))
    await edits.edit(playing)
    await edits.drawn_late()
    await edits.edit(playing)
    assert ["attachments" in e for e in message.edits] == [False, True]
    assert message.edits[1]["attachments"] == []


async def test_a_late_picture_for_a_gone_message_is_called_off(
    drawn: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    slowed(monkeypatch)
    edits = Edits(message := Message(gone=True))
    await edits.edit(table_of(Match(preset("standard"), seed=1)))
    await asyncio.sleep(0.1)
    assert message.edits == [] and drawn == [] and edits.asked == []


async def test_only_a_message_that_showed_the_lobby_gets_two_edits(drawn: list[str]) -> None:
    playing = table_of(Match(preset("standard"), seed=1))
    lobbies, message = Lobbies(), Message()
    # After a restart (this process never showed its lobby): one edit.
    bare, drawing = table_parts(playing, None, None)
    await edit_table(message.edit, bare, drawing, lobbies.shows(playing), never, 9)
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
    await edit_table(message.edit, bare, drawing, lobbies.shows(playing), never, 9)
    assert message.edits == []  # posted again by the caller, with its picture
