"""Hints: an action and a sentence with numbers for every kind of decision."""

from __future__ import annotations

import re

import pytest

from batak.ai.bots import HardPlayer
from batak.ai.hints import HINT_KINDS, Hint, format_hint_en, hint, hint_text
from batak.deal import Bid, ChooseTrump, Deal, Pass, Phase, Play
from batak.players import make_player
from batak.rules import preset

BUDGET = 0.004


def _walk(rules_name: str, seed: int, every: int = 1) -> list[tuple[Hint, object]]:
    rules = preset(rules_name)
    deal = Deal.from_seed(rules, seed, seed % 4)
    players = [make_player("normal", s) for s in range(4)]
    out = []
    step = 0
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        obs = deal.observation(seat)
        if deal.phase is not Phase.PLAY or step % every == 0:
            h = hint(obs, budget=BUDGET, seed=seed)
            assert h.action in obs.legal
            assert h.kind in HINT_KINDS
            out.append((h, obs))
        deal.apply(players[seat].choose(obs))
        step += 1
    return out


@pytest.mark.parametrize("rules_name", ["standard", "esli", "kanli", "koz-maca", "classic"])
def test_every_decision_gets_a_reason(rules_name: str) -> None:
    kinds = set()
    for seed in range(2):
        for h, _obs in _walk(rules_name, seed, every=5):
            text = format_hint_en(h)
            assert text and text[-1] in ".)"
            assert 1 <= text.count(". ") + 1 <= 3
            if h.kind != "only":
                assert re.search(r"\d", text), text
            kinds.add(h.kind)
    assert kinds & {"bid", "bid-forced", "bid-blind"} or kinds & {"pass", "pass-blind"}
    assert kinds & {"win", "duck", "discard"}
    assert kinds & {"lead", "cash", "draw-trumps"}


def test_trump_hint_and_bid_hint_wording() -> None:
    hints = [h for seed in range(3) for h, _ in _walk("standard", seed, every=99)]
    trump = [h for h in hints if isinstance(h.action, ChooseTrump)]
    assert trump and all("as trump: about" in format_hint_en(h) for h in trump)
    bids = [h for h in hints if isinstance(h.action, Bid)]
    assert bids and all("makes" in format_hint_en(h) for h in bids)
    passes = [h for h in hints if isinstance(h.action, Pass)]
    assert passes and all(format_hint_en(h).startswith("Pass") for h in passes)


def test_hint_is_the_hard_levels_choice() -> None:
    rules = preset("standard")
    deal = Deal.from_seed(rules, 21, 0)
    players = [make_player("normal", s) for s in range(4)]
    checked = 0
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        obs = deal.observation(seat)
        if deal.phase is Phase.PLAY and len(obs.legal) > 1 and checked < 6:
            action, text = hint_text(obs, budget=BUDGET, seed=4)
            assert action == HardPlayer(4, budget=BUDGET).choose(obs)
            assert isinstance(action, Play) and text
            checked += 1
        deal.apply(players[seat].choose(obs))
    assert checked == 6


def test_hint_refuses_when_not_your_turn() -> None:
    deal = Deal.from_seed(preset("standard"), 1, 0)
    with pytest.raises(ValueError):
        hint(deal.observation((deal.to_act + 1) % 4))
