"""The service under attack and under failure: the match end is one durable step, lobby
actions are idempotent, a storage error is retried and never drops or fakes a result."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from data import StoreError
from tables import ServiceError, Table, TableService
from tables.play import finish_backoff
from tests.bot.test_bot_service import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    make_service,
    play_out,
)


async def one_person_table(service: TableService, timers: Any) -> Table:
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
    for _ in range(3):
        await service.add_bot(table.id, ALICE)
    return await service.start(table.id, ALICE)


def failing(real: Callable[..., Awaitable[Any]], times: int, *, after: bool = False) -> Any:
    """The real store method, made to fail ``times`` times: before it writes, or (with
    ``after``) once it has committed, as when the answer of a commit is lost."""
    left = [times]

    async def call(*args: Any, **kwargs: Any) -> Any:
        if left[0] > 0:
            left[0] -= 1
            if after:
                await real(*args, **kwargs)
            raise StoreError("database is locked (injected)")
        return await real(*args, **kwargs)

    return call


async def test_a_storage_error_at_the_match_end_is_retried_and_recorded_once(
    tmp_path: Path,
) -> None:
    service, rec, timers, store = await make_service(tmp_path / "s.sqlite3")
    try:
        store.matches.record_match = failing(store.matches.record_match, 3)
        table = await one_person_table(service, timers)
        match = table.match
        assert match is not None
        # Alice plays, computers answer, until the last card is down.
        while not match.is_over:
            seat = match.to_act
            assert seat is not None
            if table.controlled_by_bot(seat):
                await timers.advance(1.0)
                continue
            await service.act(table.id, ALICE, seat, match.move_number, match.legal_actions()[0])
        # Not recorded yet: the table says so and refuses to be left or cancelled.
        assert table.recording and table.id in service.tables
        assert [e[2:] for e in rec.kinds("recording_failed")] == [(1, finish_backoff(0))]
        for attempt in (
            service.leave(table.id, ALICE),
            service.cancel(table.id, ALICE, is_admin=True),
        ):
            with pytest.raises(ServiceError) as err:
                await attempt
            assert err.value.key == "error.recording"
        assert await store.announcements.pending_announcements(game_id=table.id) == []
        # The back-off runs on the fake clock: 1 s, 2 s, then the store works again.
        await timers.advance(1.0)
        await timers.advance(2.0)
        assert [e[2] for e in rec.kinds("recording_failed")] == [1, 2, 3]
        assert rec.kinds("match") == []
        await timers.advance(4.0)
        (event,) = rec.kinds("match")
        assert event[2] is not None and event[2].totals == list(match.totals)
        assert table.finished and table.id not in service.tables
        pending = await store.announcements.pending_announcements(game_id=table.id)
        assert [a.kind for a in pending] == ["table_final", "result"]
        assert len(await store.matches.recent_matches(GUILD)) == 1
    finally:
        await service.close()
        await store.close()


async def test_a_lost_commit_answer_is_not_a_second_match(tmp_path: Path) -> None:
    """The first attempt committed but said it failed: the retry finds the match
    recorded and carries on; one match, one set of announcements."""
    service, rec, timers, store = await make_service(tmp_path / "s.sqlite3")
    try:
        store.matches.record_match = failing(store.matches.record_match, 1, after=True)
        table = await one_person_table(service, timers)
        await play_out(service, timers, table)
        assert table.recording
        await timers.advance(finish_backoff(0))
        assert table.finished and len(rec.kinds("match")) == 1
        assert len(await store.matches.recent_matches(GUILD)) == 1
        assert len(await store.announcements.pending_announcements(game_id=table.id)) == 2
    finally:
        await service.close()
        await store.close()


async def test_the_match_end_survives_a_restart_before_it_is_recorded(tmp_path: Path) -> None:
    """The bot dies with the last card stored but the match not recorded: the restart
    records it, with its announcements."""
    path = tmp_path / "s.sqlite3"
    service, _rec, timers, store = await make_service(path)
    store.matches.record_match = failing(store.matches.record_match, 100)
    table = await one_person_table(service, timers)
    await play_out(service, timers, table)
    assert table.recording
    await service.close()
    await store.close()
    service, rec, timers, store = await make_service(path)
    try:
        await service.restore()
        assert len(rec.kinds("match")) == 1
        assert len(await store.matches.recent_matches(GUILD)) == 1
        assert [a.kind for a in await store.announcements.pending_announcements()] == [
            "table_final",
            "result",
        ]
    finally:
        await service.close()
        await store.close()


async def test_many_rematch_presses_open_one_lobby(tmp_path: Path) -> None:
    service, _rec, timers, store = await make_service(tmp_path / "s.sqlite3")
    try:
        table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
        await service.join(table.id, BOB, "Bob")
        await service.join(table.id, CAROL, "Carol")
        await service.add_bot(table.id, ALICE)
        await service.start(table.id, ALICE)
        await play_out(service, timers, table)
        presses = [service.rematch(table.id, uid, str(uid)) for uid in (ALICE, BOB, CAROL) * 3]
        results = await asyncio.gather(*presses, return_exceptions=True)
        opened = [r for r in results if isinstance(r, Table)]
        refused = [r for r in results if isinstance(r, ServiceError)]
        assert len(opened) == 1 and len(refused) == 8, results
        assert {e.key for e in refused} == {"error.rematch_exists"}
        assert {e.params["table"] for e in refused} == {opened[0].id}
        assert [t.id for t in service.tables.values()] == [opened[0].id]
    finally:
        await service.close()
        await store.close()


async def test_thirty_concurrent_new_tables_of_one_host_open_one(tmp_path: Path) -> None:
    service, _rec, _timers, store = await make_service(tmp_path / "s.sqlite3")
    try:
        # Through the service's opening guard (what /batak new does) ...
        async def new() -> Table:
            async with service.opening(GUILD, ALICE):
                await asyncio.sleep(0)  # the cog creates a thread here
                return await service.create_table(GUILD, CHANNEL, ALICE, "Alice")

        results = await asyncio.gather(*(new() for _ in range(30)), return_exceptions=True)
        opened = [r for r in results if isinstance(r, Table)]
        refused = [r for r in results if isinstance(r, ServiceError)]
        assert len(opened) == 1 and len(refused) == 29, results
        assert {e.key for e in refused} <= {"error.opening", "error.already_hosting"}
        # ... and straight at the store's unique key (another process, say).
        direct = await asyncio.gather(
            *(service.create_table(GUILD, CHANNEL + 1, ALICE, "Alice") for _ in range(30)),
            return_exceptions=True,
        )
        assert all(isinstance(r, ServiceError) for r in direct), direct
        assert {r.params["table"] for r in direct if isinstance(r, ServiceError)} == {opened[0].id}
        assert len(await store.games.open_games()) == 1
    finally:
        await service.close()
        await store.close()


def gated(real: Callable[..., Awaitable[Any]]) -> tuple[Any, asyncio.Event, asyncio.Event]:
    """The real store method, held at its start until ``release`` is set."""
    entered, release = asyncio.Event(), asyncio.Event()

    async def call(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        await release.wait()
        return await real(*args, **kwargs)

    return call, entered, release


@pytest.mark.parametrize("outcome", ["stored", "crashed"])
async def test_a_move_is_shown_only_once_it_is_stored(tmp_path: Path, outcome: str) -> None:
    """While a card's commit is on its way, the table (what every hand and the table
    message are drawn from) still shows the state before it, so nothing can show a card
    played that a crash then takes back. Stored, the card is shown; the commit cut off
    (the task cancelled, as by a kill), the table and the log both stay before it."""
    path = tmp_path / "s.sqlite3"
    service, _rec, timers, store = await make_service(path)
    try:
        table = await one_person_table(service, timers)
        match = table.match
        assert match is not None
        while match.to_act != 0 or match.deal.phase.value != "play":
            if match.to_act == 0:
                await service.act(table.id, ALICE, 0, match.move_number, match.legal_actions()[0])
            else:
                await timers.advance(1.0)
        move, hand = match.move_number, match.observation(0).hand
        card = match.legal_actions()[0]
        store.games.append_action, entered, release = gated(store.games.append_action)
        task = asyncio.create_task(service.act(table.id, ALICE, 0, move, card))
        await entered.wait()
        assert (match.move_number, match.observation(0).hand, match.to_act) == (move, hand, 0)
        if outcome == "stored":
            release.set()
            await task
            assert match.move_number == move + 1 and match.observation(0).hand != hand
        else:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert (match.move_number, match.observation(0).hand) == (move, hand)
            assert len(await store.games.action_log(table.id)) == move
    finally:
        await service.close()
        await store.close()
