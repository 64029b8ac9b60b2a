"""Messages the bot posted for a table (turn notices, ...), remembered so that they can
be cleaned up later (``store.messages``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .base import Database, _iso
from .models import StoredMessage
from .writes import Step, write

# One statement each, so one call to SQLite's thread (data.writes): a turn notice is
# remembered and forgotten on the way of every ping, next to the moves' commits.
REMEMBER = (
    "INSERT INTO game_messages (game_id, message_id, kind, channel_id, created_at) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, message_id) DO UPDATE SET "
    "kind = excluded.kind, channel_id = excluded.channel_id, created_at = excluded.created_at"
)
FORGET = "DELETE FROM game_messages WHERE game_id = ? AND message_id = ?"
TAKE = (
    "DELETE FROM game_messages WHERE game_id = ? AND kind = ? "
    "RETURNING message_id, kind, channel_id, created_at"
)


class MessageStore:
    """The messages posted for each table, by kind (``store.messages``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def add_message(
        self, game_id: int, message_id: int, *, kind: str = "turn", channel_id: int | None = None
    ) -> None:
        """Remember a message posted for a table (a turn notice, ...) to clean it up later."""
        row = (game_id, message_id, kind, channel_id, _iso(self.database.now()))
        await write(self.database, (Step(REMEMBER, (row,)),))

    async def of(self, game_id: int, kind: str | None = None) -> list[StoredMessage]:
        """The table's remembered messages (of one kind, or all), oldest first."""
        sql = "SELECT message_id, kind, channel_id, created_at FROM game_messages WHERE game_id = ?"
        args: list[Any] = [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        async with (
            self.database.read() as db,
            db.execute(sql + " ORDER BY created_at, message_id", args) as cur,
        ):
            return [StoredMessage(r[0], r[1], r[2], r[3]) for r in await cur.fetchall()]

    async def remove_messages(self, game_id: int, message_ids: Iterable[int]) -> None:
        rows = [(game_id, m) for m in message_ids]
        if rows:
            await write(self.database, (Step(FORGET, rows),))

    async def take_messages(self, game_id: int, kind: str = "turn") -> list[StoredMessage]:
        """Return and forget the table's messages of a kind (e.g. old turn notices to delete):
        one statement (``DELETE ... RETURNING``), a transaction of its own."""
        async with (
            self.database.use(write=True) as lease,
            lease.conn.execute(TAKE, (game_id, kind)) as cur,
        ):
            rows = await cur.fetchall()
        out = [StoredMessage(r[0], r[1], r[2], r[3]) for r in rows]
        return sorted(out, key=lambda m: (m.at, m.message_id))
