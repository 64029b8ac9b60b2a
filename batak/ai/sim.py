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
from typing import Final

from batak.cards import ABOVE as _CARDS_ABOVE
from batak.cards import SUIT_MASKS as _CARDS_SUIT_MASKS
from batak.cards import CardMask
from batak.play import (
    add_card,
    breaking_cards,
    lead_code,
    legal_cards,
    legal_mask,
    partner,
    trick_best,
    trick_state,
    winning_card,
)
from batak.rules import Rules
from batak.scoring import Holding, score_deal

ABOVE: Final[tuple[CardMask, ...]] = _CARDS_ABOVE
SUIT_MASKS: Final[tuple[CardMask, ...]] = _CARDS_SUIT_MASKS
# (Module constants of this module's own: compiled, they are read without a lookup.)


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
        return partner(seat) if self.partnership else seat


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


_RANK_MASKS: Final[tuple[CardMask, ...]] = tuple(
    sum(1 << (suit * 13 + rank) for suit in range(4)) for rank in range(13)
)
"""``_RANK_MASKS[r]``: the four cards of rank index ``r`` (0 = the twos)."""

_COUNT13: Final[tuple[int, ...]] = tuple(i.bit_count() for i in range(1 << 13))
"""The number of cards in a 13-bit suit chunk of a mask (a table: faster than
``int.bit_count`` once compiled)."""


def _suit_count(mask: CardMask, suit: int) -> int:
    """How many cards of ``suit`` the mask holds."""
    return _COUNT13[(mask >> (13 * suit)) & 0x1FFF]


def cheapest(cards: CardMask, tmask: CardMask) -> int:
    """The least valuable card: the lowest side card, else the lowest trump
    (among equal ranks, the one of the first suit)."""
    side = cards & ~tmask
    pool = side if side else cards
    for rank in range(13):
        m = pool & _RANK_MASKS[rank]
        if m:
            return (m & -m).bit_length() - 1
    return -1


def discard(cards: CardMask, tmask: CardMask, outstanding: CardMask) -> int:
    """The card to throw when not following suit: the lowest card of the shortest
    side suit that holds no master (a void to come), else :func:`cheapest`."""
    best = -1
    best_key = 1 << 30
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
        key = _suit_count(mine, suit) * 16 + low % 13  # (length, rank), lexicographic
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
    n = len(trick)
    p0, p1, p2, p3 = poss[0], poss[1], poss[2], poss[3]
    if n == 0:
        return _policy(table, seat, hand, p0, p1, p2, p3, 0, -1, -1, -1, leader, legal, has_trick)
    bi = trick_best(trick, table.tmask)
    win_seat = (leader + bi) % 4
    return _policy(
        table,
        seat,
        hand,
        p0,
        p1,
        p2,
        p3,
        n,
        trick[0],
        trick[bi],
        win_seat,
        leader,
        legal,
        has_trick,
    )


def _policy(
    table: Table,
    seat: int,
    hand: CardMask,
    p0: CardMask,
    p1: CardMask,
    p2: CardMask,
    p3: CardMask,
    n: int,
    led: int,
    best: int,
    win_seat: int,
    leader: int,
    legal: CardMask,
    has_trick: bool,
) -> int:
    """:func:`policy_card` on the trick's summary: ``n`` cards on the table, the first
    ``led``, the winning one so far ``best`` played by ``win_seat``; ``p0`` .. ``p3``
    are ``poss`` (four ints, not a sequence: nothing is allocated per card)."""
    tmask = table.tmask
    friend = table.friend(seat)
    if n == 0:
        return _lead(table, seat, hand, p0, p1, p2, p3, legal, friend)
    led_mask = SUIT_MASKS[led // 13]
    if win_seat == friend and friend != seat:
        # Partner is winning: keep it unless a later opponent can beat it.
        beaten = False
        for k in range(n + 1, 4):
            q = (leader + k) % 4
            if _can_beat(_at(p0, p1, p2, p3, q), best, led_mask, tmask):
                beaten = True
                break
        if not beaten:
            return cheapest(legal, tmask)
    holder = table.holder
    if has_trick and not table.partnership and seat != holder and win_seat != holder:
        # Another defender is winning: let it, unless the holder (still to play) can beat it.
        k = (holder - leader) % 4
        if k < n or not _can_beat(_at(p0, p1, p2, p3, holder), best, led_mask, tmask):
            return cheapest(legal, tmask)
    if tmask >> best & 1:
        winners = legal & tmask & ABOVE[best]
    else:
        winners = (legal & ABOVE[best]) | (legal & tmask)
    if not winners:
        if not legal & led_mask and legal & ~tmask:
            return discard(legal, tmask, _others(p0, p1, p2, p3, seat))
        return cheapest(legal, tmask)
    if n == 3:
        return cheapest(winners, tmask)
    # Try winners from cheapest up: the first one nobody after us can beat.
    for pool in (winners & ~tmask, winners & tmask):
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
                if _can_beat(_at(p0, p1, p2, p3, q), x, led_mask, tmask):
                    safe = False
                    break
            if safe:
                return x
    return cheapest(legal, tmask)


def _others(p0: CardMask, p1: CardMask, p2: CardMask, p3: CardMask, seat: int) -> CardMask:
    """The union of the masks of the seats other than ``seat``."""
    out = 0
    if seat != 0:
        out |= p0
    if seat != 1:
        out |= p1
    if seat != 2:
        out |= p2
    if seat != 3:
        out |= p3
    return out


def _at(p0: CardMask, p1: CardMask, p2: CardMask, p3: CardMask, seat: int) -> CardMask:
    """``(p0, p1, p2, p3)[seat]`` without building the tuple."""
    if seat < 2:
        return p0 if seat == 0 else p1
    return p2 if seat == 2 else p3


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
    table: Table,
    seat: int,
    hand: CardMask,
    p0: CardMask,
    p1: CardMask,
    p2: CardMask,
    p3: CardMask,
    legal: CardMask,
    friend: int,
) -> int:
    tmask = table.tmask
    outstanding = 0
    opp_trumps = 0
    ruffs = 0  # bit ``suit``: an opponent may be void in it and hold a trump
    for s in range(4):
        if s != seat:
            p = _at(p0, p1, p2, p3, s)
            outstanding |= p
            if s != friend and p & tmask:
                opp_trumps |= p & tmask
                for suit in range(4):
                    if not p & SUIT_MASKS[suit]:
                        ruffs |= 1 << suit
    attacking = table.holder == seat or table.holder == friend
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
        if ruffs >> suit & 1 and outstanding & sm:
            continue
        length = _suit_count(hand, suit)
        if length > best_len:
            best_master, best_len = top, length
    if best_master >= 0:
        return best_master
    if attacking and my_trumps and opp_trumps and _trump_count(my_trumps) >= 3:
        return _lowest_card(my_trumps)
    # Lead low from the longest side suit no opponent can ruff.
    choice = -1
    choice_key = -1
    for suit in range(4):
        sm = SUIT_MASKS[suit]
        if sm & tmask:
            continue
        mine = legal & sm
        if not mine:
            continue
        key = (0 if ruffs >> suit & 1 else 16) + _suit_count(hand, suit)
        if key > choice_key:
            choice_key = key
            choice = _lowest_card(mine)
    if choice >= 0:
        return choice
    return _lowest_card(legal)


def _trump_count(trumps: CardMask) -> int:
    count = 0
    for suit in range(4):
        count += _suit_count(trumps, suit)
    return count


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
    modified (``hands`` end empty, ``trick`` too).

    The hands are four local ints and the trick the three ints of
    :mod:`batak.play` (``led``, ``led_high``, ``trump_high``) plus the seat
    winning it, so a card allocates nothing.
    """
    tmask = table.tmask
    overtake = table.overtake
    breaking = table.breaking
    n = len(trick)
    led, led_high, trump_high = trick_state(trick, tmask)
    win_seat = (leader + trick_best(trick, tmask)) % 4 if n else -1
    trick.clear()
    h0, h1, h2, h3 = hands[0], hands[1], hands[2], hands[3]
    while True:
        seat = (leader + n) % 4
        hand = _at(h0, h1, h2, h3, seat)
        if not hand:
            break
        legal = legal_cards(hand, led, led_high, trump_high, tmask, broken, overtake)
        if legal & (legal - 1) == 0:
            card = legal.bit_length() - 1
        else:
            card = _policy(
                table,
                seat,
                hand,
                h0,
                h1,
                h2,
                h3,
                n,
                led,
                winning_card(led_high, trump_high),
                win_seat,
                leader,
                legal,
                won[seat] > 0,
            )
        bit = 1 << card
        if seat < 2:
            if seat == 0:
                h0 ^= bit
            else:
                h1 ^= bit
        elif seat == 2:
            h2 ^= bit
        else:
            h3 ^= bit
        if not broken and breaking[led + 1] >> card & 1:
            broken = True
        led, led_high, trump_high = add_card(led, led_high, trump_high, card, tmask)
        if winning_card(led_high, trump_high) == card:
            win_seat = seat
        n += 1
        if n == 4:
            won[win_seat] += 1
            leader = win_seat
            n = 0
            led = led_high = trump_high = -1
    hands[0], hands[1], hands[2], hands[3] = h0, h1, h2, h3
    return won


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


def draw_hands(
    seat: int,
    hand: CardMask,
    poss: tuple[CardMask, CardMask, CardMask, CardMask],
    sizes: tuple[int, int, int, int],
    cards: list[tuple[int, int]],
    rand: Callable[[], float],
    tries: int,
) -> list[CardMask] | None:
    """The dealing loop of :func:`batak.ai.knowledge.sample_hands`, compiled: ``cards``
    holds ``(number of seats that may hold it, card)`` for every unseen card, sorted;
    the same draws from ``rand`` give the same hands as the Python loop did."""
    others = [s for s in range(4) if s != seat]
    for _ in range(tries):
        hands = [0, 0, 0, 0]
        hands[seat] = hand
        room = [sizes[0], sizes[1], sizes[2], sizes[3]]
        ok = True
        order: list[tuple[int, float, int]] = [(n, 0.0, c) for n, c in cards]
        if len(order) > 1:
            # Shuffle within equal constraint levels so ties do not bias the draw.
            order = sorted([(n, rand(), c) for n, c in cards])
        for _n, _r, c in order:
            bitc = 1 << c
            total = 0
            for s in others:
                if poss[s] & bitc and room[s] > 0:
                    total += room[s]
            if total == 0:
                ok = False
                break
            r = rand() * total
            placed = False
            for s in others:
                if poss[s] & bitc and room[s] > 0:
                    r -= room[s]
                    if r < 0:
                        hands[s] |= bitc
                        room[s] -= 1
                        placed = True
                        break
            if not placed:  # rounding: give it to the last seat with room
                for s in reversed(others):
                    if poss[s] & bitc and room[s] > 0:
                        hands[s] |= bitc
                        room[s] -= 1
                        break
        if ok and all(room[s] == 0 for s in others):
            return hands
    return None


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
