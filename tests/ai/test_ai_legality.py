"""Every level returns a legal action in thousands of positions under every preset."""

from __future__ import annotations

import random

import pytest

from batak.ai.sim import legal_mask
from batak.deal import Deal, Phase
from batak.players import PLAYER_KINDS, make_player
from batak.rules import PRESET_NAMES, preset


def test_player_kinds() -> None:
    assert PLAYER_KINDS == ("random", "easy", "normal", "hard")
    for kind in PLAYER_KINDS:
        assert make_player(kind, 1).name == kind


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_fuzz_legality(name: str) -> None:
    rules = preset(name)
    rng = random.Random(name)
    checked = 0
    hard = make_player("hard", 0, budget=0.002)
    for d in range(16):
        deal = Deal.from_seed(rules, rng.randrange(1 << 40), d % 4)
        drivers = [
            make_player(rng.choice(("random", "easy", "normal")), d * 4 + s) for s in range(4)
        ]
        checkers = [make_player("easy", d), make_player("normal", d)]
        step = 0
        while deal.phase is not Phase.DONE:
            seat = deal.to_act
            obs = deal.observation(seat)
            legal = set(obs.legal)
            for p in checkers:
                assert p.choose(obs) in legal
                checked += 1
            if step % 9 == 0:
                assert hard.choose(obs) in legal
                checked += 1
            if deal.phase is Phase.PLAY:
                assert deal.trump is not None
                mask = legal_mask(
                    deal.hands[seat],
                    deal.trick,
                    0x1FFF << (13 * deal.trump),
                    deal.trump_broken,
                    rules.overtake_when_trumped,
                )
                assert mask == deal.legal_card_mask()
            deal.apply(drivers[seat].choose(obs))
            step += 1
    assert checked > 1400


@pytest.mark.parametrize("level", ["godlike", "", "Easy", "rule-of-thumb", "hard "])
def test_unknown_levels_are_refused_by_name(level: str) -> None:
    with pytest.raises(ValueError) as info:
        make_player(level, 1)
    message = str(info.value)
    assert repr(level) in message
    assert "random, easy, normal, hard" in message


@pytest.mark.parametrize("budget", [0, -1.0, float("nan"), float("inf"), True])
def test_bad_budgets_are_refused(budget: float) -> None:
    with pytest.raises(ValueError, match="budget"):
        make_player("hard", 1, budget=budget)
