"""Computer-player variants kept for measurement, never for play.

Each one is the hard level with one idea added that the arena did not show to be
better (the figures are in ``docs/computer-players.md``). The bot never imports
this package (``tests/test_layout.py`` checks it); the arena seats them by name
(``python -m batak arena --candidate hard+play-fit``):

* ``hard+play-fit`` (:class:`~batak.ai.experimental.playfit.PlayFitPlayer`): the
  cards the other seats played weigh the sampled deals;
* ``hard+weighed-bids`` (:class:`~batak.ai.experimental.weigh.WeighedBidder`): every
  call valued by play-outs instead of the trick model's formula.

>>> make_experimental("hard+play-fit", seed=3).name
'hard+play-fit'
>>> make_experimental("bold", seed=3)
Traceback (most recent call last):
...
ValueError: unknown experimental player 'bold'; expected one of: hard+play-fit, hard+weighed-bids
"""

from __future__ import annotations

from typing import Final

from batak.ai import check_budget
from batak.ai.bots import HardPlayer
from batak.ai.experimental.playfit import PlayFitPlayer
from batak.ai.experimental.weigh import WeighedBidder

EXPERIMENTS: Final[dict[str, type[HardPlayer]]] = {
    PlayFitPlayer.name: PlayFitPlayer,
    WeighedBidder.name: WeighedBidder,
}
"""The experimental players by the name the arena knows them by."""


def make_experimental(kind: str, seed: int | None = 0, budget: float | None = None) -> HardPlayer:
    """An experimental player by name, with ``budget`` seconds of work per decision
    (the hard level's by default); any other name, or a budget that is not a positive
    number, raises ``ValueError``."""
    check_budget(budget)
    player = EXPERIMENTS.get(kind)
    if player is None:
        raise ValueError(
            f"unknown experimental player {kind!r}; expected one of: {', '.join(EXPERIMENTS)}"
        )
    return player(seed) if budget is None else player(seed, budget=budget)


__all__ = ["EXPERIMENTS", "make_experimental"]
