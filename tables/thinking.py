"""Computers think while their move's delay runs.

A computer's move is due ``bot_delay`` seconds after its turn begins (so people can follow
the cards). Its decision is asked of the thinking worker when the turn begins, not when
the delay is over: the move is then ready when it is due, unless the thinking takes longer
than the delay, and it is thought out without holding the table's lock.

A thought belongs to one turn: the move number, the seat and the computer's level. When
the table moves on, the seat goes back to its person, or the table closes, the thought is
dropped (its task cancelled; a call the worker already started runs out there, and its
answer is thrown away). When the move is due, :meth:`Thoughts.take` hands over the
thought of that turn, if any; the caller checks under the table's lock that the turn is
still the same before it plays the thought's action.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from batak import Action


@dataclass(frozen=True)
class Thought:
    """A computer's decision for one turn, asked ahead of its move."""

    move: int
    seat: int
    level: str
    task: asyncio.Task[Action]

    def turn(self) -> tuple[int, int, str]:
        return (self.move, self.seat, self.level)


class Thoughts:
    """At most one thought per table: the decision of the computer whose turn it is."""

    def __init__(self) -> None:
        self._held: dict[int, Thought] = {}

    def start(
        self,
        table_id: int,
        move: int,
        seat: int,
        level: str,
        decide: Callable[[], Coroutine[Any, Any, Action]],
    ) -> None:
        """Think about ``(move, seat, level)`` with ``decide()``, unless already doing so;
        any other thought of the table is dropped."""
        held = self._held.get(table_id)
        if held is not None and held.turn() == (move, seat, level):
            return
        self.drop(table_id)
        task = asyncio.get_running_loop().create_task(decide())
        task.add_done_callback(_retrieved)
        self._held[table_id] = Thought(move, seat, level, task)

    def drop(self, table_id: int) -> None:
        """Forget the table's thought and stop it (the turn it was for is gone)."""
        held = self._held.pop(table_id, None)
        if held is not None:
            held.task.cancel()

    def take(self, table_id: int, move: int) -> Thought | None:
        """The table's thought for ``move``, handed over once (a thought for another move
        is dropped)."""
        held = self._held.get(table_id)
        if held is None:
            return None
        if held.move != move:
            self.drop(table_id)
            return None
        del self._held[table_id]
        return held

    def thinking(self, table_id: int) -> tuple[int, int, str] | None:
        """The turn the table's computer is thinking about (``None``: no thought)."""
        held = self._held.get(table_id)
        return None if held is None else held.turn()

    async def close(self) -> None:
        held = list(self._held.values())
        self._held.clear()
        for thought in held:
            thought.task.cancel()
        for thought in held:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await thought.task


async def outcome(thought: Thought) -> Action | None:
    """The thought's action once it is ready; ``None`` if it failed or was dropped (the
    caller then thinks again). Cancelling the caller drops the thought too."""
    try:
        await asyncio.wait({thought.task})
    except asyncio.CancelledError:
        thought.task.cancel()
        raise
    if thought.task.cancelled() or thought.task.exception() is not None:
        return None
    return thought.task.result()


def _retrieved(task: asyncio.Task[Action]) -> None:
    """A failed thought must not log "exception never retrieved": one taken when its move
    falls due is thought anew (a failure then is logged), one nobody takes is moot."""
    if not task.cancelled():
        task.exception()
