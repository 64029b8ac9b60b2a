"""Computer players that play Batak well: ``normal`` and ``hard``, hints, the arena.

Every player here sees only its seat's :class:`~batak.deal.Observation`.

* :func:`batak.players.make_player` builds any level by name
  (``random``, ``easy``, ``normal``, ``hard``).
* :func:`hint` / :func:`format_hint_en` / :func:`hint_text`: the hard level's
  suggestion for a person's decision and its reason.
* :mod:`batak.ai.arena`: duplicate-deal comparisons (``python -m batak arena``).
"""

from batak.ai.bots import HardPlayer, NormalPlayer
from batak.ai.hints import HINT_KINDS, Hint, format_hint_en, hint, hint_text

__all__ = [
    "HINT_KINDS",
    "HardPlayer",
    "Hint",
    "NormalPlayer",
    "format_hint_en",
    "hint",
    "hint_text",
]
