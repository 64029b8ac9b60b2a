"""``python -m data backup``: a consistent, self-contained copy while the bot writes."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from data import BackupSchedule, Store, StoreError
from data.__main__ import main as data_main
from data.backup import backup_database, scheduled_copies

# the SQLite backup API; PostgreSQL is backed up with pg_dump
pytestmark = pytest.mark.sqlite_only

ROOT = Path(__file__).resolve().parents[2]

# Appends actions forever (as the bot does: one transaction each), printing each move
# number once it is committed.
WRITER = r"""
import asyncio, sys
from data import Store

async def main(path, game_id):
    store = await Store.open(path, housekeeping=None)
    move = (await store.games.get_game(game_id)).move
    while True:
        move = await store.games.append_action(
            game_id, move, f"act {move + 1}", seat=move % 4, phase=f"phase {move + 1}",
            to_act=(move + 1) % 4, snapshot={"move": move + 1, "pad": "x" * 2000},
        )
        print(move, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def _filled(path: Path) -> int:
    store = await Store.open(path, housekeeping=None)
    for i in range(300):  # some bulk, so that the copy takes a while
        g = await store.games.create_game(1, 2, 10_000 + i, {"pad": "z" * 3000})
        await store.games.cancel_game(g.id)
    game_id = (await store.games.create_game(1, 2, 3, {"seed": 1})).id
    await store.close()
    return game_id


async def test_backup_while_another_process_writes(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite3"
    game_id = await _filled(path)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(game_id)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None

    def acked_until(n: int) -> int:
        line = ""
        while not line or int(line) < n:
            line = writer.stdout.readline() if writer.stdout else ""
            assert line, writer.stderr.read() if writer.stderr else "writer died"
        return int(line)

    try:
        before = acked_until(30)
        copies = []
        for k in range(3):  # several copies while the writer keeps committing
            dest = tmp_path / f"backup-{k}.sqlite3"
            done = await asyncio.to_thread(backup_database, path, dest)
            assert done.dest == str(dest) and done.size_bytes == dest.stat().st_size
            copies.append(dest)
            after = acked_until(before + 10)  # the writer was never stopped by the copy
            before = after
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.communicate()

    moves = []
    for dest in copies:
        assert not Path(f"{dest}-wal").exists()  # one self-contained file
        with sqlite3.connect(dest) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        store = await Store.open(dest, housekeeping=None)  # passes the damage checks
        try:
            game = await store.games.load_game(game_id)  # raises if the row and the log disagree
        finally:
            await store.close()
        n = game.move
        assert n >= 30 and game.actions == tuple(f"act {i}" for i in range(1, n + 1))
        assert game.phase == f"phase {n}" and game.snapshot["move"] == n == game.snapshot_move
        moves.append(n)
    assert moves == sorted(moves) and moves[-1] > moves[0]  # each copy is a later state


async def test_cli_backup_of_the_default_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "db" / "batak.sqlite3"
    path.parent.mkdir()
    game_id = await _filled(path)
    monkeypatch.setenv("DATABASE_PATH", str(path))
    dest = tmp_path / "backups" / "2026-12-01.sqlite3"
    assert await asyncio.to_thread(data_main, ["backup", str(dest)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"backed up {path} ") and "quick_check ok" in out
    store = await Store.open(dest, housekeeping=None)
    assert (await store.games.get_game(game_id)).settings == {"seed": 1}
    await store.close()
    # never over an existing file
    assert await asyncio.to_thread(data_main, ["backup", str(dest)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert not list(dest.parent.glob("*.partial"))


def test_postgres_backup_points_at_pg_dump(capsys: pytest.CaptureFixture[str]) -> None:
    assert data_main(["backup", "/tmp/never-written", "postgresql://u@127.0.0.1:1/db"]) == 1
    err = capsys.readouterr().err
    assert "pg_dump" in err and len(err.strip().splitlines()) == 1
    assert not Path("/tmp/never-written").exists()


def test_nothing_to_back_up(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no database"):
        backup_database(tmp_path / "missing.sqlite3", tmp_path / "b.sqlite3")
    assert not (tmp_path / "b.sqlite3").exists()


async def test_scheduled_backups_while_a_game_is_played(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``BACKUP_DIR``: the store copies itself every so often while moves keep being
    committed; each copy opens, passes the damage checks and holds the moves made
    before it; only the newest ``keep`` copies stay."""
    caplog.set_level("INFO", logger="batak.data")
    path = tmp_path / "live.sqlite3"
    game_id = await _filled(path)
    folder = tmp_path / "backups"
    schedule = BackupSchedule(str(folder), every_s=0.05, keep=3, first_after_s=0)
    store = await Store.open(path, housekeeping=None, backups=schedule)
    acked_before: list[int] = []  # moves committed when each copy was first seen
    move = 0
    try:
        while store.maintenance.backups_made < 6:
            move = await store.games.append_action(
                game_id,
                move,
                f"act {move + 1}",
                seat=move % 4,
                phase=f"phase {move + 1}",
                to_act=(move + 1) % 4,
                snapshot={"move": move + 1, "pad": "x" * 2000},
            )
            if len(acked_before) < store.maintenance.backups_made:
                acked_before.append(move)
            await asyncio.sleep(0)
            assert move < 20_000, "the backups never ran"
    finally:
        await store.close()
    assert store.maintenance.backups_made >= 6 and move > 30

    copies = scheduled_copies(str(path), folder)
    assert len(copies) == 3 and len(list(folder.iterdir())) == 3  # the oldest deleted
    moves = []
    for dest in copies:
        copy = await Store.open(dest, housekeeping=None)
        try:
            game = await copy.games.load_game(game_id)
        finally:
            await copy.close()
        n = game.move
        assert game.actions == tuple(f"act {i}" for i in range(1, n + 1))
        assert game.snapshot["move"] == n == game.snapshot_move
        moves.append(n)
    assert moves == sorted(moves) and 0 < moves[-1] <= move
    assert moves[-1] >= acked_before[2]  # the newest copy has what was played before it
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("backup: ")]
    assert len(lines) == store.maintenance.backups_made
    assert f"{path} -> {folder}" in lines[-1] and "old cop" in lines[-1]


async def test_a_failed_scheduled_backup_is_one_line_and_play_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "live.sqlite3"
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the backups should go")
    schedule = BackupSchedule(str(blocker), every_s=0.02, keep=2, first_after_s=0)
    store = await Store.open(path, housekeeping=None, backups=schedule)
    try:
        game = await store.games.create_game(1, 2, 3, {"seed": 1})
        while len([r for r in caplog.records if "backup of" in r.getMessage()]) < 2:
            await asyncio.sleep(0.02)
        assert (
            await store.games.append_action(game.id, 0, "bid 5", seat=0, phase="auction", to_act=1)
            == 1
        )
    finally:
        await store.close()
    failed = [r for r in caplog.records if "backup of" in r.getMessage()]
    assert all(r.levelname == "ERROR" and r.exc_info is None for r in failed)
    assert "\n" not in failed[0].getMessage() and str(blocker) in failed[0].getMessage()
    assert blocker.read_text() == "a file where the backups should go"


def test_backup_schedule_is_checked() -> None:
    with pytest.raises(ValueError):
        BackupSchedule("b", every_s=0)
    with pytest.raises(ValueError):
        BackupSchedule("b", keep=0)
