"""One default database path: the bot's configuration and ``python -m data`` agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.config import load_config
from data import DEFAULT_PATH, default_path

PACKAGE = Path(__file__).resolve().parents[2] / "data"


def test_default_is_in_the_data_package_whatever_the_working_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.chdir(tmp_path)
    assert DEFAULT_PATH == PACKAGE / "batak.sqlite3" and DEFAULT_PATH.is_absolute()
    assert default_path() == DEFAULT_PATH
    assert Path(load_config({"DISCORD_TOKEN": "t"}).database_path) == default_path()


def test_both_follow_database_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", str(target))
    cfg = load_config({"DISCORD_TOKEN": "t", "DATABASE_PATH": str(target)})
    assert Path(cfg.database_path) == default_path() == target
