"""``python -m data backup DEST``: a consistent copy of a live database.

SQLite's online backup API copies the pages under one read transaction. In WAL
mode a reader never blocks the writer (and the writer never disturbs the
reader's snapshot), so the bot keeps committing while the copy is made, and
the copy holds exactly the transactions committed when it started. The copy is
written next to ``DEST`` first, switched to a single self-contained file
(rollback journal, no ``-wal``), checked with ``PRAGMA quick_check``, flushed to
disk and only then renamed to ``DEST``: a failed backup never leaves a file that
looks like a good one.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from . import health
from .models import DatabaseDamagedError, NotABatakDatabaseError, StoreError
from .schema import APPLICATION_ID


@dataclass(frozen=True, slots=True)
class BackupResult:
    source: str
    dest: str
    schema_version: int
    pages: int
    size_bytes: int
    seconds: float


def backup_database(
    source: str | os.PathLike[str], dest: str | os.PathLike[str], *, busy_timeout_ms: int = 10_000
) -> BackupResult:
    """Copy the batak-bot database at ``source`` to the new file ``dest``.

    Safe while the bot runs and writes. Raises ``StoreError`` when there is no
    database at ``source`` or ``dest`` already exists (it is never overwritten),
    ``DatabaseDamagedError`` for a damaged source and ``NotABatakDatabaseError``
    for another application's file.
    """
    src_path, dst_path = str(source), Path(dest)
    if not os.path.isfile(src_path) or os.path.getsize(src_path) == 0:
        raise StoreError(f"no database at {src_path}")
    if dst_path.exists():
        raise StoreError(f"{dst_path} already exists; give a new file name for the backup")
    health.check_file(src_path)
    dst_path.parent.mkdir(parents=True, exist_ok=True)
    partial = dst_path.with_name(dst_path.name + ".partial")
    started = time.perf_counter()
    src = sqlite3.connect(src_path, timeout=busy_timeout_ms / 1000)
    try:
        src.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        app_id = int(src.execute("PRAGMA application_id").fetchone()[0])
        if app_id not in (0, APPLICATION_ID):
            raise NotABatakDatabaseError(
                f"{src_path} belongs to another application (application_id {app_id:#x})"
            )
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()  # left by an earlier backup that was killed
        dst = sqlite3.connect(partial)
        try:
            # -1: every page in one step, under one read transaction (one consistent state)
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            problems = [str(r[0]) for r in dst.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise DatabaseDamagedError(
                    src_path, "the copy failed SQLite's quick_check: " + health.summarize(problems)
                )
            version = int(dst.execute("PRAGMA user_version").fetchone()[0])
            pages = int(dst.execute("PRAGMA page_count").fetchone()[0])
        finally:
            dst.close()
    except sqlite3.DatabaseError as exc:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        if health.is_damage(exc):
            raise DatabaseDamagedError(src_path, f"SQLite says '{exc}'") from exc
        raise
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        raise
    finally:
        src.close()
    _fsync(partial)
    os.replace(partial, dst_path)
    _fsync(dst_path.parent)
    return BackupResult(
        source=src_path,
        dest=str(dst_path),
        schema_version=version,
        pages=pages,
        size_bytes=dst_path.stat().st_size,
        seconds=time.perf_counter() - started,
    )


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
