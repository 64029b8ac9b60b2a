"""One fixed 256-colour palette per theme, used to encode every picture.

Mapping onto a known palette takes about a millisecond, where choosing a palette
per picture takes several (fast octree) to tens (median cut), and the fast
octree bands soft shadows and gradients. The palette is chosen once, by median
cut, from a reference sheet holding everything the pictures are made of: the
felt, both decks of cards, avatars, panels, shadows, glows and text in every
theme colour.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from . import draw as dr
from .cards import card_back, card_face, card_shadowed
from .felt import background
from .text import font
from .theme import MEDALS, Theme
from .views import AVATAR_COLOURS, RANKS, SUITS


def reference_sheet(theme: Theme) -> Image.Image:
    bg = background(theme)
    sheet = Image.new("RGB", (bg.width, bg.height + 560), theme.bg)
    sheet.paste(bg, (0, 0))
    y0 = bg.height
    d = ImageDraw.Draw(sheet)
    # cards: both decks, table and mini size, on felt and on the panel colour
    d.rectangle((0, y0, sheet.width, y0 + 300), fill=theme.felt_centre)
    x = 6
    for i, suit in enumerate(SUITS):
        for j, rank in enumerate(RANKS[::3] + "JQK"):
            code = rank + suit
            dr.paste(sheet, card_face(code, 50, i % 2 == 0), (x + j * 54, y0 + 6 + i * 72))
    for k, four in enumerate((False, True)):
        for i, suit in enumerate(SUITS):
            dr.paste(sheet, card_face("K" + suit, 88, four), (480 + (i + 4 * k) * 58, y0 + 10))
            dr.paste(sheet, card_face("9" + suit, 88, four), (480 + (i + 4 * k) * 58, y0 + 150))
    dr.paste(sheet, card_back(88), (880, y0 + 150))
    # a fanned hand of dimmed (unplayable) cards on the background, both decks
    hand = Image.new("RGB", (sheet.width, 150), theme.bg)
    for i, code in enumerate(("AS", "KH", "QD", "JC", "TS", "4H", "9D", "3C")):
        for k, four in enumerate((False, True)):
            sprite = card_shadowed(code, 96, four, 0.45, theme.shadow_alpha, theme.bg)
            dr.paste(hand, sprite, (10 + (i + 8 * k) * 56, 6))
    big = Image.new("RGB", (sheet.width, sheet.height + hand.height), theme.bg)
    big.paste(sheet, (0, 0))
    big.paste(hand, (0, sheet.height))
    sheet = big
    d = ImageDraw.Draw(sheet)
    # panels with text in every colour, avatars, pills, glows
    py = y0 + 310
    dr.panel(sheet, (20, py, 940, py + 230), theme)
    colours = [
        theme.text,
        theme.dim,
        theme.faint,
        theme.accent,
        theme.good,
        theme.bad,
        *theme.team_colours,
    ]
    for i, c in enumerate(colours):
        d.text(
            (40 + (i % 4) * 220, py + 20 + (i // 4) * 40),
            "Ağ 10/6 −60 pts",
            font=font(22, True),
            fill=c,
        )
    for i, c in enumerate(AVATAR_COLOURS):
        dr.paste(sheet, dr.avatar(54, c, "AY"), (40 + i * 64, py + 110))
    for place, medal in MEDALS.items():
        dr.paste(sheet, dr.avatar(36, medal, str(place)), (560 + place * 40, py + 60))
    bid = dr.pill("BID 6", 14, theme.accent, theme.accent_text, height=24)
    dr.paste(sheet, bid, (600, py + 110))
    dr.paste(sheet, dr.pill("FORCED", 14, theme.bad, (255, 255, 255), height=24), (700, py + 110))
    dr.paste(sheet, dr.pill("MADE", 14, theme.good, (255, 255, 255), height=24), (800, py + 110))
    dr.paste(sheet, dr.glow((200, 30), 14, theme.accent, 16, 200), (40, py + 170))
    dr.paste(sheet, dr.glow((200, 30), 14, theme.accent, 16, 200), (300, y0 - 60))
    d.rectangle((520, py + 170, 900, py + 215), fill=theme.row_alt)
    # the highlighted leaderboard row and the dashed slot, translucent accent on panel and felt
    dr.paste(
        sheet,
        dr.rounded((300, 40), 12, dr.rgba(theme.accent, 48), dr.rgba(theme.accent), 2),
        (300, py + 180),
    )
    dr.paste(
        sheet,
        dr.rounded((88, 123), 9, dr.rgba(theme.accent, 40), dr.rgba(theme.accent), 3),
        (600, y0 - 200),
    )
    return sheet


@lru_cache(maxsize=8)
def palette_for(theme: Theme) -> Image.Image:
    """The theme's palette, as a "P" image for ``Image.quantize(palette=...)``."""
    return reference_sheet(theme).quantize(
        256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
