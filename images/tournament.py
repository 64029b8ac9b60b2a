"""A tournament's standings: rank, player, points, opponents' points (the first
tie-break), total score and tables played; up to 16 people, a withdrawn player's line
greyed and marked. 720 wide like the other boards, so a phone shows it at half size
with no text under 9 px."""

from __future__ import annotations

from PIL import Image

from .labels import text_for
from .png import to_png
from .ranked import COL_GAP, MIN_TEXT, PAD, X_NAME, W, board_canvas, board_rows
from .text import fit, font
from .theme import Theme, get_theme
from .views import TournamentView

# right edges of the number columns
X_TABLES = W - PAD - 14
X_SCORE = X_TABLES - 90
X_OPP = X_SCORE - 100
X_POINTS = X_OPP - 95


def render_tournament_image(
    view: TournamentView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    im, d = board_canvas(
        th,
        lang,
        rows=len(view.rows),
        title=view.title,
        fallback_title=text_for(lang, "img.tournament"),
        subtitle=view.subtitle,
        columns=[
            ("#", PAD + 36, "ma", 40),
            (text_for(lang, "img.col.player"), PAD + 66, "la", X_POINTS - 80 - (PAD + 66)),
            (text_for(lang, "img.col.points"), X_POINTS, "ra", 80),
            (text_for(lang, "img.col.opponents"), X_OPP, "ra", X_OPP - X_POINTS - COL_GAP),
            (text_for(lang, "img.col.score"), X_SCORE, "ra", X_SCORE - X_OPP - COL_GAP),
            (text_for(lang, "img.col.tables"), X_TABLES, "ra", X_TABLES - X_SCORE - COL_GAP),
        ],
        notes=[text_for(lang, "img.more_players", n=view.more)] if view.more else [],
    )
    name_room = X_POINTS - 80 - X_NAME
    for row, cy in board_rows(im, d, th, lang, view.rows, None, name_room):
        shade = th.faint if row.withdrawn else th.text
        d.text(
            (X_POINTS, cy),
            str(row.points),
            font=font(24, True),
            fill=th.faint if row.withdrawn else th.accent,
            anchor="rm",
        )
        d.text((X_OPP, cy), str(row.opponents), font=font(20), fill=shade, anchor="rm")
        d.text((X_SCORE, cy), str(row.score), font=font(20), fill=shade, anchor="rm")
        d.text((X_TABLES, cy), str(row.tables), font=font(20), fill=shade, anchor="rm")
        if row.withdrawn:
            tag = fit(text_for(lang, "img.withdrawn"), MIN_TEXT, False, name_room)
            d.text((X_NAME, cy + 22), tag, font=font(MIN_TEXT), fill=th.faint, anchor="lm")
    return im


def render_tournament(view: TournamentView, theme: str | Theme = "dark", lang: str = "en") -> bytes:
    """PNG bytes of the standings (720 wide)."""
    return to_png(render_tournament_image(view, theme, lang), get_theme(theme))
