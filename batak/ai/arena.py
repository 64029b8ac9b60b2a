"""Duplicate-deal arena: does one level beat another?

Each deal is played by an all-baseline table and then four more times with
the candidate in each seat in turn (the other three seats baseline players
with the same seeds), so the cards are the same and luck cancels. The figure
of merit is the candidate's score minus the baseline's score in the same seat
of the same deal, averaged over seat-deals, with a 95% confidence interval
computed over deals (the four seats of a deal are not independent).

The kind ``oracle`` (:class:`batak.ai.oracle.Oracle`, arena only) sees all four
hands and plays double-dummy: the ceiling a fair player measures itself against.
The experimental players of :mod:`batak.ai.experimental` (``hard+play-fit``, ...)
are seated by their names too.

In play-only mode the auction and trump of the all-baseline table are
replayed at every table, so only card play differs.

The score a seat takes home is not all that decides a match: the match goes to the
highest total, so what a seat does to the others' scores counts as well (a defence
that sets a contract costs the holder, and in partnerships the other team, while it
adds nothing to the defenders' own scores). A second figure counts that: the
*standing*, each seat's score minus the mean score of its table (all four seats,
itself included). In partnerships that is half of its team's lead over the other
team; where a deal's four scores add up to the same total at every table (trick
scoring with no contract down), it equals the first figure. The all-baseline table's
standings add up to zero over the four seats, so the candidate's standing, averaged
over its four seats, is already the difference from the baseline.

Two candidates measured against the same baseline on the same deals (same
preset, seed and mode) can be compared deal by deal (:func:`paired`): the luck
of the cards and the baseline's play cancel, so the interval of their
difference is much narrower than either one's against the baseline.
:func:`scores_text` and :func:`read_scores` carry a run's per-deal scores
between runs as JSON Lines.

Nothing here prints; :mod:`batak.cli` formats :class:`ArenaResult`.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from batak.ai import make_player
from batak.ai.base import Player
from batak.ai.experimental import EXPERIMENTS, make_experimental
from batak.ai.oracle import ORACLE, Oracle
from batak.ai.revision import RevisionPlayer, revision_trees, split_kind
from batak.deal import Action, Bid, ChooseTrump, Deal, Pass, Phase
from batak.rules import Rules
from batak.scoring import contract_made, same_side
from batak.seeds import deal_seed


@dataclass(slots=True)
class TableResult:
    """One table's deal: scores, contract and the timing of the watched seat."""

    scores: list[int]
    tricks_won: list[int]
    holder: int
    bid: int
    forced: bool
    made: bool
    times: list[float] = field(default_factory=list)
    calls: list[Action] = field(default_factory=list)
    trump_action: Action | None = None


@dataclass(slots=True)
class DealResult:
    index: int
    baseline: TableResult
    candidate: list[TableResult]
    baseline_times: list[float]


def _make(kind: str, seed: int, budget: float | None, deal: Deal, seat: int) -> Player:
    if kind == ORACLE:
        return Oracle(deal, seat)
    if kind in EXPERIMENTS:
        return make_experimental(kind, seed, budget)
    if split_kind(kind)[1] is not None:
        return RevisionPlayer(kind, seed, budget)
    return make_player(kind, seed, budget=budget)


def play_table(
    rules: Rules,
    deal_seed_value: int,
    dealer: int,
    kinds: Sequence[str],
    player_seed: int,
    budget: float | None,
    watch: int | None,
    auction: tuple[list[Action], Action | None] | None = None,
) -> TableResult:
    """Play one deal; times the decisions of seat ``watch`` (or of every seat)."""
    deal = Deal.from_seed(rules, deal_seed_value, dealer)
    players = [_make(kinds[s], player_seed * 4 + s, budget, deal, s) for s in range(4)]
    times: list[float] = []
    calls: list[Action] = []
    trump_action: Action | None = None
    if auction is not None:
        fixed_calls, fixed_trump = auction
        for a in fixed_calls:
            deal.apply(a)
        if deal.phase is Phase.TRUMP and fixed_trump is not None:
            deal.apply(fixed_trump)
    perf = time.perf_counter
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        obs = deal.observation(seat)
        t0 = perf()
        action = players[seat].choose(obs)
        elapsed = perf() - t0
        if (watch is None or seat == watch) and len(obs.legal) > 1:
            times.append(elapsed)
        phase = deal.phase
        deal.apply(action)
        if phase is Phase.AUCTION and isinstance(action, Bid | Pass):
            calls.append(action)
        elif phase is Phase.TRUMP and isinstance(action, ChooseTrump):
            trump_action = action
    for player in players:
        if isinstance(player, RevisionPlayer):
            player.close()
    contract = deal.contract
    assert contract is not None and deal.scores is not None
    return TableResult(
        list(deal.scores),
        list(deal.tricks_won),
        contract.seat,
        contract.bid,
        contract.forced,
        contract_made(rules, contract, deal.tricks_won),
        times,
        calls,
        trump_action,
    )


def play_duplicate(
    rules: Rules,
    seed: int,
    index: int,
    candidate: str,
    baseline: str,
    budget: float | None,
    play_only: bool,
) -> DealResult:
    """Deal ``index`` of the arena played at the five tables."""
    ds = deal_seed(seed, index)
    dealer = index % 4
    pseed = ds & 0xFFFFFFFF
    base = play_table(rules, ds, dealer, [baseline] * 4, pseed, budget, None)
    auction = (base.calls, base.trump_action) if play_only else None
    cand = []
    for k in range(4):
        kinds = [baseline] * 4
        kinds[k] = candidate
        cand.append(play_table(rules, ds, dealer, kinds, pseed, budget, k, auction))
    return DealResult(index, base, cand, base.times)


def _job(args: tuple[Rules, int, int, str, str, float | None, bool]) -> DealResult:
    return play_duplicate(*args)


@dataclass(frozen=True, slots=True)
class DealScores:
    """One duplicate deal's scores: ``candidate[k]`` is the candidate's in seat ``k``
    (at the table where it sat there), ``baseline[k]`` the baseline's in that seat."""

    index: int
    candidate: tuple[int, int, int, int]
    baseline: tuple[int, int, int, int]
    totals: tuple[int, int, int, int] | None = None
    """``totals[k]``: the four seats' scores added up at the table where the candidate
    sat in seat ``k`` (``None`` in a scores file written before they were kept)."""

    @property
    def diff(self) -> float:
        """The deal's figure of merit: the mean over the seats of candidate - baseline."""
        return sum(c - b for c, b in zip(self.candidate, self.baseline, strict=True)) / 4

    @property
    def standing(self) -> float | None:
        """The mean over the seats of the candidate's score minus its table's mean score
        (the baseline's standings add up to zero over the seats of its one table)."""
        if self.totals is None:
            return None
        return sum(c - t / 4 for c, t in zip(self.candidate, self.totals, strict=True)) / 4


@dataclass(slots=True)
class ArenaResult:
    """The arena's figures (see :func:`summarise`)."""

    candidate: str
    baseline: str
    preset: str
    deals: int
    play_only: bool
    mean_diff: float
    ci95: float
    standing: float
    """The mean of :attr:`DealScores.standing` per seat-deal (the baseline's is zero)."""
    standing_ci95: float
    cand_mean: float
    base_mean: float
    cand_holds: int
    cand_made: int
    base_holds: int
    base_made: int
    cand_bids_won: int
    base_bids_won: int
    cand_def: int
    cand_def_zero: int
    base_def: int
    base_def_zero: int
    cand_times: list[float]
    base_times: list[float]
    seat_deals: int
    seed: int = 0
    deal_scores: list[DealScores] = field(default_factory=list)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    i = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[i]


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(n) if n > 1 else float("inf")


def summarise(
    results: Sequence[DealResult],
    candidate: str,
    baseline: str,
    rules: Rules,
    play_only: bool,
    seed: int = 0,
) -> ArenaResult:
    per_deal: list[float] = []
    cand_scores: list[int] = []
    base_scores: list[int] = []
    cand_holds = cand_made = base_holds = base_made = 0
    cand_bids = base_bids = 0
    cand_def = cand_def_zero = base_def = base_def_zero = 0
    cand_times: list[float] = []
    base_times: list[float] = []
    deal_scores: list[DealScores] = []
    for r in results:
        b = r.baseline
        for k in range(4):
            c = r.candidate[k]
            cand_scores.append(c.scores[k])
            base_scores.append(b.scores[k])
            cand_times.extend(c.times)
            for table, is_cand in ((c, True), (b, False)):
                holder_side = same_side(rules, table.holder, k)
                if table.holder == k:
                    if is_cand:
                        cand_holds += 1
                        cand_made += table.made
                        cand_bids += not table.forced
                    else:
                        base_holds += 1
                        base_made += table.made
                        base_bids += not table.forced
                if not holder_side:
                    zero = table.tricks_won[k] == 0
                    if is_cand:
                        cand_def += 1
                        cand_def_zero += zero
                    else:
                        base_def += 1
                        base_def_zero += zero
        base_times.extend(r.baseline_times)
        cs = [r.candidate[k].scores[k] for k in range(4)]
        ts = [sum(r.candidate[k].scores) for k in range(4)]
        deal_scores.append(
            DealScores(
                r.index,
                (cs[0], cs[1], cs[2], cs[3]),
                (b.scores[0], b.scores[1], b.scores[2], b.scores[3]),
                (ts[0], ts[1], ts[2], ts[3]),
            )
        )
        per_deal.append(deal_scores[-1].diff)
    n = len(per_deal)
    mean, ci = mean_ci(per_deal)
    standing, standing_ci = mean_ci([d.standing or 0.0 for d in deal_scores])
    return ArenaResult(
        candidate,
        baseline,
        rules.preset,
        n,
        play_only,
        mean,
        ci,
        standing,
        standing_ci,
        sum(cand_scores) / max(1, len(cand_scores)),
        sum(base_scores) / max(1, len(base_scores)),
        cand_holds,
        cand_made,
        base_holds,
        base_made,
        cand_bids,
        base_bids,
        cand_def,
        cand_def_zero,
        base_def,
        base_def_zero,
        cand_times,
        base_times,
        4 * n,
        seed,
        deal_scores,
    )


def deal_standing(r: DealResult) -> float:
    """The candidate's standing on one duplicate deal (:attr:`DealScores.standing`):
    the value the arena's sequential test (:mod:`batak.ai.sprt`) reads deal by deal."""
    return sum(r.candidate[k].scores[k] - sum(r.candidate[k].scores) / 4 for k in range(4)) / 4


def run_arena(
    rules: Rules,
    candidate: str,
    baseline: str,
    deals: int,
    seed: int,
    budget: float | None = None,
    play_only: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    compile_revisions: bool = False,
    stop: Callable[[DealResult], bool] | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals and summarise them.

    ``jobs`` > 1 spreads the deals over worker processes (results are the
    same: every deal is seeded on its own). A kind ``level@rev`` seats that
    level from git revision ``rev`` (see :mod:`batak.ai.revision`), compiled
    first when ``compile_revisions`` (and the revision can). ``stop`` sees the
    deals in their order, one at a time; once it returns true no more deals are
    taken (a sequential test), so the result covers the deals up to that one.
    """
    with revision_trees((candidate, baseline), compile_revisions):
        return _run(
            rules, candidate, baseline, deals, seed, budget, play_only, jobs, progress, stop
        )


def _run(
    rules: Rules,
    candidate: str,
    baseline: str,
    deals: int,
    seed: int,
    budget: float | None,
    play_only: bool,
    jobs: int,
    progress: Callable[[int], None] | None,
    stop: Callable[[DealResult], bool] | None = None,
) -> ArenaResult:
    tasks = [(rules, seed, i, candidate, baseline, budget, play_only) for i in range(deals)]
    results: list[DealResult] = []
    if jobs <= 1:
        for t in tasks:
            results.append(_job(t))
            if progress is not None:
                progress(len(results))
            if stop is not None and stop(results[-1]):
                break
    else:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            # In deal order when a test watches the stream (its stopping point must not
            # depend on which worker finished first); else as they come.
            stream = (
                pool.imap(_job, tasks) if stop is not None else pool.imap_unordered(_job, tasks)
            )
            for r in stream:
                results.append(r)
                if progress is not None:
                    progress(len(results))
                if stop is not None and stop(r):
                    break  # leaving the block terminates the workers still playing
        results.sort(key=lambda r: r.index)
    return summarise(results, candidate, baseline, rules, play_only, seed)


SCORES_FORMAT = "batak-arena-scores/1"


def scores_text(res: ArenaResult) -> str:
    """A run's per-deal scores as JSON Lines: a header naming the run, then one line a
    deal (for :func:`read_scores` and :func:`paired`)."""
    head = {
        "format": SCORES_FORMAT,
        "candidate": res.candidate,
        "baseline": res.baseline,
        "preset": res.preset,
        "seed": res.seed,
        "play_only": res.play_only,
    }
    lines = [json.dumps(head, ensure_ascii=False)]
    for d in res.deal_scores:
        row: dict[str, object] = {
            "deal": d.index,
            "candidate": list(d.candidate),
            "baseline": list(d.baseline),
        }
        if d.totals is not None:
            row["totals"] = list(d.totals)
        lines.append(json.dumps(row))
    return "\n".join(lines) + "\n"


class ScoresError(ValueError):
    """A scores file that is not one :func:`scores_text` wrote (the message says where)."""


@dataclass(frozen=True, slots=True)
class ScoresFile:
    """What :func:`read_scores` found: the run's header and its deals."""

    candidate: str
    baseline: str
    preset: str
    seed: int
    play_only: bool
    deals: list[DealScores]


def _four(value: object, where: str) -> tuple[int, int, int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 4
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        raise ScoresError(f"{where}: expected a list of four whole numbers")
    return (value[0], value[1], value[2], value[3])


def read_scores(text: str) -> ScoresFile:
    """Parse :func:`scores_text`'s output; raises :class:`ScoresError` naming the line."""
    rows = [line for line in text.splitlines() if line.strip()]
    if not rows:
        raise ScoresError("the file is empty")
    parsed: list[object] = []
    for number, line in enumerate(rows, 1):
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ScoresError(f"line {number}: not JSON ({exc.msg})") from None
    head = parsed[0]
    if not isinstance(head, dict) or head.get("format") != SCORES_FORMAT:
        raise ScoresError(f"line 1: not an arena scores file (expected {SCORES_FORMAT!r})")
    fields = {"candidate": str, "baseline": str, "preset": str, "seed": int, "play_only": bool}
    for name, kind in fields.items():
        if not isinstance(head.get(name), kind):
            raise ScoresError(f"line 1: {name!r} missing or not a {kind.__name__}")
    deals: list[DealScores] = []
    seen: set[int] = set()
    for number, row in enumerate(parsed[1:], 2):
        keys = {"deal", "candidate", "baseline"}
        if not isinstance(row, dict) or not keys <= set(row) <= keys | {"totals"}:
            raise ScoresError(f"line {number}: expected deal, candidate, baseline (and totals)")
        index = row["deal"]
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise ScoresError(f"line {number}: 'deal' is not a deal number")
        if index in seen:
            raise ScoresError(f"line {number}: deal {index} appears twice")
        seen.add(index)
        where = f"line {number}"
        deals.append(
            DealScores(
                index,
                _four(row["candidate"], f"{where}, candidate"),
                _four(row["baseline"], f"{where}, baseline"),
                _four(row["totals"], f"{where}, totals") if "totals" in row else None,
            )
        )
    return ScoresFile(
        head["candidate"], head["baseline"], head["preset"], head["seed"], head["play_only"], deals
    )


@dataclass(frozen=True, slots=True)
class Paired:
    """Candidate A against candidate B, deal by deal (see :func:`paired`)."""

    deals: int
    left_out: int
    """Deals both played but left out: their baseline tables scored differently."""
    same: int
    """Deals on which the two candidates scored the same in every seat."""
    mean_diff: float
    ci95: float
    a_diff: float
    """A's mean score diff against the baseline over these deals (B's: ``b_diff``)."""
    b_diff: float
    standing: tuple[float, float] | None = None
    """A's standing minus B's per seat-deal and its 95% half-width, when both runs kept
    their tables' totals."""


def check_pairable(a: ArenaResult | ScoresFile, b: ScoresFile) -> None:
    """Raise :class:`ScoresError`, describing ``b``, unless the two are runs against the
    same baseline on the same preset, seed and mode (the deals :func:`paired` needs)."""
    names = ("baseline", "preset", "seed", "play_only")
    if any(getattr(a, name) != getattr(b, name) for name in names):
        raise ScoresError(
            f"it is a run of {b.candidate} against {b.baseline} on {b.preset}, seed {b.seed}"
            f"{', play-only' if b.play_only else ''}; pair it with a run against the same "
            "baseline on the same preset, seed and mode"
        )


def paired(a: ArenaResult | ScoresFile, b: ScoresFile) -> Paired:
    """A's score minus B's per seat-deal, over the deals both played, with a 95%
    interval over deals. Both must be runs against the same baseline on the same
    preset, seed and mode (:func:`check_pairable`). A deal whose baseline table
    scored differently in the two runs is left out and counted."""
    check_pairable(a, b)
    theirs = {d.index: d for d in b.deals}
    mine = a.deal_scores if isinstance(a, ArenaResult) else a.deals
    common = [(d, theirs[d.index]) for d in mine if d.index in theirs]
    if not common:
        raise ScoresError("the runs have no deal in common")
    # The baseline decides by seed and work alone, so its tables score alike in both runs,
    # unless a starved machine cut a decision short (its wall-clock guard): leave those out.
    pairs = [(x, y) for x, y in common if x.baseline == y.baseline]
    if not pairs:
        raise ScoresError(
            "the baseline tables scored differently on every deal, so the runs did not play "
            "the same deals (another revision of the baseline?)"
        )
    n = len(pairs)
    mean, ci = mean_ci([x.diff - y.diff for x, y in pairs])
    standing = None
    stand = [(x.standing, y.standing) for x, y in pairs]
    if all(sx is not None and sy is not None for sx, sy in stand):
        standing = mean_ci([(sx or 0.0) - (sy or 0.0) for sx, sy in stand])
    return Paired(
        n,
        len(common) - n,
        sum(1 for x, y in pairs if x.candidate == y.candidate),
        mean,
        ci,
        sum(x.diff for x, _ in pairs) / n,
        sum(y.diff for _, y in pairs) / n,
        standing,
    )


def format_paired(p: Paired, a: str, b: str) -> str:
    """:class:`Paired` as two lines of text."""
    return (
        f"paired, {a} minus {b}: {p.mean_diff:+.3f} per seat-deal "
        f"(95% CI {p.mean_diff - p.ci95:+.3f} .. {p.mean_diff + p.ci95:+.3f}) over {p.deals} "
        f"deals, {p.same} scored the same"
        + (f" ({p.left_out} left out: the baseline played them differently)" if p.left_out else "")
        + "\n"
        f"  against the baseline on those deals: {a} {p.a_diff:+.3f}, {b} {p.b_diff:+.3f}"
        + (
            f"\n  standing (score above the table's mean), {a} minus {b}: "
            f"{p.standing[0]:+.3f} (95% CI {p.standing[0] - p.standing[1]:+.3f} .. "
            f"{p.standing[0] + p.standing[1]:+.3f})"
            if p.standing is not None
            else ""
        )
    )


def format_result(res: ArenaResult) -> str:
    """The arena table as text."""

    def rate(a: int, b: int) -> str:
        return f"{100 * a / b:5.1f}% ({a}/{b})" if b else "   – (0/0)"

    def ms(values: Sequence[float]) -> str:
        return (
            f"p50 {1000 * percentile(values, 0.5):7.2f} ms  p95 "
            f"{1000 * percentile(values, 0.95):7.2f} ms  max "
            f"{1000 * max(values, default=0.0):7.2f} ms  (n={len(values)})"
        )

    mode = "play-only (auction fixed)" if res.play_only else "full deals"
    lines = [
        f"arena: {res.candidate} vs {res.baseline} · preset {res.preset} · {res.deals} duplicate "
        f"deals ({res.seat_deals} seat-deals) · {mode}",
        f"mean score diff per seat-deal: {res.mean_diff:+.2f}  "
        f"(95% CI {res.mean_diff - res.ci95:+.2f} .. {res.mean_diff + res.ci95:+.2f})",
        f"mean standing per seat-deal:   {res.standing:+.2f}  "
        f"(95% CI {res.standing - res.standing_ci95:+.2f} .. "
        f"{res.standing + res.standing_ci95:+.2f}; score above the table's mean)",
        f"mean score per seat-deal:      {res.candidate} {res.cand_mean:+.2f}   "
        f"{res.baseline} {res.base_mean:+.2f}",
        f"{'':31}{res.candidate:>22}  {res.baseline:>22}",
        f"{'contract made as holder':31}{rate(res.cand_made, res.cand_holds):>22}  "
        f"{rate(res.base_made, res.base_holds):>22}",
        f"{'bids won (seat-deals)':31}{rate(res.cand_bids_won, res.seat_deals):>22}  "
        f"{rate(res.base_bids_won, res.seat_deals):>22}",
        f"{'defenders with zero tricks':31}{rate(res.cand_def_zero, res.cand_def):>22}  "
        f"{rate(res.base_def_zero, res.base_def):>22}",
        f"decision time {res.candidate:>8}: {ms(res.cand_times)}",
        f"decision time {res.baseline:>8}: {ms(res.base_times)}",
        "(times: decisions with more than one legal choice)",
    ]
    return "\n".join(lines)
