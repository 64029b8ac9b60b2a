"""Chaos: the real bot SIGKILLed while eight people play at three tables, on SQLite or
PostgreSQL, and a check that nothing was lost, doubled, stranded or leaked.

    .venv/bin/python -m tests.bot.chaos --kills 50                     # make chaos
    .venv/bin/python -m tests.bot.chaos --kills 50 --database-url URL  # PostgreSQL

``--database-url`` (or ``TEST_DATABASE_URL``) is a PostgreSQL server: the run makes a
fresh database on it and drops it afterwards (``make chaos-pg`` starts a durable cluster,
fsync on, for it). Without one, the bot keeps its SQLite file in a temporary directory.

The tables (1-deal matches again and again: Rematch, Start):

- table A: four people (the host and three who join);
- tables B and C: two people (the host and one who joins) and two computers.

Every person opens her hand and clicks through it (refresh, then pass or the first
legal choice); time-outs of 1.5 s play for whoever is slow. A move is *acknowledged*
when the bot's answer to the press redrew her hand without a warning and without the
card; it is remembered with its move number. (A warning through the press's token later
on means the press was refused after all: the open hand follows the game through that
token, so a time-out's move can show first.)

The killer SIGKILLs the bot ``--kills`` times, in turn: at a random moment (0.5-4 s
after the last restart); right after an acknowledgement (as soon as the bot answered a
move press, so that move must already be durable); right after a new match row appears
(recorded, not yet announced). Restarts are patient: up to ``--patience`` seconds (120)
for the bot to be ready again; a slower restart, or a bot that does not come back, is a
finding in the report, not an abort without one.

After every restart (and at the end):

- exactly one answer: every interaction the fake dispatched got exactly one callback.
  One that was dispatched while the bot was down, or less than 3 s before a kill, could
  not be answered and is counted as *cut by a kill*; any other without an answer is
  *unanswered*, one answered after Discord's 3 s is *late*, a second callback to the
  same interaction is a *double answer*.
- no leak: every message that carries a hand's buttons (``bt:game:seat:...``) is
  ephemeral and shown only to the person seated at that seat (from ``game_seats``),
  in every version the message ever had.

At the end, the killer stops, rematches stop and the bot is left alone until no table
is in the lobby or playing and no announcement is pending (``--settle`` s). Then:

- *lost*: an acknowledged move whose move number is missing from ``game_actions``, or
  holds another action;
- *duplicated*: a finished table with more than one recorded match, result message or
  channel line;
- *stranded*: a table still in the lobby (every seat's person keeps pressing Join and
  the host Start, so a lobby left after settling is one nobody could start), still
  playing (time-outs play every seat within seconds, so nobody can finish it), over
  (phase ``done``) but not finished, or finished without its result message, its
  channel line (when played in a thread) or its table message in the final state; an
  announcement never posted; a traceback in the bot's log;
- *read errors*: the harness's database reader raises on any SQLite or PostgreSQL
  error (it never reads while the bot is down, so SQLite's crash recovery is the bot's
  to run); each is reported and fails the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import sqlite3
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from batak.cards import Suit
from cogs.text.words import suit_text
from tests.fakediscord.driver import Driver, InteractionFailed
from tests.fakediscord.fixtures import BotProcess, running_bot
from tests.fakediscord.server import (
    ALREADY_ACKNOWLEDGED,
    InteractionRecord,
    MessageRecord,
    User,
    iter_components,
    version_text,
)

ENV = {
    "BOT_DELAY_SECONDS": "0.05",
    "TABLE_EDIT_INTERVAL_SECONDS": "0.3",
    "TURN_TIMEOUT_SECONDS": "1.5",
}
DEADLINE = 3.0  # Discord's time to answer an interaction
HAND_ID = re.compile(r"^bt:(\d+):(\d):")
# (people, computers) per table; the first person hosts
TABLES = ((("ada", "bea", "cem", "deniz"), 0), (("elif", "fatma"), 2), (("gul", "hakan"), 2))
KINDS = ("random", "after ack", "after record")


class ReadError(RuntimeError):
    """The harness could not read the bot's database (never taken for "no rows")."""


class Reader:
    """Read-only queries on the bot's database: SQLite (a ``mode=ro`` connection per
    query) or PostgreSQL (a small asyncpg pool). SQL is written with ``?`` placeholders."""

    def __init__(self, sqlite_path: str | None, url: str | None) -> None:
        self.sqlite_path = sqlite_path
        self.url = url
        self.pool: Any = None

    async def open(self) -> None:
        if self.url is not None:
            import asyncpg

            self.pool = await asyncpg.create_pool(self.url, min_size=1, max_size=4)

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()

    async def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.pool is None:
            assert self.sqlite_path is not None
            uri = f"file:{self.sqlite_path}?mode=ro"

            def read() -> list[tuple[Any, ...]]:
                with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=5)) as db:
                    return list(db.execute(sql, args).fetchall())

            try:
                return read()  # a WAL reader does not wait on the bot's writes
            except sqlite3.Error as e:
                raise ReadError(f"SQLite: {type(e).__name__}: {e} ({sql})") from e
        n = iter(range(1, 100))
        pg_sql = re.sub(r"\?", lambda _: f"${next(n)}", sql)
        try:
            async with self.pool.acquire() as conn:
                return [tuple(r) for r in await conn.fetch(pg_sql, *args)]
        except Exception as e:  # asyncpg.PostgresError, OSError, ...: all surfaced
            raise ReadError(f"PostgreSQL: {type(e).__name__}: {e} ({sql})") from e


@dataclass
class Report:
    backend: str = "sqlite"
    kills: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    matches: int = 0
    acknowledged: int = 0
    interactions: int = 0
    cut_by_kill: int = 0
    not_sent: int = 0  # presses while the bot was down: the fake refused them
    late: int = 0
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    stranded: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)
    double_answers: list[str] = field(default_factory=list)
    read_errors: list[str] = field(default_factory=list)
    harness_errors: list[str] = field(default_factory=list)
    step_cancels: int = 0
    restarts: list[str] = field(default_factory=list)  # slow or failed restarts
    slowest_restart: float = 0.0
    seconds: float = 0.0

    def findings(self) -> list[str]:
        return (
            self.lost
            + self.duplicated
            + self.stranded
            + self.leaks
            + self.unanswered
            + self.double_answers
            + self.read_errors
            + self.harness_errors
            + self.restarts
        )

    def ok(self) -> bool:
        return not self.findings()

    def __str__(self) -> str:
        k = self.kills
        return (
            f"chaos {self.backend}: kills {sum(k.values())} (random {k['random']} / after ack "
            f"{k['after ack']} / after record {k['after record']}); acknowledged moves "
            f"{self.acknowledged}; lost {len(self.lost)}; duplicated {len(self.duplicated)}; "
            f"stranded {len(self.stranded)}; leaks {len(self.leaks)}; unanswered "
            f"{len(self.unanswered)}; double answers {len(self.double_answers)}; read errors "
            f"{len(self.read_errors)}; slow/failed restarts {len(self.restarts)}; slowest "
            f"restart {self.slowest_restart:.1f} s; matches {self.matches}; interactions "
            f"{self.interactions} (cut by a kill {self.cut_by_kill}, late {self.late}; "
            f"{self.not_sent} presses refused while the bot was down); "
            f"{self.seconds:.0f} s; steps cut {self.step_cancels}"
            + "".join(f"\n  {x}" for x in self.findings()[:200])
        )


def _ids(msg: MessageRecord) -> list[str]:
    return [str(b.get("custom_id", "")) for b in msg.buttons()]


def _moves_in(data: dict[str, Any]) -> set[int]:
    """The move numbers a hand's buttons carry (``bt:game:seat:move:what``)."""
    out = set()
    for c in iter_components(data.get("components") or []):
        parts = str(c.get("custom_id", "")).split(":")
        if len(parts) == 5 and parts[0] == "bt" and parts[3].isdigit():
            out.add(int(parts[3]))
    return out


def _trump_shown(data: dict[str, Any]) -> str | None:
    """The letter of the suit a hand names as trump (its contract line; the chaos
    players read English), None when it names none or several."""
    text = version_text(data)
    named = [s.letter for s in Suit if suit_text(s, "en") in text]
    return named[0] if len(named) == 1 else None


def _acknowledged(responses: list[dict[str, Any]], move: int, code: str) -> bool:
    """Whether the person was shown the click at ``move`` taken: the first edit through
    its token that is not the hand as it was (an open hand follows the game, so an edit
    of the old state may come through the new token before the bot's answer) is neither
    a refusal nor a hand that still holds the card, nor one whose trump is not hers."""
    for data in responses:
        if version_text(data).startswith("⚠️"):
            return False  # refused (stale, a time-out played first)
        if move in _moves_in(data):
            continue  # still the hand at the moment of the click: not its answer
        if code.startswith("t"):
            # A time-out's trump can show first, its refusal of her press cut by a kill:
            # only a hand that names her suit as trump answers her press.
            return _trump_shown(data) == code[1:]
        if code.startswith("c"):  # a card: gone from the hand it shows
            held = {
                str(c.get("custom_id", "")).rsplit(":", 1)[-1]
                for c in iter_components(data.get("components") or [])
            }
            # A hand with no cards (the match over) cannot tell her card from a time-out's.
            return any(h.startswith("c") for h in held) and code not in held
        return True
    return False  # no answer came (a kill between the acknowledgement and the move)


class Chaos:
    def __init__(
        self, d: Driver, bot: BotProcess, db: Reader, rng: random.Random, patience: float
    ) -> None:
        self.d = d
        self.bot = bot
        self.db = db
        self.rng = rng
        self.patience = patience
        self.report = Report(backend="postgresql" if db.url else "sqlite")
        # (game, move) -> (code, who, when acknowledged, the press)
        self.acked: dict[tuple[int, int], tuple[str, str, float, InteractionRecord]] = {}
        self.stop = False
        self.rematches = True
        self.up = asyncio.Event()
        self.up.set()
        self.ack = asyncio.Event()
        self.down: list[tuple[float, float]] = []  # (killed, ready again), perf_counter
        self.judged: set[int] = set()  # interactions already counted
        self.leak_seen: set[str] = set()
        self.hands: dict[int, tuple[int, MessageRecord]] = {}  # person -> (game, hand)
        self._hand_seen: dict[tuple[int, int], set[tuple[int, int | None, bool]]] = {}
        self.kill_log: list[tuple[float, int, str]] = []  # (when, kill number, kind)

    async def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        await self.up.wait()  # SQLite's crash recovery is the restarted bot's to run
        return await self.db.rows(sql, args)

    # ------------------------------------------------------------------ people
    async def _try(self, coro: Any) -> Any:
        try:
            return await coro
        except (InteractionFailed, TimeoutError, LookupError, PermissionError, RuntimeError):
            await asyncio.sleep(0.3)  # the bot is down or restarting: try again later
            return None
        except AssertionError:  # a disabled button (the table filled meanwhile)
            await asyncio.sleep(0.3)
            return None

    async def person(self, user: User, host: User, people: list[User], bots: int) -> None:
        while not self.stop:
            try:
                await self._person_step(user, host, people, bots)
            except ReadError as e:
                self.report.read_errors.append(f"{user.username}: {e}")
                await asyncio.sleep(1.0)
            except asyncio.CancelledError:
                if self.stop or _cancelling():
                    raise
                self.report.step_cancels += 1
                await asyncio.sleep(0.3)
            except Exception as e:  # the harness's own fault: said, and counted
                self.report.harness_errors.append(f"{user.username}: {type(e).__name__}: {e}")
                traceback.print_exc()
                await asyncio.sleep(1.0)

    async def _person_step(self, user: User, host: User, people: list[User], bots: int) -> None:
        rows = await self.rows(
            "SELECT id, status, table_message_id FROM games WHERE host_id = ? "
            "AND kind = 'table' ORDER BY id DESC LIMIT 1",
            (host.id,),
        )
        is_host = user.id == host.id
        if not rows:
            if is_host:
                await self._try(self.d.slash(host, "batak new", {"deals": 1}, wait="response"))
            await asyncio.sleep(0.5)
            return
        game, status, message_id = rows[0]
        if status == "lobby" and message_id is not None:
            seats = await self.rows(
                "SELECT user_id, bot_level FROM game_seats WHERE game_id = ?", (game,)
            )
            seated = {s[0] for s in seats if s[0] is not None}
            computers = sum(1 for s in seats if s[0] is None and s[1] is not None)
            msg = self.d.message(message_id)
            if user.id not in seated:
                if f"bx:{game}:join" in _ids(msg):
                    await self._try(self.d.click(user, msg, f"bx:{game}:join", wait="response"))
            elif is_host and seated >= {p.id for p in people}:
                what = "bot" if computers < bots else "start"
                if f"bx:{game}:{what}" in _ids(msg):
                    await self._try(self.d.click(host, msg, f"bx:{game}:{what}", wait="response"))
            await asyncio.sleep(0.3)
        elif status == "playing" and message_id is not None:
            hand = self.hands.get(user.id)
            if hand is None or hand[0] != game:
                msg = self.d.message(message_id)
                if f"bx:{game}:show" not in _ids(msg):
                    await asyncio.sleep(0.2)
                    return
                rec = await self._try(self.d.click(user, msg, f"bx:{game}:show", wait="response"))
                if rec is not None:
                    shown = rec.followups[-1] if rec.followups else rec.response
                    if shown is not None:  # its buttons may come with a later edit
                        self.hands[user.id] = (game, shown)
                return
            await self._play(user, game, hand[1])
        elif status == "finished" and self.rematches and is_host:
            result = self._result(game, message_id)
            if result is not None:
                await self._try(self.d.click(host, result, f"bx:{game}:rematch", wait="response"))
            await asyncio.sleep(0.3)
        else:
            await asyncio.sleep(0.3)

    def _result(self, game: int, table_message: int | None) -> MessageRecord | None:
        marker = f"bx:{game}:rematch"
        for m in self.d.messages(include_ephemeral=False):
            if m.id != table_message and not m.deleted and marker in _ids(m):
                return m
        return None

    async def _play(self, user: User, game: int, hand: MessageRecord) -> None:
        msg = self.d.message(hand.id)
        ref = next((c for c in _ids(msg) if c.endswith(":ref")), None)
        if ref is None:
            await asyncio.sleep(0.3)
            return
        await self._try(self.d.click(user, msg, ref, wait="response"))
        msg = self.d.message(hand.id)
        options = [
            b["custom_id"]
            for b in msg.buttons()
            if not b.get("disabled")
            and str(b.get("custom_id", "")).startswith("bt:")
            and str(b["custom_id"]).split(":")[-1] not in ("hint", "ref")
        ]
        if not options:
            await asyncio.sleep(0.1)
            return
        pick = next((c for c in options if c.endswith(":p")), options[0])
        rec = await self._try(self.d.click(user, msg, pick, wait="response"))
        if rec is None:
            return
        _, _, _, move, code = pick.split(":")
        # the answer may be a deferred update with the redrawn hand a moment later
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline and not any(
            version_text(v).startswith("⚠️") or int(move) not in _moves_in(v) for v in rec.responses
        ):
            await asyncio.sleep(0.05)
        if not _acknowledged(rec.responses, int(move), code):
            return
        self.acked[(game, int(move) + 1)] = (code, user.username, time.perf_counter(), rec)
        self.report.acknowledged += 1
        self.ack.set()

    # ------------------------------------------------------------------ the killer
    async def killer(self, kills: int) -> None:
        for k in range(kills):
            kind = KINDS[k % 3]
            if kind == "after ack":
                self.ack.clear()
                try:
                    await asyncio.wait_for(self.ack.wait(), 60)
                except TimeoutError:
                    kind = "random"
            elif kind == "after record":
                before = len(await self.rows("SELECT id FROM matches"))
                deadline = time.monotonic() + 90
                while time.monotonic() < deadline:
                    if len(await self.rows("SELECT id FROM matches")) > before:
                        break
                    await asyncio.sleep(0.005)
                else:
                    kind = "random"
            else:
                await asyncio.sleep(self.rng.uniform(0.5, 4.0))
            self.up.clear()
            killed = time.perf_counter()
            await self.bot.kill()
            self.kill_log.append((killed, k + 1, kind))
            self.report.kills[kind] += 1
            await asyncio.sleep(self.rng.uniform(0.0, 0.5))
            if not await self._restart(k + 1, kind, killed):
                return
            self.check_answers_and_leaks()
            r = self.report
            print(
                f"kill {k + 1} ({kind}): back; acknowledged {r.acknowledged}, "
                f"findings {len(r.findings())}",
                file=sys.stderr,
                flush=True,
            )
            try:
                await self.check_leaks()
            except ReadError as e:
                self.report.read_errors.append(f"after kill {k + 1}: {e}")

    async def _restart(self, n: int, kind: str, killed: float) -> bool:
        """Start the bot again, waiting up to ``patience`` s; False if it did not come back."""
        started = time.perf_counter()
        self.bot.timeout = self.patience
        try:
            await self.bot.start()
        except RuntimeError as e:
            took = time.perf_counter() - started
            self.down.append((killed, float("inf")))
            self.report.restarts.append(
                f"kill {n} ({kind}): the bot was not back after {took:.0f} s: {str(e)[-1500:]}"
            )
            return False
        took = time.perf_counter() - started
        self.report.slowest_restart = max(self.report.slowest_restart, took)
        self.down.append((killed, time.perf_counter()))
        self.up.set()
        return True

    # ------------------------------------------------------------------ the checks
    def check_answers_and_leaks(self, *, final: bool = False) -> None:
        r = self.report
        now = time.perf_counter()
        for rec in list(self.d.fake.interactions.values()):
            doubles = [e for e in rec.rejected if getattr(e, "code", None) == ALREADY_ACKNOWLEDGED]
            key = f"double {rec.id}"
            if doubles and key not in self.leak_seen:
                self.leak_seen.add(key)
                r.double_answers.append(f"interaction {rec.id}: {len(doubles) + 1} answers")
            if rec.id in self.judged:
                continue
            if rec.dispatched_at == 0.0:  # refused by the fake: no bot was connected
                self.judged.add(rec.id)
                r.not_sent += 1
                continue
            if not final and now - rec.dispatched_at < DEADLINE + 1:
                continue
            self.judged.add(rec.id)
            r.interactions += 1
            sent = rec.dispatched_at
            if rec.late_callback:  # answered, once, but after Discord's 3 s
                r.late += 1
                continue
            if any(k - DEADLINE <= sent <= ready for k, ready in self.down):
                if not rec.acked:
                    r.cut_by_kill += 1
                continue
            if not rec.acked:
                r.unanswered.append(
                    f"interaction {rec.id} ({_what(rec.payload)}): no answer{self._when(sent)}"
                )
        for m in list(self.d.fake.messages.values()):
            for version in [*m.versions, m.data]:
                for c in iter_components(version.get("components") or []):
                    hit = HAND_ID.match(str(c.get("custom_id", "")))
                    if hit is None:
                        continue
                    game, seat = int(hit[1]), int(hit[2])
                    self._hand_seen.setdefault((game, seat), set()).add(
                        (m.id, m.ephemeral_to, m.deleted)
                    )
                    break

    def _when(self, sent: float) -> str:
        """Where an interaction fell among the kills."""
        before = [(n, at) for at, n, _ in self.kill_log if at <= sent]
        ready = [r for k, r in self.down if k <= sent]
        if not before:
            return " (before the first kill)"
        n, at = before[-1]
        return (
            f" (sent {sent - at:.2f} s after kill {n}, {sent - ready[-1]:.2f} s after its restart)"
        )

    async def check_leaks(self) -> None:
        """Every message that ever carried seat ``s``'s hand buttons of a game is
        ephemeral to the person at that seat."""
        owners = {
            (g, s): u
            for g, s, u in await self.rows("SELECT game_id, seat, user_id FROM game_seats")
        }
        for (game, seat), seen in sorted(self._hand_seen.items()):
            owner = owners.get((game, seat))
            for message, to, _ in sorted(seen, key=lambda x: x[0]):
                key = f"leak {game} {seat} {message}"
                if (to is None or to != owner) and key not in self.leak_seen:
                    self.leak_seen.add(key)
                    self.report.leaks.append(
                        f"table {game} seat {seat} (owner {owner}): its hand in message "
                        f"{message}, shown to {'everyone' if to is None else to}"
                    )

    async def settle(self, timeout: float) -> None:
        """Stop rematches; wait until no table is in the lobby or playing and nothing is
        pending."""
        self.rematches = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            busy = await self.rows(
                "SELECT count(*) FROM games WHERE kind = 'table' AND status IN ('lobby', 'playing')"
            )
            pending = await self.rows(
                "SELECT count(*) FROM announcements WHERE announced_at IS NULL"
            )
            if busy[0][0] == 0 and pending[0][0] == 0:
                await asyncio.sleep(2.0)  # the last edits
                return
            await asyncio.sleep(0.5)

    async def check(self) -> None:
        r = self.report
        games = await self.rows(
            "SELECT id, status, phase, channel_id, thread_id, table_message_id FROM games "
            "WHERE kind = 'table' ORDER BY id"
        )
        for game, status, phase, channel, thread, table_message in games:
            if status == "lobby":
                r.stranded.append(f"table {game} left in the lobby")
            if status == "playing":
                r.stranded.append(f"table {game} still playing (phase {phase})")
            if phase == "done" and status != "finished":
                r.stranded.append(f"table {game} over but {status}")
            if status != "finished":
                continue
            r.matches += 1
            n = (await self.rows("SELECT count(*) FROM matches WHERE game_id = ?", (game,)))[0][0]
            if n != 1:
                (r.duplicated if n else r.stranded).append(f"table {game}: {n} recorded matches")
            marker = f"bx:{game}:rematch"
            posts = [
                m
                for m in self.d.fake.messages.values()
                if m.ephemeral_to is None
                and m.id != table_message
                and not m.deleted
                and marker in _ids(m)
            ]
            where = thread or channel
            results = [m for m in posts if m.channel_id == where]
            links = [m for m in posts if thread is not None and m.channel_id == channel]
            if len(results) != 1:
                (r.duplicated if results else r.stranded).append(
                    f"table {game}: {len(results)} result messages"
                )
            if thread is not None and len(links) != 1:
                (r.duplicated if links else r.stranded).append(
                    f"table {game}: {len(links)} channel lines"
                )
            if table_message is not None:
                final = self.d.message(table_message)
                if f"bx:{game}:show" in _ids(final):
                    r.stranded.append(f"table {game}: its message still offers Show hand")
        pending = await self.rows("SELECT id, kind FROM announcements WHERE announced_at IS NULL")
        r.stranded.extend(f"announcement {a} ({k}) never posted" for a, k in pending)
        logged = {
            (g, m): a
            for g, m, a in await self.rows("SELECT game_id, move, action FROM game_actions")
        }
        for (game, move), (code, who, when, rec) in sorted(self.acked.items()):
            if any(version_text(v).startswith("⚠️") for v in rec.responses):
                # Refused after all: the hand follows the game through the press's token,
                # so the state after a time-out's move (her card no longer among the
                # legal ones) can come before the bot's answer, a refusal.
                r.acknowledged -= 1
                continue
            action = logged.get((game, move))
            if action is None or not _same(action, code):
                r.lost.append(
                    f"table {game} move {move}: {who}'s {code} acknowledged, log has {action}"
                    f"{self._next_kill(when)}"
                )

    def _next_kill(self, when: float) -> str:
        """The kill that followed an acknowledgement (where a loss would come from)."""
        for at, n, kind in self.kill_log:
            if at >= when:
                return f"; kill {n} ({kind}) {at - when:.3f} s after the acknowledgement"
        return "; no kill after it"


def _cancelling() -> bool:
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _what(payload: dict[str, Any]) -> str:
    data = payload.get("data") or {}
    return str(data.get("custom_id") or data.get("name") or "?")


def _same(action: str, code: str) -> bool:
    """The log's text form ("bid 5", "pass", "play TH") is the button's code (b5, p, cTH)."""
    if code == "p":
        return action == "pass"
    if code[0] == "b":
        return action == f"bid {code[1:]}"
    if code[0] == "t":
        return action == f"trump {code[1:]}"
    return action == f"play {code[1:]}"


async def run(
    kills: int,
    seed: int = 1,
    *,
    settle: float = 120.0,
    database_url: str | None = None,
    patience: float = 120.0,
) -> Report:
    """``database_url``: a PostgreSQL server (a fresh database is made on it and dropped
    afterwards); None: SQLite."""
    started = time.monotonic()
    rng = random.Random(seed)
    url = None
    if database_url is not None:
        from tests.postgres import fresh_database

        url = await fresh_database(database_url)
    try:
        async with Driver() as d:
            tables = [([d.create_user(n) for n in names], bots) for names, bots in TABLES]
            everyone = [u for people, _ in tables for u in people]
            guild = d.create_guild("Chaos", members=everyone)
            env = {"DEV_GUILD_ID": str(guild.id)} | ENV
            async with running_bot(d, env=env, database_url=url, timeout=patience) as bot:
                db = Reader(None if url else bot.database_path, url)
                await db.open()
                chaos = Chaos(d, bot, db, rng, patience)
                people = [
                    asyncio.create_task(chaos.person(u, ps[0], ps, bots))
                    for ps, bots in tables
                    for u in ps
                ]
                try:
                    await chaos.killer(kills)
                    if chaos.up.is_set():
                        await chaos.settle(settle)
                finally:
                    chaos.stop = True
                    for task in people:
                        task.cancel()
                    for task in people:
                        with contextlib.suppress(asyncio.CancelledError, Exception):
                            await task
                try:
                    chaos.check_answers_and_leaks(final=True)
                    await chaos.check_leaks()
                    await chaos.check()
                except ReadError as e:
                    chaos.report.read_errors.append(f"the final check: {e}")
                finally:
                    await db.close()
                chaos.report.seconds = time.monotonic() - started
                if "Traceback" in bot.all_output():
                    chaos.report.stranded.append("a traceback in the bot's log")
                return chaos.report
    finally:
        if url is not None and database_url is not None:
            from tests.postgres import drop_database

            await drop_database(database_url, url)


def main() -> int:
    parser = argparse.ArgumentParser(description="SIGKILL the bot while people play")
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("TEST_DATABASE_URL", "").strip() or None,
        help="a PostgreSQL server (default: TEST_DATABASE_URL; none: SQLite)",
    )
    parser.add_argument("--sqlite", action="store_true", help="SQLite even if a URL is set")
    parser.add_argument("--patience", type=float, default=120.0)
    args = parser.parse_args()
    url = None if args.sqlite else args.database_url
    report = asyncio.run(run(args.kills, args.seed, database_url=url, patience=args.patience))
    print(report)
    return 0 if report.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
