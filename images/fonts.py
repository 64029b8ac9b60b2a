"""Fallback fonts: characters the bundled DejaVu Sans lacks (emoji, CJK, Devanagari...).

A string is cut into grapheme clusters (a letter with its marks, an emoji with its
skin tone, variation selector and zero-width-joined parts, a flag's two letters) and
each cluster is given to the first font that has all of it: DejaVu Sans first, except
that an emoji cluster goes to the colour emoji font when there is one; then the
fallback fonts in order. Consecutive clusters of one font make a :class:`Run`, which
is measured and drawn (shaped by raqm) in that font, so a zero-width-joined family or
a flag becomes the colour font's single glyph.

The fallback fonts are not shipped: they are looked for in Debian's font folders
(the packages ``fonts-noto-color-emoji``, ``fonts-symbola``, ``fonts-unifont``; see
:data:`DEBIAN_FONTS`) and in the files or folders the ``EXTRA_FONTS`` setting names
(separated by ``os.pathsep``), which come before the Debian ones. A cluster no font
has is left out by :func:`images.text.clean`, never drawn as the font's "notdef" box.

Which fonts are found is decided once (first use); :func:`configure` changes it
(tests) and empties every cache that depends on it.
"""

from __future__ import annotations

import os
import struct
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

DEBIAN_FONTS: tuple[str, ...] = (
    # colour emoji (CBDT bitmaps): fonts-noto-color-emoji
    "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    # monochrome symbols and emoji: fonts-symbola
    "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
    "/usr/share/fonts/truetype/ancient-scripts/Symbola.ttf",
    # when installed (not by make run: large): Noto Sans for Indic scripts
    # (fonts-noto-core) and Noto Sans CJK (fonts-noto-cjk), better looking than Unifont
    "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansTamil-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    # GNU Unifont, every Basic Multilingual Plane character (CJK, Indic...) and the
    # upper planes: fonts-unifont, the last resort
    "/usr/share/fonts/opentype/unifont/unifont.otf",
    "/usr/share/fonts/opentype/unifont/unifont_upper.otf",
)
"""Font files looked for, in this order, after the ``EXTRA_FONTS`` ones."""

EMOJI_PACKAGE = "fonts-noto-color-emoji"
FALLBACK_PACKAGES = (EMOJI_PACKAGE, "fonts-symbola", "fonts-unifont")
"""The Debian packages ``make run`` installs (ops/fonts.sh)."""

EMOJI_SCALE = 0.85
"""A colour emoji is drawn this many times the text size tall (its em), so that it
stands about as high as a capital letter with its accent."""

ZWJ = 0x200D
KEYCAP = 0x20E3
_LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC


def is_variation_selector(cp: int) -> bool:
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def is_skin_tone(cp: int) -> bool:
    return 0x1F3FB <= cp <= 0x1F3FF


def is_regional_indicator(cp: int) -> bool:
    return 0x1F1E6 <= cp <= 0x1F1FF


def is_tag(cp: int) -> bool:
    """A tag character (the subdivision flags: England, Scotland, Wales)."""
    return 0xE0020 <= cp <= 0xE007F


def is_joiner_part(cp: int) -> bool:
    """Characters that only mean something inside an emoji sequence."""
    return cp in (ZWJ, KEYCAP) or is_variation_selector(cp) or is_tag(cp)


# ---------------------------------------------------------------------------------------
# fonts and their coverage


def _table_offset(data: bytes, tag: bytes, base: int = 0) -> int | None:
    (num_tables,) = struct.unpack_from(">H", data, base + 4)
    for i in range(num_tables):
        t, _checksum, offset, _length = struct.unpack_from(">4sIII", data, base + 12 + 16 * i)
        if t == tag:
            return int(offset)
    return None


def _face_base(data: bytes, index: int) -> int:
    """Where face ``index``'s table directory starts (a .ttc holds several)."""
    if data[:4] != b"ttcf":
        return 0
    (count,) = struct.unpack_from(">I", data, 8)
    if not 0 <= index < count:
        raise ValueError(f"font collection has no face {index}")
    (offset,) = struct.unpack_from(">I", data, 12 + 4 * index)
    return int(offset)


def cmap_codepoints(data: bytes, index: int = 0) -> frozenset[int]:
    """Code points the font maps to a real glyph (cmap format 12, else 4)."""
    base = _face_base(data, index)
    cmap_off = _table_offset(data, b"cmap", base)
    if cmap_off is None:
        raise ValueError("font has no cmap table")
    (_version, n_sub) = struct.unpack_from(">HH", data, cmap_off)
    fmt4 = fmt12 = None
    for j in range(n_sub):
        pid, eid, sub = struct.unpack_from(">HHI", data, cmap_off + 4 + 8 * j)
        off = cmap_off + sub
        (fmt,) = struct.unpack_from(">H", data, off)
        if fmt == 12 and (pid, eid) in ((3, 10), (0, 4), (0, 6)):
            fmt12 = off
        elif fmt == 4 and (pid, eid) in ((3, 1), (0, 3), (0, 1)):
            fmt4 = off
    points: set[int] = set()
    if fmt12 is not None:
        (n_groups,) = struct.unpack_from(">I", data, fmt12 + 12)
        for g in range(n_groups):
            start, end, glyph = struct.unpack_from(">III", data, fmt12 + 16 + 12 * g)
            points.update(c for c in range(start, end + 1) if glyph + c - start != 0)
    elif fmt4 is not None:
        (seg_x2,) = struct.unpack_from(">H", data, fmt4 + 6)
        seg = seg_x2 // 2
        ends_off = fmt4 + 14
        starts_off = ends_off + seg_x2 + 2
        delta_off = starts_off + seg_x2
        range_off = delta_off + seg_x2
        for k in range(seg):
            (end,) = struct.unpack_from(">H", data, ends_off + 2 * k)
            (start,) = struct.unpack_from(">H", data, starts_off + 2 * k)
            (delta,) = struct.unpack_from(">h", data, delta_off + 2 * k)
            (ro,) = struct.unpack_from(">H", data, range_off + 2 * k)
            for c in range(start, min(end, 0xFFFE) + 1):
                if ro == 0:
                    glyph = (c + delta) & 0xFFFF
                else:
                    at = range_off + 2 * k + ro + 2 * (c - start)
                    (glyph,) = struct.unpack_from(">H", data, at)
                    if glyph:
                        glyph = (glyph + delta) & 0xFFFF
                if glyph:
                    points.add(c)
    else:
        raise ValueError("font has no usable Unicode cmap subtable")
    return frozenset(points)


def _bitmap_strike(data: bytes, base: int) -> int:
    """The pixel size of a colour bitmap font's first strike (CBLC), 0 for outlines."""
    cblc = _table_offset(data, b"CBLC", base)
    if cblc is None or _table_offset(data, b"CBDT", base) is None:
        return 0
    (num_sizes,) = struct.unpack_from(">I", data, cblc + 4)
    if num_sizes == 0:
        return 0
    return int(data[cblc + 8 + 44])  # BitmapSize record: ppemX at byte 44


@dataclass(frozen=True)
class Face:
    """A fallback font file: its coverage, and for a colour bitmap font its strike."""

    path: str
    coverage: frozenset[int] = field(repr=False, compare=False)
    strike: int = 0
    index: int = 0

    @property
    def colour(self) -> bool:
        """A colour bitmap font (Noto Color Emoji): loaded at its strike size, drawn
        with its own colours and scaled to the text size."""
        return self.strike > 0

    def has(self, cp: int) -> bool:
        return cp in self.coverage


def load_face(path: str | Path, index: int = 0) -> Face | None:
    """A :class:`Face` for a font file Pillow can use, else None."""
    try:
        data = Path(path).read_bytes()
        base = _face_base(data, index)
        coverage = cmap_codepoints(data, index)
        strike = _bitmap_strike(data, base)
        ImageFont.truetype(str(path), strike or 16, index=index, layout_engine=_LAYOUT)
    except (OSError, ValueError, struct.error, IndexError):
        return None
    return Face(str(path), coverage, strike, index)


FONT_SUFFIXES = (".ttf", ".otf", ".ttc")


def _expand(entries: Iterable[str]) -> list[Path]:
    out: list[Path] = []
    for entry in entries:
        p = Path(entry).expanduser()
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.suffix.lower() in FONT_SUFFIXES))
        elif p.is_file():
            out.append(p)
    return out


def find_faces(extra: str | None = None, standard: Sequence[str] = DEBIAN_FONTS) -> list[Face]:
    """The fallback faces: ``extra`` (``EXTRA_FONTS``: files or folders separated by
    ``os.pathsep``) first, then the Debian files present; unusable files skipped."""
    entries = [e for e in (extra or "").split(os.pathsep) if e.strip()]
    faces: list[Face] = []
    seen: set[str] = set()
    for p in [*_expand(entries), *_expand(standard)]:
        key = str(p.resolve())
        if key in seen:
            continue
        seen.add(key)
        face = load_face(p)
        if face is not None:
            faces.append(face)
    return faces


class _State:
    faces: tuple[Face, ...] | None = None


_state = _State()
_caches: list[Callable[[], None]] = []


def cached(fn: Callable[..., object]) -> None:
    """Register an lru_cache's ``cache_clear`` to be emptied when the fonts change."""
    clear = getattr(fn, "cache_clear", None)
    if callable(clear):
        _caches.append(clear)


def faces() -> tuple[Face, ...]:
    """The fallback faces in use (found on first call)."""
    if _state.faces is None:
        _state.faces = tuple(find_faces(os.environ.get("EXTRA_FONTS")))
    return _state.faces


def configure(use: Sequence[Face] | None) -> None:
    """Use these fallback faces (``[]``: none); ``None`` finds them again."""
    _state.faces = None if use is None else tuple(use)
    for clear in _caches:
        clear()


def emoji_face() -> Face | None:
    """The colour emoji font, if there is one."""
    return next((f for f in faces() if f.colour), None)


def startup_note() -> str | None:
    """One line for the bot's log when no colour emoji font is found, else None."""
    if emoji_face() is not None:
        return None
    return (
        "no colour emoji font found: emoji in names are left out of the pictures; "
        f"install the Debian package {EMOJI_PACKAGE} (make run does when it can) or "
        "name a font in EXTRA_FONTS"
    )


# ---------------------------------------------------------------------------------------
# clusters and runs


def clusters(text: str) -> list[str]:
    """``text`` cut into grapheme clusters (a simplified UAX #29): a character with its
    combining marks, variation selectors, skin tones, tags and keycap; zero-width
    joined characters together; regional indicators in pairs."""
    out: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        j = i + 1
        if is_regional_indicator(ord(text[i])) and j < n and is_regional_indicator(ord(text[j])):
            j += 1
        while j < n:
            cp = ord(text[j])
            if cp == ZWJ:
                j += 2 if j + 1 < n else 1
            elif (
                unicodedata.category(text[j]).startswith("M")
                or is_joiner_part(cp)
                or is_skin_tone(cp)
            ):
                j += 1
            else:
                break
        out.append(text[i:j])
        i = j
    return out


def is_emoji_cluster(cluster: str) -> bool:
    """A cluster meant as a (colour) emoji: an emoji sequence, or a pictograph from
    U+1F300 on; a text presentation selector (U+FE0E) says no."""
    cps = [ord(c) for c in cluster]
    if 0xFE0E in cps:
        return False
    if any(
        cp in (0xFE0F, ZWJ, KEYCAP) or is_skin_tone(cp) or is_regional_indicator(cp) or is_tag(cp)
        for cp in cps
    ):
        return True
    return cps[0] >= 0x1F300


Piece = tuple[str, Face | None]
"""Text and the face drawing it (None: the bundled DejaVu Sans)."""


def _covers(cover: Callable[[int], bool], text: str) -> bool:
    return all(cover(ord(c)) for c in text)


def assign(cluster: str, dejavu: frozenset[int]) -> list[Piece]:
    """The pieces ``cluster`` is drawn as; ``[]`` when no font can draw it.

    A colour font gets the whole sequence (it joins it into one glyph); other fonts
    get it without the characters only emoji sequences use (joiners, variation
    selectors, tags, skin tones), and when none has the whole cluster its characters
    are tried one by one (a family becomes its people, side by side)."""
    chain = faces()
    colour = next((f for f in chain if f.colour), None)
    if colour is not None and is_emoji_cluster(cluster) and colour.has(ord(cluster[0])):
        return [(cluster, colour)]
    bare = "".join(c for c in cluster if not (is_joiner_part(ord(c)) or is_skin_tone(ord(c)))) or (
        cluster if is_skin_tone(ord(cluster[0])) else ""
    )
    if not bare:
        return []
    if _covers(dejavu.__contains__, bare):
        return [(bare, None)]
    for face in chain:
        if _covers(face.has, bare):
            return [(bare, face)]
    if len(bare) == 1 or unicodedata.category(bare[1]).startswith("M"):
        # a letter whose marks no single font has: the letter alone
        return assign(bare[0], dejavu) if len(bare) > 1 else []
    pieces: list[Piece] = []
    for c in bare:
        pieces.extend(assign(c, dejavu))
    return pieces


@dataclass(frozen=True)
class Run:
    text: str
    face: Face | None  # None: the bundled DejaVu Sans


def merge(pieces: Iterable[Piece]) -> tuple[Run, ...]:
    runs: list[Run] = []
    for text, face in pieces:
        if runs and runs[-1].face == face:
            runs[-1] = Run(runs[-1].text + text, face)
        else:
            runs.append(Run(text, face))
    return tuple(runs)


# ---------------------------------------------------------------------------------------
# fonts of the fallback faces, measuring, drawing


@lru_cache(maxsize=64)
def face_font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """``face`` at ``size`` pixels; a colour font at its strike (drawn scaled)."""
    return ImageFont.truetype(
        face.path, face.strike or size, index=face.index, layout_engine=_LAYOUT
    )


def scale(face: Face, size: int) -> float:
    """Factor from the face's loaded size to the drawn one (1 for outline fonts)."""
    return size * EMOJI_SCALE / face.strike if face.colour else 1.0


@lru_cache(maxsize=1024)
def run_length(run: Run, size: int) -> float:
    """Advance width of a fallback-font run at text size ``size``."""
    assert run.face is not None
    return float(face_font(run.face, size).getlength(run.text)) * scale(run.face, size)


@lru_cache(maxsize=256)
def colour_sprite(run: Run, size: int) -> tuple[Image.Image, int, int]:
    """A colour run drawn at the text size: the RGBA picture and its left and top
    offsets from the run's origin on the baseline."""
    assert run.face is not None
    f = face_font(run.face, size)
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(run.text, anchor="ls"))
    big = Image.new("RGBA", (max(1, x1 - x0), max(1, y1 - y0)), (0, 0, 0, 0))
    ImageDraw.Draw(big).text(
        (-x0, -y0), run.text, font=f, embedded_color=True, anchor="ls", fill=(0, 0, 0, 255)
    )
    k = scale(run.face, size)
    w, h = max(1, round(big.width * k)), max(1, round(big.height * k))
    return big.resize((w, h), Image.Resampling.LANCZOS), round(x0 * k), round(y0 * k)


def run_bbox(run: Run, size: int) -> tuple[int, int]:
    """Top and bottom of a fallback-font run relative to the baseline."""
    assert run.face is not None
    if run.face.colour:
        sprite, _x, top = colour_sprite(run, size)
        return top, top + sprite.height
    _x0, y0, _x1, y1 = face_font(run.face, size).getbbox(run.text, anchor="ls")
    return int(y0), int(y1)


for _fn in (face_font, run_length, colour_sprite):
    cached(_fn)
