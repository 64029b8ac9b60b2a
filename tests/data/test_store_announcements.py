"""A durable match end: the result, the closed table and what to post about it are
stored in one transaction; posting is then repeated until marked done. Recording the
same game twice writes nothing; other integrity errors are not taken for that."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from data import (
    AlreadyRecordedError,
    Announcement,
    DailyAlreadyPlayedError,
    Seat,
    Store,
    StoreBusyError,
)
from data.base import RETRY_DELAYS
from data.samples import STANDARD_RULES, synthetic_record

from store_clock import INTEGRITY_ERRORS, Clock, allow_inserts, refuse_inserts

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = [Seat.human(1), Seat.human(2), Seat.human(3), Seat.human(4)]


def records(seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    return [synthetic_record(rng) for _ in range(3)]  # rated: a try-out changes no standing


def end_of(game_id: int) -> list[Announcement]:
    return [
        Announcement("result", {"table": game_id}, channel_id=500),
        Announcement("standings", {"table": game_id}, channel_id=500),
        Announcement("rematch", {"table": game_id}),
    ]


async def test_match_end_is_one_transaction(store: Store) -> None:
    g = await store.games.create_game(1, 500, 1, {}, seats=PEOPLE)
    m = await store.matches.record_match(
        1, PEOPLE, records(1), rules=STANDARD_RULES, game_id=g.id, announcements=end_of(g.id)
    )
    assert (await store.games.get_game(g.id)).status == "finished"
    pending = await store.announcements.pending_announcements()
    assert [(a.kind, a.game_id, a.match_id, a.channel_id) for a in pending] == [
        ("result", g.id, m.id, 500),
        ("standings", g.id, m.id, 500),
        ("rematch", g.id, m.id, None),
    ]
    assert pending[0].payload == {"table": g.id} and pending[0].guild_id == 1
    assert pending[0].created_at == m.finished_at
    # posted one by one; a second mark (another poster) is told it lost
    assert await store.announcements.mark_announced(pending[0].id) is True
    assert await store.announcements.mark_announced(pending[0].id) is False
    assert await store.announcements.mark_announced(12345) is False
    assert [a.kind for a in await store.announcements.pending_announcements(game_id=g.id)] == [
        "standings",
        "rematch",
    ]
    assert await store.announcements.pending_announcements(guild_id=2) == []


async def test_recording_a_game_twice_writes_nothing(store: Store) -> None:
    g = await store.games.create_game(1, 500, 1, {}, seats=PEOPLE)
    first = await store.matches.record_match(
        1, PEOPLE, records(2), rules=STANDARD_RULES, game_id=g.id, announcements=end_of(g.id)
    )
    with pytest.raises(AlreadyRecordedError) as err:
        await store.matches.record_match(
            1, PEOPLE, records(2), rules=STANDARD_RULES, game_id=g.id, announcements=end_of(g.id)
        )
    assert err.value.match_id == first.id and err.value.game_id == g.id
    assert [m.id for m in await store.matches.recent_matches(1)] == [first.id]
    assert len(await store.announcements.pending_announcements()) == 3
    standing = await store.standings.player_stats(1, PEOPLE[0].player_key)
    assert standing is not None and standing.matches == 1


async def test_another_integrity_error_is_not_already_recorded(store: Store) -> None:
    g = await store.games.create_game(1, 500, 1, {}, seats=PEOPLE)
    await refuse_inserts(store, "match_records", "records refused")  # fails for its own reason
    with pytest.raises(INTEGRITY_ERRORS, match="records refused"):
        await store.matches.record_match(
            1, PEOPLE, records(3), rules=STANDARD_RULES, game_id=g.id, announcements=end_of(g.id)
        )
    # nothing of it stays: the table is open, no match, nothing to announce
    assert (await store.games.get_game(g.id)).is_open
    assert (
        await store.matches.recent_matches(1) == []
        and await store.announcements.pending_announcements() == []
    )
    await allow_inserts(store, "match_records")
    await store.matches.record_match(1, PEOPLE, records(3), rules=STANDARD_RULES, game_id=g.id)


async def test_daily_end_is_one_transaction(store: Store) -> None:
    seats = [Seat.human(1)] + [Seat.bot("hard")] * 3
    g = await store.games.create_game(1, 500, 1, {}, kind="daily", status="playing", seats=seats)
    await store.daily.start_daily(1, 1, game_id=g.id)
    done = [Announcement("result", {"score": 85}, channel_id=500)]
    result = await store.daily.finish_daily(1, 1, 85, placement=1, game_id=g.id, announcements=done)
    assert result.score == 85 and (await store.games.get_game(g.id)).status == "finished"
    assert [
        (a.kind, a.payload, a.game_id) for a in await store.announcements.pending_announcements()
    ] == [("result", {"score": 85}, g.id)]
    with pytest.raises(DailyAlreadyPlayedError):
        await store.daily.finish_daily(1, 1, 99, game_id=g.id, announcements=done)
    assert len(await store.announcements.pending_announcements()) == 1  # not announced twice


async def test_daily_integrity_error_is_not_already_played(store: Store) -> None:
    await refuse_inserts(store, "daily_results", "daily refused")
    with pytest.raises(INTEGRITY_ERRORS, match="daily refused"):
        await store.daily.finish_daily(1, 1, 85, announcements=[Announcement("result")])
    with pytest.raises(INTEGRITY_ERRORS, match="daily refused"):
        await store.daily.start_daily(1, 1)
    assert (
        await store.daily.daily_result(1, 1) is None
        and await store.announcements.pending_announcements() == []
    )


async def test_bad_announcements_are_refused_before_anything_is_written(store: Store) -> None:
    with pytest.raises(ValueError, match="lower-case identifier"):
        Announcement("Result!")
    with pytest.raises(ValueError, match="not JSON"):
        Announcement("result", {"when": datetime.now(UTC)})
    g = await store.games.create_game(1, 500, 1, {}, seats=PEOPLE)
    with pytest.raises(TypeError, match="expected an Announcement"):
        await store.matches.record_match(
            1,
            PEOPLE,
            records(4),
            rules=STANDARD_RULES,
            game_id=g.id,
            announcements=[("result", {})],  # type: ignore[list-item]  # the wrong type on purpose
        )
    assert (await store.games.get_game(g.id)).is_open and await store.matches.recent_matches(
        1
    ) == []


async def test_announce_on_its_own(store: Store) -> None:
    ids = await store.announcements.announce(
        3, [Announcement("channel_link", {"thread": 9}, channel_id=8)]
    )
    (a,) = await store.announcements.pending_announcements(guild_id=3)
    assert a.id == ids[0] and a.game_id is None and a.match_id is None


async def test_old_announcements_are_purged_with_old_tables(store: Store, clock: Clock) -> None:
    await store.announcements.announce(1, [Announcement("result")])
    clock.now = datetime(2026, 5, 1, tzinfo=UTC)
    await store.maintenance.purge_closed_games(30)
    assert await store.announcements.pending_announcements() == []


# ---------------------------------------------------------------- crashes
# Records the matches of open tables one after another, as the bot does at a match end,
# printing each game id once its transaction is committed; killed at a random moment.
RECORDER = r"""
import asyncio, random, sys
from data import Announcement, Seat, Store
from data.samples import STANDARD_RULES, synthetic_record

async def main(path, first, last):
    store = await Store.open(path, housekeeping=None)
    people = [Seat.human(u) for u in (1, 2, 3, 4)]
    for game_id in range(first, last + 1):
        rng = random.Random(game_id)
        await store.matches.record_match(
            1, people, [synthetic_record(rng) for _ in range(3)], rules=STANDARD_RULES,
            game_id=game_id,
            announcements=[Announcement("result", {"table": game_id}),
                           Announcement("standings", {"table": game_id})],
        )
        print(game_id, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
"""


async def test_killed_at_a_match_end_keeps_all_or_nothing(db_url: str) -> None:
    path = db_url
    store = await Store.open(path, housekeeping=None)
    ids = [(await store.games.create_game(1, 500, 100 + i, {})).id for i in range(150)]
    await store.close()
    rng = random.Random(7)
    acked: set[int] = set()
    for _ in range(3):
        first = max(acked, default=ids[0] - 1) + 1
        if first > ids[-1]:
            break
        proc = subprocess.Popen(
            [sys.executable, "-c", RECORDER, str(path), str(first), str(ids[-1])],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        for _ in range(rng.randint(5, 30)):
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else "recorder died"
            acked.add(int(line))
        await asyncio.sleep(rng.random() * 0.02)  # into the middle of a later match end
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate()

        store = await Store.open(path, housekeeping=None)  # passes the damage checks
        try:
            matches = {m.game_id: m.id for m in await store.matches.recent_matches(1, limit=1000)}
            pending = await store.announcements.pending_announcements(limit=10_000)
            by_game: dict[int | None, list[str]] = {}
            for a in pending:
                by_game.setdefault(a.game_id, []).append(a.kind)
                assert a.match_id == matches[a.game_id]
            for game_id in ids:
                game = await store.games.get_game(game_id)
                if game_id in matches:  # all of the end, exactly once ...
                    assert game.status == "finished"
                    assert by_game[game_id] == ["result", "standings"]
                else:  # ... or none of it
                    assert game.is_open and game_id not in by_game
                    assert game_id not in acked
            acked = set(matches)
        finally:
            await store.close()
    assert acked  # the test recorded something


async def test_a_crash_after_the_commit_leaves_the_posts_pending(db_url: str) -> None:
    """The old order (record, then post) lost the post when the bot died in between;
    now the next start finds it pending and posts it, then marks it."""
    path = db_url
    store = await Store.open(path, housekeeping=None)
    g = await store.games.create_game(1, 500, 1, {}, seats=PEOPLE)
    await store.close()
    script = RECORDER.replace(
        "print(game_id, flush=True)",
        "print(game_id, flush=True)\n"
        + (
            "        await asyncio.sleep(3600)"  # alive, "about to post": killed here
        ),
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(path), str(g.id), str(g.id)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == str(g.id), proc.stderr.read() if proc.stderr else ""
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()

    store = await Store.open(path, housekeeping=None)
    try:
        pending = await store.announcements.pending_announcements()
        assert [a.kind for a in pending] == ["result", "standings"]
        posted = []
        for a in pending:  # what the restarted bot does
            posted.append((a.kind, a.payload["table"]))
            assert await store.announcements.mark_announced(a.id)
        assert posted == [("result", g.id), ("standings", g.id)]
        assert await store.announcements.pending_announcements() == []
    finally:
        await store.close()


# ---------------------------------------------------------------- busy database
@pytest.mark.sqlite_only
async def test_a_locked_database_is_retried_with_back_off(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    slept: list[float] = []
    release_on = [2]  # the other writer finishes during our second wait (once)
    blocker = sqlite3.connect(path, isolation_level=None)

    async def sleep(delay: float) -> None:
        slept.append(delay)
        if len(slept) in release_on:
            release_on.clear()
            blocker.execute("COMMIT")

    store = await Store.open(path, busy_timeout_ms=0, housekeeping=None, sleep=sleep)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        g = await store.games.create_game(1, 2, 3, {})
        assert slept == list(RETRY_DELAYS[:2]) and store.database.busy_retries == 2
        assert (await store.games.get_game(g.id)).status == "lobby"

        slept.clear()
        blocker.execute("BEGIN IMMEDIATE")  # and now it never lets go
        with pytest.raises(StoreBusyError, match="stayed locked"):
            await store.games.create_game(1, 2, 4, {})
        assert slept == list(RETRY_DELAYS)
        blocker.execute("ROLLBACK")
        assert [x.id for x in await store.games.list_games()] == [g.id]  # nothing half-written
        assert not store.database.conn.in_transaction
    finally:
        await store.close()
        blocker.close()
