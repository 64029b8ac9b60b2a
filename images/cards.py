"""Card art, drawn by this code (no downloaded assets) and cached per size.

Each sprite is drawn at three times its size and scaled down, which gives smooth
corners and symbols. Faces carry a large top-left index (rank over suit) so a card
reads at phone size even when only that corner shows in a fanned hand, and one big
pip; court cards get a framed panel with the letter, aces an oversized pip.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from .text import font
from .views import RED_SUITS, SUIT_SYMBOLS, check_card, rank_label

Colour = tuple[int, int, int]

SS = 3  # supersampling factor
CARD_RATIO = 1.4

FACE = (253, 253, 250)
FACE_EDGE = (176, 180, 188)
BLACK = (28, 30, 34)
RED = (212, 32, 48)
BLUE = (22, 92, 200)
GREEN = (22, 138, 62)
COURT_TINT = {
    "S": (226, 230, 238),
    "H": (250, 226, 226),
    "D": (226, 234, 250),
    "C": (224, 242, 228),
}
BACK = (44, 72, 148)
BACK_DARK = (28, 48, 108)
BACK_LINE = (92, 126, 204)


def suit_colour(suit: str, four_colour: bool = False) -> Colour:
    """Ink for a suit: two-colour (black / red) or four-colour (♠ black ♥ red ♦ blue ♣ green)."""
    if four_colour:
        return {"S": BLACK, "H": RED, "D": BLUE, "C": GREEN}[suit]
    return RED if suit in RED_SUITS else BLACK


def card_size(width: int) -> tuple[int, int]:
    return width, round(width * CARD_RATIO)


def _radius(w: int) -> int:
    return max(3, round(w * 0.09))


def _blank(width: int, fill: Colour, edge: Colour) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    w, h = card_size(width)
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1),
        radius=_radius(w) * SS,
        fill=(*fill, 255),
        outline=(*edge, 255),
        width=max(SS, round(w * SS / 70)),
    )
    return big, d


def _finish(big: Image.Image, width: int) -> Image.Image:
    return big.resize(card_size(width), Image.Resampling.LANCZOS)


def _corner(d: ImageDraw.ImageDraw, code: str, w: int, ink: Colour) -> None:
    """Rank over suit in the top-left corner, at supersampled scale."""
    rank = rank_label(code)
    sym = SUIT_SYMBOLS[code[1]]
    rank_size = round(w * SS * (0.30 if rank == "10" else 0.34))
    rank_font = font(rank_size, True)
    cx = round(w * SS * 0.2)
    top = round(w * SS * 0.05)
    if rank == "10":
        # keep "10" inside the corner column by squeezing the letter spacing
        rank_font = font(round(w * SS * 0.29), True)
    d.text((cx, top), rank, font=rank_font, fill=ink, anchor="mt")
    sym_font = font(round(w * SS * 0.27), False)
    d.text((cx, top + round(rank_size * 1.02)), sym, font=sym_font, fill=ink, anchor="mt")


@lru_cache(maxsize=256)
def card_face(code: str, width: int, four_colour: bool = False) -> Image.Image:
    """The face of ``code`` (``"TH"``) ``width`` pixels wide, as an RGBA sprite."""
    check_card(code)
    suit = code[1]
    ink = suit_colour(suit, four_colour)
    big, d = _blank(width, FACE, FACE_EDGE)
    w, h = card_size(width)
    bw, bh = w * SS, h * SS
    _corner(d, code, w, ink)
    sym = SUIT_SYMBOLS[suit]
    cx, cy = round(bw * 0.6), round(bh * 0.6)
    rank = code[0]
    if rank in "JQK":
        x0, y0 = round(bw * 0.36), round(bh * 0.2)
        x1, y1 = round(bw * 0.88), round(bh * 0.9)
        tint = COURT_TINT[suit]
        d.rounded_rectangle(
            (x0, y0, x1, y1), radius=round(bw * 0.05), fill=tint, outline=ink, width=SS * 2
        )
        mid = (x0 + x1) // 2
        d.text(
            (mid, round(bh * 0.47)), rank, font=font(round(bw * 0.36), True), fill=ink, anchor="mm"
        )
        d.text((mid, round(bh * 0.73)), sym, font=font(round(bw * 0.26)), fill=ink, anchor="mm")
    elif rank == "A":
        d.text((cx, cy), sym, font=font(round(bw * 0.66)), fill=ink, anchor="mm")
    else:
        d.text((cx, cy), sym, font=font(round(bw * 0.50)), fill=ink, anchor="mm")
    return _finish(big, width)


@lru_cache(maxsize=16)
def card_back(width: int) -> Image.Image:
    """The card back: a navy lattice inside a white border."""
    big, d = _blank(width, FACE, FACE_EDGE)
    w, h = card_size(width)
    bw, bh = w * SS, h * SS
    m = round(bw * 0.08)
    inner = (m, m, bw - 1 - m, bh - 1 - m)
    d.rounded_rectangle(inner, radius=round(_radius(w) * SS * 0.6), fill=BACK)
    pattern = Image.new("RGBA", (bw, bh), (0, 0, 0, 0))
    p = ImageDraw.Draw(pattern)
    step = max(SS * 4, round(bw * 0.14))
    lw = max(SS, round(bw * 0.012))
    for x in range(-bh, bw + bh, step):
        p.line((x, 0, x + bh, bh), fill=BACK_LINE, width=lw)
        p.line((x, bh, x + bh, 0), fill=BACK_LINE, width=lw)
    mask = Image.new("L", (bw, bh), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (m + lw * 3, m + lw * 3, bw - 1 - m - lw * 3, bh - 1 - m - lw * 3),
        radius=round(_radius(w) * SS * 0.4),
        fill=255,
    )
    big.paste(pattern, (0, 0), ImageChops.multiply(pattern.getchannel("A"), mask))
    r = round(bw * 0.16)
    cx, cy = bw // 2, bh // 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BACK_DARK, outline=FACE, width=SS * 2)
    d.text((cx, cy), "♠", font=font(round(r * 1.2)), fill=FACE, anchor="mm")
    return _finish(big, width)


@lru_cache(maxsize=640)
def card_shadowed(
    code: str | None,
    width: int,
    four_colour: bool,
    dim: float = 0.0,
    shadow_alpha: int = 110,
    dim_colour: tuple[int, int, int] = (120, 124, 132),
) -> Image.Image:
    """A card sprite with a soft drop shadow baked in (``None`` draws the back).

    The sprite is larger than the card by a margin of ``shadow_margin(width)`` on
    each side; ``dim`` (0..1) washes the card towards ``dim_colour`` (the background),
    for cards that cannot be played.
    """
    card = card_back(width) if code is None else card_face(code, width, four_colour)
    if dim > 0:
        grey = Image.new("RGBA", card.size, (*dim_colour, round(255 * dim)))
        grey.putalpha(_scale_alpha(card.getchannel("A"), round(255 * dim)))
        card = Image.alpha_composite(card, grey)
    m = shadow_margin(width)
    out = Image.new("RGBA", (card.width + 2 * m, card.height + 2 * m), (0, 0, 0, 0))
    alpha = _scale_alpha(card.getchannel("A"), shadow_alpha)
    shadow = Image.new("RGBA", card.size, (0, 0, 0, 255))
    shadow.putalpha(alpha)
    out.paste(shadow, (m, m + max(1, width // 40)))
    out = out.filter(ImageFilter.GaussianBlur(max(1, width / 30)))
    out.alpha_composite(card, (m, m))
    return out


def _scale_alpha(alpha: Image.Image, scale: int) -> Image.Image:
    return alpha.point([v * scale // 255 for v in range(256)])


def shadow_margin(width: int) -> int:
    return max(3, width // 14)
