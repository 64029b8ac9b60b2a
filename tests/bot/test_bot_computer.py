"""The bot's computer players: every level it offers exists, any other is refused loudly."""

from __future__ import annotations

import time

import pytest

from batak import Match, preset
from batak.ai.bots import NormalPlayer
from batak.ai.knowledge import infer
from batak.ai.sim import distinct_cards
from batak.deal import Deal, Observation, Phase, Play
from data import InvalidSettingError
from data.settings import (
    validate_setting,
)
from tables import BOT_LEVELS, computer_choice, computer_decision, make_computer


def test_every_offered_level_is_a_computer_player_that_plays_legally() -> None:
    match = Match(preset("standard"), 5)
    seat = match.deal.to_act
    assert seat is not None
    for level in BOT_LEVELS:
        assert make_computer(level, 1).name == level
        assert computer_choice(level, 1, match.observation(seat)) in match.legal_actions()


def test_an_unknown_level_raises_instead_of_playing_easy() -> None:
    with pytest.raises(ValueError, match="unknown computer level 'godlike'"):
        make_computer("godlike", 1)


def test_the_settings_refuse_an_unknown_level_when_it_is_configured() -> None:
    with pytest.raises(InvalidSettingError, match=r"bot_level.*easy, normal, hard"):
        validate_setting("bot_level", "godlike")
    assert validate_setting("bot_level", "hard") == "hard"


def test_a_decision_that_waited_past_the_guard_plays_the_normal_levels_move() -> None:
    """The time a table's decision waited for the thinking worker counts against the hard
    level's guard: one asked a minute ago is cut at once, and plays what normal plays."""
    deal = Deal.from_seed(preset("esli"), 17, 1)
    normal = [NormalPlayer(s) for s in range(4)]
    checked = 0
    while deal.phase is not Phase.DONE:
        obs = deal.observation(deal.to_act)
        choices = distinct_cards(_legal(obs), infer(obs).unseen | (obs.hand or 0))
        if obs.phase is Phase.PLAY and len(choices) > 1:
            action, cut = computer_decision("hard", 3, obs, time.monotonic() - 60)
            assert cut and action == NormalPlayer(0).choose(obs)
            checked += 1
        deal.apply(normal[obs.seat].choose(obs))
    assert checked >= 10
    # other levels have no guard: the wait changes nothing
    assert computer_decision("normal", 3, obs, time.monotonic() - 60)[1] is False


def _legal(obs: Observation) -> int:
    return sum(1 << a.card for a in obs.legal if isinstance(a, Play))
