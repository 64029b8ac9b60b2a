"""A move's commit in one call: :func:`data.writes.write`.

On SQLite the whole transaction (BEGIN IMMEDIATE, the checked UPDATE, the INSERTs,
COMMIT) is one trip to aiosqlite's thread; a failed check or an error writes nothing;
a file locked by another connection is waited for, as ``Database.tx`` does. On
PostgreSQL the same steps run as an ordinary transaction.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from data import StaleMoveError, Store
from data.connections import GatedSqliteConnection
from data.models import StoreBusyError
from data.writes import Step, write

from store_clock import INTEGRITY_ERRORS


def count_trips(store: Store) -> list[str]:
    """Record each call queued on aiosqlite's thread from now on."""
    conn = store.database.conn
    assert isinstance(conn, GatedSqliteConnection)
    raw = conn.raw
    trips: list[str] = []
    queued: Any = raw._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(getattr(fn, "__name__", repr(fn)))
        return await queued(fn, *args, **kwargs)

    raw._execute = counted  # type: ignore[method-assign]
    return trips


async def test_a_move_is_one_trip_to_the_sqlite_thread(store: Store) -> None:
    if store.dialect != "sqlite":
        pytest.skip("PostgreSQL has no connection thread")
    g = await store.games.create_game(1, 2, 3, {})
    trips = count_trips(store)
    await store.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
    await store.games.append_actions(
        g.id, 1, [(2, "pass", "player"), (3, "pass", "bot")], phase="auction", to_act=0
    )
    assert trips == ["run_steps", "run_steps"]
    assert (await store.games.load_game(g.id)).actions == ("bid 5", "pass", "pass")


async def test_a_failed_check_writes_nothing(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    failed = await write(
        store.database,
        (
            Step("UPDATE games SET move = 7 WHERE id = ?", ((g.id,),)),
            Step("UPDATE games SET phase = 'x' WHERE id = ? AND move = 99", ((g.id,),), 1),
        ),
    )
    assert failed == 1
    game = await store.games.get_game(g.id)
    assert game.move == 0 and game.phase != "x"


async def test_an_error_half_way_rolls_back(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    await store.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
    insert = (
        "INSERT INTO game_actions (game_id, move, seat, action, actor, at_ms) "
        "VALUES (?, ?, ?, ?, ?, ?)"
    )
    with pytest.raises(INTEGRITY_ERRORS):
        await write(
            store.database,
            (
                Step("UPDATE games SET move = 2 WHERE id = ? AND move = 1", ((g.id,),), 1),
                Step(insert, [(g.id, 1, 2, "pass", "player", 0)]),  # move 1 is taken
            ),
        )
    assert (await store.games.get_game(g.id)).move == 1
    # and the connection is usable at once: no transaction was left open
    await store.games.append_action(g.id, 1, "pass", seat=2, phase="auction", to_act=3)
    assert (await store.games.load_game(g.id)).actions == ("bid 5", "pass")


async def test_stale_and_closed_tables_still_say_why(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    await store.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
    with pytest.raises(StaleMoveError) as err:
        await store.games.append_action(g.id, 0, "bid 6", seat=1, phase="auction", to_act=2)
    assert (err.value.expected, err.value.current) == (0, 1)


@pytest.mark.sqlite_only
async def test_a_locked_file_is_waited_for(tmp_path: Path) -> None:
    waits: list[float] = []
    other = sqlite3.connect(tmp_path / "s.sqlite3", isolation_level=None)

    async def sleep(delay: float) -> None:
        waits.append(delay)
        if len(waits) == 2:
            other.execute("COMMIT")  # the other writer is done

    store = await Store.open(str(tmp_path / "s.sqlite3"), housekeeping=None, busy_timeout_ms=1)
    store.database.sleep = sleep
    try:
        g = await store.games.create_game(1, 2, 3, {})
        other.execute("BEGIN IMMEDIATE")
        await store.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
        assert waits == [0.05, 0.1]
        assert store.database.busy_retries == 2
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreBusyError, match="stayed locked"):
            await store.games.append_action(g.id, 1, "pass", seat=2, phase="auction", to_act=3)
        other.execute("ROLLBACK")
        assert (await store.games.load_game(g.id)).actions == ("bid 5",)
    finally:
        other.close()
        await store.close()
