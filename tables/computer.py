"""The computer players and the hint, as plain functions the thinking worker runs."""

from __future__ import annotations

import time

from batak import Action, Observation
from batak.ai import HardPlayer, Player, make_player
from batak.ai.hints import Hint, hint


def make_computer(level: str, seed: int) -> Player:
    """The computer player of a level, by :func:`batak.ai.make_player`: an unknown
    level raises its ``ValueError`` (naming the level and the valid ones) instead of
    quietly playing another one. Levels are checked where they are configured (the
    server settings, :class:`~tables.model.TableSettings`), so this is a bug
    guard, not a path users reach."""
    return make_player(level, seed)


def computer_choice(level: str, seed: int, observation: Observation) -> Action:
    """What the computer player of ``level`` does (runs in the thinking worker)."""
    return make_computer(level, seed).choose(observation)


def computer_decision(
    level: str, seed: int, observation: Observation, asked_at: float | None = None
) -> tuple[Action, bool]:
    """:func:`computer_choice` and whether the player's wall-clock guard cut its thinking
    short (a starved CPU: the table service counts those, ``batak_ai_decisions_cut``).

    ``asked_at`` (:func:`time.monotonic`, the same clock in every process of the machine):
    when the decision was asked. The time it waited for the worker counts against the
    hard level's guard, so a queue of decisions on a busy machine drains (each cut short
    degrades as the guard does: a ranking from fewer sampled deals, or the normal level's
    move) instead of every later move coming later still."""
    player = make_computer(level, seed)
    if asked_at is not None and isinstance(player, HardPlayer):
        waited = max(0.0, time.monotonic() - asked_at)
        player.guard = max(0.0, player.guard - waited)
    action = player.choose(observation)
    return action, bool(getattr(player, "decisions_cut", 0))


def hint_for(observation: Observation, budget: float = 0.25) -> tuple[Action, Hint]:
    """Advice for the seat of ``observation``: the hard level's action and its reason
    (a structured ``Hint``, formatted per language by the cog). Only that seat's
    information is used."""
    h = hint(observation, budget=budget)
    return h.action, h
