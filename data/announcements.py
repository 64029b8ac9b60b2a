"""Announcements: messages to post about an event, stored with the event.

Posting to Discord cannot be part of a database transaction, so the order is:
store the event and what to announce about it in one transaction, post, then
``mark_announced``. A crash before the post leaves the announcement pending;
the bot posts ``pending_announcements()`` again at start-up. Something may then
be posted twice (a crash after the post, before the mark) but never lost.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import Connection, Database, Row, _dumps, _iso
from .models import Announcement, PendingAnnouncement


class AnnouncementStore:
    """Announcements waiting to be posted (``store.announcements``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def enqueue(
        self,
        db: Connection,
        guild_id: int,
        announcements: Sequence[Announcement],
        *,
        game_id: int | None = None,
        match_id: int | None = None,
        at: str | None = None,
    ) -> list[int]:
        """Add announcements inside the caller's transaction; their ids, in order."""
        when = at or _iso(self.database.now())
        ids = []
        for a in announcements:
            if not isinstance(a, Announcement):
                raise TypeError(f"expected an Announcement, not {a!r}")
            cur = await db.execute(
                "INSERT INTO announcements (guild_id, game_id, match_id, channel_id, kind, "
                "payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, game_id, match_id, a.channel_id, a.kind, _dumps(dict(a.payload)), when),
            )
            ids.append(int((await cur.fetchone())[0]))
        return ids

    async def announce(
        self, guild_id: int, announcements: Sequence[Announcement], *, game_id: int | None = None
    ) -> list[int]:
        """Store announcements on their own (for events without a result to record)."""
        async with self.database.tx() as db:
            return await self.enqueue(db, guild_id, announcements, game_id=game_id)

    @staticmethod
    def _pending(r: Row) -> PendingAnnouncement:
        payload: dict[str, Any] = json.loads(r["payload"])
        return PendingAnnouncement(
            id=r["id"],
            guild_id=r["guild_id"],
            game_id=r["game_id"],
            match_id=r["match_id"],
            channel_id=r["channel_id"],
            kind=r["kind"],
            payload=payload,
            created_at=r["created_at"],
        )

    async def pending_announcements(
        self, *, guild_id: int | None = None, game_id: int | None = None, limit: int = 100
    ) -> list[PendingAnnouncement]:
        """Announcements not yet marked announced, oldest first (optionally of one server
        or one table)."""
        where = ["announced_at IS NULL"]
        args: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            args.append(guild_id)
        if game_id is not None:
            where.append("game_id = ?")
            args.append(game_id)
        sql = f"SELECT * FROM announcements WHERE {' AND '.join(where)} ORDER BY id LIMIT ?"
        async with self.database.read() as db, db.execute(sql, (*args, limit)) as cur:
            return [self._pending(r) for r in await cur.fetchall()]

    async def mark_announced(self, announcement_id: int) -> bool:
        """Record that an announcement was posted. True the first time; False when it
        was already marked or does not exist (so two posters can tell who won)."""
        async with self.database.tx() as db:
            cur = await db.execute(
                "UPDATE announcements SET announced_at = ? WHERE id = ? AND announced_at IS NULL",
                (_iso(self.database.now()), announcement_id),
            )
            return bool(cur.rowcount == 1)
