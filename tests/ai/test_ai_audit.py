"""The blunder audit (``python -m batak audit``): verdicts, categories, the auction check,
determinism and the command."""

from __future__ import annotations

import json

import pytest

from batak.ai.audit import (
    AuditRow,
    audit_deal,
    classify,
    format_audit,
    judge_auction,
    judge_card,
    run_audit,
    side_mates,
)
from batak.cards import Suit, parse_card, parse_cards
from batak.cli import main
from batak.deal import BIDS, PASS, TRUMPS, Deal, Observation
from batak.rules import preset


def _position(
    name: str, hands: list[list[str]], leader: int, trick: list[str], holder: int = 0
) -> Deal:
    cards = [parse_cards(h) for h in hands]
    return Deal.position(
        preset(name),
        cards,
        trump=Suit.H,
        holder=holder,
        bid=7,
        leader=leader,
        trick=[parse_card(c) for c in trick],
    )


def test_a_sure_trick_left_uncashed_is_a_clear_blunder() -> None:
    # Seat 0 leads with the master AS and a small diamond; every other hand holds only
    # diamonds: the ace wins now, and after 2D it never gets the lead back.
    deal = _position("standard", [["AS", "2D"], ["KD", "QD"], ["JD", "TD"], ["9D", "8D"]], 0, [])
    obs = deal.observation(0)
    bad = judge_card(obs, parse_card("2D"), "t")
    assert bad is not None and bad.blunder and bad.mistake
    assert bad.category == "uncashed" and bad.costly == bad.samples == 20
    assert bad.best == parse_card("AS")
    good = judge_card(obs, parse_card("AS"), "t")
    assert good is not None and not good.blunder and good.category is None
    assert good.samples == 11  # settled early: the ace was never worse


def _partner_ruff_position() -> Observation:
    # Esli (0+2 against 1+3), hearts trump: seat 0 led the master AS, seat 1 followed;
    # seat 2 holds no spade and one trump, so the rules make it ruff its partner's ace.
    deal = _position(
        "esli",
        [["KC", "QC"], ["JC", "TC"], ["2H", "3D", "4D"], ["9C", "8C", "7C"]],
        0,
        ["AS", "3S"],
        holder=1,
    )
    return deal.observation(2)


def test_a_forced_ruff_of_the_partners_winner_is_not_judged() -> None:
    obs = _partner_ruff_position()
    assert [a.card for a in obs.legal] == [parse_card("2H")]  # type: ignore[union-attr]
    assert judge_card(obs, parse_card("2H"), "t") is None


def test_ruffing_or_overtaking_the_partners_winner_is_a_category_only_when_not_forced() -> None:
    obs = _partner_ruff_position()
    two_h, three_d = parse_card("2H"), parse_card("3D")
    samples: list[list[int]] = []  # no sampled deal is needed to tell these apart
    # Were a discard legal here, trumping the partner's sure winner would be unforced.
    unforced = 1 << two_h | 1 << three_d
    assert classify(obs, two_h, three_d, unforced, samples) == "ruffed_partner"
    # The rules allow only the trump: forced, never put in that category.
    assert classify(obs, two_h, three_d, 1 << two_h, samples) != "ruffed_partner"
    # Overtaking: the partner's KS is winning, seat 2 could follow with a low spade.
    deal = _position(
        "esli",
        [["KC", "QC"], ["JC", "TC"], ["AS", "2S", "4D"], ["9C", "8C", "7C"]],
        0,
        ["KS", "3S"],
        holder=1,
    )
    over = deal.observation(2)
    ace, two_s = parse_card("AS"), parse_card("2S")
    assert classify(over, ace, two_s, 1 << ace | 1 << two_s, samples) == "overtook_partner"
    assert classify(over, ace, two_s, 1 << ace, samples) != "overtook_partner"


def test_side_mates_follow_the_solvers_sides() -> None:
    assert side_mates(preset("esli"), 0, 1) == {2}
    assert side_mates(preset("standard"), 0, 1) == {2, 3}  # fellow defenders
    assert side_mates(preset("standard"), 1, 1) == set()  # a lone holder


def test_a_hopeless_contract_is_an_overbid_and_a_forced_one_is_left_out() -> None:
    rules = preset("standard")
    deal = Deal.from_seed(rules, 7, 0)
    deal.apply(BIDS[12])  # seat 1 bids twelve of the thirteen tricks
    for _ in range(3):
        deal.apply(PASS)
    deal.apply(TRUMPS[0])
    verdict = judge_auction(deal)
    assert verdict.bid == 12 and verdict.par is not None and verdict.par <= 10
    assert verdict.overbid and not verdict.forced
    forced = Deal.from_seed(rules, 7, 0)
    for _ in range(4):
        forced.apply(PASS)
    forced.apply(TRUMPS[0])
    check = judge_auction(forced)
    assert check.forced and not check.overbid


def _figures(row: AuditRow) -> dict[str, object]:
    out = row.as_dict()
    for key in ("play_seconds", "audit_seconds", "decisions_per_second"):
        out.pop(key)
    return out


def test_the_same_seed_gives_the_same_table() -> None:
    first = run_audit(["normal"], ["esli"], 2, 5)
    second = run_audit(["normal"], ["esli"], 2, 5)
    assert [_figures(r) for r in first] == [_figures(r) for r in second]
    row = first[0]
    assert row.deals == 2 and row.decisions > 20 and row.forced > 0
    assert row.samples >= 3 * row.decisions  # each decision sampled until settled
    other = run_audit(["normal"], ["esli"], 2, 6)[0]
    assert _figures(other) != _figures(row)


def test_a_random_player_blunders_more_than_the_normal_one() -> None:
    """The audit tells levels apart: the random player's cards cost tricks in most of
    the sampled deals far more often than the normal level's."""
    rnd, normal = AuditRow("random", "standard"), AuditRow("normal", "standard")
    rules = preset("standard")
    for index in range(3):
        audit_deal(rnd, rules, 1, index)
        audit_deal(normal, rules, 1, index)
    assert rnd.mistakes > normal.mistakes
    assert rnd.overbids > normal.overbids


def test_the_audit_command_prints_one_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--levels", "easy", "--presets", "esli", "--deals", "1"]) == 0
    text = capsys.readouterr().out
    assert "blunder audit" in text and "easy   esli" in text and "dec/s" in text
    assert main(["audit", "--levels", "easy", "--presets", "esli", "--deals", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["level"] == "easy" and rows[0]["deals"] == 1
    assert set(rows[0]["categories"]) >= {"ruffed_partner", "uncashed", "other"}
    assert main(["audit", "--levels", "godlike"]) == 2
    assert main(["audit", "--deals", "0"]) == 2


def test_the_table_reads_per_100_decisions() -> None:
    row = AuditRow("hard", "esli", deals=2, decisions=50, blunders=2, mistakes=5)
    row.categories["uncashed"] = 2
    row.auctions, row.overbids = 2, 1
    line = format_audit([row], 20).splitlines()[2]
    assert line.split()[:7] == ["hard", "esli", "2", "50", "2", "4.00", "10.00"]
    assert "50.0" in line  # one overbid in two auctions
