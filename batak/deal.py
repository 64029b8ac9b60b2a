"""One deal as a state machine: auction → trump → 13 tricks → scored.

>>> from batak import Deal, preset, Bid, PASS
>>> deal = Deal.from_seed(preset("standard"), seed=7, dealer=0)
>>> deal.to_act
1
>>> deal.apply(Bid(5))

Ask :meth:`Deal.legal_actions` for the choices of the seat to act and hand one
of them to :meth:`Deal.apply`. Anything else raises :class:`IllegalAction`
carrying a :class:`~batak.refusals.Refusal`: the broken rule and its values, which
the bot words in the reader's language (the message is its English wording).
:meth:`Deal.observation` gives what one seat may see; computer players and the UI
work from it alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Final, NamedTuple

from batak.cards import (
    SUIT_MASKS,
    SUITS,
    Card,
    CardMask,
    Suit,
    card_code,
    cards_of,
    mask_of,
    parse_card,
    sort_hand,
)
from batak.play import (
    breaking_cards,
    broken_at_start,
    lead_code,
    legal_cards,
    partner,
    trick_winner,
    winning_card,
)
from batak.refusals import Refusal
from batak.rules import Rules, show_value
from batak.scoring import score_deal
from batak.seeds import deal_hands

RECORD_FORMAT: Final = "batak-deal/1"
"""The ``format`` of the game records :meth:`Deal.to_record` writes."""


class Phase(Enum):
    AUCTION = "auction"
    TRUMP = "trump"
    PLAY = "play"
    DONE = "done"


_AUCTION: Final = Phase.AUCTION
_PLAY: Final = Phase.PLAY


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``refusal`` says why (a code and values for
    a reply in any language), the message in English (``message`` when given, else the
    refusal's own wording)."""

    def __init__(self, refusal: Refusal, message: str | None = None) -> None:
        super().__init__(str(refusal) if message is None else message)
        self.refusal = refusal

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[Refusal, str]]:
        return type(self), (self.refusal, str(self))


# --- actions ---------------------------------------------------------------


def _check_int(value: object, low: int, high: int, what: str) -> None:
    if type(value) is not int or not low <= value <= high:
        raise IllegalAction(_malformed(what, show_value(value), low, high))


def _malformed(what: str, value: str, low: int | None = None, high: int | None = None) -> Refusal:
    if low is None or high is None:
        return Refusal("malformed", {"what": what, "value": value})
    return Refusal("malformed", {"what": what, "value": value, "low": low, "high": high})


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid to take ``tricks`` tricks (an integer 1..13; anything else raises
    :class:`IllegalAction`, ``True`` included).

    >>> Bid(True)
    Traceback (most recent call last):
    ...
    batak.deal.IllegalAction: a bid must be an integer 1..13, not True
    """

    tricks: int

    def __post_init__(self) -> None:
        _check_int(self.tricks, 1, 13, "bid")

    def __str__(self) -> str:
        return f"bid {self.tricks}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass in the auction (final for this deal)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The contract holder names the trump suit."""

    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit):
            raise IllegalAction(_malformed("trump", show_value(self.suit)))

    def __str__(self) -> str:
        return f"trump {self.suit.letter}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick (a card is an integer 0..51; see :mod:`batak.cards`).

    >>> Play(52)
    Traceback (most recent call last):
    ...
    batak.deal.IllegalAction: a card must be an integer 0..51, not 52
    """

    card: Card

    def __post_init__(self) -> None:
        _check_int(self.card, 0, 51, "card")

    def __str__(self) -> str:
        return f"play {card_code(self.card)}"


Action = Bid | Pass | ChooseTrump | Play

PASS: Final = Pass()
BIDS: Final = {n: Bid(n) for n in range(1, 14)}
TRUMPS: Final = tuple(ChooseTrump(s) for s in SUITS)
PLAYS: Final = tuple(Play(c) for c in range(52))

# _SUIT_PLAYS[suit][bits]: the Play actions of the cards whose 13-bit suit pattern is
# ``bits``; turns a legal mask into actions without a per-card loop.
_SUIT_PLAYS: Final = tuple(
    tuple(tuple(PLAYS[s * 13 + r] for r in range(13) if bits >> r & 1) for bits in range(8192))
    for s in range(4)
)


def format_action(action: Action) -> str:
    """The text notation: ``"bid 5"``, ``"pass"``, ``"trump H"``, ``"play TH"``."""
    return str(action)


def parse_action(text: str) -> Action:
    """The inverse of :func:`format_action`; raises ``ValueError`` on bad text."""
    words = text.split()
    if words == ["pass"]:
        return PASS
    if len(words) == 2:
        verb, arg = words
        if verb == "bid" and arg.isdigit() and int(arg) in BIDS:
            return BIDS[int(arg)]
        if verb == "trump" and arg in ("S", "H", "D", "C"):
            return TRUMPS[Suit[arg]]
        if verb == "play":
            try:
                return PLAYS[parse_card(arg)]
            except ValueError:
                pass
    raise ValueError(f"not an action: {text!r} (examples: 'bid 6', 'pass', 'trump H', 'play TH')")


# --- state pieces ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Contract:
    seat: int
    bid: int
    forced: bool
    trump: Suit | None = None


class Trick(NamedTuple):
    """A completed trick. ``legal[i]`` is the legal set offered for ``cards[i]``.

    In an :class:`Observation` only the observing seat's own legal set is kept; the
    others are 0, since they would reveal cards of hidden hands.
    """

    leader: int
    cards: tuple[Card, ...]
    winner: int
    legal: tuple[CardMask, ...]

    def seat_of(self, index: int) -> int:
        return (self.leader + index) % 4

    def card_of(self, seat: int) -> Card:
        return self.cards[(seat - self.leader) % 4]


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may see. Nothing here reveals another seat's cards.

    ``hand`` is ``None`` while blind bidding hides it. ``legal`` holds the
    seat's choices when it is to act, else is empty.
    """

    seat: int
    rules: Rules
    dealer: int
    phase: Phase
    hand: CardMask | None
    to_act: int | None
    legal: tuple[Action, ...]
    calls: tuple[tuple[int, int | None], ...]
    high_bid: int | None
    contract: Contract | None
    trump: Suit | None
    trump_broken: bool
    trick_leader: int | None
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    played: CardMask
    scores: tuple[int, ...] | None

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    def partner(self) -> int | None:
        """The seat's partner in partnerships (:func:`batak.play.partner`), else ``None``."""
        return partner(self.seat) if self.rules.partnership else None


# --- the deal ----------------------------------------------------------------


class Deal:
    """One deal of Batak. Seats 0..3 are in playing order."""

    __slots__ = (
        "_breaking",
        "_high_seat",
        "_led",
        "_led_high",
        "_legal",
        "_overtake",
        "_trump_high",
        "_trump_mask",
        "calls",
        "contract",
        "dealer",
        "hands",
        "high_bid",
        "initial_hands",
        "passed",
        "phase",
        "played",
        "rules",
        "scores",
        "seed",
        "to_act",
        "trick",
        "trick_leader",
        "trick_legal",
        "tricks",
        "tricks_won",
        "trump",
        "trump_broken",
    )

    def __init__(
        self,
        rules: Rules,
        hands: tuple[CardMask, CardMask, CardMask, CardMask] | list[CardMask],
        dealer: int = 0,
        seed: int | None = None,
    ) -> None:
        if len(hands) != 4 or any(h.bit_count() != 13 for h in hands):
            raise ValueError("a deal needs four hands of 13 cards")
        if hands[0] | hands[1] | hands[2] | hands[3] != (1 << 52) - 1:
            raise ValueError("the four hands must hold the 52 cards once each")
        if dealer not in (0, 1, 2, 3):
            raise ValueError(f"dealer must be a seat 0..3, not {dealer!r}")
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        self.initial_hands: tuple[CardMask, ...] = tuple(hands)
        self.hands: list[CardMask] = list(hands)
        self.phase = Phase.AUCTION
        self.to_act = (dealer + 1) % 4
        self.calls: list[tuple[int, int | None]] = []
        self.high_bid = 0
        self._high_seat = -1
        self.passed = [False, False, False, False]
        self.contract: Contract | None = None
        self.trump: Suit | None = None
        self._trump_mask = 0
        self.trump_broken = False
        self._breaking: tuple[CardMask, ...] = ()
        self._overtake = rules.overtake_when_trumped
        self.trick_leader = -1
        self.trick: list[Card] = []
        self.trick_legal: list[CardMask] = []
        self._led = -1
        self._led_high = -1
        self._trump_high = -1
        self.tricks: list[Trick] = []
        self.tricks_won = [0, 0, 0, 0]
        self.played = 0
        self.scores: list[int] | None = None
        self._legal = -1

    @classmethod
    def from_seed(cls, rules: Rules, seed: int, dealer: int = 0) -> Deal:
        """The deal that ``seed`` produces (see :func:`batak.seeds.deal_hands`)."""
        return cls(rules, deal_hands(seed), dealer, seed)

    @classmethod
    def position(
        cls,
        rules: Rules,
        hands: list[CardMask] | tuple[CardMask, ...],
        *,
        trump: Suit,
        holder: int,
        bid: int,
        leader: int,
        trick: tuple[Card, ...] | list[Card] = (),
        trump_broken: bool = False,
        tricks_won: tuple[int, ...] | list[int] = (0, 0, 0, 0),
        dealer: int = 0,
    ) -> Deal:
        """A play-phase position in the middle of a deal (for puzzles, tests and search).

        ``hands`` are the cards each seat still holds, ``trick`` the cards
        already on the table starting with ``leader``'s. The deal plays on from
        there until every hand is empty; it has no record (its start is unknown).
        """
        trick = list(trick)
        if len(hands) != 4 or len(trick) > 3 or leader not in (0, 1, 2, 3):
            raise ValueError("a position needs four hands, a leader and at most 3 trick cards")
        union = 0
        for h in (*hands, mask_of(trick)):
            if union & h:
                raise ValueError("a card is in two places")
            union |= h
        if len(set(trick)) != len(trick):
            raise ValueError("a card is in the trick twice")
        sizes = [h.bit_count() for h in hands]
        done = [(leader + i) % 4 for i in range(len(trick))]
        waiting = [(leader + i) % 4 for i in range(len(trick), 4)]
        size = sizes[waiting[0]]
        if (
            size < 1
            or any(sizes[s] != size for s in waiting)
            or any(sizes[s] != size - 1 for s in done)
        ):
            raise ValueError("the hand sizes do not fit the trick on the table")
        deal = cls(rules, _full_placeholder(), dealer)
        deal.hands = list(hands)
        deal.initial_hands = tuple(hands)
        deal.contract = Contract(holder, bid, False, trump)
        deal.high_bid = bid
        deal._high_seat = holder
        deal._start_play(trump)
        deal.trump_broken = trump_broken or deal.trump_broken
        deal.tricks_won = list(tricks_won)
        deal.played = ((1 << 52) - 1) & ~union | mask_of(trick)
        deal.to_act = leader
        for card in trick:
            # Replay the trick cards through the normal path to set the trick state.
            seat = deal.to_act
            deal.hands[seat] |= 1 << card
            deal._legal = deal.hands[seat]  # cards already on the table were legal then
            deal.play_card(card)
        return deal

    # --- queries -------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def high_seat(self) -> int | None:
        return self._high_seat if self._high_seat >= 0 else None

    def legal_bids(self) -> list[int]:
        """The bids the seat to act may make (empty outside the auction)."""
        if self.phase is not Phase.AUCTION:
            return []
        return list(range(max(self.rules.min_bid, self.high_bid + 1), 14))

    def may_pass(self) -> bool:
        """Whether the seat to act may pass (``dealer-must-bid`` can forbid it)."""
        if self.phase is not Phase.AUCTION:
            return False
        return not (
            self.rules.all_pass == "dealer-must-bid"
            and self.to_act == self.dealer
            and self._high_seat < 0
            and sum(self.passed) == 3
        )

    def legal_card_mask(self) -> CardMask:
        """The cards the seat to act may play, as a mask (0 outside play)."""
        if self._legal >= 0:
            return self._legal
        if self.phase is not _PLAY:
            return 0
        legal = legal_cards(
            self.hands[self.to_act],
            self._led,
            self._led_high,
            self._trump_high,
            self._trump_mask,
            self.trump_broken,
            self._overtake,
        )
        self._legal = legal
        return legal

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now, in a stable order."""
        phase = self.phase
        if phase is _PLAY:
            mask = self.legal_card_mask()
            table = _SUIT_PLAYS
            out: list[Action] = []
            if mask & 0x1FFF:
                out.extend(table[0][mask & 0x1FFF])
            if mask >> 13 & 0x1FFF:
                out.extend(table[1][mask >> 13 & 0x1FFF])
            if mask >> 26 & 0x1FFF:
                out.extend(table[2][mask >> 26 & 0x1FFF])
            if mask >> 39:
                out.extend(table[3][mask >> 39])
            return out
        if phase is Phase.AUCTION:
            actions: list[Action] = [PASS] if self.may_pass() else []
            actions.extend(BIDS[n] for n in self.legal_bids())
            return actions
        if phase is Phase.TRUMP:
            return list(TRUMPS)
        return []

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now."""
        hide = self.rules.blind_bidding and self.phase is Phase.AUCTION
        return Observation(
            seat=seat,
            rules=self.rules,
            dealer=self.dealer,
            phase=self.phase,
            hand=None if hide else self.hands[seat],
            to_act=None if self.phase is Phase.DONE else self.to_act,
            legal=tuple(self.legal_actions()) if seat == self.to_act else (),
            calls=tuple(self.calls),
            high_bid=self.high_bid or None,
            contract=self.contract,
            trump=self.trump,
            trump_broken=self.trump_broken,
            trick_leader=self.trick_leader if self.phase is Phase.PLAY else None,
            trick=tuple(self.trick),
            tricks=tuple(_own_legal_only(t, seat) for t in self.tricks),
            tricks_won=tuple(self.tricks_won),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            played=self.played,
            scores=tuple(self.scores) if self.scores is not None else None,
        )

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not allowed now, in English (for the terminal and logs)."""
        return str(self.why_illegal(action))

    def why_illegal(self, action: Action) -> Refusal:
        """Why ``action`` is not allowed now: the rule and its values (see
        :class:`~batak.refusals.Refusal`), for a message in the reader's language."""
        phase = self.phase
        if phase is Phase.DONE:
            return Refusal("deal-over")
        if isinstance(action, Bid | Pass):
            if phase is not Phase.AUCTION:
                return Refusal("auction-over")
            if isinstance(action, Pass):
                return Refusal("dealer-must-bid", {"min_bid": self.rules.min_bid})
            low = max(self.rules.min_bid, self.high_bid + 1)
            if action.tricks > 13:
                return Refusal("over-13")
            if self.high_bid and action.tricks <= self.high_bid:
                return Refusal("bid-too-low", {"high": self.high_bid, "low": low})
            return Refusal("lowest-bid", {"low": low})
        if isinstance(action, ChooseTrump):
            if phase is Phase.AUCTION:
                return Refusal("auction-not-over")
            return Refusal("trump-chosen")
        if phase is not Phase.PLAY:
            return Refusal("not-yet-play")
        return self._card_refusal(action.card)

    def _card_refusal(self, card: Card) -> Refusal:
        hand = self.hands[self.to_act]
        if not (hand >> card) & 1:
            return Refusal("not-held", {"card": card})
        choices = tuple(sort_hand(self.legal_card_mask()))  # as the hand is shown
        trump = self.trump
        assert trump is not None
        if not self.trick:
            return Refusal("trump-not-broken", {"trump": trump, "choices": choices})
        led = SUITS[self.trick[0] // 13]
        if hand & SUIT_MASKS[led]:
            code = "follow-suit" if card // 13 != led else "play-higher"
            return Refusal(code, {"suit": led, "choices": choices})
        if card // 13 != trump:
            return Refusal("must-trump", {"suit": led, "choices": choices})
        return Refusal("higher-trump", {"choices": choices})

    # --- actions -------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply the action of the seat to act (or check that it is ``seat``'s turn).

        Raises :class:`IllegalAction` and changes nothing when the action is
        not allowed.
        """
        if seat is not None:
            _check_int(seat, 0, 3, "seat")
            if seat != self.to_act and self.phase is not Phase.DONE:
                raise IllegalAction(Refusal("not-your-turn", {"seat": self.to_act}))
        if type(action) is Play:
            self.play_card(action.card)
        elif type(action) is Bid or type(action) is Pass:
            self._call(action)
        elif type(action) is ChooseTrump:
            self._choose_trump(action.suit)
        else:
            raise IllegalAction(_malformed("action", repr(action)))

    def play_card(self, card: Card) -> None:
        """Play ``card`` for the seat to act (the fast path of :meth:`apply`)."""
        if type(card) is not int or not 0 <= card < 52:
            raise IllegalAction(_malformed("card", show_value(card), 0, 51))
        if self.phase is not _PLAY or not (self.legal_card_mask() >> card) & 1:
            raise IllegalAction(self.why_illegal(PLAYS[card]))
        seat = self.to_act
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        trick = self.trick
        self.trick_legal.append(self._legal)
        self._legal = -1
        tmask = self._trump_mask
        led = self._led
        if not self.trump_broken and self._breaking[led + 1] >> card & 1:
            self.trump_broken = True
        # The trick summary of batak.play.add_card, written out: this is the hot path.
        if led < 0:
            self.trick_leader = seat
            self._led = self._led_high = card
            if tmask >> card & 1:
                self._trump_high = card
        else:
            if card // 13 == led // 13 and card > self._led_high:
                self._led_high = card
            if tmask >> card & 1 and card > self._trump_high:
                self._trump_high = card
        trick.append(card)
        if len(trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        winner = (
            self.trick_leader + trick.index(winning_card(self._led_high, self._trump_high))
        ) % 4
        self.tricks.append(Trick(self.trick_leader, tuple(trick), winner, tuple(self.trick_legal)))
        self.tricks_won[winner] += 1
        self.trick = []
        self.trick_legal = []
        self._led = -1
        self._led_high = -1
        self._trump_high = -1
        self.to_act = winner
        self.trick_leader = winner
        if not (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]):
            self.phase = Phase.DONE
            assert self.contract is not None
            self.scores = score_deal(self.rules, self.contract, self.tricks_won)

    def _call(self, action: Bid | Pass) -> None:
        if self.phase is not Phase.AUCTION:
            raise IllegalAction(self.why_illegal(action))
        seat = self.to_act
        if type(action) is Pass:
            if not self.may_pass():
                raise IllegalAction(self.why_illegal(action))
            self.calls.append((seat, None))
            self.passed[seat] = True
        else:
            assert isinstance(action, Bid)
            n = action.tricks
            if type(n) is not int or n < max(self.rules.min_bid, self.high_bid + 1) or n > 13:
                raise IllegalAction(self.why_illegal(action))
            self.calls.append((seat, n))
            self.high_bid = n
            self._high_seat = seat
            if n == 13:
                self._end_auction(seat, 13, forced=False)
                return
        passes = sum(self.passed)
        if self._high_seat >= 0 and passes == 3:
            self._end_auction(self._high_seat, self.high_bid, forced=False)
            return
        if passes == 4:
            forced_bid = self.rules.forced_bid
            assert forced_bid is not None
            self._end_auction(self.dealer, forced_bid, forced=True)
            return
        nxt = (seat + 1) % 4
        while self.passed[nxt]:
            nxt = (nxt + 1) % 4
        self.to_act = nxt

    def _end_auction(self, holder: int, bid: int, forced: bool) -> None:
        self.to_act = holder
        fixed = self.rules.fixed_trump
        if fixed is not None:
            self.contract = Contract(holder, bid, forced, fixed)
            self._start_play(fixed)
        else:
            self.contract = Contract(holder, bid, forced, None)
            self.phase = Phase.TRUMP

    def _choose_trump(self, suit: Suit) -> None:
        if self.phase is not Phase.TRUMP:
            raise IllegalAction(self.why_illegal(TRUMPS[0]))
        if not isinstance(suit, Suit):
            raise IllegalAction(_malformed("suit", repr(suit)))
        assert self.contract is not None
        c = self.contract
        self.contract = Contract(c.seat, c.bid, c.forced, suit)
        self._start_play(suit)

    def _start_play(self, trump: Suit) -> None:
        self.trump = trump
        self._trump_mask = SUIT_MASKS[trump]
        lead_rule = lead_code(self.rules.trump_lead)
        self._breaking = breaking_cards(lead_rule, trump)
        self.trump_broken = broken_at_start(lead_rule)
        self.phase = Phase.PLAY
        self.trick_leader = self.to_act
        self._legal = -1

    # --- export ----------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The ``batak-deal/1`` record of this finished deal (see :mod:`batak.records`)."""
        if self.phase is not Phase.DONE or self.contract is None or self.scores is None:
            raise ValueError("only a finished deal has a record")
        contract = self.contract
        assert contract.trump is not None
        record: dict[str, Any] = {"format": RECORD_FORMAT, "rules": self.rules.deal_dict()}
        if self.seed is not None:
            record["seed"] = self.seed
        record.update(
            {
                "dealer": self.dealer,
                "hands": [_codes(h) for h in self.initial_hands],
                "auction": [{"seat": seat, "bid": bid} for seat, bid in self.calls],
                "contract": {
                    "seat": contract.seat,
                    "bid": contract.bid,
                    "forced": contract.forced,
                    "trump": contract.trump.letter,
                },
                "tricks": [
                    {
                        "leader": t.leader,
                        "cards": [card_code(c) for c in t.cards],
                        "winner": t.winner,
                        "legal": [_codes(m) for m in t.legal],
                    }
                    for t in self.tricks
                ],
                "tricks_won": list(self.tricks_won),
                "score": list(self.scores),
            }
        )
        return record

    def copy(self) -> Deal:
        """An independent copy (for search and simulations)."""
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.calls = list(self.calls)
        other.passed = list(self.passed)
        other.trick = list(self.trick)
        other.trick_legal = list(self.trick_legal)
        other.tricks = list(self.tricks)
        other.tricks_won = list(self.tricks_won)
        other.scores = list(self.scores) if self.scores is not None else None
        return other


def _own_legal_only(trick: Trick, seat: int) -> Trick:
    """The trick as ``seat`` may see it: the legal sets offered to the others are part of
    their hidden hands, so only ``seat``'s own stays (the others' read 0)."""
    own = (seat - trick.leader) % 4
    legal = tuple(m if i == own else 0 for i, m in enumerate(trick.legal))
    return Trick(trick.leader, trick.cards, trick.winner, legal)


def _full_placeholder() -> tuple[CardMask, CardMask, CardMask, CardMask]:
    suit = (1 << 13) - 1
    return (suit, suit << 13, suit << 26, suit << 39)


def _codes(mask: CardMask) -> list[str]:
    return [card_code(c) for c in cards_of(mask)]


__all__ = [
    "BIDS",
    "PASS",
    "PLAYS",
    "TRUMPS",
    "Action",
    "Bid",
    "ChooseTrump",
    "Contract",
    "Deal",
    "IllegalAction",
    "Observation",
    "Pass",
    "Phase",
    "Play",
    "Trick",
    "card_code",
    "format_action",
    "parse_action",
    "score_deal",
    "trick_winner",
]
