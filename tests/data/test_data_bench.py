"""``python -m data bench`` fills its database as the store would: by the store's own
column names, which are every column of the tables (so a migration that adds one must
name it there, and the bench then stops naming it until it gives a value)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data import Seat, Store, user_key
from data.bench import _populate, _row
from data.matches import MATCH_COLUMNS, PLAYER_COLUMNS, encode_records, seat_stats
from data.samples import STANDARD_RULES, engine_match
from data.standings import STANDING_COLUMNS


async def _migrated(path: Path) -> None:
    store = await Store.open(path, housekeeping=None)
    await store.close()


async def test_the_store_writes_every_column_of_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "schema.sqlite3"
    await _migrated(path)
    with sqlite3.connect(path) as db:
        columns = {
            table: {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            for table in ("matches", "match_players", "standings")
        }
    assert columns["matches"] == {"id", *MATCH_COLUMNS}
    assert columns["match_players"] == set(PLAYER_COLUMNS)
    assert columns["standings"] == set(STANDING_COLUMNS)


def test_a_column_without_a_value_is_named() -> None:
    assert _row(("a", "b"), {"b": 2, "a": 1, "extra": 3}) == (1, 2)
    with pytest.raises(KeyError, match=r"\['rated'\]"):
        _row(("guild_id", "rated"), {"guild_id": 1})


async def test_the_bench_population_reads_back_through_the_store(tmp_path: Path) -> None:
    path = tmp_path / "matches.sqlite3"
    await _migrated(path)
    matches = [engine_match(seed) for seed in range(3)]
    blobs = [(encode_records(m), [seat_stats(m, s) for s in range(4)]) for m in matches]
    _populate(path, 60, blobs)

    store = await Store.open(path, housekeeping=None)
    try:
        recent = await store.matches.recent_matches(1, limit=100, with_records=True)
        assert len(recent) == 30  # the odd match ids are server 1's
        for summary in recent:
            assert summary.rated and not summary.computers_finished
            assert summary.records is not None and len(summary.records) == summary.deals
            assert sorted(p.seat for p in summary.players) == [0, 1, 2, 3]
        # the standings are the sums of the match rows, as the store keeps them
        board = await store.standings.leaderboard(1, by="wins", limit=500)
        assert sum(s.matches for s in board) == 4 * 30
        assert sum(s.wins for s in board) == sum(
            p.won for summary in recent for p in summary.players
        )
        person = next(s for s in board if s.user_id is not None)
        played = await store.matches.recent_matches(1, person.player_key, limit=100)
        assert len(played) == person.matches

        # the store goes on from the bench's rows: one more rated match
        key = user_key(person.user_id)
        seats = [Seat.human(person.user_id), Seat.human(1), Seat.human(2), Seat.human(3)]
        await store.matches.record_match(1, seats, matches[0], rules=STANDARD_RULES)
        after = await store.standings.player_stats(1, key)
        assert after is not None and after.matches == person.matches + 1
    finally:
        await store.close()
