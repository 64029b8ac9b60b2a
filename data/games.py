"""Tables in the lobby or in play: rows, seats, the action log and posted messages."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from .base import (
    CLOSE_GAME,
    KEEP,
    Connection,
    Database,
    Row,
    _day,
    _dumps,
    _iso,
    _Keep,
)
from .models import (
    ACTORS,
    EMPTY_SEATS,
    GAME_KINDS,
    OPEN_STATUSES,
    ActionEntry,
    DailyAlreadyPlayedError,
    Game,
    GameClosedError,
    HostHasOpenTableError,
    RematchExistsError,
    Seat,
    SeatError,
    StaleMoveError,
    StoreError,
)
from .writes import Step, write


class GameStore:
    """Tables in the lobby or in play (``store.games``)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def _seats(self, game_ids: Sequence[int]) -> dict[int, list[Seat]]:
        out: dict[int, list[Seat]] = {g: list(EMPTY_SEATS) for g in game_ids}
        if not game_ids:
            return out
        marks = ", ".join("?" for _ in game_ids)
        async with self.database.conn.execute(
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
            rematch_of=row["rematch_of"],
        )

    async def _write_seats(self, db: Connection, game_id: int, seats: Sequence[Seat]) -> None:
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

    @staticmethod
    async def _drop_hosting_if_left(db: Connection, game_id: int) -> None:
        """A host who no longer holds a seat no longer hosts the table (and may open
        another); coming back does not make them its host again."""
        await db.execute(
            "UPDATE games SET hosting = NULL WHERE id = ? AND hosting IS NOT NULL AND NOT "
            "EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = games.id "
            "AND s.user_id = games.host_id)",
            (game_id,),
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
        rematch_of: int | None = None,
        daily_day: str | date | None = None,
    ) -> Game:
        """Open a table. ``settings`` is free JSON (rules dict, seed, first dealer, pace, ...).

        A host seated at their new table (kind "table") hosts it until it closes or they
        leave their seat, and hosts one open table per server at a time: a second one
        raises ``HostHasOpenTableError`` (with the open table's id), however many
        requests race. ``rematch_of`` names the finished table this is the rematch of;
        a table has one rematch: a second raises ``RematchExistsError``.

        ``daily_day`` (kind "daily" only): the host's daily try of that UTC day is claimed
        in the same transaction (``store.daily``); a person has one daily game per server
        and day: a second raises ``DailyAlreadyPlayedError`` (with the first game's id,
        when the claim has one), however many requests or processes race.
        """
        if kind not in GAME_KINDS:
            raise ValueError(f"kind must be one of {GAME_KINDS}")
        if daily_day is not None and kind != "daily":
            raise ValueError("only a daily game has a daily day")
        day = None if daily_day is None else _day(daily_day, self.database.now())
        if status not in OPEN_STATUSES:
            raise ValueError(f"a new game's status is one of {OPEN_STATUSES}")
        seat_list = list(seats) if seats else list(EMPTY_SEATS)
        hosted = kind == "table" and any(s.user_id == host_id for s in seat_list)
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            # Checked under the write lock, so no other writer can slip in between;
            # the unique indexes on (guild_id, hosting) and rematch_of hold regardless.
            if rematch_of is not None:
                old = await self.database.game_row(rematch_of)
                if old["status"] != "finished" or old["kind"] != "table":
                    raise ValueError(
                        f"only a finished table can have a rematch; table {rematch_of} is "
                        f"a {old['kind']} that is {old['status']}"
                    )
                existing = await self.database.scalar(
                    "SELECT id FROM games WHERE rematch_of = ?", (rematch_of,)
                )
                if existing is not None:
                    raise RematchExistsError(rematch_of, int(existing))
            if hosted:
                await self.database.key_lock("host", guild_id, host_id)
                existing = await self.database.scalar(
                    "SELECT id FROM games WHERE guild_id = ? AND hosting = ?", (guild_id, host_id)
                )
                if existing is not None:
                    raise HostHasOpenTableError(guild_id, host_id, int(existing))
            if day is not None:
                # the same key as store.daily's claim; the unique index holds regardless
                await self.database.key_lock("daily", guild_id, day, host_id)
                async with db.execute(
                    "SELECT game_id FROM daily_results WHERE guild_id = ? AND day = ? "
                    "AND user_id = ?",
                    (guild_id, day, host_id),
                ) as found:
                    claim = await found.fetchone()
                if claim is not None:
                    raise DailyAlreadyPlayedError(
                        f"user {host_id} already played the daily match of {day} "
                        f"in guild {guild_id}",
                        None if claim["game_id"] is None else int(claim["game_id"]),
                    )
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, thread_id, host_id, kind, status, "
                "phase, move, to_act, settings, created_at, updated_at, hosting, rematch_of, "
                "daily_day) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
                    host_id if hosted else None,
                    rematch_of,
                    day,
                ),
            )
            game_id = int((await cur.fetchone())[0])
            await self._write_seats(db, game_id, seat_list)
            if day is not None:
                await db.execute(
                    "INSERT INTO daily_results (guild_id, day, user_id, game_id, started_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (guild_id, day, host_id, game_id, now),
                )
        return await self.get_game(game_id)

    async def get_game(self, game_id: int) -> Game:
        """The table without its action log. Raises ``GameNotFoundError``."""
        async with self.database.snapshot():
            row = await self.database.game_row(game_id)
            seats = await self._seats([game_id])
        return self._game(row, seats[game_id])

    async def load_game(self, game_id: int) -> Game:
        """The table with its whole action log in ``Game.actions`` (one consistent read)."""
        async with self.database.snapshot() as db:  # the row, the seats and the log at one moment
            row = await self.database.game_row(game_id)
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
            self.database.read() as db,
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
        async with self.database.snapshot() as db:
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
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            row = await self.database.open_row(game_id)
            if row["status"] != "lobby":
                raise GameClosedError(f"game {game_id} has already started")
            if seats is not None:
                await self._write_seats(db, game_id, seats)
                await self._drop_hosting_if_left(db, game_id)
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
        when = self.database.now()
        now = _iso(when)
        now_ms = round(when.timestamp() * 1000)
        sets = "move = ?, phase = ?, to_act = ?, updated_at = ?"
        args: list[Any] = [new_move, phase, to_act, now]
        if not isinstance(snapshot, _Keep):
            sets += ", snapshot = ?, snapshot_move = ?"
            args += [None if snapshot is None else _dumps(snapshot), new_move]
        failed = await write(
            self.database,
            (
                Step(
                    f"UPDATE games SET {sets} WHERE id = ? AND move = ? "
                    "AND status IN ('lobby', 'playing')",
                    ((*args, game_id, expected_move),),
                    expect=1,
                ),
                Step(
                    "INSERT INTO game_actions (game_id, move, seat, action, actor, at_ms) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (game_id, expected_move + i + 1, seat, action, actor, now_ms)
                        for i, (seat, action, actor) in enumerate(entries)
                    ],
                ),
            ),
        )
        if failed >= 0:  # the table moved on (or is missing, or closed): nothing written
            async with self.database.read():
                row = await self.database.open_row(game_id)  # raises for missing / closed
            raise StaleMoveError(game_id, expected_move, row["move"])
        return new_move

    async def save_snapshot(self, game_id: int, expected_move: int, snapshot: Any) -> None:
        """Store a snapshot of the state after ``expected_move`` (StaleMoveError if moved on)."""
        async with self.database.tx() as db:
            cur = await db.execute(
                "UPDATE games SET snapshot = ?, snapshot_move = move WHERE id = ? AND move = ?",
                (None if snapshot is None else _dumps(snapshot), game_id, expected_move),
            )
            if cur.rowcount != 1:
                row = await self.database.game_row(game_id)
                raise StaleMoveError(game_id, expected_move, row["move"])

    async def set_game_settings(self, game_id: int, settings: Mapping[str, Any]) -> Game:
        """Replace an open table's settings (e.g. the host changes the preset in the lobby)."""
        async with self.database.tx() as db:
            await self.database.open_row(game_id)
            await db.execute(
                "UPDATE games SET settings = ?, updated_at = ? WHERE id = ?",
                (_dumps(dict(settings)), _iso(self.database.now()), game_id),
            )
        return await self.get_game(game_id)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        async with self.database.tx() as db:
            await self.database.game_row(game_id)
            await db.execute("UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id))

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the id of the table's public message."""
        async with self.database.tx() as db:
            await self.database.game_row(game_id)
            await db.execute(
                "UPDATE games SET table_message_id = ? WHERE id = ?", (message_id, game_id)
            )

    async def _close(self, game_id: int, status: str) -> Game:
        now = _iso(self.database.now())
        async with self.database.tx() as db:
            await self.database.open_row(game_id)
            await db.execute(CLOSE_GAME, (status, now, now, game_id))
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
        async with self.database.tx() as db:
            row = await self.database.open_row(game_id)
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
        async with self.database.tx() as db:
            row = await self.database.open_row(game_id)
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
            await self._drop_hosting_if_left(db, game_id)
        return mine[0]

    async def set_seat(
        self, game_id: int, seat: int, new: Seat, *, expected: Seat | None = None
    ) -> Game:
        """Put ``new`` in a seat (add a computer player, hand a seat to the computer while
        its person is away, give it back, ...). With ``expected``, only if the seat still
        holds that (compare-and-set; ``SeatError`` otherwise)."""
        if not 0 <= seat <= 3:
            raise SeatError(f"no seat {seat}")
        async with self.database.tx() as db:
            await self.database.open_row(game_id)
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
            await self._drop_hosting_if_left(db, game_id)
            await db.execute(
                "UPDATE games SET updated_at = ? WHERE id = ?", (_iso(self.database.now()), game_id)
            )
        return await self.get_game(game_id)

    async def set_host(self, game_id: int, user_id: int) -> Game:
        """Hand an open table to a new host, a person seated at it (its host left).

        They also hold its "one open table per host" claim, unless they already host
        another open table of the server (that one keeps it). ``SeatError`` when they
        hold no seat."""
        async with self.database.tx() as db:
            row = await self.database.open_row(game_id)
            seats = (await self._seats([game_id]))[game_id]
            if not any(s.user_id == user_id for s in seats):
                raise SeatError(f"user {user_id} has no seat at table {game_id}")
            hosting: int | None = None
            if row["kind"] == "table":
                await self.database.key_lock("host", row["guild_id"], user_id)
                other = await self.database.scalar(
                    "SELECT id FROM games WHERE guild_id = ? AND hosting = ? AND id <> ?",
                    (row["guild_id"], user_id, game_id),
                )
                hosting = user_id if other is None else None
            await db.execute(
                "UPDATE games SET host_id = ?, hosting = ?, updated_at = ? WHERE id = ?",
                (user_id, hosting, _iso(self.database.now()), game_id),
            )
        return await self.get_game(game_id)
