"""The fonts' memory of drawn text (:mod:`images.glyphs`) changes no pixel.

Every gallery sample is drawn twice with the memory off (each string laid out by
FreeType) and twice with it on (the second time from remembered masks); the four
pictures must be the same PNG bytes, and the memory must really have been used.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from images import glyphs
from images.samples import all_samples, render_sample
from images.text import font


@pytest.fixture
def memory() -> Iterator[glyphs._Memory]:
    saved = glyphs.MEMORY
    glyphs.MEMORY = glyphs._Memory(glyphs.BUDGET)
    yield glyphs.MEMORY
    glyphs.MEMORY = saved


def test_remembered_text_draws_the_same_pixels(memory: glyphs._Memory) -> None:
    samples = [s for s in all_samples() if s.kind != "replay"]
    memory.budget = 0  # nothing is kept: every string is laid out again
    cold = [render_sample(s) for s in samples]
    assert memory.hits == 0 and not memory.masks
    memory.budget = glyphs.BUDGET
    first = [render_sample(s) for s in samples]
    again = [render_sample(s) for s in samples]
    assert memory.hits > 1000 and memory.bytes <= glyphs.BUDGET
    for s, a, b, c in zip(samples, cold, first, again, strict=True):
        assert a == b == c, s.name


def test_the_memory_is_bounded(memory: glyphs._Memory) -> None:
    memory.budget = 200_000
    f = font(24)
    for i in range(300):
        f.getmask2(f"player {i}", "L")
    assert 100_000 < memory.bytes <= 200_000
    assert len(memory.masks) < 300
    assert f.getmask2("player 299", "L") is not None and memory.hits == 1


def test_colour_masks_are_never_kept(memory: glyphs._Memory) -> None:
    f = font(24)
    f.getmask2("♠ 7", "RGBA", ink=0xFF0000FF)
    assert not memory.masks
