"""``python -m data bench``: how fast and how big the store is on this machine.

- commit latency of one action (``append_action`` with a state snapshot), p50 / p99;
- leaderboard query time over 100,000 stored matches (built in a temporary database
  with ``executemany``), with a player's stats and recent matches alongside;
- database size per stored match (its deal records compressed, players, standings);
- season boards and the season-end check over those matches (``data.bench_seasons``;
  on PostgreSQL too, the matches copied there).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from batak.rules import preset

from .bench_seasons import bench_season_queries, copy_to_postgres, print_season_queries
from .matches import (
    MATCH_COLUMNS,
    PLAYER_COLUMNS,
    encode_records,
    insert_sql,
    placements_of,
    seat_stats,
)
from .models import Seat, bot_key, ordinal, user_key
from .samples import DECK, STANDARD_RULES, engine_match, synthetic_match, synthetic_record
from .standings import STANDING_COLUMNS
from .store import DEFAULT_POOL_SIZE, Store


def _pct(xs: Sequence[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, round(q * (len(ys) - 1)))]


async def bench_actions(path: Path | str, n: int) -> dict[str, float]:
    """Commit latency of ``append_action`` (with a ~1.5 KB snapshot), in milliseconds."""
    store = await Store.open(path, housekeeping=None)
    try:
        seats = [Seat.human(1000 + i) for i in range(4)]
        game = await store.games.create_game(
            1, 2, 1000, {"rules": STANDARD_RULES, "seed": 7}, seats=seats
        )
        await store.games.start_game(game.id, phase="auction", to_act=1)
        rng = random.Random(1)
        rec = synthetic_record(rng)
        snapshot = {"hands": rec["hands"], "tricks": rec["tricks"][:3], "totals": [0, 0, 0, 0]}
        times = []
        move = 0
        for i in range(n):
            t0 = time.perf_counter()
            move = await store.games.append_action(
                game.id,
                move,
                f"play {DECK[i % 52]}",
                seat=i % 4,
                phase="play",
                to_act=(i + 1) % 4,
                snapshot=snapshot,
            )
            times.append((time.perf_counter() - t0) * 1000)
        loaded = await store.games.load_game(game.id)
        assert len(loaded.actions) == n
        t0 = time.perf_counter()
        for _ in range(20):
            await store.games.load_game(game.id)
        load_ms = (time.perf_counter() - t0) * 1000 / 20
    finally:
        await store.close()
    return {
        "p50": statistics.median(times),
        "p99": _pct(times, 0.99),
        "max": max(times),
        "load_ms": load_ms,
    }


async def bench_match_size(path: Path, n: int = 12) -> dict[str, float]:
    """Bytes per match, measured by playing ``n`` engine matches through the store:
    the table with its action log while in play, then the finished-match record."""
    from batak import Match, format_action

    store = await Store.open(path, synchronous="OFF", housekeeping=None)
    seats = [Seat.human(1), Seat.human(2), Seat.bot("hard"), Seat.bot("normal")]
    rules = preset("standard")
    sizes = [_file_size(path, checkpoint=True)]
    actions = 0
    games = []
    try:
        for i in range(n):
            g = await store.games.create_game(
                1, 2, 1000 + i, {"rules": rules.to_dict(), "seed": i}, seats=seats
            )  # 12 tables open at once: each has its own host
            m = Match(rules, i)
            await store.games.start_game(g.id, phase="auction", to_act=m.to_act)
            rng = random.Random(i)
            while not m.is_over:
                seat = m.to_act
                a = rng.choice(m.legal_actions())
                m.apply(a)
                await store.games.append_action(
                    g.id,
                    m.move_number - 1,
                    format_action(a),
                    seat=seat,
                    phase="play",
                    to_act=m.to_act,
                    actor="bot",
                )
            actions += m.move_number
            games.append((g.id, m))
        sizes.append(_file_size(path, checkpoint=True))
        for gid, m in games:
            await store.matches.record_match(
                1,
                seats,
                [d.to_record() for d in m.finished],
                rules=rules.to_dict(),
                seed=0,
                totals=m.totals,
                winners=m.winners,
                game_id=gid,
            )
        sizes.append(_file_size(path, checkpoint=True))
        store.database.clock = lambda: datetime.now(UTC) + timedelta(days=365)
        await store.maintenance.purge_closed_games(30)
        async with store.database.conn.execute("VACUUM"):
            pass
        sizes.append(_file_size(path, checkpoint=True))
    finally:
        await store.close()
    return {
        "actions": actions / n,
        "log": (sizes[1] - sizes[0]) / n,
        "record": (sizes[2] - sizes[1]) / n,
        "after_purge": (sizes[3] - sizes[0]) / n,
    }


def _row(columns: Sequence[str], values: Mapping[str, Any]) -> tuple[Any, ...]:
    """``values`` in the order of ``columns``. A column the store writes that the bench
    has no value for stops the bench here, naming it, instead of a row that does not fit."""
    missing = [c for c in columns if c not in values]
    if missing:
        raise KeyError(f"the bench gives no value for the store's column(s) {missing}")
    return tuple(values[c] for c in columns)


def _populate(
    path: Path, n_matches: int, blobs: Sequence[tuple[bytes, list[dict[str, int]]]]
) -> None:
    """Fill ``path`` (already migrated) with ``n_matches`` finished matches and standings.

    20 servers; server 1 has 2,000 players (half of the matches), the others 200 each.
    Standings rows are the per-player sums of the inserted matches, as the store keeps them.
    The rows are written by the store's own column names (``MATCH_COLUMNS``,
    ``PLAYER_COLUMNS``, ``STANDING_COLUMNS``), so a schema change that the store follows
    is followed here, or named if the bench has no value for a new column.
    """
    rng = random.Random(42)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    months = ["2026-" + f"{m:02d}" for m in range(1, 12)]
    agg: dict[tuple[int, str, str], list[Any]] = {}
    match_rows = []
    player_rows = []
    record_rows = []
    insert_match = insert_sql("matches", ("id", *MATCH_COLUMNS))
    insert_player = insert_sql("match_players", PLAYER_COLUMNS)
    for mid in range(1, n_matches + 1):
        guild = 1 if mid % 2 else 2 + mid % 19
        pool = 2000 if guild == 1 else 200
        month = months[mid * len(months) // (n_matches + 1)]
        at = f"{month}-{1 + mid % 28:02d}T{mid % 24:02d}:{mid % 60:02d}:00.000+00:00"
        blob, stats = blobs[mid % len(blobs)]
        players = [*rng.sample(range(pool), 3), -1] if mid % 3 == 0 else rng.sample(range(pool), 4)
        keys = [bot_key("hard") if p < 0 else user_key(10_000 + p) for p in players]
        totals = [st["score"] for st in stats]
        places = placements_of(totals)
        match = {
            "id": mid,
            "guild_id": guild,
            "game_id": None,
            "preset": "standard",
            "rules": json.dumps(STANDARD_RULES),
            "seed": mid,
            "partnership": 0,
            "deals": 8,
            "finished_at": at,
            "month": month,
            "rated": 1,
            "computers_finished": 0,
        }
        match_rows.append(_row(("id", *MATCH_COLUMNS), match))
        record_rows.append((mid, blob))
        for s in range(4):
            st = stats[s]
            uid = None if players[s] < 0 else 10_000 + players[s]
            lvl = "hard" if uid is None else None
            mu, sigma = 25 + rng.gauss(0, 3), 8.3 - min(8.0, mid / n_matches * 6)
            player = {
                "match_id": mid,
                "seat": s,
                "guild_id": guild,
                "player_key": keys[s],
                "user_id": uid,
                "bot_level": lvl,
                "total": totals[s],
                "placement": places[s],
                "won": int(places[s] == 1),
                "deals": st["deals"],
                "contracts_taken": st["taken"],
                "contracts_made": st["made"],
                "went_down": st["down"],
                "mu_before": 25.0,
                "sigma_before": 8.33,
                "mu_after": mu,
                "sigma_after": sigma,
            }
            player_rows.append(_row(PLAYER_COLUMNS, player))
            for period in ("all", month, "s:" + month):  # its season: monthly, UTC
                a = agg.setdefault(
                    (guild, period, keys[s]), [uid, lvl, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0, at]
                )
                a[2] += 1
                a[3] += int(places[s] == 1)
                a[4] += st["deals"]
                a[5] += st["score"]
                a[6] += st["taken"]
                a[7] += st["made"]
                a[8] += st["down"]
                a[9], a[10], a[11] = mu, sigma, at
        if len(match_rows) >= 5000 or mid == n_matches:
            db.executemany(insert_match, match_rows)
            db.executemany(insert_sql("match_records", ("match_id", "jsonl_z")), record_rows)
            db.executemany(insert_player, player_rows)
            match_rows, player_rows, record_rows = [], [], []
    standing_rows = []
    for (g, per, key), a in agg.items():
        standing = {
            "guild_id": g,
            "period": per,
            "player_key": key,
            "user_id": a[0],
            "bot_level": a[1],
            "matches": a[2],
            "wins": a[3],
            "deals": a[4],
            "deal_score_sum": a[5],
            "contracts_taken": a[6],
            "contracts_made": a[7],
            "went_down": a[8],
            "mu": a[9],
            "sigma": a[10],
            "ordinal": ordinal(a[9], a[10]),
            "start_ordinal": 0.0,
            "last_match_at": a[11],
        }
        standing_rows.append(_row(STANDING_COLUMNS, standing))
    db.executemany(insert_sql("standings", STANDING_COLUMNS), standing_rows)
    played = {(g, per[2:]) for g, per, _ in agg if per.startswith("s:")}
    db.executemany(insert_sql("seasons", ("guild_id", "season")), sorted(played))
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


async def bench_queries(path: Path, repeats: int = 50) -> dict[str, float]:
    store = await Store.open(path, housekeeping=None)
    out: dict[str, float] = {}
    try:
        cases: dict[str, Any] = {
            "leaderboard by rating, all time": lambda: store.standings.leaderboard(1, by="rating"),
            "leaderboard by wins, all time": lambda: store.standings.leaderboard(1, by="wins"),
            "leaderboard by rating, a month": lambda: store.standings.leaderboard(
                1, by="rating", period="2026-06"
            ),
            "leaderboard by wins, a month": lambda: store.standings.leaderboard(
                1, by="wins", period="2026-06"
            ),
            "leaderboard, people only": lambda: store.standings.leaderboard(1, include_bots=False),
            "player stats (with rank)": lambda: store.standings.player_stats(1, user_key(10_001)),
            "recent matches of a player": lambda: store.matches.recent_matches(1, user_key(10_001)),
            "recent matches + records": lambda: store.matches.recent_matches(
                1, user_key(10_001), with_records=True
            ),
        }
        for name, fn in cases.items():
            await fn()  # warm
            times = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                res = await fn()
                times.append((time.perf_counter() - t0) * 1000)
            assert res, name
            out[name] = _pct(times, 0.99)
        # one more finished match on the full database, with the rating update
        rng = random.Random(5)
        recs = synthetic_match(rng)
        seats = [Seat.human(10_001), Seat.human(10_002), Seat.human(10_003), Seat.bot("hard")]
        times = []
        for _ in range(20):
            t0 = time.perf_counter()
            await store.matches.record_match(1, seats, recs, rules=STANDARD_RULES)
            times.append((time.perf_counter() - t0) * 1000)
        out["record a finished match (+ ratings)"] = _pct(times, 0.99)
    finally:
        await store.close()
    # the same leaderboard computed from the match rows, without the standings table
    db = sqlite3.connect(path)
    t0 = time.perf_counter()
    db.execute(
        "SELECT player_key, count(*), sum(won) FROM match_players WHERE guild_id = 1 "
        "GROUP BY player_key ORDER BY sum(won) DESC LIMIT 10"
    ).fetchall()
    out["(for comparison) wins aggregated from match rows"] = (time.perf_counter() - t0) * 1000
    db.close()
    return out


async def bench_open(path: Path) -> dict[str, float]:
    """Start-up cost of ``Store.open``: with the damage checks and without."""
    out = {}
    for name, check in (("plain", False), ("checked", True)):
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            store = await Store.open(path, housekeeping=None, check=check)
            times.append((time.perf_counter() - t0) * 1000)
            await store.close()
        out[name] = min(times)
    return out


def _file_size(path: Path, checkpoint: bool = False) -> int:
    if checkpoint:
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(
        os.path.getsize(str(path) + suffix)
        for suffix in ("", "-wal")
        if os.path.exists(str(path) + suffix)
    )


async def run(
    n_matches: int = 100_000,
    n_actions: int = 1000,
    keep: Path | None = None,
    tables: int = 200,
    moves: int = 20,
    played: int = 12,
) -> None:
    with tempfile.TemporaryDirectory(prefix="batak-bench-", dir=keep) as tmp:
        tdir = Path(tmp)
        print(f"batak-bot storage bench (SQLite {sqlite3.sqlite_version}, temp dir {tdir})")

        a = await bench_actions(tdir / "actions.sqlite3", n_actions)
        print(
            f"\none action commit (append_action + snapshot, synchronous=FULL), {n_actions} runs:\n"
            f"  p50 {a['p50']:.3f} ms   p99 {a['p99']:.3f} ms   max {a['max']:.3f} ms"
            f"   (target p99 <= 10 ms)\n"
            f"  load a game with its {n_actions}-action log: {a['load_ms']:.3f} ms"
        )
        await _run_tables(None, tables, moves, tdir)

        try:
            z = await bench_match_size(tdir / "size.sqlite3", played)
            print(
                f"\nsize of one 8-deal match ({z['actions']:.0f} actions), engine-played:\n"
                f"  while in play, the table and its action log: {z['log'] / 1024:.1f} KB\n"
                f"  once finished, the match, its players and deal records: "
                f"{z['record'] / 1024:.1f} KB more\n"
                f"  after purge_closed_games() drops the old table: "
                f"{z['after_purge'] / 1024:.1f} KB per match"
            )
        except ImportError:
            pass

        rng = random.Random(3)
        try:
            matches = [engine_match(s) for s in range(8)]
            source = "engine-played (random legal moves)"
        except ImportError:
            matches = [synthetic_match(rng) for _ in range(8)]
            source = "synthetic"
        blobs = [(encode_records(m), [seat_stats(m, s) for s in range(4)]) for m in matches]
        raw = statistics.mean(sum(len(json.dumps(r)) for r in m) for m in matches)
        comp = statistics.mean(len(b) for b, _ in blobs)

        big = tdir / "matches.sqlite3"
        store = await Store.open(big, housekeeping=None)
        await store.close()
        empty = _file_size(big)
        t0 = time.perf_counter()
        _populate(big, n_matches, blobs)
        build = time.perf_counter() - t0
        size = _file_size(big)
        print(
            f"\n{n_matches:,} finished matches ({source} deal records, "
            f"{len(matches[0])} deals each), built in {build:.1f} s:\n"
            f"  database {size / 1e6:.1f} MB = {(size - empty) / n_matches / 1024:.2f} KB per match"
            f" (deal records {raw / 1024:.1f} KB as JSON, {comp / 1024:.2f} KB compressed)"
        )
        q = await bench_queries(big)
        print("\nqueries on that database (p99 of 50 runs; target leaderboard <= 50 ms):")
        for name, ms in q.items():
            print(f"  {name:<52} {ms:8.3f} ms")
        print_season_queries(await bench_season_queries(big))
        o = await bench_open(big)
        print(
            f"\nopening that database ({_file_size(big) / 1e6:.1f} MB), best of 3:\n"
            f"  without the damage checks {o['plain']:8.1f} ms\n"
            f"  with them (header, quick_check, integrity_check of the games tables) "
            f"{o['checked']:8.1f} ms"
        )


async def bench_tables(
    target: Path | str, tables: int = 200, moves: int = 20, processes: int = 1, pool: int = 1
) -> dict[str, float]:
    """``tables`` tables in play at once, each committing ``moves`` actions (with a
    snapshot) as fast as it can, spread over ``processes`` stores (as separate bot
    processes would have; PostgreSQL: ``pool`` connections each, SQLite: one):
    moves per second and commit latency."""
    stores = [await Store.open(target, housekeeping=None, pool_size=pool) for _ in range(processes)]
    try:
        seats = [Seat.human(1000 + i) for i in range(4)]
        rec = synthetic_record(random.Random(1))
        snapshot = {"hands": rec["hands"], "tricks": rec["tricks"][:3], "totals": [0, 0, 0, 0]}
        games = []
        for t in range(tables):
            s = stores[t % processes]
            guild = 100_000 * (processes + 10 * pool) + t  # a server per table, new each run
            g = await s.games.create_game(guild, 2, 1000, {"seed": t}, seats=seats)
            await s.games.start_game(g.id, phase="play", to_act=0)
            games.append((s, g.id))
        times: list[float] = []

        async def play(s: Store, gid: int) -> None:
            move = 0
            for i in range(moves):
                async with s.locks.table_lock(gid):
                    t0 = time.perf_counter()
                    move = await s.games.append_action(
                        gid,
                        move,
                        f"play {DECK[i % 52]}",
                        seat=i % 4,
                        phase="play",
                        to_act=(i + 1) % 4,
                        snapshot=snapshot,
                    )
                    times.append((time.perf_counter() - t0) * 1000)

        t0 = time.perf_counter()
        await asyncio.gather(*(play(s, gid) for s, gid in games))
        wall = time.perf_counter() - t0
        for s, gid in games[:: max(1, tables // 10)]:
            assert (await s.games.load_game(gid)).move == moves
    finally:
        for s in stores:
            await s.close()
    return {"moves_s": len(times) / wall, "p50": statistics.median(times), "p99": _pct(times, 0.99)}


def _print_tables(label: str, r: dict[str, float]) -> None:
    print(
        f"  {label:<18} {r['moves_s']:6.0f} moves/s   append_action p50 {r['p50']:7.1f} ms"
        f"   p99 {r['p99']:7.1f} ms (queueing for the connection included)"
    )


async def run_postgres(
    url: str, n_actions: int, tables: int, moves: int, n_matches: int = 100_000
) -> None:
    """The bench on a fresh database of the server at ``url`` (dropped afterwards)."""
    import uuid

    import asyncpg

    name = f"batak_bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(url)
    try:
        version = await admin.fetchval("SHOW server_version")
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    base, _, query = url.partition("?")
    db_url = base.rsplit("/", 1)[0] + "/" + name + (f"?{query}" if query else "")
    try:
        print(f"batak-bot storage bench (PostgreSQL {version}, temporary database {name})")
        a = await bench_actions(db_url, n_actions)
        print(
            f"\none action commit (append_action + snapshot), {n_actions} runs:\n"
            f"  p50 {a['p50']:.3f} ms   p99 {a['p99']:.3f} ms   max {a['max']:.3f} ms"
            f"   (target p99 <= 10 ms)\n"
            f"  load a game with its {n_actions}-action log: {a['load_ms']:.3f} ms"
        )
        await _run_tables(db_url, tables, moves, None)
        await bench_postgres_seasons(db_url, n_matches)
    finally:
        admin = await asyncpg.connect(url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def bench_postgres_seasons(url: str, n_matches: int) -> None:
    """The season queries on PostgreSQL at ``url`` (a fresh database): the bench's
    matches are built in a temporary SQLite file, then copied there."""
    rng = random.Random(3)
    matches = [synthetic_match(rng) for _ in range(8)]
    blobs = [(encode_records(m), [seat_stats(m, s) for s in range(4)]) for m in matches]
    with tempfile.TemporaryDirectory(prefix="batak-bench-") as tmp:
        lite = Path(tmp) / "matches.sqlite3"
        await (await Store.open(lite, housekeeping=None)).close()
        _populate(lite, n_matches, blobs)
        await (await Store.open(url, housekeeping=None)).close()
        t0 = time.perf_counter()
        copied = await copy_to_postgres(lite, url)
    print(f"\n{copied:,} finished matches copied in {time.perf_counter() - t0:.1f} s")
    print_season_queries(await bench_season_queries(url))


async def _run_tables(target: str | None, tables: int, moves: int, tdir: Path | None) -> None:
    """SQLite (a new file in ``tdir`` each time): one store, then two (two processes').
    PostgreSQL (``target``): one store on one connection, on a pool, then two stores."""
    print(f"\n{tables} tables in play at once, {moves} moves each, every move under table_lock:")
    pools = [(1, 1), (2, 1)] if tdir else [(1, 1), (1, DEFAULT_POOL_SIZE), (2, DEFAULT_POOL_SIZE)]
    for procs, pool in pools:
        where: Path | str | None = target if tdir is None else tdir / f"tables-{procs}.sqlite3"
        assert where is not None
        r = await bench_tables(where, tables, moves, procs, pool)
        _print_tables(f"{procs} store(s), pool {pool}" if not tdir else f"{procs} store(s)", r)


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m data bench", description=__doc__)
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--actions", type=int, default=1000)
    ap.add_argument("--dir", type=Path, default=None, help="where to put the temporary databases")
    ap.add_argument("--tables", type=int, default=200, help="tables in play at once")
    ap.add_argument("--moves", type=int, default=20, help="moves per table")
    ap.add_argument(
        "--played",
        type=int,
        default=12,
        help="engine-played matches stored to measure the size of one",
    )
    ap.add_argument(
        "--url",
        default=os.environ.get("DATABASE_URL", ""),
        help="postgresql://... to bench a PostgreSQL server (default: $DATABASE_URL; "
        "a temporary database is created there); else SQLite files in --dir",
    )
    args = ap.parse_args(argv)
    if args.url.startswith(("postgresql://", "postgres://")):
        asyncio.run(run_postgres(args.url, args.actions, args.tables, args.moves, args.matches))
    else:
        asyncio.run(run(args.matches, args.actions, args.dir, args.tables, args.moves, args.played))
