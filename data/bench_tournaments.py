"""``python -m data.bench_tournaments``: the tournament queries on a database of
100,000 finished matches, on SQLite or PostgreSQL (``--url``).

The database holds ``--matches`` finished matches (each with its closed table and four
players) in 20 servers, and 1,000 finished Swiss tournaments of 8 people in server 1
(3 rounds of 2 tables: 6,000 of those matches are tournament tables) plus a few under
way. Timed, p99 of ``--repeats`` runs each: what ``/batak stats`` asks (tournaments a
person won), what a finished table asks (its tournament row, its match's places), what
a restart asks (the open tournaments), and a tournament's board (entrants, tables,
standings computed by the engine).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from batak.swiss import TableResult, standings

from .matches import MATCH_COLUMNS, PLAYER_COLUMNS, insert_sql
from .models import user_key
from .store import Store, is_postgres_url

AT = "2026-06-15T12:00:00.000+00:00"
TOURNAMENTS = 1000
OPEN = 5
GAME_COLUMNS = (
    "id",
    "guild_id",
    "channel_id",
    "host_id",
    "kind",
    "status",
    "phase",
    "settings",
    "created_at",
    "updated_at",
    "finished_at",
)


def _pct(xs: Sequence[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, round(q * (len(ys) - 1)))]


async def populate(store: Store, n_matches: int) -> dict[str, int]:
    """Fill a fresh store; returns a few ids the queries look up."""
    rng = random.Random(7)
    tourney_games = TOURNAMENTS * 6
    first_tourney_game = n_matches - tourney_games + 1
    games, matches, players = [], [], []
    for mid in range(1, n_matches + 1):
        tourney = mid >= first_tourney_game
        guild = 1 if tourney or mid % 2 else 2 + mid % 19
        pool = 2000 if guild == 1 else 200
        people = [10_000 + p for p in rng.sample(range(pool), 4)]
        games.append(
            (mid, guild, 50, people[0], "tournament" if tourney else "table", "finished",
             "over", "{}", AT, AT, AT)
        )  # fmt: skip
        match = {
            "guild_id": guild, "game_id": mid, "preset": "standard", "rules": "{}",
            "seed": mid, "partnership": 0, "deals": 8, "finished_at": AT, "month": "2026-06",
            "rated": 1, "computers_finished": 0,
        }  # fmt: skip
        matches.append((mid, *(match[c] for c in MATCH_COLUMNS)))
        for seat in range(4):
            row = {
                "match_id": mid, "seat": seat, "guild_id": guild,
                "player_key": user_key(people[seat]), "user_id": people[seat],
                "bot_level": None, "total": 40 - 20 * seat, "placement": seat + 1,
                "won": int(seat == 0), "deals": 8, "contracts_taken": 2, "contracts_made": 1,
                "went_down": 1, "mu_before": 25.0, "sigma_before": 8.3, "mu_after": 25.0,
                "sigma_after": 8.0,
            }  # fmt: skip
            players.append(tuple(row[c] for c in PLAYER_COLUMNS))
    tournaments, entrants, tables = [], [], []
    for tid in range(1, TOURNAMENTS + OPEN + 1):
        done = tid <= TOURNAMENTS
        people = [10_000 + p for p in rng.sample(range(2000), 8)]
        tournaments.append(
            (tid, 1, 50, 900, "finished" if done else "running", 3, 3 if done else 1, "live",
             7200, "{}", 3 if done else 0, people[0] if done else None, AT, AT,
             AT if done else None)
        )  # fmt: skip
        entrants += [(tid, u, i + 1, f"p{u}", AT) for i, u in enumerate(people)]
        if not done:
            continue
        for r in range(3):
            rng.shuffle(people)
            for no in range(2):
                gid = first_tourney_game + (tid - 1) * 6 + r * 2 + no
                seats = json.dumps(people[no * 4 : no * 4 + 4])
                tables.append((tid, r + 1, no + 1, seats, gid, "[1,2,3,4]", "[40,20,0,-20]", AT))
    async with store.database.tx() as db:
        for table, cols, rows in (
            ("games", GAME_COLUMNS, games),
            ("matches", ("id", *MATCH_COLUMNS), matches),
            ("match_players", PLAYER_COLUMNS, players),
            (
                "tournaments",
                ("id", "guild_id", "channel_id", "organiser_id", "status", "rounds",
                 "current_round", "pace", "round_deadline_s", "settings", "announced_round",
                 "winner_id", "created_at", "updated_at", "finished_at"),
                tournaments,
            ),
            (
                "tournament_players",
                ("tournament_id", "user_id", "seq", "name", "joined_at"),
                entrants,
            ),
            (
                "tournament_tables",
                ("tournament_id", "round_no", "table_no", "players", "game_id", "placements",
                 "totals", "finished_at"),
                tables,
            ),
        ):  # fmt: skip
            for i in range(0, len(rows), 5000):
                await db.executemany(insert_sql(table, cols), rows[i : i + 5000])
    if store.dialect == "postgresql":
        async with store.database.tx() as db:
            for seq in ("games", "matches", "tournaments"):
                await db.execute(
                    f"SELECT setval(pg_get_serial_sequence('{seq}', 'id'), "
                    f"(SELECT max(id) FROM {seq}))"
                )
            await db.execute("ANALYZE")
    else:
        async with store.database.tx() as db:
            await db.execute("ANALYZE")
    winner = tournaments[TOURNAMENTS // 2][11]
    assert isinstance(winner, int)
    return {"winner": winner, "game": first_tourney_game + 100, "tournament": 500}


async def queries(store: Store, ids: dict[str, int], repeats: int) -> dict[str, float]:
    async def board() -> object:
        entrants = await store.tournaments.entrants(ids["tournament"])
        rows = await store.tournaments.tables(ids["tournament"])
        results = [
            TableResult(r.players, r.placements or (), r.totals or ()) for r in rows if r.finished
        ]
        return standings([e.user_id for e in entrants], results)

    cases: dict[str, Callable[[], Awaitable[object]]] = {
        "tournaments a person won (/batak stats)": lambda: store.tournaments.wins(1, ids["winner"]),
        "the tournament table of a finished game": lambda: store.tournaments.table_of_game(
            ids["game"]
        ),
        "a finished game's places and totals": lambda: store.tournaments.game_result(ids["game"]),
        "the open tournaments (start-up)": lambda: store.tournaments.open_tournaments(),
        "a tournament's board (entrants, tables, standings)": board,
    }
    out: dict[str, float] = {}
    for name, fn in cases.items():
        res = await fn()
        assert res, name
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            await fn()
            times.append((time.perf_counter() - t0) * 1000)
        out[name] = _pct(times, 0.99)
    return out


async def run(target: str, n_matches: int, repeats: int) -> dict[str, float]:
    store = await Store.open(target, housekeeping=None)
    try:
        t0 = time.perf_counter()
        ids = await populate(store, n_matches)
        built = time.perf_counter() - t0
        print(f"{n_matches:,} matches, {TOURNAMENTS + OPEN:,} tournaments, built in {built:.1f} s")
        return await queries(store, ids, repeats)
    finally:
        await store.close()


async def main_async(url: str, n_matches: int, repeats: int, where: Path | None) -> None:
    if is_postgres_url(url):
        import asyncpg

        name = f"batak_bench_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(url)
        try:
            version = await admin.fetchval("SHOW server_version")
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        base, _, query = url.partition("?")
        target = base.rsplit("/", 1)[0] + "/" + name + (f"?{query}" if query else "")
        label = f"PostgreSQL {version}"
        try:
            out = await run(target, n_matches, repeats)
        finally:
            admin = await asyncpg.connect(url)
            try:
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            finally:
                await admin.close()
    else:
        import sqlite3

        label = f"SQLite {sqlite3.sqlite_version}"
        with tempfile.TemporaryDirectory(prefix="batak-bench-", dir=where) as tmp:
            out = await run(str(Path(tmp) / "t.sqlite3"), n_matches, repeats)
    print(f"tournament queries on {label} (p99 of {repeats} runs):")
    for name, ms in out.items():
        print(f"  {name:<52} {ms:8.3f} ms")


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m data.bench_tournaments", description=__doc__)
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=50)
    ap.add_argument("--dir", type=Path, default=None, help="where the SQLite file goes")
    ap.add_argument(
        "--url",
        default=os.environ.get("DATABASE_URL", ""),
        help="postgresql://... to bench a PostgreSQL server (a temporary database is made)",
    )
    args: Any = ap.parse_args(argv)
    asyncio.run(main_async(args.url, args.matches, args.repeats, args.dir))


if __name__ == "__main__":
    main()
