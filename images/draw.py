"""Shared drawing helpers: anti-aliased panels and pills, avatars, text."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from . import fonts
from .cards import suit_colour
from .text import clean, display_name, draw_text, fit, fit_size, font, initials, length, plain
from .theme import Theme
from .views import SUIT_SYMBOLS

Colour = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Box = tuple[int, int, int, int]

SS = 3  # supersampling for shapes


def rgba(c: Colour, a: int = 255) -> RGBA:
    return (c[0], c[1], c[2], a)


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """Linear blend from ``a`` (t=0) to ``b`` (t=1)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def ink_on(bg: Colour) -> Colour:
    """Black or white, whichever reads better on ``bg``."""
    lum = 0.2126 * bg[0] + 0.7152 * bg[1] + 0.0722 * bg[2]
    return (24, 25, 28) if lum > 150 else (255, 255, 255)


# sprites larger than this many pixels are one-offs (page panels, the felt): not cached
CACHE_MAX_PIXELS = 120_000


def rounded(
    size: tuple[int, int],
    radius: int,
    fill: RGBA,
    outline: RGBA | None = None,
    width: int = 0,
    dash: bool = False,
) -> Image.Image:
    """An anti-aliased rounded rectangle sprite (RGBA); small ones are cached, large
    ones are stretched from a small cached one (nine-slice)."""
    if size[0] * size[1] > CACHE_MAX_PIXELS and not dash:
        b = radius + width + 2
        if 2 * b + 1 <= min(size):
            small = _rounded_cached((2 * b + 1, 2 * b + 1), radius, fill, outline, width, False)
            return nine_slice(small, size, b)
        return _rounded(size, radius, fill, outline, width, dash)
    return _rounded_cached(size, radius, fill, outline, width, dash)


def nine_slice(small: Image.Image, size: tuple[int, int], border: int) -> Image.Image:
    """Stretch ``small`` to ``size``: corners kept, the middle row and column repeated.

    ``small`` must be uniform along its middle row and column (a rounded rectangle,
    its shadow or glow), ``border`` pixels from each edge."""
    w, h = size
    sw, sh = small.size
    b = border
    out = Image.new(small.mode, size)
    mid_w, mid_h = w - 2 * b, h - 2 * b
    nearest = Image.Resampling.NEAREST
    # corners
    out.paste(small.crop((0, 0, b, b)), (0, 0))
    out.paste(small.crop((sw - b, 0, sw, b)), (w - b, 0))
    out.paste(small.crop((0, sh - b, b, sh)), (0, h - b))
    out.paste(small.crop((sw - b, sh - b, sw, sh)), (w - b, h - b))
    # edges, from the middle column / row
    out.paste(small.crop((b, 0, b + 1, b)).resize((mid_w, b), nearest), (b, 0))
    out.paste(small.crop((b, sh - b, b + 1, sh)).resize((mid_w, b), nearest), (b, h - b))
    out.paste(small.crop((0, b, b, b + 1)).resize((b, mid_h), nearest), (0, b))
    out.paste(small.crop((sw - b, b, sw, b + 1)).resize((b, mid_h), nearest), (w - b, b))
    # centre
    out.paste(small.crop((b, b, b + 1, b + 1)).resize((mid_w, mid_h), nearest), (b, b))
    return out


def _rounded(
    size: tuple[int, int],
    radius: int,
    fill: RGBA,
    outline: RGBA | None,
    width: int,
    dash: bool,
) -> Image.Image:
    w, h = size
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1),
        radius=radius * SS,
        fill=fill,
        outline=outline if outline is not None and not dash else None,
        width=width * SS if outline is not None and not dash else 0,
    )
    if dash and outline is not None:
        ring = Image.new("RGBA", big.size, (0, 0, 0, 0))
        ImageDraw.Draw(ring).rounded_rectangle(
            (0, 0, w * SS - 1, h * SS - 1), radius=radius * SS, outline=outline, width=width * SS
        )
        # cut the ring into dashes with a mask of diagonal stripes
        mask = Image.new("L", big.size, 0)
        md = ImageDraw.Draw(mask)
        step = 14 * SS
        for x in range(-h * SS, w * SS + h * SS, step):
            md.polygon(
                [
                    (x, 0),
                    (x + step // 2, 0),
                    (x + step // 2 + h * SS, h * SS),
                    (x + h * SS, h * SS),
                ],
                fill=255,
            )
        big.paste(ring, (0, 0), Image.composite(ring.getchannel("A"), mask, mask))
    return big.resize(size, Image.Resampling.LANCZOS)


_rounded_cached = lru_cache(maxsize=512)(_rounded)


def glow(
    size: tuple[int, int], radius: int, colour: Colour, spread: int, alpha: int
) -> Image.Image:
    """A soft halo ``spread`` pixels wide around a rounded rectangle of ``size``."""
    if size[0] * size[1] > CACHE_MAX_PIXELS:
        inner = 2 * (radius + 2 * spread) + 1
        if inner <= min(size):
            small = _glow_cached((inner, inner), radius, colour, spread, alpha)
            b = spread + radius + 2 * spread
            return nine_slice(small, (size[0] + 2 * spread, size[1] + 2 * spread), b)
        return _glow(size, radius, colour, spread, alpha)
    return _glow_cached(size, radius, colour, spread, alpha)


def _glow(
    size: tuple[int, int], radius: int, colour: Colour, spread: int, alpha: int
) -> Image.Image:
    w, h = size
    out = Image.new("RGBA", (w + 2 * spread, h + 2 * spread), rgba(colour, 0))
    shape = Image.new("L", out.size, 0)
    ImageDraw.Draw(shape).rounded_rectangle(
        (spread, spread, spread + w - 1, spread + h - 1), radius=radius, fill=alpha
    )
    out.putalpha(shape.filter(ImageFilter.GaussianBlur(spread / 2)))
    return out


_glow_cached = lru_cache(maxsize=128)(_glow)


def shadow(size: tuple[int, int], radius: int, alpha: int, blur: int = 6) -> Image.Image:
    """A blurred drop shadow for a rounded rectangle; sprite is ``blur*2`` larger each way."""
    return glow(size, radius, (0, 0, 0), blur * 2, alpha)


def paste(base: Image.Image, sprite: Image.Image, xy: tuple[float, float]) -> None:
    """Paste an RGBA sprite onto an RGB or RGBA image at ``xy`` using its alpha."""
    base.paste(sprite, (round(xy[0]), round(xy[1])), sprite)


def panel(
    base: Image.Image,
    box: Box,
    theme: Theme,
    radius: int = 16,
    fill: Colour | None = None,
    outline: Colour | None = None,
    width: int = 2,
    with_shadow: bool = True,
) -> None:
    x0, y0, x1, y1 = box
    size = (x1 - x0, y1 - y0)
    if with_shadow:
        paste(base, shadow(size, radius, theme.shadow_alpha), (x0 - 12, y0 - 12 + 3))
    paste(
        base,
        rounded(
            size, radius, rgba(fill or theme.panel), rgba(outline or theme.panel_border), width
        ),
        (x0, y0),
    )


@lru_cache(maxsize=512)
def avatar(
    diameter: int, colour: Colour, letters: str, ring: Colour | None = None, square: bool = False
) -> Image.Image:
    """A round avatar with initials (a rounded square for a computer player), cached.

    The shape is drawn supersampled; the letters at the final size, so their size is
    the size they are seen at."""
    big = Image.new("RGBA", (diameter * SS, diameter * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    box = (0, 0, diameter * SS - 1, diameter * SS - 1)
    outline = rgba(ring) if ring else None
    width = 3 * SS if ring else 0
    if square:
        d.rounded_rectangle(
            box, radius=diameter * SS // 4, fill=rgba(colour), outline=outline, width=width
        )
    else:
        d.ellipse(box, fill=rgba(colour), outline=outline, width=width)
    out = big.resize((diameter, diameter), Image.Resampling.LANCZOS)
    size = round(diameter * (0.42 if len(letters) <= 1 else 0.38))
    c = diameter / 2
    draw_text(ImageDraw.Draw(out), (c, c), letters, size, ink_on(colour), True, "mm")
    return out


def player_avatar(
    diameter: int,
    name: str,
    given_initials: str,
    colour: Colour,
    ring: Colour | None = None,
    square: bool = False,
) -> Image.Image:
    letters = clean(given_initials)[:2].upper() if given_initials else initials(name)
    if not plain(letters):
        letters = initials(letters)  # given initials cut inside an emoji sequence
    return avatar(diameter, colour, letters or "?", ring, square)


@lru_cache(maxsize=256)
def pill(
    text: str,
    size: int,
    fill: Colour,
    ink: Colour,
    bold: bool = True,
    pad_x: int = 10,
    height: int | None = None,
) -> Image.Image:
    """A rounded label ("lozenge") with centred text, cached."""
    tw = round(length(text, size, bold))
    h = height or round(size * 1.55)
    w = max(h, tw + 2 * pad_x)
    img = rounded((w, h), h // 2, rgba(fill)).copy()
    d = ImageDraw.Draw(img)
    draw_text(d, (w / 2, h / 2), text, size, ink, bold, "mm")
    return img


# the avatars and pills hold drawn text: redrawn when the fallback fonts change
fonts.cached(avatar)
fonts.cached(pill)


@lru_cache(maxsize=64)
def suit_chip(suit: str, size: int, four_colour: bool, edge: Colour) -> Image.Image:
    """A small white card-like square holding a suit symbol in its colour."""
    img = rounded((size, size), max(4, size // 6), (253, 253, 250, 255), rgba(edge), 1).copy()
    d = ImageDraw.Draw(img)
    d.text(
        (size / 2, size / 2 + size * 0.03),
        SUIT_SYMBOLS[suit],
        font=font(round(size * 0.72)),
        fill=suit_colour(suit, four_colour),
        anchor="mm",
    )
    return img


def text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: Colour,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
) -> float:
    """Draw ``s`` (already clean) and return its width; shortened to ``max_width``."""
    if max_width is not None:
        s = fit(s, size, bold, max_width)
    return draw_text(d, xy, s, size, fill, bold, anchor)


def name_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    name: str,
    size: int,
    fill: Colour,
    max_width: int,
    fallback: str,
    bold: bool = True,
    anchor: str = "la",
    smallest: int | None = None,
) -> None:
    """Draw an untrusted player name: cleaned, never empty, ellipsised to fit; with
    ``smallest``, a long name is first drawn smaller (down to that size) so that more of
    it shows."""
    if smallest is not None and smallest < size:
        size = fit_size(clean(name, fallback), size, bold, max_width, smallest)
    s = display_name(name, size, bold, max_width, fallback)
    draw_text(d, xy, s, size, fill, bold, anchor)


def signed(n: int) -> str:
    """Score with a real minus sign: 12, −60."""
    return f"−{-n}" if n < 0 else str(n)


def canvas(size: tuple[int, int], theme: Theme) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    im = Image.new("RGB", size, theme.bg)
    return im, ImageDraw.Draw(im)


def heading(
    d: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    title: str,
    subtitle: str,
    theme: Theme,
    max_width: int,
    sub_size: int = 18,
) -> None:
    """A title in bold with a dim subtitle (``sub_size`` px) under it (both already clean)."""
    x, y = xy
    draw_text(d, (x, y), fit(title, 30, True, max_width), 30, theme.text, True, "lt")
    if subtitle:
        draw_text(
            d,
            (x, y + 42),
            fit(subtitle, sub_size, False, max_width),
            sub_size,
            theme.dim,
            False,
            "lt",
        )


def label(
    d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, theme: Theme, size: int = 15
) -> None:
    """A small capitalised label ("CONTRACT"), placed by its top-left; baseline-aligned so
    a dotted capital (İ) does not push it down."""
    d.text(
        (xy[0], xy[1] + round(size * 0.8)), s, font=font(size, True), fill=theme.dim, anchor="ls"
    )


PHONE_WIDTH = 360
"""The width (px) Discord shows a picture at in a phone's chat."""
PHONE_MIN_PX = 9
"""The smallest text that reads there."""


def phone_px(width: int) -> int:
    """The smallest font size (px) for a picture ``width`` px wide: its text must be at
    least 9 px high when a phone shows it 360 px wide (18 px at 720 wide, 24 at 960)."""
    return -(-PHONE_MIN_PX * width // PHONE_WIDTH)
