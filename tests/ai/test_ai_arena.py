"""The duplicate-deal arena and its command."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from batak.ai.arena import (
    ScoresError,
    format_paired,
    format_result,
    paired,
    play_duplicate,
    read_scores,
    run_arena,
    scores_text,
)
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
    assert res.mean_diff == 0.0 and res.standing == 0.0
    assert res.deals == 3 and res.seat_deals == 12


def test_standing_is_the_score_above_the_tables_mean() -> None:
    rules = preset("esli")
    res = run_arena(rules, "normal", "easy", 6, seed=1)
    per_deal = []
    for index, d in enumerate(res.deal_scores):
        r = play_duplicate(rules, 1, index, "normal", "easy", None, False)
        assert d.totals == tuple(sum(t.scores) for t in r.candidate)
        # The candidate's lead over the baseline in its seat, each side measured against
        # the mean of its own table; in partnerships that is half the team's margin.
        per_seat = []
        for k, t in enumerate(r.candidate):
            them = t.scores[(k + 1) % 4]
            assert t.scores[k] - sum(t.scores) / 4 == (t.scores[k] - them) / 2
            b = r.baseline.scores
            per_seat.append((t.scores[k] - sum(t.scores) / 4) - (b[k] - sum(b) / 4))
        assert d.standing == pytest.approx(sum(per_seat) / 4)
        per_deal.append(sum(per_seat) / 4)
    assert res.standing == pytest.approx(sum(per_deal) / len(per_deal))
    # Setting contracts adds nothing to a defender's own score, only to its standing.
    assert res.standing != res.mean_diff
    assert "mean standing per seat-deal" in format_result(res)


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


def _arena(*extra: str) -> list[str]:
    return ["arena", "--baseline", "random", "--deals", "3", "--preset", "classic", *extra]


def test_scores_round_trip_and_pair_deal_by_deal() -> None:
    rules = preset("classic")
    easy = run_arena(rules, "easy", "random", 4, seed=3)
    normal = run_arena(rules, "normal", "random", 4, seed=3)
    back = read_scores(scores_text(easy))
    assert back.deals == easy.deal_scores and back.candidate == "easy" and back.seed == 3
    assert all(d.totals is not None for d in back.deals)
    assert [d.diff for d in easy.deal_scores] and easy.mean_diff == pytest.approx(
        sum(d.diff for d in easy.deal_scores) / len(easy.deal_scores)
    )
    itself = paired(easy, back)
    assert (itself.deals, itself.same, itself.mean_diff) == (4, 4, 0.0)
    p = paired(normal, back)
    assert p.deals == 4
    assert p.mean_diff == pytest.approx(normal.mean_diff - easy.mean_diff)
    assert (p.a_diff, p.b_diff) == (pytest.approx(normal.mean_diff), pytest.approx(easy.mean_diff))
    assert p.standing is not None
    assert p.standing[0] == pytest.approx(normal.standing - easy.standing)
    assert "standing (score above the table's mean), normal minus easy" in format_paired(
        p, "normal", "easy"
    )
    # A file written before the tables' totals were kept still pairs, on the scores alone.
    old = replace(back, deals=[replace(d, totals=None) for d in back.deals])
    assert read_scores(scores_text(replace(easy, deal_scores=old.deals))).deals == old.deals
    q0 = paired(normal, old)
    assert q0.standing is None and q0.mean_diff == p.mean_diff
    assert "standing" not in format_paired(q0, "normal", "easy")
    other_seed = read_scores(scores_text(run_arena(rules, "easy", "random", 2, seed=4)))
    with pytest.raises(ScoresError, match="seed"):
        paired(normal, other_seed)
    # A deal whose baseline table scored otherwise (a guard cut a decision short) is left out.
    d0 = back.deals[0]
    moved = replace(d0, baseline=(d0.baseline[0] + 1, *d0.baseline[1:]))
    q = paired(normal, replace(back, deals=[moved, *back.deals[1:]]))
    assert (q.deals, q.left_out) == (3, 1)
    assert "1 left out" in format_paired(q, "normal", "easy")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty"),
        ("{nope\n", "line 1: not JSON"),
        ('{"format": "something-else"}\n', "not an arena scores file"),
        (
            '{"format": "batak-arena-scores/1", "candidate": "easy", "baseline": "random", '
            '"preset": "classic", "seed": 1}\n',
            "'play_only' missing",
        ),
        (
            '{"format": "batak-arena-scores/1", "candidate": "easy", "baseline": "random", '
            '"preset": "classic", "seed": 1, "play_only": false}\n'
            '{"deal": 0, "candidate": [1, 2, 3], "baseline": [1, 2, 3, 4]}\n',
            "line 2, candidate: expected a list of four",
        ),
        (
            '{"format": "batak-arena-scores/1", "candidate": "easy", "baseline": "random", '
            '"preset": "classic", "seed": 1, "play_only": false}\n'
            '{"deal": 0, "candidate": [1, 2, 3, 4], "baseline": [1, 2, 3, 4]}\n'
            '{"deal": 0, "candidate": [1, 2, 3, 4], "baseline": [1, 2, 3, 4]}\n',
            "line 3: deal 0 appears twice",
        ),
        (
            '{"format": "batak-arena-scores/1", "candidate": "easy", "baseline": "random", '
            '"preset": "classic", "seed": 1, "play_only": false}\n'
            '{"deal": 0, "candidate": [1, 2, 3, 4], "baseline": [1, 2, 3, 4], "totals": 7}\n',
            "line 2, totals: expected a list of four",
        ),
        (
            '{"format": "batak-arena-scores/1", "candidate": "easy", "baseline": "random", '
            '"preset": "classic", "seed": 1, "play_only": false}\n'
            '{"deal": 0, "candidate": [1, 2, 3, 4], "baseline": [1, 2, 3, 4], "x": 1}\n',
            "line 2: expected deal, candidate, baseline",
        ),
    ],
)
def test_a_damaged_scores_file_is_refused_naming_the_line(text: str, says: str) -> None:
    with pytest.raises(ScoresError, match=says):
        read_scores(text)


def test_the_command_writes_scores_and_pairs_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "easy.jsonl"
    assert main(_arena("--candidate", "easy", "--seed", "2", "--scores", str(first))) == 0
    assert read_scores(first.read_text(encoding="utf-8")).candidate == "easy"
    capsys.readouterr()
    assert main(_arena("--candidate", "normal", "--seed", "2", "--paired", str(first))) == 0
    out = capsys.readouterr().out
    assert "paired, normal minus easy:" in out and "over 3 deals" in out
    # A run on other deals is refused before it plays, and says why.
    assert main(_arena("--candidate", "normal", "--seed", "9", "--paired", str(first))) == 2
    err = capsys.readouterr().err
    assert "seed 2" in err and "same baseline on the same preset, seed and mode" in err
    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json\n", encoding="utf-8")
    assert main(_arena("--candidate", "normal", "--paired", str(broken))) == 2
    assert "line 1: not JSON" in capsys.readouterr().err
    assert main(_arena("--candidate", "normal", "--paired", str(tmp_path / "missing"))) == 2
    assert "cannot use" in capsys.readouterr().err


def test_the_arena_seats_the_experimental_players_by_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from batak.ai.arena import _make, play_table
    from batak.ai.experimental import EXPERIMENTS, make_experimental
    from batak.deal import Deal

    rules = preset("esli")
    for kind, player in EXPERIMENTS.items():
        seated = _make(kind, 3, 0.01, Deal.from_seed(rules, 11, 1), 0)
        assert isinstance(seated, player) and type(seated) is player
        assert seated.name == kind and seated.budget == 0.01
        table = play_table(rules, 11, 1, [kind, "normal", "normal", "normal"], 3, 0.01, 0)
        assert sum(table.tricks_won) == 13 and table.times
    with pytest.raises(ValueError, match="budget"):
        make_experimental("hard+play-fit", budget=0)
    with pytest.raises(SystemExit):
        main(["arena", "--candidate", "hard+play-fit@HEAD", "--deals", "1"])
    assert "from this checkout only" in capsys.readouterr().err
