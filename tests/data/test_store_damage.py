"""A damaged database is refused at open with one line, before anything is written:
a zeroed header, a text file, a truncated file, a damaged page of games, a damaged
index that would hide open tables. ``bot.py`` and ``python -m data`` exit with
``EXIT_DATABASE_DAMAGED`` and that line, no traceback."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from data import EXIT_DATABASE_DAMAGED, DatabaseDamagedError, Store
from data.__main__ import main as data_main
from tests.fakediscord.driver import Driver
from tests.fakediscord.fixtures import BOT_SCRIPT, REPO_ROOT, BotProcess, bot_env

# damaged pages and headers of an SQLite file
pytestmark = pytest.mark.sqlite_only

PAGE = 4096
GAMES = 120


async def healthy(path: Path) -> None:
    """A closed database (WAL folded back into the file) holding GAMES open tables."""
    store = await Store.open(path, housekeeping=None)
    for i in range(GAMES):
        g = await store.games.create_game(
            1, 2, 1000 + i, {"mark": f"MARK-{i:04d}", "pad": "x" * 200}
        )
        await store.games.append_action(g.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
    await store.close()
    assert not Path(f"{path}-wal").exists()


def zero_header(b: bytearray) -> None:
    b[:100] = bytes(100)


def text_file(b: bytearray) -> None:
    b[:] = b"these are my notes, not a database\n" * 40


def truncated(b: bytearray) -> None:
    del b[len(b) // 2 :]


def damaged_games_page(b: bytearray) -> None:
    """Garbage over the cells of the page that holds one of the games rows."""
    at = b.find(b"MARK-0060")
    assert at > 0
    start = at - at % PAGE
    b[start + 8 : start + PAGE] = bytes((i * 37 + 11) % 256 for i in range(PAGE - 8))


def hidden_open_table(b: bytearray) -> None:
    """One entry of the index of a server's tables now names another row: the page stays
    well formed (quick_check passes), but the server's open tables read through it miss
    game 50."""
    # games_guild record (1, "lobby", rowid 50); 1 is serial type 9, stored in the header
    entry = b"\x04\x09\x17\x01lobby" + bytes([50])
    at = b.find(entry)
    assert at > 0 and b.find(entry, at + 1) < 0
    b[at + len(entry) - 1] = 51


DAMAGE: dict[str, tuple[Callable[[bytearray], None], str]] = {
    "zeroed header": (zero_header, "header is zeroed"),
    "text file": (text_file, "not an SQLite database"),
    "truncated": (truncated, "truncated"),
    "damaged games page": (damaged_games_page, "quick_check"),
    "damaged open-tables index": (hidden_open_table, "integrity_check of games"),
}


async def damaged(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "batak.sqlite3"
    await healthy(path)
    b = bytearray(path.read_bytes())
    DAMAGE[kind][0](b)
    path.write_bytes(bytes(b))
    return path


@pytest.mark.parametrize("kind", list(DAMAGE))
async def test_damaged_file_is_refused_untouched(tmp_path: Path, kind: str) -> None:
    path = await damaged(tmp_path, kind)
    before = path.read_bytes()
    with pytest.raises(DatabaseDamagedError) as err:
        await Store.open(path)
    msg = str(err.value)
    assert "\n" not in msg and str(path) in msg and DAMAGE[kind][1] in msg
    assert "backup" in msg and "-wal" in msg
    assert err.value.path == str(path)
    assert path.read_bytes() == before  # nothing was written to the damaged file
    assert not Path(f"{path}-wal").exists()


async def test_the_index_damage_really_hides_a_table(tmp_path: Path) -> None:
    """Why integrity_check on the games tables: quick_check alone passes this file,
    and the query for a server's open tables silently loses one."""
    path = await damaged(tmp_path, "damaged open-tables index")
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    unchecked = await Store.open(path, housekeeping=None, check=False)
    try:
        ids = {g.id for g in await unchecked.games.list_games(guild_id=1, limit=1000)}
    finally:
        await unchecked.close()
    assert 50 not in ids and len(ids) == GAMES - 1


async def test_healthy_file_opens_with_the_checks(tmp_path: Path) -> None:
    path = tmp_path / "batak.sqlite3"
    await healthy(path)
    store = await Store.open(path, housekeeping=None)
    try:
        assert len(await store.games.open_games()) == GAMES
    finally:
        await store.close()


async def test_a_live_wal_is_not_mistaken_for_truncation(tmp_path: Path) -> None:
    """While the bot runs, the main file lags behind its WAL; a second opener is fine."""
    path = tmp_path / "live.sqlite3"
    bot = await Store.open(path, housekeeping=None)
    try:
        for i in range(GAMES):
            await bot.games.create_game(1, 2, 1000 + i, {"pad": "y" * 500})
        assert Path(f"{path}-wal").stat().st_size > 0
        other = await Store.open(path, housekeeping=None)
        assert len(await other.games.open_games()) == GAMES
        await other.close()
    finally:
        await bot.close()


@pytest.mark.parametrize("kind", ["zeroed header", "truncated", "damaged games page"])
async def test_cli_reports_one_line_and_the_exit_code(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = await damaged(tmp_path, kind)
    for argv in (["info", str(path)], ["migrate", str(path)]):
        assert await asyncio.to_thread(data_main, argv) == EXIT_DATABASE_DAMAGED
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and err.startswith(f"error: {path} is damaged")
    dest = tmp_path / "copy.sqlite3"
    assert await asyncio.to_thread(data_main, ["backup", str(dest), str(path)]) == (
        EXIT_DATABASE_DAMAGED
    )
    assert capsys.readouterr().err.count("\n") == 1
    assert not dest.exists() and not list(tmp_path.glob("copy*"))


async def test_bot_exits_with_one_line(tmp_path: Path) -> None:
    async with Driver() as d:
        workdir = tmp_path / "bot"
        workdir.mkdir()
        env = bot_env(d, workdir)
        await damaged(workdir, "damaged games page")
        env["DATABASE_PATH"] = str(workdir / "batak.sqlite3")
        bot = BotProcess(
            d,
            script=BOT_SCRIPT,
            env=env,
            cwd=REPO_ROOT,
            workdir=workdir,
            python=sys.executable,
            expect_commands=False,
            ready_grace=0,
            ready_line=None,
            timeout=60,
        )
        await bot.start(wait=False)
        assert bot.proc is not None
        rc = await asyncio.wait_for(bot.proc.wait(), 60)
        bot._closed()
        out = bot.output()
        assert rc == EXIT_DATABASE_DAMAGED, out
        assert "Traceback" not in out
        lines = [ln for ln in out.splitlines() if "is damaged" in ln]
        assert len(lines) == 1 and lines[0].startswith(f"{workdir / 'batak.sqlite3'} is damaged")
