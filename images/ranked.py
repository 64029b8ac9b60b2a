"""What the two ranked boards share (the leaderboard and today's daily board): the
heading, the panel with its column labels, and the start of each row (its background,
the rank or medal, the avatar and the name). Each board draws its own number columns."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, TypeVar

from PIL import Image, ImageDraw

from . import draw as dr
from .labels import text_for
from .text import clean, draw_text, fit, font
from .theme import MEDALS, Theme
from .views import Colour, default_colour

W = 720
"""The boards are 720 wide: a phone shows them at half size."""
MIN_TEXT = dr.phone_px(W)
"""The smallest font size drawn: 18 px, 9 px on a phone 360 px wide."""
PAD = 24
ROW_H = 62
HEAD_H = 130
COL_GAP = 10  # px between two column labels
LIST_TOP = HEAD_H + 46
"""Where the first row starts (under the column labels)."""
X_NAME = PAD + 124
"""Where a row's name starts (after the rank and the avatar)."""

NOTE_H = 30
"""The height of a note line under the panel (the computers, a count left out...)."""

Column = tuple[str, int, str, int]
"""A column label: (text, x, anchor, room in px); a right-aligned label may reach its
left neighbour's edge."""


def board_frame(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    th: Theme,
    lang: str,
    *,
    title: str,
    fallback_title: str,
    subtitle: str,
    bottom: int,
    columns: Sequence[Column],
    empty: bool,
) -> None:
    """The board's heading, its panel (down to ``bottom``) with the column labels, and
    the "no games" line when it has no row."""
    dr.label(d, (PAD, 26), text_for(lang, "img.game"), th, MIN_TEXT)
    dr.heading(d, (PAD, 54), clean(title, fallback_title), clean(subtitle), th, W - 2 * PAD, 20)
    dr.panel(im, (PAD, HEAD_H, W - PAD, bottom), th)
    for name, x, anchor, room in columns:
        label = fit(name, MIN_TEXT, True, room)
        d.text((x, HEAD_H + 14), label, font=font(MIN_TEXT, True), fill=th.dim, anchor=anchor)
    if empty:
        no_games(d, th, lang, LIST_TOP + ROW_H // 2)


def board_canvas(
    th: Theme,
    lang: str,
    *,
    rows: int,
    title: str,
    fallback_title: str,
    subtitle: str,
    columns: Sequence[Column],
    notes: Sequence[str] = (),
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A ranked board's canvas, tall enough for ``rows`` rows and the ``notes`` under
    its panel: the frame (:func:`board_frame`) and the notes drawn, the rows left to
    the board."""
    height = LIST_TOP + max(rows, 1) * ROW_H + 24 + PAD + NOTE_H * len(notes)
    im, d = dr.canvas((W, height), th)
    bottom = height - PAD - NOTE_H * len(notes)
    board_frame(
        im,
        d,
        th,
        lang,
        title=title,
        fallback_title=fallback_title,
        subtitle=subtitle,
        bottom=bottom,
        columns=columns,
        empty=rows == 0,
    )
    for i, note in enumerate(notes):
        y = bottom + 14 + i * NOTE_H
        draw_text(d, (PAD + 8, y), fit(note, MIN_TEXT, False, W - 2 * PAD - 16), MIN_TEXT, th.dim)
    return im, d


def no_games(d: ImageDraw.ImageDraw, th: Theme, lang: str, y: int) -> None:
    """The line of a board with nothing to list, centred at ``y``."""
    d.text((W // 2, y), text_for(lang, "img.no_games"), font=font(22), fill=th.faint, anchor="mm")


class RankedRow(Protocol):
    """A row of a ranked board (a leaderboard row, a daily board row)."""

    @property
    def rank(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def initials(self) -> str: ...
    @property
    def colour(self) -> Colour | None: ...


def board_row(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    th: Theme,
    lang: str,
    index: int,
    row: RankedRow,
    *,
    highlight_rank: int | None,
    name_room: int,
) -> int:
    """The start of row ``index`` (0-based): a highlight for the reader's own row
    (``highlight_rank``), else every other row shaded; the medal (or rank), the avatar
    and the name. Returns the row's middle (y) for the board's own columns."""
    rank, name = row.rank, row.name
    y = LIST_TOP + index * ROW_H
    cy = y + ROW_H // 2
    if highlight_rank is not None and rank == highlight_rank:
        hl = dr.rounded(
            (W - 2 * PAD - 8, ROW_H - 6), 12, dr.rgba(th.accent, 48), dr.rgba(th.accent), 2
        )
        dr.paste(im, hl, (PAD + 4, y + 3))
    elif index % 2 == 0:
        d.rectangle((PAD + 2, y, W - PAD - 3, y + ROW_H - 1), fill=th.row_alt)
    medal = MEDALS.get(rank)
    if medal is not None:
        dr.paste(im, dr.avatar(44, medal, str(rank)), (PAD + 14, cy - 22))
    else:
        d.text((PAD + 36, cy), str(rank), font=font(20, True), fill=th.dim, anchor="mm")
    shade = row.colour if row.colour is not None else default_colour(name)
    dr.paste(im, dr.player_avatar(48, name, row.initials, shade), (PAD + 66, cy - 24))
    dr.name_text(
        d,
        (X_NAME, cy),
        name,
        22,
        th.text,
        name_room,
        text_for(lang, "img.player", n=rank),
        anchor="lm",
        smallest=dr.phone_px(W),  # a long name shrinks to the phone's floor first
    )
    return cy


R = TypeVar("R", bound=RankedRow)


def board_rows(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    th: Theme,
    lang: str,
    rows: Sequence[R],
    highlight_rank: int | None,
    name_room: int,
) -> Iterator[tuple[R, int]]:
    """Draw the start of each row (:func:`board_row`); yields each row with its middle."""
    for i, row in enumerate(rows):
        yield (
            row,
            board_row(im, d, th, lang, i, row, highlight_rank=highlight_rank, name_room=name_room),
        )
