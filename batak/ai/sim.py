"""Fast play-phase simulation on bit masks: the card policy, rollouts, exact search.

These functions work on a bare position (four hand masks, the trick on the
table, the trump mask, whether trump is broken, tricks won) rather than on a
:class:`~batak.deal.Deal`, so that thousands of play-outs fit in a decision.
The rules (legal cards, trump breaking, trick winners) are those of
:mod:`batak.play`, the same functions the engine uses.

The card policy :func:`policy_card` takes, for every other seat, the set of
cards that seat *may* hold. Given the true hands it is a perfect-information
rollout policy; given the inferred possibilities of
:mod:`batak.ai.knowledge` it is the ``normal`` level's card play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from batak.cards import ABOVE, SUIT_MASKS, CardMask
from batak.play import (
    breaking_cards,
    lead_code,
    legal_mask,
    trick_best,
)
from batak.rules import Rules
from batak.scoring import Holding, score_deal

_RANK_ORDER = tuple(c % 13 for c in range(52))


@dataclass(frozen=True, slots=True)
class Table:
    """The fixed facts of a deal's play phase that the simulation needs."""

    rules: Rules
    trump: int
    tmask: CardMask
    holder: int
    bid: int
    lead_rule: int
    overtake: bool
    partnership: bool
    breaking: tuple[CardMask, ...]
    """:func:`batak.play.breaking_cards` of this trump and rule."""

    @classmethod
    def of(cls, rules: Rules, trump: int, holder: int, bid: int) -> Table:
        return cls(
            rules,
            trump,
            SUIT_MASKS[trump],
            holder,
            bid,
            lead_code(rules.trump_lead),
            rules.overtake_when_trumped,
            rules.partnership,
            breaking_cards(lead_code(rules.trump_lead), trump),
        )

    def friend(self, seat: int) -> int:
        """The partner in partnerships, else the seat itself."""
        return (seat + 2) % 4 if self.partnership else seat


def utility_table(
    rules: Rules, holder: int, bid: int
) -> Callable[[Sequence[int]], tuple[float, float, float, float]]:
    """A cached function: final tricks won → each seat's utility.

    A seat's utility is its deal score minus the mean of the other three
    (in partnerships that is two thirds of the team's score difference).
    """
    contract = Holding(holder, bid)
    cache: dict[tuple[int, ...], tuple[float, float, float, float]] = {}

    def util(won: Sequence[int]) -> tuple[float, float, float, float]:
        key = tuple(won)
        got = cache.get(key)
        if got is None:
            s = score_deal(rules, contract, list(won))
            total = s[0] + s[1] + s[2] + s[3]
            a, b, c, d = (x - (total - x) / 3.0 for x in s)
            got = (a, b, c, d)
            cache[key] = got
        return got

    return util


def cheapest(cards: CardMask, tmask: CardMask) -> int:
    """The least valuable card: the lowest side card, else the lowest trump."""
    side = cards & ~tmask
    pool = side or cards
    best = -1
    best_rank = 99
    m = pool
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        r = _RANK_ORDER[c]
        if r < best_rank:
            best, best_rank = c, r
    return best


def discard(cards: CardMask, tmask: CardMask, outstanding: CardMask) -> int:
    """The card to throw when not following suit: the lowest card of the shortest
    side suit that holds no master (a void to come), else :func:`cheapest`."""
    best = -1
    best_key = (99, 99)
    for suit in range(4):
        sm = SUIT_MASKS[suit]
        if sm & tmask:
            continue
        mine = cards & sm
        if not mine:
            continue
        top = mine.bit_length() - 1
        if not outstanding & ABOVE[top] and outstanding & sm:
            continue  # keep a suit with a winner in it
        low = (mine & -mine).bit_length() - 1
        key = (mine.bit_count(), low % 13)
        if key < best_key:
            best, best_key = low, key
    return best if best >= 0 else cheapest(cards, tmask)


def _lowest_card(mask: CardMask) -> int:
    return (mask & -mask).bit_length() - 1


def policy_card(
    table: Table,
    seat: int,
    hand: CardMask,
    poss: Sequence[CardMask],
    trick: Sequence[int],
    leader: int,
    broken: bool,
    legal: CardMask,
    has_trick: bool = True,
) -> int:
    """A sound card for ``seat``: win cheaply when it is safe, duck when it is not.

    ``poss[s]`` holds the cards seat ``s`` may hold (the true hand in a
    perfect-information rollout). ``has_trick``: the seat has taken a trick
    already (a defender who has need not fight another defender for one).
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    tmask = table.tmask
    friend = (seat + 2) % 4 if table.partnership else seat
    n = len(trick)
    if n == 0:
        return _lead(table, seat, hand, poss, legal, friend)
    led = trick[0]
    led_suit = led // 13
    led_mask = SUIT_MASKS[led_suit]
    bi = trick_best(trick, tmask)
    best = trick[bi]
    win_seat = (leader + bi) % 4
    if win_seat == friend and friend != seat:
        # Partner is winning: keep it unless a later opponent can beat it.
        beaten = False
        for k in range(n + 1, 4):
            q = (leader + k) % 4
            if _can_beat(poss[q], best, led_mask, tmask):
                beaten = True
                break
        if not beaten:
            return cheapest(legal, tmask)
    holder = table.holder
    if has_trick and not table.partnership and seat != holder and win_seat != holder:
        # Another defender is winning: let it, unless the holder (still to play) can beat it.
        k = (holder - leader) % 4
        if k < n or not _can_beat(poss[holder], best, led_mask, tmask):
            return cheapest(legal, tmask)
    if tmask >> best & 1:
        winners = legal & tmask & ABOVE[best]
    else:
        winners = (legal & ABOVE[best]) | (legal & tmask)
    if not winners:
        if not legal & led_mask and legal & ~tmask:
            return discard(legal, tmask, _outstanding(seat, poss))
        return cheapest(legal, tmask)
    if n == 3:
        return cheapest(winners, tmask)
    # Try winners from cheapest up: the first one nobody after us can beat.
    side_w = winners & ~tmask
    for pool in (side_w, winners & tmask):
        m = pool
        while m:
            low = m & -m
            x = low.bit_length() - 1
            m ^= low
            safe = True
            for k in range(n + 1, 4):
                q = (leader + k) % 4
                if q == friend:
                    continue
                if _can_beat(poss[q], x, led_mask, tmask):
                    safe = False
                    break
            if safe:
                return x
    return cheapest(legal, tmask)


def _outstanding(seat: int, poss: Sequence[CardMask]) -> CardMask:
    out = 0
    for s in range(4):
        if s != seat:
            out |= poss[s]
    return out


def _can_beat(qposs: CardMask, x: int, led_mask: CardMask, tmask: CardMask) -> bool:
    """Whether a seat that may hold ``qposs`` could beat card ``x`` in a trick led in
    ``led_mask`` (a seat that may follow is assumed to follow)."""
    follow = qposs & led_mask
    if tmask >> x & 1:
        if led_mask & tmask:
            return bool(qposs & ABOVE[x])
        return not follow and bool(qposs & ABOVE[x])
    if follow:
        return bool(follow & ABOVE[x])
    return bool(qposs & tmask)


def _lead(
    table: Table, seat: int, hand: CardMask, poss: Sequence[CardMask], legal: CardMask, friend: int
) -> int:
    tmask = table.tmask
    outstanding = 0
    opp_trumps = 0
    for s in range(4):
        if s != seat:
            outstanding |= poss[s]
            if s != friend:
                opp_trumps |= poss[s] & tmask
    attacking = table.holder in (seat, friend)
    my_trumps = legal & tmask
    if attacking and my_trumps and opp_trumps:
        top = my_trumps.bit_length() - 1
        if not outstanding & ABOVE[top]:
            return top
    # Cash a side-suit master that no opponent can ruff.
    best_master = -1
    best_len = -1
    for suit in range(4):
        sm = SUIT_MASKS[suit]
        if sm & tmask:
            continue
        mine = legal & sm
        if not mine:
            continue
        top = mine.bit_length() - 1
        if outstanding & ABOVE[top]:
            continue
        ruffed = False
        for s in range(4):
            if s != seat and s != friend and not poss[s] & sm and poss[s] & tmask:
                ruffed = True
                break
        if ruffed and (outstanding & sm):
            continue
        length = (hand & sm).bit_count()
        if length > best_len:
            best_master, best_len = top, length
    if best_master >= 0:
        return best_master
    if attacking and my_trumps and opp_trumps and my_trumps.bit_count() >= 3:
        return _lowest_card(my_trumps)
    # Lead low from the longest side suit no opponent can ruff.
    choice = -1
    choice_key = (-1, -1)
    for suit in range(4):
        sm = SUIT_MASKS[suit]
        if sm & tmask:
            continue
        mine = legal & sm
        if not mine:
            continue
        ruffable = 0
        for s in range(4):
            if s != seat and s != friend and not poss[s] & sm and poss[s] & tmask:
                ruffable = 1
                break
        key = (1 - ruffable, (hand & sm).bit_count())
        if key > choice_key:
            choice_key = key
            choice = _lowest_card(mine)
    if choice >= 0:
        return choice
    return _lowest_card(legal)


def rollout(
    table: Table,
    hands: list[CardMask],
    trick: list[int],
    leader: int,
    broken: bool,
    won: list[int],
) -> list[int]:
    """Play the position out with :func:`policy_card` for every seat (perfect
    information); returns the final tricks won. ``hands``/``trick``/``won`` are
    modified."""
    tmask = table.tmask
    overtake = table.overtake
    while True:
        seat = (leader + len(trick)) % 4
        hand = hands[seat]
        if not hand:
            return won
        legal = legal_mask(hand, trick, tmask, broken, overtake)
        card = policy_card(table, seat, hand, hands, trick, leader, broken, legal, won[seat] > 0)
        leader, broken = play_one(table, hands, trick, leader, broken, won, card)


def play_one(
    table: Table,
    hands: list[CardMask],
    trick: list[int],
    leader: int,
    broken: bool,
    won: list[int],
    card: int,
) -> tuple[int, bool]:
    """Play ``card`` for the seat to act; returns the new (leader, broken)."""
    tmask = table.tmask
    n = len(trick)
    seat = (leader + n) % 4
    hands[seat] &= ~(1 << card)
    if not broken and table.breaking[trick[0] + 1 if n else 0] >> card & 1:
        broken = True
    trick.append(card)
    if n == 3:
        winner = (leader + trick_best(trick, tmask)) % 4
        won[winner] += 1
        leader = winner
        trick.clear()
    return leader, broken


def distinct_cards(legal: CardMask, rest: CardMask) -> list[int]:
    """The legal cards that differ: of a run of cards with no ``rest`` card between
    them, only the highest is kept (they win and lose the same tricks)."""
    out = []
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        above = rest & ABOVE[c]
        if above:
            nxt = above & -above
            if legal & nxt:
                continue
        out.append(c)
    return out


class Solver:
    """Exact play with perfect information (max^n): every seat maximises its own
    utility; ties go to more tricks for its side. A transposition table keeps
    the outcome of every position at the start of a trick."""

    __slots__ = ("nodes", "table", "tt", "util")

    def __init__(
        self, table: Table, util: Callable[[Sequence[int]], tuple[float, float, float, float]]
    ) -> None:
        self.table = table
        self.util = util
        self.tt: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.nodes = 0

    def solve(
        self,
        hands: list[CardMask],
        trick: list[int],
        leader: int,
        broken: bool,
        won: tuple[int, ...],
    ) -> tuple[int, ...]:
        """The final tricks won from this position with best play by all."""
        self.nodes += 1
        table = self.table
        tmask = table.tmask
        n = len(trick)
        if n == 0:
            if not (hands[0] | hands[1] | hands[2] | hands[3]):
                return won
            key = (hands[0], hands[1], hands[2], hands[3], leader, broken, *won)
            got = self.tt.get(key)
            if got is not None:
                return got
        seat = (leader + n) % 4
        hand = hands[seat]
        legal = legal_mask(hand, trick, tmask, broken, table.overtake)
        rest = hands[0] | hands[1] | hands[2] | hands[3]
        cands = distinct_cards(legal, rest)
        friend = table.friend(seat)
        breaking = table.breaking[trick[0] + 1 if n else 0]
        best: tuple[int, ...] | None = None
        best_key: tuple[float, int] = (-1e9, -1)
        util = self.util
        for card in cands:
            hands[seat] = hand & ~(1 << card)
            nb = broken or bool(breaking >> card & 1)
            trick.append(card)
            if n == 3:
                winner = (leader + trick_best(trick, tmask)) % 4
                nw = list(won)
                nw[winner] += 1
                saved = trick[:]
                trick.clear()
                result = self.solve(hands, trick, winner, nb, tuple(nw))
                trick.extend(saved)
            else:
                result = self.solve(hands, trick, leader, nb, won)
            trick.pop()
            hands[seat] = hand
            side = result[seat] + (result[friend] if friend != seat else 0)
            rank = (util(result)[seat], side)
            if rank > best_key:
                best_key = rank
                best = result
        assert best is not None
        if n == 0:
            self.tt[(hands[0], hands[1], hands[2], hands[3], leader, broken, *won)] = best
        return best
