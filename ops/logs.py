"""Log lines for collectors and error reports for the owner.

:class:`JsonFormatter` writes each record as one JSON object on one line.
:class:`ErrorWebhook` is a logging handler: every record at ERROR or above (each error is
logged once, where it is handled) is also posted to a Discord webhook of the owner's, at
most ``per_minute`` a minute; the ones left out are counted and the count goes with the
next post, so a storm of errors costs one message a few seconds, not a ban from Discord.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import json
import logging
import time
import traceback
from collections.abc import Callable
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

# Discord allows 2000 characters per message; a traceback keeps its last lines.
MAX_CONTENT = 2000


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message"[, "exception"][, context...]}`` per line."""

    def __init__(self, context: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.context = dict(context or {})

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **self.context,
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exception"] = record.exc_text
        return json.dumps(out, ensure_ascii=False, default=str)


class RateLimit:
    """At most ``per_minute`` events in any 60 seconds of ``clock``."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute < 1:
            raise ValueError("per_minute must be at least 1")
        self.per_minute = per_minute
        self.clock = clock
        self._sent: collections.deque[float] = collections.deque()

    def allow(self) -> bool:
        now = self.clock()
        while self._sent and now - self._sent[0] >= 60.0:
            self._sent.popleft()
        if len(self._sent) >= self.per_minute:
            return False
        self._sent.append(now)
        return True


def describe(record: logging.LogRecord, context: str) -> str:
    """The webhook message: where, what, and the end of the traceback."""
    head = f"**{record.levelname}** `{record.name}` {context}".rstrip()
    text = f"{head}\n{record.getMessage()}"
    if record.exc_info and record.exc_info[1] is not None:
        tb = "".join(traceback.format_exception(record.exc_info[1]))
        room = MAX_CONTENT - len(text) - 12
        if room > 100:
            text += "\n```\n" + tb[-room:] + "\n```"
    return text[:MAX_CONTENT]


class ErrorWebhook(logging.Handler):
    """Posts ERROR records to ``url`` (a Discord webhook), rate limited.

    ``start()`` in the running event loop, ``await close()`` at the end. Records logged
    from other threads are handed to the loop safely. The handler's own failures are
    logged at WARNING (never posted, so they cannot loop).
    """

    def __init__(
        self,
        url: str,
        *,
        per_minute: int = 5,
        context: str = "",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(level=logging.ERROR)
        self.url = url
        self.context = context
        self.limit = RateLimit(per_minute, clock)
        self.suppressed = 0
        self.posted = 0
        self._queue: asyncio.Queue[str] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        self._task = self._loop.create_task(self._run(), name="error-webhook")

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < self.level or record.name == __name__:
            return
        if self._loop is None or self._loop.is_closed():
            return
        try:
            text = describe(record, self.context)
        except Exception:  # a record that cannot be formatted: the log has it anyway
            return
        try:
            here = asyncio.get_running_loop() is self._loop
        except RuntimeError:  # another thread, no loop of its own
            here = False
        if here:
            self._offer(text)
        else:
            self._loop.call_soon_threadsafe(self._offer, text)

    def _offer(self, text: str) -> None:
        if not self.limit.allow():
            self.suppressed += 1
            return
        if self.suppressed:
            text = f"{text}\n({self.suppressed} more error(s) not posted in the last minute)"
            text = text[-MAX_CONTENT:]
            self.suppressed = 0
        assert self._queue is not None
        self._queue.put_nowait(text)

    async def _run(self) -> None:
        assert self._queue is not None
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            while True:
                text = await self._queue.get()
                await self._post(session, text)
                self._queue.task_done()

    async def _post(self, session: aiohttp.ClientSession, text: str) -> None:
        body = {"content": text, "allowed_mentions": {"parse": []}}
        try:
            async with session.post(self.url, json=body) as resp:
                if resp.status >= 400:
                    log.warning("error webhook answered %s: %s", resp.status, await resp.text())
                else:
                    self.posted += 1
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("error webhook unreachable: %s", exc)

    async def drain(self) -> None:
        """Until every accepted report is posted (tests, and closing)."""
        await asyncio.sleep(0)  # reports handed over from other threads
        if self._queue is not None:
            await self._queue.join()

    async def close_async(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), 5.0)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._loop = None
