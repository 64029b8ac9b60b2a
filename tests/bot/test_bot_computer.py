"""The bot's computer players: every level it offers exists, any other is refused loudly."""

from __future__ import annotations

import pytest

from batak import Match, preset
from data import InvalidSettingError
from data.settings import (
    validate_setting,
)
from tables import BOT_LEVELS, computer_choice, make_computer


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
