"""Fair shares: how often one person may ask for the heavy work.

A replay, a review (the command, the Review button, the daily comparison) or a daily
match costs seconds of a worker process; one person asking for forty in a row would
make everyone else wait. Each kind allows a few uses per person in a sliding window,
more than anyone playing ever asks for; past that the person is told privately, in
their language, when they can ask again (a Discord timestamp each reader sees in their
own clock). A refused request does not count: waiting is always enough.

The limits are the same for slash commands and buttons (one limiter for both, keyed by
the person's id), unlike discord.py's app-command cooldowns, which see only commands.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tables import ServiceError


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``uses`` in any ``per`` seconds."""

    uses: int
    per: float


LIMITS: Mapping[str, Limit] = {
    "replay": Limit(3, 30.0),  # /batak replay, from a deal or an uploaded file
    "review": Limit(3, 30.0),  # /batak review, the Review and Compare buttons
    "daily": Limit(5, 60.0),  # /batak daily
}


class Cooldown(ServiceError):
    """Too many of one kind lately; ``retry_at`` is when the next one is allowed (Unix
    time), said as a relative Discord timestamp."""

    def __init__(self, kind: str, retry_at: float) -> None:
        super().__init__("error.cooldown", when=f"<t:{math.ceil(retry_at)}:R>")
        self.kind = kind
        self.retry_at = retry_at


class Cooldowns:
    """The recent uses of each kind by each person (sliding windows)."""

    SWEEP_AT = 4096
    """When this many windows are kept, the empty ones are dropped."""

    def __init__(
        self, limits: Mapping[str, Limit] = LIMITS, clock: Callable[[], float] = time.time
    ) -> None:
        self.limits = limits
        self.clock = clock
        self._uses: dict[tuple[str, int], deque[float]] = {}

    def retry_at(self, kind: str, user_id: int) -> float | None:
        """When ``user_id`` may next use ``kind``; None if now."""
        limit = self.limits[kind]
        uses = self._uses.get((kind, user_id))
        if uses is None:
            return None
        now = self.clock()
        while uses and uses[0] <= now - limit.per:
            uses.popleft()
        if len(uses) < limit.uses:
            return None
        return uses[0] + limit.per

    def use(self, kind: str, user_id: int) -> None:
        """Count one use of ``kind`` by ``user_id``, or raise :class:`Cooldown` (the use
        is then not counted)."""
        retry = self.retry_at(kind, user_id)
        if retry is not None:
            raise Cooldown(kind, retry)
        if len(self._uses) >= self.SWEEP_AT:
            self._sweep()
        self._uses.setdefault((kind, user_id), deque()).append(self.clock())

    def _sweep(self) -> None:
        now = self.clock()
        for key in list(self._uses):
            uses = self._uses[key]
            if not uses or uses[-1] <= now - self.limits[key[0]].per:
                del self._uses[key]

    def __len__(self) -> int:
        return len(self._uses)


__all__ = ["LIMITS", "Cooldown", "Cooldowns", "Limit"]
