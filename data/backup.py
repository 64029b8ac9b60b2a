"""``python -m data backup DEST``: a consistent copy of a live database.

SQLite's online backup API copies the pages under one read transaction. In WAL
mode a reader never blocks the writer (and the writer never disturbs the
reader's snapshot), so the bot keeps committing while the copy is made, and
the copy holds exactly the transactions committed when it started. The copy is
written next to ``DEST`` first, switched to a single self-contained file
(rollback journal, no ``-wal``), checked with ``PRAGMA quick_check``, flushed to
disk and only then renamed to ``DEST``: a failed backup never leaves a file that
looks like a good one.

``BackupSchedule`` and ``run_backup`` are the same copy made by the bot itself
(``BACKUP_DIR``, ``BACKUP_EVERY``, ``BACKUP_KEEP``): ``Store.open(...,
backups=...)`` starts a background task that copies the database into the
folder every so often, under a name with the time, and deletes the oldest
copies beyond the number to keep.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime
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


@dataclass(frozen=True, slots=True)
class BackupSchedule:
    """Where and how often the bot backs its SQLite database up by itself.

    ``directory``: the folder of the copies (created if needed). ``every_s``: one copy
    per this many seconds, the first one ``every_s`` after start-up (so a bot that
    keeps restarting does not push the good copies out). ``keep``: how many of the
    newest copies stay; older ones are deleted after each new copy.
    """

    directory: str
    every_s: float = 3600.0
    keep: int = 24
    first_after_s: float | None = None
    """When the first copy is made; None: after ``every_s``."""

    def __post_init__(self) -> None:
        if not self.every_s > 0 or (self.first_after_s is not None and self.first_after_s < 0):
            raise ValueError("every_s must be more than 0 and first_after_s at least 0")
        if self.keep < 1:
            raise ValueError("keep must be at least 1")


_STAMP = re.compile(r"-\d{8}-\d{6}(-\d+)?\.sqlite3$")


def backup_name(source: str, when: datetime) -> str:
    """The file name of a scheduled copy: the database's name and the time (UTC)."""
    return f"{Path(source).stem}-{when:%Y%m%d-%H%M%S}.sqlite3"


def scheduled_copies(source: str, directory: str | os.PathLike[str]) -> list[Path]:
    """The scheduled copies of ``source`` in ``directory``, oldest first."""
    folder, stem = Path(directory), Path(source).stem
    if not folder.is_dir():
        return []
    found = [
        p
        for p in folder.iterdir()
        if p.is_file() and p.name.startswith(stem) and _STAMP.fullmatch(p.name[len(stem) :])
    ]
    return sorted(found, key=lambda p: (p.stat().st_mtime_ns, p.name))


def run_backup(source: str, schedule: BackupSchedule, when: datetime) -> tuple[BackupResult, int]:
    """One scheduled copy of ``source`` into ``schedule.directory``, then the copies
    beyond ``schedule.keep`` deleted, oldest first. Returns the copy and how many
    old copies were deleted."""
    folder = Path(schedule.directory)
    base = backup_name(source, when).removesuffix(".sqlite3")
    dest, n = folder / f"{base}.sqlite3", 1
    while dest.exists():  # two copies within one second
        n += 1
        dest = folder / f"{base}-{n}.sqlite3"
    result = backup_database(source, dest)
    old = scheduled_copies(source, folder)[: -schedule.keep]
    for p in old:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
    return result, len(old)
