"""Two more boards: today's daily match (rank, player, score, place at the table) and a
player's recent matches (date, rules, rated or casual, the four seats' places and totals).
"""

from __future__ import annotations

from PIL import Image

from . import draw as dr
from .labels import text_for
from .png import to_png
from .ranked import (
    COL_GAP,
    HEAD_H,
    LIST_TOP,
    PAD,
    ROW_H,
    X_NAME,
    W,
    board_frame,
    board_rows,
    no_games,
)
from .text import clean, draw_text, fit, fit_size, font
from .theme import MEDALS, Theme, get_theme
from .views import DailyBoardView, HistoryView

# ----------------------------------------------------------------------------- daily
X_SCORE, X_PLACE = 600, W - PAD - 18


def render_daily_image(
    view: DailyBoardView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    n = len(view.rows)
    height = LIST_TOP + max(n, 1) * ROW_H + 24 + PAD
    im, d = dr.canvas((W, height), th)
    board_frame(
        im,
        d,
        th,
        lang,
        title=view.title,
        fallback_title=text_for(lang, "img.daily"),
        subtitle=view.subtitle,
        bottom=height - PAD,
        columns=[
            ("#", PAD + 40, "ma", 40),
            (text_for(lang, "img.col.player"), PAD + 80, "la", X_SCORE - 120 - (PAD + 80)),
            (text_for(lang, "img.col.score"), X_SCORE, "ra", 110),
            (text_for(lang, "img.col.place"), X_PLACE, "ra", X_PLACE - X_SCORE - COL_GAP),
        ],
        empty=n == 0,
    )
    name_room = X_SCORE - 120 - X_NAME
    for row, cy in board_rows(im, d, th, lang, view.rows, view.highlight_rank, name_room):
        d.text(
            (X_SCORE, cy),
            dr.signed(row.score),
            font=font(22, True),
            fill=th.accent if row.score >= 0 else th.bad,
            anchor="rm",
        )
        place = text_for(lang, "img.place", n=row.placement) if row.placement else "–"
        place_room = X_PLACE - X_SCORE - COL_GAP
        size = fit_size(place, 20, False, place_room)
        d.text(
            (X_PLACE, cy),
            fit(place, size, False, place_room),
            font=font(size),
            fill=th.dim,
            anchor="rm",
        )
    return im


def render_daily(view: DailyBoardView, theme: str | Theme = "dark", lang: str = "en") -> bytes:
    """PNG bytes of today's daily board (800 wide)."""
    return to_png(render_daily_image(view, theme, lang), get_theme(theme))


# ----------------------------------------------------------------------------- history
MATCH_H = 104
SEAT_W = (W - 2 * PAD - 24) // 4


def render_history_image(
    view: HistoryView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    n = len(view.rows)
    height = HEAD_H + max(n, 1) * (MATCH_H + 12) + PAD
    im, d = dr.canvas((W, height), th)
    dr.label(d, (PAD, 28), text_for(lang, "img.game"), th)
    dr.heading(
        d,
        (PAD, 52),
        clean(view.title, text_for(lang, "img.history")),
        clean(view.subtitle),
        th,
        W - 2 * PAD,
    )
    if n == 0:
        no_games(d, th, lang, HEAD_H + MATCH_H // 2)
    for i, row in enumerate(view.rows):
        y = HEAD_H + i * (MATCH_H + 12)
        dr.panel(im, (PAD, y, W - PAD, y + MATCH_H), th, radius=14)
        badge_key = "img.rated" if row.rated else "img.casual"
        badge_text = text_for(lang, badge_key)
        badge = dr.pill(
            fit(badge_text, 15, True, 150),
            15,
            th.accent if row.rated else th.row_alt,
            th.accent_text if row.rated else th.dim,
        )
        bx = W - PAD - 12 - badge.width
        dr.paste(im, badge, (bx, y + 10))
        head = f"#{row.number} · {clean(row.date)} · {clean(row.rules)}"
        draw_text(
            d, (PAD + 14, y + 12), fit(head, 20, True, bx - 12 - (PAD + 14)), 20, th.text, True
        )
        for s, seat in enumerate(row.seats):
            x = PAD + 12 + s * SEAT_W
            sy = y + 50
            if row.highlight_seat == s:
                hl = dr.rounded((SEAT_W - 6, 46), 10, dr.rgba(th.accent, 40), dr.rgba(th.accent), 2)
                dr.paste(im, hl, (x - 3, sy - 3))
            medal = MEDALS.get(seat.placement)
            colour = medal if medal is not None else th.row_alt
            dr.paste(im, dr.avatar(26, colour, str(seat.placement)), (x + 2, sy + 7))
            dr.name_text(
                d,
                (x + 34, sy + 11),
                seat.name,
                17,
                th.text,
                SEAT_W - 44,
                text_for(lang, "img.player", n=s + 1),
                anchor="lm",
            )
            d.text(
                (x + 34, sy + 32),
                fit(text_for(lang, "img.points", n=seat.total), 16, False, SEAT_W - 44),
                font=font(16),
                fill=th.good if seat.total >= 0 else th.bad,
                anchor="lm",
            )
    return im


def render_history(view: HistoryView, theme: str | Theme = "dark", lang: str = "en") -> bytes:
    """PNG bytes of a player's recent matches (800 wide)."""
    return to_png(render_history_image(view, theme, lang), get_theme(theme))
