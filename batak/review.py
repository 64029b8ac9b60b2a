"""The review of a finished deal: par, the turning card, and each seat's costliest choices.

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
  choice. The cost is the difference; a seat's costliest ones are kept.

Everything is deterministic for a given deal, seats and budgets.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from batak.ai.bidding import bid_value, choose_bid, choose_trump
from batak.ai.bots import HardPlayer
from batak.ai.knowledge import infer
from batak.cards import ABOVE, Suit, card_code
from batak.deal import TRUMPS, Action, Bid, Deal, Observation, Pass, Phase, Play, format_action
from batak.scoring import contract_made, side_tricks
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
"""Costliest decisions kept per seat."""

MIN_COST = 0.05
"""Costs below this (in points) are noise of the sampling, not mistakes."""


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

    @property
    def cost(self) -> float:
        return max(0.0, self.kept - self.got)


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

        def value(a: Action) -> float:
            if isinstance(a, Bid):
                return bid_value(rules, means[trump], sd, a.tricks)[0]
            return choice.pass_value

        best = max(obs.legal, key=value)
        return _decision(obs, chosen, best, value(chosen), value(best), trick_no)
    if obs.phase is Phase.TRUMP:
        assert obs.contract is not None
        means, sd = bot.suit_means(obs)
        bid = obs.contract.bid
        suit, _t, _m = choose_trump(obs, means, sd)

        def suit_value(a: Action) -> float:
            s = getattr(a, "suit", None)
            assert isinstance(s, Suit)
            return bid_value(rules, means.get(s, 0.0), sd, bid)[0]

        best = TRUMPS[suit]
        return _decision(obs, chosen, best, suit_value(chosen), suit_value(best), trick_no)
    assert isinstance(chosen, Play)
    legal = 0
    for a in obs.legal:
        if isinstance(a, Play):
            legal |= 1 << a.card
    rest = infer(obs).unseen | obs.hand
    analysis = bot.analyse_play(obs, force=True)
    values = {st.card: st.value for st in analysis.stats}
    if len(values) < 2:
        return None
    mine = values[_representative(chosen.card, legal, rest)]
    top = max(values.items(), key=lambda kv: (round(kv[1], 9), -kv[0]))
    return _decision(obs, chosen, Play(top[0]), mine, top[1], trick_no)


def _decision(
    obs: Observation, chosen: Action, best: Action, got: float, kept: float, trick: int | None
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
    )


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
    """The ``keep`` decisions that cost most (ties: the earlier first), costless ones out."""
    real = [d for d in decisions if d.cost >= MIN_COST]
    real.sort(key=lambda d: (-d.cost, d.move))
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
    "review_deal",
    "review_record",
    "turning_card",
]
