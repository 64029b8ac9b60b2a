"""Double-dummy solver: the tricks the contract holder's side takes with every hand known.

With all four hands face up, the contract holder (and, under ``partnership``,
the partner) plays to take as many of the remaining tricks as possible and the
other seats play together to hold that number down. :func:`solve` gives that
number; :func:`card_values` gives it after each card the seat to act may play,
which is what a post-deal review ("your 9♠ cost a trick") or a strong
computer player needs.

The search is a null-window alpha-beta over the trick count ("can the side
still take ``need`` tricks?"), stepped from a quick estimate as in MTD(f).
What keeps it small:

- a transposition table at every trick boundary, keyed on the *relative* ranks
  of the cards still out (who holds the highest spade left, the next, …), so
  positions that differ only in which low cards were played already meet;
  it stores a lower and an upper bound (one packed int) and the card that
  last refuted the test, and is kept between calls on one :class:`Solver`;
- sure tricks at each trick boundary: the top trumps held in one hand, and the
  leader's top cards of the side suits it can cash while every other trump
  holder must still follow, settle many tests without a search;
- an enhanced transposition cutoff at the trick's last card: every candidate's
  next position is first only looked up (sure tricks, the table), and when one
  of them already settles the test the others are not searched;
- equivalent cards: cards of one hand that are neighbours among the cards
  still in play (cards already played count as gaps closed) win and lose the
  same tricks, so only one of them is tried;
- move ordering: at a lead the card stored in the table first, then the leads
  that refuted most tests so far (a history table per seat, by suit and place
  among the cards still out), then the top card of a suit before low cards;
  when following, the cheapest card that takes the lead first, low cards when
  a partner already wins it.

The ordering changes only how fast the answer is found, never the answer: the
search is exact.

This module is the search's definition. Where ``build_native.py`` has built
``batak/_solver_core.c``, :class:`Solver` runs the same search in C, step for
step (20 to 25 times faster than this module compiled with mypyc; a test checks
both give the same answers after the same number of nodes).

The rules of play (legal cards, who wins a trick, when trump breaks) are the
engine's own, all from :mod:`batak.play`. A test plays thousands of small
endgames through :class:`batak.deal.Deal` and checks the solver against a
plain minimax.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from batak.ai.sim import Table, distinct_cards, rollout
from batak.cards import ABOVE, SUIT_MASKS, Card, CardMask, Suit, card_code, parse_card
from batak.play import breaks_trump, broken_at_start, lead_code, legal_mask, trick_best
from batak.rules import Rules, RulesError
from batak.scoring import same_side
from batak.solver_types import BudgetExceeded, Position, PositionError, deal_position

_HIST_TOP: Final = 1 << 30
_RANK: Final = tuple(c % 13 for c in range(52))


class Solver:
    """Solves positions of one kind: same rules, trump and holder's side.

    The transposition table is kept between calls, so the positions of one
    deal (a review walks through all of them) share their work. Make a new
    solver for another deal's contract or when memory matters
    (:attr:`table_size` entries, about 90 bytes each).
    """

    __slots__ = (
        "_cheap",
        "_core",
        "_hist",
        "_lead_rule",
        "_limit",
        "_overtake",
        "_pentry",
        "_pkey",
        "_side",
        "_tmask",
        "_tt",
        "nodes",
        "rules",
        "trump",
    )

    def __init__(self, rules: Rules, trump: Suit, holder: int, *, native: bool = True) -> None:
        """``native=False`` searches in Python even where the C search
        (``batak/_solver_core.c``) is built; both give the same answers after the
        same number of nodes."""
        self.rules = rules
        self.trump = trump
        self._tmask = SUIT_MASKS[trump]
        # how much a card is worth keeping: side cards by rank, then trumps by rank
        self._cheap = tuple((13 if SUIT_MASKS[trump] >> c & 1 else 0) + c % 13 for c in range(52))
        self._overtake = rules.overtake_when_trumped
        self._lead_rule = lead_code(rules.trump_lead)
        self._side = tuple(same_side(rules, s, holder) for s in range(4))
        self._tt: dict[int, int] = {}
        self.nodes = 0
        self._limit = -1
        self._pkey = 0
        self._hist = [0] * 256
        self._pentry = -1
        core = _native_core() if native else None
        self._core: Any = (
            None if core is None else core(int(trump), self._side, self._overtake, self._lead_rule)
        )

    @property
    def table_size(self) -> int:
        if self._core is not None:
            return int(self._core.size)
        return len(self._tt)

    @property
    def native(self) -> bool:
        """Whether the search runs in C (``batak/_solver_core.c``, when built)."""
        return self._core is not None

    def fits(self, pos: Position) -> bool:
        """Whether this solver's table applies to ``pos``."""
        return (
            pos.rules == self.rules
            and pos.trump == self.trump
            and all(pos.on_side(s) == self._side[s] for s in range(4))
        )

    def solve(
        self, pos: Position, guess: int | None = None, *, max_nodes: int | None = None
    ) -> int:
        """The tricks the holder's side takes from ``pos`` on (the trick on the table
        included) when both sides play their best.

        ``guess`` is a first estimate (default: a quick play-out). With
        ``max_nodes``, raises :class:`BudgetExceeded` once the search has visited
        that many more positions (a full deal takes 0.1 to 5 million; 8 cards a
        hand, a few thousand)."""
        self._limit = -1 if max_nodes is None else self.nodes + max_nodes
        if not self.fits(pos):
            raise ValueError("this solver was made for other rules, trump or holder")
        top = pos.tricks_left
        if top == 0:
            return 0
        hands = list(pos.hands)
        trick = list(pos.trick)
        broken = pos.trump_broken or broken_at_start(self._lead_rule)
        lo, hi = 0, top
        if guess is None:
            guess = self._estimate(pos)
        g = min(max(guess, 0), top)
        # MTD(f)-style: null-window tests stepping from the guess until the bounds meet.
        while lo < hi:
            need = max(g, lo + 1)
            if self._test(hands, trick, pos.leader, broken, need):
                lo = need
                g = need + 1
            else:
                hi = need - 1
                g = need - 1
        return lo

    def _estimate(self, pos: Position) -> int:
        """A first guess: the engine's rollout policy playing every seat, hands open."""
        table = Table.of(self.rules, int(self.trump), pos.holder, 1)
        broken = pos.trump_broken or broken_at_start(self._lead_rule)
        won = rollout(table, list(pos.hands), list(pos.trick), pos.leader, broken, [0, 0, 0, 0])
        return sum(won[s] for s in range(4) if self._side[s])

    def _test(
        self, hands: list[CardMask], trick: list[Card], leader: int, broken: bool, need: int
    ) -> bool:
        """One null-window test: whether the holder's side takes ``need`` more tricks."""
        core = self._core
        if core is None:
            return self._search(hands, trick, leader, broken, need)
        core.nodes = self.nodes
        core.limit = self._limit
        found = int(
            core.search(hands[0], hands[1], hands[2], hands[3], trick, leader, broken, need)
        )
        self.nodes = int(core.nodes)
        if found < 0:
            raise BudgetExceeded(self.nodes)
        return found == 1

    # --- the search (in Python; batak/_solver_core.c is the same in C) -----------

    def _search(
        self, hands: list[CardMask], trick: list[Card], leader: int, broken: bool, need: int
    ) -> bool:
        """Whether the holder's side can take ``need`` more tricks (counting the trick
        on the table). ``hands`` and ``trick`` are restored before returning."""
        self.nodes += 1
        n = len(trick)
        if n == 0:
            return self._boundary(hands, leader, broken, need)
        tmask = self._tmask
        seat = (leader + n) % 4
        hand = hands[seat]
        legal = legal_mask(hand, trick, tmask, broken, self._overtake)
        if legal & (legal - 1) == 0:  # one legal card: nothing to choose
            cands = [legal.bit_length() - 1]
        else:
            rest = hands[0] | hands[1] | hands[2] | hands[3]
            for c in trick:
                rest |= 1 << c
            cands = distinct_cards(legal, rest)
            if len(cands) > 1:
                cands = self._order_follow(cands, trick, leader, seat, tmask)
        maximising = self._side[seat]
        rule = self._lead_rule
        led = trick[0]
        if n == 3:
            return self._last_card(hands, trick, leader, broken, need, cands, maximising)
        for card in cands:
            nb = broken or breaks_trump(rule, tmask, led, card)
            hands[seat] = hand ^ (1 << card)
            trick.append(card)
            ok = self._search(hands, trick, leader, nb, need)
            trick.pop()
            hands[seat] = hand
            if ok is maximising:
                return ok
        return not maximising

    def _last_card(
        self,
        hands: list[CardMask],
        trick: list[Card],
        leader: int,
        broken: bool,
        need: int,
        cands: list[Card],
        maximising: bool,
    ) -> bool:
        """The fourth card of a trick. Every candidate's next position is first only
        looked up (bounds, the table): when one of them already settles the question,
        the others need no search (an enhanced transposition cutoff)."""
        tmask = self._tmask
        seat = (leader + 3) % 4
        hand = hands[seat]
        rule = self._lead_rule
        led = trick[0]
        side = self._side
        if len(cands) == 1:
            card = cands[0]
            nb = broken or breaks_trump(rule, tmask, led, card)
            hands[seat] = hand ^ (1 << card)
            trick.append(card)
            winner = (leader + trick_best(trick, tmask)) % 4
            trick.pop()
            ok = self._boundary(hands, winner, nb, need - 1 if side[winner] else need)
            hands[seat] = hand
            return ok
        open_cards: list[int] = []
        open_keys: list[int] = []
        for card in cands:
            nb = broken or breaks_trump(rule, tmask, led, card)
            hands[seat] = hand ^ (1 << card)
            trick.append(card)
            winner = (leader + trick_best(trick, tmask)) % 4
            trick.pop()
            found = self._probe(hands, winner, nb, need - 1 if side[winner] else need)
            hands[seat] = hand
            if found >= 0:
                if (found == 1) is maximising:
                    return maximising
            else:
                open_cards.append(card)
                open_keys.append(self._pkey)
        for i in range(len(open_cards)):
            card = open_cards[i]
            nb = broken or breaks_trump(rule, tmask, led, card)
            hands[seat] = hand ^ (1 << card)
            trick.append(card)
            winner = (leader + trick_best(trick, tmask)) % 4
            trick.pop()
            nd = need - 1 if side[winner] else need
            key = open_keys[i]
            # the search of an earlier card may have settled this one meanwhile
            entry = self._tt.get(key, -1)
            if entry >= 0 and (nd <= entry & 15 or nd > entry >> 4 & 15):
                ok = nd <= entry & 15
            else:
                ok = self._expand(hands, winner, nb, nd, key, entry)
            hands[seat] = hand
            if ok is maximising:
                return ok
        return not maximising

    def _probe(self, hands: list[CardMask], leader: int, broken: bool, need: int) -> int:
        """What the cheap tests tell of a trick boundary: 1 the side takes ``need``
        tricks, 0 it cannot, -1 a search must tell. Leaves the table key and entry
        of the position in ``_pkey`` / ``_pentry`` (entry -1: none)."""
        self._pentry = -1
        if need <= 0:
            return 1
        left = hands[leader].bit_count()
        if need > left:
            return 0
        tmask = self._tmask
        side = self._side
        if left == 1:
            cards = [hands[(leader + k) % 4].bit_length() - 1 for k in range(4)]
            return 1 if side[(leader + trick_best(cards, tmask)) % 4] else 0
        rest = hands[0] | hands[1] | hands[2] | hands[3]
        trumps = rest & tmask
        own = hands[leader]
        lead_run = 0  # the leader's sure trump tricks
        if trumps:
            # The highest trump out always wins its trick, and so do the next ones
            # when the same hand holds them: sure tricks for that hand's side.
            top = trumps.bit_length() - 1
            owner = 0
            while not hands[owner] >> top & 1:
                owner += 1
            held = hands[owner]
            run = 0
            while trumps and held >> (trumps.bit_length() - 1) & 1:
                run += 1
                trumps ^= 1 << (trumps.bit_length() - 1)
            if side[owner]:
                if need <= run:
                    return 1
            elif need > left - run:
                return 0
            if owner == leader:
                lead_run = run
        # The leader's top cards of a side suit win while every other hand that holds
        # a trump still has to follow that suit; the leader keeps the lead meanwhile.
        ruffers = []
        for h in hands:
            if h != own and h & tmask:
                ruffers.append(h)
        if not ruffers:
            # nobody else holds a trump: cash every suit, and every own trump wins
            cash = (own & tmask).bit_count()
            for suit_mask in SUIT_MASKS:
                if suit_mask != tmask:
                    r = rest & suit_mask
                    while r and own >> (r.bit_length() - 1) & 1:
                        cash += 1
                        r ^= 1 << (r.bit_length() - 1)
        else:
            best = 0
            for suit_mask in SUIT_MASKS:
                if suit_mask == tmask or not own & suit_mask:
                    continue
                limit = 13
                for h in ruffers:
                    k = (h & suit_mask).bit_count()
                    if k < limit:
                        limit = k
                r = rest & suit_mask
                c = 0
                while c < limit and own >> (r.bit_length() - 1) & 1:
                    c += 1
                    r ^= 1 << (r.bit_length() - 1)
                best += c
            cash = best + lead_run
        if cash:
            if side[leader]:
                if need <= cash:
                    return 1
            elif need > left - cash:
                return 0
        key = _key(hands, leader, broken)
        self._pkey = key
        entry = self._tt.get(key, -1)
        self._pentry = entry
        if entry >= 0:
            if need <= entry & 15:
                return 1
            if need > entry >> 4 & 15:
                return 0
        return -1

    def _boundary(self, hands: list[CardMask], leader: int, broken: bool, need: int) -> bool:
        found = self._probe(hands, leader, broken, need)
        if found >= 0:
            return found == 1
        return self._expand(hands, leader, broken, need, self._pkey, self._pentry)

    def _expand(
        self, hands: list[CardMask], leader: int, broken: bool, need: int, key: int, entry: int
    ) -> bool:
        """Search a trick boundary the cheap tests left open (:meth:`_probe` gave
        ``key`` and ``entry``)."""
        if 0 <= self._limit <= self.nodes:
            raise BudgetExceeded(self.nodes)
        if entry >= 0:
            lo = entry & 15
            hi = entry >> 4 & 15
            first = (entry >> 8) - 1
        else:
            lo, hi, first = 0, hands[leader].bit_count(), -1
        self.nodes += 1
        tmask = self._tmask
        rest = hands[0] | hands[1] | hands[2] | hands[3]
        hand = hands[leader]
        legal = legal_mask(hand, (), tmask, broken, self._overtake)
        cands = distinct_cards(legal, rest)
        if len(cands) > 1:
            hist = self._hist
            base = leader * 64
            order = [
                (_HIST_TOP - min(hist[base + _hplace(c, rest)], _HIST_TOP - 1)) << 12
                | (_lead_order(c, rest) + 16) << 6
                | c
                for c in cands
            ]
            order.sort()
            cands = [v & 63 for v in order]
            if first >= 0:
                card = _from_place(first, rest)
                if card != cands[0] and card in cands:
                    cands.remove(card)
                    cands.insert(0, card)
        maximising = self._side[leader]
        result = not maximising
        best = cands[0]
        rule = self._lead_rule
        trick: list[Card] = []
        for card in cands:
            hands[leader] = hand ^ (1 << card)
            trick.append(card)
            nb = broken or breaks_trump(rule, tmask, -1, card)
            ok = self._search(hands, trick, leader, nb, need)
            trick.pop()
            hands[leader] = hand
            if ok is maximising:
                result = ok
                best = card
                self._hist[leader * 64 + _hplace(card, rest)] += len(cands)
                break
        if result:
            lo = max(lo, need)
        else:
            hi = min(hi, need - 1)
        place = _place(best, rest) if result is maximising else first
        self._tt[key] = lo | hi << 4 | (place + 1) << 8
        return result

    def _order_follow(
        self, cands: list[Card], trick: list[Card], leader: int, seat: int, tmask: CardMask
    ) -> list[Card]:
        """Cheapest card that takes the lead first; low cards first when a friend wins."""
        bi = trick_best(trick, tmask)
        best = trick[bi]
        side = self._side
        cheap = self._cheap
        order = [cheap[c] << 6 | c for c in cands]
        if side[(leader + bi) % 4] != side[seat]:
            beat = ABOVE[best] if tmask >> best & 1 else ABOVE[best] | tmask
            # winners first: a card that beats the trick's best sorts 64 places earlier
            order = [v if beat >> (v & 63) & 1 else v | 1 << 12 for v in order]
        order.sort()
        return [v & 63 for v in order]


def _hplace(card: Card, rest: CardMask) -> int:
    """The history table's name for ``card``: its suit and how many cards still out
    rank above it there (so that "lead the second-best heart" is learnt once)."""
    return (card // 13) << 4 | (rest & ABOVE[card]).bit_count()


def _lead_order(card: Card, rest: CardMask) -> int:
    """Leads in this order: the top card out of a suit (highest first), then low cards."""
    if not rest & ~((2 << card) - 1) & SUIT_MASKS[card // 13]:
        return -_RANK[card]
    return _RANK[card]


def _place(card: Card, rest: CardMask) -> int:
    """``card`` as its suit and the number of cards of ``rest`` above it (a place that
    means the same card in every position with the same table key)."""
    suit = card // 13
    return suit << 4 | (rest & SUIT_MASKS[suit] & ~((2 << card) - 1)).bit_count()


def _from_place(place: int, rest: CardMask) -> Card:
    """The inverse of :func:`_place` for the cards of ``rest``."""
    r = rest & SUIT_MASKS[place >> 4]
    for _ in range(place & 15):
        r ^= 1 << (r.bit_length() - 1)
    return r.bit_length() - 1


def _compress_table(width: int) -> tuple[int, ...]:
    """``table[m << width | x]``: the bits of ``x`` at the set places of ``m``, packed
    together (``x`` a subset of ``m``), for ``width``-bit ``m``."""
    out = [0] * (1 << 2 * width)
    for m in range(1 << width):
        places = [i for i in range(width) if m >> i & 1]
        x = m
        while True:  # every subset x of m
            packed = 0
            for j, i in enumerate(places):
                packed |= (x >> i & 1) << j
            out[m << width | x] = packed
            if x == 0:
                break
            x = (x - 1) & m
    return tuple(out)


_PACK7: Final = _compress_table(7)
_PACK6: Final = _compress_table(6)
_POP7: Final = tuple(m.bit_count() for m in range(128))


def _key(hands: list[CardMask], leader: int, broken: bool) -> int:
    """The table key: per suit, how many of its cards are still out and who holds
    them in rank order (two bit planes packed over the cards still out), then
    leader and broken.

    Only the order of the cards still out matters to the rest of the deal, so
    positions that differ in which low cards are gone share one key."""
    h1, h3 = hands[1], hands[3]
    plane_a = h1 | h3
    plane_b = hands[2] | h3
    rest = hands[0] | h1 | hands[2] | h3
    # Two halves of two suits each (30 bits a suit), so that only the last step
    # works on a number wider than a machine word.
    halves = [0, 0]
    for half in range(2):
        part = 0
        for shift in (half * 26, half * 26 + 13):
            r = rest >> shift & 0x1FFF
            if not r:
                part <<= 30
                continue
            a = plane_a >> shift & 0x1FFF
            b = plane_b >> shift & 0x1FFF
            rl = r & 0x7F
            rh = r >> 7 << 6
            gap = _POP7[rl]
            rl <<= 7
            pa = _PACK7[rl | a & 0x7F] | _PACK6[rh | a >> 7] << gap
            pb = _PACK7[rl | b & 0x7F] | _PACK6[rh | b >> 7] << gap
            # 4 bits of count, then the two planes, 13 bits each
            part = part << 30 | r.bit_count() << 26 | pa << 13 | pb
        halves[half] = part
    return (halves[0] << 60 | halves[1]) << 3 | leader << 1 | broken


def _native_core() -> Any:
    """The C search's class, or None where it is not built (Python searches then)."""
    try:
        from batak import _solver_core
    except ImportError:
        return None
    return _solver_core.Core


def native_search() -> bool:
    """Whether solvers search in C here (``build_native.py`` built
    ``batak/_solver_core.c``): about 0.1 microseconds a node instead of 2.5
    (compiled with mypyc) or 30 (plain Python). Node budgets follow it."""
    return _native_core() is not None


# --- convenience -----------------------------------------------------------------


def solve(
    rules: Rules,
    hands: Sequence[CardMask],
    trump: Suit,
    leader: int,
    holder: int,
    *,
    trump_broken: bool = False,
    trick: Sequence[Card] = (),
    solver: Solver | None = None,
) -> int:
    """The tricks the holder's side takes from this position with best play by all.

    >>> from batak.rules import preset
    >>> from batak.cards import parse_cards
    >>> hands = [parse_cards(h) for h in (["AS"], ["KS"], ["QS"], ["JS"])]
    >>> solve(preset("standard"), hands, Suit.H, leader=1, holder=0)
    1
    """
    if len(hands) != 4:
        raise PositionError("hands", f"expected 4 hands, got {len(hands)}")
    four = (hands[0], hands[1], hands[2], hands[3])
    pos = Position(rules, four, trump, leader, holder, trump_broken, tuple(trick))
    return (solver or Solver(rules, trump, holder)).solve(pos)


def card_values(pos: Position, solver: Solver | None = None) -> dict[Card, int]:
    """For every legal card of the seat to act: the holder's side's tricks from ``pos``
    on (the trick on the table included) when that card is played and everyone
    plays best afterwards. The best card is the max for the holder's side, the
    min for the others."""
    solver = solver or Solver(pos.rules, pos.trump, pos.holder)
    seat = pos.to_act
    tmask = SUIT_MASKS[pos.trump]
    broken = pos.trump_broken or broken_at_start(lead_code(pos.rules.trump_lead))
    legal = legal_mask(pos.hands[seat], pos.trick, tmask, broken, pos.rules.overtake_when_trumped)
    out: dict[Card, int] = {}
    for card in _cards(legal):
        nxt = after_card(pos, card)
        taken = 0
        if len(pos.trick) == 3:
            winner = (pos.leader + trick_best([*pos.trick, card], tmask)) % 4
            taken = 1 if pos.on_side(winner) else 0
        out[card] = taken + solver.solve(nxt)
    return out


def after_card(pos: Position, card: Card) -> Position:
    """The position after the seat to act plays ``card`` (a legal card).

    When the card completes the trick, the new position starts the next trick
    with its winner to lead."""
    tmask = SUIT_MASKS[pos.trump]
    seat = pos.to_act
    broken = pos.trump_broken or broken_at_start(lead_code(pos.rules.trump_lead))
    legal = legal_mask(pos.hands[seat], pos.trick, tmask, broken, pos.rules.overtake_when_trumped)
    if not legal >> card & 1:
        raise PositionError("card", f"{card_code(card)} is not a legal card here")
    led = pos.trick[0] if pos.trick else -1
    broken = broken or breaks_trump(lead_code(pos.rules.trump_lead), tmask, led, card)
    hands = list(pos.hands)
    hands[seat] ^= 1 << card
    trick = (*pos.trick, card)
    leader = pos.leader
    if len(trick) == 4:
        leader = (leader + trick_best(trick, tmask)) % 4
        trick = ()
    return Position(
        pos.rules,
        (hands[0], hands[1], hands[2], hands[3]),
        pos.trump,
        leader,
        pos.holder,
        broken,
        trick,
    )


_JSON_KEYS: Final = ("rules", "hands", "trump", "leader", "holder", "trump_broken", "trick")


def position_from_json(data: Any) -> Position:
    """A position from its JSON form (one line of ``python -m batak solve``)::

        {"rules": {"preset": "standard"}, "hands": [["AS", "TH"], ...four...],
         "trump": "H", "leader": 0, "holder": 1, "trump_broken": false, "trick": []}

    ``rules`` is read like a record's (missing options take the preset's value);
    ``trump`` may be left out when the rules fix it; ``trump_broken`` and
    ``trick`` (cards on the table from ``leader`` on) are optional. Raises
    :class:`PositionError` naming the first wrong field.
    """
    if not isinstance(data, dict):
        raise PositionError("position", "expected a JSON object")
    for key in data:
        if key not in _JSON_KEYS:
            raise PositionError(str(key), "unknown field")
    for key in ("rules", "hands", "leader", "holder"):
        if key not in data:
            raise PositionError(key, "missing")
    try:
        rules = Rules.from_dict(data["rules"])
    except RulesError as exc:
        raise PositionError("rules", str(exc)) from None
    hands_in = data["hands"]
    if not isinstance(hands_in, list) or len(hands_in) != 4:
        raise PositionError("hands", "expected a list of 4 hands")
    hands = []
    for s, hand in enumerate(hands_in):
        if not isinstance(hand, list):
            raise PositionError(f"hands[{s}]", "expected a list of cards")
        mask = 0
        for i, text in enumerate(hand):
            card = _json_card(text, f"hands[{s}][{i}]")
            if mask >> card & 1:
                raise PositionError(f"hands[{s}][{i}]", f"{text} is listed twice")
            mask |= 1 << card
        hands.append(mask)
    trick_in = data.get("trick", [])
    if not isinstance(trick_in, list):
        raise PositionError("trick", "expected a list of cards")
    trick = tuple(_json_card(t, f"trick[{i}]") for i, t in enumerate(trick_in))
    if "trump" in data:
        text = data["trump"]
        if text not in ("S", "H", "D", "C"):
            raise PositionError("trump", f"expected S, H, D or C, got {text!r}")
        trump = Suit[text]
    elif rules.fixed_trump is not None:
        trump = rules.fixed_trump
    else:
        raise PositionError("trump", "missing (these rules do not fix it)")
    return Position(
        rules,
        (hands[0], hands[1], hands[2], hands[3]),
        trump,
        data["leader"],
        data["holder"],
        data.get("trump_broken", False),
        trick,
    )


def _json_card(text: Any, where: str) -> Card:
    if isinstance(text, str):
        try:
            card = parse_card(text)
        except ValueError:
            pass
        else:
            if card_code(card) == text:
                return card
    raise PositionError(where, f"not a card: {text!r}")


def _cards(mask: CardMask) -> Iterable[Card]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


__all__ = [
    "BudgetExceeded",
    "Position",
    "PositionError",
    "Solver",
    "after_card",
    "card_values",
    "deal_position",
    "native_search",
    "position_from_json",
    "solve",
]
