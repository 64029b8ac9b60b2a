"""A player's own hand, fanned, with the legal cards lifted and the others dimmed."""

from __future__ import annotations

from PIL import Image

from . import draw as dr
from .cards import card_shadowed, card_size, shadow_margin
from .labels import suit_name, text_for
from .png import to_png
from .text import clean, draw_text, fit, font
from .theme import Theme, get_theme
from .views import HandView

CARD_W = 96
STEP = 62  # horizontal distance between overlapping cards
LIFT = 26
PAD = 28
HEAD = 56
MIN_W = 560


def hand_width(n: int) -> int:
    cw, _ = card_size(CARD_W)
    return max(MIN_W, 2 * PAD + (n - 1) * STEP + cw if n else MIN_W)


def render_hand_image(
    view: HandView, theme: str | Theme = "dark", four_colour: bool = False, lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    cw, ch = card_size(CARD_W)
    n = len(view.cards)
    width = hand_width(n)
    height = HEAD + LIFT + ch + PAD
    im, d = dr.canvas((width, height), th)
    title = fit(
        clean(view.title) or text_for(lang, "img.your_hand"), 24, True, width - 2 * PAD - 170
    )
    tw = draw_text(d, (PAD, 22), title, 24, th.text, True, "lm")
    if view.subtitle:
        sub = view.subtitle
    elif view.legal is not None:
        sub = text_for(lang, "img.playable", n=len(view.legal))
    else:
        sub = text_for(lang, "img.n_cards", n=n) if n else ""
    sub = fit(clean(sub), 17, False, int(width - 2 * PAD - tw - 190))
    draw_text(d, (PAD + tw + 14, 23), sub, 17, th.dim, False, "lm")
    if view.trump is not None:
        chip = dr.suit_chip(view.trump, 34, four_colour, th.panel_border)
        dr.paste(im, chip, (width - PAD - chip.width, 6))
        d.text(
            (width - PAD - chip.width - 10, 23),
            text_for(lang, "img.suit_trump", suit=suit_name(lang, view.trump)),
            font=font(17),
            fill=th.dim,
            anchor="rm",
        )
    m = shadow_margin(CARD_W)
    x0 = (width - ((n - 1) * STEP + cw)) // 2 if n else PAD
    for i, code in enumerate(view.cards):
        legal = view.legal is None or code in view.legal
        lifted = view.legal is not None and legal
        dim = 0.0 if legal else 0.45
        y = HEAD + (0 if lifted else LIFT)
        sprite = card_shadowed(code, CARD_W, four_colour, dim, th.shadow_alpha, th.bg)
        dr.paste(im, sprite, (x0 + i * STEP - m, y - m))
    if n == 0:
        empty = text_for(lang, "img.hidden" if view.hidden else "img.no_cards")
        d.text(
            (width // 2, HEAD + (LIFT + ch) // 2), empty, font=font(22), fill=th.faint, anchor="mm"
        )
    return im


def render_hand(
    view: HandView, theme: str | Theme = "dark", four_colour: bool = False, lang: str = "en"
) -> bytes:
    """PNG bytes of a hand; meant for the player's ephemeral message."""
    return to_png(render_hand_image(view, theme, four_colour, lang), get_theme(theme))
