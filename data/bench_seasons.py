"""The seasons' part of ``python -m data bench``: season boards and the season-end check
over the bench's 100,000 matches (server 1: half of them, 2,000 players), on SQLite and,
copied there, on PostgreSQL.

PostgreSQL gets the SQLite database's ``matches``, ``match_players``, ``standings`` and
``seasons`` rows by ``COPY`` (the deal records are left out: no season query reads
them)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .season_calendar import season_of_label
from .store import Store

COPIED = ("matches", "match_players", "standings", "seasons")


def _pct(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, round(q * (len(ys) - 1)))]


async def bench_season_queries(target: Path | str, repeats: int = 30) -> dict[str, float]:
    """p99 (ms) of the season queries on a database filled by the bench; ``target``
    an SQLite file or a PostgreSQL URL."""
    # the bench's matches end in 2026-01 .. 2026-11: "now" is in December
    now = datetime(2026, 12, 3, 12, tzinfo=UTC)
    store = await Store.open(target, housekeeping=None, clock=lambda: now)
    out: dict[str, float] = {}
    june = season_of_label("2026-06", "UTC")
    try:
        cases: dict[str, Callable[[], Awaitable[Any]]] = {
            "season board by wins, a month (UTC)": lambda: store.seasons.board(1, june),
            "season board by rating, a month": lambda: store.seasons.board(1, june, by="rating"),
            "season board, a smaller server (200 players)": lambda: store.seasons.board(2, june),
            "seasons with matches (autocomplete, 11)": lambda: store.seasons.labels(1),
            "the season-end check (nothing to do)": lambda: _check(store, 1, now),
        }
        # every season but each server's November ended before: close those unannounced
        await _end_all_but_november(store)
        await store.seasons.close(1, season_of_label("2026-11", "UTC"))
        for name, fn in cases.items():
            await fn()  # warm
            times = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                await fn()
                times.append((time.perf_counter() - t0) * 1000)
            out[name] = _pct(times, 0.99)
        closes = []
        for guild in range(2, 12):  # each server's November, ended: podium + announcement
            t0 = time.perf_counter()
            closed = await store.seasons.close_due(guild, now)
            closes.append((time.perf_counter() - t0) * 1000)
            assert [s.label for s in closed] == ["2026-11"], guild
        out["close a season (board, podium, announcement)"] = _pct(closes, 0.99)
    finally:
        await store.close()
    return out


async def _check(store: Store, guild: int, now: datetime) -> None:
    assert await store.seasons.due(guild, now) == []


async def _end_all_but_november(store: Store) -> None:
    async with store.database.tx() as db:
        await db.execute("UPDATE seasons SET ended = 'bench' WHERE season <> '2026-11'")


async def copy_to_postgres(sqlite_file: Path, url: str) -> int:
    """Copy the bench's rows into the (migrated) PostgreSQL database at ``url``; the
    number of matches copied."""
    import asyncpg

    src = sqlite3.connect(sqlite_file)
    conn = await asyncpg.connect(url)
    try:
        for table in COPIED:
            cols = [r[1] for r in src.execute(f"PRAGMA table_info({table})")]
            rows = src.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall()
            await conn.copy_records_to_table(table, records=rows, columns=cols)
        await conn.execute("ANALYZE")
        return int(await conn.fetchval("SELECT count(*) FROM matches"))
    finally:
        await conn.close()
        src.close()


def print_season_queries(q: dict[str, float]) -> None:
    print("\nseason queries (p99; target <= 50 ms):")
    for name, ms in q.items():
        print(f"  {name:<52} {ms:8.3f} ms")
