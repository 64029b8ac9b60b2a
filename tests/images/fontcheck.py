"""Checks that a text is drawn without any "notdef" box, for the font tests.

Two checks: every ``ImageDraw.text`` call made while drawing a picture is given only
characters its font maps to a glyph (:func:`recorded_text`); and each cluster of a
name, drawn alone in the font it was given, differs pixel for pixel from that font's
notdef glyph and from DejaVu's "□" (:func:`assert_no_notdef`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from PIL import Image, ImageChops, ImageDraw

from images import fonts
from images.fonts import Face, Run, is_joiner_part
from images.text import clusters, covered, font, runs

NOTDEF = "\U0010ffff"  # a noncharacter: no font maps it, so it is drawn as glyph 0
BOX = "□"  # what the pictures drew for an emoji before the fallback fonts

NAMES = (
    "Leyla 🌙",
    "🔥🔥🔥",
    "Ölçü İğdır",
    "Добрий",
    "Ελένη",
    "محمد",
    "山田太郎",
    "देव",
    "👨‍👩‍👧",
    "🇹🇷 Ali",
    "A\u0301",
)


def missing_packages() -> list[str]:
    """The Debian font packages ``make run`` installs that this machine lacks."""
    found = {f.path for f in fonts.find_faces(None)}
    wanted = {
        "fonts-noto-color-emoji": fonts.DEBIAN_FONTS[0],
        "fonts-symbola": fonts.DEBIAN_FONTS[1],
        "fonts-unifont": "/usr/share/fonts/opentype/unifont/unifont.otf",
    }
    return [pkg for pkg, path in wanted.items() if path not in found]


needs_debian_fonts = pytest.mark.skipif(
    bool(missing_packages()),
    reason=f"Debian fonts not installed: {' '.join(missing_packages())} (.ci/run installs them)",
)


@contextmanager
def no_fallback_fonts() -> Iterator[None]:
    """Draw with DejaVu Sans alone (a host without the Debian fonts)."""
    before = fonts.faces()
    fonts.configure([])
    try:
        yield
    finally:
        fonts.configure(before)


@dataclass
class Drawn:
    text: str
    path: str


@contextmanager
def recorded_text(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every ``ImageDraw.text`` call (its text and font file) while the block runs.

    The font caches are emptied first, so a cached sprite is drawn again."""
    fonts.configure(fonts.faces())
    calls: list[Drawn] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: object, text: object, *a: object, **k: object) -> None:
        f = k.get("font")
        calls.append(Drawn(str(text), str(getattr(f, "path", ""))))
        real(self, xy, text, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    yield calls


def coverage_of(path: str) -> frozenset[int]:
    if path.endswith(("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")):
        return covered()
    face = next((f for f in fonts.faces() if f.path == path), None)
    assert face is not None, f"text drawn in a font that is not in use: {path}"
    return face.coverage


def assert_all_mapped(calls: list[Drawn]) -> None:
    """No recorded call draws a character its font lacks, nor the "□" box."""
    assert calls
    for call in calls:
        cover = coverage_of(call.path)
        lacking = [c for c in call.text if ord(c) not in cover and not is_joiner_part(ord(c))]
        assert not lacking, f"{call.text!r} in {call.path}: no glyph for {lacking!r}"
        assert BOX not in call.text, call.text


def assert_runs_mapped(text: str) -> None:
    """Every character of ``text`` (clean) is in a run whose font has it."""
    drawn = ""
    for run in runs(text):
        cover = covered() if run.face is None else run.face.coverage
        lacking = [c for c in run.text if ord(c) not in cover and not is_joiner_part(ord(c))]
        assert not lacking, f"{run.text!r}: no glyph for {lacking!r}"
        drawn += run.text
    visible = [c for c in text if not is_joiner_part(ord(c)) and not fonts.is_skin_tone(ord(c))]
    assert [c for c in drawn if c in visible] == visible


def _glyph(text: str, face: Face | None, size: int, bold: bool) -> Image.Image:
    """``text`` drawn in one font at a fixed origin, as the pictures draw a run."""
    im = Image.new("RGB", (12 * size, 3 * size), (255, 255, 255))
    origin = (size, 2 * size)
    if face is None:
        ImageDraw.Draw(im).text(origin, text, font=font(size, bold), fill=(0, 0, 0), anchor="ls")
    elif face.colour:
        sprite, left, top = fonts.colour_sprite(Run(text, face), size)
        im.paste(sprite, (origin[0] + left, origin[1] + top), sprite)
    else:
        f = fonts.face_font(face, size)
        ImageDraw.Draw(im).text(origin, text, font=f, fill=(0, 0, 0), anchor="ls")
    return im


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def assert_no_notdef(text: str, size: int = 22, bold: bool = True) -> None:
    """Each cluster of ``text`` (clean), drawn in its run's font, is ink on the paper
    and is neither that font's notdef glyph nor DejaVu's, nor the "□" box."""
    blank = Image.new("RGB", (12 * size, 3 * size), (255, 255, 255))
    boxes = [_glyph(NOTDEF, None, size, bold), _glyph(BOX, None, size, bold)]
    for run in runs(text):
        own_notdef = _glyph(NOTDEF, run.face, size, bold)
        for cluster in clusters(run.text):
            if cluster.isspace():
                continue
            cover = covered() if run.face is None else run.face.coverage
            assert ord(cluster[0]) in cover, (cluster, run.face)
            drawn = _glyph(cluster, run.face, size, bold)
            assert not same(drawn, blank), f"{cluster!r} draws nothing"
            for box in (own_notdef, *boxes):
                assert not same(drawn, box), f"{cluster!r} is drawn as a notdef box"
