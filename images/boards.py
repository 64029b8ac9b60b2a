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
    MIN_TEXT,
    PAD,
    X_NAME,
    W,
    board_canvas,
    board_rows,
    no_games,
)
from .text import clean, draw_text, fit, fit_size, font
from .theme import MEDALS, Theme, get_theme
from .views import DailyBoardView, HistoryView

# ----------------------------------------------------------------------------- daily
X_SCORE, X_PLACE = W - PAD - 190, W - PAD - 14


def render_daily_image(
    view: DailyBoardView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    im, d = board_canvas(
        th,
        lang,
        rows=len(view.rows),
        title=view.title,
        fallback_title=text_for(lang, "img.daily"),
        subtitle=view.subtitle,
        columns=[
            ("#", PAD + 36, "ma", 40),
            (text_for(lang, "img.col.player"), PAD + 66, "la", X_SCORE - 120 - (PAD + 66)),
            (text_for(lang, "img.col.score"), X_SCORE, "ra", 110),
            (text_for(lang, "img.col.place"), X_PLACE, "ra", X_PLACE - X_SCORE - COL_GAP),
        ],
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
        size = fit_size(place, 20, False, place_room, MIN_TEXT)
        d.text(
            (X_PLACE, cy),
            fit(place, size, False, place_room),
            font=font(size),
            fill=th.dim,
            anchor="rm",
        )
    return im


def render_daily(view: DailyBoardView, theme: str | Theme = "dark", lang: str = "en") -> bytes:
    """PNG bytes of today's daily board (720 wide)."""
    return to_png(render_daily_image(view, theme, lang), get_theme(theme))


# ----------------------------------------------------------------------------- history
MATCH_H = 160
SEAT_W = (W - 2 * PAD - 24) // 2  # the four seats two by two: names stay legible
SEAT_H = 50


def render_history_image(
    view: HistoryView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    n = len(view.rows)
    height = HEAD_H + max(n, 1) * (MATCH_H + 12) + PAD
    im, d = dr.canvas((W, height), th)
    dr.label(d, (PAD, 26), text_for(lang, "img.game"), th, MIN_TEXT)
    dr.heading(
        d,
        (PAD, 54),
        clean(view.title, text_for(lang, "img.history")),
        clean(view.subtitle),
        th,
        W - 2 * PAD,
        20,
    )
    if n == 0:
        no_games(d, th, lang, HEAD_H + MATCH_H // 2)
    for i, row in enumerate(view.rows):
        y = HEAD_H + i * (MATCH_H + 12)
        dr.panel(im, (PAD, y, W - PAD, y + MATCH_H), th, radius=14)
        badge_key = "img.rated" if row.rated else "img.casual"
        badge_text = text_for(lang, badge_key)
        badge = dr.pill(
            fit(badge_text, MIN_TEXT, True, 170),
            MIN_TEXT,
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
            x = PAD + 12 + (s % 2) * (SEAT_W + 12)
            sy = y + 48 + (s // 2) * (SEAT_H + 4)
            if row.highlight_seat == s:
                hl = dr.rounded((SEAT_W, SEAT_H), 10, dr.rgba(th.accent, 40), dr.rgba(th.accent), 2)
                dr.paste(im, hl, (x - 3, sy))
            medal = MEDALS.get(seat.placement)
            colour = medal if medal is not None else th.row_alt
            cy = sy + SEAT_H // 2
            dr.paste(im, dr.avatar(44, colour, str(seat.placement)), (x + 2, cy - 22))
            pts = fit(text_for(lang, "img.points", n=seat.total), 20, False, 120)
            d.text(
                (x + SEAT_W - 14, cy),
                pts,
                font=font(20),
                fill=th.good if seat.total >= 0 else th.bad,
                anchor="rm",
            )
            dr.name_text(
                d,
                (x + 54, cy),
                seat.name,
                20,
                th.text,
                SEAT_W - 54 - 24 - round(font(20).getlength(pts)),
                text_for(lang, "img.player", n=s + 1),
                anchor="lm",
            )
    return im


def render_history(view: HistoryView, theme: str | Theme = "dark", lang: str = "en") -> bytes:
    """PNG bytes of a player's recent matches (720 wide)."""
    return to_png(render_history_image(view, theme, lang), get_theme(theme))
