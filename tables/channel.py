"""One worker process and the socket its calls go through, read by the event loop.

``concurrent.futures.ProcessPoolExecutor`` hands each call over through two threads of
the bot process (its manager thread and a queue's feeder thread) and back through the
event loop's wake-up pipe: 300-400 us of the bot's CPU a call, three calls a move. Here a
call is one write on a socket and its answer one read, both on the event loop without
blocking it (the loop watches the socket: a large answer comes in pieces, a large call
goes out as the process reads it). The process speaks :mod:`multiprocessing`'s own
framing (``Connection.send`` / ``recv``).

A process that dies (killed, out of memory) closes its end: every call waiting on it
fails with ``BrokenProcessPool``, as the executor's calls did, and its :class:`Worker
<tables.workers.Worker>` starts one new process.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import pickle
import struct
import traceback
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

READ = 1 << 18


class RemoteTraceback(Exception):
    """Where an error was raised in the worker process (the cause of the one raised here)."""

    def __str__(self) -> str:
        return f"\n{self.args[0]}"


class Channel:
    """A started worker process and the calls waiting for its answers."""

    def __init__(self, name: str, serve: Callable[..., None], *args: Any) -> None:
        """Start the process: ``serve(connection, *args)`` runs in it."""
        ctx = multiprocessing.get_context("spawn")
        mine, theirs = ctx.Pipe(duplex=True)
        self.process = ctx.Process(
            target=serve, args=(theirs, *args), name=f"worker-{name}", daemon=True
        )
        self.process.start()
        theirs.close()
        self._conn: Connection | None = mine
        self._fd = mine.fileno()
        os.set_blocking(self._fd, False)
        self._ids = itertools.count()
        self._calls: dict[int, asyncio.Future[Any]] = {}
        self._inbox = bytearray()
        self._outbox = bytearray()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.broken = False

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        """Send ``fn(*args)`` to the process; the future holds its answer."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._attach(loop)
        done: asyncio.Future[Any] = loop.create_future()
        if self.broken:
            done.set_exception(BrokenProcessPool("the worker process died"))
            return done
        call_id = next(self._ids)
        body = pickle.dumps((call_id, pickle.dumps((fn, args))))
        self._calls[call_id] = done
        self._write(struct.pack("!i", len(body)) + body)
        return done

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Watch the socket from ``loop`` (a new event loop: the calls of the old one,
        closed, are forgotten)."""
        old = self._loop
        if old is not None and not old.is_closed():
            old.remove_reader(self._fd)
            old.remove_writer(self._fd)
        self._calls.clear()
        self._loop = loop
        if not self.broken:
            loop.add_reader(self._fd, self._readable)
            if self._outbox:
                loop.add_writer(self._fd, self._writable)

    def _write(self, data: bytes) -> None:
        if self._outbox:
            self._outbox += data
            return
        try:
            sent = os.write(self._fd, data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._break()
            return
        if sent < len(data):
            self._outbox += data[sent:]
            assert self._loop is not None
            self._loop.add_writer(self._fd, self._writable)

    def _writable(self) -> None:
        try:
            sent = os.write(self._fd, self._outbox)
        except BlockingIOError:
            return
        except OSError:
            self._break()
            return
        del self._outbox[:sent]
        if not self._outbox and self._loop is not None:
            self._loop.remove_writer(self._fd)

    def _readable(self) -> None:
        while True:
            try:
                chunk = os.read(self._fd, READ)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:  # the process is gone
                self._answer()
                self._break()
                return
            self._inbox += chunk
            if len(chunk) < READ:
                break
        self._answer()

    def _answer(self) -> None:
        """Settle the calls whose whole answer came."""
        inbox = self._inbox
        while len(inbox) >= 4:
            (size,) = struct.unpack_from("!i", inbox)
            head = 4
            if size == -1:  # multiprocessing's header of a message over 2 GiB
                if len(inbox) < 12:
                    return
                (size,) = struct.unpack_from("!Q", inbox, 4)
                head = 12
            if len(inbox) < head + size:
                return
            body = bytes(inbox[head : head + size])
            del inbox[: head + size]
            call_id, ok, blob = pickle.loads(body)
            done = self._calls.pop(call_id, None)
            if done is None or done.done():  # its caller went away
                continue
            try:
                value = pickle.loads(blob)
            except Exception as exc:  # e.g. an error class not importable here
                done.set_exception(RuntimeError(f"unreadable answer: {exc!r}"))
                continue
            if ok:
                done.set_result(value)
            else:
                error, where = value
                error.__cause__ = RemoteTraceback(where)  # logged with the caller's traceback
                done.set_exception(error)

    def _break(self) -> None:
        if self.broken:
            return
        self.broken = True
        self._stop_watching()
        calls, self._calls = self._calls, {}
        for done in calls.values():
            if not done.done():
                done.set_exception(BrokenProcessPool("the worker process died"))

    def _stop_watching(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self._fd)
            loop.remove_writer(self._fd)

    def close(self) -> None:
        """Let the process go (it exits at the end of its call: its socket is closed);
        the calls waiting are cancelled."""
        self._stop_watching()
        self.broken = True
        calls, self._calls = self._calls, {}
        for done in calls.values():
            done.cancel()
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.process.is_alive()  # a process that died is reaped now (no zombie kept)


def serve(conn: Connection, start: Callable[..., None], *args: Any) -> None:
    """The worker process: ``start(*args)`` once, then answer calls until the bot closes
    the socket. An error is the call's answer; one that cannot be sent is told by name."""
    start(*args)
    while True:
        try:
            call_id, blob = conn.recv()
        except (EOFError, OSError):
            return
        ok, value = True, None
        try:
            fn, fn_args = pickle.loads(blob)
            value = fn(*fn_args)
        except BaseException as exc:  # the caller gets it, as with an executor
            ok, value = False, (exc, traceback.format_exc())
        try:
            answer = pickle.dumps(value)
        except Exception as exc:  # the answer would not pickle
            error = RuntimeError(f"{type(exc).__name__}: {exc}")
            ok, answer = False, pickle.dumps((error, traceback.format_exc()))
        try:
            conn.send((call_id, ok, answer))
        except OSError:  # the bot is gone
            return
