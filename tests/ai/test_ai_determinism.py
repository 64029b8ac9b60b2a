"""The same seed gives the same decisions (the daily match is the same for everyone)."""

from __future__ import annotations

from batak.ai.bots import HardPlayer
from batak.deal import Action, Deal, Phase
from batak.players import make_player
from batak.rules import preset


def _play(kind: str, seed: int, rules_name: str) -> list[Action]:
    rules = preset(rules_name)
    deal = Deal.from_seed(rules, 77, 1)
    players = [make_player(kind, seed + s, budget=0.01) for s in range(4)]
    actions = []
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        action = players[seat].choose(deal.observation(seat))
        actions.append(action)
        deal.apply(action)
    return actions


def test_normal_is_deterministic() -> None:
    assert _play("normal", 5, "classic") == _play("normal", 5, "classic")


def test_hard_is_deterministic() -> None:
    assert _play("hard", 5, "standard") == _play("hard", 5, "standard")


def test_hard_decision_depends_only_on_seed_and_observation() -> None:
    rules = preset("standard")
    deal = Deal.from_seed(rules, 5, 2)
    sitting = [make_player("hard", 9, budget=0.005) for _ in range(4)]
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        obs = deal.observation(seat)
        action = sitting[seat].choose(obs)
        # A player taking the seat over now decides the same.
        assert make_player("hard", 9, budget=0.005).choose(obs) == action
        deal.apply(action)


def _still() -> float:
    """A clock that stands still: the wall-clock guard never cuts a decision short, so
    a choice depends on the seed and the observation alone, however busy the machine."""
    return 0.0


def test_hard_with_a_still_clock_decides_by_seed_and_observation() -> None:
    rules = preset("standard")
    deal = Deal.from_seed(rules, 31, 0)
    players = [make_player("normal", s) for s in range(4)]
    bid_obs = deal.observation(deal.to_act)
    while deal.phase is not Phase.PLAY or len(deal.trick) != 1:
        seat = deal.to_act
        deal.apply(players[seat].choose(deal.observation(seat)))
    card_obs = deal.observation(deal.to_act)
    for obs in (bid_obs, card_obs):
        first, second = HardPlayer(4, clock=_still), HardPlayer(4, clock=_still)
        assert first.choose(obs) == second.choose(obs)
        assert first.choose(obs) in obs.legal
    # the retired expert level's name seats hard (stored tables may still name it)
    retired = make_player("expert", 4)
    assert isinstance(retired, HardPlayer) and retired.name == "hard"
