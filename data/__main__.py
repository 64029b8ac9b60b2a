"""Command line: ``python -m data bench | info [DB] | migrate [DB] | backup DEST [PATH] |
achievements --recompute [--apply] [DB]``."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from dotenv import load_dotenv

from .backup import backup_database
from .models import EXIT_DATABASE_DAMAGED, DatabaseDamagedError, StoreError
from .schema import LATEST_VERSION
from .store import Store, default_url, is_postgres_url, sqlite_path

USAGE = f"""usage: python -m data COMMAND

  bench [--matches N] [--actions N] [--dir D] [--tables N] [--moves N] [--url URL]
                     commit latency, 200 tables at once, leaderboard time over N stored
                     matches, size per match; on PostgreSQL when the URL is postgresql://
  info [DB]          schema version and row counts of the database
  migrate [DB]       create the database or bring it to the current schema
  backup DEST [PATH] copy the SQLite database to the new file DEST (safe while the bot
                     runs); for PostgreSQL use pg_dump
  achievements --recompute [--apply] [DB]
                     work out every achievement again from the stored deal records and
                     daily results and compare with the stored ones (exit 1 if they
                     differ); --apply stores the missing ones (a database older than
                     achievements; run it with the bot stopped)

DB is a file path, sqlite:///PATH or postgresql://USER:PASSWORD@HOST:PORT/DATABASE. It
defaults to $DATABASE_URL, else $DATABASE_PATH (both also read from .env), else
batak.sqlite3 in the data/ package folder: the same default as the bot.
Exit status: 0 done, 1 error, 2 bad usage, {EXIT_DATABASE_DAMAGED} the database is damaged."""

TABLES = (
    "games",
    "game_actions",
    "matches",
    "standings",
    "daily_results",
    "guild_settings",
    "user_settings",
    "announcements",
    "bot_state",
    "achievements",
)


async def _info(path: str, migrate_only: bool) -> None:
    store = await Store.open(path, housekeeping=None)
    try:
        print(f"{store.path}: schema version {store.schema_version} (code: {LATEST_VERSION})")
        if migrate_only:
            return
        catalog = (
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?"
            if store.dialect == "sqlite"
            else "SELECT count(*) FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_name = ?"
        )
        async with store.database.read():
            for table in TABLES:
                exists = await store.database.scalar(catalog, (table,))
                if exists:
                    n = await store.database.scalar(f"SELECT count(*) FROM {table}")
                    print(f"  {table:<15} {n:>10,}")
    finally:
        await store.close()


async def _achievements(path: str, apply: bool) -> int:
    store = await Store.open(path, housekeeping=None)
    try:
        recount = await store.achievements.recompute()
        print(
            f"{store.path}: {len(recount.stored)} achievements stored, "
            f"{len(recount.computed)} from the records"
        )
        for label, keys in (
            ("missing", recount.missing),
            ("not earned by the records", recount.extra),
            ("stored with another date or match", recount.changed),
        ):
            for guild_id, user_id, code in keys:
                print(f"  {label}: server {guild_id}, user {user_id}, {code}")
        if apply and recount.missing:
            added = await store.achievements.apply(recount)
            print(f"added {added}")
            recount = await store.achievements.recompute()
        print("identical" if recount.same else "different")
        return 0 if recount.same else 1
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    cmd, rest = args[0], args[1:]
    load_dotenv()  # the bot's .env, so both open the same DATABASE_URL / DATABASE_PATH
    try:
        if cmd == "bench":
            from .bench import main as bench_main

            bench_main(rest)
        elif cmd in ("info", "migrate") and len(rest) <= 1:
            path = rest[0] if rest else default_url()
            asyncio.run(_info(path, cmd == "migrate"))
        elif cmd == "achievements" and "--recompute" in rest:
            flags = {"--recompute", "--apply"}
            paths = [a for a in rest if a not in flags]
            if len(paths) > 1:
                print(USAGE, file=sys.stderr)
                return 2
            path = paths[0] if paths else default_url()
            return asyncio.run(_achievements(path, "--apply" in rest))
        elif cmd == "backup" and len(rest) in (1, 2):
            source = rest[1] if len(rest) == 2 else default_url()
            if is_postgres_url(source):
                print(
                    "error: backup copies SQLite files; for PostgreSQL use pg_dump "
                    "(e.g. pg_dump -Fc -f batak.dump DATABASE_URL)",
                    file=sys.stderr,
                )
                return 1
            done = backup_database(sqlite_path(source), rest[0])
            print(
                f"backed up {done.source} (schema version {done.schema_version}) to "
                f"{done.dest}: {done.size_bytes:,} bytes in {done.seconds:.2f} s, "
                "quick_check ok"
            )
        else:
            print(USAGE, file=sys.stderr)
            return 2
    except DatabaseDamagedError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_DATABASE_DAMAGED
    except (StoreError, OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
