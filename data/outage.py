"""Storage outages: telling a failing disk or a stopped server from a bug, and saying so
once.

:func:`outage_reason` reads an error of either backend and says whether it is an outage
(the disk is full or failing, the file is read-only, the server stopped or the
connection broke) or something else (a constraint, a bad query: a bug, left alone).
The ``Database`` turns an outage into :class:`~data.models.StorageUnavailableError` and
tells its :class:`Outage`, which logs one line when the storage stops answering and one
when it answers again, with how long it was away and how many presses were refused.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from datetime import datetime
from typing import Final

import asyncpg

from .models import StorageUnavailableError

log = logging.getLogger("batak.data.outage")

# SQLite's primary result codes that mean the file, the disk or another writer, not the
# query: BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN, PROTOCOL.
_SQLITE_OUTAGE: Final = {
    5: "the database is locked",
    6: "a table is locked",
    8: "the database file is read-only",
    10: "disk I/O error",
    13: "the disk is full",
    14: "the database file cannot be opened",
    15: "the database file's lock protocol failed",
}

# asyncpg errors that say the server or the connection is gone or refusing work.
_PG_OUTAGE: Final[tuple[type[BaseException], ...]] = (
    asyncpg.PostgresConnectionError,  # class 08: the connection broke or was refused
    asyncpg.CannotConnectNowError,  # 57P03: starting up or shutting down
    asyncpg.AdminShutdownError,  # 57P01: the server is stopping
    asyncpg.CrashShutdownError,  # 57P02: the server crashed
    asyncpg.InsufficientResourcesError,  # class 53: disk full, out of memory, connections
    asyncpg.ReadOnlySQLTransactionError,  # 25006: a standby, or read-only by force
)


def outage_reason(exc: BaseException) -> str | None:
    """One line saying what failed when ``exc`` is a storage outage, else None.

    Not outages: a constraint violation, a syntax error, a missing table, a damaged
    file (that one stops the bot at start-up instead: ``data.health``)."""
    if isinstance(exc, StorageUnavailableError):
        return exc.reason
    if isinstance(exc, sqlite3.OperationalError):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None and code & 0xFF in _SQLITE_OUTAGE:
            return f"SQLite: {exc} ({_SQLITE_OUTAGE[code & 0xFF]})"
        return None
    if isinstance(exc, _PG_OUTAGE):
        return f"PostgreSQL: {type(exc).__name__}: {exc}"
    if isinstance(exc, asyncpg.InternalClientError) and "in progress" in str(exc):
        # the server's FATAL message (it is stopping, or ended the session) arrived on an
        # idle connection: asyncpg's protocol state is broken with it
        return f"PostgreSQL: {exc}"
    if isinstance(exc, asyncpg.InterfaceError):
        text = str(exc)
        # a closed pool or connection, or one the pool took back because it closed (the
        # store never uses a connection it gave back); other interface errors are a bug
        if any(w in text for w in ("closed", "closing", "released back to the pool")):
            return f"PostgreSQL: {text}"
        return None
    if isinstance(exc, OSError):  # refused, reset, unreachable, timed out on connect
        return f"{type(exc).__name__}: {exc}"
    return None


class Outage:
    """The storage's state as this process sees it: up, or down since when and why.

    :meth:`failed` on every call that failed with an outage (the first one logs "storage
    unavailable since ..."), :meth:`refused` for every press answered with "not
    played", :meth:`succeeded` on every call that worked (the first after an outage logs
    "storage back after N s; M presses refused"). An outage that began with a failed
    write ends only with a write that works: a full disk still serves reads.
    """

    def __init__(
        self,
        clock: Callable[[], datetime],
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock = clock
        self.monotonic = monotonic
        self.since: datetime | None = None
        self.reason = ""
        self.presses = 0
        self.failures = 0
        self._started = 0.0
        self._writes = False  # the outage was seen on a write

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, reason: str, *, write: bool) -> None:
        self.failures += 1
        if self.since is None:
            self.since = self.clock()
            self._started = self.monotonic()
            self.reason = reason
            self.presses = 0
            self._writes = write
            log.error(
                "storage unavailable since %s: %s",
                self.since.isoformat(timespec="seconds"),
                reason,
            )
        elif write:
            self._writes = True

    def succeeded(self, *, write: bool) -> None:
        if self.since is None or (self._writes and not write):
            return
        away = self.monotonic() - self._started
        log.warning(
            "storage back after %.0f s (unavailable since %s: %s); %d press(es) refused",
            away,
            self.since.isoformat(timespec="seconds"),
            self.reason,
            self.presses,
        )
        self.since = None
        self.reason = ""
        self.presses = 0
        self._writes = False

    def refused(self) -> None:
        """A person was told their press was not played."""
        self.presses += 1

    def describe(self) -> str | None:
        """For the health check: None while up, else since when, why, presses refused."""
        if self.since is None:
            return None
        return (
            f"down since {self.since.isoformat(timespec='seconds')}: {self.reason}; "
            f"{self.presses} press(es) refused"
        )
