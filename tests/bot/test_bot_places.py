"""Where a press counts: :meth:`TableService.check_place` (a table's own server, and its
channel or thread), and which of the bot's buttons count anywhere in the server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from batak import Bid
from cogs.batak_cog import FAMILIES
from cogs.components import hand_id, matching, table_id
from cogs.components.panel import house_id
from cogs.components.seats import answer_id, seat_id
from cogs.review import compare_id, review_id
from tables import ServiceError, Table, TableService
from tests.bot.test_bot_service import ALICE, BOB, CHANNEL, GUILD, make_service

THREAD = 2001
OTHER_CHANNEL = 2002
OTHER_GUILD, OTHER_GUILD_CHANNEL = 3000, 4000


async def refused(service: TableService, *args: Any, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        await service.check_place(*args, **kwargs)
    return err.value


async def lobby(service: TableService, thread: int | None = None) -> Table:
    return await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1, thread_id=thread)


async def test_a_table_without_thread_counts_in_its_channel_only(env: Any) -> None:
    service, _rec, _timers, _store = env
    table = await lobby(service)
    await service.check_place(table.id, GUILD, CHANNEL)  # right place: no refusal
    err = await refused(service, table.id, GUILD, OTHER_CHANNEL)
    assert (err.key, err.params) == ("error.table_elsewhere", {"table": table.id})
    # Server-wide things (a hand, a spectator view, a review) count in any channel of it.
    await service.check_place(table.id, GUILD, OTHER_CHANNEL, server_wide=True)


async def test_a_table_in_a_thread_counts_in_the_thread_and_its_channel(env: Any) -> None:
    service, _rec, _timers, _store = env
    table = await lobby(service, thread=THREAD)
    await service.check_place(table.id, GUILD, THREAD)
    await service.check_place(table.id, GUILD, CHANNEL)  # the parent of its thread
    err = await refused(service, table.id, GUILD, OTHER_CHANNEL)
    assert err.key == "error.table_elsewhere"
    err = await refused(service, table.id, GUILD, None)
    assert err.key == "error.table_elsewhere"


@pytest.mark.parametrize("server_wide", [False, True])
async def test_another_server_is_refused_even_for_server_wide_presses(
    env: Any, server_wide: bool
) -> None:
    service, _rec, _timers, _store = env
    table = await lobby(service, thread=THREAD)
    for channel in (OTHER_GUILD_CHANNEL, CHANNEL, THREAD):  # ids do not make it the server
        err = await refused(service, table.id, OTHER_GUILD, channel, server_wide=server_wide)
        assert (err.key, err.params) == ("error.table_other_server", {"table": table.id})


@pytest.mark.parametrize("server_wide", [False, True])
async def test_a_direct_message_is_refused(env: Any, server_wide: bool) -> None:
    service, _rec, _timers, _store = env
    table = await lobby(service)
    err = await refused(service, table.id, None, CHANNEL, server_wide=server_wide)
    assert err.key == "error.guild_only"
    # Not even looked up: an id that does not exist gets the same answer.
    err = await refused(service, 999_999, None, CHANNEL)
    assert err.key == "error.guild_only"


async def test_an_unknown_table_is_no_table(env: Any) -> None:
    service, _rec, _timers, _store = env
    err = await refused(service, 999_999, GUILD, CHANNEL)
    assert err.key == "error.no_table"


async def test_the_check_changes_nothing_and_takes_no_lock(env: Any) -> None:
    service, rec, _timers, store = env
    table = await lobby(service)
    await service.join(table.id, BOB, "Bob")
    row = await store.games.get_game(table.id)
    events = list(rec.events)
    async with table.lock:  # held by someone else: the check must not wait for it
        task = asyncio.ensure_future(service.check_place(table.id, OTHER_GUILD, CHANNEL))
        for _ in range(20):
            await asyncio.sleep(0)
        assert task.done()
        with pytest.raises(ServiceError) as err:
            task.result()
        assert err.value.key == "error.table_other_server"
    assert await store.games.get_game(table.id) == row
    assert rec.events == events


async def test_a_closed_table_is_judged_from_the_store(env: Any) -> None:
    service, _rec, _timers, _store = env
    table = await lobby(service, thread=THREAD)
    await service.cancel(table.id, ALICE, is_admin=False)
    assert table.id not in service.tables and table.id not in service.finished
    await service.check_place(table.id, GUILD, THREAD)
    assert (await refused(service, table.id, GUILD, OTHER_CHANNEL)).key == ("error.table_elsewhere")
    assert (await refused(service, table.id, OTHER_GUILD, THREAD)).key == (
        "error.table_other_server"
    )


async def test_a_restarted_service_reads_a_finished_tables_place_from_the_store(
    tmp_path: Path,
) -> None:
    path = tmp_path / "p.sqlite3"
    service, _rec, timers, store = await make_service(path)
    table = await lobby(service)
    for _ in range(3):
        await service.add_bot(table.id, ALICE)
    await service.start(table.id, ALICE)
    match = table.match
    assert match is not None
    while not match.is_over:  # Alice passes or plays her first legal card
        seat = match.to_act
        assert seat is not None
        if table.controlled_by_bot(seat):
            await timers.advance(1.0)
            continue
        legal = match.legal_actions()
        pick = next((a for a in legal if not isinstance(a, Bid)), legal[0])
        await service.act(table.id, ALICE, seat, match.move_number, pick)
    assert table.finished
    await service.close()
    await store.close()
    service, _rec, _timers, store = await make_service(path)  # nothing held in memory
    try:
        assert table.id not in service.tables and table.id not in service.finished
        await service.check_place(table.id, GUILD, CHANNEL)  # its Rematch button, there
        await service.check_place(table.id, GUILD, OTHER_CHANNEL, server_wide=True)  # Review
        assert (await refused(service, table.id, GUILD, OTHER_CHANNEL)).key == (
            "error.table_elsewhere"
        )
        err = await refused(service, table.id, OTHER_GUILD, CHANNEL, server_wide=True)
        assert err.key == "error.table_other_server"
    finally:
        await service.close()
        await store.close()


async def test_a_daily_match_counts_anywhere_in_its_server_only(env: Any) -> None:
    service, _rec, _timers, _store = env
    table = await service.start_daily(GUILD, CHANNEL, ALICE, "Alice")
    assert table.is_daily
    # Resumed with /batak daily in another channel: its hand's buttons carry that one.
    await service.check_place(table.id, GUILD, OTHER_CHANNEL)
    await service.check_place(table.id, GUILD, CHANNEL)
    err = await refused(service, table.id, OTHER_GUILD, OTHER_GUILD_CHANNEL, server_wide=True)
    assert err.key == "error.table_other_server"
    assert (await refused(service, table.id, None, CHANNEL)).key == "error.guild_only"


def test_which_presses_count_anywhere_in_the_server() -> None:
    t = 42
    only_at_the_table = [
        *(table_id(t, what) for what in ("show", "join", "leave", "bot", "start", "cancel")),
        table_id(t, "rematch"),
        seat_id(t, "sit"),
        seat_id(t, "s2"),
        answer_id(t, 77, True),
        answer_id(t, 77, False),
        *(house_id(t, what) for what in ("rules", "opt", "won", "woff", "reset")),
        house_id(t, "set", "min_bid"),
    ]
    server_wide = [
        hand_id(t, 0, 5, "p"),
        hand_id(t, 1, 9, "cAS"),
        hand_id(t, 2, 0, "ref"),
        house_id(t, "watch"),
        house_id(t, "wref"),
        review_id(t, 0),
    ]
    for cid in only_at_the_table + server_wide:
        found = matching(cid, FAMILIES)
        assert found is not None, cid
        family, _ = found
        click = family.read(cid)
        assert click is not None, cid
        assert family.table_of(click) == t, cid
        assert family.server_wide == (cid in server_wide), cid
    day = compare_id("2026-11-30")
    found = matching(day, FAMILIES)
    assert found is not None
    compare = found[0].read(day)
    assert compare is not None and found[0].table_of(compare) is None
    assert matching("bx:42:explode", FAMILIES) is None
    assert matching("other-bot:42", FAMILIES) is None
