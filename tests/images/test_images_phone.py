"""Text sizes and fit, measured where the text is drawn: every ``ImageDraw.text`` call of a
render is recorded (font size, box), in every language."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

import images
import locales
from images.palette import palette_for
from images.samples import Sample, all_samples, forced_table, render_sample
from images.theme import DARK, LIGHT

LANGS = locales.languages()
PHONE = 360  # px: the width Discord shows a picture at in a phone's chat
MIN_PHONE_PX = 9
# caches that hold no picture text: the palettes (their reference sheet), fonts, fitting
KEEP_CACHED = ("images.palette", "images.text")


@dataclass(frozen=True)
class Drawn:
    text: str
    size: float
    box: tuple[float, float, float, float]
    canvas: tuple[int, int]


def _clear_caches() -> None:
    """Sprites (pills, avatars, boxes) are cached; clear them so every text is drawn (the
    palettes stay: their reference sheet is no picture)."""
    for name, mod in list(sys.modules.items()):
        if (name == "images" or name.startswith("images.")) and name != "images.palette":
            for obj in vars(mod).values():
                if getattr(obj, "__module__", "") in KEEP_CACHED:
                    continue
                if callable(getattr(obj, "cache_clear", None)):
                    obj.cache_clear()


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    drawn: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, s: Any, *args: Any, **kw: Any) -> Any:
        fnt = kw.get("font")
        if isinstance(fnt, ImageFont.FreeTypeFont) and str(s).strip():
            anchor = kw.get("anchor") or "la"
            left, top, right, bottom = fnt.getbbox(str(s), anchor=anchor)
            x, y = xy
            drawn.append(
                Drawn(
                    str(s),
                    float(fnt.size),
                    (x + left, y + top, x + right, y + bottom),
                    self.im.size,
                )
            )
        return original(self, xy, s, *args, **kw)

    _clear_caches()
    for theme in (DARK, LIGHT):  # the palettes' reference sheet is no picture: built first
        palette_for(theme)
    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]  # instrumenting on purpose
    try:
        yield drawn
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]  # putting it back
        _clear_caches()


@cache
def _samples() -> list[Sample]:
    """Every picture kind the bot posts (``all_samples``: the table, the auction, a hand,
    the deal summary, the match result, the boards and the replay's frames)."""
    out = list(all_samples())
    out.append(Sample("forced", "table", forced_table()))
    return out


KINDS = (
    "table",
    "auction",
    "hand",
    "deal",
    "match",
    "leaderboard",
    "podium",
    "daily",
    "history",
    "replay",
    "tournament",
)


def _render_width(sample: Sample) -> int:
    im = Image.open(__import__("io").BytesIO(render_sample(sample)))
    return im.width


def test_every_picture_kind_has_samples() -> None:
    assert {s.kind for s in _samples()} == set(KINDS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_no_text_smaller_than_9_px_on_a_phone(kind: str, lang: str) -> None:
    """At 360 px wide (Discord on a phone) no text of any picture is under 9 px:
    ``font_px * 360 / width >= 9``."""
    smallest = []
    for sample in (s for s in _samples() if s.kind == kind):
        s = replace(sample, lang=lang)
        with recording() as drawn:
            width = _render_width(s)
        assert drawn, "the recorder saw no text"
        low = min(drawn, key=lambda d: d.size)
        smallest.append((low.size * PHONE / width, low.text, sample.name))
    worst = min(smallest)
    assert worst[0] >= MIN_PHONE_PX, worst


PUBLIC_TABLES = ("table-standard", "table-forced", "table-four-colour", "tr-table")
"""Gallery samples of the channel's table message (docs/pictures.md): drawn from no seat."""


@pytest.mark.parametrize("lang", LANGS)
def test_public_pictures_never_say_you(lang: str) -> None:
    """The gallery's table message and every spectator picture name no card "you"."""
    you = locales.message(lang, "img.pos.0")
    samples = {s.name: s for s in _samples()}
    public = [samples[n] for n in PUBLIC_TABLES]
    public += [s for s in samples.values() if getattr(s.view, "spectator", False)]
    for sample in public:
        assert getattr(sample.view, "spectator", False), sample.name
        with recording() as drawn:
            render_sample(replace(sample, lang=lang))
        assert you not in {d.text for d in drawn}, sample.name
    if lang in ("en", "tr"):  # a seat's own view does say it (where the word fits)
        own = replace(samples["table-standard"], view=replace(public[0].view, spectator=False))
        with recording() as drawn:
            render_sample(replace(own, lang=lang))
        assert you in {d.text for d in drawn}


def test_the_replay_score_frame_uses_its_height() -> None:
    """The score frame's words reach down the frame: no empty lower third."""
    sample = next(s for s in _samples() if s.name == "replay-frame-score")
    with recording() as drawn:
        png = render_sample(sample)
    height = Image.open(__import__("io").BytesIO(png)).height
    on_page = [d for d in drawn if d.canvas[1] == height]
    top = min(d.box[1] for d in on_page)
    bottom = max(d.box[3] for d in on_page)
    assert bottom - top >= 0.8 * height, (top, bottom, height)


def test_the_recorder_sees_small_text() -> None:
    with recording() as drawn:
        im = Image.new("RGB", (960, 100))
        ImageDraw.Draw(im).text((0, 0), "pts", font=images.text.font(15))
    assert [d.size for d in drawn] == [15.0]


def _overlaps(a: Drawn, b: Drawn, gap: float = 4) -> bool:
    ax0, ay0, ax1, ay1 = a.box
    bx0, by0, bx1, by1 = b.box
    return ax0 < bx1 + gap and bx0 < ax1 + gap and ay0 < by1 and by0 < ay1


def _collisions(drawn: list[Drawn]) -> list[tuple[str, str]]:
    main = max((d.canvas for d in drawn), key=lambda c: c[0] * c[1])
    on_page = [d for d in drawn if d.canvas == main]
    out = []
    for i, a in enumerate(on_page):
        if a.box[0] < 0 or a.box[2] > main[0]:
            out.append((a.text, "<outside>"))
        for b in on_page[i + 1 :]:
            if _overlaps(a, b):
                out.append((a.text, b.text))
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["leaderboard", "daily", "history", "deal", "match", "tournament"])
def test_labels_fit_their_columns(lang: str, kind: str) -> None:
    samples = [s for s in all_samples() if s.kind == kind]
    assert samples
    for sample in samples:
        with recording() as drawn:
            render_sample(replace(sample, lang=lang))
        assert _collisions(drawn) == [], sample.name


def test_a_collision_is_seen() -> None:
    f = images.text.font(15, True)
    with recording() as drawn:
        im = Image.new("RGB", (800, 100))
        d = ImageDraw.Draw(im)
        d.text((100, 10), "PUAN", font=f, anchor="ra")
        d.text((90, 10), "GALİBİYET", font=f, anchor="ra")
    assert _collisions(drawn)
