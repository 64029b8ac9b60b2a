"""Fonts and text: the bundled DejaVu Sans, safe display names, ellipsis.

Only the fonts in ``images/fonts`` are ever loaded, so the pictures look the same
on every machine. Characters the font lacks (emoji, most CJK) are replaced by a
single "□" per run, control and format characters are dropped, and any string
is made to fit a width with an ellipsis.
"""

from __future__ import annotations

import struct
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont, features

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR_PATH = FONT_DIR / "DejaVuSans.ttf"
BOLD_PATH = FONT_DIR / "DejaVuSans-Bold.ttf"
LICENSE_PATH = FONT_DIR / "LICENSE-DejaVu.txt"

ELLIPSIS = "…"
MISSING = "□"
MAX_MARKS = 2  # combining marks kept per base character (tames "zalgo" names)
MAX_CHARS = 120  # longer input is cut before any measuring

_LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """The bundled DejaVu Sans (bold or regular) at ``size`` pixels, cached."""
    path = BOLD_PATH if bold else REGULAR_PATH
    return ImageFont.truetype(str(path), size, layout_engine=_LAYOUT)


def _cmap_codepoints(data: bytes) -> frozenset[int]:
    """Code points the font maps to a real glyph (cmap format 12, else 4)."""
    (num_tables,) = struct.unpack_from(">H", data, 4)
    cmap_off = None
    for i in range(num_tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_off = offset
            break
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


@lru_cache(maxsize=1)
def covered() -> frozenset[int]:
    """Code points both bundled faces can draw."""
    return _cmap_codepoints(REGULAR_PATH.read_bytes()) & _cmap_codepoints(BOLD_PATH.read_bytes())


def has_glyph(ch: str) -> bool:
    return ord(ch) in covered()


def _is_variation_selector(cp: int) -> bool:
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


@lru_cache(maxsize=1024)
def clean(text: str, fallback: str = "") -> str:
    """A string that is safe to draw with the bundled font.

    NFC-normalised; control / format / private-use / unassigned characters dropped;
    any whitespace run becomes one space; combining marks limited per base
    character; a run of characters the font lacks (an emoji with its modifiers,
    say) becomes one "□". Returns ``fallback`` when nothing drawable is left.
    """
    text = unicodedata.normalize("NFC", text[: MAX_CHARS * 2])
    cover = covered()
    out: list[str] = []
    marks = 0
    for ch in text:
        cp = ord(ch)
        cat = unicodedata.category(ch)
        if ch.isspace() or cat in ("Zs", "Zl", "Zp"):
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
            continue
        if cat in ("Cc", "Cf", "Cs", "Co", "Cn") or _is_variation_selector(cp):
            continue
        if cat.startswith("M"):
            if not out or out[-1] in (" ", MISSING) or marks >= MAX_MARKS or cp not in cover:
                continue
            marks += 1
            out.append(ch)
            continue
        marks = 0
        if cp not in cover:
            if out and out[-1] == MISSING:
                continue
            ch = MISSING
        out.append(ch)
        if len(out) >= MAX_CHARS:
            break
    result = "".join(out).strip()
    return result if result else fallback


def initials(name: str) -> str:
    """Up to two initials from a (cleaned) name: "Ayşe Kaya" -> "AK"; "□" when none."""
    words = [w for w in clean(name).split(" ") if w]
    letters = [w[0] for w in words if w[0].isalnum()]
    picked = (letters[0] + letters[-1]) if len(letters) >= 2 else "".join(letters[:1])
    if not picked and words:
        picked = words[0][0]
    picked = picked.upper()
    if not picked or any(not has_glyph(c) for c in picked):
        return "?"
    return picked[:2]


def text_width(text: str, fnt: Font) -> float:
    return float(fnt.getlength(text))


@lru_cache(maxsize=2048)
def fit(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text`` shortened with "…" so it is at most ``max_width`` pixels wide."""
    fnt = font(size, bold)
    if fnt.getlength(text) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid].rstrip() + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


def display_name(name: str, size: int, bold: bool, max_width: int, fallback: str) -> str:
    """Clean ``name`` and fit it to ``max_width``; ``fallback`` when it is empty."""
    return fit(clean(name, fallback), size, bold, max_width)


def fit_size(text: str, size: int, bold: bool, max_width: int, smallest: int = 10) -> int:
    """The largest font size from ``size`` down to ``smallest`` at which ``text`` fits
    ``max_width`` (``smallest`` when none does; :func:`fit` then shortens it)."""
    for s in range(size, smallest - 1, -1):
        if font(s, bold).getlength(text) <= max_width:
            return s
    return smallest


def wrap(text: str, size: int, bold: bool, max_width: int, max_lines: int) -> list[str]:
    """``text`` broken at spaces into at most ``max_lines`` lines of ``max_width``; the
    last line is shortened with "…" when the words do not fit."""
    f = font(size, bold)
    lines: list[str] = []
    words = text.split(" ")
    while words and len(lines) < max_lines - 1:
        line = words.pop(0)
        while words and f.getlength(line + " " + words[0]) <= max_width:
            line += " " + words.pop(0)
        lines.append(fit(line, size, bold, max_width))
    if words:
        lines.append(fit(" ".join(words), size, bold, max_width))
    return lines
