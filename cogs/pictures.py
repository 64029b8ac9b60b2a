"""Pictures of the messages: view models built on the event loop, drawn in a worker.

The public pictures (table, deal, result, leaderboard) are built from public facts
only; a hand picture only for its owner's message.
"""

from __future__ import annotations

import asyncio
import enum
import io
import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Final

import discord

from batak.deal import Observation, Phase
from data import DailyResult, MatchSummary, Standing, UserSettings
from images import build as img_build
from images.auction import render_auction
from images.boards import render_daily, render_history
from images.hand import render_hand
from images.leaderboard import render_leaderboard
from images.results import render_deal_summary, render_match_result
from images.table import render_table
from images.tournament import render_tournament
from images.views import (
    DailyBoardView,
    DailyRow,
    HistoryRow,
    HistorySeat,
    HistoryView,
    LeaderboardRow,
    LeaderboardView,
    TournamentRow,
    TournamentView,
)
from ops.metrics import METRICS
from tables import Table, workers

from .i18n import t
from .text.words import players

log = logging.getLogger(__name__)


# ----------------------------------------------------------------------------- pictures
@dataclass(frozen=True, slots=True)
class Looks:
    """How one person's private pictures are drawn (``/batak settings me``)."""

    theme: str = "dark"
    four_colour: bool = False

    @classmethod
    def of(cls, settings: UserSettings) -> Looks:
        return cls(settings.theme or "dark", bool(settings.four_colour))


PUBLIC = Looks()
"""Pictures everyone sees are drawn the same for all."""


@dataclass(frozen=True, slots=True)
class Picture:
    filename: str
    data: bytes
    description: str


@dataclass(frozen=True, slots=True)
class Drawing:
    """A picture to draw: an immutable view model (built on the event loop, from one
    consistent state of the table) and the renderer that turns it into PNG bytes (run
    in a worker thread by :func:`draw`)."""

    filename: str
    description: str
    view: Any
    renderer: Callable[[Any], bytes]


class DrawnCache:
    """The latest pictures drawn, by what they were drawn from (view model, renderer
    and its options, file name): the same table at the same move, a hand refreshed or
    opened again, is not drawn twice. Bounded in bytes, least recently used first out."""

    def __init__(self, max_bytes: int = 2 * 2**20) -> None:
        self.max_bytes = max_bytes
        self._pictures: OrderedDict[Hashable, Picture] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(drawing: Drawing) -> Hashable | None:
        """What the picture is drawn from, or None when that cannot be a key."""
        r = drawing.renderer
        how: Hashable = (
            (r.func, r.args, tuple(sorted(r.keywords.items()))) if isinstance(r, partial) else r
        )
        key = (drawing.filename, drawing.description, how, drawing.view)
        try:
            hash(key)
        except TypeError:  # a view model with a list or dict in it
            return None
        return key

    def get(self, key: Hashable) -> Picture | None:
        pic = self._pictures.get(key)
        if pic is None:
            self.misses += 1
            return None
        self.hits += 1
        self._pictures.move_to_end(key)
        return pic

    def put(self, key: Hashable, pic: Picture) -> None:
        if len(pic.data) > self.max_bytes // 4:
            return
        old = self._pictures.pop(key, None)
        if old is not None:
            self._bytes -= len(old.data)
        self._pictures[key] = pic
        self._bytes += len(pic.data)
        while self._bytes > self.max_bytes:
            _, out = self._pictures.popitem(last=False)
            self._bytes -= len(out.data)

    def __len__(self) -> int:
        return len(self._pictures)


DRAWN = DrawnCache()


async def draw(drawing: Drawing | None, *, urgent: bool = False) -> Picture | None:
    """Render in the drawing worker process (see :mod:`tables.workers`; ``urgent``:
    before the pictures waiting there), unless the same picture was drawn lately
    (:data:`DRAWN`); a failed drawing is logged and the message goes without."""
    if drawing is None:
        return None
    key = DRAWN.key(drawing)
    if key is not None and (known := DRAWN.get(key)) is not None:
        return known
    try:
        data = await workers.DRAWING.run(drawing.renderer, drawing.view, urgent=urgent)
    except Exception:
        log.exception("drawing %s failed", drawing.filename)
        return None
    METRICS.pictures.labels(kind=picture_kind(drawing.renderer)).inc()
    pic = Picture(drawing.filename, data, drawing.description)
    if key is not None:
        DRAWN.put(key, pic)
    return pic


def picture_kind(renderer: Callable[..., bytes]) -> str:
    """What a renderer draws, for ``batak_pictures_drawn{kind}``: ``render_hand`` (or a
    ``partial`` of it) draws a "hand"."""
    while isinstance(renderer, partial):
        renderer = renderer.func
    name = getattr(renderer, "__name__", "other")
    return name.removeprefix("render_")


LATE_PICTURE = 3.0
"""Seconds a live message (the table's, a hand) waits for its picture before it goes
without it. A picture is drawn in a fraction of a second; one this late means a drawing
worker starved of CPU, and the turn, the notes and the buttons do not wait for it."""


READY_KEPT = 256
"""Late pictures kept for the edit that shows them, at most (about 50 KB each)."""


class Late(enum.Enum):
    """The type of :data:`LATE`."""

    LATE = "late"


LATE: Final = Late.LATE
"""A picture still being drawn: the message goes without it for now."""


class LateDrawings:
    """The pictures live messages stopped waiting for, by message (a table's, a seat's
    hand). Each is still drawn, one a message at a time; once it is, ``again(key)`` asks
    for the message to be edited again, and that edit takes it if the message still
    shows the same (else it draws what the message shows then)."""

    def __init__(self, again: Callable[[Hashable], None]) -> None:
        self._again = again
        self._drawing: dict[Hashable, asyncio.Future[Picture | None]] = {}
        # drawn, not yet taken (a message gone meanwhile never takes it: the oldest go)
        self._ready: OrderedDict[Hashable, tuple[Hashable, Picture | None]] = OrderedDict()

    def busy(self, key: Hashable) -> bool:
        """A late picture of ``key`` is being drawn."""
        return key in self._drawing

    async def draw(
        self, key: Hashable, drawing: Drawing, seconds: float, *, urgent: bool = False
    ) -> Picture | Late | None:
        """The picture of ``drawing`` for the message ``key``: the late one if it was
        drawn from the same (view, theme, language), else drawn now if that takes at
        most ``seconds``; else :data:`LATE` (and, while one is drawn for ``key``, at
        once)."""
        what = DrawnCache.key(drawing)  # the view, and how it is drawn (theme, language)
        known = self._ready.pop(key, None)
        if known is not None and what is not None and known[0] == what:
            return known[1]
        if key in self._drawing:
            return LATE
        drawn = asyncio.ensure_future(draw(drawing, urgent=urgent))
        done, _ = await asyncio.wait({drawn}, timeout=seconds)
        if done:
            return drawn.result()
        self._drawing[key] = drawn

        def finished(future: asyncio.Future[Picture | None]) -> None:
            if self._drawing.get(key) is not future:
                return
            del self._drawing[key]
            if not future.cancelled():
                self._ready[key] = (what, future.result())
                while len(self._ready) > READY_KEPT:
                    self._ready.popitem(last=False)
                self._again(key)

        drawn.add_done_callback(finished)
        return LATE

    def cancel(self, key: Hashable) -> None:
        """Nobody waits for the late picture of ``key`` any more (its message is gone)."""
        drawn = self._drawing.pop(key, None)
        if drawn is not None:
            drawn.cancel()
        self._ready.pop(key, None)

    def close(self) -> None:
        for key in list(self._drawing):
            self.cancel(key)
        self._ready.clear()


def _prepare(
    filename: str, description: str, build: Callable[[], Any], renderer: Callable[[Any], bytes]
) -> Drawing | None:
    try:
        return Drawing(filename, description, build(), renderer)
    except Exception:
        log.exception("preparing %s failed", filename)
        return None


def table_picture(table: Table, lang: str) -> Drawing | None:
    """The public table (or auction) picture; None in the lobby."""
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    name = f"batak-table-{table.id}.png"
    if match.deal.phase is Phase.AUCTION and not match.is_over:
        return _prepare(
            name,
            t("alt.table", lang),
            lambda: _house(
                img_build.auction_view_from_match(match, names, 0, spectator=True), table, lang
            ),
            partial(render_auction, lang=lang),
        )
    return _prepare(
        name,
        t("alt.table", lang),
        lambda: _house(
            img_build.table_view_from_match(match, names, 0, spectator=True), table, lang
        ),
        partial(render_table, lang=lang),
    )


def _house(view: Any, table: Table, lang: str) -> Any:
    """The picture names the rules: a table with house rules says so where the preset's
    name is (the text names the preset and each house rule)."""
    from .text.house import changed_options

    if not changed_options(table.rules):
        return view
    return replace(view, preset=t("house.picture", lang))


def _hand_view(obs: Observation, lang: str) -> Any:
    view = img_build.hand_view_from_observation(obs, t("hand.picture_title", lang))
    if obs.hand is None:  # blind bidding
        view = replace(view, subtitle=t("hand.picture_hidden", lang))
    return view


def hand_picture(table: Table, seat: int, lang: str, looks: Looks = PUBLIC) -> Drawing | None:
    match = table.match
    if match is None:
        return None
    obs = match.observation(seat)
    return _prepare(
        "hand.png",
        t("alt.hand", lang),
        lambda: _hand_view(obs, lang),
        partial(render_hand, theme=looks.theme, four_colour=looks.four_colour, lang=lang),
    )


def daily_table_picture(table: Table, lang: str, looks: Looks = PUBLIC) -> Drawing | None:
    """The daily match's table drawn from the player's seat (only their own view)."""
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    return _prepare(
        "daily-table.png",
        t("alt.table", lang),
        lambda: img_build.table_view_from_match(match, names, 0),
        partial(render_table, theme=looks.theme, four_colour=looks.four_colour, lang=lang),
    )


def deal_picture(table: Table, index: int, lang: str, looks: Looks = PUBLIC) -> Drawing | None:
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    return _prepare(
        f"batak-deal-{table.id}-{index + 1}.png",
        t("alt.deal", lang),
        lambda: img_build.deal_summary_view(match, names, index),
        partial(render_deal_summary, theme=looks.theme, four_colour=looks.four_colour, lang=lang),
    )


def result_picture(table: Table, lang: str, looks: Looks = PUBLIC) -> Drawing | None:
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    return _prepare(
        f"batak-result-{table.id}.png",
        t("alt.result", lang),
        lambda: img_build.match_result_view(match, names),
        partial(render_match_result, theme=looks.theme, lang=lang),
    )


def leaderboard_picture(
    rows: Sequence[tuple[Standing, str]],
    title: str,
    subtitle: str,
    lang: str,
    bots: Sequence[Standing] = (),
    settling: Sequence[tuple[Standing, str]] = (),
) -> Drawing | None:
    """The people's leaderboard, the computer levels on a line apart under it, then the
    people still settling in (named, not ranked)."""

    def row(rank: int, s: Standing, name: str) -> LeaderboardRow:
        return LeaderboardRow(
            rank=rank,
            name=name,
            rating=s.shown_rating,
            wins=s.wins,
            matches=s.matches,
            provisional=s.provisional,
        )

    return _prepare(
        "leaderboard.png",
        t("alt.leaderboard", lang),
        lambda: LeaderboardView(
            rows=tuple(row(s.rank or i + 1, s, name) for i, (s, name) in enumerate(rows[:10])),
            title=title,
            subtitle=subtitle,
            bots=tuple(
                row(i + 1, b, t(f"level.{b.bot_level}", lang)) for i, b in enumerate(bots[:3])
            ),
            settling=tuple(name for _, name in settling[:10]),
        ),
        partial(render_leaderboard, lang=lang),
    )


def daily_picture(
    rows: Sequence[DailyResult], names: Mapping[int, str], subtitle: str, lang: str
) -> Drawing | None:
    """Today's daily board."""
    return _prepare(
        "daily.png",
        t("alt.daily", lang),
        lambda: DailyBoardView(
            rows=tuple(
                DailyRow(r.rank or i + 1, names[r.user_id], r.score or 0, r.placement)
                for i, r in enumerate(rows[:10])
            ),
            title=t("leaderboard.daily_title", lang),
            subtitle=subtitle,
        ),
        partial(render_daily, lang=lang),
    )


def history_picture(
    matches: Sequence[MatchSummary],
    seat_names: Mapping[int, Sequence[str]],
    user_id: int,
    subtitle: str,
    lang: str,
    looks: Looks = PUBLIC,
) -> Drawing | None:
    """A player's recent matches; ``seat_names`` by match id, one name per seat."""
    from .text.standings import rules_label

    def rules_of(m: MatchSummary) -> str:
        by = f" · {t('history.by_computers', lang)}" if m.computers_finished else ""
        return rules_label(m, lang) + by

    def seat_of(m: MatchSummary) -> int | None:
        return next((p.seat for p in m.players if p.user_id == user_id), None)

    return _prepare(
        "history.png",
        t("alt.history", lang),
        lambda: HistoryView(
            rows=tuple(
                HistoryRow(
                    m.id,
                    m.finished_at[:10],
                    rules_of(m),
                    m.rated,
                    tuple(
                        HistorySeat(seat_names[m.id][p.seat], p.placement, p.total)
                        for p in sorted(m.players, key=lambda p: p.seat)
                    ),
                    highlight_seat=seat_of(m),
                )
                for m in matches[:10]
            ),
            title=t("history.picture_title", lang),
            subtitle=subtitle,
        ),
        partial(render_history, theme=looks.theme, lang=lang),
    )


def files_of(pic: Picture | None) -> list[discord.File]:
    """The attachment of a drawn picture (none when it failed or there is none)."""
    if pic is None:
        return []
    return [discord.File(io.BytesIO(pic.data), filename=pic.filename, description=pic.description)]


def tournament_picture(
    rows: Sequence[TournamentRow], title: str, subtitle: str, lang: str
) -> Drawing | None:
    """A tournament's standings (the first 16; how many more on a line under them)."""
    return _prepare(
        "tournament.png",
        t("alt.tournament", lang),
        lambda: TournamentView(
            rows=tuple(rows[:16]), title=title, subtitle=subtitle, more=max(0, len(rows) - 16)
        ),
        partial(render_tournament, lang=lang),
    )
