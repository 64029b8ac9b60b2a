"""Computer players that play Batak well: ``normal`` and ``hard``, hints, the arena.

Every player here sees only its seat's :class:`~batak.deal.Observation`.

* :func:`make_player` builds any level by name (``random``, ``easy``,
  ``normal``, ``hard``) and refuses any other name.
* :func:`hint` / :func:`format_hint_en` / :func:`hint_text`: the hard level's
  suggestion for a person's decision and its reason.
* :mod:`batak.ai.arena`: duplicate-deal comparisons (``python -m batak arena``).

>>> make_player("normal", seed=3).name
'normal'
>>> make_player("expert")
Traceback (most recent call last):
...
ValueError: unknown computer level 'expert'; expected one of: random, easy, normal, hard
"""

import math
from typing import Final, Literal, get_args

from batak.ai.base import Player, RandomPlayer
from batak.ai.bots import HardPlayer, NormalPlayer
from batak.ai.easy import RuleOfThumbPlayer
from batak.ai.hints import HINT_KINDS, Hint, HintKind, format_hint_en, hint, hint_text

Level = Literal["random", "easy", "normal", "hard"]
"""The names of the computer levels."""

PLAYER_KINDS: Final[tuple[Level, ...]] = get_args(Level)


def make_player(kind: str, seed: int | None = 0, budget: float | None = None) -> Player:
    """A player by level name: ``random``, ``easy``, ``normal`` or ``hard``.

    ``budget`` is the hard level's thinking time per decision in seconds
    (default 0.25); the other levels ignore it. The same ``seed`` gives the
    same decisions. Any other name raises ``ValueError`` naming it and the
    valid ones; so does a budget that is not a positive number.
    """
    if budget is not None and (
        isinstance(budget, bool)
        or not isinstance(budget, int | float)
        or not math.isfinite(budget)
        or budget <= 0
    ):
        raise ValueError(f"budget must be a positive number of seconds, not {budget!r}")
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "easy":
        return RuleOfThumbPlayer(seed)
    if kind == "normal":
        return NormalPlayer(seed)
    if kind == "hard":
        return HardPlayer(seed) if budget is None else HardPlayer(seed, budget=budget)
    raise ValueError(f"unknown computer level {kind!r}; expected one of: {', '.join(PLAYER_KINDS)}")


__all__ = [
    "HINT_KINDS",
    "PLAYER_KINDS",
    "HardPlayer",
    "Hint",
    "HintKind",
    "Level",
    "NormalPlayer",
    "Player",
    "RandomPlayer",
    "RuleOfThumbPlayer",
    "format_hint_en",
    "hint",
    "hint_text",
    "make_player",
]
