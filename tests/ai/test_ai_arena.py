"""The duplicate-deal arena and its command."""

from __future__ import annotations

import pytest

from batak.ai.arena import format_result, play_duplicate, run_arena
from batak.cli import main
from batak.rules import preset


def test_duplicate_tables_share_the_cards_and_play_only_fixes_the_auction() -> None:
    rules = preset("standard")
    r = play_duplicate(rules, 3, 0, "normal", "easy", None, True)
    assert len(r.candidate) == 4
    for table in r.candidate:
        assert (table.holder, table.bid) == (r.baseline.holder, r.baseline.bid)
        assert sum(table.tricks_won) == 13


def test_identical_players_tie_exactly() -> None:
    res = run_arena(preset("classic"), "easy", "easy", 3, seed=1)
    assert res.mean_diff == 0.0
    assert res.deals == 3 and res.seat_deals == 12


def test_arena_figures() -> None:
    res = run_arena(preset("esli"), "normal", "random", 4, seed=2)
    assert res.cand_holds >= 0 and res.cand_made <= res.cand_holds
    assert res.cand_def_zero <= res.cand_def
    assert res.cand_times and res.base_times
    text = format_result(res)
    assert "95% CI" in text and "p95" in text and "contract made as holder" in text


def test_arena_command(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "arena",
            "--candidate",
            "easy",
            "--baseline",
            "random",
            "--deals",
            "2",
            "--preset",
            "standard",
            "--seed",
            "5",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "mean score diff per seat-deal" in out
    code = main(
        [
            "arena",
            "--candidate",
            "hard",
            "--baseline",
            "easy",
            "--deals",
            "1",
            "--budget",
            "0.003",
            "--play-only",
            "--jobs",
            "1",
        ]
    )
    assert code == 0
    assert "play-only" in capsys.readouterr().out
