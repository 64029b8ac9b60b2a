"""Durability and concurrency: a writer killed mid-stream, writers racing."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from data import StaleMoveError, Store

ROOT = Path(__file__).resolve().parents[2]

# Appends actions forever, printing each move number once it is committed.
APPENDER = r"""
import asyncio, sys
from data import Store

async def main(path, game_id):
    store = await Store.open(path)
    move = (await store.games.get_game(game_id)).move
    while True:
        move = await store.games.append_action(
            game_id, move, f"act {move + 1}", seat=move % 4, phase=f"phase {move + 1}",
            to_act=(move + 1) % 4, snapshot={"move": move + 1, "pad": "x" * 3000},
        )
        print(move, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""

# Appends N actions to a shared game, retrying when the other writer got there first.
RACER = r"""
import asyncio, sys
from data import Store, StaleMoveError

async def main(path, game_id, tag, n):
    store = await Store.open(path, busy_timeout_ms=10000)
    done = stale = 0
    while done < n:
        move = (await store.games.get_game(game_id)).move
        try:
            await store.games.append_action(
                game_id, move, f"{tag} {done}", seat=0, phase="p", to_act=1
            )
            done += 1
        except StaleMoveError:
            stale += 1
    await store.close()
    print(stale, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])))
"""


def _spawn(code: str, *args: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *map(str, args)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def _check_consistent(path: str, game_id: int) -> int:
    store = await Store.open(path)
    try:
        assert await store.maintenance.integrity_check() == "ok"
        game = await store.games.load_game(game_id)
        n = game.move
        assert game.actions == tuple(f"act {i}" for i in range(1, n + 1))
        if n:
            # the table row and its snapshot belong to the same, last committed action
            assert game.phase == f"phase {n}" and game.to_act == n % 4
            assert game.snapshot["move"] == n and game.snapshot_move == n
        return n
    finally:
        await store.close()


async def test_killed_writer_loses_nothing_committed(db_url: str) -> None:
    path = db_url
    store = await Store.open(path)
    game_id = (await store.games.create_game(1, 2, 3, {"seed": 1})).id
    await store.close()

    rng = random.Random(2026)
    acked = 0
    for _ in range(3):
        proc = _spawn(APPENDER, path, game_id)
        assert proc.stdout is not None
        target = acked + rng.randint(20, 80)
        while acked < target:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else "writer died"
            acked = int(line)
        time.sleep(rng.random() * 0.01)  # let it get into the middle of later commits
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        proc.stdout.close()
        if proc.stderr:
            proc.stderr.close()
        n = await _check_consistent(path, game_id)
        assert n >= acked  # every acknowledged action survived
        assert n <= acked + 50  # sanity: it did not invent actions
        acked = n


async def test_two_processes_writing_one_game(db_url: str) -> None:
    path = db_url
    store = await Store.open(path)
    game_id = (await store.games.create_game(1, 2, 3, {})).id
    await store.close()
    n = 60
    procs = [_spawn(RACER, path, game_id, tag, n) for tag in ("A", "B")]
    for p in procs:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
    store = await Store.open(path)
    try:
        game = await store.games.load_game(game_id)
        assert game.move == 2 * n == len(game.actions)
        for tag in ("A", "B"):
            assert [a for a in game.actions if a.startswith(tag)] == [
                f"{tag} {i}" for i in range(n)
            ]
        log = await store.games.action_log(game_id)
        assert [e.move for e in log] == list(range(1, 2 * n + 1))
    finally:
        await store.close()


async def test_double_click_across_two_connections(db_url: str) -> None:
    path = db_url
    a = await Store.open(path)
    b = await Store.open(path)
    try:
        g = await a.games.create_game(1, 2, 3, {})
        for move in range(10):
            res = await asyncio.gather(
                a.games.append_action(g.id, move, f"a{move}", seat=0, phase="p", to_act=1),
                b.games.append_action(g.id, move, f"b{move}", seat=0, phase="p", to_act=1),
                return_exceptions=True,
            )
            assert sorted(map(type, res), key=str) == sorted([int, StaleMoveError], key=str)
        loaded = await b.games.load_game(g.id)
        assert loaded.move == 10 and len(loaded.actions) == 10
    finally:
        await a.close()
        await b.close()


async def test_reader_never_sees_half_an_action(db_url: str) -> None:
    """While one connection appends, another keeps loading: row and log always agree."""
    path = db_url
    w = await Store.open(path)
    r = await Store.open(path)
    try:
        g = await w.games.create_game(1, 2, 3, {})

        async def write() -> None:
            for move in range(150):
                await w.games.append_action(
                    g.id, move, f"act {move + 1}", seat=0, phase="p", to_act=1
                )

        async def read() -> int:
            seen = 0
            while seen < 150:
                game = await r.games.load_game(g.id)  # raises if row and log disagree
                assert len(game.actions) == game.move >= seen
                seen = game.move
            return seen

        _, seen = await asyncio.gather(write(), read())
        assert seen == 150
    finally:
        await w.close()
        await r.close()


@pytest.mark.sqlite_only
def test_wal_files_recover_with_plain_sqlite(tmp_path: Path) -> None:
    """A database copied while the WAL exists is still readable by any SQLite."""
    path = tmp_path / "plain.sqlite3"

    async def fill() -> None:
        s = await Store.open(path)
        g = await s.games.create_game(1, 2, 3, {})
        await s.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
        await s.close()

    asyncio.run(fill())
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT action FROM game_actions").fetchall() == [("bid 5",)]


async def test_kill_right_after_the_first_commit(db_url: str) -> None:
    """Killed just after its first acknowledged action: that action is there."""
    path = db_url
    store = await Store.open(path)
    game_id = (await store.games.create_game(1, 2, 3, {})).id
    await store.close()
    proc = _spawn(APPENDER, path, game_id)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "1"
    proc.kill()
    proc.communicate()
    assert await _check_consistent(path, game_id) >= 1


# Plays a real match (random legal moves from a seed) through the store, as the bot does:
# apply to the engine, commit, then acknowledge.
ENGINE_PLAYER = r"""
import asyncio, random, sys
from batak import Match, Rules, format_action, parse_action
from data import Store

async def main(path, game_id):
    store = await Store.open(path)
    game = await store.games.load_game(game_id)
    s = game.settings
    m = Match.replay(Rules.from_dict(s["rules"]), s["seed"],
                     [parse_action(a) for a in game.actions], s["first_dealer"])
    rng = random.Random(s["seed"])
    for _ in range(m.move_number):
        rng.random()
    while not m.is_over:
        seat = m.to_act
        legal = m.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        m.apply(action)
        await store.games.append_action(game_id, m.move_number - 1, format_action(action),
                                        seat=seat, phase=m.deal.phase.value, to_act=m.to_act,
                                        snapshot={"totals": m.totals})
        print(m.move_number, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def test_killed_bot_restores_the_exact_engine_state(db_url: str) -> None:
    from batak import Match, Rules, format_action, parse_action, preset

    path = db_url
    rules = preset("standard", deals=3)
    settings = {"rules": rules.to_dict(), "seed": 31337, "first_dealer": 3}
    store = await Store.open(path)
    game_id = (await store.games.create_game(1, 2, 3, settings)).id
    await store.close()

    # the reference: the same choices, made in this process
    ref = Match(rules, 31337, first_dealer=3)
    rng = random.Random(31337)
    while not ref.is_over:
        legal = ref.legal_actions()
        ref.apply(legal[int(rng.random() * len(legal))])
    all_actions = [format_action(a) for a in ref.actions]

    acked = 0
    for stop in (40, 130):  # kill it twice, restarting from the store each time
        proc = _spawn(ENGINE_PLAYER, path, game_id)
        assert proc.stdout is not None
        while acked < stop:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else "player died"
            acked = int(line)
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate()

        store = await Store.open(path)
        game = await store.games.load_game(game_id)
        await store.close()
        n = game.move
        assert n >= acked and list(game.actions) == all_actions[:n]
        restored = Match.replay(
            Rules.from_dict(game.settings["rules"]),
            game.settings["seed"],
            [parse_action(a) for a in game.actions],
            game.settings["first_dealer"],
        )
        expected = Match.replay(rules, 31337, ref.actions[:n], first_dealer=3)
        assert restored.actions == expected.actions
        assert restored.totals == expected.totals == game.snapshot["totals"]
        assert [d.to_record() for d in restored.finished] == [
            d.to_record() for d in expected.finished
        ]
        for seat in range(4):
            assert restored.observation(seat) == expected.observation(seat)
        assert game.to_act == restored.to_act and game.phase == restored.deal.phase.value
        acked = n
