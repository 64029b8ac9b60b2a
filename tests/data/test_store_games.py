"""Tables in progress: round-trips, seats, the action log and its concurrency rules."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator

import pytest

from data import (
    KEEP,
    GameClosedError,
    GameNotFoundError,
    SeatError,
    StaleMoveError,
    Store,
)
from data.models import Game, Seat


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await Store.open(db_url)
    yield s
    await s.close()


SETTINGS = {
    "rules": {"preset": "standard", "deals": 8},
    "seed": 123456789,
    "first_dealer": 2,
    "pace": "async",
    "turn_timeout_s": 3600,
    "bot_delay_ms": 800,
}


async def test_create_and_load_round_trip(store: Store) -> None:
    seats = [Seat.human(11, "Ayşe"), Seat.bot("hard"), Seat(), Seat(12, "normal", "Can")]
    g = await store.games.create_game(100, 200, 11, SETTINGS, thread_id=300, seats=seats)
    assert g.id > 0 and g.status == "lobby" and g.phase == "lobby" and g.move == 0
    loaded = await store.games.load_game(g.id)
    assert loaded == g  # same fields, and no actions yet
    assert loaded.settings == SETTINGS
    assert loaded.seats == tuple(seats)
    assert loaded.seats[3].is_away and loaded.seats[1].is_bot and loaded.seats[2].is_empty
    assert loaded.thread_id == 300 and loaded.where_id == 300
    assert loaded.seat_of(12) == 3 and loaded.seat_of(99) is None
    with pytest.raises(GameNotFoundError):
        await store.games.load_game(g.id + 1000)


async def test_append_and_replay_log(store: Store) -> None:
    g = await store.games.create_game(
        1, 2, 3, SETTINGS, seats=[Seat.human(3)] + [Seat.bot("easy")] * 3
    )
    g = await store.games.start_game(g.id, phase="auction", to_act=3, snapshot={"deal": 1})
    assert g.status == "playing" and g.snapshot == {"deal": 1} and g.snapshot_move == 0
    log = ["bid 5", "pass", "bid 6", "pass", "pass", "trump H", "play AH"]
    move = 0
    for i, a in enumerate(log):
        move = await store.games.append_action(
            g.id,
            move,
            a,
            seat=i % 4,
            phase="auction" if i < 5 else "play",
            to_act=(i + 1) % 4,
            actor="bot" if i % 2 else "player",
        )
        assert move == i + 1
    loaded = await store.games.load_game(g.id)
    assert loaded.actions == tuple(log)
    assert loaded.move == len(log) and loaded.phase == "play" and loaded.to_act == len(log) % 4
    assert loaded.snapshot == {"deal": 1} and loaded.snapshot_move == 0  # kept by default
    entries = await store.games.action_log(g.id, since_move=5)
    assert [(e.move, e.seat, e.action, e.actor) for e in entries] == [
        (6, 1, "trump H", "bot"),
        (7, 2, "play AH", "player"),
    ]


async def test_snapshot_replace_and_clear(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    await store.games.append_action(
        g.id, 0, "bid 5", seat=1, phase="a", to_act=2, snapshot={"s": 1}
    )
    g2 = await store.games.get_game(g.id)
    assert g2.snapshot == {"s": 1} and g2.snapshot_move == 1
    await store.games.append_action(g.id, 1, "pass", seat=2, phase="a", to_act=3, snapshot=KEEP)
    assert (await store.games.get_game(g.id)).snapshot_move == 1
    await store.games.save_snapshot(g.id, 2, [1, 2, 3])
    g3 = await store.games.get_game(g.id)
    assert g3.snapshot == [1, 2, 3] and g3.snapshot_move == 2
    with pytest.raises(StaleMoveError):
        await store.games.save_snapshot(g.id, 1, {})
    await store.games.append_action(g.id, 2, "pass", seat=3, phase="a", to_act=0, snapshot=None)
    g4 = await store.games.get_game(g.id)
    assert g4.snapshot is None


async def test_stale_move_is_refused_and_writes_nothing(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    await store.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
    with pytest.raises(StaleMoveError) as err:
        await store.games.append_action(g.id, 0, "bid 7", seat=1, phase="auction", to_act=2)
    assert err.value.current == 1 and err.value.expected == 0
    with pytest.raises(StaleMoveError):
        await store.games.append_action(g.id, 5, "bid 7", seat=1, phase="auction", to_act=2)
    assert (await store.games.load_game(g.id)).actions == ("bid 5",)


async def test_double_click_on_one_connection(store: Store) -> None:
    """Two coroutines answering the same button: exactly one action lands."""
    g = await store.games.create_game(1, 2, 3, {})
    results = await asyncio.gather(
        *[
            store.games.append_action(g.id, 0, "pass", seat=1, phase="auction", to_act=2)
            for _ in range(5)
        ],
        return_exceptions=True,
    )
    assert results.count(1) == 1
    assert all(isinstance(r, StaleMoveError) for r in results if r != 1)
    assert (await store.games.load_game(g.id)).actions == ("pass",)


async def test_append_batch(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    move = await store.games.append_actions(
        g.id,
        0,
        [(1, "bid 5", "bot"), (2, "pass", "bot"), (3, "pass", "timeout")],
        phase="auction",
        to_act=0,
    )
    assert move == 3
    assert (await store.games.load_game(g.id)).actions == ("bid 5", "pass", "pass")
    with pytest.raises(ValueError):
        await store.games.append_actions(g.id, 3, [], phase="x", to_act=None)
    with pytest.raises(ValueError):
        await store.games.append_action(
            g.id, 3, "pass", seat=0, phase="x", to_act=None, actor="ghost"
        )


async def test_closed_games_take_nothing(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    await store.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
    done = await store.games.finish_game(g.id)
    assert done.status == "finished" and done.finished_at is not None and done.to_act is None
    with pytest.raises(GameClosedError):
        await store.games.append_action(g.id, 1, "pass", seat=2, phase="auction", to_act=3)
    with pytest.raises(GameClosedError):
        await store.games.cancel_game(g.id)
    with pytest.raises(GameClosedError):
        await store.games.join_game(g.id, 5)
    with pytest.raises(GameNotFoundError):
        await store.games.append_action(999, 0, "pass", seat=2, phase="auction", to_act=3)
    c = await store.games.create_game(1, 2, 3, {})
    assert (await store.games.cancel_game(c.id)).status == "cancelled"
    assert (await store.games.load_game(g.id)).actions == ("bid 5",)  # the log stays


async def test_seats_join_leave_replace(store: Store) -> None:
    g = await store.games.create_game(
        1, 2, 10, {}, seats=[Seat.human(10, "host"), Seat(), Seat(), Seat()]
    )
    assert await store.games.join_game(g.id, 20, name="b") == 1
    with pytest.raises(SeatError, match="already has a seat"):
        await store.games.join_game(g.id, 20)
    with pytest.raises(SeatError, match="taken"):
        await store.games.join_game(g.id, 30, seat=0)
    assert await store.games.join_game(g.id, 30, seat=3) == 3
    g2 = await store.games.set_seat(g.id, 2, Seat.bot("hard"), expected=Seat())
    assert g2.seats == (Seat(10, None, "host"), Seat(20, None, "b"), Seat.bot("hard"), Seat(30))
    with pytest.raises(SeatError, match="table is full"):
        await store.games.join_game(g.id, 40)
    with pytest.raises(SeatError, match="changed meanwhile"):
        await store.games.set_seat(g.id, 2, Seat.bot("easy"), expected=Seat())
    with pytest.raises(SeatError, match="already has a seat"):
        await store.games.set_seat(g.id, 2, Seat.human(10))
    assert await store.games.leave_game(g.id, 30) == 3
    assert (await store.games.get_game(g.id)).seats[3].is_empty
    with pytest.raises(SeatError, match="every seat"):
        await store.games.start_game(g.id, phase="auction", to_act=1)
    assert (await store.games.get_game(g.id)).status == "lobby"
    await store.games.start_game(
        g.id,
        phase="auction",
        to_act=1,
        settings={"seed": 5},
        seats=[Seat(10), Seat(20), Seat.bot("hard"), Seat.bot("normal")],
    )
    g3 = await store.games.get_game(g.id)
    assert g3.status == "playing" and g3.settings == {"seed": 5}
    with pytest.raises(GameClosedError):
        await store.games.join_game(g.id, 50)
    with pytest.raises(SeatError, match="needs a computer"):
        await store.games.leave_game(g.id, 20)
    assert await store.games.leave_game(g.id, 20, replace_with_bot="normal") == 1
    # a person away: a computer stands in, then hands the seat back
    await store.games.set_seat(g.id, 0, Seat(10, "hard"))
    assert (await store.games.get_game(g.id)).seats[0].is_away
    await store.games.set_seat(g.id, 0, Seat(10), expected=Seat(10, "hard"))
    assert (await store.games.get_game(g.id)).seats[:2] == (Seat(10), Seat.bot("normal"))


async def test_concurrent_joins_never_share_a_seat(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    res = await asyncio.gather(
        *[store.games.join_game(g.id, u) for u in range(6)], return_exceptions=True
    )
    seats = sorted(r for r in res if isinstance(r, int))
    assert seats == [0, 1, 2, 3]
    assert sum(isinstance(r, SeatError) for r in res) == 2


async def test_listing(store: Store) -> None:
    a = await store.games.create_game(1, 10, 7, {}, seats=[Seat(7), Seat(8), Seat(), Seat()])
    b = await store.games.create_game(
        1, 10, 8, {}, thread_id=11, seats=[Seat(8), Seat(), Seat(), Seat()]
    )
    c = await store.games.create_game(
        2, 20, 9, {}, kind="daily", seats=[Seat(9)] + [Seat.bot("hard")] * 3
    )
    d = await store.games.create_game(1, 30, 99, {}, seats=[Seat(7), Seat(99), Seat(), Seat()])
    await store.games.cancel_game(d.id)

    def ids(games: list[Game]) -> list[int]:
        return [x.id for x in games]

    assert ids(await store.games.list_games(guild_id=1)) == [b.id, a.id]
    assert ids(await store.games.list_games(guild_id=1, status=None)) == [d.id, b.id, a.id]
    assert ids(await store.games.list_games(guild_id=1, status="cancelled")) == [d.id]
    assert ids(await store.games.list_games(channel_id=10)) == [b.id, a.id]
    assert ids(await store.games.list_games(channel_id=11)) == [b.id]  # by its thread
    assert ids(await store.games.list_games(user_id=8)) == [b.id, a.id]
    assert ids(await store.games.list_games(user_id=7, status=None)) == [d.id, a.id]
    assert ids(await store.games.list_games(kind="daily")) == [c.id]
    assert ids(await store.games.open_games()) == [a.id, b.id, c.id]
    got = (await store.games.list_games(user_id=9))[0]
    assert got.seats[1] == Seat.bot("hard")


async def test_messages(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {})
    await store.games.set_table_message(g.id, 555)
    await store.games.set_thread(g.id, 777)
    g2 = await store.games.get_game(g.id)
    assert g2.table_message_id == 555 and g2.thread_id == 777
    await store.messages.add_message(g.id, 1001, channel_id=777)
    await store.messages.add_message(g.id, 1002)
    await store.messages.add_message(g.id, 2001, kind="deal-summary")
    assert [m.message_id for m in await store.messages.of(g.id)] == [1001, 1002, 2001]
    taken = await store.messages.take_messages(g.id, "turn")
    assert [(m.message_id, m.channel_id) for m in taken] == [(1001, 777), (1002, None)]
    assert [m.message_id for m in await store.messages.of(g.id)] == [2001]
    await store.messages.remove_messages(g.id, [2001])
    assert await store.messages.of(g.id) == []


async def test_settings_change_in_lobby(store: Store) -> None:
    g = await store.games.create_game(1, 2, 3, {"rules": {"preset": "standard"}})
    g2 = await store.games.set_game_settings(g.id, {"rules": {"preset": "esli"}})
    assert g2.settings == {"rules": {"preset": "esli"}}


async def test_engine_match_restores_exactly(store: Store) -> None:
    """Play part of a real match through the store, reload it, replay: same state."""
    batak = pytest.importorskip("batak")
    from batak import Match, Rules, format_action, parse_action

    rules = batak.preset("standard", deals=2)
    settings = {"rules": rules.to_dict(), "seed": 4242, "first_dealer": 1, "pace": "live"}
    seats = [Seat.human(1), Seat.human(2), Seat.bot("hard"), Seat.bot("easy")]
    g = await store.games.create_game(1, 2, 1, settings, seats=seats)
    match = Match(rules, 4242, first_dealer=1)
    await store.games.start_game(g.id, phase=match.deal.phase.value, to_act=match.to_act)
    rng = random.Random(7)
    for _ in range(80):  # into the second deal
        action = rng.choice(match.legal_actions())
        seat = match.to_act
        match.apply(action)
        await store.games.append_action(
            g.id,
            match.move_number - 1,
            format_action(action),
            seat=seat,
            phase=match.deal.phase.value,
            to_act=match.to_act,
            snapshot={"totals": match.totals, "deal": match.deal_number},
        )
    assert len(match.finished) == 1

    loaded = await store.games.load_game(g.id)
    s = loaded.settings
    again = Match.replay(
        Rules.from_dict(s["rules"]),
        s["seed"],
        [parse_action(a) for a in loaded.actions],
        first_dealer=s["first_dealer"],
    )
    assert again.actions == match.actions
    assert again.totals == match.totals == loaded.snapshot["totals"]
    assert again.deal_number == match.deal_number == 2
    assert [d.to_record() for d in again.finished] == [d.to_record() for d in match.finished]
    for seat in range(4):
        assert again.observation(seat) == match.observation(seat)
    assert again.legal_actions() == match.legal_actions()
    assert loaded.move == match.move_number and loaded.to_act == match.to_act
    assert loaded.phase == match.deal.phase.value


async def test_cancelled_calls_leave_the_store_consistent(store: Store) -> None:
    """A call cancelled at any point (e.g. an interaction timing out) either committed
    or did not, and never leaves the connection inside a transaction."""
    g = await store.games.create_game(1, 2, 3, {})
    move = 0
    outcomes: set[str] = set()
    for i in range(300):
        if i >= 60 and len(outcomes) == 2:
            break
        task = asyncio.create_task(
            store.games.append_action(g.id, move, f"a{move + 1}", seat=0, phase="p", to_act=1)
        )
        reader = asyncio.create_task(store.games.load_game(g.id))
        if i < 60:  # cancel after i turns of the event loop...
            for _ in range(i):
                await asyncio.sleep(0)
        else:  # ... or, on a loaded machine, after a growing pause
            await asyncio.sleep((i - 60) * 0.0002)
        task.cancel()
        reader.cancel()
        try:
            await task
            outcomes.add("committed")
        except asyncio.CancelledError:
            outcomes.add("cancelled")
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        async with store.database.read() as db:  # SQLite's one connection, or one of the pool
            assert not db.in_transaction
        game = await store.games.load_game(g.id)
        assert game.actions == tuple(f"a{i}" for i in range(1, game.move + 1))
        move = game.move
    assert (
        move == await store.games.append_action(g.id, move, "last", seat=0, phase="p", to_act=1) - 1
    )
    assert outcomes == {"committed", "cancelled"}
