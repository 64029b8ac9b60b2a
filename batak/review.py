"""The review of a finished deal: par, the turning card, and each seat's costly choices.

:func:`review_deal` reads a finished :class:`~batak.deal.Deal` and returns a
:class:`Review`, plain data for any front end:

- **par**: the tricks the contract holder's side takes with every hand known
  and best play by everyone, from the start of play (after the auction and the
  trump), as :mod:`batak.solver` finds it. The solver works to a node budget;
  when it runs out the par is ``None`` ("not found within the budget").
- **the turn**: after every card the double-dummy count is taken again (the
  holder side's tricks so far plus the solver's result from there). Its verdict
  is "made" when that count reaches the bid. The turning card is the *first*
  card after which the verdict became the deal's real outcome having not been
  it just before: the first moment the side that finally lost could no longer
  save the deal with best play. A double-dummy count only moves against the
  side whose seat played the card, so that card is always the losing side's.
  When the verdict already was the outcome at the start and never left it, the
  deal has no turn (the cards decided it); positions the solver could not
  finish within the budget are skipped.
- **decisions**: every choice of the asked seats (bids, trump, cards with more
  than one distinct option) judged by the hard computer player *from that
  seat's observation at the time* (:meth:`batak.deal.Deal.observation`):
  its expected utility (the seat's deal score minus the average of the other
  three, the hard level's measure) for the choice made and for its best
  choice, and with them what a player counts: the **tricks** the seat's side
  was expected to lose by the choice (the same sampled deals, played out or,
  late in the deal, solved exactly) and the **swing**, how much the chance of
  the side's result (making the contract as its holder side, setting it as a
  defender) fell. Only a decision that cost about a trick (:data:`TRICK_COST`)
  or likely turned the result (:data:`RESULT_SWING`) is kept, with a
  **reason** in a player's words (:func:`reason_of`); a few points of expected
  score alone are sampling detail, not a lesson.

Everything is deterministic for a given deal, seats and budgets.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from batak.ai.bidding import bid_value, choose_bid, choose_trump
from batak.ai.bots import CardStats, HardPlayer
from batak.ai.knowledge import infer
from batak.cards import ABOVE, SUIT_MASKS, Suit, card_code
from batak.deal import TRUMPS, Action, Bid, Deal, Observation, Pass, Phase, Play, format_action
from batak.scoring import contract_made, is_holder_side, side_tricks
from batak.solver import BudgetExceeded, Position, Solver, deal_position, native_search

PAR_NODES = 10_000_000 if native_search() else 1_000_000
"""Solver nodes allowed for the par, after the later trick starts are solved (a full
deal solved alone needs 0.01 to 4 million: about 0.1 microseconds each with the C
search, 2.5 without it, compiled by mypyc)."""

STEP_NODES = 1_000_000 if native_search() else 100_000
"""Solver nodes allowed for each later position of the turn search."""

DECISION_BUDGET = 0.04
"""The hard player's budget (seconds of its fixed work) per judged decision."""

KEEP = 3
"""Costly decisions kept per seat (the worst first)."""

MIN_COST = 0.05
"""Costs below this (in points) are noise of the sampling, not mistakes."""

TRICK_COST = 0.75
"""Expected tricks lost (averaged over the sampled deals) that count as "about a
trick": a choice listed for its tricks lost a whole trick in most of the deals the
seat could be facing, or more than one in some."""

RESULT_SWING = 0.5
"""A fall of the chance of the side's result (the contract made for its holder
side, set for a defender) this large counts as "changed the result": in at least
half of the deals the seat could be facing, the other choice ended the deal the
other way."""

REASONS = (
    "uncashed",
    "not_returned",
    "trump_lead",
    "no_trump_draw",
    "too_high",
    "too_low",
    "discarded_winner",
    "overbid",
    "passed_maker",
    "trump_choice",
    "other",
)
"""The situations a kept decision is put in (:func:`reason_of`), in the order they
are tried; ``"other"``: none of them, the review then only compares the tricks."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged choice. ``move`` counts the deal's actions from 0; ``trick`` is the
    trick number (1..13) for a card, ``None`` in the auction and trump choice.
    ``chosen`` and ``better`` are action texts (:func:`batak.deal.format_action`);
    ``kept`` and ``got`` the expected points of the better and the chosen action."""

    seat: int
    move: int
    phase: str
    trick: int | None
    chosen: str
    better: str
    got: float
    kept: float
    lost: float = 0.0
    """Expected tricks the seat's side lost by ``chosen`` instead of ``better`` (never
    below 0); for an overbid, the tricks the bid was expected to fall short by."""
    swing: float = 0.0
    """How much the chance of the side's result fell (0..1): the contract made for
    the holder's side, set for a defender."""
    reason: str = "other"
    """One of :data:`REASONS`."""
    holder_side: bool = False
    """Whether the seat held the contract (or its partner did); in the auction,
    whether ``better`` was to hold it."""

    @property
    def cost(self) -> float:
        return max(0.0, self.kept - self.got)

    @property
    def worth_telling(self) -> bool:
        """Cost about a trick or likely changed the result (and really cost points)."""
        if self.cost < MIN_COST or self.chosen == self.better:
            return False
        return self.lost >= TRICK_COST or self.swing >= RESULT_SWING


@dataclass(frozen=True, slots=True)
class Turn:
    """The turning card: who played it, which, in which trick, and the double-dummy
    count of the holder's side just before and just after it."""

    seat: int
    card: str
    trick: int
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class Review:
    holder: int
    bid: int
    trump: str
    side_tricks: int
    made: bool
    par: int | None
    """The exact par; ``None`` when the solver's budget ran out at the start."""
    turn: Turn | None
    decisions: dict[int, tuple[Decision, ...]] = field(default_factory=dict)
    solved: int = 0
    """Positions the solver finished (out of ``positions``)."""
    positions: int = 0
    about: int | None = None
    """When the par is unknown: the first double-dummy count the solver did find (the
    par given the cards played before it, ``about_cards`` of them)."""
    about_cards: int = 0


def _fresh(deal: Deal) -> Deal:
    """The deal again from its first action (same hands, dealer and seed)."""
    return Deal(deal.rules, list(deal.initial_hands), deal.dealer, deal.seed)


def deal_actions(deal: Deal) -> list[tuple[int, Action]]:
    """The finished deal's actions in order, as ``(seat, action)``."""
    if not deal.is_over or deal.contract is None or deal.trump is None:
        raise ValueError("only a finished deal can be reviewed")
    out: list[tuple[int, Action]] = []
    replay = _fresh(deal)
    for seat, bid in deal.calls:
        action: Action = Pass() if bid is None else Bid(bid)
        out.append((seat, action))
        replay.apply(action, seat)
    if replay.phase is Phase.TRUMP:
        out.append((replay.to_act, TRUMPS[deal.trump]))
        replay.apply(TRUMPS[deal.trump], replay.to_act)
    for trick in deal.tricks:
        for i, card in enumerate(trick.cards):
            out.append((trick.seat_of(i), Play(card)))
    return out


def double_dummy_path(
    deal: Deal, *, par_nodes: int = PAR_NODES, step_nodes: int = STEP_NODES
) -> list[int | None]:
    """The holder side's double-dummy count at the start of play and after every card
    (53 numbers for a 13-trick deal); ``None`` where the solver ran out of budget.

    All positions are solved on one solver, whose table they share, in two passes:
    first the starts of the tricks from the last back to the first and then the
    start of play (``par_nodes``), each finding the later ones already in the
    table; then the positions inside the tricks, last first, which mostly meet
    what the first pass stored. Each position but the first may use
    ``step_nodes``; a pass stops at its first position out of budget (the
    earlier, larger ones would run out too), except that the start of play is
    always tried."""
    assert deal.contract is not None and deal.trump is not None
    holder = deal.contract.seat
    replay = _fresh(deal)
    states: list[tuple[Position | None, int]] = []
    for seat, action in deal_actions(deal):
        if replay.phase is Phase.PLAY and not states:
            won = side_tricks(deal.rules, replay.tricks_won, holder)
            states.append((deal_position(replay), won))
        replay.apply(action, seat)
        if isinstance(action, Play):
            won = side_tricks(deal.rules, replay.tricks_won, holder)
            states.append((None if replay.is_over else deal_position(replay), won))
    solver = Solver(deal.rules, deal.trump, holder)
    path: list[int | None] = [None] * len(states)
    starts = [k for k in range(len(states) - 1, -1, -1) if k % 4 == 0]
    inside = [k for k in range(len(states) - 1, -1, -1) if k % 4]
    for order in (starts, inside):
        stepping = True
        for k in order:
            pos, won = states[k]
            if pos is None:
                path[k] = won
                continue
            if not stepping and k > 0:
                continue
            try:
                path[k] = won + solver.solve(pos, max_nodes=par_nodes if k == 0 else step_nodes)
            except BudgetExceeded:
                stepping = False
    return path


def turning_card(deal: Deal, path: list[int | None]) -> Turn | None:
    """The first card after which the double-dummy verdict became the real outcome
    (see the module's notes); ``None`` when it never had to."""
    assert deal.contract is not None
    bid = deal.contract.bid
    made = path[-1] is not None and path[-1] >= bid
    cards = [
        (t.seat_of(i), c, n) for n, t in enumerate(deal.tricks, 1) for i, c in enumerate(t.cards)
    ]
    last: int | None = path[0]
    for k, (seat, card, number) in enumerate(cards, start=1):
        now = path[k]
        if now is None:
            continue
        if last is not None and (last >= bid) != made and (now >= bid) == made:
            return Turn(seat, card_code(card), number, last, now)
        last = now
    return None


# --- decisions ---------------------------------------------------------------


def _representative(card: int, legal: int, rest: int) -> int:
    """The card :func:`batak.ai.sim.distinct_cards` keeps for ``card``'s run."""
    while True:
        above = rest & ABOVE[card]
        if not above:
            return card
        nxt = above & -above
        if not legal & nxt:
            return card
        card = nxt.bit_length() - 1


def judge(obs: Observation, chosen: Action, budget: float = DECISION_BUDGET) -> Decision | None:
    """The hard player's judgement of ``chosen`` from ``obs`` alone (the seat's own
    information at the time); ``None`` when there was nothing to choose or the seat
    could not see its hand (blind bidding)."""
    if len(obs.legal) < 2 or obs.hand is None:
        return None
    bot = HardPlayer(0, budget=budget)
    rules = obs.rules
    trick_no = len(obs.tricks) + 1 if obs.phase is Phase.PLAY else None
    if obs.phase is Phase.AUCTION:
        means, sd = bot.suit_means(obs)
        choice = choose_bid(obs, means, sd)
        trump = choice.trump if choice.trump is not None else max(means, key=means.__getitem__)
        mean = means[trump]

        def value(a: Action) -> float:
            if isinstance(a, Bid):
                return bid_value(rules, mean, sd, a.tricks)[0]
            return choice.pass_value

        def make(a: Action) -> float:
            return bid_value(rules, mean, sd, a.tricks)[1] if isinstance(a, Bid) else 0.0

        best = max(obs.legal, key=value)
        lost = 0.0
        swing = 0.0
        if isinstance(chosen, Bid) and (not isinstance(best, Bid) or best.tricks < chosen.tricks):
            lost = chosen.tricks - mean  # the tricks the bid was expected to fall short by
            swing = (make(best) if isinstance(best, Bid) else 1.0) - make(chosen)
        elif isinstance(chosen, Pass) and isinstance(best, Bid):
            swing = make(best)  # the contract passed up, made this often
        return _decision(
            obs,
            chosen,
            best,
            value(chosen),
            value(best),
            trick_no,
            lost=lost,
            swing=swing,
            holder_side=isinstance(best, Bid),
        )
    if obs.phase is Phase.TRUMP:
        assert obs.contract is not None
        means, sd = bot.suit_means(obs)
        bid = obs.contract.bid
        suit, _t, _m = choose_trump(obs, means, sd)

        def suit_of(a: Action) -> Suit:
            s = getattr(a, "suit", None)
            assert isinstance(s, Suit)
            return s

        def suit_value(a: Action) -> tuple[float, float]:
            return bid_value(rules, means.get(suit_of(a), 0.0), sd, bid)

        best = TRUMPS[suit]
        (got, got_make), (kept, kept_make) = suit_value(chosen), suit_value(best)
        return _decision(
            obs,
            chosen,
            best,
            got,
            kept,
            trick_no,
            lost=means.get(suit, 0.0) - means.get(suit_of(chosen), 0.0),
            swing=kept_make - got_make,
            holder_side=True,
        )
    assert isinstance(chosen, Play) and obs.contract is not None
    legal = 0
    for a in obs.legal:
        if isinstance(a, Play):
            legal |= 1 << a.card
    rest = infer(obs).unseen | obs.hand
    analysis = bot.analyse_play(obs, force=True)
    stats = {st.card: st for st in analysis.stats}
    if len(stats) < 2:
        return None
    mine = stats[_representative(chosen.card, legal, rest)]
    top = max(analysis.stats, key=lambda st: (round(st.value, 9), -st.card))
    holder_side = is_holder_side(rules, obs.contract, obs.seat)

    def tricks(st: CardStats) -> float:
        return st.tricks / st.weight if st.weight else 0.0

    def goal(st: CardStats) -> float:  # the chance of the side's result
        made = st.makes / st.weight if st.weight else 0.0
        return made if holder_side else 1.0 - made

    return _decision(
        obs,
        chosen,
        Play(top.card),
        mine.value,
        top.value,
        trick_no,
        lost=tricks(top) - tricks(mine),
        swing=goal(top) - goal(mine),
        holder_side=holder_side,
    )


def _decision(
    obs: Observation,
    chosen: Action,
    best: Action,
    got: float,
    kept: float,
    trick: int | None,
    *,
    lost: float,
    swing: float,
    holder_side: bool,
) -> Decision:
    return Decision(
        obs.seat,
        len(obs.calls) + sum(len(t.cards) for t in obs.tricks) + len(obs.trick),
        obs.phase.value,
        trick,
        format_action(chosen),
        format_action(best),
        round(got, 2),
        round(max(kept, got), 2),
        lost=round(max(0.0, lost), 2),
        swing=round(min(1.0, max(0.0, swing)), 2),
        reason=reason_of(obs, chosen, best),
        holder_side=holder_side,
    )


def _is_master(obs: Observation, card: int) -> bool:
    """Whether ``card`` is the highest of its suit still out, as the seat sees it
    (every higher card played or in its own hand)."""
    assert obs.hand is not None
    return not ABOVE[card] & ~obs.played & ~obs.hand


def reason_of(obs: Observation, chosen: Action, better: Action) -> str:
    """The situation of a choice, in a player's terms (one of :data:`REASONS`), from
    what the seat saw: the trick on the table, the cards played, who led what.

    - leading: ``uncashed`` (the better card was the top card of its suit still
      out, the chosen one was not), ``not_returned`` (the better card was of a suit
      the partner had led, the chosen one was not), ``trump_lead`` (led trump, a
      side suit was better), ``no_trump_draw`` (the holder's side led a side suit,
      trump was better);
    - following with a card of the same suit as the better one (the led suit, or
      trump when ruffing): ``too_high`` / ``too_low``; discarding:
      ``discarded_winner`` (threw away the top card of its suit, the better card
      was not one);
    - auction: ``overbid`` (a bid above the better call), ``passed_maker`` (a pass
      where a bid was better); trump: ``trump_choice``;
    - ``other``: none of these.

    Ruffing or overtaking a partner's winning card, or letting a trick go that could
    be won, are never free choices here: a seat must beat the trick's highest card
    of the led suit when it can, and trump (over a trump) when it cannot follow.
    """
    if obs.phase is Phase.AUCTION:
        if isinstance(chosen, Bid) and (
            not isinstance(better, Bid) or better.tricks < chosen.tricks
        ):
            return "overbid"
        if isinstance(chosen, Pass) and isinstance(better, Bid):
            return "passed_maker"
        return "other"
    if obs.phase is Phase.TRUMP:
        return "trump_choice"
    if not isinstance(chosen, Play) or not isinstance(better, Play) or obs.trump is None:
        return "other"
    c, b = chosen.card, better.card
    tmask = SUIT_MASKS[obs.trump]
    if obs.trick:
        led = obs.trick[0] // 13
        if c // 13 == b // 13 and (c // 13 == led or tmask >> c & 1):
            return "too_high" if c > b else "too_low"
        if c // 13 != led and not tmask >> c & 1 and _is_master(obs, c) and not _is_master(obs, b):
            return "discarded_winner"
        return "other"
    if _is_master(obs, b) and not _is_master(obs, c):
        return "uncashed"
    partner = obs.partner()
    if partner is not None:
        theirs = {t.cards[0] // 13 for t in obs.tricks if t.leader == partner}
        theirs.discard(int(obs.trump))
        if b // 13 in theirs and c // 13 not in theirs:
            return "not_returned"
    c_trump, b_trump = bool(tmask >> c & 1), bool(tmask >> b & 1)
    if c_trump and not b_trump:
        return "trump_lead"
    holder = obs.contract is not None and is_holder_side(obs.rules, obs.contract, obs.seat)
    if b_trump and not c_trump and holder:
        return "no_trump_draw"
    return "other"


def judge_seat(deal: Deal, seat: int, budget: float = DECISION_BUDGET) -> list[Decision]:
    """Every judged decision of ``seat`` in the finished deal, in playing order."""
    out: list[Decision] = []
    replay = _fresh(deal)
    for s, action in deal_actions(deal):
        if s == seat:
            found = judge(replay.observation(seat), action, budget)
            if found is not None:
                out.append(found)
        replay.apply(action, s)
    return out


def costliest(decisions: Iterable[Decision], keep: int = KEEP) -> tuple[Decision, ...]:
    """The ``keep`` decisions worth telling (:attr:`Decision.worth_telling`), the worst
    first: those that likely changed the result, then by tricks lost (ties: the
    earlier first)."""
    real = [d for d in decisions if d.worth_telling]
    real.sort(key=lambda d: (d.swing < RESULT_SWING, -d.lost, -d.swing, d.move))
    return tuple(real[:keep])


def review_deal(
    deal: Deal,
    seats: Iterable[int] = (0, 1, 2, 3),
    *,
    par_nodes: int = PAR_NODES,
    step_nodes: int = STEP_NODES,
    budget: float = DECISION_BUDGET,
) -> Review:
    """The review of a finished deal; decisions are judged for ``seats`` only."""
    if not deal.is_over or deal.contract is None or deal.trump is None:
        raise ValueError("only a finished deal can be reviewed")
    contract = deal.contract
    path = double_dummy_path(deal, par_nodes=par_nodes, step_nodes=step_nodes)
    side = side_tricks(deal.rules, deal.tricks_won, contract.seat)
    first = next(p for p in path if p is not None)  # the last count is always known
    decisions = {s: costliest(judge_seat(deal, s, budget)) for s in sorted(set(seats))}
    return Review(
        holder=contract.seat,
        bid=contract.bid,
        trump=deal.trump.letter,
        side_tricks=side,
        made=contract_made(deal.rules, contract, deal.tricks_won),
        par=path[0],
        turn=turning_card(deal, path),
        decisions=decisions,
        solved=sum(1 for p in path if p is not None),
        positions=len(path),
        about=path[0] if path[0] is not None else first,
        about_cards=0 if path[0] is not None else path.index(first),
    )


def par_of(deal: Deal, nodes: int = PAR_NODES) -> int | None:
    """Only the par of a finished deal (``None``: not found within ``nodes``)."""
    if deal.contract is None or deal.trump is None:
        raise ValueError("the deal has no contract yet")
    start = _fresh(deal)
    for seat, action in deal_actions(deal):
        if start.phase is Phase.PLAY:
            break
        start.apply(action, seat)
    solver = Solver(deal.rules, deal.trump, deal.contract.seat)
    try:
        return solver.solve(deal_position(start), max_nodes=nodes)
    except BudgetExceeded:
        return None


def review_record(record: object, seats: tuple[int, ...]) -> Review:
    """:func:`review_deal` of a ``batak-deal/1`` record (for a worker process: plain
    data in, plain data out). Raises :class:`batak.records.RecordError` for a bad one."""
    from batak.records import deal_from_record

    return review_deal(deal_from_record(record), seats)


def pars_of_records(records: list[object], nodes: int = PAR_NODES) -> list[int | None]:
    """The par of each record (``None`` where the budget ran out)."""
    from batak.records import deal_from_record

    return [par_of(deal_from_record(r), nodes) for r in records]


__all__ = [
    "REASONS",
    "RESULT_SWING",
    "TRICK_COST",
    "Decision",
    "Review",
    "Turn",
    "costliest",
    "deal_actions",
    "double_dummy_path",
    "judge",
    "judge_seat",
    "par_of",
    "pars_of_records",
    "reason_of",
    "review_deal",
    "review_record",
    "turning_card",
]
