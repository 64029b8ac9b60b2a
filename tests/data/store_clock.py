"""A settable clock for store tests (the store takes ``clock=`` for its timestamps), and
helpers that work on both backends."""

from __future__ import annotations

import sqlite3
from datetime import datetime

import asyncpg

from data import Store


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


# -- backend-neutral helpers for tests that provoke database errors ---------------------
# A failed constraint, as either backend's driver raises it.
INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


async def refuse_inserts(store: Store, table: str, message: str) -> None:
    """Make every insert into ``table`` fail with ``message`` (a constraint of its own)."""
    async with store.database.tx() as db:
        if store.dialect == "sqlite":
            await db.execute(
                f"CREATE TRIGGER refuse BEFORE INSERT ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
            )
        else:
            await db.execute(
                "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"RAISE EXCEPTION '{message}' USING ERRCODE = 'check_violation'; END $$"
            )
            await db.execute(
                f"CREATE TRIGGER refuse BEFORE INSERT ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION refuse()"
            )


async def allow_inserts(store: Store, table: str) -> None:
    async with store.database.tx() as db:
        if store.dialect == "sqlite":
            await db.execute("DROP TRIGGER refuse")
        else:
            await db.execute(f"DROP TRIGGER refuse ON {table}")
            await db.execute("DROP FUNCTION refuse()")
