"""Settings from the environment, and the start-up without a token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cogs.config import NO_TOKEN_MESSAGE, ConfigError, load_config
from data import DEFAULT_PATH, DEFAULT_POOL_SIZE, BackupSchedule

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_and_overrides() -> None:
    cfg = load_config({"DISCORD_TOKEN": "abc"})
    assert cfg.database_path == str(DEFAULT_PATH)
    assert cfg.dev_guild_id is None and cfg.log_level == "INFO"
    assert cfg.turn_timeout is None and cfg.max_timeouts == 2
    assert cfg.database_pool_size == DEFAULT_POOL_SIZE
    cfg = load_config(
        {
            "DISCORD_TOKEN": "abc",
            "DATABASE_PATH": "/tmp/x.db",
            "DEV_GUILD_ID": "123",
            "LOG_LEVEL": "debug",
            "BOT_DELAY_SECONDS": "0",
            "TURN_TIMEOUT_SECONDS": "30",
            "DATABASE_POOL_SIZE": "4",
        }
    )
    assert cfg.database_pool_size == 4
    assert cfg.database_path == "/tmp/x.db" and cfg.dev_guild_id == 123
    assert cfg.log_level == "DEBUG" and cfg.bot_delay == 0.0
    assert cfg.service_config().turn_timeout_override == 30.0


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "abc"),
        ("LOG_LEVEL", "LOUD"),
        ("BOT_DELAY_SECONDS", "-1"),
        ("MAX_TIMEOUTS", "0"),
        ("TABLE_EDIT_INTERVAL_SECONDS", "soon"),
        ("DATABASE_POOL_SIZE", "0"),
        ("DATABASE_POOL_SIZE", "ten"),
        ("SYNC_COMMANDS", "sometimes"),
    ],
)
def test_bad_values_name_the_setting(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_config({"DISCORD_TOKEN": "abc", name: value})


def test_missing_token_exits_at_once_with_instructions(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config({})
    assert str(err.value) == NO_TOKEN_MESSAGE
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,  # no .env here
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr and "developers/applications" in proc.stderr


def test_sync_commands_setting() -> None:
    assert load_config({"DISCORD_TOKEN": "abc"}).sync_commands == "auto"
    for raw, mode in [("always", "always"), (" NEVER ", "never"), ("Auto", "auto"), ("", "auto")]:
        assert load_config({"DISCORD_TOKEN": "abc", "SYNC_COMMANDS": raw}).sync_commands == mode
    with pytest.raises(ConfigError) as err:
        load_config({"DISCORD_TOKEN": "abc", "SYNC_COMMANDS": "1"})
    assert str(err.value) == "SYNC_COMMANDS must be auto, always or never, not '1'"


def test_backup_settings() -> None:
    assert load_config({"DISCORD_TOKEN": "abc"}).backups is None
    cfg = load_config({"DISCORD_TOKEN": "abc", "BACKUP_DIR": "/srv/copies"})
    assert cfg.backups == BackupSchedule("/srv/copies", every_s=3600.0, keep=24)
    for every, seconds in (("600", 600.0), ("30m", 1800.0), ("6h", 21600.0), ("1d", 86400.0)):
        env = {"DISCORD_TOKEN": "abc", "BACKUP_DIR": "b", "BACKUP_EVERY": every, "BACKUP_KEEP": "3"}
        backups = load_config(env).backups
        assert backups is not None and (backups.every_s, backups.keep) == (seconds, 3)
    for bad in ({"BACKUP_EVERY": "10"}, {"BACKUP_EVERY": "soon"}, {"BACKUP_KEEP": "0"}):
        with pytest.raises(ConfigError, match=next(iter(bad))):
            load_config({"DISCORD_TOKEN": "abc", "BACKUP_DIR": "b"} | bad)
    with pytest.raises(ConfigError, match="pg_dump"):
        load_config(
            {"DISCORD_TOKEN": "abc", "BACKUP_DIR": "b", "DATABASE_URL": "postgresql://u@h/db"}
        )


def test_the_check_needs_no_token() -> None:
    assert load_config({}, need_token=False).token == ""
    with pytest.raises(ConfigError, match="LOG_LEVEL"):  # the other settings still count
        load_config({"LOG_LEVEL": "LOUD"}, need_token=False)


def test_event_loop_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    import bot
    import cogs.config as config

    assert config.uvloop_installed()  # a dependency everywhere but Windows
    assert load_config({"DISCORD_TOKEN": "abc"}).event_loop == "uvloop"
    for raw, name in [("asyncio", "asyncio"), (" UVLOOP ", "uvloop"), ("", "uvloop")]:
        assert load_config({"DISCORD_TOKEN": "abc", "EVENT_LOOP": raw}).event_loop == name
    with pytest.raises(ConfigError) as err:
        load_config({"DISCORD_TOKEN": "abc", "EVENT_LOOP": "trio"})
    assert str(err.value) == "EVENT_LOOP must be uvloop or asyncio, not 'trio'"
    # the loop the runner builds is the one named
    factory = bot.loop_factory("uvloop")
    assert factory is not None
    with asyncio.Runner(loop_factory=factory) as runner:
        assert type(runner.get_loop()).__module__.startswith("uvloop")
    assert bot.loop_factory("asyncio") is None
    # where uvloop is missing (Windows): asyncio by default, a clear refusal if named
    monkeypatch.setattr(config, "uvloop_installed", lambda: False)
    assert load_config({"DISCORD_TOKEN": "abc"}).event_loop == "asyncio"
    with pytest.raises(ConfigError, match="not installed here"):
        load_config({"DISCORD_TOKEN": "abc", "EVENT_LOOP": "uvloop"})
