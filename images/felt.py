"""The static part of the table picture: backdrop and felt, the same for every table."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from . import draw as dr
from .theme import Theme

W, H = 960, 680


@lru_cache(maxsize=8)
def background(theme: Theme) -> Image.Image:
    """The static part of the table picture: backdrop and felt (cached per theme)."""
    im = Image.new("RGB", (W, H), theme.bg)
    fx0, fy0, fx1, fy1 = 96, 64, W - 96, H - 64
    fw, fh = fx1 - fx0, fy1 - fy0
    dr.paste(im, dr.shadow((fw, fh), 170, theme.shadow_alpha, 10), (fx0 - 20, fy0 - 14))
    # felt: a radial gradient from the centre colour to the edge, inside a darker rim
    shape = dr.rounded((fw, fh), 170, (255, 255, 255, 255)).getchannel("A")
    inner = dr.rounded((fw - 20, fh - 20), 160, (255, 255, 255, 255)).getchannel("A")
    rim = Image.new("RGB", (fw, fh), theme.felt_edge)
    grad = Image.radial_gradient("L").resize((fw, fh), Image.Resampling.BILINEAR)
    felt = Image.composite(
        Image.new("RGB", (fw, fh), theme.felt), Image.new("RGB", (fw, fh), theme.felt_centre), grad
    )
    inner_mask = Image.new("L", (fw, fh), 0)
    inner_mask.paste(inner, (10, 10))
    rim.paste(felt, (0, 0), inner_mask)
    im.paste(rim, (fx0, fy0), shape)
    # a thin inner line, like the stitching of a card table
    line = dr.mix(theme.felt, theme.felt_text, 0.22)
    ring = dr.rounded((fw - 44, fh - 44), 150, (0, 0, 0, 0), dr.rgba(line), 2)
    dr.paste(im, ring, (fx0 + 22, fy0 + 22))
    return im
