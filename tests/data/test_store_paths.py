"""One default database path: the bot's configuration and ``python -m data`` agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.config import ConfigError, load_config
from data import DEFAULT_PATH, default_path, default_url, sqlite_path

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


def test_database_url_wins_over_database_path(monkeypatch: pytest.MonkeyPatch) -> None:
    url = "postgresql://batak:secret@db.example:5432/batak"
    monkeypatch.setenv("DATABASE_PATH", "/tmp/old.sqlite3")
    monkeypatch.setenv("DATABASE_URL", url)
    assert default_url() == url
    env = {"DISCORD_TOKEN": "t", "DATABASE_PATH": "/tmp/old.sqlite3", "DATABASE_URL": url}
    assert load_config(env).database_path == url
    monkeypatch.delenv("DATABASE_URL")
    assert default_url() == "/tmp/old.sqlite3"


def test_sqlite_urls() -> None:
    assert sqlite_path("sqlite:///batak.sqlite3") == "batak.sqlite3"  # relative
    assert sqlite_path("sqlite:////var/lib/batak/db.sqlite3") == "/var/lib/batak/db.sqlite3"
    assert sqlite_path("/plain/path.sqlite3") == "/plain/path.sqlite3"
    cfg = load_config({"DISCORD_TOKEN": "t", "DATABASE_URL": "sqlite:////srv/b.sqlite3"})
    assert cfg.database_path == "/srv/b.sqlite3"
    for bad in ("sqlite://", "sqlite://host/x", "mysql://u@h/db"):
        with pytest.raises(ValueError, match="sqlite:///PATH"):
            sqlite_path(bad)
        with pytest.raises(ConfigError, match="DATABASE_URL"):
            load_config({"DISCORD_TOKEN": "t", "DATABASE_URL": bad})
