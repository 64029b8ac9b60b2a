"""Fonts and text: the bundled DejaVu Sans, safe display names, ellipsis.

Text is drawn in the bundled DejaVu Sans (``images/fonts``). Characters it lacks
(emoji, CJK, Devanagari...) come from the fallback fonts of :mod:`images.fonts`
(Noto Color Emoji, Symbola, GNU Unifont from Debian), run by run; a character no
font has is left out, never drawn as a box. Control and format characters are
dropped, and any string is made to fit a width with an ellipsis. Measuring
(:func:`length`, :func:`fit`) and drawing (:func:`draw_text`) use the same runs.
A string DejaVu Sans draws alone takes the same single ``ImageDraw.text`` as
before the fallbacks (the fast path).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from . import fonts
from .fonts import (
    ZWJ,
    Run,
    assign,
    clusters,
    cmap_codepoints,
    colour_sprite,
    face_font,
    is_tag,
    is_variation_selector,
    merge,
    run_bbox,
    run_length,
)
from .glyphs import CachedFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR_PATH = FONT_DIR / "DejaVuSans.ttf"
BOLD_PATH = FONT_DIR / "DejaVuSans-Bold.ttf"
LICENSE_PATH = FONT_DIR / "LICENSE-DejaVu.txt"

ELLIPSIS = "…"
MAX_MARKS = 2  # combining marks kept per base character (tames "zalgo" names)
MAX_CHARS = 120  # longer input is cut before any measuring

_LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """The bundled DejaVu Sans (bold or regular) at ``size`` pixels, cached."""
    path = BOLD_PATH if bold else REGULAR_PATH
    return CachedFont(str(path), size, layout_engine=_LAYOUT)


@lru_cache(maxsize=1)
def covered() -> frozenset[int]:
    """Code points both bundled faces can draw."""
    return cmap_codepoints(REGULAR_PATH.read_bytes()) & cmap_codepoints(BOLD_PATH.read_bytes())


def has_glyph(ch: str) -> bool:
    """Whether the bundled DejaVu Sans (both faces) has ``ch``."""
    return ord(ch) in covered()


def drawable(ch: str) -> bool:
    """Whether some font in use (DejaVu Sans or a fallback) draws ``ch`` alone."""
    return bool(assign(ch, covered()))


def _keep_format(cp: int) -> bool:
    """Format characters that emoji sequences are made of (a joiner, tags)."""
    return cp == ZWJ or is_tag(cp)


def _marks(cluster: str) -> int:
    return sum(
        1
        for c in cluster[1:]
        if unicodedata.category(c).startswith("M") and not is_variation_selector(ord(c))
    )


@lru_cache(maxsize=1024)
def clean(text: str, fallback: str = "") -> str:
    """A string that is safe to draw with the fonts in use.

    NFC-normalised; control / format / private-use / unassigned characters dropped
    (but for the joiners and tags of emoji sequences); any whitespace run becomes
    one space; combining marks limited per base character; a cluster no font has
    (an emoji when there is no emoji font, say) is left out, so no "notdef" box is
    ever drawn. Returns ``fallback`` when nothing drawable is left.
    """
    text = unicodedata.normalize("NFC", text[: MAX_CHARS * 2])
    kept: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch.isspace() or cat in ("Zs", "Zl", "Zp"):
            if kept and kept[-1] != " ":
                kept.append(" ")
            continue
        if cat in ("Cc", "Cs", "Co", "Cn") or (cat == "Cf" and not _keep_format(ord(ch))):
            continue
        kept.append(ch)
    cover = covered()
    out: list[str] = []
    length = 0
    for cluster in clusters("".join(kept)):
        if cluster == " ":
            if out and out[-1] != " ":
                out.append(" ")
            continue
        if _marks(cluster) > MAX_MARKS:
            base, extra = cluster[0], MAX_MARKS
            rest = []
            for c in cluster[1:]:
                if unicodedata.category(c).startswith("M") and not is_variation_selector(ord(c)):
                    if extra == 0:
                        continue
                    extra -= 1
                rest.append(c)
            cluster = base + "".join(rest)
        drawn = "".join(piece for piece, _face in assign(cluster, cover))
        if not drawn:
            continue
        out.append(drawn)
        length += len(drawn)
        if length >= MAX_CHARS:
            break
    result = "".join(out).strip()
    return result if result else fallback


fonts.cached(clean)


@lru_cache(maxsize=2048)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` (already clean) as runs of one font each."""
    cover = covered()
    return merge(piece for cluster in clusters(text) for piece in assign(cluster, cover))


fonts.cached(runs)


def plain(text: str) -> bool:
    """Whether DejaVu Sans alone draws ``text`` (the fast path: one ``d.text``)."""
    cover = covered()
    return all(ord(c) in cover for c in text)


def length(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in pixels, each run in its own font."""
    if plain(text):
        return float(font(size, bold).getlength(text))
    total = 0.0
    for run in runs(text):
        if run.face is None:
            total += float(font(size, bold).getlength(run.text))
        else:
            total += run_length(run, size)
    return total


def initials(name: str) -> str:
    """Up to two initials from a (cleaned) name: "Ayşe Kaya" -> "AK"; a name without
    letters gives its first character or emoji ("🔥🔥" -> "🔥"); "?" when none."""
    words = [w for w in clean(name).split(" ") if w]
    letters = [w[0] for w in words if w[0].isalnum()]
    picked = (letters[0] + letters[-1]) if len(letters) >= 2 else "".join(letters[:1])
    if picked:
        picked = picked.upper()[:2]
    elif words:
        picked = clusters(words[0])[0]  # a whole emoji sequence, a letter with its marks
    if not picked or clean(picked) != picked:
        return "?"
    return picked


def text_width(text: str, fnt: Font) -> float:
    return float(fnt.getlength(text))


def _cut(text: str, n: int) -> str:
    """The first ``n`` units of ``text``: characters on the fast path, else clusters
    (a flag or a family is never cut in half)."""
    return text[:n] if plain(text) else "".join(clusters(text)[:n])


def _units(text: str) -> int:
    return len(text) if plain(text) else len(clusters(text))


@lru_cache(maxsize=2048)
def fit(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text`` shortened with "…" so it is at most ``max_width`` pixels wide."""
    if length(text, size, bold) <= max_width:
        return text
    lo, hi = 0, _units(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if length(_cut(text, mid).rstrip() + ELLIPSIS, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return _cut(text, lo).rstrip() + ELLIPSIS if lo else ELLIPSIS


fonts.cached(fit)


def display_name(name: str, size: int, bold: bool, max_width: int, fallback: str) -> str:
    """Clean ``name`` and fit it to ``max_width``; ``fallback`` when it is empty."""
    return fit(clean(name, fallback), size, bold, max_width)


def fit_size(text: str, size: int, bold: bool, max_width: int, smallest: int = 10) -> int:
    """The largest font size from ``size`` down to ``smallest`` at which ``text`` fits
    ``max_width`` (``smallest`` when none does; :func:`fit` then shortens it)."""
    for s in range(size, smallest - 1, -1):
        if length(text, s, bold) <= max_width:
            return s
    return smallest


def wrap(text: str, size: int, bold: bool, max_width: int, max_lines: int) -> list[str]:
    """``text`` broken at spaces into at most ``max_lines`` lines of ``max_width``; the
    last line is shortened with "…" when the words do not fit."""
    lines: list[str] = []
    words = text.split(" ")
    while words and len(lines) < max_lines - 1:
        line = words.pop(0)
        while words and length(line + " " + words[0], size, bold) <= max_width:
            line += " " + words.pop(0)
        lines.append(fit(line, size, bold, max_width))
    if words:
        lines.append(fit(" ".join(words), size, bold, max_width))
    return lines


@lru_cache(maxsize=256)
def _baseline_shift(size: int, bold: bool, v: str) -> int:
    """How far below ``y`` the baseline is for vertical anchor ``v`` (a, m, s, d)."""
    f = font(size, bold)
    return int(f.getbbox("x", anchor="l" + v)[1] - f.getbbox("x", anchor="ls")[1])


def draw_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: tuple[int, int, int],
    bold: bool = False,
    anchor: str = "la",
) -> float:
    """Draw ``s`` (already clean) run by run, placed like ``ImageDraw.text`` with this
    ``anchor`` (horizontal l/m/r, vertical a/t/m/s/b/d); returns its width.

    The runs share DejaVu Sans's baseline; a colour emoji run is pasted as a picture
    (on the image ``d`` draws on)."""
    f = font(size, bold)
    if plain(s):
        d.text(xy, s, font=f, fill=fill, anchor=anchor)
        return float(f.getlength(s))
    parts = runs(s)
    widths = [length(r.text, size, bold) if r.face is None else run_length(r, size) for r in parts]
    total = sum(widths)
    h, v = (anchor + "la")[0], (anchor + "la")[1]
    x = xy[0] - {"l": 0.0, "m": total / 2, "r": total}.get(h, 0.0)
    if v in ("t", "b"):
        tops, bottoms = [], []
        for r in parts:
            if r.face is None:
                bb = f.getbbox(r.text, anchor="ls")
                tops.append(int(bb[1]))
                bottoms.append(int(bb[3]))
            else:
                top, bottom = run_bbox(r, size)
                tops.append(top)
                bottoms.append(bottom)
        base = xy[1] - min(tops) if v == "t" else xy[1] - max(bottoms)
    else:
        base = xy[1] + _baseline_shift(size, bold, v)
    image = _image_of(d)
    for r, w in zip(parts, widths, strict=True):
        if r.face is None:
            d.text((x, base), r.text, font=f, fill=fill, anchor="ls")
        elif r.face.colour:
            sprite, left, top = colour_sprite(r, size)
            at = (round(x) + left, round(base) + top)
            if image.mode == "RGBA":
                image.alpha_composite(sprite, at)
            else:
                image.paste(sprite, at, sprite)
        else:
            d.text((x, base), r.text, font=face_font(r.face, size), fill=fill, anchor="ls")
        x += w
    return total


def _image_of(d: ImageDraw.ImageDraw) -> Image.Image:
    """The image an ``ImageDraw`` draws on (Pillow keeps it as ``_image``)."""
    image = getattr(d, "_image", None)
    if not isinstance(image, Image.Image):
        raise TypeError("this ImageDraw does not say which image it draws on")
    return image
