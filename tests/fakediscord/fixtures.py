"""Start a real bot process against the fake Discord.

    from tests.fakediscord.driver import Driver          # or: from .driver import Driver
    from tests.fakediscord.fixtures import running_bot

    async with Driver() as d:
        alice = d.create_user("alice")
        guild = d.create_guild(members=[alice])
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)}) as bot:
            await d.slash(alice, "batak new")
            await bot.restart()              # SIGKILL, start again on the same database
            print(bot.rss_bytes(), bot.output())

The bot runs as ``python bot.py`` from the repository root with ``PYTHONPATH`` holding this
directory (for ``sitecustomize.py``) and the repository, ``BATAK_FAKE_DISCORD`` pointing at
the fake, ``DISCORD_TOKEN=fake-token``, ``DATABASE_PATH`` in a fresh temporary directory
(kept across restarts), ``LOG_LEVEL=INFO``; ``env=`` adds to or overrides these.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from .driver import Driver

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
BOT_SCRIPT = REPO_ROOT / "bot.py"
ECHO_BOT = HERE / "echo_bot.py"

__all__ = ["BOT_SCRIPT", "ECHO_BOT", "REPO_ROOT", "BotProcess", "running_bot"]

# What bot.py logs when it skips registering a command list it registered before
# (bot.UNCHANGED_COMMANDS; a test keeps the two equal).
UNCHANGED_COMMANDS = "command list unchanged since the last start; not re-registered"


class BotProcess:
    """One bot subprocess (restartable) and its captured output."""

    def __init__(
        self,
        driver: Driver,
        *,
        script: Path,
        env: dict[str, str],
        cwd: Path,
        workdir: Path,
        python: str,
        expect_commands: bool,
        ready_grace: float,
        ready_line: str | None,
        timeout: float,
    ) -> None:
        self.driver = driver
        self.script = script
        self.env = env
        self.cwd = cwd
        self.workdir = workdir
        self.python = python
        self.expect_commands = expect_commands
        self.ready_grace = ready_grace
        self.ready_line = ready_line
        self.timeout = timeout
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.log_path = workdir / "bot-0.log"
        self._log_file: Any = None
        self._killed_by_us = False
        self.shards = expected_shards(env, driver.fake.shard_count)

    @property
    def syncs_commands(self) -> bool:
        """bot.py syncs the command tree only in the process that runs shard 0."""
        return any(shard_id == 0 for shard_id, _ in self.shards)

    def holds_commands(self) -> bool:
        """The fake already holds commands where this bot registers them (the
        ``DEV_GUILD_ID`` server, else globally)."""
        fake = self.driver.fake
        guild = self.env.get("DEV_GUILD_ID", "").strip()
        return bool(fake.guild_commands.get(int(guild)) if guild else fake.global_commands)

    def kept_commands(self) -> bool:
        """This start logged that its command list is the one registered before, and
        the fake holds it."""
        return self.holds_commands() and UNCHANGED_COMMANDS in self.output()

    @property
    def database_path(self) -> str:
        return self.env["DATABASE_PATH"]

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    def output(self) -> str:
        """Everything the current process printed (stdout and stderr interleaved)."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def all_output(self) -> str:
        """Output of every start of this bot, oldest first."""
        return "".join(
            p.read_text(errors="replace") for p in sorted(self.workdir.glob("bot-*.log"))
        )

    def rss_bytes(self) -> int:
        """Resident memory of the bot process and its workers (VmRSS from /proc)."""
        return read_rss(self.pid)

    async def start(self, *, wait: bool = True) -> None:
        if self.proc is not None and self.proc.returncode is None:
            raise RuntimeError("bot already running")
        fake = self.driver.fake
        identifies, syncs = fake.identify_count, fake.command_syncs
        self.log_path = self.workdir / f"bot-{self.starts}.log"
        self.starts += 1
        self._log_file = open(self.log_path, "wb")  # noqa: SIM115 - closed in _closed()
        self._killed_by_us = False
        self.proc = await asyncio.create_subprocess_exec(
            self.python,
            str(self.script),
            cwd=str(self.cwd),
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=asyncio.subprocess.STDOUT,
        )
        if wait:
            await self.wait_ready(identifies, syncs)

    async def wait_ready(self, identifies_before: int, syncs_before: int) -> None:
        """Until the bot identified on the gateway, has its commands registered (if
        expected: it synced them, or the fake holds them and the bot logged that they
        are unchanged since its last start) and discord.py's ``on_ready`` delay has
        passed (``ready_grace`` after the last GUILD_CREATE, or until ``ready_line``
        appears in its output). The bot logs its decision before it connects."""
        fake = self.driver.fake
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout

        def ready() -> bool:
            if self.returncode is not None:
                return True
            ok = fake.identify_count >= identifies_before + len(self.shards)
            ok = ok and self.shards <= fake.connected_shards()
            if ok and self.expect_commands and self.syncs_commands:
                ok = fake.command_syncs > syncs_before or self.kept_commands()
            return ok

        if not await fake.wait_state(ready, self.timeout):
            raise RuntimeError(
                f"bot not ready within {self.timeout}s (identified: "
                f"{fake.identify_count > identifies_before}, commands synced: "
                f"{fake.command_syncs > syncs_before}, kept: {self.kept_commands()}); "
                f"output:\n{self.output()[-4000:]}"
            )
        self._raise_if_exited()
        if self.ready_line is not None:
            while self.ready_line not in self.output():
                self._raise_if_exited()
                if loop.time() > deadline:
                    raise RuntimeError(f"{self.ready_line!r} not printed; output:\n{self.output()}")
                await asyncio.sleep(0.05)
        else:
            left = fake.last_guild_create + self.ready_grace - time.monotonic()
            if left > 0:
                await asyncio.sleep(left)
        self._raise_if_exited()

    def _raise_if_exited(self) -> None:
        if self.returncode is not None:
            raise RuntimeError(
                f"bot exited with code {self.returncode}; output:\n{self.output()[-6000:]}"
            )

    async def kill(self, sig: int = signal.SIGKILL, timeout: float = 10.0) -> int:
        """Send ``sig`` and wait for the exit (SIGKILL: no chance to clean up)."""
        if self.proc is None or self.proc.returncode is not None:
            return self.returncode or 0
        self._killed_by_us = True
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(sig)
        try:
            rc = await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.proc.kill()
            rc = await self.proc.wait()
        self._closed()
        # Let the fake notice the closed websocket(s) of this process's shards.
        fake = self.driver.fake
        await fake.wait_state(lambda: not self.shards & fake.connected_shards(), 2.0)
        return rc

    async def stop(self) -> int:
        """SIGTERM, then SIGKILL after 5 s."""
        return await self.kill(signal.SIGTERM, timeout=5.0)

    async def restart(self, sig: int = signal.SIGKILL) -> None:
        """Kill (SIGKILL by default, as a crash would) and start again on the same database."""
        await self.kill(sig)
        await self.start()

    def _closed(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None


def _own_rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            text = (task / "children").read_text()
            out.extend(int(c) for c in text.split())
    except (FileNotFoundError, ProcessLookupError):
        pass
    return out


def read_rss_each(pid: int) -> list[int]:
    """Resident memory of a process, then of each of its descendants (the workers)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop(0)
        out.append(_own_rss(p))
        todo.extend(_children(p))
    return out


def read_rss(pid: int) -> int:
    """Resident memory of a process and all its descendants (the bot's worker
    processes count as the bot's memory)."""
    return sum(read_rss_each(pid))


def expected_shards(env: dict[str, str], recommended: int) -> set[tuple[int, int]]:
    """The ``(shard_id, num_shards)`` sessions a bot started with ``env`` opens:
    ``SHARD_COUNT`` (default: what ``GET /gateway/bot`` recommends) and ``SHARD_IDS``
    (default: all of them)."""
    count = int(env.get("SHARD_COUNT") or recommended)
    ids = env.get("SHARD_IDS", "").replace(",", " ").split()
    return {(int(i), count) for i in ids} if ids else {(i, count) for i in range(count)}


PASSED_THROUGH = ("DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS")


def bot_env(driver: Driver, workdir: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "BATAK_", "METRICS_", "ERROR_WEBHOOK"))
        and k not in PASSED_THROUGH
    }
    pythonpath = [str(HERE), str(REPO_ROOT)]
    if os.environ.get("PYTHONPATH"):
        pythonpath.append(os.environ["PYTHONPATH"])
    env.update(
        {
            "BATAK_FAKE_DISCORD": driver.url,
            "DISCORD_TOKEN": driver.fake.expected_token or "fake-token",
            "DATABASE_PATH": str(workdir / "batak.db"),
            "LOG_LEVEL": "INFO",
            # set (even empty) so that a developer's .env cannot point the bot elsewhere:
            # python-dotenv does not override variables that exist
            "DEV_GUILD_ID": "",
            "SHARD_COUNT": "",
            "SHARD_IDS": "",
            "PYTHONPATH": os.pathsep.join(pythonpath),
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    env.update(extra or {})
    return env


@contextlib.asynccontextmanager
async def running_bot(
    driver: Driver,
    *,
    env: dict[str, str] | None = None,
    script: Path | str = BOT_SCRIPT,
    cwd: Path | str = REPO_ROOT,
    expect_commands: bool = True,
    ready_grace: float = 2.2,
    ready_line: str | None = None,
    timeout: float = 30.0,
    python: str = sys.executable,
    keep_workdir: bool = False,
    shard_count: int | None = None,
    shard_ids: tuple[int, ...] | None = None,
    database_url: str | None = None,
) -> AsyncIterator[BotProcess]:
    """Run ``script`` (default: the real ``bot.py``) against ``driver``'s fake until the
    block ends; then SIGTERM (SIGKILL after 5 s) and remove the temporary directory.

    ``expect_commands``: also wait for a command sync (PUT .../commands) before yielding.
    ``ready_grace``: discord.py fires ``on_ready`` ``guild_ready_timeout`` (2 s default)
    after the last GUILD_CREATE; tables restored in ``on_ready`` need that wait.
    ``shard_count`` / ``shard_ids``: ``SHARD_COUNT`` / ``SHARD_IDS`` of the process (ready
    once each of its shards is connected); ``database_url``: ``DATABASE_URL`` (several
    processes on one PostgreSQL).
    """
    workdir = Path(tempfile.mkdtemp(prefix="batak-e2e-"))
    if Path(script).resolve() == BOT_SCRIPT:  # the real bot's requests, for the audit
        driver.fake.start_capture()
    extra = dict(env or {})
    if shard_count is not None:
        extra["SHARD_COUNT"] = str(shard_count)
    if shard_ids is not None:
        extra["SHARD_IDS"] = ",".join(str(i) for i in shard_ids)
    if database_url is not None:
        extra["DATABASE_URL"] = database_url
    bot = BotProcess(
        driver,
        script=Path(script),
        env=bot_env(driver, workdir, extra),
        cwd=Path(cwd),
        workdir=workdir,
        python=python,
        expect_commands=expect_commands,
        ready_grace=ready_grace,
        ready_line=ready_line,
        timeout=timeout,
    )
    try:
        await bot.start()
        yield bot
    except BaseException:
        # pytest shows captured stderr of a failed test: the bot's side of the story.
        print(f"--- bot output ({workdir}) ---\n{bot.all_output()[-8000:]}", file=sys.stderr)
        raise
    finally:
        await bot.stop()
        bot._closed()
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
