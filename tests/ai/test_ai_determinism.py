"""The same seed gives the same decisions (the daily match is the same for everyone)."""

from __future__ import annotations

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
