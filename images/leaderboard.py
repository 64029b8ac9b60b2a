"""The leaderboard: rank, player, rating, wins, matches (up to 10 people), and the
computer players on a line apart under them."""

from __future__ import annotations

from PIL import Image

from . import draw as dr
from .labels import text_for
from .png import to_png
from .text import clean, fit, fit_size, font
from .theme import MEDALS, Theme, get_theme
from .views import LeaderboardRow, LeaderboardView, default_colour

W = 800
PAD = 32
ROW_H = 60
HEAD_H = 130
X_RATING, X_WINS, X_PLAYED = 480, 568, 664
COL_GAP = 10  # px between two column labels
NOTE_H = 30  # a line under the panel: the computers, what "?" means


def rating_text(row: LeaderboardRow) -> str:
    """1234, or 1234? while provisional."""
    return f"{row.rating:.0f}" + ("?" if row.provisional else "")


def _notes(view: LeaderboardView, lang: str) -> list[str]:
    notes = []
    if view.bots:
        bots = " · ".join(f"{clean(b.name)} {rating_text(b)}" for b in view.bots)
        notes.append(text_for(lang, "img.computers", list=bots))
    if any(r.provisional for r in (*view.rows, *view.bots)):
        notes.append(text_for(lang, "img.provisional"))
    return notes


def render_leaderboard_image(
    view: LeaderboardView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    n = len(view.rows)
    notes = _notes(view, lang)
    height = HEAD_H + 44 + max(n, 1) * ROW_H + 24 + PAD + NOTE_H * len(notes)
    im, d = dr.canvas((W, height), th)
    dr.label(d, (PAD, 28), text_for(lang, "img.game"), th)
    dr.heading(
        d,
        (PAD, 52),
        clean(view.title, text_for(lang, "img.leaderboard")),
        clean(view.subtitle),
        th,
        W - 2 * PAD,
    )
    top = HEAD_H
    bottom = height - PAD - NOTE_H * len(notes)
    dr.panel(im, (PAD, top, W - PAD, bottom), th)
    for i, note in enumerate(notes):
        y = bottom + 14 + i * NOTE_H
        d.text((PAD + 8, y), fit(note, 18, False, W - 2 * PAD - 16), font=font(18), fill=th.dim)
    # (label, x, anchor, room): a right-aligned label may reach its left neighbour's edge
    cols = [
        ("#", PAD + 40, "ma", 40),
        (text_for(lang, "img.col.player"), PAD + 80, "la", X_RATING - 90 - (PAD + 80)),
        (text_for(lang, "img.col.rating"), X_RATING, "ra", 80),
        (text_for(lang, "img.col.wins"), X_WINS, "ra", X_WINS - X_RATING - COL_GAP),
        (text_for(lang, "img.col.played"), X_PLAYED, "ra", X_PLAYED - X_WINS - COL_GAP),
        (text_for(lang, "img.col.win_pct"), W - PAD - 18, "ra", W - PAD - 18 - X_PLAYED - COL_GAP),
    ]
    for name, x, anchor, room in cols:
        size = fit_size(name, 15, True, room)
        label = fit(name, size, True, room)
        d.text((x, top + 18), label, font=font(size, True), fill=th.dim, anchor=anchor)
    y0 = top + 44
    if n == 0:
        d.text(
            (W // 2, y0 + ROW_H // 2),
            text_for(lang, "img.no_games"),
            font=font(22),
            fill=th.faint,
            anchor="mm",
        )
    for i, row in enumerate(view.rows):
        y = y0 + i * ROW_H
        cy = y + ROW_H // 2
        mine = view.highlight_rank is not None and row.rank == view.highlight_rank
        if mine:
            hl = dr.rounded(
                (W - 2 * PAD - 8, ROW_H - 6), 12, dr.rgba(th.accent, 48), dr.rgba(th.accent), 2
            )
            dr.paste(im, hl, (PAD + 4, y + 3))
        elif i % 2 == 0:
            d.rectangle((PAD + 2, y, W - PAD - 3, y + ROW_H - 1), fill=th.row_alt)
        medal = MEDALS.get(row.rank)
        if medal is not None:
            dr.paste(im, dr.avatar(36, medal, str(row.rank)), (PAD + 22, cy - 18))
        else:
            d.text((PAD + 40, cy), str(row.rank), font=font(20, True), fill=th.dim, anchor="mm")
        colour = row.colour if row.colour is not None else default_colour(row.name)
        dr.paste(im, dr.player_avatar(40, row.name, row.initials, colour), (PAD + 80, cy - 20))
        dr.name_text(
            d,
            (PAD + 132, cy),
            row.name,
            22,
            th.text,
            X_RATING - 90 - (PAD + 132),
            text_for(lang, "img.player", n=row.rank),
            anchor="lm",
        )
        d.text(
            (X_RATING, cy),
            rating_text(row),
            font=font(22, True),
            fill=th.dim if row.provisional else th.accent,
            anchor="rm",
        )
        d.text((X_WINS, cy), str(row.wins), font=font(20), fill=th.text, anchor="rm")
        d.text((X_PLAYED, cy), str(row.matches), font=font(20), fill=th.text, anchor="rm")
        pct = (
            text_for(lang, "img.percent", n=round(100 * row.wins / row.matches))
            if row.matches > 0
            else "–"
        )
        d.text((W - PAD - 18, cy), pct, font=font(20), fill=th.dim, anchor="rm")
    return im


def render_leaderboard(
    view: LeaderboardView, theme: str | Theme = "dark", lang: str = "en"
) -> bytes:
    """PNG bytes of the leaderboard (800 wide)."""
    return to_png(render_leaderboard_image(view, theme, lang), get_theme(theme))
