"""The computer players and the hint, as plain functions the thinking worker runs."""

from __future__ import annotations

from batak import Action, Observation
from batak import players as batak_players
from batak.ai.hints import Hint, hint


def make_computer(level: str, seed: int) -> batak_players.Player:
    """The computer player of a level; unknown levels fall back to ``easy``."""
    try:
        return batak_players.make_player(level, seed)
    except ValueError:
        return batak_players.make_player("easy", seed)


def computer_choice(level: str, seed: int, observation: Observation) -> Action:
    """What the computer player of ``level`` does (runs in the thinking worker)."""
    return make_computer(level, seed).choose(observation)


def hint_for(observation: Observation, budget: float = 0.25) -> tuple[Action, Hint]:
    """Advice for the seat of ``observation``: the hard level's action and its reason
    (a structured ``Hint``, formatted per language by the cog). Only that seat's
    information is used."""
    h = hint(observation, budget=budget)
    return h.action, h
