"""Refusing a damaged database at open, with one clear message.

Two steps. Before SQLite touches the file, its 100-byte header is read: a file
that is not SQLite at all, a zeroed header or a file shorter than the header says
is refused by name; so is a damaged write-ahead log (``-wal``), whose committed
transactions SQLite would otherwise drop in silence (see ``data.wal``). Then,
on the open connection and before any write (so a damaged file is not made
worse), ``PRAGMA quick_check`` walks every page of the database, and
``PRAGMA integrity_check`` on the tables that hold tables in play also compares
their indexes with their rows: a damaged index there would make open tables
silently disappear at start-up.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Final

import aiosqlite

from . import wal as wal_check
from .models import DatabaseDamagedError

HEADER: Final = b"SQLite format 3\x00"
# Checked in full (rows against indexes): small, and what restoring open tables reads.
CHECKED_TABLES: Final = ("games", "game_seats", "game_actions", "announcements")
# SQLITE_CORRUPT, SQLITE_NOTADB: the file, not the query, is the problem.
_DAMAGE_CODES: Final = (11, 26)


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error says the file is damaged (not busy, not a bad query)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return (
        isinstance(exc, sqlite3.DatabaseError)
        and code is not None
        and code & 0xFF in (_DAMAGE_CODES)
    )


def check_file(path: str) -> None:
    """Raise ``DatabaseDamagedError`` if the file at ``path`` cannot be a whole SQLite
    database. A missing or empty file is fine: it becomes a new database."""
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        return
    if size == 0:
        return
    with open(path, "rb") as f:
        head = f.read(100)
    if len(head) < 100:
        raise DatabaseDamagedError(
            path, f"it is only {size} bytes, shorter than an SQLite header (truncated)"
        )
    if head[:16] != HEADER:
        what = "its header is zeroed" if not any(head) else "it is not an SQLite database"
        raise DatabaseDamagedError(path, f"{what} (the first bytes are not 'SQLite format 3')")
    raw = int.from_bytes(head[16:18], "big")
    page_size = 65536 if raw == 1 else raw
    if page_size < 512 or page_size & (page_size - 1):
        raise DatabaseDamagedError(path, f"its header gives an impossible page size {raw}")
    pages = int.from_bytes(head[28:32], "big")
    header_valid = head[24:28] == head[92:96]  # the page count is current (SQLite >= 3.7)
    wal = f"{path}-wal"
    # With a WAL the main file may lag behind its header until the next checkpoint;
    # quick_check, which reads through the WAL, judges that case.
    if not (os.path.exists(wal) and os.path.getsize(wal) > 0):
        if header_valid and pages and size < pages * page_size:
            raise DatabaseDamagedError(
                path,
                f"it is {size:,} bytes but its header says {pages:,} pages of {page_size} "
                f"bytes ({pages * page_size:,}): the file was truncated",
            )
        if size % page_size:
            raise DatabaseDamagedError(
                path,
                f"it is {size:,} bytes, not a whole number of {page_size}-byte pages "
                "(truncated or cut off while copying)",
            )
    else:
        wal_check.check_wal(path)


async def check_connection(db: aiosqlite.Connection, path: str) -> None:
    """Run SQLite's own checks on an open connection; ``DatabaseDamagedError`` if any fails."""
    try:
        async with db.execute("PRAGMA quick_check") as cur:
            problems = [str(r[0]) for r in await cur.fetchall()]
        if problems != ["ok"]:
            raise DatabaseDamagedError(path, "SQLite's quick_check found " + summarize(problems))
        async with db.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN "
            f"({', '.join('?' for _ in CHECKED_TABLES)})",
            CHECKED_TABLES,
        ) as cur:
            present = [str(r[0]) for r in await cur.fetchall()]
        for table in present:
            async with db.execute(f"PRAGMA integrity_check({table})") as cur:
                problems = [str(r[0]) for r in await cur.fetchall()]
            if problems != ["ok"]:
                raise DatabaseDamagedError(
                    path, f"SQLite's integrity_check of {table} found " + summarize(problems)
                )
    except sqlite3.DatabaseError as exc:
        if not is_damage(exc):
            raise
        raise DatabaseDamagedError(path, f"SQLite says '{exc}'") from exc


def summarize(problems: list[str]) -> str:
    """SQLite's check output in one line: the first problem and how many more."""
    lines = [
        ln.strip() for p in problems for ln in p.splitlines() if ln.strip() and "***" not in ln
    ]
    first = lines[0] if lines else "problems"
    more = f" and {len(lines) - 1} more problem(s)" if len(lines) > 1 else ""
    return f"'{first}'{more}"
