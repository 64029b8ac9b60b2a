"""Computer players by name: the door the command line and the bot use.

The players themselves live in :mod:`batak.ai` (``random`` and the
:class:`Player` protocol in :mod:`batak.ai.base`, ``easy`` in
:mod:`batak.ai.easy`, ``normal`` and ``hard`` in :mod:`batak.ai.bots`); this
module keeps the old names importable from one place.
"""

from batak.ai import PLAYER_KINDS, make_player
from batak.ai.base import Player, RandomPlayer
from batak.ai.easy import RuleOfThumbPlayer, best_trump, estimate_tricks

__all__ = [
    "PLAYER_KINDS",
    "Player",
    "RandomPlayer",
    "RuleOfThumbPlayer",
    "best_trump",
    "estimate_tricks",
    "make_player",
]
