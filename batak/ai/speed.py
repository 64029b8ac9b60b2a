"""CPU time per decision of the computer levels, on a fixed set of positions.

``python -m batak decision-bench`` plays a few deals of each preset with the
normal level (fast, deterministic), keeps every decision a seat had with more
than one legal choice (bids, trump and cards), and times a level's ``choose``
on each of those observations in CPU time of this process (``time.process_time``,
not wall clock: another process's load does not count). The positions depend only
on ``--seed`` and ``--deals``, so a run before and after a change times the same
decisions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from batak.ai.bots import NormalPlayer
from batak.deal import Deal, Observation, Phase
from batak.rules import Rules


@dataclass(frozen=True, slots=True)
class DecisionTimes:
    """CPU seconds per decision of one level on one preset."""

    level: str
    preset: str
    seconds: list[float]
    cut: int

    def percentile(self, q: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def decision_positions(rules: Rules, deals: int, seed: int) -> list[Observation]:
    """Every observation with more than one legal action in ``deals`` deals that four
    normal players play from ``seed``."""
    rng = random.Random(seed)
    players = [NormalPlayer(seed * 4 + s) for s in range(4)]
    out: list[Observation] = []
    for index in range(deals):
        deal = Deal.from_seed(rules, rng.randrange(1 << 62), index % 4)
        while deal.phase is not Phase.DONE:
            seat = deal.to_act
            obs = deal.observation(seat)
            if len(obs.legal) > 1:
                out.append(obs)
            deal.apply(players[seat].choose(obs))
    return out


def time_decisions(
    level: str, preset_name: str, positions: Sequence[Observation], seed: int = 0
) -> DecisionTimes:
    """CPU seconds of ``level``'s decision on each position (a fresh player per
    position, so that no state carries over), and how many the guard cut short."""
    from batak.ai import make_player

    seconds: list[float] = []
    cut = 0
    for obs in positions:
        player = make_player(level, seed)
        start = time.process_time()
        player.choose(obs)
        seconds.append(time.process_time() - start)
        cut += int(getattr(player, "decisions_cut", 0))
    return DecisionTimes(level, preset_name, seconds, cut)


def print_bench(levels: Sequence[str], presets: Sequence[str], deals: int, seed: int) -> None:
    """Time each level on each preset's positions and print p50 / p95 / max (ms)."""
    import os

    from batak.rules import preset

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"CPU time per decision (time.process_time), {deals} deal(s) per preset played by "
        f"normal, seed {seed}; decisions with more than one legal choice (load average {load})"
    )
    print(f"{'level':<8} {'preset':<9} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name in presets:
        positions = decision_positions(preset(name), deals, seed)
        for level in levels:
            res = time_decisions(level, name, positions, seed)
            print(
                f"{level:<8} {name:<9} {len(res.seconds):>9} {1000 * res.percentile(0.5):>8.1f} "
                f"{1000 * res.percentile(0.95):>8.1f} {1000 * max(res.seconds):>8.1f}"
                + (f"  ({res.cut} cut by the guard)" if res.cut else "")
            )


__all__ = ["DecisionTimes", "decision_positions", "print_bench", "time_decisions"]
