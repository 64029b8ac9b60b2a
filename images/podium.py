"""A season's podium: the top three on their steps (second, first, third from the left),
each with the medal, the name, the rating and the record (wins in matches played).

720 wide like the boards, so a phone shows it at half size; every text is at least
18 px there (9 px on the phone)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from . import draw as dr
from .labels import text_for
from .png import to_png
from .ranked import MIN_TEXT, PAD, W
from .text import clean, draw_text, fit, font
from .theme import MEDALS, Theme, get_theme
from .views import PodiumPlace, PodiumView, default_colour

HEAD_H = 130
COL_W = (W - 2 * PAD) // 3
STEP = {1: 150, 2: 110, 3: 80}
"""The height of each place's step."""
TOP = HEAD_H + 20  # where the tallest column's avatar starts
AVATAR = 72
TEXT_H = 108  # the name, the rating and the record above the step
H = TOP + AVATAR + TEXT_H + STEP[1] + PAD


def _column(place: int) -> int:
    """The left edge of a place's column: 2nd left, 1st in the middle, 3rd right."""
    return PAD + {2: 0, 1: 1, 3: 2}[place] * COL_W


def _draw_place(
    im: Image.Image, d: ImageDraw.ImageDraw, th: Theme, lang: str, p: PodiumPlace
) -> None:
    x0 = _column(p.place)
    cx = x0 + COL_W // 2
    step_top = H - PAD - STEP[p.place]
    medal = MEDALS[p.place]
    # the step, with the place on it
    dr.panel(
        im, (x0 + 8, step_top, x0 + COL_W - 8, H - PAD), th, 14, fill=dr.mix(th.panel, medal, 0.25)
    )
    d.text(
        (cx, step_top + STEP[p.place] // 2),
        str(p.place),
        font=font(44, True),
        fill=medal,
        anchor="mm",
    )
    # above it: the avatar with its medal ring, the name, the rating, the record
    y = step_top - TEXT_H - AVATAR
    shade = p.colour if p.colour is not None else default_colour(p.name)
    dr.paste(
        im, dr.player_avatar(AVATAR, p.name, p.initials, shade, ring=medal), (cx - AVATAR // 2, y)
    )
    room = COL_W - 20
    dr.name_text(
        d,
        (cx, y + AVATAR + 10),
        p.name,
        24,
        th.text,
        room,
        text_for(lang, "img.player", n=p.place),
        anchor="mt",
        smallest=MIN_TEXT,
    )
    rating = text_for(lang, "img.settling") if p.rating is None else str(p.rating)
    line = text_for(lang, "img.podium_rating", rating=rating)
    draw_text(d, (cx, y + AVATAR + 46), fit(line, 20, True, room), 20, th.accent, True, "mt")
    record = text_for(lang, "img.podium_record", wins=p.wins, matches=p.matches)
    draw_text(
        d, (cx, y + AVATAR + 76), fit(record, MIN_TEXT, False, room), MIN_TEXT, th.dim, False, "mt"
    )


def render_podium_image(
    view: PodiumView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    im, d = dr.canvas((W, H), th)
    dr.label(d, (PAD, 26), text_for(lang, "img.game"), th, MIN_TEXT)
    title = clean(view.title, text_for(lang, "img.podium"))
    dr.heading(d, (PAD, 54), title, clean(view.subtitle), th, W - 2 * PAD, 20)
    for p in view.places:
        _draw_place(im, d, th, lang, p)
    return im


def render_podium(view: PodiumView, theme: str | Theme = "dark", lang: str = "en") -> bytes:
    """PNG bytes of a season's podium (720 wide)."""
    return to_png(render_podium_image(view, theme, lang), get_theme(theme))
