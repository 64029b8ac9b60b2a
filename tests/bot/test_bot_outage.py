"""A storage outage at the table service: a move is refused whole (the table is not
advanced), the computers wait, and play carries on once the storage is back."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from test_bot_service import ALICE, CHANNEL, GUILD, four_people, user_at

import locales
from cogs.replies import MOVE, Languages, fail
from data import StorageUnavailableError, Store
from ops.metrics import HealthCheck, Metrics, OpsServer
from tables import ServiceError
from tests.bot.test_bot_replies import FakeInteraction, Sent


async def read_only(store: Store, on: bool) -> None:
    """SQLite refuses every write (SQLITE_READONLY), as on a file turned read-only."""
    raw = store.database.conn.raw  # type: ignore[attr-defined]
    await raw.execute(f"PRAGMA query_only = {'ON' if on else 'OFF'}")


async def test_a_move_during_an_outage_is_refused_and_the_table_not_advanced(
    env: Any, caplog: pytest.LogCaptureFixture
) -> None:
    service, rec, _timers, store = env
    table = await four_people(service)
    match = table.match
    assert match is not None
    seat, move = match.to_act, match.move_number
    assert seat is not None
    action = match.legal_actions()[0]
    before = (match.move_number, match.to_act, len(rec.kinds("action")))
    stored = (await store.games.load_game(table.id)).move
    caplog.set_level(logging.DEBUG)
    await read_only(store, True)
    for _ in range(5):  # every press refused the same way, none played
        with pytest.raises(StorageUnavailableError):
            await service.act(table.id, user_at(table, seat), seat, move, action)
        assert service.tables[table.id] is table
        m = table.match
        assert m is not None
        assert (m.move_number, m.to_act, len(rec.kinds("action"))) == before
    assert store.database.outage.down
    tracebacks = [r for r in caplog.records if r.exc_info and r.levelno >= logging.ERROR]
    assert tracebacks == []  # an outage is one log line, not a traceback per press
    await read_only(store, False)
    assert (await store.games.load_game(table.id)).move == stored  # nothing was written
    result = await service.act(table.id, user_at(table, seat), seat, move, action)
    assert result.move == move + 1
    m = table.match
    assert m is not None and m.move_number == move + 1
    assert len(rec.kinds("action")) == before[2] + 1
    assert (await store.games.load_game(table.id)).move == move + 1
    assert not store.database.outage.down


async def test_computers_wait_for_the_storage_without_tracebacks(
    env: Any, caplog: pytest.LogCaptureFixture
) -> None:
    service, rec, timers, store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
    await service.add_bot(table.id, ALICE)
    await service.start(table.id, ALICE)
    match = table.match
    assert match is not None and match.to_act != 0  # a computer bids first
    move = match.move_number
    caplog.set_level(logging.DEBUG)
    await read_only(store, True)
    for _ in range(4):  # its turn comes round again and again, never played
        await timers.advance(service.config.bot_delay + 5.5)
    m = table.match
    assert m is not None and m.move_number == move
    assert [r for r in caplog.records if r.exc_info and r.levelno >= logging.ERROR] == []
    starts = [r for r in caplog.records if r.getMessage().startswith("storage unavailable")]
    assert len(starts) == 1
    await read_only(store, False)
    await timers.advance(5.5)
    m = table.match
    assert m is not None and m.move_number > move  # played once the storage is back
    assert rec.kinds("action")[-1][4] == "bot"


async def test_refusals_other_than_outages_are_unchanged(env: Any) -> None:
    service, _rec, _timers, store = env
    table = await four_people(service)
    match = table.match
    assert match is not None
    await read_only(store, True)
    # a press that is wrong anyway is refused for what it is, before any write
    with pytest.raises(ServiceError) as err:
        await service.act(table.id, ALICE, 1, match.move_number, match.legal_actions()[0])
    assert err.value.key == "error.not_your_seat"
    await read_only(store, False)


# ---------------------------------------------------------------- what the person reads
LANGS = ("en", "tr", "de", "es", "fr", "pt", "sw", "uk")


def test_the_outage_answers_exist_in_every_language() -> None:
    for key in ("error.storage_down_move", "error.storage_down"):
        english = locales.message("en", key)
        assert english != key and "try again" in english
        for lang in LANGS[1:]:
            text = locales.message(lang, key)
            assert text != english, (lang, key)  # translated, not the English fallback
            assert text.startswith("⚠️ ")
    assert "hamlen oynanmadı" in locales.message("tr", "error.storage_down_move")
    assert "move was not played" in locales.message("en", "error.storage_down_move")


@pytest.fixture
async def languages(tmp_path: Path) -> AsyncIterator[Languages]:
    store = await Store.open(tmp_path / "answers.db")
    try:
        yield Languages(store)
    finally:
        await store.close()


async def test_a_move_during_an_outage_is_answered_plainly_in_turkish(
    languages: Languages, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    outage = languages.store.outage
    for n in range(1, 4):
        press: Any = FakeInteraction(message=Sent(42), locale="tr")
        press.extras[MOVE] = True
        await press.response.defer()
        await fail(press, StorageUnavailableError("SQLite: database or disk is full"), languages)
        assert press.calls[-1] == ("followup", locales.message("tr", "error.storage_down_move"))
        assert outage.presses == n
    # a command that is not a move gets the other wording
    command: Any = FakeInteraction(locale="de")
    await fail(command, StorageUnavailableError("PostgreSQL: gone"), languages)
    assert command.calls == [("respond", locales.message("de", "error.storage_down"))]
    assert [r for r in caplog.records if r.exc_info] == []  # no traceback per press


async def test_when_the_store_cannot_even_say_the_language_the_locale_does(
    tmp_path: Path,
) -> None:
    store = await Store.open(tmp_path / "closed.db")
    await store.close()  # every read fails now
    press: Any = FakeInteraction(message=Sent(1), locale="uk")
    press.extras[MOVE] = True
    await fail(press, StorageUnavailableError("SQLite: disk I/O error"), Languages(store))
    assert press.calls == [("respond", locales.message("uk", "error.storage_down_move"))]


# ---------------------------------------------------------------- what the operator sees
async def test_healthz_reports_the_outage_while_it_lasts(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "health.db")
    try:
        health = HealthCheck(
            gateway=lambda: {"0": True},
            database=lambda: store.guild_settings.get_guild_settings(0),
            workers=lambda: {"drawing": True},
            metrics=Metrics(),
            storage=store.outage.describe,
        )
        server = OpsServer(health, port=0, metrics=health.metrics)
        port = await server.start()
        try:
            status, body = await healthz(port)
            assert status == 200 and body["checks"]["storage"] is True
            assert body["details"]["storage"] == "up"
            await read_only(store, True)
            for host in (1, 2):
                with pytest.raises(StorageUnavailableError):
                    await store.games.create_game(1, 2, host, {})
                store.outage.refused()
            status, body = await healthz(port)
            assert status == 503
            assert body["checks"]["database"] is True  # reads still work...
            assert body["checks"]["storage"] is False  # ... but nothing can be written
            assert body["details"]["storage"].startswith("down since ")
            assert "read-only" in body["details"]["storage"]
            assert body["details"]["storage"].endswith("2 press(es) refused")
            await read_only(store, False)
            await store.games.create_game(1, 2, 3, {})
            status, body = await healthz(port)
            assert status == 200 and body["details"]["storage"] == "up"
        finally:
            await server.close()
    finally:
        await store.close()


async def healthz(port: int) -> tuple[int, Any]:
    url = f"http://127.0.0.1:{port}/healthz"
    async with aiohttp.ClientSession() as s, s.get(url) as r:
        return r.status, json.loads(await r.text())
