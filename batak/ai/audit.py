"""The blunder audit: every card decision of self-play deals judged by the exact solver.

A score is a noisy yardstick (about 7.5 points a deal), so a small change to a
computer player needs thousands of duplicate deals to show. The audit looks at
decisions instead. For each card a seat chose with a real choice (two or more
cards that differ), it deals the hidden cards :data:`DEFAULT_SAMPLES` times
*from that seat's observation only* (:func:`batak.ai.knowledge.infer` and
:func:`~batak.ai.knowledge.sample_hands`, the same door the players use), and
in each sampled deal solves the position double-dummy after every distinct legal
card (:mod:`batak.solver`, the C search where it is built). The chosen card's
**cost** in a sample is the tricks its side takes after the best card minus
after the chosen one.

A **clear blunder** is a card that costs its side at least one trick in at
least :data:`BLUNDER_SHARE` of the samples: whatever the hidden hands, within
what the seat could know, another card was a trick better. A sample whose
solve ran out of its node budget (:data:`DEFAULT_NODES`, early in a deal)
counts as *not* costing, so an unfinished search can only hide a blunder, never
invent one. The real deal is solved too, but only as one more check of a found
blunder (did it cost a trick at this table?); it never decides anything.

A blunder is put in the first category that fits (:data:`CATEGORIES`), from the
chosen card, the best alternative (the card with the most tricks on average over
the samples) and what the seat saw; a *side-mate* is the partner in partnerships
and, for a defender in the other presets, any other defender (the solver's side):

- ``ruffed_partner``: trumped a trick a side-mate was winning, while a legal card
  would have left it to the side-mate;
- ``overtook_partner``: beat a side-mate's winning card in the led suit, while a
  legal card would have left it;
- ``uncashed``: the best card would have won the trick for the side in every
  sample (nobody after the seat could beat it), the chosen card would not;
- ``not_returned``: led another suit where the best card was of a suit a side-mate
  had led;
- ``trump``: led a trump where a side card was best, or the other way round
  (trump drawn when it helped the other side, not drawn when it should have been);
- ``other``.

Under the rules of play (the duty to beat the trick's best card, and to trump
when void) a seat that *can* take a side-mate's trick must; the first two
categories are then forced and not counted. They are measured anyway, so the
table shows it rather than assumes it.

The **auction** is judged once a deal: the final contract against the double-dummy
par of the holder's side with its best trump (the holder leading). A bid that
par misses by :data:`OVERBID_TRICKS` or more counts as an overbid; contracts
the dealer was forced into are not bids and are left out.

Everything is deterministic for a seed: the sampled deals come from a random
stream keyed by the seed, the deal and the move, and the hard level plays with
its wall-clock guard off (their decisions depend on the seed alone).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from batak.ai import make_player
from batak.ai.base import Player
from batak.ai.bots import HardPlayer
from batak.ai.knowledge import Knowledge, infer, sample_hands, sample_unconstrained
from batak.ai.sim import distinct_cards
from batak.cards import ABOVE, SUIT_MASKS, SUITS, CardMask, Suit
from batak.deal import Deal, Observation, Phase, Play
from batak.play import trick_best
from batak.rules import Rules
from batak.scoring import same_side
from batak.seeds import deal_seed
from batak.solver import BudgetExceeded, Position, Solver, after_card, deal_position

DEFAULT_SAMPLES = 20
"""Sampled deals per decision."""

BLUNDER_SHARE = 0.9
"""The share of the samples in which a card must cost a trick to be a clear blunder
(18 of 20): "in (nearly) every deal the seat could be facing"."""

DEFAULT_NODES = 100_000
"""Solver nodes allowed per solve of a sampled position (about 10 to 30 ms with the
C search); a solve that needs more counts its sample as not costing. From the fifth
trick on every position solves within it; in the first two, about half do not."""

PAR_NODES = 4_000_000
"""Solver nodes allowed for one trump's par of a whole deal (the auction check)."""

MISTAKE_SHARE = 0.5
"""A softer figure beside the clear blunders: a card that costs a trick in at least
half of the samples is a *likely mistake* (more frequent, so it moves with fewer
deals; every clear blunder is one too)."""

OVERBID_TRICKS = 2
"""A contract the double-dummy par misses by this many tricks or more is an overbid."""

CATEGORIES = (
    "ruffed_partner",
    "overtook_partner",
    "uncashed",
    "not_returned",
    "trump",
    "other",
)
"""The kinds of clear blunder, in the order they are tried (see the module's notes)."""

LEVELS = ("easy", "normal", "hard")
"""The computer levels the audit plays by default."""


@dataclass(frozen=True, slots=True)
class CardVerdict:
    """The audit of one card decision. ``chosen`` and ``best`` are cards; ``costly``
    counts the samples in which ``chosen`` cost its side a trick or more; sampling
    stops as soon as the verdict cannot change, so ``samples`` may be below the
    number asked."""

    seat: int
    trick: int
    chosen: int
    best: int
    samples: int
    costly: int
    solves: int
    unsolved: int
    blunder: bool
    mistake: bool
    """Costly in at least :data:`MISTAKE_SHARE` of the samples asked."""
    category: str | None
    """One of :data:`CATEGORIES` for a blunder, else ``None``."""


def _legal(obs: Observation) -> CardMask:
    legal = 0
    for a in obs.legal:
        if isinstance(a, Play):
            legal |= 1 << a.card
    return legal


def _representative(card: int, legal: CardMask, rest: CardMask) -> int:
    """The card :func:`batak.ai.sim.distinct_cards` keeps for ``card``'s run."""
    while True:
        above = rest & ABOVE[card]
        if not above:
            return card
        nxt = above & -above
        if not legal & nxt:
            return card
        card = nxt.bit_length() - 1


def side_values(
    pos: Position, cards: Sequence[int], seat: int, nodes: int
) -> dict[int, int] | None:
    """The tricks ``seat``'s side takes from ``pos`` on (the trick on the table
    included) after each of ``cards``, best play afterwards; ``None`` when a solve
    needs more than ``nodes`` nodes. One solver serves all the cards."""
    solver = Solver(pos.rules, pos.trump, pos.holder)
    tmask = SUIT_MASKS[pos.trump]
    mine = pos.on_side(seat)
    total = pos.tricks_left
    out: dict[int, int] = {}
    for card in cards:
        nxt = after_card(pos, card)
        taken = 0
        if len(pos.trick) == 3:
            winner = (pos.leader + trick_best([*pos.trick, card], tmask)) % 4
            taken = 1 if pos.on_side(winner) else 0
        try:
            holder = taken + solver.solve(nxt, max_nodes=nodes)
        except BudgetExceeded:
            return None
        out[card] = holder if mine else total - holder
    return out


def side_mates(rules: Rules, seat: int, holder: int) -> set[int]:
    """The seats playing with ``seat`` (the solver's sides): the partner in
    partnerships; for a defender elsewhere, the other defenders; none for a lone
    holder."""
    return {
        s
        for s in range(4)
        if s != seat and same_side(rules, s, holder) is same_side(rules, seat, holder)
    }


def _beats(card: int, best: int, tmask: CardMask) -> bool:
    """Whether ``card`` played now takes the trick from ``best`` (its winning card)."""
    if card // 13 == best // 13:
        return card > best
    return bool(tmask >> card & 1)


def _sure_winner(card: int, obs: Observation, samples: Sequence[list[CardMask]]) -> bool:
    """Whether ``card``, played now, wins the trick for the seat's side in every sample:
    it beats the card winning the trick on the table, and no opponent to play after
    it, holding its sampled hand, could beat it by the rules."""
    assert obs.trump is not None and obs.contract is not None
    tmask = SUIT_MASKS[obs.trump]
    trick = list(obs.trick)
    leader = obs.trick_leader if trick and obs.trick_leader is not None else obs.seat
    top = card
    if trick:
        bi = trick_best(trick, tmask)
        if not _beats(card, trick[bi], tmask):
            return False
    led = trick[0] if trick else card
    suit_mask = SUIT_MASKS[led // 13]
    mates = side_mates(obs.rules, obs.seat, obs.contract.seat)
    after = [s for s in ((leader + k) % 4 for k in range(len(trick) + 1, 4)) if s not in mates]
    for hands in samples:
        for s in after:
            h = hands[s]
            follow = h & suit_mask
            if follow:
                if top // 13 == led // 13 and follow & ABOVE[top]:
                    return False
            elif h & tmask and (not tmask >> top & 1 or h & tmask & ABOVE[top]):
                return False
    return True


def classify(
    obs: Observation,
    chosen: int,
    best: int,
    legal: CardMask,
    samples: Sequence[list[CardMask]],
) -> str:
    """The category of a clear blunder (one of :data:`CATEGORIES`), from the seat's
    observation, its legal cards and the sampled deals."""
    assert obs.trump is not None and obs.contract is not None
    tmask = SUIT_MASKS[obs.trump]
    mates = side_mates(obs.rules, obs.seat, obs.contract.seat)
    if obs.trick:
        assert obs.trick_leader is not None
        trick = list(obs.trick)
        bi = trick_best(trick, tmask)
        winner = (obs.trick_leader + bi) % 4
        top = trick[bi]
        led = trick[0]
        if winner in mates and _beats(chosen, top, tmask):
            forced = all(_beats(c, top, tmask) for c in _cards(legal))
            if not forced:
                if chosen // 13 != led // 13:
                    return "ruffed_partner"
                return "overtook_partner"
    if _sure_winner(best, obs, samples) and not _sure_winner(chosen, obs, samples):
        return "uncashed"
    if not obs.trick:
        theirs = {t.cards[0] // 13 for t in obs.tricks if t.leader in mates}
        theirs.discard(int(obs.trump))
        if best // 13 in theirs and chosen // 13 not in theirs:
            return "not_returned"
        if bool(tmask >> chosen & 1) != bool(tmask >> best & 1):
            return "trump"
    return "other"


def _cards(mask: CardMask) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sample_deals(know: Knowledge, rng: random.Random) -> list[CardMask]:
    """One deal of the hidden cards consistent with the seat's knowledge."""
    return sample_hands(know, rng) or sample_unconstrained(know, rng)


def judge_card(
    obs: Observation,
    chosen: int,
    key: str,
    *,
    samples: int = DEFAULT_SAMPLES,
    nodes: int = DEFAULT_NODES,
    share: float = BLUNDER_SHARE,
) -> CardVerdict | None:
    """Judge ``chosen`` from ``obs`` alone (``None``: the seat had no real choice).

    ``key`` names the decision's random stream (the same key, the same sampled
    deals). Sampling stops once the verdict is settled: the chosen card has been
    cheap (or unsolved) in too many samples to be a blunder."""
    assert obs.hand is not None and obs.contract is not None and obs.trump is not None
    legal = _legal(obs)
    know = infer(obs)
    rest = know.unseen | obs.hand
    cands = distinct_cards(legal, rest)
    if len(cands) < 2:
        return None
    mine = _representative(chosen, legal, rest)
    cands.remove(mine)
    cands.insert(0, mine)
    need = math.ceil(share * samples)
    least = min(need, math.ceil(MISTAKE_SHARE * samples))
    rng = random.Random(f"batak-audit/1|{key}")
    leader = obs.trick_leader if obs.trick and obs.trick_leader is not None else obs.seat
    totals = dict.fromkeys(cands, 0)
    drawn: list[list[CardMask]] = []
    costly = solves = unsolved = 0
    for done in range(1, samples + 1):
        hands = sample_deals(know, rng)
        drawn.append(hands)
        pos = Position(
            obs.rules,
            (hands[0], hands[1], hands[2], hands[3]),
            obs.trump,
            leader,
            obs.contract.seat,
            obs.trump_broken,
            tuple(obs.trick),
        )
        values = side_values(pos, cands, obs.seat, nodes)
        solves += 1
        if values is None:
            unsolved += 1
        else:
            for c, v in values.items():
                totals[c] += v
            if max(values.values()) - values[mine] >= 1:
                costly += 1
        if done - costly > samples - least:  # can no longer reach ``least`` costly samples
            break
    blunder = costly >= need
    best = max(cands, key=lambda c: (totals[c], c == mine, -c))
    if blunder:
        best = max((c for c in cands if c != mine), key=lambda c: (totals[c], -c))
    trick_no = len(obs.tricks) + 1
    return CardVerdict(
        obs.seat,
        trick_no,
        mine,
        best,
        len(drawn),
        costly,
        solves,
        unsolved,
        blunder,
        costly >= least,
        classify(obs, mine, best, legal, drawn) if blunder else None,
    )


def true_cost(deal: Deal, chosen: int, nodes: int = 10 * DEFAULT_NODES) -> int | None:
    """The tricks ``chosen`` cost the seat's side in the real deal, best play after
    (``None``: out of budget). Only a check of a found blunder, never its cause."""
    pos = deal_position(deal)
    seat = pos.to_act
    legal = 0
    for a in deal.legal_actions():
        if isinstance(a, Play):
            legal |= 1 << a.card
    rest = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
    cards = distinct_cards(legal, rest)
    rep = _representative(chosen, legal, rest)
    values = side_values(pos, cards, seat, nodes)
    if values is None:
        return None
    return max(values.values()) - values[rep]


@dataclass(frozen=True, slots=True)
class AuctionVerdict:
    """The contract of one deal against the double-dummy par of the holder's side."""

    holder: int
    bid: int
    forced: bool
    par: int | None
    """The holder side's double-dummy tricks with its best trump (``None``: unknown
    within the budget)."""

    @property
    def overbid(self) -> bool:
        return not self.forced and self.par is not None and self.bid - self.par >= OVERBID_TRICKS


def judge_auction(deal: Deal, nodes: int = PAR_NODES) -> AuctionVerdict:
    """The par check of ``deal``'s contract (the deal must be in play or finished).

    The named trump is solved first; the other suits only when its par misses the bid
    by :data:`OVERBID_TRICKS` (a better trump might still reach it)."""
    contract = deal.contract
    assert contract is not None and deal.trump is not None
    hands = deal.initial_hands
    four = (hands[0], hands[1], hands[2], hands[3])
    rules = deal.rules
    suits: list[Suit] = [deal.trump]
    if rules.fixed_trump is None:
        suits += [s for s in SUITS if s != deal.trump]
    best: int | None = None
    for k, suit in enumerate(suits):
        if k and best is not None and contract.bid - best < OVERBID_TRICKS:
            break
        pos = Position(rules, four, suit, contract.seat, contract.seat, False, ())
        try:
            par = Solver(rules, suit, contract.seat).solve(pos, max_nodes=nodes)
        except BudgetExceeded:
            if k == 0:
                return AuctionVerdict(contract.seat, contract.bid, contract.forced, None)
            continue
        best = par if best is None else max(best, par)
    return AuctionVerdict(contract.seat, contract.bid, contract.forced, best)


@dataclass(slots=True)
class AuditRow:
    """The audit of one level on one preset."""

    level: str
    preset: str
    deals: int = 0
    decisions: int = 0
    """Card decisions with a real choice (two or more distinct legal cards)."""
    forced: int = 0
    """Card plays with one distinct card (not judged)."""
    blunders: int = 0
    mistakes: int = 0
    """Likely mistakes (:data:`MISTAKE_SHARE`), the clear blunders included."""
    categories: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CATEGORIES, 0))
    confirmed: int = 0
    """Blunders that cost a trick in the real deal as well."""
    samples: int = 0
    solves: int = 0
    unsolved: int = 0
    auctions: int = 0
    """Contracts won by a bid (forced ones left out)."""
    overbids: int = 0
    par_unknown: int = 0
    play_seconds: float = 0.0
    """CPU seconds the players took (not the audit's)."""
    audit_seconds: float = 0.0
    """CPU seconds the audit's sampling and solving took."""
    examples: list[dict[str, object]] = field(default_factory=list)

    def per_100(self, count: int, of: int | None = None) -> float:
        base = self.decisions if of is None else of
        return 100.0 * count / base if base else 0.0

    @property
    def rate(self) -> float:
        """Clear blunders per 100 decisions."""
        return self.per_100(self.blunders)

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.audit_seconds if self.audit_seconds > 0 else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "level": self.level,
            "preset": self.preset,
            "deals": self.deals,
            "decisions": self.decisions,
            "forced": self.forced,
            "blunders": self.blunders,
            "per_100": round(self.rate, 3),
            "mistakes": self.mistakes,
            "mistakes_per_100": round(self.per_100(self.mistakes), 3),
            "categories": dict(self.categories),
            "confirmed": self.confirmed,
            "samples": self.samples,
            "solves": self.solves,
            "unsolved": self.unsolved,
            "auctions": self.auctions,
            "overbids": self.overbids,
            "overbids_per_100": round(self.per_100(self.overbids, self.auctions), 3),
            "par_unknown": self.par_unknown,
            "play_seconds": round(self.play_seconds, 2),
            "audit_seconds": round(self.audit_seconds, 2),
            "decisions_per_second": round(self.decisions_per_second, 2),
            "examples": self.examples,
        }


def audit_player(level: str, seed: int) -> Player:
    """The level's player with its wall-clock guard off (decisions by seed alone)."""
    if level == "hard":
        return HardPlayer(seed, clock=lambda: 0.0)
    return make_player(level, seed)


def audit_deal(
    row: AuditRow,
    rules: Rules,
    seed: int,
    index: int,
    *,
    samples: int = DEFAULT_SAMPLES,
    nodes: int = DEFAULT_NODES,
    share: float = BLUNDER_SHARE,
) -> None:
    """Play deal ``index`` of ``seed`` with ``row.level`` in all four seats and add its
    audit to ``row``."""
    ds = deal_seed(seed, index)
    deal = Deal.from_seed(rules, ds, index % 4)
    players = [audit_player(row.level, (ds & 0xFFFFFFFF) * 4 + s) for s in range(4)]
    cpu = time.process_time
    audited = False
    while deal.phase is not Phase.DONE:
        seat = deal.to_act
        obs = deal.observation(seat)
        start = cpu()
        action = players[seat].choose(obs)
        row.play_seconds += cpu() - start
        if deal.phase is Phase.PLAY:
            start = cpu()
            if not audited:
                verdict = judge_auction(deal)
                audited = True
                if not verdict.forced:
                    row.auctions += 1
                    row.par_unknown += verdict.par is None
                    row.overbids += verdict.overbid
            assert isinstance(action, Play)
            move = len(deal.tricks) * 4 + len(deal.trick)
            found = judge_card(
                obs,
                action.card,
                f"{seed}|{index}|{move}",
                samples=samples,
                nodes=nodes,
                share=share,
            )
            if found is None:
                row.forced += 1
            else:
                row.decisions += 1
                row.samples += found.samples
                row.solves += found.solves
                row.unsolved += found.unsolved
                row.mistakes += found.mistake
                if found.blunder and found.category is not None:
                    row.blunders += 1
                    row.categories[found.category] += 1
                    real = true_cost(deal, action.card)
                    row.confirmed += real is not None and real >= 1
                    if len(row.examples) < 5:
                        from batak.cards import card_code

                        row.examples.append(
                            {
                                "deal": index,
                                "seat": seat,
                                "trick": found.trick,
                                "chosen": card_code(found.chosen),
                                "best": card_code(found.best),
                                "costly": f"{found.costly}/{found.samples}",
                                "category": found.category,
                                "real_cost": real,
                            }
                        )
            row.audit_seconds += cpu() - start
        deal.apply(action)
    row.deals += 1


def run_audit(
    levels: Sequence[str],
    presets: Sequence[str],
    deals: int,
    seed: int,
    *,
    samples: int = DEFAULT_SAMPLES,
    nodes: int = DEFAULT_NODES,
    share: float = BLUNDER_SHARE,
    progress: Callable[[AuditRow], None] | None = None,
) -> list[AuditRow]:
    """The audit of every level on every preset: the same ``deals`` deals (seeded by
    ``seed``) for every level of a preset."""
    from batak.rules import preset

    rows = []
    for name in presets:
        rules = preset(name)
        for level in levels:
            row = AuditRow(level, name)
            for index in range(deals):
                audit_deal(row, rules, seed, index, samples=samples, nodes=nodes, share=share)
                if progress is not None:
                    progress(row)
            rows.append(row)
    return rows


_SHORT = {
    "ruffed_partner": "ruff",
    "overtook_partner": "overt",
    "uncashed": "uncash",
    "not_returned": "noret",
    "trump": "trump",
    "other": "other",
}


def format_audit(rows: Sequence[AuditRow], samples: int, share: float = BLUNDER_SHARE) -> str:
    """The audit as one text table."""
    need = math.ceil(share * samples)
    head = (
        f"{'level':<7}{'preset':<9}{'deals':>6}{'decis':>7}{'blund':>6}{'/100':>7}{'mist':>7}"
        + "".join(f"{_SHORT[c]:>7}" for c in CATEGORIES)
        + f"{'real%':>7}{'unsol%':>7}{'auct':>6}{'over':>5}{'/100':>7}{'dec/s':>7}"
    )
    lines = [
        f"blunder audit: a clear blunder costs its side >= 1 trick in >= {need} of {samples} "
        "deals sampled from the seat's view; categories per 100 decisions",
        head,
    ]
    for r in rows:
        cats = "".join(f"{r.per_100(r.categories[c]):>7.2f}" for c in CATEGORIES)
        real = f"{100 * r.confirmed / r.blunders:.0f}" if r.blunders else "-"
        unsolved = f"{100 * r.unsolved / r.solves:.1f}" if r.solves else "-"
        lines.append(
            f"{r.level:<7}{r.preset:<9}{r.deals:>6}{r.decisions:>7}{r.blunders:>6}"
            f"{r.rate:>7.2f}{r.per_100(r.mistakes):>7.2f}{cats}{real:>7}{unsolved:>7}{r.auctions:>6}{r.overbids:>5}"
            f"{r.per_100(r.overbids, r.auctions):>7.1f}{r.decisions_per_second:>7.1f}"
        )
    lines.append(
        f"mist: likely mistakes per 100 decisions (costly in >= "
        f"{math.ceil(MISTAKE_SHARE * samples)} of {samples}); "
        "real%: blunders that cost a trick in the real deal too; unsol%: sampled solves "
        f"over the node budget (counted as not costing); over: contracts double-dummy par "
        f"misses by >= {OVERBID_TRICKS} (forced contracts left out); dec/s: decisions "
        "audited per CPU second (the players' own time apart)"
    )
    return "\n".join(lines)


__all__ = [
    "BLUNDER_SHARE",
    "CATEGORIES",
    "DEFAULT_NODES",
    "DEFAULT_SAMPLES",
    "LEVELS",
    "MISTAKE_SHARE",
    "OVERBID_TRICKS",
    "AuctionVerdict",
    "AuditRow",
    "CardVerdict",
    "audit_deal",
    "audit_player",
    "classify",
    "format_audit",
    "judge_auction",
    "judge_card",
    "run_audit",
    "side_mates",
    "side_values",
    "true_cost",
]
