"""Where an SQLite database file may live: checked before SQLite opens it.

A path that is a folder, a path under a regular file, a folder the bot may not write
in or one on a read-only file system each raise :class:`DatabaseLocationError` with one
line (the path, what is wrong, what to do) and an exit status for ``bot.py``:

- ``EXIT_DATABASE_PATH`` (73, sysexits' EX_CANTCREAT): no database file can be at that
  path (a folder, a special file, under a regular file, or a missing folder that cannot
  be created);
- ``EXIT_DATABASE_READ_ONLY`` (77, sysexits' EX_NOPERM): the place exists but the bot
  may not write there (a read-only file system, or no write permission).

A missing folder is created (with its parents), as for a first start; only when that
fails is the path refused.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Final

from .models import StoreError

EXIT_DATABASE_PATH: Final = 73
"""Exit status of ``bot.py`` when no database file can be at ``DATABASE_PATH``."""

EXIT_DATABASE_READ_ONLY: Final = 77
"""Exit status of ``bot.py`` when the database's place cannot be written to."""

_FIX = "set DATABASE_PATH to a file in a folder the bot may write to"


class DatabaseLocationError(StoreError):
    """The database path cannot hold a database the bot can write: ``str(error)`` is
    one line; ``path``, ``problem`` and ``exit_code`` hold the parts."""

    def __init__(self, path: str, problem: str, todo: str, exit_code: int) -> None:
        super().__init__(f"Cannot use the database at {path}: {problem}; {todo}.")
        self.path = path
        self.problem = problem
        self.exit_code = exit_code


def check_location(path: str) -> None:
    """Raise :class:`DatabaseLocationError` unless an SQLite database (and its -wal and
    -shm files) can be written at ``path``; creates its missing folders."""
    target = Path(path)
    if target.is_dir():
        raise DatabaseLocationError(
            path,
            "it is a folder, not a file",
            f"set DATABASE_PATH to a file inside it, e.g. {target / 'batak.sqlite3'}",
            EXIT_DATABASE_PATH,
        )
    for parent in reversed(target.parents):
        if parent.exists() and not parent.is_dir():
            raise DatabaseLocationError(
                path, f"{parent} is a file, not a folder", _FIX, EXIT_DATABASE_PATH
            )
    if target.exists() and not stat.S_ISREG(target.stat().st_mode):
        raise DatabaseLocationError(
            path, "it is not a regular file (a device, pipe or socket)", _FIX, EXIT_DATABASE_PATH
        )
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _refused(path, f"its folder {folder} does not exist and cannot be made", exc) from exc
    for place, what in ((folder, f"its folder {folder}"), (target, "the file")):
        if place.exists() and not os.access(place, os.W_OK):
            raise _refused(path, f"{what} cannot be written", None, place)


def _refused(path: str, problem: str, exc: OSError | None, place: Path | None = None) -> Exception:
    """The error for a place the bot may not write: read-only file system, permission."""
    code = exc.errno if exc is not None else None
    if code is None and place is not None and _read_only_fs(place):
        code = errno.EROFS
    if code == errno.EROFS:
        return DatabaseLocationError(
            path,
            f"{problem}: it is on a read-only file system",
            f"mount it read-write or {_FIX}",
            EXIT_DATABASE_READ_ONLY,
        )
    if code in (errno.EACCES, errno.EPERM) or exc is None:
        return DatabaseLocationError(
            path,
            f"{problem}: permission denied",
            f"give the bot's user write access there or {_FIX}",
            EXIT_DATABASE_READ_ONLY,
        )
    reason = exc.strerror or type(exc).__name__
    return DatabaseLocationError(path, f"{problem} ({reason})", _FIX, EXIT_DATABASE_PATH)


def _read_only_fs(place: Path) -> bool:
    try:
        return bool(os.statvfs(place).f_flag & os.ST_RDONLY)
    except OSError:
        return False
