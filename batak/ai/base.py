"""What every computer player is: :class:`Player`, and the plainest one, :class:`RandomPlayer`.

A player gets only its seat's :class:`~batak.deal.Observation` (own hand,
calls, contract, trump, cards played, tricks) and returns one of
``observation.legal``. It never sees the other hands.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from batak.deal import Action, Observation


@runtime_checkable
class Player(Protocol):
    """Anything that picks a legal action from an observation."""

    name: str

    def choose(self, observation: Observation) -> Action: ...


class RandomPlayer:
    """Picks uniformly among the legal actions; deterministic for a seed."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        if not observation.legal:
            raise ValueError("this seat has nothing to do now")
        return self._rng.choice(observation.legal)
