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
HEAD = 88
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
    small = dr.phone_px(width)  # legible on a phone (23 px for a full hand)
    chip = dr.suit_chip(view.trump, 34, four_colour, th.panel_border) if view.trump else None
    room = width - 2 * PAD - (chip.width + 12 if chip is not None else 0)
    title = fit(clean(view.title) or text_for(lang, "img.your_hand"), 26, True, room)
    draw_text(d, (PAD, 24), title, 26, th.text, True, "lm")
    if view.subtitle:
        sub = view.subtitle
    elif view.legal is not None:
        sub = text_for(lang, "img.playable", n=len(view.legal))
    else:
        sub = text_for(lang, "img.n_cards", n=n) if n else ""
    # the second line: what the hand holds (or may play) on the left, the trump on the right
    trump = ""
    if chip is not None and view.trump is not None:
        dr.paste(im, chip, (width - PAD - chip.width, 7))
        trump = text_for(lang, "img.suit_trump", suit=suit_name(lang, view.trump))
        trump = fit(trump, small, False, (width - 2 * PAD) // 2 - 8)
        d.text((width - PAD, 60), trump, font=font(small), fill=th.dim, anchor="rm")
    sub_room = width - 2 * PAD - (round(font(small).getlength(trump)) + 16 if trump else 0)
    draw_text(d, (PAD, 60), fit(clean(sub), small, False, sub_room), small, th.dim, False, "lm")
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
