"""A damaged write-ahead log is refused at open, not swallowed (issue #30).

A real journal: a bot-like process appends moves (one transaction each) and is
SIGKILLed, leaving the database and its ``-wal`` as a crash does. 64 KB overwritten in
the middle of that log made SQLite drop every later transaction in silence; now the
store refuses with one line and leaves both files byte for byte as they were. A clean
log, one with an earlier generation's leftover frames and one whose last frame was
torn by the crash open as before (see ``data.wal`` for what can and cannot be told).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from data import EXIT_DATABASE_DAMAGED, DatabaseDamagedError, Store, wal
from data.__main__ import main as data_main

pytestmark = pytest.mark.sqlite_only

ROOT = Path(__file__).resolve().parents[2]
DAMAGE = 64 * 1024

# Creates a table and appends MOVES moves, one transaction each as the bot does,
# with EXTRA bulky cancelled tables first (to push the log past a checkpoint and
# restart it); prints the game id, then waits to be killed with its log unfolded.
WRITER = r"""
import asyncio, sys
from data import Store

async def main(path, moves, extra):
    store = await Store.open(path, housekeeping=None)
    for i in range(extra):
        g = await store.games.create_game(1, 2, 50_000 + i, {"pad": "q" * 3000})
        await store.games.cancel_game(g.id)
    game = await store.games.create_game(1, 2, 3, {"seed": 7})
    move = 0
    for _ in range(moves):
        move = await store.games.append_action(
            game.id, move, f"act {move + 1}", seat=move % 4, phase=f"phase {move + 1}",
            to_act=(move + 1) % 4, snapshot={"move": move + 1, "pad": "x" * 1500},
        )
    print(game.id, flush=True)
    await asyncio.sleep(3600)

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
"""


def crashed(path: Path, moves: int, extra: int = 0) -> int:
    """Run the writer on a new database at ``path`` and SIGKILL it once its moves are
    committed; the ``-wal`` stays as the crash left it. Returns the game id."""
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(moves), str(extra)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    os.kill(proc.pid, signal.SIGKILL)
    _, err = proc.communicate()
    assert line.strip().isdigit(), err
    assert Path(f"{path}-wal").stat().st_size > DAMAGE * 4
    return int(line)


def salts(data: bytes, page_size: int) -> list[tuple[int, int]]:
    size = wal.FRAME_HEADER_SIZE + page_size
    return [
        struct.unpack(">2I", data[at + 8 : at + 16])
        for at in range(wal.HEADER_SIZE, len(data) - size + 1, size)
    ]


def damage_middle(wal_path: Path) -> None:
    """64 KB of garbage in the middle of the log, as the issue's attack did."""
    b = bytearray(wal_path.read_bytes())
    start = len(b) // 2 - DAMAGE // 2
    b[start : start + DAMAGE] = bytes((i * 131 + 7) % 251 for i in range(DAMAGE))
    wal_path.write_bytes(bytes(b))


def files(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.is_file()}


async def moves_seen(path: Path, game_id: int, *, check: bool) -> int:
    store = await Store.open(path, housekeeping=None, check=check)
    try:
        return (await store.games.load_game(game_id)).move
    finally:
        await store.close()


async def test_damaged_journal_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "db" / "batak.sqlite3"
    path.parent.mkdir()
    game_id = await asyncio.to_thread(crashed, path, 150)
    wal_path = Path(f"{path}-wal")
    damage_middle(wal_path)
    before = files(path)
    assert {"batak.sqlite3", "batak.sqlite3-wal"} <= set(before)

    with pytest.raises(DatabaseDamagedError) as err:
        await Store.open(path, housekeeping=None)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith(f"{path} is damaged: its write-ahead log")
    assert str(wal_path) in msg and "silently drop" in msg and "backup" in msg
    assert files(path) == before  # both files byte for byte: nothing recovered, nothing cut

    # the CLI says the same line and exits with the damage code
    assert await asyncio.to_thread(data_main, ["info", str(path)]) == EXIT_DATABASE_DAMAGED
    assert files(path) == before

    # what the check prevents: on a copy, SQLite opens it and the moves are gone
    copy = tmp_path / "copy" / "batak.sqlite3"
    copy.parent.mkdir()
    shutil.copy(path, copy)
    shutil.copy(wal_path, f"{copy}-wal")
    assert await moves_seen(copy, game_id, check=False) < 150


async def test_clean_journal_after_a_crash_opens(tmp_path: Path) -> None:
    path = tmp_path / "batak.sqlite3"
    game_id = await asyncio.to_thread(crashed, path, 150)
    data = Path(f"{path}-wal").read_bytes()
    # the checksums as SQLite wrote them: the header's, and every frame's in a chain
    magic, *_, h1, h2 = struct.unpack(">8I", data[:32])
    assert wal.checksum(data[:24], 0, 0, magic == wal.MAGIC_BE) == (h1, h2)
    assert wal.scan(data) is None
    assert await moves_seen(path, game_id, check=True) == 150


async def test_leftover_frames_of_an_earlier_generation_open(tmp_path: Path) -> None:
    """After a checkpoint the log restarts from its beginning with new salts; the rest
    of the file still holds the older frames. They are not damage."""
    path = tmp_path / "batak.sqlite3"
    game_id = await asyncio.to_thread(crashed, path, 40, 400)
    data = Path(f"{path}-wal").read_bytes()
    page_size, _ = wal.frame_count(f"{path}-wal")
    header_salts = struct.unpack(">2I", data[16:24])
    found = salts(data, page_size)
    assert found[0] == header_salts and any(s != header_salts for s in found)
    assert wal.scan(data) is None
    assert await moves_seen(path, game_id, check=True) == 40


async def test_torn_last_frame_is_not_refused(tmp_path: Path) -> None:
    """A crash in the middle of writing a frame leaves it short or with a bad checksum
    at the end of the log: SQLite rightly ignores the unfinished transaction, and so
    does the check (it cannot be told from damage to the last frame)."""
    path = tmp_path / "batak.sqlite3"
    game_id = await asyncio.to_thread(crashed, path, 150)
    wal_path = Path(f"{path}-wal")
    b = bytearray(wal_path.read_bytes())
    page_size, n = wal.frame_count(wal_path)
    size = wal.FRAME_HEADER_SIZE + page_size
    # the last frame's page half overwritten, then cut off mid-page
    last = wal.HEADER_SIZE + (n - 1) * size
    b[last + 100 : last + 600] = bytes(500)
    del b[last + size // 2 :]
    wal_path.write_bytes(bytes(b))
    assert wal.scan(bytes(b)) is None
    assert await moves_seen(path, game_id, check=True) == 149  # the torn move is gone


async def test_damaged_header_is_refused(tmp_path: Path) -> None:
    """A zeroed log header: SQLite would ignore every frame behind it."""
    path = tmp_path / "batak.sqlite3"
    await asyncio.to_thread(crashed, path, 60)
    wal_path = Path(f"{path}-wal")
    b = bytearray(wal_path.read_bytes())
    b[: wal.HEADER_SIZE] = bytes(wal.HEADER_SIZE)
    wal_path.write_bytes(bytes(b))
    with pytest.raises(DatabaseDamagedError, match="damaged header"):
        await Store.open(path, housekeeping=None)
    assert wal_path.read_bytes() == bytes(b)
