"""Chaos: the real bot SIGKILLed at random moments while tables play, some kills right
after a match is recorded, and a check that nothing was lost or doubled.

    .venv/bin/python -m tests.bot.chaos --kills 50      # what ``make chaos`` runs

Three tables play 1-deal matches again and again (Rematch, Start): one person clicks
through her hand, two hosts sit idle so the computer takes their seats on time-outs.
A killer SIGKILLs the bot every few seconds (every third kill waits for a new match
row in the database and kills at once: recorded, not yet announced), then starts it
again on the same database. At the end, with the bot left alone to settle:

- every finished table has exactly one result message (and one channel line when it
  was played in a thread), one recorded match, a table message in its final state;
- no announcement is pending, no table is stranded (over but not finished);
- every move the bot acknowledged to the person (her hand redrawn without a warning)
  is in the table's log at that move number.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from tests.fakediscord.driver import Driver, InteractionFailed
from tests.fakediscord.fixtures import BotProcess, running_bot
from tests.fakediscord.server import MessageRecord, User, iter_components, version_text

ENV = {
    "BOT_DELAY_SECONDS": "0.05",
    "TABLE_EDIT_INTERVAL_SECONDS": "0.3",
    "TURN_TIMEOUT_SECONDS": "1.5",
}


@dataclass
class Report:
    kills: int = 0
    kills_at_match_end: int = 0
    matches: int = 0
    acknowledged: int = 0
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    stranded: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.stranded)

    def __str__(self) -> str:
        return (
            f"kills survived: {self.kills} ({self.kills_at_match_end} right after a match "
            f"was recorded); matches finished: {self.matches}; moves acknowledged: "
            f"{self.acknowledged}; lost: {len(self.lost)}; duplicated: {len(self.duplicated)}; "
            f"stranded: {len(self.stranded)}; {self.seconds:.0f} s"
            + "".join(f"\n  {x}" for x in self.lost + self.duplicated + self.stranded)
        )


def _db(bot: BotProcess) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{bot.database_path}?mode=ro", uri=True, timeout=5)


def _query(bot: BotProcess, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    try:
        with contextlib.closing(_db(bot)) as db:
            return db.execute(sql, args).fetchall()
    except sqlite3.Error:
        return []  # not created yet, or being migrated: ask again later


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


def _acknowledged(responses: list[dict[str, Any]], move: int, code: str) -> bool:
    """Whether the person was shown the click at ``move`` taken: the first edit through
    its token that is not the hand as it was (an open hand follows the game, so an edit
    of the old state may come through the new token before the bot's answer) is neither
    a refusal nor a hand that still holds the card."""
    for data in responses:
        if version_text(data).startswith("⚠️"):
            return False  # refused (stale, a time-out played first)
        if move in _moves_in(data):
            continue  # still the hand at the moment of the click: not its answer
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
    def __init__(self, d: Driver, bot: BotProcess, rng: random.Random) -> None:
        self.d = d
        self.bot = bot
        self.rng = rng
        self.report = Report()
        self.acked: dict[tuple[int, int], str] = {}  # (game, move) -> action text
        self.stop = False
        self.rematches = True

    # ------------------------------------------------------------------ people
    async def _try(self, coro: Any) -> Any:
        try:
            return await coro
        except (InteractionFailed, TimeoutError, LookupError, PermissionError):
            await asyncio.sleep(0.3)  # the bot is down or restarting: try again later
            return None

    def _latest(self, host: User) -> tuple[int, str, int | None] | None:
        rows = _query(
            self.bot,
            "SELECT id, status, table_message_id FROM games WHERE host_id = ? "
            "AND kind = 'table' ORDER BY id DESC LIMIT 1",
            (host.id,),
        )
        return rows[0] if rows else None

    def _result(self, game: int, table_message: int | None) -> MessageRecord | None:
        marker = f"bx:{game}:rematch"
        for m in self.d.messages(include_ephemeral=False):
            if m.id != table_message and not m.deleted and marker in _ids(m):
                return m
        return None

    async def person(self, host: User, active: bool) -> None:
        hand: MessageRecord | None = None
        hand_game = None
        while not self.stop:
            latest = self._latest(host)
            if latest is None:
                await self._try(self.d.slash(host, "batak new", {"deals": 1}, wait="response"))
                await asyncio.sleep(0.5)
                continue
            game, status, message_id = latest
            if status == "lobby" and message_id is not None:
                msg = self.d.message(message_id)
                if any(c.endswith(":start") for c in _ids(msg)):
                    await self._try(self.d.click(host, msg, f"bx:{game}:start", wait="response"))
                await asyncio.sleep(0.3)
            elif status == "playing" and active and message_id is not None:
                if hand is None or hand_game != game:
                    msg = self.d.message(message_id)
                    if f"bx:{game}:show" not in _ids(msg):
                        await asyncio.sleep(0.2)
                        continue
                    rec = await self._try(
                        self.d.click(host, msg, f"bx:{game}:show", wait="response")
                    )
                    if rec is not None and rec.response is not None:
                        hand, hand_game = rec.response, game
                    continue
                await self._play(host, game, hand)
            elif status == "finished" and self.rematches:
                result = self._result(game, message_id)
                if result is not None:
                    await self._try(
                        self.d.click(host, result, f"bx:{game}:rematch", wait="response")
                    )
                await asyncio.sleep(0.3)
            else:
                await asyncio.sleep(0.3)

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
        if rec is None or not rec.responses:
            return
        _, _, _, move, code = pick.split(":")
        if not _acknowledged(rec.responses, int(move), code):
            return
        self.acked[(game, int(move) + 1)] = code
        self.report.acknowledged += 1

    # ------------------------------------------------------------------ the killer
    async def killer(self, kills: int) -> None:
        for k in range(kills):
            at_match_end = k % 3 == 2
            if at_match_end:
                before = len(_query(self.bot, "SELECT id FROM matches"))
                deadline = time.monotonic() + 90
                while time.monotonic() < deadline:
                    if len(_query(self.bot, "SELECT id FROM matches")) > before:
                        break
                    await asyncio.sleep(0.005)
                else:
                    at_match_end = False
            else:
                await asyncio.sleep(self.rng.uniform(0.5, 4.0))
            await self.bot.kill()
            self.report.kills += 1
            self.report.kills_at_match_end += int(at_match_end)
            await asyncio.sleep(self.rng.uniform(0.0, 0.5))
            await self.bot.start()

    # ------------------------------------------------------------------ the checks
    async def settle(self, timeout: float) -> None:
        """Stop rematches; wait until no table plays and nothing is pending."""
        self.rematches = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            busy = _query(
                self.bot, "SELECT count(*) FROM games WHERE kind = 'table' AND status = 'playing'"
            )
            pending = _query(
                self.bot, "SELECT count(*) FROM announcements WHERE announced_at IS NULL"
            )
            if busy and pending and busy[0][0] == 0 and pending[0][0] == 0:
                await asyncio.sleep(2.0)  # the last edits
                return
            await asyncio.sleep(0.5)

    def check(self) -> None:
        r = self.report
        games = _query(
            self.bot,
            "SELECT id, status, channel_id, thread_id, table_message_id FROM games "
            "WHERE kind = 'table'",
        )
        for game, status, channel, thread, table_message in games:
            if status == "playing":
                r.stranded.append(f"table {game} still playing")
            if status != "finished":
                continue
            r.matches += 1
            n = _query(self.bot, "SELECT count(*) FROM matches WHERE game_id = ?", (game,))[0][0]
            if n != 1:
                r.duplicated.append(f"table {game}: {n} recorded matches")
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
        pending = _query(self.bot, "SELECT id, kind FROM announcements WHERE announced_at IS NULL")
        r.stranded.extend(f"announcement {a} ({k}) never posted" for a, k in pending)
        logged = {
            (g, m): a
            for g, m, a in _query(self.bot, "SELECT game_id, move, action FROM game_actions")
        }
        for (game, move), code in sorted(self.acked.items()):
            action = logged.get((game, move))
            if action is None or not _same(action, code):
                r.lost.append(f"table {game} move {move}: acknowledged {code}, log has {action}")


def _same(action: str, code: str) -> bool:
    """The log's text form ("bid 5", "pass", "play TH") is the button's code (b5, p, cTH)."""
    if code == "p":
        return action == "pass"
    if code[0] == "b":
        return action == f"bid {code[1:]}"
    if code[0] == "t":
        return action == f"trump {code[1:]}"
    return action == f"play {code[1:]}"


async def run(kills: int, seed: int = 1, *, settle: float = 120.0) -> Report:
    started = time.monotonic()
    rng = random.Random(seed)
    async with Driver() as d:
        alice, hosts = d.create_user("alice"), [d.create_user(n) for n in ("hana", "ivo")]
        guild = d.create_guild("Chaos", members=[alice, *hosts])
        env = {"DEV_GUILD_ID": str(guild.id)} | ENV
        async with running_bot(d, env=env) as bot:
            chaos = Chaos(d, bot, rng)
            people = [
                asyncio.create_task(chaos.person(alice, True)),
                *(asyncio.create_task(chaos.person(h, False)) for h in hosts),
            ]
            try:
                await chaos.killer(kills)
                await chaos.settle(settle)
            finally:
                chaos.stop = True
                for task in people:
                    task.cancel()
                for task in people:
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
            chaos.check()
            chaos.report.seconds = time.monotonic() - started
            if "Traceback" in bot.all_output():
                chaos.report.stranded.append("a traceback in the bot's log")
            return chaos.report


def main() -> int:
    parser = argparse.ArgumentParser(description="SIGKILL the bot at random moments")
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    report = asyncio.run(run(args.kills, args.seed))
    print(report)
    return 0 if report.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
