"""The async store: one SQLite file (WAL) through aiosqlite.

Every public method is one short transaction. Writes run under
``BEGIN IMMEDIATE`` so two writers (two connections, two processes) queue on
SQLite's lock instead of failing, and an asyncio lock keeps the coroutines that
share this connection from interleaving inside each other's transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any, Final

import aiosqlite

from . import ratings
from .models import (
    ACTORS,
    EMPTY_SEATS,
    GAME_KINDS,
    OPEN_STATUSES,
    SETTING_NAMES,
    ActionEntry,
    AlreadyRecordedError,
    DailyAlreadyPlayedError,
    DailyResult,
    Game,
    GameClosedError,
    GameNotFoundError,
    GuildSettings,
    MatchPlayer,
    MatchSummary,
    NotABatakDatabaseError,
    SchemaTooNewError,
    Seat,
    SeatError,
    StaleMoveError,
    Standing,
    StoredMessage,
    StoreError,
    ordinal,
    validate_setting,
)
from .schema import APPLICATION_ID, MIGRATIONS, Migration

DEFAULT_PATH: Final = Path(__file__).resolve().parent / "batak.sqlite3"
ALL_TIME: Final = "all"


class _Keep:
    """Sentinel: leave the stored snapshot as it is."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()

Row = sqlite3.Row


def default_path() -> Path:
    """``$DATABASE_PATH`` if set, else ``data/batak.sqlite3`` next to this package."""
    env = os.environ.get("DATABASE_PATH")
    return Path(env) if env else DEFAULT_PATH


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _utc(dt: datetime) -> datetime:
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def _iso(dt: datetime) -> str:
    return _utc(dt).isoformat(timespec="milliseconds")


def _day(day: str | date | None, now: datetime) -> str:
    if day is None:
        return _utc(now).date().isoformat()
    if isinstance(day, datetime):
        return _utc(day).date().isoformat()
    if isinstance(day, date):
        return day.isoformat()
    return date.fromisoformat(day).isoformat()


def _period(period: str, now: datetime) -> str:
    """'all', 'month' (the current UTC month) or an explicit 'YYYY-MM'."""
    if period == ALL_TIME:
        return ALL_TIME
    if period == "month":
        return _utc(now).strftime("%Y-%m")
    if len(period) == 7 and period[4] == "-" and period[:4].isdigit() and period[5:].isdigit():
        return period
    raise ValueError(f"period must be 'all', 'month' or 'YYYY-MM', not {period!r}")


# ----------------------------------------------------------------- records -> statistics
def seat_stats(records: Sequence[Mapping[str, Any]], seat: int) -> dict[str, int]:
    """Deals, summed deal score, contracts taken / made and times went down for one seat.

    A contract is *taken* by the seat that holds it and *made* when the holder
    (with its partner under partnership rules) took at least the bid. A seat
    *went down* in a deal when its score for the deal was negative.
    """
    out = {"deals": 0, "score": 0, "taken": 0, "made": 0, "down": 0}
    for rec in records:
        score = int(rec["score"][seat])
        out["deals"] += 1
        out["score"] += score
        if score < 0:
            out["down"] += 1
        contract = rec.get("contract")
        if contract and contract.get("seat") == seat:
            out["taken"] += 1
            tricks = rec["tricks_won"]
            took = tricks[seat]
            if rec.get("rules", {}).get("partnership"):
                took += tricks[(seat + 2) % 4]
            if took >= int(contract["bid"]):
                out["made"] += 1
    return out


def placements_of(
    totals: Sequence[int], winners: Sequence[int] | None = None, *, partnership: bool = False
) -> list[int]:
    """Each seat's place: 1 for the winners, else 1 + the number of seats (with
    partnerships: of sides) with a strictly higher total. Equal totals share a place."""
    if winners is None:
        best = max(totals)
        winners = [s for s, t in enumerate(totals) if t == best]
    win = set(winners)
    sides = (0, 1) if partnership else range(len(totals))
    return [
        1 if s in win else max(2, 1 + sum(1 for u in sides if totals[u] > t))
        for s, t in enumerate(totals)
    ]


def encode_records(records: Iterable[Mapping[str, Any]]) -> bytes:
    return zlib.compress("".join(_dumps(r) + "\n" for r in records).encode(), 6)


def decode_records(blob: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in zlib.decompress(blob).decode().splitlines() if line]


# --------------------------------------------------------------------------- the store
class Store:
    """Durable games, finished matches, standings, daily results and server settings.

    Open with ``await Store.open(path)`` (or ``async with await Store.open() as store``);
    close with ``await store.close()``.
    """

    def __init__(
        self,
        db: aiosqlite.Connection,
        path: str,
        clock: Callable[[], datetime],
    ) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self.schema_version = 0

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        busy_timeout_ms: int = 5000,
        synchronous: str = "FULL",
        clock: Callable[[], datetime] | None = None,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> Store:
        """Open (creating if needed) and migrate the database.

        ``path`` defaults to ``default_path()``. Raises ``SchemaTooNewError`` for a
        database written by newer code and ``NotABatakDatabaseError`` for a foreign one.
        ``migrations`` is a testing hook; leave it alone.
        """
        p = str(path) if path is not None else str(default_path())
        if p != ":memory:" and not p.startswith("file:"):
            Path(p).parent.mkdir(parents=True, exist_ok=True)
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"bad synchronous level {synchronous!r}")
        db = await aiosqlite.connect(p, isolation_level=None, timeout=busy_timeout_ms / 1000)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            store = cls(db, p, clock or (lambda: datetime.now(UTC)))
            store.schema_version = await store._migrate(migrations)
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _now(self) -> datetime:
        return _utc(self._clock())

    async def _scalar(self, sql: str, args: Sequence[Any] = ()) -> Any:
        async with self._db.execute(sql, args) as cur:
            row = await cur.fetchone()
        return None if row is None else row[0]

    async def _migrate(self, migrations: Sequence[Migration]) -> int:
        latest = len(migrations)
        version = int(await self._scalar("PRAGMA user_version"))
        app_id = int(await self._scalar("PRAGMA application_id"))
        if app_id not in (0, APPLICATION_ID):
            raise NotABatakDatabaseError(
                f"{self.path} belongs to another application (application_id {app_id:#x})"
            )
        if version > latest:
            raise SchemaTooNewError(
                f"{self.path} has schema version {version}, but this batak-bot only knows "
                f"versions up to {latest}: it was written by a newer batak-bot. Upgrade the "
                "bot, or point DATABASE_PATH at another file; refusing to touch it."
            )
        if version == 0:
            n = await self._scalar(
                "SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'"
            )
            if n:
                raise NotABatakDatabaseError(
                    f"{self.path} already holds tables that are not batak-bot's; refusing"
                )
        while version < latest:
            async with self._tx() as db:
                # Another process may have migrated while we waited for the lock.
                version = int(await self._scalar("PRAGMA user_version"))
                if version >= latest:
                    break
                for stmt in migrations[version]:
                    await db.execute(stmt)
                await db.execute(f"PRAGMA user_version = {version + 1}")
                await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            version += 1
        return version

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on any error.

        aiosqlite runs the statements of a connection in order, so even when the
        awaiting task is cancelled half-way, the ROLLBACK queued here runs after
        whatever was already sent, and the connection never stays in a transaction.
        """
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    @asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction: several SELECTs that see one state of the database."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN")
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        # OperationalError: no transaction was open (BEGIN failed, or COMMIT went through)
        with contextlib.suppress(sqlite3.OperationalError):
            await self._db.execute("ROLLBACK")

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            yield self._db

    # ------------------------------------------------------------------ server settings
    @staticmethod
    def _settings(guild_id: int, row: Row | None) -> GuildSettings:
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(
            guild_id=guild_id,
            language=row["language"],
            preset=row["preset"],
            deals=row["deals"],
            pace=row["pace"],
            live_turn_timeout_s=row["live_turn_timeout_s"],
            async_turn_timeout_s=row["async_turn_timeout_s"],
            bot_level=row["bot_level"],
            use_threads=bool(row["use_threads"]),
            updated_at=row["updated_at"],
        )

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings, with the defaults for anything never set."""
        async with self._read():
            row = await self._scalar_row(
                "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        return self._settings(guild_id, row)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings (names as in ``GuildSettings``); returns the new settings.

        Raises ``InvalidSettingError`` (nothing changed) for an unknown name or bad value.
        """
        clean = {name: validate_setting(name, value) for name, value in changes.items()}
        now = _iso(self._now())
        cols = ", ".join(SETTING_NAMES)
        marks = ", ".join("?" for _ in SETTING_NAMES)
        sets = ", ".join(f"{n} = excluded.{n}" for n in SETTING_NAMES)
        async with self._tx() as db:
            row = await self._scalar_row(
                "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            current = self._settings(guild_id, row)
            values = {n: getattr(current, n) for n in SETTING_NAMES} | clean
            await db.execute(
                f"INSERT INTO guild_settings (guild_id, {cols}, updated_at) "
                f"VALUES (?, {marks}, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                f"{sets}, updated_at = excluded.updated_at",
                (guild_id, *(values[n] for n in SETTING_NAMES), now),
            )
        return replace(current, **clean, updated_at=now)

    async def reset_guild_settings(self, guild_id: int) -> GuildSettings:
        """Back to the defaults."""
        async with self._tx() as db:
            await db.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return GuildSettings(guild_id)

    # ------------------------------------------------------------------ games: rows
    async def _seats(self, game_ids: Sequence[int]) -> dict[int, list[Seat]]:
        out: dict[int, list[Seat]] = {g: list(EMPTY_SEATS) for g in game_ids}
        if not game_ids:
            return out
        marks = ", ".join("?" for _ in game_ids)
        async with self._db.execute(
            f"SELECT * FROM game_seats WHERE game_id IN ({marks})", tuple(game_ids)
        ) as cur:
            async for r in cur:
                out[r["game_id"]][r["seat"]] = Seat(r["user_id"], r["bot_level"], r["name"])
        return out

    @staticmethod
    def _game(row: Row, seats: Sequence[Seat], actions: Sequence[str] = ()) -> Game:
        return Game(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=row["thread_id"],
            host_id=row["host_id"],
            kind=row["kind"],
            status=row["status"],
            phase=row["phase"],
            move=row["move"],
            to_act=row["to_act"],
            settings=json.loads(row["settings"]),
            seats=tuple(seats),
            snapshot=None if row["snapshot"] is None else json.loads(row["snapshot"]),
            snapshot_move=row["snapshot_move"],
            table_message_id=row["table_message_id"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            finished_at=row["finished_at"],
            actions=tuple(actions),
        )

    async def _game_row(self, game_id: int) -> Row:
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise GameNotFoundError(f"no game {game_id}")
        return row

    async def _open_row(self, game_id: int) -> Row:
        row = await self._game_row(game_id)
        if row["status"] not in OPEN_STATUSES:
            raise GameClosedError(f"game {game_id} is {row['status']}")
        return row

    async def _write_seats(
        self, db: aiosqlite.Connection, game_id: int, seats: Sequence[Seat]
    ) -> None:
        if len(seats) != 4:
            raise SeatError("a table has exactly four seats")
        users = [s.user_id for s in seats if s.user_id is not None]
        if len(users) != len(set(users)):
            raise SeatError("a person can hold only one seat of a table")
        await db.executemany(
            "INSERT INTO game_seats (game_id, seat, user_id, bot_level, name) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET "
            "user_id = excluded.user_id, bot_level = excluded.bot_level, name = excluded.name",
            [(game_id, i, s.user_id, s.bot_level, s.name) for i, s in enumerate(seats)],
        )

    # ------------------------------------------------------------------ games: lifecycle
    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: Mapping[str, Any],
        *,
        thread_id: int | None = None,
        seats: Sequence[Seat] | None = None,
        kind: str = "table",
        status: str = "lobby",
        phase: str = "lobby",
        to_act: int | None = None,
    ) -> Game:
        """Open a table. ``settings`` is free JSON (rules dict, seed, first dealer, pace, ...)."""
        if kind not in GAME_KINDS:
            raise ValueError(f"kind must be one of {GAME_KINDS}")
        if status not in OPEN_STATUSES:
            raise ValueError(f"a new game's status is one of {OPEN_STATUSES}")
        now = _iso(self._now())
        async with self._tx() as db:
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, thread_id, host_id, kind, status, "
                "phase, move, to_act, settings, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    host_id,
                    kind,
                    status,
                    phase,
                    to_act,
                    _dumps(dict(settings)),
                    now,
                    now,
                ),
            )
            game_id = cur.lastrowid
            assert game_id is not None
            await self._write_seats(db, game_id, list(seats) if seats else EMPTY_SEATS)
        return await self.get_game(game_id)

    async def get_game(self, game_id: int) -> Game:
        """The table without its action log. Raises ``GameNotFoundError``."""
        async with self._snapshot():
            row = await self._game_row(game_id)
            seats = await self._seats([game_id])
        return self._game(row, seats[game_id])

    async def load_game(self, game_id: int) -> Game:
        """The table with its whole action log in ``Game.actions`` (one consistent read)."""
        async with self._snapshot() as db:  # the row, the seats and the log at one moment
            row = await self._game_row(game_id)
            seats = await self._seats([game_id])
            async with db.execute(
                "SELECT action FROM game_actions WHERE game_id = ? ORDER BY move", (game_id,)
            ) as cur:
                actions = [r[0] for r in await cur.fetchall()]
        if len(actions) != row["move"]:  # cannot happen: both are written in one transaction
            raise StoreError(
                f"game {game_id}: log has {len(actions)} actions, row says {row['move']}"
            )
        return self._game(row, seats[game_id], actions)

    async def action_log(self, game_id: int, since_move: int = 0) -> list[ActionEntry]:
        """The log entries after ``since_move`` (with seat, actor and time)."""
        async with (
            self._read() as db,
            db.execute(
                "SELECT move, seat, action, actor, at_ms FROM game_actions "
                "WHERE game_id = ? AND move > ? ORDER BY move",
                (game_id, since_move),
            ) as cur,
        ):
            return [
                ActionEntry(r[0], r[1], r[2], r[3], _iso(datetime.fromtimestamp(r[4] / 1000, UTC)))
                for r in await cur.fetchall()
            ]

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int | None = None,
        status: str | Sequence[str] | None = OPEN_STATUSES,
        kind: str | None = None,
        limit: int = 100,
    ) -> list[Game]:
        """Tables matching every given filter, newest first (no action logs).

        ``channel_id`` matches the table's channel or its thread; ``user_id`` a person
        in a seat; ``status`` defaults to the open ones (lobby, playing); None for any.
        """
        where: list[str] = []
        args: list[Any] = []
        if guild_id is not None:
            where.append("g.guild_id = ?")
            args.append(guild_id)
        if channel_id is not None:
            where.append("(g.channel_id = ? OR g.thread_id = ?)")
            args += [channel_id, channel_id]
        if user_id is not None:
            where.append("g.id IN (SELECT game_id FROM game_seats WHERE user_id = ?)")
            args.append(user_id)
        if status is not None:
            statuses = [status] if isinstance(status, str) else list(status)
            where.append(f"g.status IN ({', '.join('?' for _ in statuses)})")
            args += statuses
        if kind is not None:
            where.append("g.kind = ?")
            args.append(kind)
        sql = "SELECT g.* FROM games g"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.id DESC LIMIT ?"
        args.append(limit)
        async with self._snapshot() as db:
            async with db.execute(sql, args) as cur:
                rows = list(await cur.fetchall())
            seats = await self._seats([r["id"] for r in rows])
        return [self._game(r, seats[r["id"]]) for r in rows]

    async def open_games(self) -> list[Game]:
        """Every table in the lobby or in play, oldest first: what to restore at start-up."""
        games = await self.list_games(limit=1_000_000)
        return games[::-1]

    async def start_game(
        self,
        game_id: int,
        *,
        phase: str,
        to_act: int | None,
        settings: Mapping[str, Any] | None = None,
        seats: Sequence[Seat] | None = None,
        snapshot: Any = KEEP,
    ) -> Game:
        """Lobby -> playing, optionally fixing the final settings (seed, rules) and seats."""
        now = _iso(self._now())
        async with self._tx() as db:
            row = await self._open_row(game_id)
            if row["status"] != "lobby":
                raise GameClosedError(f"game {game_id} has already started")
            if seats is not None:
                await self._write_seats(db, game_id, seats)
            final = await self._seats([game_id])
            if any(s.is_empty for s in final[game_id]):
                raise SeatError("every seat must be taken before the match starts")
            sets = ["status = 'playing'", "phase = ?", "to_act = ?", "updated_at = ?"]
            args: list[Any] = [phase, to_act, now]
            if settings is not None:
                sets.append("settings = ?")
                args.append(_dumps(dict(settings)))
            if not isinstance(snapshot, _Keep):
                sets += ["snapshot = ?", "snapshot_move = ?"]
                args += [None if snapshot is None else _dumps(snapshot), row["move"]]
            await db.execute(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*args, game_id))
        return await self.get_game(game_id)

    async def append_action(
        self,
        game_id: int,
        expected_move: int,
        action: str,
        *,
        seat: int | None,
        phase: str,
        to_act: int | None,
        actor: str = "player",
        snapshot: Any = KEEP,
    ) -> int:
        """Commit one accepted action with the table's new state; returns the new move number.

        ``expected_move`` is the move number the caller's state was at (the number of
        actions already applied). If the table has moved on (a doubled click, another
        writer), nothing is written and ``StaleMoveError`` is raised. ``snapshot`` (any
        JSON value) replaces the stored snapshot; by default the old one is kept.
        """
        return await self.append_actions(
            game_id,
            expected_move,
            [(seat, action, actor)],
            phase=phase,
            to_act=to_act,
            snapshot=snapshot,
        )

    async def append_actions(
        self,
        game_id: int,
        expected_move: int,
        entries: Sequence[tuple[int | None, str, str]],
        *,
        phase: str,
        to_act: int | None,
        snapshot: Any = KEEP,
    ) -> int:
        """Like ``append_action`` for several ``(seat, action, actor)`` in one transaction."""
        if not entries:
            raise ValueError("no actions to append")
        for _, action, actor in entries:
            if actor not in ACTORS:
                raise ValueError(f"actor must be one of {ACTORS}, not {actor!r}")
            if not action or action != action.strip():
                raise ValueError(f"bad action text {action!r}")
        new_move = expected_move + len(entries)
        when = self._now()
        now = _iso(when)
        now_ms = round(when.timestamp() * 1000)
        sets = "move = ?, phase = ?, to_act = ?, updated_at = ?"
        args: list[Any] = [new_move, phase, to_act, now]
        if not isinstance(snapshot, _Keep):
            sets += ", snapshot = ?, snapshot_move = ?"
            args += [None if snapshot is None else _dumps(snapshot), new_move]
        async with self._tx() as db:
            cur = await db.execute(
                f"UPDATE games SET {sets} WHERE id = ? AND move = ? "
                "AND status IN ('lobby', 'playing')",
                (*args, game_id, expected_move),
            )
            if cur.rowcount != 1:
                row = await self._open_row(game_id)  # raises for missing / closed games
                raise StaleMoveError(game_id, expected_move, row["move"])
            await db.executemany(
                "INSERT INTO game_actions (game_id, move, seat, action, actor, at_ms) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, expected_move + i + 1, seat, action, actor, now_ms)
                    for i, (seat, action, actor) in enumerate(entries)
                ],
            )
        return new_move

    async def save_snapshot(self, game_id: int, expected_move: int, snapshot: Any) -> None:
        """Store a snapshot of the state after ``expected_move`` (StaleMoveError if moved on)."""
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE games SET snapshot = ?, snapshot_move = move WHERE id = ? AND move = ?",
                (None if snapshot is None else _dumps(snapshot), game_id, expected_move),
            )
            if cur.rowcount != 1:
                row = await self._game_row(game_id)
                raise StaleMoveError(game_id, expected_move, row["move"])

    async def set_game_settings(self, game_id: int, settings: Mapping[str, Any]) -> Game:
        """Replace an open table's settings (e.g. the host changes the preset in the lobby)."""
        async with self._tx() as db:
            await self._open_row(game_id)
            await db.execute(
                "UPDATE games SET settings = ?, updated_at = ? WHERE id = ?",
                (_dumps(dict(settings)), _iso(self._now()), game_id),
            )
        return await self.get_game(game_id)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        async with self._tx() as db:
            await self._game_row(game_id)
            await db.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the id of the table's public message."""
        async with self._tx() as db:
            await self._game_row(game_id)
            await db.execute(
                "UPDATE games SET table_message_id = ? WHERE id = ?", (message_id, game_id)
            )

    async def _close(self, game_id: int, status: str) -> Game:
        now = _iso(self._now())
        async with self._tx() as db:
            await self._open_row(game_id)
            await db.execute(
                "UPDATE games SET status = ?, to_act = NULL, finished_at = ?, updated_at = ? "
                "WHERE id = ?",
                (status, now, now, game_id),
            )
        return await self.get_game(game_id)

    async def finish_game(self, game_id: int) -> Game:
        """Mark a table finished (``record_match(game_id=...)`` does this itself)."""
        return await self._close(game_id, "finished")

    async def cancel_game(self, game_id: int) -> Game:
        """Mark a table cancelled. Its log stays for inspection."""
        return await self._close(game_id, "cancelled")

    # ------------------------------------------------------------------ games: seats
    async def join_game(
        self, game_id: int, user_id: int, *, name: str | None = None, seat: int | None = None
    ) -> int:
        """Seat a person in a lobby (the given seat, or the first empty one); returns the seat.

        Raises ``SeatError`` when the person is already seated, the seat is taken or
        the table is full; ``GameClosedError`` after the start.
        """
        async with self._tx() as db:
            row = await self._open_row(game_id)
            if row["status"] != "lobby":
                raise GameClosedError(f"game {game_id} has already started")
            seats = (await self._seats([game_id]))[game_id]
            if any(s.user_id == user_id for s in seats):
                raise SeatError(f"user {user_id} already has a seat at this table")
            if seat is None:
                free = [i for i, s in enumerate(seats) if s.is_empty]
                if not free:
                    raise SeatError("the table is full")
                seat = free[0]
            elif not 0 <= seat <= 3:
                raise SeatError(f"no seat {seat}")
            elif not seats[seat].is_empty:
                raise SeatError(f"seat {seat} is taken")
            await db.execute(
                "UPDATE game_seats SET user_id = ?, bot_level = NULL, name = ? "
                "WHERE game_id = ? AND seat = ?",
                (user_id, name, game_id, seat),
            )
        return seat

    async def leave_game(
        self, game_id: int, user_id: int, *, replace_with_bot: str | None = None
    ) -> int:
        """Take a person out of their seat; returns the seat.

        In the lobby the seat becomes empty (or a computer player if
        ``replace_with_bot`` names a level). In play a replacement is required.
        """
        async with self._tx() as db:
            row = await self._open_row(game_id)
            seats = (await self._seats([game_id]))[game_id]
            mine = [i for i, s in enumerate(seats) if s.user_id == user_id]
            if not mine:
                raise SeatError(f"user {user_id} has no seat at this table")
            if row["status"] == "playing" and replace_with_bot is None:
                raise SeatError("a match in play needs a computer player for the seat left")
            await db.execute(
                "UPDATE game_seats SET user_id = NULL, bot_level = ?, name = NULL "
                "WHERE game_id = ? AND seat = ?",
                (replace_with_bot, game_id, mine[0]),
            )
        return mine[0]

    async def set_seat(
        self, game_id: int, seat: int, new: Seat, *, expected: Seat | None = None
    ) -> Game:
        """Put ``new`` in a seat (add a computer player, hand a seat to the computer while
        its person is away, give it back, ...). With ``expected``, only if the seat still
        holds that (compare-and-set; ``SeatError`` otherwise)."""
        if not 0 <= seat <= 3:
            raise SeatError(f"no seat {seat}")
        async with self._tx() as db:
            await self._open_row(game_id)
            seats = (await self._seats([game_id]))[game_id]
            if expected is not None and (seats[seat].user_id, seats[seat].bot_level) != (
                expected.user_id,
                expected.bot_level,
            ):
                raise SeatError(f"seat {seat} changed meanwhile")
            if new.user_id is not None and any(
                s.user_id == new.user_id for i, s in enumerate(seats) if i != seat
            ):
                raise SeatError(f"user {new.user_id} already has a seat at this table")
            await db.execute(
                "UPDATE game_seats SET user_id = ?, bot_level = ?, name = ? "
                "WHERE game_id = ? AND seat = ?",
                (new.user_id, new.bot_level, new.name, game_id, seat),
            )
            await db.execute(
                "UPDATE games SET updated_at = ? WHERE id = ?", (_iso(self._now()), game_id)
            )
        return await self.get_game(game_id)

    # ------------------------------------------------------------------ games: messages
    async def add_message(
        self, game_id: int, message_id: int, *, kind: str = "turn", channel_id: int | None = None
    ) -> None:
        """Remember a message posted for a table (a turn notice, ...) to clean it up later."""
        async with self._tx() as db:
            await db.execute(
                "INSERT OR REPLACE INTO game_messages "
                "(game_id, message_id, kind, channel_id, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, message_id, kind, channel_id, _iso(self._now())),
            )

    async def messages(self, game_id: int, kind: str | None = None) -> list[StoredMessage]:
        sql = "SELECT message_id, kind, channel_id, created_at FROM game_messages WHERE game_id = ?"
        args: list[Any] = [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        async with (
            self._read() as db,
            db.execute(sql + " ORDER BY created_at, message_id", args) as cur,
        ):
            return [StoredMessage(r[0], r[1], r[2], r[3]) for r in await cur.fetchall()]

    async def remove_messages(self, game_id: int, message_ids: Iterable[int]) -> None:
        async with self._tx() as db:
            await db.executemany(
                "DELETE FROM game_messages WHERE game_id = ? AND message_id = ?",
                [(game_id, m) for m in message_ids],
            )

    async def take_messages(self, game_id: int, kind: str = "turn") -> list[StoredMessage]:
        """Return and forget the table's messages of a kind (e.g. old turn notices to delete)."""
        async with self._tx() as db:
            async with db.execute(
                "SELECT message_id, kind, channel_id, created_at FROM game_messages "
                "WHERE game_id = ? AND kind = ? ORDER BY created_at, message_id",
                (game_id, kind),
            ) as cur:
                out = [StoredMessage(r[0], r[1], r[2], r[3]) for r in await cur.fetchall()]
            await db.execute(
                "DELETE FROM game_messages WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
        return out

    # ------------------------------------------------------------------ finished matches
    async def record_match(
        self,
        guild_id: int,
        seats: Sequence[Seat],
        records: Sequence[Mapping[str, Any]],
        *,
        rules: Mapping[str, Any],
        seed: int | None = None,
        totals: Sequence[int] | None = None,
        winners: Sequence[int] | None = None,
        game_id: int | None = None,
        finished_at: datetime | None = None,
    ) -> MatchSummary:
        """Store a finished match and update the server's standings, in one transaction.

        ``records`` are the match's batak-deal/1 dicts in order; ``totals`` default to
        the sum of their scores, ``winners`` (seats) to the seats with the best total.
        Each seat's standings key is its person (also when a computer stood in for
        them) or its computer level. With ``game_id`` the table is marked finished in
        the same transaction; recording the same game twice raises AlreadyRecordedError.
        """
        if len(seats) != 4 or any(s.is_empty for s in seats):
            raise ValueError("a finished match has four occupied seats")
        if not records:
            raise ValueError("a finished match has at least one deal")
        if totals is None:
            totals = [sum(int(r["score"][s]) for r in records) for s in range(4)]
        if len(totals) != 4:
            raise ValueError("four totals expected")
        totals = [int(t) for t in totals]
        partnership = bool(rules.get("partnership", False))
        places = placements_of(totals, winners, partnership=partnership)
        keys = [s.player_key for s in seats]
        preset = str(rules.get("preset", "standard"))
        when = self._now() if finished_at is None else _utc(finished_at)
        at = _iso(when)
        month = when.strftime("%Y-%m")
        stats = [seat_stats(records, s) for s in range(4)]
        blob = encode_records(records)

        async with self._tx() as db:
            if game_id is not None:
                await self._open_row(game_id)
            try:
                cur = await db.execute(
                    "INSERT INTO matches (guild_id, game_id, preset, rules, seed, partnership, "
                    "deals, finished_at, month) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        game_id,
                        preset,
                        _dumps(dict(rules)),
                        seed,
                        int(partnership),
                        len(records),
                        at,
                        month,
                    ),
                )
            except sqlite3.IntegrityError as e:
                raise AlreadyRecordedError(f"game {game_id} was already recorded") from e
            match_id = cur.lastrowid
            assert match_id is not None
            await db.execute(
                "INSERT INTO match_records (match_id, jsonl_z) VALUES (?, ?)", (match_id, blob)
            )
            uniq = sorted(set(keys))
            marks = ", ".join("?" for _ in uniq)
            async with db.execute(
                f"SELECT player_key, mu, sigma FROM standings WHERE guild_id = ? "
                f"AND period = 'all' AND player_key IN ({marks})",
                (guild_id, *uniq),
            ) as c:
                prior = {r[0]: (float(r[1]), float(r[2])) for r in await c.fetchall()}
            before = {k: prior.get(k, (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)) for k in uniq}
            after = ratings.rate_match(keys, places, before, partnership=partnership)

            players = []
            for s in range(4):
                st = stats[s]
                k = keys[s]
                players.append(
                    MatchPlayer(
                        seat=s,
                        player_key=k,
                        user_id=seats[s].user_id,
                        bot_level=None if seats[s].user_id is not None else seats[s].bot_level,
                        total=totals[s],
                        placement=places[s],
                        won=places[s] == 1,
                        deals=st["deals"],
                        contracts_taken=st["taken"],
                        contracts_made=st["made"],
                        went_down=st["down"],
                        mu_before=before[k][0],
                        sigma_before=before[k][1],
                        mu_after=after[k][0],
                        sigma_after=after[k][1],
                    )
                )
            await db.executemany(
                "INSERT INTO match_players (match_id, seat, guild_id, player_key, user_id, "
                "bot_level, total, placement, won, deals, contracts_taken, contracts_made, "
                "went_down, mu_before, sigma_before, mu_after, sigma_after) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        match_id,
                        p.seat,
                        guild_id,
                        p.player_key,
                        p.user_id,
                        p.bot_level,
                        p.total,
                        p.placement,
                        int(p.won),
                        p.deals,
                        p.contracts_taken,
                        p.contracts_made,
                        p.went_down,
                        p.mu_before,
                        p.sigma_before,
                        p.mu_after,
                        p.sigma_after,
                    )
                    for p in players
                ],
            )
            await db.executemany(_UPSERT_STANDING, _standing_rows(guild_id, month, at, players))
            if game_id is not None:
                await db.execute(
                    "UPDATE games SET status = 'finished', to_act = NULL, finished_at = ?, "
                    "updated_at = ? WHERE id = ?",
                    (at, at, game_id),
                )
        return MatchSummary(
            id=match_id,
            guild_id=guild_id,
            game_id=game_id,
            preset=preset,
            rules=dict(rules),
            seed=seed,
            partnership=partnership,
            deals=len(records),
            finished_at=at,
            players=tuple(players),
            records=tuple(dict(r) for r in records),
        )

    async def _match_summaries(
        self, db: aiosqlite.Connection, match_ids: Sequence[int], with_records: bool
    ) -> list[MatchSummary]:
        if not match_ids:
            return []
        marks = ", ".join("?" for _ in match_ids)
        async with db.execute(f"SELECT * FROM matches WHERE id IN ({marks})", match_ids) as cur:
            rows = {r["id"]: r for r in await cur.fetchall()}
        players: dict[int, list[MatchPlayer]] = {m: [] for m in match_ids}
        async with db.execute(
            f"SELECT * FROM match_players WHERE match_id IN ({marks}) ORDER BY match_id, seat",
            match_ids,
        ) as cur:
            async for r in cur:
                players[r["match_id"]].append(
                    MatchPlayer(
                        seat=r["seat"],
                        player_key=r["player_key"],
                        user_id=r["user_id"],
                        bot_level=r["bot_level"],
                        total=r["total"],
                        placement=r["placement"],
                        won=bool(r["won"]),
                        deals=r["deals"],
                        contracts_taken=r["contracts_taken"],
                        contracts_made=r["contracts_made"],
                        went_down=r["went_down"],
                        mu_before=r["mu_before"],
                        sigma_before=r["sigma_before"],
                        mu_after=r["mu_after"],
                        sigma_after=r["sigma_after"],
                    )
                )
        records: dict[int, tuple[dict[str, Any], ...]] = {}
        if with_records:
            async with db.execute(
                f"SELECT match_id, jsonl_z FROM match_records WHERE match_id IN ({marks})",
                match_ids,
            ) as cur:
                async for r in cur:
                    records[r[0]] = tuple(decode_records(r[1]))
        out = []
        for m in match_ids:
            if m not in rows:
                continue
            r = rows[m]
            out.append(
                MatchSummary(
                    id=m,
                    guild_id=r["guild_id"],
                    game_id=r["game_id"],
                    preset=r["preset"],
                    rules=json.loads(r["rules"]),
                    seed=r["seed"],
                    partnership=bool(r["partnership"]),
                    deals=r["deals"],
                    finished_at=r["finished_at"],
                    players=tuple(players[m]),
                    records=records.get(m) if with_records else None,
                )
            )
        return out

    async def get_match(self, match_id: int, *, with_records: bool = True) -> MatchSummary | None:
        async with self._snapshot() as db:
            found = await self._match_summaries(db, [match_id], with_records)
        return found[0] if found else None

    async def recent_matches(
        self,
        guild_id: int,
        player_key: str | None = None,
        *,
        limit: int = 10,
        before_id: int | None = None,
        with_records: bool = False,
    ) -> list[MatchSummary]:
        """The server's (or one player's) latest finished matches, newest first.

        ``player_key`` is ``user_key(user_id)`` or ``bot_key(level)``; ``before_id``
        pages back; ``with_records`` adds the deal records (for a JSONL download).
        """
        upper = before_id if before_id is not None else 1 << 62
        async with self._snapshot() as db:
            if player_key is None:
                sql = (
                    "SELECT id FROM matches WHERE guild_id = ? AND id < ? ORDER BY id DESC LIMIT ?"
                )
                args: tuple[Any, ...] = (guild_id, upper, limit)
            else:
                sql = (
                    "SELECT DISTINCT match_id FROM match_players WHERE guild_id = ? "
                    "AND player_key = ? AND match_id < ? ORDER BY match_id DESC LIMIT ?"
                )
                args = (guild_id, player_key, upper, limit)
            async with db.execute(sql, args) as cur:
                ids = [r[0] for r in await cur.fetchall()]
            return await self._match_summaries(db, ids, with_records)

    async def match_records_jsonl(self, match_ids: Sequence[int]) -> str:
        """The deal records of these matches as JSON Lines (batak-deal/1), in the given order."""
        out: list[str] = []
        async with self._read() as db:
            for m in match_ids:
                async with db.execute(
                    "SELECT jsonl_z FROM match_records WHERE match_id = ?", (m,)
                ) as cur:
                    row = await cur.fetchone()
                if row is not None:
                    out.append(zlib.decompress(row[0]).decode())
        return "".join(out)

    # ------------------------------------------------------------------ standings
    @staticmethod
    def _standing(r: Row, rank: int | None = None) -> Standing:
        return Standing(
            guild_id=r["guild_id"],
            period=r["period"],
            player_key=r["player_key"],
            user_id=r["user_id"],
            bot_level=r["bot_level"],
            matches=r["matches"],
            wins=r["wins"],
            deals=r["deals"],
            deal_score_sum=r["deal_score_sum"],
            contracts_taken=r["contracts_taken"],
            contracts_made=r["contracts_made"],
            went_down=r["went_down"],
            mu=r["mu"],
            sigma=r["sigma"],
            rating=r["ordinal"],
            start_rating=r["start_ordinal"],
            last_match_at=r["last_match_at"],
            rank=rank,
        )

    async def leaderboard(
        self,
        guild_id: int,
        *,
        by: str = "rating",
        period: str = ALL_TIME,
        limit: int = 10,
        offset: int = 0,
        include_bots: bool = True,
        min_matches: int = 1,
    ) -> list[Standing]:
        """The server's standings: ``by`` 'rating' or 'wins'; ``period`` 'all', 'month'
        (this UTC month) or 'YYYY-MM'. In a month, ratings are as of each player's
        last match of that month. Entries carry their 1-based ``rank``."""
        per = _period(period, self._now())
        order = {
            "rating": "ordinal DESC, wins DESC, player_key",
            "wins": "wins DESC, matches ASC, ordinal DESC, player_key",
        }.get(by)
        if order is None:
            raise ValueError(f"by must be 'rating' or 'wins', not {by!r}")
        bots = "" if include_bots else " AND user_id IS NOT NULL"
        sql = (
            f"SELECT * FROM standings WHERE guild_id = ? AND period = ? AND matches >= ?{bots} "
            f"ORDER BY {order} LIMIT ? OFFSET ?"
        )
        async with (
            self._read() as db,
            db.execute(sql, (guild_id, per, min_matches, limit, offset)) as cur,
        ):
            rows = await cur.fetchall()
        return [self._standing(r, offset + i + 1) for i, r in enumerate(rows)]

    async def player_stats(
        self, guild_id: int, player_key: str, *, period: str = ALL_TIME, include_bots: bool = True
    ) -> Standing | None:
        """One player's standing, or None. ``rank`` is its place on the leaderboard by
        rating (the same ``include_bots`` choice)."""
        per = _period(period, self._now())
        bots = "" if include_bots else " AND user_id IS NOT NULL"
        async with self._snapshot() as db:
            async with db.execute(
                "SELECT * FROM standings WHERE guild_id = ? AND period = ? AND player_key = ?",
                (guild_id, per, player_key),
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            higher = await self._scalar(
                "SELECT count(*) FROM standings WHERE guild_id = ? AND period = ? "
                f"AND ordinal > ?{bots}",
                (guild_id, per, row["ordinal"]),
            )
        return self._standing(row, int(higher) + 1)

    async def rating(self, guild_id: int, player_key: str) -> tuple[float, float]:
        """Current (mu, sigma); the model's starting rating for a player never seen."""
        async with self._read():
            row = await self._scalar_row(
                "SELECT mu, sigma FROM standings WHERE guild_id = ? AND period = 'all' "
                "AND player_key = ?",
                (guild_id, player_key),
            )
        if row is None:
            return (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
        return (float(row[0]), float(row[1]))

    async def _scalar_row(self, sql: str, args: Sequence[Any]) -> Row | None:
        async with self._db.execute(sql, args) as cur:
            row: Row | None = await cur.fetchone()
        return row

    # ------------------------------------------------------------------ daily deals
    @staticmethod
    def _daily(r: Row, rank: int | None = None) -> DailyResult:
        return DailyResult(
            guild_id=r["guild_id"],
            day=r["day"],
            user_id=r["user_id"],
            game_id=r["game_id"],
            score=r["score"],
            placement=r["placement"],
            details=None if r["details"] is None else json.loads(r["details"]),
            started_at=r["started_at"],
            finished_at=r["finished_at"],
            rank=rank,
        )

    async def start_daily(
        self,
        guild_id: int,
        user_id: int,
        *,
        day: str | date | None = None,
        game_id: int | None = None,
    ) -> DailyResult:
        """Claim the player's one daily try (default day: today, UTC).

        Raises ``DailyAlreadyPlayedError`` if the player already started or finished it.
        """
        d = _day(day, self._now())
        now = _iso(self._now())
        async with self._tx() as db:
            try:
                await db.execute(
                    "INSERT INTO daily_results (guild_id, day, user_id, game_id, started_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (guild_id, d, user_id, game_id, now),
                )
            except sqlite3.IntegrityError as e:
                raise DailyAlreadyPlayedError(
                    f"user {user_id} already played the daily match of {d} in guild {guild_id}"
                ) from e
        result = await self.daily_result(guild_id, user_id, day=d)
        assert result is not None
        return result

    async def finish_daily(
        self,
        guild_id: int,
        user_id: int,
        score: int,
        *,
        day: str | date | None = None,
        placement: int | None = None,
        details: Mapping[str, Any] | None = None,
        game_id: int | None = None,
    ) -> DailyResult:
        """Record the player's daily result (claiming the day if ``start_daily`` was not
        called). A second result for the same day raises ``DailyAlreadyPlayedError``."""
        d = _day(day, self._now())
        now = _iso(self._now())
        det = None if details is None else _dumps(dict(details))
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE daily_results SET score = ?, placement = ?, details = ?, "
                "finished_at = ?, game_id = coalesce(?, game_id) "
                "WHERE guild_id = ? AND day = ? AND user_id = ? AND score IS NULL",
                (score, placement, det, now, game_id, guild_id, d, user_id),
            )
            if cur.rowcount != 1:
                try:
                    await db.execute(
                        "INSERT INTO daily_results (guild_id, day, user_id, game_id, score, "
                        "placement, details, started_at, finished_at) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (guild_id, d, user_id, game_id, score, placement, det, now, now),
                    )
                except sqlite3.IntegrityError as e:
                    raise DailyAlreadyPlayedError(
                        f"user {user_id} already has a daily result for {d} in guild {guild_id}"
                    ) from e
        result = await self.daily_result(guild_id, user_id, day=d)
        assert result is not None
        return result

    async def daily_result(
        self, guild_id: int, user_id: int, *, day: str | date | None = None
    ) -> DailyResult | None:
        """The player's daily entry for the day (started or finished), or None."""
        d = _day(day, self._now())
        async with (
            self._read() as db,
            db.execute(
                "SELECT * FROM daily_results WHERE guild_id = ? AND day = ? AND user_id = ?",
                (guild_id, d, user_id),
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else self._daily(row)

    async def daily_leaderboard(
        self, guild_id: int, *, day: str | date | None = None, limit: int = 10, offset: int = 0
    ) -> list[DailyResult]:
        """Finished daily results of the day, best score first, with competition ranks."""
        d = _day(day, self._now())
        async with (
            self._read() as db,
            db.execute(
                "SELECT *, rank() OVER (ORDER BY score DESC) AS place FROM daily_results "
                "WHERE guild_id = ? AND day = ? AND score IS NOT NULL "
                "ORDER BY score DESC, finished_at LIMIT ? OFFSET ?",
                (guild_id, d, limit, offset),
            ) as cur,
        ):
            return [self._daily(r, r["place"]) for r in await cur.fetchall()]

    # ------------------------------------------------------------------ maintenance
    async def purge_closed_games(self, older_than_days: float = 30.0) -> int:
        """Delete finished / cancelled tables closed more than ``older_than_days`` ago,
        with their seats, action logs and message ids; returns how many.

        Finished matches (with their deal records) and daily results stay: they
        only lose the link to the deleted table.
        """
        cutoff = _iso(self._now() - timedelta(days=older_than_days))
        async with self._tx() as db:
            cur = await db.execute(
                "DELETE FROM games WHERE status IN ('finished', 'cancelled') AND finished_at < ?",
                (cutoff,),
            )
            return int(cur.rowcount)

    async def integrity_check(self) -> str:
        async with self._read():
            return str(await self._scalar("PRAGMA integrity_check"))

    async def checkpoint(self) -> None:
        """Fold the WAL back into the main file (e.g. before a backup)."""
        async with self._read() as db:
            await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


_STANDING_COLS: Final = (
    "guild_id, period, player_key, user_id, bot_level, matches, wins, deals, deal_score_sum, "
    "contracts_taken, contracts_made, went_down, mu, sigma, ordinal, start_ordinal, last_match_at"
)
_UPSERT_STANDING: Final = (
    f"INSERT INTO standings ({_STANDING_COLS}) VALUES "
    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, period, player_key) DO UPDATE SET "
    "matches = matches + excluded.matches, wins = wins + excluded.wins, "
    "deals = deals + excluded.deals, deal_score_sum = deal_score_sum + excluded.deal_score_sum, "
    "contracts_taken = contracts_taken + excluded.contracts_taken, "
    "contracts_made = contracts_made + excluded.contracts_made, "
    "went_down = went_down + excluded.went_down, "
    "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
    "last_match_at = max(last_match_at, excluded.last_match_at)"
)


def _standing_rows(
    guild_id: int, month: str, at: str, players: Sequence[MatchPlayer]
) -> list[tuple[Any, ...]]:
    """Standings increments for the all-time and the month rows (one row per key and period)."""
    agg: dict[str, list[Any]] = {}
    for p in players:
        a = agg.get(p.player_key)
        if a is None:
            a = agg[p.player_key] = [p.user_id, p.bot_level, 0, 0, 0, 0, 0, 0, 0, p]
        a[2] += 1
        a[3] += int(p.won)
        a[4] += p.deals
        a[5] += p.total
        a[6] += p.contracts_taken
        a[7] += p.contracts_made
        a[8] += p.went_down
    rows = []
    initial = ordinal(ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
    for key, a in agg.items():
        p = a[9]
        new_ord = ordinal(p.mu_after, p.sigma_after)
        old_ord = ordinal(p.mu_before, p.sigma_before)
        for period in (ALL_TIME, month):
            start = initial if period == ALL_TIME else old_ord
            rows.append(
                (
                    guild_id,
                    period,
                    key,
                    a[0],
                    a[1],
                    a[2],
                    a[3],
                    a[4],
                    a[5],
                    a[6],
                    a[7],
                    a[8],
                    p.mu_after,
                    p.sigma_after,
                    new_ord,
                    start,
                    at,
                )
            )
    return rows
