"""A sequential probability ratio test on a points scale, for the arena's A/B tests.

The arena plays duplicate deals; each deal gives one number, the candidate's
paired standing against the baseline (:attr:`batak.ai.arena.DealScores.standing`).
Instead of fixing the number of deals in advance, :class:`Sprt` looks at the
stream after every deal and stops as soon as the evidence is enough either way,
as chess engines test their patches (fishtest's "GSPRT"), here on points:

- H0: the true mean is at most ``m0`` (the change is not better than ``m0``);
- H1: the true mean is at least ``m1``.

With the deals' mean ``x`` and variance ``s2`` so far (``n`` deals), the
log-likelihood ratio of H1 against H0 under a normal model whose variance is
the running estimate is::

    LLR = n * (m1 - m0) * (2x - m0 - m1) / (2 * s2)

H1 is accepted when it reaches ``log((1 - beta) / alpha)``, H0 when it falls to
``log(beta / (1 - alpha))``: Wald's bounds, which keep the chance of accepting H1
when the mean is ``m0`` near ``alpha`` and of accepting H0 when it is ``m1``
near ``beta`` (a little below: the last deal overshoots the bound). No decision
is taken before :attr:`SprtSpec.min_samples` deals (:data:`MIN_SAMPLES` by default):
the variance is estimated from the deals themselves, and a deal's standing is
heavy-tailed (most duplicate deals of two similar players come out level, a few
differ by many points), so a few dozen deals can show a spread far below the true one
and cross a bound on almost no evidence. A test cut off at a maximum number of deals
before either bound is *inconclusive*.

The non-inferiority form ("not worse by more than ``margin``", for changes
that save time) is the same test with ``m0 = -margin`` and ``m1 = 0``
(:meth:`SprtSpec.non_inferiority`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

H1 = "H1"
H0 = "H0"

MIN_SAMPLES = 100
"""Deals before a test may decide. With 16, a standard test of hard against an older
hard accepted "not worse by 0.5" after 19 deals whose standing spread 0.9 points,
where 1,081 deals of the same pairing spread 5.2: the early variance was a fifth of the
truth, and the likelihood ratio five times too confident."""


@dataclass(frozen=True, slots=True)
class SprtSpec:
    """The hypotheses and error rates of one test."""

    m0: float = 0.0
    m1: float = 0.5
    alpha: float = 0.05
    """The chance of accepting H1 when the mean is ``m0`` (a false "better")."""
    beta: float = 0.05
    """The chance of accepting H0 when the mean is ``m1`` (a missed improvement)."""
    min_samples: int = MIN_SAMPLES
    non_inferiority: bool = False
    """Only changes the words of the verdict (see :meth:`non_inferiority`)."""

    def __post_init__(self) -> None:
        if not self.m1 > self.m0:
            raise ValueError(f"m1 ({self.m1}) must be above m0 ({self.m0})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"{name} must be in (0, 0.5), not {value}")
        if self.min_samples < 2:
            raise ValueError("min_samples must be at least 2")

    @classmethod
    def non_inferior(
        cls,
        margin: float,
        alpha: float = 0.05,
        beta: float = 0.05,
        min_samples: int = MIN_SAMPLES,
    ) -> SprtSpec:
        """H0: worse by ``margin`` or more; H1: not worse at all (mean >= 0)."""
        if not margin > 0:
            raise ValueError(f"the margin must be above 0, not {margin}")
        return cls(-margin, 0.0, alpha, beta, min_samples, non_inferiority=True)

    @property
    def lower(self) -> float:
        """The bound at which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The bound at which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)


class Sprt:
    """The running test: :meth:`add` one deal's value at a time."""

    __slots__ = ("_m2", "decision", "mean", "n", "spec")

    def __init__(self, spec: SprtSpec) -> None:
        self.spec = spec
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0
        self.decision: str | None = None
        """``"H1"``, ``"H0"`` or ``None`` (no bound crossed yet)."""

    def add(self, value: float) -> str | None:
        """Take one more deal's value; returns the decision (once taken it stays)."""
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (value - self.mean)
        if self.decision is None and self.n >= self.spec.min_samples:
            llr = self.llr
            if llr >= self.spec.upper:
                self.decision = H1
            elif llr <= self.spec.lower:
                self.decision = H0
        return self.decision

    @property
    def variance(self) -> float:
        """The values' sample variance (0 below two values)."""
        return self._m2 / (self.n - 1) if self.n > 1 else 0.0

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0 so far (see the module's notes)."""
        if self.n < 2:
            return 0.0
        m0, m1 = self.spec.m0, self.spec.m1
        var = max(self.variance, 1e-9 * (m1 - m0) ** 2)
        return self.n * (m1 - m0) * (2 * self.mean - m0 - m1) / (2 * var)

    @property
    def ci95(self) -> float:
        """The half-width of the mean's 95% interval (normal approximation; a
        sequential test's interval is only indicative)."""
        if self.n < 2:
            return math.inf
        return 1.96 * math.sqrt(self.variance / self.n)

    def verdict(self) -> str:
        """The decision in words."""
        spec = self.spec
        if self.decision == H1:
            if spec.non_inferiority:
                return f"H1 accepted: not worse (by less than {-spec.m0:g})"
            return f"H1 accepted: better (mean >= {spec.m1:g})"
        if self.decision == H0:
            if spec.non_inferiority:
                return f"H0 accepted: worse by {-spec.m0:g} or more"
            return f"H0 accepted: not better (mean <= {spec.m0:g})"
        return "inconclusive: no bound crossed"

    def report(self) -> str:
        """Three lines for the arena's output."""
        spec = self.spec
        return (
            f"SPRT on the standing per deal: {self.verdict()}\n"
            f"  H0 mean <= {spec.m0:+g}, H1 mean >= {spec.m1:+g}; LLR {self.llr:+.2f} "
            f"(bounds {spec.lower:+.2f} .. {spec.upper:+.2f}) after {self.n} deals\n"
            f"  mean {self.mean:+.3f} (95% CI {self.mean - self.ci95:+.3f} .. "
            f"{self.mean + self.ci95:+.3f}); error rates: alpha {spec.alpha:g} "
            f"(H1 accepted at mean {spec.m0:+g}), beta {spec.beta:g} "
            f"(H0 accepted at mean {spec.m1:+g})"
        )


def run_stream(spec: SprtSpec, values: list[float], max_samples: int | None = None) -> Sprt:
    """The test over ``values`` in order, stopped at the first decision or at
    ``max_samples`` (for tests and simulations)."""
    test = Sprt(spec)
    for k, v in enumerate(values):
        if max_samples is not None and k >= max_samples:
            break
        if test.add(v) is not None:
            break
    return test


__all__ = ["H0", "H1", "Sprt", "SprtSpec", "run_stream"]
