"""Computer players that play Batak well: ``normal`` and ``hard``, hints, the arena.

Every player here sees only its seat's :class:`~batak.deal.Observation`.
"""

from batak.ai.bots import HardPlayer, NormalPlayer

__all__ = ["HardPlayer", "NormalPlayer"]
