"""What a finished Eşli match and a daily hand say: the two pairs are placed 1st and
2nd (never "3rd" of two), and the daily hand says whose turn it is once."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from batak import Match, Phase, preset, scoring
from batak.players import make_player
from cogs import pictures
from cogs.text.summaries import hand_text, match_result_text
from tests.bot.test_bot_render import fake_table


def finished(name: str, seed: int) -> Match:
    match = Match(preset(name, deals=1), seed=seed)
    bots = [make_player("easy", s) for s in range(4)]
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].choose(match.observation(seat)), seat)
    return match


def test_an_esli_result_places_the_pairs_first_and_second() -> None:
    match = next(m for m in (finished("esli", s) for s in range(20)) if len(set(m.totals)) == 2)
    best = max(match.totals)
    assert match.placements() == [1 if match.totals[s] == best else 2 for s in range(4)]
    table = fake_table(match)
    lines = match_result_text(table, None, "en").splitlines()
    places = [int(line.split(".")[0]) for line in lines if re.match(r"\d\. ", line)]
    assert places == [1, 1, 2, 2]
    # the picture takes the same places (its "#n" labels)
    drawing = pictures.result_picture(table, "en")
    assert drawing is not None
    assert sorted(scoring.placements(drawing.view.totals, drawing.view.partnership)) == [1, 1, 2, 2]
    # level pairs share the first place; a free-for-all still counts the seats above
    assert scoring.placements([5, 5, 5, 5], partnership=True) == [1, 1, 1, 1]
    assert scoring.placements([30, 12, 30, -5]) == [1, 3, 1, 4]


TURN_LINES = re.compile(r"(to bid|names trump|to play|Your turn|You hold the contract|Waiting for)")


@pytest.mark.parametrize("phase", [Phase.AUCTION, Phase.TRUMP, Phase.PLAY])
def test_the_daily_hand_says_whose_turn_it_is_once(phase: Phase) -> None:
    match = Match(preset("standard", deals=1), seed=4)
    table = fake_table(match)
    table.game = replace(table.game, kind="daily")
    bots = [make_player("easy", s) for s in range(4)]
    seen = {"mine": False, "theirs": False}
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        if match.deal.phase is phase:
            text = hand_text(table, 0, "en")
            turn = [line for line in text.splitlines() if TURN_LINES.search(line)]
            assert len(turn) == 1, text
            seen["mine" if seat == 0 else "theirs"] = True
        match.apply(bots[seat].choose(match.observation(seat)), seat)
    assert seen["mine"] or seen["theirs"]
    over = hand_text(table, 0, "en")
    assert over.count("The match is over.") == 1 and not TURN_LINES.search(over)
