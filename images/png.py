"""PNG encoding of the pictures, onto each theme's fixed palette."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image
from zlib_ng import zlib_ng

from .palette import palette_for
from .theme import Theme

PNG_LEVEL = 3
"""zlib level of the pictures Pillow encodes (true colour, the replays' frames): 3 is
twice as fast as 6 for a file ~25% larger."""

PALETTE_LEVEL = 2
"""zlib-ng's level for the palette pictures (:func:`palette_png`). Measured on the
gallery's samples against Pillow's encoder at level 3, which made the same pictures
before: a table 0.98 ms and 43.8 KB against 2.29 ms and 44.1 KB; a hand 0.19 ms against
0.55 ms; an auction 0.37 ms against 1.09 ms. Level 1 is a third faster again but makes
files a third larger; level 3 saves 5% of the bytes for 30% more time."""

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC of type and data (PNG spec, 5.3)."""
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def palette_png(im: Image.Image, level: int = PALETTE_LEVEL) -> bytes:
    """Encode a "P" image (8 bits an index) as PNG: its palette, and its rows unfiltered
    (filter type 0, the usual choice for palette indices), compressed by zlib-ng.

    Pillow's encoder writes the same pixels, but its zlib takes twice as long. Only the
    indices and the palette are written: a transparent index (``im.info``) is not kept,
    as none of the pictures has one.
    """
    if im.mode != "P":
        raise ValueError(f"a palette image is needed, not {im.mode!r}")
    width, height = im.size
    palette = bytes(im.getpalette() or ())
    if not palette or len(palette) % 3 or len(palette) > 768:
        raise ValueError("the image has no usable RGB palette")
    framed = Image.new("P", (width + 1, height), 0)  # a column of zeros: the filter types
    framed.paste(im, (1, 0))  # the same indices, each row after its filter type
    rows = framed.tobytes()
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indexed colour
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", zlib_ng.compress(rows, level)),
            _chunk(b"IEND", b""),
        )
    )


def to_png(im: Image.Image, theme: Theme | None = None) -> bytes:
    """Encode as PNG.

    With a theme the image is mapped onto that theme's fixed 256-colour palette
    (see :mod:`images.palette`) first: the file is several times smaller and the
    encoding much faster, and the pictures are flat colours and text, so the
    loss does not show. Without one it is saved as true colour.
    """
    if im.mode == "RGBA":
        im = im.convert("RGB")
    if theme is not None:
        return palette_png(im.quantize(palette=palette_for(theme), dither=Image.Dither.NONE))
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()
