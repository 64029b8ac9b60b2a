"""The first run: `make run` without a token, and a Discord that cannot be reached."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from aiohttp.client_reqrep import ConnectionKey

from bot import connection_problem

ROOT = Path(__file__).resolve().parents[2]
FAKE_DISCORD = ROOT / "tests" / "fakediscord"  # its sitecustomize points discord.py elsewhere


def clean_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "BATAK_", "MAKE", "MFLAGS")) and k != "DATABASE_PATH"
    }
    return env | extra


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_without_a_token_explains_and_stops_cleanly(tmp_path: Path) -> None:
    # DISCORD_TOKEN set but empty: a developer's .env cannot fill it in (dotenv does not
    # override), and -o keeps make from reinstalling the virtual environment.
    proc = subprocess.run(
        ["make", "--no-print-directory", "-o", ".venv/.installed", "run", f"PY={sys.executable}"],
        cwd=ROOT,
        env=clean_env(DISCORD_TOKEN="", DATABASE_PATH=str(tmp_path / "db.sqlite3")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "developers/applications" in proc.stderr
    assert "***" not in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_unreachable_discord_is_one_line_and_a_failure(tmp_path: Path) -> None:
    with socket.socket() as closed:  # bound, never listening: connections are refused
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, str(ROOT / "bot.py")],
            cwd=tmp_path,
            env=clean_env(
                BATAK_FAKE_DISCORD=f"http://127.0.0.1:{port}",
                PYTHONPATH=os.pathsep.join([str(FAKE_DISCORD), str(ROOT)]),
                DISCORD_TOKEN="not-a-real-token",
                DATABASE_PATH=str(tmp_path / "db.sqlite3"),
                LOG_LEVEL="WARNING",
                DEV_GUILD_ID="",
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines == [
        f"Cannot reach Discord: 127.0.0.1:{port} refused the connection "
        "(a proxy or firewall in the way?)."
    ]


def key(host: str, port: int) -> ConnectionKey:
    return ConnectionKey(host, port, True, True, None, None, None, None)


def test_connection_problems_say_what_to_check() -> None:
    dns = aiohttp.ClientConnectorDNSError(
        key("discord.com", 443), socket.gaierror(-2, "Name or service not known")
    )
    assert connection_problem(dns) == (
        "the name discord.com was not found (no internet connection, or no DNS)"
    )
    unreachable = aiohttp.ClientConnectorError(
        key("discord.com", 443), OSError(101, "Network is unreachable")
    )
    assert connection_problem(unreachable) == (
        "discord.com:443: Network is unreachable (check the internet connection)"
    )
