"""Plain-data view models the renderers draw.

No view holds engine state: a view is built from the engine's observation by
:mod:`images.build`, or by hand (tests, the gallery). The one thing taken from
the engine is :mod:`batak.scoring` (pure functions of plain ints), so "made it"
on a picture is decided by the same rule as everywhere else. Cards are two-character
codes, rank then suit: ranks ``23456789TJQKA``, suits ``SHDC`` (``"TH"`` is the
ten of hearts). Seats are 0..3 in playing order, as in the rules.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from batak import scoring
from batak.cards import RANK_CHARS, RANK_LABELS
from batak.cards import SUITS as _ENGINE_SUITS

RANKS = RANK_CHARS
"""The rank characters of a card code, low to high (the record notation's)."""
SUITS = "".join(s.letter for s in _ENGINE_SUITS)
"""The suit letters of a card code, in the record notation's order (``"SHDC"``)."""
SUIT_SYMBOLS = {s.letter: s.symbol for s in _ENGINE_SUITS}
"""The engine's suit symbols (:attr:`batak.cards.Suit.symbol`) by suit letter."""
RED_SUITS = frozenset(s.letter for s in _ENGINE_SUITS if s.is_red)
"""The letters of the red suits (hearts and diamonds)."""
_RANK_LABELS = dict(zip(RANK_CHARS, RANK_LABELS, strict=True))

PHASES = ("auction", "trump", "play", "done")

# Avatar colours: distinct, readable with white initials on both themes.
AVATAR_COLOURS: tuple[tuple[int, int, int], ...] = (
    (88, 101, 242),
    (235, 69, 158),
    (59, 165, 93),
    (250, 166, 26),
    (237, 66, 69),
    (26, 188, 156),
    (155, 89, 182),
    (52, 152, 219),
)

Colour = tuple[int, int, int]


def is_card(code: str) -> bool:
    """True when ``code`` is a valid two-character card code such as ``"TH"``."""
    return len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def check_card(code: str) -> str:
    if not is_card(code):
        raise ValueError(f"not a card code: {code!r}")
    return code


def rank_label(code: str) -> str:
    """``"TH"`` -> ``"10"``, ``"AS"`` -> ``"A"``."""
    return _RANK_LABELS.get(code[0], code[0])


def card_label(code: str) -> str:
    """``"TH"`` -> ``"10♥"``."""
    return rank_label(code) + SUIT_SYMBOLS[code[1]]


def check_seat(seat: int, what: str = "seat") -> int:
    if not 0 <= seat <= 3:
        raise ValueError(f"{what} must be 0..3, got {seat!r}")
    return seat


def default_colour(name: str) -> Colour:
    """A stable avatar colour derived from the name (not Python's salted hash)."""
    return AVATAR_COLOURS[zlib.crc32(name.encode("utf-8", "replace")) % len(AVATAR_COLOURS)]


def team_of(seat: int) -> int:
    """Partnership team: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


@dataclass(frozen=True)
class Player:
    """One seat's person: display name, optional initials and avatar colour."""

    name: str
    initials: str = ""
    colour: Colour | None = None
    is_bot: bool = False

    @property
    def avatar_colour(self) -> Colour:
        return self.colour if self.colour is not None else default_colour(self.name)


@dataclass(frozen=True)
class ContractView:
    """The contract: holder seat, bid, forced or not, trump once named (``"S"``...)."""

    seat: int
    bid: int
    forced: bool = False
    trump: str | None = None

    def __post_init__(self) -> None:
        check_seat(self.seat, "contract seat")
        if self.trump is not None and self.trump not in SUITS:
            raise ValueError(f"trump must be one of {SUITS!r} or None, got {self.trump!r}")


@dataclass(frozen=True)
class TrickView:
    """A trick: the leader and the cards in playing order from the leader."""

    leader: int
    cards: tuple[str, ...] = ()
    winner: int | None = None

    def __post_init__(self) -> None:
        check_seat(self.leader, "trick leader")
        if len(self.cards) > 4:
            raise ValueError("a trick has at most four cards")
        for c in self.cards:
            check_card(c)
        if self.winner is not None:
            check_seat(self.winner, "trick winner")

    def by_seat(self) -> dict[int, str]:
        """The cards keyed by the seat that played them."""
        return {(self.leader + i) % 4: c for i, c in enumerate(self.cards)}


def _four(values: tuple[object, ...], what: str) -> None:
    if len(values) != 4:
        raise ValueError(f"{what} needs one value per seat (4), got {len(values)}")


@dataclass(frozen=True)
class TableView:
    """Everything the table picture shows. Seat ``viewer_seat`` is drawn at the bottom.

    ``targets[s]`` is the number of tricks seat ``s`` (or its team, with
    partnerships) is contracted to, or None when it has none (defenders under
    ``"tricks"`` scoring, or before the contract is known). ``tricks_won`` is per
    seat; with partnerships the picture adds partners up.
    """

    players: tuple[Player, Player, Player, Player]
    viewer_seat: int = 0
    dealer: int = 0
    phase: str = "play"
    contract: ContractView | None = None
    trump: str | None = None
    trick: TrickView | None = None
    last_trick: TrickView | None = None
    to_act: int | None = None
    tricks_won: tuple[int, int, int, int] = (0, 0, 0, 0)
    targets: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)
    totals: tuple[int, int, int, int] = (0, 0, 0, 0)
    deal_number: int = 1
    deal_count: int = 8
    partnership: bool = False
    preset: str = "standard"
    trump_broken: bool = False
    hand_sizes: tuple[int, int, int, int] = (13, 13, 13, 13)
    calls: tuple[tuple[int, int | None], ...] = ()
    spectator: bool = False
    """The public picture: seat ``viewer_seat`` is drawn at the bottom but nobody is "you"."""

    def __post_init__(self) -> None:
        _four(self.players, "players")
        _four(self.tricks_won, "tricks_won")
        _four(self.targets, "targets")
        _four(self.totals, "totals")
        _four(self.hand_sizes, "hand_sizes")
        check_seat(self.viewer_seat, "viewer_seat")
        check_seat(self.dealer, "dealer")
        if self.to_act is not None:
            check_seat(self.to_act, "to_act")
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}, got {self.phase!r}")
        if self.trump is not None and self.trump not in SUITS:
            raise ValueError(f"trump must be one of {SUITS!r} or None, got {self.trump!r}")

    @property
    def effective_trump(self) -> str | None:
        if self.trump is not None:
            return self.trump
        return self.contract.trump if self.contract is not None else None

    def team_tricks(self, seat: int) -> int:
        """The tricks that count for ``seat`` (:func:`batak.scoring.side_tricks`)."""
        return scoring.side_tricks(self, self.tricks_won, seat)


@dataclass(frozen=True)
class AuctionView:
    """The auction so far: calls in order (``None`` is a pass) and who is to call."""

    players: tuple[Player, Player, Player, Player]
    dealer: int = 0
    calls: tuple[tuple[int, int | None], ...] = ()
    to_act: int | None = None
    min_bid: int = 5
    viewer_seat: int = 0
    deal_number: int = 1
    deal_count: int = 8
    preset: str = "standard"
    partnership: bool = False
    forced_bid: int | None = None
    fixed_trump: str | None = None
    blind: bool = False
    contract: ContractView | None = None
    totals: tuple[int, int, int, int] = (0, 0, 0, 0)
    spectator: bool = False
    """The public picture: nobody is labelled "you"."""

    def __post_init__(self) -> None:
        _four(self.players, "players")
        _four(self.totals, "totals")
        check_seat(self.dealer, "dealer")
        check_seat(self.viewer_seat, "viewer_seat")
        if self.to_act is not None:
            check_seat(self.to_act, "to_act")
        for seat, bid in self.calls:
            check_seat(seat, "call seat")
            if bid is not None and not 1 <= bid <= 13:
                raise ValueError(f"bid must be 1..13, got {bid!r}")

    @property
    def high(self) -> tuple[int, int] | None:
        """(seat, bid) of the highest bid so far, or None."""
        best: tuple[int, int] | None = None
        for seat, bid in self.calls:
            if bid is not None and (best is None or bid > best[1]):
                best = (seat, bid)
        return best

    def passed(self, seat: int) -> bool:
        return any(s == seat and b is None for s, b in self.calls)


@dataclass(frozen=True)
class DealSummaryView:
    """One finished deal: per seat tricks, contract, made or went down, deal score."""

    players: tuple[Player, Player, Player, Player]
    contract: ContractView | None
    tricks_won: tuple[int, int, int, int]
    targets: tuple[int | None, int | None, int | None, int | None]
    scores: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    deal_number: int = 1
    deal_count: int = 8
    preset: str = "standard"
    partnership: bool = False
    viewer_seat: int = 0
    dealer: int = 0
    hands: tuple[tuple[str, ...], ...] = ()
    """The four hands as they were dealt (card codes, display order), drawn under the
    scores; empty: not drawn. The deal is over, so no card of it is hidden any more."""

    def __post_init__(self) -> None:
        if self.hands:
            _four(self.hands, "hands")
        for values, what in (
            (self.players, "players"),
            (self.tricks_won, "tricks_won"),
            (self.targets, "targets"),
            (self.scores, "scores"),
            (self.totals, "totals"),
        ):
            _four(values, what)

    def team_tricks(self, seat: int) -> int:
        """The tricks that count for ``seat`` (:func:`batak.scoring.side_tricks`)."""
        return scoring.side_tricks(self, self.tricks_won, seat)

    def made(self, seat: int) -> bool | None:
        """True / False for a seat with a target (made it / went down), None without one
        (:func:`batak.scoring.target_made`)."""
        return scoring.target_made(self, self.targets[seat], self.tricks_won, seat)


@dataclass(frozen=True)
class MatchResultView:
    """A finished (or running) match: per-deal scores, totals and the winners."""

    players: tuple[Player, Player, Player, Player]
    deal_scores: tuple[tuple[int, int, int, int], ...]
    totals: tuple[int, int, int, int]
    winners: tuple[int, ...] = ()
    contracts: tuple[ContractView | None, ...] = ()
    preset: str = "standard"
    partnership: bool = False
    deal_count: int = 8
    viewer_seat: int = 0

    def __post_init__(self) -> None:
        _four(self.players, "players")
        _four(self.totals, "totals")
        for row in self.deal_scores:
            _four(row, "deal_scores row")
        for w in self.winners:
            check_seat(w, "winner")


@dataclass(frozen=True)
class HandView:
    """A player's own hand, in display order; ``legal`` cards are drawn lifted.

    ``legal=None`` means no card is being asked for (nothing lifted, nothing dimmed).
    """

    cards: tuple[str, ...]
    legal: frozenset[str] | None = None
    trump: str | None = None
    title: str = ""
    subtitle: str = ""
    hidden: bool = False

    def __post_init__(self) -> None:
        if len(self.cards) > 13:
            raise ValueError("a hand holds at most 13 cards")
        for c in self.cards:
            check_card(c)


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    name: str
    rating: float
    wins: int
    matches: int
    colour: Colour | None = None
    initials: str = ""
    provisional: bool = False
    """The player is still settling in: the rating is not drawn as a number."""


@dataclass(frozen=True)
class LeaderboardView:
    rows: tuple[LeaderboardRow, ...]
    title: str = "Leaderboard"
    subtitle: str = ""
    highlight_rank: int | None = None
    bots: tuple[LeaderboardRow, ...] = ()
    """The computer players, shown apart under the people (their rank is their own)."""
    settling: tuple[str, ...] = ()
    """The people still settling in (too few rated matches): named under the board,
    not ranked."""

    def __post_init__(self) -> None:
        if len(self.rows) > 10:
            raise ValueError("the leaderboard shows at most 10 rows")
        if len(self.bots) > 3:
            raise ValueError("the leaderboard shows at most 3 computer levels")


@dataclass(frozen=True)
class PodiumPlace:
    """One of a season's top three: its place (1-3), name, rating (None: still settling
    in, drawn as a word) and record."""

    place: int
    name: str
    rating: int | None
    wins: int
    matches: int
    colour: Colour | None = None
    initials: str = ""


@dataclass(frozen=True)
class TournamentRow:
    """A line of a tournament's standings: points, then the tie-breaks."""

    rank: int
    name: str
    points: int
    opponents: int
    """The opponents' points (Buchholz), the first tie-break."""
    score: int
    tables: int
    withdrawn: bool = False
    colour: Colour | None = None
    initials: str = ""


@dataclass(frozen=True)
class PodiumView:
    """A season's end: the top three (first place first), the title and the season."""

    places: tuple[PodiumPlace, ...]
    title: str = "Season over"
    subtitle: str = ""

    def __post_init__(self) -> None:
        if not 1 <= len(self.places) <= 3:
            raise ValueError("a podium has one to three places")
        if [p.place for p in self.places] != list(range(1, len(self.places) + 1)):
            raise ValueError("the podium's places are 1, 2, 3 in order")


@dataclass(frozen=True)
class TournamentView:
    rows: tuple[TournamentRow, ...]
    title: str = "Tournament"
    subtitle: str = ""
    more: int = 0
    """People further down, not drawn (counted on a line under the board)."""

    def __post_init__(self) -> None:
        if len(self.rows) > 16:
            raise ValueError("the tournament standings show at most 16 rows")
        if self.more < 0:
            raise ValueError("more is a count")


@dataclass(frozen=True)
class DailyRow:
    rank: int
    name: str
    score: int
    placement: int | None = None
    """The player's place at their table of four (1 to 4)."""
    colour: Colour | None = None
    initials: str = ""


@dataclass(frozen=True)
class DailyBoardView:
    """Today's daily match: everyone played the same deals against three computers."""

    rows: tuple[DailyRow, ...]
    title: str = "Daily match"
    subtitle: str = ""
    highlight_rank: int | None = None

    def __post_init__(self) -> None:
        if len(self.rows) > 10:
            raise ValueError("the daily board shows at most 10 rows")
        for r in self.rows:
            if r.placement is not None and not 1 <= r.placement <= 4:
                raise ValueError(f"a placement is 1 to 4, not {r.placement}")


@dataclass(frozen=True)
class HistorySeat:
    name: str
    placement: int
    total: int
    colour: Colour | None = None
    initials: str = ""


@dataclass(frozen=True)
class HistoryRow:
    """One finished match: when, which rules, rated or not, and its four seats."""

    number: int
    date: str
    rules: str
    rated: bool
    seats: tuple[HistorySeat, ...]
    highlight_seat: int | None = None
    """The seat of the person whose history this is."""

    def __post_init__(self) -> None:
        _four(self.seats, "seats")


@dataclass(frozen=True)
class HistoryView:
    rows: tuple[HistoryRow, ...]
    title: str = "Recent matches"
    subtitle: str = ""

    def __post_init__(self) -> None:
        if len(self.rows) > 10:
            raise ValueError("the history shows at most 10 matches")
