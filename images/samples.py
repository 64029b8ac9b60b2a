"""Sample states for the gallery, the benchmark and the tests.

Most come from real matches played by the engine's rule-of-thumb bots (so the
pictures show states the game really produces); a few are written by hand for
cases bots rarely reach (a forced contract) or for hostile names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .build import (
    auction_view_from_match,
    deal_summary_view,
    hand_view_from_match,
    match_result_view,
    players_of,
    table_view_from_match,
)
from .views import (
    AuctionView,
    ContractView,
    DailyBoardView,
    DailyRow,
    DealSummaryView,
    HandView,
    HistoryRow,
    HistorySeat,
    HistoryView,
    LeaderboardRow,
    LeaderboardView,
    MatchResultView,
    Player,
    PodiumPlace,
    PodiumView,
    TableView,
    TournamentRow,
    TournamentView,
    TrickView,
)

TURKISH = ("Ayşe Yılmaz", "Mehmet Çelik", "İsmail Güneş", "Şule Doğan")
UKRAINIAN = ("Олександра Ковальчук", "Дмитро", "Ґанна Їжакевич", "Євген Шевченко")
LATIN = ("Alice", "Bob", "Carol", "Dave")
LONG = (
    "Bartholomew Fitzgerald-Montgomery the Third",
    "Ğ" * 100,
    "Leyla 🌙 Öztürk ✨",
    "Çağlar Kılıçdaroğluoğullarından",
)
HOSTILE = (
    "",
    "\x00\x1b[31mred\n\ttab\u202e",
    "👨‍👩‍👧‍👦🇹🇷🎴",
    "مريم الحسيني",
)
MORE_HOSTILE = ("Z̷̢̛̛a̸l̵g̶o̴ ̶n̵a̴m̶e̷", "שלום עולם", "   ", "x" * 100)

if TYPE_CHECKING:
    from batak.match import Match

    from .replay import ReplayView

PRESET_NAMES = {
    "standard": TURKISH,
    "classic": LATIN,
    "esli": UKRAINIAN,
    "koz-maca": LONG,
    "kanli": ("Zeynep", "Emre", "Oğuz", "Ilıca"),
}


def play_until(preset: str, seed: int, stop: Callable[[Match], bool]) -> Match:
    """A match of ``preset`` played by bots until ``stop(match)`` holds (or it ends)."""
    from batak.match import Match
    from batak.players import RuleOfThumbPlayer
    from batak.rules import preset as make_rules

    bots = [RuleOfThumbPlayer(seed + s) for s in range(4)]
    match = Match(make_rules(preset), seed=seed)
    while not match.is_over and not stop(match):
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].choose(match.observation(seat)))
    return match


def _mid_play(deal: int, tricks: int, cards: int) -> Callable[[Match], bool]:
    def stop(m: Match) -> bool:
        d = m.deal
        return (
            m.deal_number >= deal
            and d.phase.value == "play"
            and len(d.tricks) >= tricks
            and len(d.trick) == cards
        )

    return stop


def _in_auction(deal: int, calls: int) -> Callable[[Match], bool]:
    def stop(m: Match) -> bool:
        d = m.deal
        return m.deal_number >= deal and d.phase.value == "auction" and len(d.calls) >= calls

    return stop


def _never(m: Match) -> bool:
    return False


@dataclass(frozen=True)
class ReplayFrameView:
    """One frame of a deal's replay (``images.replay``): the replay and which frame."""

    replay: ReplayView
    index: int


@dataclass(frozen=True)
class Sample:
    name: str
    kind: str  # table, auction, deal, match, hand, leaderboard, daily, history, replay,
    # tournament
    view: object
    theme: str = "dark"
    four_colour: bool = False
    lang: str = "en"


def podium_sample(names: tuple[str, ...] = ()) -> PodiumView:
    """A season's end: three people, one still settling in."""
    a, b, c = (list(names) or ["Ayşe Yılmaz", "Олександра", "Bartholomew Fitzgerald-Montgomery"])[
        :3
    ]
    return PodiumView(
        (
            PodiumPlace(1, a, 1412, 14, 22),
            PodiumPlace(2, b, 1375, 11, 19),
            PodiumPlace(3, c, None, 9, 12),
        ),
        "Season champions",
        "March 2027",
    )


def tournament_sample(names: tuple[str, ...] = ()) -> TournamentView:
    """Eight people after three rounds, one withdrawn after round 1."""
    base = list(names) or [
        "Ayşe Yılmaz",
        "Mehmet",
        "Олександра",
        "Bartholomew Fitzgerald-Montgomery the Third",
        "Şule",
        "Leyla 🌙",
        "Emre",
        "Zeynep",
    ]
    points = (8, 7, 6, 5, 4, 3, 2, 1)
    rows = tuple(
        TournamentRow(
            rank=i + 1,
            name=n,
            points=points[i],
            opponents=19 - i,
            score=212 - 31 * i,
            tables=1 if i == 7 else 3,
            withdrawn=i == 7,
        )
        for i, n in enumerate(base[:8])
    )
    return TournamentView(rows, "Tournament #3", "Final standings · 3 rounds")


def leaderboard_sample(names: tuple[str, ...] = ()) -> LeaderboardView:
    base = list(names) or [
        "Ayşe Yılmaz",
        "Олександра",
        "Mehmet",
        "Bartholomew Fitzgerald-Montgomery the Third",
        "Şule",
        "Дмитро",
        "İsmail",
        "Leyla 🌙",
        "Emre",
        "Zeynep",
    ]
    rows = tuple(
        LeaderboardRow(
            rank=i + 1,
            name=n,
            rating=1650 - 37 * i - (i * i) % 7,
            wins=40 - 3 * i,
            matches=60 + 5 * i,
        )
        for i, n in enumerate(base[:10])
    )
    bots = (
        LeaderboardRow(1, "hard", 1184, 30, 70),
        LeaderboardRow(2, "normal", 1062, 22, 80),
        LeaderboardRow(3, "easy", 931, 5, 4, provisional=True),
    )
    return LeaderboardView(
        rows,
        "Leaderboard",
        "This server · rated matches",
        highlight_rank=3,
        bots=bots,
        settling=("Can", "Elif Nur", "Дарина"),  # too few rated matches to be ranked
    )


def daily_sample(names: tuple[str, ...] = ()) -> DailyBoardView:
    base = list(names) or ["Ayşe Yılmaz", "Олександра", "Bartholomew Fitzgerald-Montgomery", "Şule"]
    rows = tuple(
        DailyRow(i + 1, n, 96 - 41 * i, placement=min(4, i + 1)) for i, n in enumerate(base[:10])
    )
    return DailyBoardView(rows, "", "2026-12-01 · 3 deals", highlight_rank=2)


def history_sample(names: tuple[str, ...] = ()) -> HistoryView:
    base = list(names) or ["Ayşe Yılmaz", "Bartholomew Fitzgerald-Montgomery", "Олександра", "Şule"]
    rows = []
    for i in range(4):
        totals = (84 - 30 * i, -12 + 9 * i, 31, -61 + 20 * i)
        order = sorted(range(4), key=lambda s: -totals[s])
        places = [1 + order.index(s) for s in range(4)]
        seats = tuple(
            HistorySeat(base[(s + i) % len(base)], places[s], totals[s]) for s in range(4)
        )
        rows.append(
            HistoryRow(
                40 - i,
                f"2026-11-{30 - i:02d}",
                ("Standard, 8 deals", "Classic, 3 deals", "Eşli, 12 deals", "Kanlı, 1 deal")[i],
                rated=i != 1,
                seats=seats,
                highlight_seat=i % 4,
            )
        )
    return HistoryView(tuple(rows), "", "Ayşe Yılmaz")


def forced_table(names: tuple[str, ...] = TURKISH, spectator: bool = False) -> TableView:
    """A dealer-forced contract early in play, with the last trick shown (``spectator``:
    the channel's picture, drawn from no seat)."""
    return TableView(
        spectator=spectator,
        players=players_of(names),
        viewer_seat=0,
        dealer=2,
        phase="play",
        contract=ContractView(seat=2, bid=4, forced=True, trump="D"),
        trump="D",
        trick=TrickView(leader=2, cards=("QC", "KC")),
        last_trick=TrickView(leader=2, cards=("AD", "3D", "7D", "9D"), winner=2),
        to_act=0,
        tricks_won=(0, 0, 1, 0),
        targets=(1, 1, 4, 1),
        totals=(23, -40, 61, 11),
        deal_number=4,
        deal_count=8,
        trump_broken=True,
        hand_sizes=(12, 11, 11, 12),
    )


def hostile_table(names: tuple[str, ...] = HOSTILE) -> TableView:
    return replace(
        forced_table(),
        players=players_of(names),
        to_act=1,
        trick=TrickView(leader=2, cards=("QC", "KC", "2C")),
    )


def _engine_samples() -> Iterator[Sample]:
    for i, (preset, names) in enumerate(PRESET_NAMES.items()):
        seed = 101 + i
        m = play_until(preset, seed, _mid_play(2, 4, 2))
        # the channel's table message: drawn from no seat (nobody is "you")
        yield Sample(f"table-{preset}", "table", table_view_from_match(m, names, spectator=True))
        seat = m.to_act if m.to_act is not None else 0
        yield Sample(f"hand-{preset}", "hand", hand_view_from_match(m, seat))
        m = play_until(preset, seed, _in_auction(1, 3))
        yield Sample(
            f"auction-{preset}", "auction", auction_view_from_match(m, names, spectator=True)
        )
        m = play_until(preset, seed, _never)
        yield Sample(f"deal-{preset}", "deal", deal_summary_view(m, names, 0))
        yield Sample(f"match-{preset}", "match", match_result_view(m, names))

    yield from replay_samples()

    m = play_until("standard", 7, _mid_play(1, 6, 0))
    yield Sample("table-new-trick-light", "table", table_view_from_match(m, TURKISH, 1), "light")
    yield Sample(
        "table-four-colour",
        "table",
        table_view_from_match(m, TURKISH, 1, spectator=True),
        four_colour=True,
    )
    m = play_until("standard", 7, _mid_play(1, 8, 3))
    yield Sample(
        "table-three-cards-light",
        "table",
        table_view_from_match(m, UKRAINIAN, 2),
        "light",
        four_colour=True,
    )
    m = play_until("esli", 11, _in_auction(1, 2))
    yield Sample("table-auction-phase", "table", table_view_from_match(m, UKRAINIAN, 0))
    yield Sample("auction-esli-light", "auction", auction_view_from_match(m, UKRAINIAN, 0), "light")
    m = play_until("standard", 5, lambda x: x.deal.phase.value == "trump")
    yield Sample("table-naming-trump", "table", table_view_from_match(m, LATIN, 0))
    m = play_until("kanli", 3, _in_auction(1, 1))
    yield Sample("hand-kanli-hidden", "hand", hand_view_from_match(m, 0))
    m = play_until("standard", 9, _never)
    yield Sample("match-standard-light", "match", match_result_view(m, TURKISH), "light")
    yield Sample("deal-standard-light", "deal", deal_summary_view(m, TURKISH, 3), "light")
    m = play_until("classic", 4, lambda x: x.deal_number >= 4)
    yield Sample("match-classic-running", "match", match_result_view(m, LATIN))

    # Turkish labels, and bots at the table
    with_bots = (
        Player("Ayşe Yılmaz"),
        Player("Bot Kolay", is_bot=True),
        Player("Şule Doğan"),
        Player("Bot Orta", is_bot=True),
    )
    m = play_until("standard", 13, _mid_play(2, 5, 1))
    public = table_view_from_match(m, with_bots, spectator=True)
    yield Sample("tr-table", "table", public, lang="tr")
    yield Sample(
        "tr-table-light", "table", table_view_from_match(m, with_bots, 0), "light", lang="tr"
    )
    seat = m.to_act if m.to_act is not None else 0
    yield Sample("tr-hand", "hand", hand_view_from_match(m, seat, ""), lang="tr")
    m = play_until("standard", 13, _in_auction(3, 2))
    public_auction = auction_view_from_match(m, with_bots, spectator=True)
    yield Sample("tr-auction", "auction", public_auction, lang="tr")
    m = play_until("esli", 13, _never)
    yield Sample("tr-deal", "deal", deal_summary_view(m, TURKISH, 1), lang="tr")
    yield Sample("tr-match", "match", match_result_view(m, TURKISH), lang="tr")


def replay_samples() -> Iterator[Sample]:
    """The ``/batak replay`` frames of a bot-played deal: the hands as dealt, the auction,
    a trick halfway through and the score (the first frame of each kind)."""
    from .replay import replay_view

    record = play_until("standard", 101, _never).finished[0].to_record()
    view = replay_view(record, LATIN)
    kinds = [f.kind for f in view.frames]
    tricks = [i for i, k in enumerate(kinds) if k == "trick"]
    for kind in ("deal", "auction", "trick", "score"):
        index = tricks[len(tricks) // 2] if kind == "trick" else kinds.index(kind)
        yield Sample(f"replay-frame-{kind}", "replay", ReplayFrameView(view, index))


def handmade_samples() -> Iterator[Sample]:
    """Samples that need no engine."""
    yield Sample("table-forced", "table", forced_table(spectator=True))
    yield Sample("table-forced-light", "table", forced_table(), "light")
    yield Sample("table-long-names", "table", forced_table(LONG, spectator=True))
    yield Sample("table-hostile-names", "table", hostile_table())
    yield Sample("table-hostile-names-2", "table", hostile_table(MORE_HOSTILE), "light")
    done = TableView(
        players=players_of(UKRAINIAN),
        viewer_seat=3,
        dealer=1,
        phase="done",
        contract=ContractView(3, 7, False, "S"),
        trump="S",
        last_trick=TrickView(0, ("2H", "AH", "5S", "KH"), winner=2),
        tricks_won=(2, 1, 4, 6),
        targets=(1, 1, 1, 7),
        totals=(-28, 0, 81, -70),
        deal_number=8,
        deal_count=8,
        trump_broken=True,
        hand_sizes=(0, 0, 0, 0),
    )
    yield Sample("table-deal-over", "table", done)
    yield Sample("leaderboard", "leaderboard", leaderboard_sample())
    yield Sample("leaderboard-light", "leaderboard", leaderboard_sample(), "light")
    yield Sample("podium", "podium", podium_sample())
    yield Sample("podium-light", "podium", podium_sample(TURKISH), "light")
    yield Sample("podium-hostile", "podium", podium_sample(HOSTILE))
    yield Sample(
        "tr-podium", "podium", replace(podium_sample(), title="", subtitle="Mart 2027"), lang="tr"
    )
    yield Sample("tournament", "tournament", tournament_sample())
    yield Sample("tournament-light", "tournament", tournament_sample(), "light")
    yield Sample("tournament-hostile", "tournament", tournament_sample(HOSTILE + MORE_HOSTILE))
    yield Sample(
        "tr-tournament",
        "tournament",
        replace(tournament_sample(), title="Turnuva #3", subtitle="3. raunt sonrası"),
        lang="tr",
    )
    yield Sample("daily", "daily", daily_sample())
    yield Sample("daily-light", "daily", daily_sample(), "light")
    yield Sample("daily-hostile", "daily", daily_sample(HOSTILE + MORE_HOSTILE))
    yield Sample("history", "history", history_sample())
    yield Sample("history-light", "history", history_sample(), "light")
    yield Sample("history-hostile", "history", history_sample(HOSTILE + MORE_HOSTILE))
    yield Sample("leaderboard-hostile", "leaderboard", leaderboard_sample(HOSTILE + MORE_HOSTILE))
    yield Sample(
        "tr-leaderboard",
        "leaderboard",
        replace(leaderboard_sample(), title="", subtitle="Bu sunucu"),
        lang="tr",
    )
    yield Sample(
        "hand-full-light",
        "hand",
        HandView(
            ("AS", "KS", "7S", "QH", "TH", "4H", "AC", "JC", "9C", "2C", "KD", "8D", "3D"),
            frozenset({"AC", "JC", "9C", "2C"}),
            "H",
            "Your hand",
            "",
        ),
        "light",
        True,
    )
    yield Sample(
        "deal-forced-down",
        "deal",
        DealSummaryView(
            players=players_of(TURKISH),
            contract=ContractView(2, 4, True, "D"),
            tricks_won=(4, 3, 3, 3),
            targets=(1, 1, 4, 1),
            scores=(13, 12, -40, 12),
            totals=(66, -8, 21, 43),
            deal_number=4,
            deal_count=8,
            dealer=2,
        ),
    )
    rows = tuple(
        ((-1) ** i * (10 + i), 12 + i, -40 if i % 3 == 0 else 61, -50 if i == 4 else 11)
        for i in range(12)
    )
    totals = tuple(sum(r[s] for r in rows) for s in range(4))
    yield Sample(
        "match-extra-deals",
        "match",
        MatchResultView(
            players=players_of(LONG),
            deal_scores=rows,
            totals=(totals[0], totals[1], totals[2], totals[3]),
            winners=(2,),
            preset="koz-maca",
            deal_count=10,
            contracts=tuple(ContractView(2, 6, i == 3) for i in range(12)),
        ),
    )


def all_samples() -> list[Sample]:
    """Every sample: handmade first, then the engine-driven ones (if the engine is there)."""
    out = list(handmade_samples())
    try:
        import batak.match  # noqa: F401
    except ImportError:  # pragma: no cover - the engine ships with the bot
        return out
    out.extend(_engine_samples())
    return out


def render_sample(sample: Sample) -> bytes:
    """PNG bytes for a sample, through the public renderers."""
    # from the renderers' own modules, not the package (whose warm-up imports this one)
    from .auction import render_auction
    from .boards import render_daily, render_history
    from .hand import render_hand
    from .leaderboard import render_leaderboard
    from .results import render_deal_summary, render_match_result
    from .table import render_table

    v = sample.view
    t, lang = sample.theme, sample.lang
    if isinstance(v, TableView):
        return render_table(v, t, sample.four_colour, lang)
    if isinstance(v, AuctionView):
        return render_auction(v, t, lang)
    if isinstance(v, DealSummaryView):
        return render_deal_summary(v, t, sample.four_colour, lang)
    if isinstance(v, MatchResultView):
        return render_match_result(v, t, lang)
    if isinstance(v, HandView):
        return render_hand(v, t, sample.four_colour, lang)
    if isinstance(v, LeaderboardView):
        return render_leaderboard(v, t, lang)
    if isinstance(v, PodiumView):
        from .podium import render_podium

        return render_podium(v, t, lang)
    if isinstance(v, DailyBoardView):
        return render_daily(v, t, lang)
    if isinstance(v, TournamentView):
        from .tournament import render_tournament

        return render_tournament(v, t, lang)
    if isinstance(v, HistoryView):
        return render_history(v, t, lang)
    if isinstance(v, ReplayFrameView):
        from .png import to_png
        from .replay import render_frame
        from .theme import get_theme

        frame = v.replay.frames[v.index]
        return to_png(render_frame(v.replay, frame, t, sample.four_colour, lang), get_theme(t))
    raise TypeError(f"not a view: {type(v).__name__}")


__all__ = [
    "Player",
    "ReplayFrameView",
    "Sample",
    "all_samples",
    "handmade_samples",
    "render_sample",
]
