"""Computer players that play Batak well: ``normal``, ``hard``; hints, the arena.

Every player here sees only its seat's :class:`~batak.deal.Observation`.

* :func:`make_player` builds any level by name (``random``, ``easy``,
  ``normal``, ``hard``) and refuses any other name. ``expert`` (``hard`` with
  more thinking per decision) was not shown stronger than hard by the arena and is
  gone; the name still seats hard (:data:`RETIRED_LEVELS`: stored tables name it).
* :func:`hint` / :func:`format_hint_en` / :func:`hint_text`: the hard level's
  suggestion for a person's decision and its reason.
* :mod:`batak.ai.arena`: duplicate-deal comparisons (``python -m batak arena``).
* :mod:`batak.ai.experimental`: variants of the hard level kept for the arena only;
  nothing here imports them.

>>> make_player("normal", seed=3).name
'normal'
>>> make_player("expert", seed=3).name
'hard'
>>> make_player("godlike")
Traceback (most recent call last):
...
ValueError: unknown computer level 'godlike'; expected one of: random, easy, normal, hard
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

RETIRED_LEVELS: Final[dict[str, Level]] = {"expert": "hard"}
"""Levels once offered and now gone, by the level that plays for them (a table or a
setting stored before may still name one)."""


def check_budget(budget: object) -> None:
    """Raise ``ValueError`` unless ``budget`` is ``None`` or a positive number of seconds."""
    if budget is not None and (
        isinstance(budget, bool)
        or not isinstance(budget, int | float)
        or not math.isfinite(budget)
        or budget <= 0
    ):
        raise ValueError(f"budget must be a positive number of seconds, not {budget!r}")


def make_player(kind: str, seed: int | None = 0, budget: float | None = None) -> Player:
    """A player by level name: ``random``, ``easy``, ``normal`` or ``hard`` (or a
    retired level's name, :data:`RETIRED_LEVELS`: the level that plays for it).

    ``budget`` is the hard level's thinking time per decision in seconds (default
    0.25, counted in simulated card plays, so the same on any machine); the other
    levels ignore it. The same ``seed`` gives the
    same decisions. Any other name raises ``ValueError`` naming it and the
    valid ones; so does a budget that is not a positive number.
    """
    check_budget(budget)
    kind = RETIRED_LEVELS.get(kind, kind)
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
    "RETIRED_LEVELS",
    "HardPlayer",
    "Hint",
    "HintKind",
    "Level",
    "NormalPlayer",
    "Player",
    "RandomPlayer",
    "RuleOfThumbPlayer",
    "check_budget",
    "format_hint_en",
    "hint",
    "hint_text",
    "make_player",
]
