"""Pictures of the messages: view models built on the event loop, drawn in a worker.

The public pictures (table, deal, result, leaderboard) are built from public facts
only; a hand picture only for its owner's message.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import discord

from batak.deal import Observation, Phase
from data import Standing
from images import build as img_build
from images.auction import render_auction
from images.hand import render_hand
from images.leaderboard import render_leaderboard
from images.results import render_deal_summary, render_match_result
from images.table import render_table
from images.views import LeaderboardRow, LeaderboardView

from . import workers
from .i18n import t
from .service import Table
from .text.words import players

log = logging.getLogger(__name__)


# ----------------------------------------------------------------------------- pictures
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


async def draw(drawing: Drawing | None) -> Picture | None:
    """Render in the drawing worker process (see :mod:`cogs.workers`); a failed drawing
    is logged and the message goes without."""
    if drawing is None:
        return None
    try:
        data = await workers.DRAWING.run(drawing.renderer, drawing.view)
    except Exception:
        log.exception("drawing %s failed", drawing.filename)
        return None
    return Picture(drawing.filename, data, drawing.description)


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
            lambda: img_build.auction_view_from_match(match, names, 0, spectator=True),
            partial(render_auction, lang=lang),
        )
    return _prepare(
        name,
        t("alt.table", lang),
        lambda: img_build.table_view_from_match(match, names, 0, spectator=True),
        partial(render_table, lang=lang),
    )


def _hand_view(obs: Observation, lang: str) -> Any:
    view = img_build.hand_view_from_observation(obs, t("hand.picture_title", lang))
    if obs.hand is None:  # blind bidding
        view = replace(view, subtitle=t("hand.picture_hidden", lang))
    return view


def hand_picture(table: Table, seat: int, lang: str) -> Drawing | None:
    match = table.match
    if match is None:
        return None
    obs = match.observation(seat)
    return _prepare(
        "hand.png",
        t("alt.hand", lang),
        lambda: _hand_view(obs, lang),
        partial(render_hand, lang=lang),
    )


def daily_table_picture(table: Table, lang: str) -> Drawing | None:
    """The daily match's table drawn from the player's seat (only their own view)."""
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    return _prepare(
        "daily-table.png",
        t("alt.table", lang),
        lambda: img_build.table_view_from_match(match, names, 0),
        partial(render_table, lang=lang),
    )


def deal_picture(table: Table, index: int, lang: str) -> Drawing | None:
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    return _prepare(
        f"batak-deal-{table.id}-{index + 1}.png",
        t("alt.deal", lang),
        lambda: img_build.deal_summary_view(match, names, index),
        partial(render_deal_summary, lang=lang),
    )


def result_picture(table: Table, lang: str) -> Drawing | None:
    match = table.match
    if match is None:
        return None
    names = players(table, lang)
    return _prepare(
        f"batak-result-{table.id}.png",
        t("alt.result", lang),
        lambda: img_build.match_result_view(match, names),
        partial(render_match_result, lang=lang),
    )


def leaderboard_picture(
    rows: Sequence[tuple[Standing, str]], title: str, subtitle: str, lang: str
) -> Drawing | None:
    return _prepare(
        "leaderboard.png",
        t("alt.leaderboard", lang),
        lambda: LeaderboardView(
            rows=tuple(
                LeaderboardRow(
                    rank=s.rank or i + 1,
                    name=name,
                    rating=s.rating,
                    wins=s.wins,
                    matches=s.matches,
                )
                for i, (s, name) in enumerate(rows[:10])
            ),
            title=title,
            subtitle=subtitle,
        ),
        partial(render_leaderboard, lang=lang),
    )


def files_of(pic: Picture | None) -> list[discord.File]:
    """The attachment of a drawn picture (none when it failed or there is none)."""
    if pic is None:
        return []
    return [discord.File(io.BytesIO(pic.data), filename=pic.filename, description=pic.description)]
