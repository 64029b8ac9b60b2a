"""A database path no database can be written at stops ``bot.py`` with one line and
its own exit status (``data.location``), never a traceback.

``bot.py`` runs as a subprocess with ``DATABASE_PATH`` at: a folder, a path under a
regular file, a folder without write permission (skipped as root, where modes do not
stop writes) and a read-only file system (a read-only tmpfs mounted in a private mount
namespace with ``unshare``; skipped where that is not allowed). A missing folder is
created, as on a first start.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from data import (
    EXIT_DATABASE_PATH,
    EXIT_DATABASE_READ_ONLY,
    DatabaseLocationError,
    Store,
)
from data.location import check_location

ROOT = Path(__file__).resolve().parents[2]


def env_for(path: str | Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "DATABASE_", "BACKUP_"))
    }
    return env | {"DISCORD_TOKEN": "not-a-token", "DATABASE_PATH": str(path)}


def run_bot(path: str | Path, cwd: Path, prefix: tuple[str, ...] = ()) -> tuple[int, str]:
    proc = subprocess.run(
        [*prefix, sys.executable, str(ROOT / "bot.py")],
        cwd=cwd,  # no .env here
        env=env_for(path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, proc.stderr


def assert_one_line(stderr: str, *words: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert "DATABASE_PATH" in lines[0] or "mount it" in lines[0]


def test_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    code, err = run_bot(folder, tmp_path)
    assert code == EXIT_DATABASE_PATH == 73
    assert_one_line(err, str(folder), "is a folder", str(folder / "batak.sqlite3"))
    assert list(folder.iterdir()) == []  # nothing written


def test_under_a_regular_file(tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("keep me")
    path = blocker / "sub" / "batak.sqlite3"
    code, err = run_bot(path, tmp_path)
    assert code == EXIT_DATABASE_PATH
    assert_one_line(err, str(path), f"{blocker} is a file, not a folder")
    assert blocker.read_text() == "keep me"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through 0o555; see the tmpfs test")
def test_a_folder_without_write_permission(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        code, err = run_bot(folder / "batak.sqlite3", tmp_path)
    finally:
        folder.chmod(0o755)
    assert code == EXIT_DATABASE_READ_ONLY == 77
    assert_one_line(err, str(folder), "permission denied")


def private_read_only_mount() -> tuple[str, ...] | None:
    """A command prefix that runs the rest in a private mount namespace, or None."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    for flags in ("-m", "-rm"):  # root; else a user namespace
        probe = subprocess.run(
            [unshare, flags, "sh", "-c", "mount -t tmpfs -o ro tmpfs /mnt"],
            capture_output=True,
            timeout=30,
        )
        if probe.returncode == 0:
            return (unshare, flags)
    return None


def test_a_read_only_file_system(tmp_path: Path) -> None:
    prefix = private_read_only_mount()
    if prefix is None:
        pytest.skip("no private mount namespace here (unshare -m refused)")
    mnt = tmp_path / "ro"
    mnt.mkdir()
    script = (
        f"mount -t tmpfs -o ro tmpfs {mnt} && "
        f'exec "$@"'  # the bot, inside the namespace that sees the read-only mount
    )
    cases = [(mnt / "batak.sqlite3", f"its folder {mnt} cannot be written")]
    cases.append((mnt / "new" / "batak.sqlite3", "does not exist and cannot be made"))
    for path, words in cases:
        code, err = run_bot(path, tmp_path, (*prefix, "sh", "-c", script, "sh"))
        assert code == EXIT_DATABASE_READ_ONLY
        assert_one_line(err, str(path), words, "read-only file system")


async def test_a_missing_folder_is_made(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "batak.sqlite3"
    store = await Store.open(path, housekeeping=None)
    await store.close()
    assert path.is_file()


def test_check_location_unit(tmp_path: Path) -> None:
    check_location(str(tmp_path / "fine.sqlite3"))  # a new file in a writable folder
    with pytest.raises(DatabaseLocationError) as err:
        check_location(str(tmp_path))
    assert err.value.exit_code == EXIT_DATABASE_PATH and err.value.path == str(tmp_path)
    if Path("/dev/null").exists():
        with pytest.raises(DatabaseLocationError, match="not a regular file"):
            check_location("/dev/null")
