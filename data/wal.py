"""Checking an SQLite write-ahead log (``-wal``) before SQLite opens the database.

The format is SQLite's own, documented at
https://www.sqlite.org/fileformat2.html#walformat ("4. The Write-Ahead Log"):
a 32-byte header (magic 0x377f0682 or 0x377f0683, which gives the byte order of
the checksums; format version 3007000; page size; checkpoint sequence; salt-1,
salt-2; checksum-1, checksum-2 of the first 24 bytes), then frames of a 24-byte
header (page number; database size in pages after a commit, else 0; salt-1,
salt-2; checksum-1, checksum-2) followed by one page. The checksum is cumulative:
each frame's is computed over its first 8 header bytes and its page, starting
from the checksum of the frame before (the header's, for the first frame).

When SQLite recovers the log it stops, silently, at the first frame whose salts
differ from the header's or whose checksum does not verify, and uses the frames
up to the last commit before it. That is right after a crash mid-write (the torn
frames are the uncommitted end of the log) and after a checkpoint restarted the
log (frames of an earlier generation, with other salts, are left behind). It is
wrong when the bad frame is in the middle: every committed transaction after it,
acknowledged moves included, is dropped without a word.

So the log is damaged when, after its first bad frame, a later frame of the same
generation proves to be genuine: it carries the header's salts and its checksum
verifies when computed from the checksum stored in the frame before it (the
running value a writer continued from), and it, or a frame after it, commits a
transaction. A header that is not a valid WAL header in front of such frames is
damage too: SQLite would ignore the whole log.

What cannot be told from a crash: damage to the frames of the last transaction
only (nothing genuine follows them), a torn last frame, damage that also wipes
every later frame, damage followed by a single frame (a frame is proved genuine
from the frame before it, which is the damaged one), and a log whose header alone
is damaged while it holds no frames. Damage inside the main database file is
for ``PRAGMA quick_check`` (``data.health``). One false alarm is possible: a power
cut while a commit was being flushed may leave its frames on disk out of order
(with ``synchronous=FULL``, the bot's default, that commit was never acknowledged).
"""

from __future__ import annotations

import os
import struct
import time
from dataclasses import dataclass
from typing import Final

from .models import DatabaseDamagedError

MAGIC_LE: Final = 0x377F0682  # checksums over little-endian 32-bit words
MAGIC_BE: Final = 0x377F0683  # checksums over big-endian 32-bit words
VERSION: Final = 3007000
HEADER_SIZE: Final = 32
FRAME_HEADER_SIZE: Final = 24
_MASK: Final = 0xFFFFFFFF
RECHECK_PAUSE_S: Final = 0.05
"""A live bot may be appending to the log while it is read; damage is reported only
when a second read, after this pause, finds it at the same frame."""


@dataclass(frozen=True, slots=True)
class WalDamage:
    """Where a log is damaged: ``frame`` is the first bad frame (0-based; -1 for the
    header), ``lost`` how many genuine frames of the same generation follow it."""

    frame: int
    lost: int
    frames: int

    def describe(self, wal_path: str) -> str:
        if self.frame < 0:
            return (
                f"its write-ahead log {wal_path} has a damaged header, and SQLite would "
                f"silently ignore all its {self.frames} frame(s) of committed changes"
            )
        return (
            f"its write-ahead log {wal_path} is damaged at frame {self.frame + 1} of "
            f"{self.frames}, and SQLite would silently drop the {self.lost} committed "
            "frame(s) after it"
        )


def checksum(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes), continued from
    ``(s0, s1)``."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & _MASK
        s1 = (s1 + words[i + 1] + s0) & _MASK
    return s0, s1


def _frame_fields(frame: bytes) -> tuple[int, int, int, int, int, int]:
    page, commit, salt1, salt2, c1, c2 = struct.unpack(">6I", frame[:FRAME_HEADER_SIZE])
    return page, commit, salt1, salt2, c1, c2


def _chains(prev: bytes, frame: bytes, page_size: int, big_endian: bool) -> bool:
    """Whether ``frame``'s stored checksum follows from the one stored in ``prev``:
    ``frame`` was written by a writer continuing from ``prev``."""
    *_, p1, p2 = _frame_fields(prev)
    *_, c1, c2 = _frame_fields(frame)
    body = frame[:8] + frame[FRAME_HEADER_SIZE : FRAME_HEADER_SIZE + page_size]
    return checksum(body, p1, p2, big_endian) == (c1, c2)


def scan(data: bytes) -> WalDamage | None:
    """The damage in the log ``data`` (a whole ``-wal`` file), or None if SQLite will
    read everything committed in it."""
    if len(data) < HEADER_SIZE:
        return None  # nothing was ever written after it: no frames to lose
    magic, version, page_size, _seq, salt1, salt2, h1, h2 = struct.unpack(">8I", data[:HEADER_SIZE])
    header_ok = (
        magic in (MAGIC_LE, MAGIC_BE)
        and version == VERSION
        and page_size >= 512
        and page_size <= 65536
        and page_size & (page_size - 1) == 0
        and checksum(data[:24], 0, 0, magic == MAGIC_BE) == (h1, h2)
    )
    if not header_ok:
        return _damaged_header(data)
    big = magic == MAGIC_BE
    size = FRAME_HEADER_SIZE + page_size
    frames = [
        data[at : at + size] for at in range(HEADER_SIZE, len(data) - size + 1, size)
    ]  # a torn last frame (shorter than a frame) is what a crash mid-write leaves
    s0, s1 = h1, h2
    for i, frame in enumerate(frames):
        page, _commit, f1, f2, c1, c2 = _frame_fields(frame)
        body = frame[:8] + frame[FRAME_HEADER_SIZE:]
        if page and (f1, f2) == (salt1, salt2):
            s0, s1 = checksum(body, s0, s1, big)
            if (s0, s1) == (c1, c2):
                continue
        return _after_bad_frame(frames, i, page_size, big, (salt1, salt2))
    return None


def _after_bad_frame(
    frames: list[bytes], bad: int, page_size: int, big: bool, salts: tuple[int, int]
) -> WalDamage | None:
    """Frame ``bad`` fails; is a genuine, committed frame of this generation after it?"""
    genuine = 0
    committed = False
    for j in range(bad + 1, len(frames)):
        page, commit, f1, f2, _c1, _c2 = _frame_fields(frames[j])
        if (f1, f2) != salts or not page:
            continue  # an earlier generation's leftover, or not a frame at all
        if _chains(frames[j - 1], frames[j], page_size, big):
            genuine += 1
            committed = committed or commit != 0
    if genuine and committed:
        return WalDamage(frame=bad, lost=genuine, frames=len(frames))
    return None


def _damaged_header(data: bytes) -> WalDamage | None:
    """The header is not valid: SQLite ignores the log. Damage if the frames behind it
    are genuine (consecutive frames with one pair of salts, their checksums chained)."""
    for page_size in (1 << k for k in range(9, 17)):
        size = FRAME_HEADER_SIZE + page_size
        frames = [data[at : at + size] for at in range(HEADER_SIZE, len(data) - size + 1, size)]
        for big in (True, False):
            chained = 0
            committed = False
            for j in range(1, len(frames)):
                page, commit, f1, f2, *_ = _frame_fields(frames[j])
                prev_salts = _frame_fields(frames[j - 1])[2:4]
                if (
                    page
                    and (f1, f2) == prev_salts
                    and _chains(frames[j - 1], frames[j], page_size, big)
                ):
                    chained += 1
                    committed = committed or commit != 0
            if chained and committed:
                return WalDamage(frame=-1, lost=len(frames), frames=len(frames))
    return None


def check_wal(db_path: str, *, pause_s: float = RECHECK_PAUSE_S) -> None:
    """Raise ``DatabaseDamagedError`` if ``db_path``'s ``-wal`` file is damaged in a
    way SQLite would silently swallow (see the module's docstring). Only reads: the
    database and its log are left exactly as they are, for recovery."""
    wal_path = f"{db_path}-wal"
    first = _read_and_scan(wal_path)
    if first is None:
        return
    time.sleep(pause_s)  # a writer may have been mid-frame: look again
    second = _read_and_scan(wal_path)
    if second is None or second.frame != first.frame:
        return
    raise DatabaseDamagedError(db_path, second.describe(wal_path))


def _read_and_scan(wal_path: str) -> WalDamage | None:
    try:
        with open(wal_path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    return scan(data)


def frame_count(wal_path: str | os.PathLike[str]) -> tuple[int, int]:
    """(page size, whole frames) of a log, for tests and tools; (0, 0) without a
    valid header."""
    with open(wal_path, "rb") as f:
        data = f.read()
    if len(data) < HEADER_SIZE:
        return 0, 0
    magic, _v, page_size = struct.unpack(">3I", data[:12])
    if magic not in (MAGIC_LE, MAGIC_BE) or not page_size:
        return 0, 0
    return page_size, (len(data) - HEADER_SIZE) // (FRAME_HEADER_SIZE + page_size)
