"""The leaderboard: rank, player, rating, wins, matches (up to 10 people), and the
computer players and the people still settling in on lines apart under them. No win
rate column: at phone width its room is the names' (the wins and matches give it)."""

from __future__ import annotations

from PIL import Image

from .labels import text_for
from .png import to_png
from .ranked import COL_GAP, PAD, X_NAME, W, board_canvas, board_rows
from .text import clean, font
from .theme import Theme, get_theme
from .views import LeaderboardRow, LeaderboardView

# right edges of the number columns, each wide enough for its label at 18 px
X_PLAYED = W - PAD - 14
X_WINS = X_PLAYED - 102
X_RATING = X_WINS - 115


def rating_text(row: LeaderboardRow, lang: str) -> str:
    """1234, or a word while the player is still settling in (never a bare number)."""
    return text_for(lang, "img.settling") if row.provisional else f"{row.rating:.0f}"


def _notes(view: LeaderboardView, lang: str) -> list[str]:
    notes = []
    if view.bots:
        bots = " · ".join(f"{clean(b.name)} {rating_text(b, lang)}" for b in view.bots)
        notes.append(text_for(lang, "img.computers", list=bots))
    if view.settling:
        names = ", ".join(clean(n) for n in view.settling)
        notes.append(text_for(lang, "img.provisional", names=names))
    return notes


def render_leaderboard_image(
    view: LeaderboardView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    im, d = board_canvas(
        th,
        lang,
        rows=len(view.rows),
        title=view.title,
        fallback_title=text_for(lang, "img.leaderboard"),
        subtitle=view.subtitle,
        columns=[
            ("#", PAD + 36, "ma", 40),
            (text_for(lang, "img.col.player"), PAD + 66, "la", X_RATING - 80 - (PAD + 66)),
            (text_for(lang, "img.col.rating"), X_RATING, "ra", 80),
            (text_for(lang, "img.col.wins"), X_WINS, "ra", X_WINS - X_RATING - COL_GAP),
            (text_for(lang, "img.col.played"), X_PLAYED, "ra", X_PLAYED - X_WINS - COL_GAP),
        ],
        notes=_notes(view, lang),
    )
    name_room = X_RATING - 80 - X_NAME
    for row, cy in board_rows(im, d, th, lang, view.rows, view.highlight_rank, name_room):
        d.text(
            (X_RATING, cy),
            rating_text(row, lang),
            font=font(22, True),
            fill=th.dim if row.provisional else th.accent,
            anchor="rm",
        )
        d.text((X_WINS, cy), str(row.wins), font=font(20), fill=th.text, anchor="rm")
        d.text((X_PLAYED, cy), str(row.matches), font=font(20), fill=th.text, anchor="rm")
    return im


def render_leaderboard(
    view: LeaderboardView, theme: str | Theme = "dark", lang: str = "en"
) -> bytes:
    """PNG bytes of the leaderboard (720 wide)."""
    return to_png(render_leaderboard_image(view, theme, lang), get_theme(theme))
