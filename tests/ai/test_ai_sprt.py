"""The sequential probability ratio test of the arena (:mod:`batak.ai.sprt`): pure math on
synthetic streams, and its use by ``python -m batak arena --sprt``."""

from __future__ import annotations

import math
import random

import pytest

from batak.ai.arena import deal_standing, run_arena
from batak.ai.sprt import H0, H1, MIN_SAMPLES, Sprt, SprtSpec, run_stream
from batak.cli import main
from batak.rules import preset


def _stream(rng: random.Random, mean: float, sd: float, n: int = 2000) -> list[float]:
    return [rng.gauss(mean, sd) for _ in range(n)]


def test_wald_bounds() -> None:
    spec = SprtSpec()
    assert spec.upper == pytest.approx(math.log(0.95 / 0.05))
    assert spec.lower == pytest.approx(math.log(0.05 / 0.95))
    other = SprtSpec(alpha=0.01, beta=0.1)
    assert other.upper == pytest.approx(math.log(0.9 / 0.01))
    assert other.lower == pytest.approx(math.log(0.1 / 0.99))


def test_llr_is_the_normal_likelihood_ratio_with_the_running_variance() -> None:
    test = Sprt(SprtSpec(0.0, 1.0))
    values = [1.0, 3.0, -1.0, 2.0, 0.5]
    for v in values:
        test.add(v)
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    assert test.mean == pytest.approx(mean) and test.variance == pytest.approx(var)
    # log N(x; m1, var) - log N(x; m0, var), summed over the values
    llr = sum(((v - 0.0) ** 2 - (v - 1.0) ** 2) / (2 * var) for v in values)
    assert test.llr == pytest.approx(llr)
    assert test.decision is None  # fewer than min_samples values


def test_a_clearly_positive_stream_accepts_h1_and_a_zero_stream_h0() -> None:
    rng = random.Random(1)
    spec = SprtSpec(0.0, 0.5)
    up = run_stream(spec, _stream(rng, 2.0, 3.0))
    assert up.decision == H1 and up.llr >= spec.upper and up.mean > 0.5
    assert "better" in up.verdict() and "not better" not in up.verdict()
    flat = run_stream(spec, _stream(rng, 0.0, 3.0))
    assert flat.decision == H0 and flat.llr <= spec.lower
    assert "not better" in flat.verdict()
    # An exactly zero stream (identical players): no variance, H0 at once.
    same = run_stream(spec, [0.0] * 100)
    assert same.decision == H0 and same.n == spec.min_samples


def test_no_decision_before_min_samples_and_inconclusive_at_the_cap() -> None:
    spec = SprtSpec(0.0, 0.5, min_samples=16)
    huge = run_stream(spec, [10.0, 11.0] * 50)
    assert huge.decision == H1 and huge.n == 16
    rng = random.Random(2)
    cut = run_stream(spec, _stream(rng, 0.25, 5.0), max_samples=20)
    assert cut.decision is None and cut.n == 20
    assert cut.verdict().startswith("inconclusive")
    assert "after 20 deals" in cut.report()


def test_non_inferiority() -> None:
    spec = SprtSpec.non_inferior(1.0)
    assert (spec.m0, spec.m1) == (-1.0, 0.0)
    rng = random.Random(3)
    level = run_stream(spec, _stream(rng, 0.0, 2.0))
    assert level.decision == H1 and "not worse" in level.verdict()
    worse = run_stream(spec, _stream(rng, -1.5, 2.0))
    assert worse.decision == H0 and "worse by 1 or more" in worse.verdict()


@pytest.mark.parametrize(
    "bad",
    [
        {"m0": 1.0, "m1": 0.5},
        {"alpha": 0.0},
        {"beta": 0.7},
        {"min_samples": 1},
    ],
)
def test_bad_specs_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        SprtSpec(**bad)  # type: ignore[arg-type]


def test_error_rates_are_near_alpha_and_beta() -> None:
    """Over many simulated streams, H1 is accepted about ``alpha`` of the time when the
    mean is exactly ``m0``, and H0 about ``beta`` of the time when it is ``m1``."""
    spec = SprtSpec(0.0, 0.5, alpha=0.05, beta=0.05, min_samples=16)  # Wald's test
    rng = random.Random(4)
    runs = 1000

    def rate(mean: float, wrong: str) -> float:
        errors = 0
        for _ in range(runs):
            test = Sprt(spec)
            while test.add(rng.gauss(mean, 1.0)) is None:
                pass
            errors += test.decision == wrong
        return errors / runs

    false_h1 = rate(spec.m0, H1)
    false_h0 = rate(spec.m1, H0)
    # 0.05 give or take three binomial standard errors (0.007 each over 1000 runs)
    assert 0.025 <= false_h1 <= 0.08
    assert 0.025 <= false_h0 <= 0.08
    stricter = SprtSpec(0.0, 0.5, alpha=0.01, beta=0.2, min_samples=16)
    spec = stricter
    assert rate(spec.m0, H1) <= 0.03
    assert 0.1 <= rate(spec.m1, H0) <= 0.27


def test_the_arena_stops_at_the_first_decision() -> None:
    rules = preset("standard")
    seen: list[int] = []
    test = Sprt(SprtSpec(0.0, 2.0, min_samples=4))

    def stop(r: object) -> bool:
        from batak.ai.arena import DealResult

        assert isinstance(r, DealResult)
        seen.append(r.index)
        return test.add(deal_standing(r)) is not None

    res = run_arena(rules, "normal", "random", 30, 0, stop=stop)
    assert test.decision == H1 and seen == list(range(len(seen))) and len(seen) < 30
    assert res.deals == len(seen)
    assert test.mean == pytest.approx(res.standing)
    # in deal order with worker processes too, and the same stopping point
    again = Sprt(SprtSpec(0.0, 2.0, min_samples=4))
    res2 = run_arena(
        rules,
        "normal",
        "random",
        30,
        0,
        jobs=2,
        stop=lambda r: again.add(deal_standing(r)) is not None,
    )
    assert res2.deals == res.deals and again.llr == pytest.approx(test.llr)


def test_the_arena_command_prints_the_sprt(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--candidate", "normal", "--baseline", "random", "--sprt"]
    assert main([*args, "--sprt-m1", "2", "--max-deals", "40", "--sprt-min-deals", "16"]) == 0
    out = capsys.readouterr().out
    assert "SPRT on the standing per deal: H1 accepted: better" in out
    assert "bounds -2.94 .. +2.94" in out and "alpha 0.05" in out
    assert main([*args, "--non-inferiority", "1", "--max-deals", "3"]) == 0
    assert "inconclusive" in capsys.readouterr().out
    assert main([*args, "--sprt-m0", "1", "--sprt-m1", "0"]) == 2
    assert main([*args, "--sprt-min-deals", "1"]) == 2  # the variance needs two
    assert main(["arena", "--non-inferiority", "1"]) == 2


def test_a_quiet_start_does_not_decide_before_the_minimum() -> None:
    """Heavy-tailed standings: 60 level deals, then the spread shows. With the default
    minimum the test waits for it; with 16 deals it would have decided on the quiet start."""
    rng = random.Random(5)
    quiet = [rng.gauss(0.0, 0.2) for _ in range(60)]
    loud = [rng.choice((-8.0, 8.0)) if rng.random() < 0.3 else 0.0 for _ in range(200)]
    early = run_stream(SprtSpec.non_inferior(0.5, min_samples=16), quiet + loud)
    assert early.decision == H1 and early.n < 60  # "not worse", on almost no evidence
    careful = run_stream(SprtSpec.non_inferior(0.5), quiet + loud)
    assert careful.n > MIN_SAMPLES == 100  # the quiet start alone decided nothing
