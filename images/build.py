"""Build view models from the engine (``batak``).

These are the only functions in ``images`` that touch the engine; everything
else works on the plain data of :mod:`images.views`. Each takes a
``batak.Match`` and the four players (names or :class:`~images.views.Player`),
and uses only what ``viewer_seat`` may see (its observation), so a public
picture never reveals a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .views import (
    AuctionView,
    ContractView,
    DealSummaryView,
    HandView,
    MatchResultView,
    Player,
    TableView,
    TrickView,
)

if TYPE_CHECKING:
    from batak.deal import Contract, Deal, Observation, Trick
    from batak.match import Match
    from batak.rules import Rules

Players = tuple[Player, Player, Player, Player]
Four = tuple[int, int, int, int]
Targets = tuple[int | None, int | None, int | None, int | None]


def players_of(names: Sequence[str | Player]) -> Players:
    """Four :class:`Player` from names or players."""
    if len(names) != 4:
        raise ValueError(f"need four players, got {len(names)}")
    out = [n if isinstance(n, Player) else Player(str(n)) for n in names]
    return (out[0], out[1], out[2], out[3])


def _four(values: Sequence[int]) -> Four:
    return (int(values[0]), int(values[1]), int(values[2]), int(values[3]))


def _code(card: int) -> str:
    from batak.cards import card_code

    return card_code(card)


def contract_view(contract: Contract | None) -> ContractView | None:
    if contract is None:
        return None
    trump = contract.trump.letter if contract.trump is not None else None
    return ContractView(contract.seat, contract.bid, contract.forced, trump)


def targets_of(rules: Rules, contract: Contract | None) -> Targets:
    """Tricks each seat (or team) is contracted to: :func:`batak.scoring.targets`."""
    from batak.scoring import targets

    return targets(rules, contract)


def _trick_view(trick: Trick) -> TrickView:
    return TrickView(trick.leader, tuple(_code(c) for c in trick.cards), trick.winner)


def _phase(obs: Observation) -> str:
    return str(obs.phase.value)


def table_view_from_observation(
    obs: Observation,
    names: Sequence[str | Player],
    totals: Sequence[int] = (0, 0, 0, 0),
    deal_number: int = 1,
) -> TableView:
    """The table seen by ``obs.seat`` (drawn at the bottom)."""
    rules = obs.rules
    trick = None
    if obs.trick and obs.trick_leader is not None and 0 <= obs.trick_leader <= 3:
        trick = TrickView(obs.trick_leader, tuple(_code(c) for c in obs.trick))
    last = _trick_view(obs.tricks[-1]) if obs.tricks else None
    trump = obs.trump.letter if obs.trump is not None else None
    if trump is None and rules.fixed_trump is not None:
        trump = rules.fixed_trump.letter
    return TableView(
        players=players_of(names),
        viewer_seat=obs.seat,
        dealer=obs.dealer,
        phase=_phase(obs),
        contract=contract_view(obs.contract),
        trump=trump,
        trick=trick,
        last_trick=last,
        to_act=obs.to_act,
        tricks_won=_four(obs.tricks_won),
        targets=targets_of(rules, obs.contract),
        totals=_four(totals),
        deal_number=deal_number,
        deal_count=rules.deals,
        partnership=rules.partnership,
        preset=rules.preset,
        trump_broken=obs.trump_broken,
        hand_sizes=_four(obs.hand_sizes),
        calls=tuple(obs.calls),
    )


def table_view_from_match(
    match: Match, names: Sequence[str | Player], viewer_seat: int = 0, *, spectator: bool = False
) -> TableView:
    """The table picture's data for the match now, drawn from ``viewer_seat``.

    ``spectator=True`` is the public picture: drawn the same way, but nobody is
    labelled "you". Only public facts are used either way (hands are not drawn).
    """
    view = table_view_from_observation(
        match.observation(viewer_seat), names, match.totals, match.deal_number
    )
    return replace(view, spectator=True) if spectator else view


def auction_view_from_match(
    match: Match, names: Sequence[str | Player], viewer_seat: int = 0, *, spectator: bool = False
) -> AuctionView:
    """The auction picture's data for the current deal (``spectator``: the public one)."""
    obs = match.observation(viewer_seat)
    rules = obs.rules
    return AuctionView(
        players=players_of(names),
        dealer=obs.dealer,
        calls=tuple(obs.calls),
        to_act=obs.to_act if obs.phase.value == "auction" else None,
        min_bid=rules.min_bid,
        viewer_seat=viewer_seat,
        deal_number=match.deal_number,
        deal_count=rules.deals,
        preset=rules.preset,
        partnership=rules.partnership,
        forced_bid=rules.forced_bid if rules.all_pass == "dealer-forced" else None,
        fixed_trump=rules.fixed_trump.letter if rules.fixed_trump is not None else None,
        blind=rules.blind_bidding,
        contract=contract_view(obs.contract),
        totals=_four(match.totals),
        spectator=spectator,
    )


def deal_summary_view(
    match: Match, names: Sequence[str | Player], index: int = -1, viewer_seat: int = 0
) -> DealSummaryView:
    """The summary of finished deal ``index`` (default: the last one finished)."""
    if not match.finished:
        raise ValueError("no deal has finished yet")
    if index < 0:
        index += len(match.finished)
    deal: Deal = match.finished[index]
    assert deal.scores is not None
    totals = [0, 0, 0, 0]
    for d in match.finished[: index + 1]:
        assert d.scores is not None
        for s in range(4):
            totals[s] += d.scores[s]
    return DealSummaryView(
        players=players_of(names),
        contract=contract_view(deal.contract),
        tricks_won=_four(deal.tricks_won),
        targets=targets_of(deal.rules, deal.contract),
        scores=_four(deal.scores),
        totals=_four(totals),
        deal_number=index + 1,
        deal_count=deal.rules.deals,
        preset=deal.rules.preset,
        partnership=deal.rules.partnership,
        viewer_seat=viewer_seat,
        dealer=deal.dealer,
        hands=tuple(_codes_of(h) for h in deal.initial_hands),  # the deal is over
    )


def _codes_of(hand: int) -> tuple[str, ...]:
    from batak.cards import card_code, cards_of

    return sort_hand([card_code(c) for c in cards_of(hand)])


def match_result_view(
    match: Match, names: Sequence[str | Player], viewer_seat: int = 0
) -> MatchResultView:
    """Per-deal scores, totals and winners (no winners while the match runs)."""
    rows = []
    contracts = []
    for d in match.finished:
        assert d.scores is not None
        rows.append(_four(d.scores))
        contracts.append(contract_view(d.contract))
    return MatchResultView(
        players=players_of(names),
        deal_scores=tuple(rows),
        totals=_four(match.totals),
        winners=tuple(match.winners),
        contracts=tuple(contracts),
        preset=match.rules.preset,
        partnership=match.rules.partnership,
        deal_count=match.rules.deals,
        viewer_seat=viewer_seat,
    )


def sort_hand(codes: Sequence[str]) -> tuple[str, ...]:
    """Display order for a hand: :func:`batak.cards.sort_codes` (♠ ♥ ♣ ♦, high to low)."""
    from batak.cards import sort_codes

    return tuple(sort_codes(codes))


def hand_view_from_observation(obs: Observation, title: str = "Your hand") -> HandView:
    """``obs.seat``'s hand; when it is that seat's turn to play, its legal cards."""
    from batak.cards import cards_of
    from batak.deal import Play

    codes = [] if obs.hand is None else [_code(c) for c in cards_of(obs.hand)]
    legal = None
    if obs.phase.value == "play" and obs.to_act == obs.seat:
        legal = frozenset(_code(a.card) for a in obs.legal if isinstance(a, Play))
    trump = obs.trump.letter if obs.trump is not None else None
    return HandView(sort_hand(codes), legal, trump, title, hidden=obs.hand is None)


def hand_view_from_match(match: Match, seat: int, title: str = "Your hand") -> HandView:
    return hand_view_from_observation(match.observation(seat), title)
