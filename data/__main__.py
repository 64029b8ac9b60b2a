"""Command line: ``python -m data bench | info [PATH] | migrate [PATH]``."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from dotenv import load_dotenv

from .models import StoreError
from .schema import LATEST_VERSION
from .store import Store, default_path

USAGE = """usage: python -m data COMMAND

  bench [--matches N] [--actions N] [--dir D]
                   commit latency, leaderboard time over N stored matches, size per match
  info [PATH]      schema version and row counts of the database
  migrate [PATH]   create the database or bring it to the current schema

PATH defaults to $DATABASE_PATH, else batak.sqlite3 in the data/ package folder
(the same default as the bot)."""


async def _info(path: str | None, migrate_only: bool) -> None:
    store = await Store.open(path, housekeeping=None)
    try:
        print(f"{store.path}: schema version {store.schema_version} (code: {LATEST_VERSION})")
        if migrate_only:
            return
        for table in (
            "games",
            "game_actions",
            "matches",
            "standings",
            "daily_results",
            "guild_settings",
        ):
            async with store._db.execute(f"SELECT count(*) FROM {table}") as cur:
                row = await cur.fetchone()
            print(f"  {table:<15} {row[0] if row else 0:>10,}")
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    cmd, rest = args[0], args[1:]
    load_dotenv()  # the bot's .env, so both open the same DATABASE_PATH
    if cmd == "bench":
        from .bench import main as bench_main

        bench_main(rest)
        return 0
    if cmd in ("info", "migrate"):
        path = rest[0] if rest else str(default_path())
        try:
            asyncio.run(_info(path, cmd == "migrate"))
        except StoreError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
