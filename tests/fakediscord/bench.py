"""Load bench: N concurrent tables of scripted players through one bot process.

    python -m tests.fakediscord.bench --tables 200            # the real bot.py, Batak script
    python -m tests.fakediscord.bench --echo --tables 50      # the echo bot (harness check)

Prints interaction acknowledgement latency p50 / p99 (dispatch on the gateway -> callback
received), moves per second, lost and duplicated moves, interactions that failed, the
bot's memory (VmRSS) per active table, and (bot.py) the store's commit latency per move,
read from each bot process's ``/metrics`` (``batak_store_commit_seconds``) before and
after the measured tables; the Discord calls per move, in all and those that count against
Discord's global rate limit (50 per second per bot token, which the fake enforces: every
process of the bot shares it), by route; the 429s served by scope (global / route); and
(bot.py) Start-to-picture latency, from the Start press's acknowledgement to the table
message's first picture; (bot.py) the pictures drawn per move, by kind (table, auction,
hand: ``batak_pictures_drawn``). ``--json`` prints the same as one JSON object.

``--players 3 --level hard`` leaves one seat of each table to a computer of that level
(each server's setting, set by an admin before any table; Start fills the seat): the
bench then also reads the computers' moves and decisions from ``/metrics``, how many
the wall-clock guard cut short, the decisions' wall time (p50 / p95 / p99) and how long
a due move still waited for its decision. The CPU per move is printed by process too
(each bot, then its workers).

``--busy N`` runs N busy loops (one core's worth of CPU each, at normal priority) beside
the bench from start to end: the machine of a bot that shares its cores.

``--database-url postgresql://USER@HOST:PORT/DB`` runs the bot(s) on PostgreSQL: the
bench creates a temporary database on that server (the user needs CREATEDB) and drops
it afterwards; ``--processes 2`` runs two shard processes sharing it.

A *table script* plays one table: ``setup`` once (seat the players, open the table),
then ``step`` until it returns False. Each acknowledged move is counted; a script reports
lost / duplicated moves by comparing what it did with what the bot shows.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tests.postgres import drop_database, fresh_database

from .driver import Driver, InteractionFailed, percentile
from .fixtures import BOT_SCRIPT, ECHO_BOT, _children, read_rss, read_rss_each, running_bot
from .global_limit import GLOBAL_LIMIT
from .scrape import (
    Buckets,
    combined,
    count,
    counter,
    counter_by,
    free_port,
    histogram,
    minus,
    quantile,
    scrape,
)
from .server import Channel, Guild, InteractionRecord, MessageRecord, User, _route_template

COMMIT_METRIC = "batak_store_commit_seconds"
MOVES_METRIC = "batak_moves"
DECISIONS_METRIC = "batak_ai_decisions"
CUT_METRIC = "batak_ai_decisions_cut"
DECISION_METRIC = "batak_ai_decision_seconds"
MOVE_WAIT_METRIC = "batak_ai_move_wait_seconds"
HELD_METRIC = "batak_discord_requests_held"
PICTURES_METRIC = "batak_pictures_drawn"
LIVE_TIMER = 3600
"""The bench servers' turn timer of live tables, seconds (the longest the bot allows)."""


@dataclass
class TableContext:
    index: int
    guild: Guild
    channel: Channel
    players: list[User]
    moves: int = 0
    lost: int = 0
    duplicated: int = 0
    failed: int = 0
    finished: bool = False
    state: dict[str, Any] = field(default_factory=dict)
    interactions: list[InteractionRecord] = field(default_factory=list)


class TableScript(Protocol):
    name: str
    command_prefix: str

    async def setup(self, d: Driver, t: TableContext) -> None: ...

    async def step(self, d: Driver, t: TableContext) -> bool: ...

    def audit(self, d: Driver, t: TableContext) -> None: ...

    def start_to_picture(self, t: TableContext) -> float | None: ...

    async def settle(self, d: Driver, ts: list[TableContext]) -> None:
        """After the measured play (not timed): what is still on its way and measured."""


class EchoTableScript:
    """For the echo bot: open a message with /echo say, then click Ping ``moves`` times;
    the bot's counter in the message content must follow exactly (lost / duplicated)."""

    name = "echo"
    command_prefix = "echo"

    def __init__(self, moves: int = 20) -> None:
        self.moves = moves

    async def setup(self, d: Driver, t: TableContext) -> None:
        r = await d.slash(t.players[0], "echo say", {"text": f"table {t.index}"}, channel=t.channel)
        t.interactions.append(r)
        assert r.response is not None
        t.state["message"] = r.response

    async def step(self, d: Driver, t: TableContext) -> bool:
        msg: MessageRecord = t.state["message"]
        player = t.players[t.moves % len(t.players)]
        r = await d.click(player, msg, "Ping")
        t.interactions.append(r)
        t.moves += 1
        got = _pong(msg.content)
        if got is None or got < t.moves:
            t.lost += 1
        elif got > t.moves:
            t.duplicated += got - t.moves
        return t.moves < self.moves

    def audit(self, d: Driver, t: TableContext) -> None:
        got = _pong(t.state["message"].content) or 0
        t.lost = max(t.lost, t.moves - got) if got <= t.moves else t.lost
        t.duplicated = max(t.duplicated, got - t.moves)

    def start_to_picture(self, t: TableContext) -> float | None:
        return None  # the echo bot has no Start and no picture

    async def settle(self, d: Driver, ts: list[TableContext]) -> None:
        return None


def _pong(content: str) -> int | None:
    m = re.fullmatch(r"pong (\d+)", content)
    return int(m.group(1)) if m else None


NUMBER = re.compile(r"\d+")
HAND_ID = re.compile(r"bt:(\d+):(\d):(\d+):(\w+)")
TABLE_ID = re.compile(r"bx:(\d+):(\w+)")


def _custom_ids(m: MessageRecord) -> list[str]:
    return [str(b.get("custom_id") or "") for b in m.buttons()]


class PictureWatches:
    """When a watched message first carries a picture it did not carry when watched (an
    attachment id new since then), timed by the fake at the moment of the edit
    (:attr:`MessageRecord.changed_at`, ``perf_counter``), not when a player notices it."""

    def __init__(self) -> None:
        self._watched: dict[int, set[str]] = {}
        self.seen_at: dict[int, float] = {}
        self._fakes: set[int] = set()

    def watch(self, d: Driver, message: MessageRecord) -> None:
        if id(d.fake) not in self._fakes:
            self._fakes.add(id(d.fake))
            d.fake.change_listeners.append(self._changed)
        self._watched[message.id] = {str(a.get("id")) for a in message.attachments}

    def _changed(self, m: MessageRecord) -> None:
        before = self._watched.get(m.id)
        if before is None or m.deleted:
            return
        if any(str(a.get("id")) not in before for a in m.attachments):
            self.seen_at[m.id] = m.changed_at
            del self._watched[m.id]


class BatakTableScript:
    """People at one table of the real bot (cogs/components/): ``/batak new``, lobby
    buttons ``bx:{table}:join`` / ``start``; then each person opens their hand once with
    Show hand (``bx:{table}:show``) and plays in that message as the bot keeps it up to
    date: whoever's hand offers a move clicks its first enabled move button
    ``bt:{table}:{seat}:{move}:{code}`` (not hint / ref). Someone pinged (a turn notice
    with Show hand: their hand could not be kept up to date) opens their hand again.

    Moves are checked with the move number each hand button carries: after the table's
    move ``m`` the next move offered must be ``m + 1``. Nothing offered (the match not
    over) means a move was lost; a larger number means one was applied twice (tables
    here have no computer players, and people act well within the turn timer).
    """

    name = "batak"
    command_prefix = "batak"
    NOT_MOVES = ("hint", "ref")

    def __init__(
        self, max_moves: int = 10_000, deals: int = 1, wait: float = 30.0, computers: int = 0
    ) -> None:
        self.max_moves = max_moves
        self.deals = deals
        self.wait = wait
        self.computers = computers
        """Seats left to computers (Start fills them): their moves come between the
        people's, so the move numbers a person is offered skip theirs; a move applied
        twice is then found by the bot's count of people's moves (``run_bench``)."""
        self.pictures = PictureWatches()

    def start_to_picture(self, t: TableContext) -> float | None:
        """Seconds from the Start press's acknowledgement to the table message's first
        picture after it; None if the table never got that far."""
        start: InteractionRecord | None = t.state.get("start")
        lobby = t.state.get("lobby")
        if start is None or start.acked_at is None or lobby is None:
            return None
        at = self.pictures.seen_at.get(lobby)
        return None if at is None else max(0.0, at - start.acked_at)

    async def settle(self, d: Driver, ts: list[TableContext]) -> None:
        """A table's first picture may come after its last move: drawn late
        (``cogs.pictures.LateDrawings``), and while the game moved faster than a starved
        worker drew, each drawing was out of date when done. Waited for (at most
        ``wait``), so Start-to-picture counts every started table, late ones included."""
        lobbies = [t.state["lobby"] for t in ts if t.state.get("start") is not None]
        seen = self.pictures.seen_at
        await d.fake.wait_state(lambda: all(x in seen for x in lobbies), self.wait)

    async def setup(self, d: Driver, t: TableContext) -> None:
        host = t.players[0]
        r = await d.slash(
            host, "batak new", {"deals": self.deals}, channel=t.channel, wait="response"
        )
        t.interactions.append(r)
        reply = r.response.content if r.response else ""
        where = re.search(r"<#(\d+)>", reply)
        channel = d.fake.channels[int(where.group(1))] if where else t.channel
        lobby = await d.wait_for_message(
            lambda m: any(c.endswith(":join") for c in _custom_ids(m)),
            self.wait,
            channel=channel,
        )
        join = next(c for c in _custom_ids(lobby) if c.endswith(":join"))
        table = join.split(":")[1]
        t.state.update(channel=channel, table=table, seen=set(), last=None, hands={})
        for p in t.players[1:]:
            # As a person does: sit down, see "you joined", then the host starts (an
            # acknowledgement alone does not mean the seat is taken yet; a start before
            # the joins are done fills the seats with computers).
            t.interactions.append(await d.click(p, lobby, join, wait="response"))
        self.pictures.watch(d, d.message(lobby.id))  # the table message, once started
        start = await d.click(host, lobby, f"bx:{table}:start")
        t.interactions.append(start)
        t.state.update(start=start, lobby=lobby.id)
        show = f"bx:{table}:show"
        await d.wait_for_message(
            lambda m: m.id == lobby.id and show in _custom_ids(m), self.wait, channel=channel
        )
        for p in t.players:
            await self._open(d, t, p, d.message(lobby.id))

    async def _open(self, d: Driver, t: TableContext, player: Any, msg: MessageRecord) -> None:
        r = await d.click(player, msg, f"bx:{t.state['table']}:show", wait="response")
        t.interactions.append(r)
        hand = r.followups[-1] if r.followups else r.response
        if hand is not None:
            t.state["hands"][hand.id] = player

    def _offer(self, t: TableContext, m: MessageRecord) -> tuple[str, int] | None:
        """The first move a hand message offers, if it is newer than the last one made."""
        if m.id not in t.state["hands"]:
            return None
        last = t.state["last"]
        for b in m.buttons():
            found = HAND_ID.fullmatch(str(b.get("custom_id") or ""))
            if found and not b.get("disabled") and found.group(4) not in self.NOT_MOVES:
                number = int(found.group(3))
                return (found.group(0), number) if last is None or number > last else None
        return None

    async def step(self, d: Driver, t: TableContext) -> bool:
        table, seen = t.state["table"], t.state["seen"]
        ids = {p.id for p in t.players}
        show, rematch = f"bx:{table}:show", f"bx:{table}:rematch"

        def turn_or_end(m: MessageRecord) -> bool:
            cids = _custom_ids(m)
            if rematch in cids or self._offer(t, m) is not None:
                return True
            return m.id not in seen and bool(set(m.notified) & ids) and show in cids

        try:
            m = await d.wait_for_message(turn_or_end, self.wait, channel=t.state["channel"])
        except TimeoutError:
            t.lost += 1  # nobody is offered a move and the match is not over
            return False
        if rematch in _custom_ids(m):
            t.finished = True
            return False
        offer = self._offer(t, m)
        if offer is None:  # a ping: that person's hand could not follow; open it again
            seen.add(m.id)
            player = next(p for p in t.players if p.id in m.notified)
            await self._open(d, t, player, m)
            return True
        custom_id, number = offer
        last = t.state["last"]
        if last is not None and number > last + 1 and not self.computers:
            t.duplicated += number - last - 1
        t.state["last"] = number
        c = await d.click(t.state["hands"][m.id], m, custom_id)
        t.interactions.append(c)
        t.moves += 1
        return t.moves < self.max_moves

    def audit(self, d: Driver, t: TableContext) -> None:
        pass


@dataclass
class BenchResult:
    script: str
    tables: int
    players_per_table: int
    interactions: int
    moves: int
    seconds: float
    moves_per_second: float
    ack_p50_ms: float
    ack_p99_ms: float
    ack_max_ms: float
    failed_interactions: int
    lost_moves: int
    duplicated_moves: int
    rss_idle_bytes: int
    rss_active_bytes: int
    rss_per_table_bytes: int
    served_429: int
    unhandled_routes: int
    discord_calls: int = 0
    """REST requests the bot made while the measured tables played."""
    checked_bodies: int = 0
    """Request bodies checked against Discord's rules (discordspec), the whole run."""
    refused_bodies: int = 0
    """Of those, refused as Discord would refuse them (400 / 50035): a bug of the bot."""
    limited_routes: dict[str, int] = field(default_factory=dict)
    """The routes that were answered 429, and how often."""
    failures: dict[str, int] = field(default_factory=dict)
    """Why interactions failed: ``late ack <name>`` (the fake saw no acknowledgement in
    3 s, or a late one), or the error that stopped a table's players."""
    calls_by_route: dict[str, int] = field(default_factory=dict)
    """The REST requests of the measured tables by route (``PATCH /webhooks/...``)."""
    bot_cpu_seconds: float = 0.0
    cpu_each_seconds: list[float] = field(default_factory=list)
    """By process, as ``rss_idle_each``: each bot, then its workers."""
    fake_cpu_seconds: float = 0.0
    fake_rss_bytes: int = 0
    rss_idle_each: list[int] = field(default_factory=list)
    rss_peak_each: list[int] = field(default_factory=list)
    processes: int = 1
    database: str = "sqlite"
    commits: int = 0
    """Moves committed to the store by the bot(s) while the measured tables played."""
    commit_p50_ms: float = 0.0
    commit_p99_ms: float = 0.0
    commit_p99_each_ms: list[float] = field(default_factory=list)
    """By process (with several)."""
    global_limited_calls: int = 0
    """Of ``discord_calls``, those that count against Discord's global rate limit (50 per
    second per bot token, all processes together): every route but the interaction
    endpoints (callback, and the interaction token's webhook routes)."""
    global_calls_by_route: dict[str, int] = field(default_factory=dict)
    """Those by route (``PATCH /channels/{id}/messages/{id}``)."""
    pictures_by_kind: dict[str, int] = field(default_factory=dict)
    """Pictures the drawing worker drew while the measured tables played, by kind
    (``batak_pictures_drawn``; pictures taken from those drawn lately are not counted)."""
    global_budgets: int = 0
    """Global budgets the run drew on: 1 when every process uses the one bot token."""
    served_429_global: int = 0
    """429s served with ``global: true`` (the global limit), the whole run."""
    served_429_route: int = 0
    """429s of a route's bucket, the whole run."""
    held_requests: int = 0
    """Requests the bot(s) held as they left, so that no second sends more than their
    part of the global limit (``cogs.budget.SendWindow``)."""
    start_tables: int = 0
    """Measured tables whose Start-to-picture latency was seen."""
    start_to_picture_p50_ms: float = 0.0
    """From the Start press's acknowledgement to the table message first carrying its
    picture after it, per table (bot.py)."""
    start_to_picture_p95_ms: float = 0.0
    start_to_picture_max_ms: float = 0.0
    people_moves_committed: int = 0
    """People's moves the bot(s) committed while the measured tables played (its
    ``batak_moves{actor="player"}``): more than ``moves`` is a move applied twice."""
    computer_moves: int = 0
    """Moves the computers made meanwhile (``--players`` under 4: Start seats them)."""
    timeout_moves: int = 0
    """Moves a computer made for a person whose turn timed out."""
    computer_level: str = ""
    ai_decisions: int = 0
    ai_decisions_cut: int = 0
    """Of those, the decisions the wall-clock guard cut short (a starved CPU)."""
    ai_decision_p50_ms: float = 0.0
    """Wall clock from asking the thinking worker to its answer, queueing included."""
    ai_decision_p95_ms: float = 0.0
    ai_decision_p99_ms: float = 0.0
    ai_move_wait_p50_ms: float = 0.0
    """How long a computer's move, once due (its delay over), still waited for its
    decision: it thinks while the delay runs, so this is what players see of it."""
    ai_move_wait_p95_ms: float = 0.0
    ai_move_wait_p99_ms: float = 0.0
    busy: int = 0
    """Busy loops that ran beside the bench (``--busy``)."""

    @property
    def discord_calls_per_move(self) -> float:
        return self.discord_calls / max(1, self.moves)

    @property
    def global_calls_per_move(self) -> float:
        """Calls per move that count against the global limit: 50 per second divided by
        this is the most moves per second the whole bot can make."""
        return self.global_limited_calls / max(1, self.moves)

    def start_line(self) -> str:
        if not self.start_tables:
            return "  Start-to-picture: not measured"
        return (
            f"  Start-to-picture p50 {self.start_to_picture_p50_ms:.0f} ms, "
            f"p95 {self.start_to_picture_p95_ms:.0f} ms, "
            f"max {self.start_to_picture_max_ms:.0f} ms ({self.start_tables} tables)"
        )

    def global_line(self) -> str:
        shared = (
            f", one budget for {self.processes} processes"
            if self.processes > 1 and self.global_budgets == 1
            else ""
        )
        return (
            f"  global-limited calls {self.global_limited_calls} = "
            f"{self.global_calls_per_move:.2f} per move ({GLOBAL_LIMIT}/s per token{shared}; "
            f"{self.held_requests} held as they left): "
            + (
                ", ".join(
                    f"{route} {n / max(1, self.moves):.2f}"
                    for route, n in sorted(
                        self.global_calls_by_route.items(), key=lambda kv: -kv[1]
                    )
                    if n / max(1, self.moves) >= 0.01
                )
                or "none"
            )
        )

    def pictures_line(self) -> str:
        moves = max(1, self.moves + self.computer_moves)
        total = sum(self.pictures_by_kind.values())
        kinds = sorted(self.pictures_by_kind.items(), key=lambda kv: -kv[1])
        return f"  pictures drawn {total} = {total / moves:.2f} per move: " + ", ".join(
            f"{kind} {n / moves:.2f}" for kind, n in kinds
        )

    def computer_line(self) -> str:
        if not self.ai_decisions:
            return "  computers: none"
        cut = 100 * self.ai_decisions_cut / self.ai_decisions
        return (
            f"  computers ({self.computer_level or 'the server default'}): "
            f"{self.computer_moves} moves and {self.timeout_moves} for people timed out, "
            f"{self.ai_decisions} decisions, "
            f"{self.ai_decisions_cut} cut short by the guard ({cut:.1f}%), decision wall "
            f"p50 {self.ai_decision_p50_ms:.1f} ms, p95 {self.ai_decision_p95_ms:.1f} ms, "
            f"p99 {self.ai_decision_p99_ms:.1f} ms; a due move's wait for it "
            f"p50 {self.ai_move_wait_p50_ms:.1f} ms, p95 {self.ai_move_wait_p95_ms:.1f} ms, "
            f"p99 {self.ai_move_wait_p99_ms:.1f} ms; CPU per move, computers' included "
            f"{1000 * self.bot_cpu_seconds / max(1, self.moves + self.computer_moves):.1f} ms"
        )

    def commit_line(self) -> str:
        if not self.commits:
            return "  store commits: not measured (no /metrics)"
        each = (
            " (by process: " + ", ".join(f"{x:.1f}" for x in self.commit_p99_each_ms) + " ms)"
            if len(self.commit_p99_each_ms) > 1
            else ""
        )
        return (
            f"  store commit ({self.database}) p50 {self.commit_p50_ms:.1f} ms, "
            f"p99 {self.commit_p99_ms:.1f} ms{each}, {self.commits} commits"
        )

    @property
    def bot_cpu_ms_per_move(self) -> float:
        """The bot process's (or processes') CPU time per move, workers not counted."""
        return 1000 * self.bot_cpu_seconds / max(1, self.moves)

    def report(self) -> str:
        return "\n".join(
            [
                f"bench: {self.tables} tables x {self.players_per_table} players ({self.script}"
                + (f", {self.processes} shard processes" if self.processes > 1 else "")
                + (f", beside {self.busy} busy loop(s))" if self.busy else ")"),
                f"  interactions {self.interactions}, moves {self.moves} in {self.seconds:.1f}s "
                f"= {self.moves_per_second:.1f} moves/s",
                f"  ack latency p50 {self.ack_p50_ms:.1f} ms, p99 {self.ack_p99_ms:.1f} ms, "
                f"max {self.ack_max_ms:.1f} ms",
                self.commit_line(),
                self.start_line(),
                *([self.computer_line()] if self.ai_decisions else []),
                f"  failed interactions {self.failed_interactions}, lost moves {self.lost_moves}, "
                f"duplicated moves {self.duplicated_moves}"
                + (f"; failures {self.failures}" if self.failures else ""),
                f"  bot RSS idle {self.rss_idle_bytes / 2**20:.1f} MiB, active "
                f"{self.rss_active_bytes / 2**20:.1f} MiB, "
                f"{self.rss_per_table_bytes / 1024:.1f} KiB per active table",
                "  RSS by process (bot, then its workers), idle -> at the peak: "
                + ", ".join(
                    f"{a / 2**20:.0f} -> {b / 2**20:.0f} MiB"
                    for a, b in zip(self.rss_idle_each, self.rss_peak_each, strict=False)
                ),
                f"  429s served {self.served_429} (global {self.served_429_global}, "
                f"route {self.served_429_route}), unhandled routes {self.unhandled_routes}, "
                f"bodies checked {self.checked_bodies}, refused {self.refused_bodies}",
                f"  Discord calls {self.discord_calls} = "
                f"{self.discord_calls_per_move:.2f} per move"
                + (f"; 429s by route {self.limited_routes}" if self.limited_routes else ""),
                self.global_line(),
                "  per move by route: "
                + ", ".join(
                    f"{route} {n / max(1, self.moves):.2f}"
                    for route, n in sorted(self.calls_by_route.items(), key=lambda kv: -kv[1])
                    if n / max(1, self.moves) >= 0.01
                ),
                *([self.pictures_line()] if self.pictures_by_kind else []),
                f"  CPU: bot and its workers {self.bot_cpu_seconds:.1f}s = "
                f"{self.bot_cpu_ms_per_move:.1f} ms per move, "
                f"fake Discord + players {self.fake_cpu_seconds:.1f}s "
                f"(its RSS {self.fake_rss_bytes / 2**20:.0f} MiB)",
                "  CPU per move by process (bot, then its workers): "
                + ", ".join(
                    f"{1000 * c / max(1, self.moves):.1f} ms" for c in self.cpu_each_seconds
                ),
            ]
        )


async def run_bench(
    *,
    tables: int,
    script: TableScript,
    bot_script: Path = BOT_SCRIPT,
    players: int = 4,
    env: dict[str, str] | None = None,
    ready_grace: float = 2.2,
    timeout: float = 600.0,
    progress: bool = False,
    think: float = 0.5,
    ramp: float = 2.0,
    seed: int = 1,
    warmup: int = 1,
    rate_limits: bool = False,
    processes: int = 1,
    database_url: str | None = None,
    patience: float = 30.0,
    metrics: bool = True,
    level: str | None = None,
    live_timer: int | None = None,
) -> BenchResult:
    """Play every table concurrently. Each player waits ``think`` seconds on average
    (uniformly 0.5x..1.5x) before a move, like people do, and tables start spread over
    ``ramp`` seconds; with ``think=0`` the bench is a closed loop that measures saturation
    (latency then grows with the number of tables by Little's law). ``warmup`` tables
    play to the end before the measured ones start; the bot's RSS after them is the idle
    baseline for memory per active table.

    ``processes`` > 1: that many bot processes, one shard each, sharing the database at
    ``database_url`` (PostgreSQL); the tables are spread over one server per shard, and
    memory and CPU figures are those of all the processes together. ``patience``: the
    driver's waits (for a deferred answer, a turn notice) last at least that long, so a
    busy machine slows the bench instead of failing it; Discord's 3 s acknowledgement
    rule is still enforced by the fake and shows in the latency figures. ``metrics``:
    give each bot a METRICS_PORT and read its commit latency histogram (bot.py only).
    ``level``: each server's computer level (``/batak settings server computer:``, run by
    a server admin before any table), for the seats ``players`` under 4 leaves to
    computers. ``live_timer``: each server's turn timer of live tables, in seconds
    (``main`` sets the longest, an hour: people who stopped at ``--moves`` never time
    out, so no computer plays on for them while the run is measured)."""
    rng = random.Random(seed)
    if processes > 1 and not database_url:
        raise ValueError("several processes need a shared database (database_url)")
    async with Driver(keep_history=False, shard_count=processes, patience=patience) as d:
        if rate_limits:
            d.use_discord_rate_limits()
        people = [d.create_user(f"p{i}") for i in range((tables + warmup) * players)]
        admin = d.create_user("admin")
        guilds = [
            d.create_guild(
                f"Bench {k}",
                members=people,
                admins=[admin],
                shard=k if processes > 1 else None,
            )
            for k in range(processes)
        ]
        channels = [
            d.create_channel(guilds[i % processes], f"table-{i}") for i in range(tables + warmup)
        ]
        every = [
            TableContext(
                i, guilds[i % processes], channels[i], people[i * players : (i + 1) * players]
            )
            for i in range(tables + warmup)
        ]
        warm, ctxs = every[:warmup], every[warmup:]
        full_env = {"LOG_LEVEL": "WARNING", **(env or {})}
        if processes == 1:  # several servers: global commands, synced by shard 0's process
            full_env["DEV_GUILD_ID"] = str(guilds[0].id)
        if database_url:
            full_env["DATABASE_URL"] = database_url
        ports = [free_port() for _ in range(processes)] if metrics else []
        async with contextlib.AsyncExitStack() as stack:
            bots = [
                await stack.enter_async_context(
                    running_bot(
                        d,
                        script=bot_script,
                        env=full_env | ({"METRICS_PORT": str(ports[k])} if metrics else {}),
                        ready_grace=ready_grace,
                        **({"shard_count": processes, "shard_ids": (k,)} if processes > 1 else {}),
                    )
                )
                for k in range(processes)
            ]

            def rss_each() -> list[int]:
                return [r for b in bots for r in read_rss_each(b.pid)]

            def cpu_each() -> dict[int, float]:
                return {p: c for b in bots for p, c in read_cpu_each(b.pid).items()}

            async def metrics_texts() -> list[str]:
                """Each bot process's ``/metrics``, read once for every figure taken then."""
                return [await scrape(port) for port in ports]

            def commit_histograms(texts: list[str]) -> list[Buckets]:
                return [histogram(x, COMMIT_METRIC) for x in texts]

            def readings(texts: list[str]) -> dict[str, float]:
                """The counters the figures subtract (all processes together)."""
                return {
                    "people": sum(counter(x, MOVES_METRIC, actor="player") for x in texts),
                    "computers": sum(counter(x, MOVES_METRIC, actor="bot") for x in texts),
                    "timeouts": sum(counter(x, MOVES_METRIC, actor="timeout") for x in texts),
                    "decisions": sum(counter(x, DECISIONS_METRIC) for x in texts),
                    "cut": sum(counter(x, CUT_METRIC) for x in texts),
                    "held": sum(counter(x, HELD_METRIC) for x in texts),
                    **pictures_by_kind(texts),
                }

            def pictures_by_kind(texts: list[str]) -> dict[str, float]:
                """The pictures drawn, by kind, as ``picture:KIND`` counts."""
                out: dict[str, float] = {}
                for x in texts:
                    for kind, n in counter_by(x, PICTURES_METRIC, "kind").items():
                        out[f"picture:{kind}"] = out.get(f"picture:{kind}", 0.0) + n
                return out

            def summed_histogram(texts: list[str], name: str = DECISION_METRIC) -> Buckets:
                return combined([histogram(x, name) for x in texts])

            async def texts_once_committed(made: int, since: float = 0.0) -> list[str]:
                """``/metrics`` once ``made`` people's moves were committed beyond
                ``since`` (a press is acknowledged before its move is committed), or
                after ``patience`` with what is in by then."""
                until = time.perf_counter() + patience
                texts = await metrics_texts()
                while ports and readings(texts)["people"] - since < made:
                    if time.perf_counter() > until:
                        break
                    await asyncio.sleep(0.1)
                    texts = await metrics_texts()
                return texts

            # before any table: the level of the seats Start fills, and a turn timer that
            # outlasts the run (a table stopped at --moves would time out and play on)
            options: dict[str, str | int] = {"computer": level} if level is not None else {}
            if live_timer is not None:
                options["live_timer"] = live_timer
            for k, g in enumerate(guilds):
                if not options:
                    break
                where = next(c for c in channels if c.guild_id == g.id)
                r = await d.slash(
                    admin, "batak settings server", options, channel=where, wait="response"
                )
                said = r.response.content.lower() if r.response is not None else ""
                if any(str(v).lower() not in said for v in options.values()):
                    raise RuntimeError(f"server {k}: not set as asked ({options}): {said!r}")

            async def play(t: TableContext, delay: float, think: float = think) -> None:
                try:
                    await asyncio.sleep(delay)
                    await script.setup(d, t)
                    while True:
                        if think > 0:
                            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                        if not await script.step(d, t):
                            break
                except (InteractionFailed, TimeoutError) as exc:  # no answer, or no table
                    t.failed += 1
                    t.state["failure"] = f"{type(exc).__name__}: {exc}"[:200]
                finally:
                    t.finished = True
                    script.audit(d, t)

            # Warm-up tables play first, alone and fast, so that one-time costs (imports,
            # fonts, card images, caches) are not charged to the measured tables.
            # They need no human pace: 0.5 s between moves at most.
            await asyncio.wait_for(
                asyncio.gather(*(play(t, 0, min(think, 0.5)) for t in warm)), timeout
            )
            idle_each = rss_each()
            rss_idle = sum(idle_each)
            peak, peak_each = rss_idle, idle_each

            async def sample_rss() -> None:
                nonlocal peak, peak_each
                while True:
                    each = rss_each()
                    if sum(each) > peak:
                        peak, peak_each = sum(each), each
                    if progress:
                        done = sum(c.moves for c in ctxs)
                        print(f"  ... {done} moves, rss {peak / 2**20:.1f} MiB", file=sys.stderr)
                    await asyncio.sleep(0.5)

            # The warm-up's last moves may still be on their way: read once they are in,
            # or the measured tables' count would take them in (a "duplicated" move).
            texts0 = await texts_once_committed(sum(t.moves for t in warm))
            commits0, counts0 = commit_histograms(texts0), readings(texts0)
            decisions0 = summed_histogram(texts0)
            waits0 = summed_histogram(texts0, MOVE_WAIT_METRIC)
            sampler = asyncio.create_task(sample_rss())
            t0 = time.perf_counter()
            cpu0, each0 = time.process_time(), cpu_each()
            calls0, routes0 = d.fake.api_calls, Counter(d.fake.route_counts)
            global0 = Counter(d.fake.global_limit.counted if d.fake.global_limit else {})
            try:
                await asyncio.wait_for(
                    asyncio.gather(
                        *(play(t, ramp * i / max(1, tables)) for i, t in enumerate(ctxs))
                    ),
                    timeout,
                )
            finally:
                sampler.cancel()
            elapsed = time.perf_counter() - t0
            cpu = time.process_time() - cpu0
            cpu_by_process = [c - each0.get(p, 0.0) for p, c in cpu_each().items()]
            bot_cpu = sum(cpu_by_process)
            calls = d.fake.api_calls - calls0
            commits_each = [
                minus(after, before)
                for after, before in zip(
                    commit_histograms(await metrics_texts()), commits0, strict=True
                )
            ]
            routes = Counter(d.fake.route_counts)
            routes.subtract(routes0)
            global_routes = Counter(d.fake.global_limit.counted if d.fake.global_limit else {})
            global_routes.subtract(global0)
            fake_rss = read_rss(os.getpid())
            peak = max(peak, sum(b.rss_bytes() for b in bots))
            await script.settle(d, ctxs)  # after every count: not part of the figures
            # The last move of a table that stopped at --moves may still be on its way.
            counts: dict[str, float] = {}
            decisions: Buckets = []
            waits: Buckets = []
            if ports:
                made = sum(t.moves for t in ctxs)
                texts = await texts_once_committed(made, counts0["people"])
                counts = {k: v - counts0.get(k, 0.0) for k, v in readings(texts).items()}
                decisions = minus(summed_histogram(texts), decisions0)
                waits = minus(summed_histogram(texts, MOVE_WAIT_METRIC), waits0)
        recs = [r for t in ctxs for r in t.interactions]
        lat = [r.ack_latency for r in recs if r.ack_latency is not None]
        moves = sum(t.moves for t in ctxs)
        commits = combined(commits_each)
        starts = [x for x in (script.start_to_picture(t) for t in ctxs) if x is not None]
        return BenchResult(
            script=script.name,
            tables=tables,
            players_per_table=players,
            interactions=len(recs),
            moves=moves,
            seconds=elapsed,
            moves_per_second=moves / elapsed if elapsed else 0.0,
            ack_p50_ms=percentile(lat, 50) * 1000,
            ack_p99_ms=percentile(lat, 99) * 1000,
            ack_max_ms=max(lat, default=0.0) * 1000,
            failed_interactions=len(d.failed_interactions()) + sum(t.failed for t in every),
            lost_moves=sum(t.lost for t in every),
            duplicated_moves=sum(t.duplicated for t in every)
            + max(0, int(counts.get("people", 0)) - moves if ports else 0),
            rss_idle_bytes=rss_idle,
            rss_active_bytes=peak,
            rss_per_table_bytes=max(0, peak - rss_idle) // max(1, tables),
            served_429=d.fake.served_429,
            unhandled_routes=len(d.fake.unhandled),
            discord_calls=calls,
            checked_bodies=sum(d.fake.checked.values()),
            refused_bodies=sum(d.fake.refused.values()),
            limited_routes=dict(
                Counter(
                    f"{r.method} {_route_template(r.path)}"
                    for r in d.fake.requests
                    if r.status == 429
                )
            ),
            failures=dict(
                Counter("late ack " + NUMBER.sub("N", r.name) for r in d.failed_interactions())
                + Counter(str(t.state["failure"]) for t in every if "failure" in t.state)
            ),
            calls_by_route={route: n for route, n in routes.items() if n > 0},
            bot_cpu_seconds=bot_cpu,
            cpu_each_seconds=cpu_by_process,
            fake_cpu_seconds=cpu,
            fake_rss_bytes=fake_rss,
            rss_idle_each=idle_each,
            rss_peak_each=peak_each,
            processes=processes,
            database="postgresql" if database_url else "sqlite",
            commits=count(commits),
            commit_p50_ms=quantile(0.5, commits) * 1000,
            commit_p99_ms=quantile(0.99, commits) * 1000,
            commit_p99_each_ms=[quantile(0.99, c) * 1000 for c in commits_each],
            global_limited_calls=sum(n for n in global_routes.values() if n > 0),
            global_calls_by_route={r: n for r, n in global_routes.items() if n > 0},
            pictures_by_kind={
                k.removeprefix("picture:"): int(n)
                for k, n in counts.items()
                if k.startswith("picture:") and n > 0
            },
            global_budgets=len(d.fake.global_limit.windows) if d.fake.global_limit else 0,
            served_429_global=d.fake.served_429_by_scope["global"],
            served_429_route=d.fake.served_429_by_scope["route"],
            start_tables=len(starts),
            start_to_picture_p50_ms=percentile(starts, 50) * 1000,
            start_to_picture_p95_ms=percentile(starts, 95) * 1000,
            start_to_picture_max_ms=max(starts, default=0.0) * 1000,
            people_moves_committed=int(counts.get("people", 0)),
            computer_moves=int(counts.get("computers", 0)),
            timeout_moves=int(counts.get("timeouts", 0)),
            held_requests=int(counts.get("held", 0)),
            computer_level=level or "",
            ai_decisions=int(counts.get("decisions", 0)),
            ai_decisions_cut=int(counts.get("cut", 0)),
            ai_decision_p50_ms=quantile(0.5, decisions) * 1000,
            ai_decision_p95_ms=quantile(0.95, decisions) * 1000,
            ai_decision_p99_ms=quantile(0.99, decisions) * 1000,
            ai_move_wait_p50_ms=quantile(0.5, waits) * 1000,
            ai_move_wait_p95_ms=quantile(0.95, waits) * 1000,
            ai_move_wait_p99_ms=quantile(0.99, waits) * 1000,
        )


async def on_database(
    bench: Callable[..., Awaitable[BenchResult]], *, database_url: str | None, **kw: Any
) -> BenchResult:
    """``bench(**kw)`` with ``database_url``; a PostgreSQL server's URL is replaced by a
    temporary database made on that server, dropped afterwards (a fresh start each run)."""
    if not database_url or not database_url.startswith(("postgresql://", "postgres://")):
        return await bench(database_url=database_url, **kw)
    url = await fresh_database(database_url)
    print(f"bench database: {url} (temporary)", file=sys.stderr)
    try:
        return await bench(database_url=url, **kw)
    finally:
        await drop_database(database_url, url)


def read_cpu_each(pid: int) -> dict[int, float]:
    """User + system CPU seconds of a process and of each of its descendants (the drawing
    and thinking workers are the bot's CPU too), by pid in the order found, from
    /proc/{pid}/stat: each process's own time plus what its waited-for children used
    (``cutime``, ``cstime``)."""
    out: dict[int, float] = {}
    todo = [pid]
    while todo:
        p = todo.pop(0)
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # ended between the listing and the read
            continue
        out[p] = sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        todo.extend(_children(p))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.fakediscord.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument(
        "--players",
        type=int,
        default=4,
        help="people per table (1-4); Start gives the other seats to computers",
    )
    ap.add_argument(
        "--level",
        default=None,
        help="the computers' level (each server's setting), e.g. hard",
    )
    ap.add_argument("--moves", type=int, default=None, help="moves per table (upper bound)")
    ap.add_argument("--deals", type=int, default=1, help="deals per match (batak script)")
    ap.add_argument("--echo", action="store_true", help="drive the echo bot instead of bot.py")
    ap.add_argument("--bot", type=Path, default=None, help="bot script (default bot.py)")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds for the tables")
    ap.add_argument(
        "--think",
        type=float,
        default=5.0,
        help="mean seconds a person takes per move (2 = a stress pace; 0 = closed loop)",
    )
    ap.add_argument("--ramp", type=float, default=2.0, help="seconds over which tables start")
    ap.add_argument("--warmup", type=int, default=20, help="tables played before measuring")
    ap.add_argument("--rate-limits", action="store_true", help="Discord-like per-channel buckets")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument(
        "--database-url",
        default=None,
        help="DATABASE_URL of the bot(s), e.g. postgresql://... (default: a fresh SQLite file)",
    )
    ap.add_argument(
        "--patience",
        type=float,
        default=30.0,
        help="seconds a wait of the players lasts before it counts as a failure",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, one shard each, sharing --database-url",
    )
    ap.add_argument(
        "--busy",
        type=int,
        default=0,
        help="busy loops beside the bench (a core's worth of CPU each): a busy machine",
    )
    args = ap.parse_args(argv)
    if args.busy < 0:
        ap.error("--busy must be 0 or more")
    if args.processes < 1:
        ap.error("--processes must be at least 1")
    if args.processes > 1 and args.echo:
        ap.error("the echo bot does not shard: --processes needs bot.py")
    if args.processes > 1 and not args.database_url:
        ap.error("--processes 2 needs --database-url postgresql://... (one shared database)")
    script: TableScript
    if args.echo:
        script = EchoTableScript(args.moves or 20)
        bot = args.bot or ECHO_BOT
        grace = 0.3
    else:
        script = BatakTableScript(args.moves or 10_000, args.deals, computers=4 - args.players)
        bot = args.bot or BOT_SCRIPT
        grace = 2.2
    with busy_loops(args.busy):
        result = _run(args, script, bot, grace)
    result.busy = args.busy
    as_json = asdict(result) | {
        "bot_cpu_ms_per_move": result.bot_cpu_ms_per_move,
        "discord_calls_per_move": result.discord_calls_per_move,
        "global_calls_per_move": result.global_calls_per_move,
    }
    print(json.dumps(as_json, indent=2) if args.json else result.report())
    ok = (
        result.failed_interactions == 0
        and result.lost_moves == 0
        and result.duplicated_moves == 0
        and result.refused_bodies == 0
    )
    return 0 if ok else 1


@contextlib.contextmanager
def busy_loops(count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` processes that only spin, at normal priority, stopped on the way out."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield loops
    finally:
        for p in loops:
            p.kill()
        for p in loops:
            p.wait()


def _run(args: argparse.Namespace, script: TableScript, bot: Path, grace: float) -> BenchResult:
    return asyncio.run(
        on_database(
            run_bench,
            tables=args.tables,
            script=script,
            bot_script=bot,
            players=args.players,
            ready_grace=grace,
            timeout=args.timeout,
            progress=args.progress,
            think=args.think,
            ramp=args.ramp,
            warmup=args.warmup,
            rate_limits=args.rate_limits,
            processes=args.processes,
            database_url=args.database_url,
            patience=args.patience,
            metrics=not args.echo,
            level=args.level,
            live_timer=None if args.echo else LIVE_TIMER,
        )
    )


if __name__ == "__main__":
    raise SystemExit(main())
