"""A short chaos run in every ``make test`` (``make chaos`` runs 50 kills or more): eight
people at three tables, one kill of each kind (random, right after an acknowledged move,
right after a match is recorded), every check of the long run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from batak.cards import Suit
from cogs.i18n import t
from cogs.text.words import suit_text
from tests.bot.chaos import Reader, ReadError, _acknowledged, run


async def test_three_kinds_of_sigkill_lose_nothing() -> None:
    report = await run(kills=3, seed=7)
    print(report)
    assert report.kills == {"random": 1, "after ack": 1, "after record": 1}, str(report)
    assert report.ok(), str(report)
    assert report.acknowledged >= 1
    assert report.matches >= 1


def _hand(move: int | None, trump: Suit | None, warning: bool = False) -> dict[str, object]:
    """A hand message as the fake keeps it: its text (the contract line as the bot words
    it) and, while the trump is to be named, the trump buttons of ``move``."""
    lines = ["⚠️ That button is out of date."] if warning else []
    if trump is not None:
        lines.append(t("summary.contract", "en", name="Ada", bid=5, trump=suit_text(trump, "en")))
    buttons = [
        {"type": 2, "custom_id": f"bt:1:0:{move}:t{s.letter}", "label": s.english}
        for s in Suit
        if move is not None
    ]
    return {"content": "\n".join(lines), "components": [{"type": 1, "components": buttons}]}


def test_a_trump_press_is_answered_only_by_a_hand_naming_her_suit() -> None:
    """A time-out's trump can reach her hand before the refusal of her press (cut by a
    kill): that hand does not answer her press. One naming her suit does."""
    before = _hand(5, None)
    assert _acknowledged([before, _hand(None, Suit.S)], 5, "tS")
    assert not _acknowledged([before, _hand(None, Suit.C)], 5, "tS")
    assert not _acknowledged([_hand(None, Suit.C), _hand(None, Suit.S)], 5, "tS")
    assert not _acknowledged([before, _hand(None, Suit.S, warning=True)], 5, "tS")
    assert not _acknowledged([before], 5, "tS")


async def test_the_reader_raises_on_a_database_error(tmp_path: Path) -> None:
    """A read error is surfaced, never taken for "no rows"."""
    reader = Reader(str(tmp_path / "missing.db"), None)
    with pytest.raises(ReadError, match="SQLite"):
        await reader.rows("SELECT id FROM games")
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"not a database" * 100)
    with pytest.raises(ReadError, match="SQLite"):
        await Reader(str(broken), None).rows("SELECT id FROM games")


@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="no TEST_DATABASE_URL")
async def test_the_reader_raises_on_a_postgresql_error() -> None:
    reader = Reader(None, os.environ["TEST_DATABASE_URL"])
    await reader.open()
    try:
        with pytest.raises(ReadError, match="PostgreSQL"):
            await reader.rows("SELECT id FROM no_such_table_here")
        assert await reader.rows("SELECT ?::int + 1", (1,)) == [(2,)]
    finally:
        await reader.close()
