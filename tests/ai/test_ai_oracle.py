"""The arena's oracle: the seat that sees every hand (a yardstick, never a player)."""

from __future__ import annotations

import pytest

from batak.ai.arena import play_duplicate, play_table, run_arena
from batak.ai.oracle import ORACLE, Oracle
from batak.cli import main
from batak.deal import Deal, Phase, Play
from batak.players import make_player
from batak.rules import preset
from batak.solver import card_values, deal_position


def test_no_player_door_builds_an_oracle() -> None:
    with pytest.raises(ValueError, match="oracle"):
        make_player(ORACLE)


def test_it_answers_only_for_its_own_seat() -> None:
    deal = Deal.from_seed(preset("standard"), 5, 0)
    oracle = Oracle(deal, 2)
    with pytest.raises(ValueError, match="another seat"):
        oracle.choose(deal.observation(deal.to_act))


@pytest.mark.parametrize("name", ["standard", "esli", "koz-maca"])
def test_every_card_is_a_double_dummy_best_card(name: str) -> None:
    rules = preset(name)
    for seed in range(3):
        deal = Deal.from_seed(rules, 100 + seed, seed % 4)
        oracle_seat = seed % 4
        players = [make_player("normal", s) for s in range(4)]
        oracle = Oracle(deal, oracle_seat)
        checked = 0
        while deal.phase is not Phase.DONE:
            seat = deal.to_act
            obs = deal.observation(seat)
            if seat != oracle_seat:
                deal.apply(players[seat].choose(obs))
                continue
            action = oracle.choose(obs)
            assert action in obs.legal
            if isinstance(action, Play) and len(obs.legal) > 1:
                pos = deal_position(deal)
                values = card_values(pos)
                best = (max if pos.on_side(seat) else min)(values.values())
                assert values[action.card] == best
                checked += 1
            deal.apply(action)
        assert checked > 0


def test_alone_it_never_fails_a_contract_it_bid() -> None:
    # Solo, a seat that plays double-dummy takes at least the double-dummy count
    # whatever the others do; the oracle bids only what that count makes.
    rules = preset("standard")
    held = 0
    for index in range(12):
        r = play_duplicate(rules, 7, index, ORACLE, "normal", None, False)
        for seat, table in enumerate(r.candidate):
            if table.holder == seat and not table.forced:
                held += 1
                assert table.made, f"deal {index}: the oracle in seat {seat} went down"
    assert held >= 6


def test_the_arena_seats_it_and_the_command_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    rules = preset("esli")
    table = play_table(rules, 11, 1, [ORACLE, "random", "random", "random"], 3, None, 0)
    assert sum(table.tricks_won) == 13 and table.times
    res = run_arena(rules, ORACLE, "random", 3, seed=4)
    assert res.mean_diff > 0 and res.standing > 0
    assert main(["arena", "--candidate", "oracle", "--baseline", "easy", "--deals", "1"]) == 0
    assert "arena: oracle vs easy" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["arena", "--candidate", "seer", "--deals", "1"])
    err = capsys.readouterr().err
    assert "'seer' is not a level" in err and "LEVEL@REV or oracle" in err
