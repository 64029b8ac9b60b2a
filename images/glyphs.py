"""Text drawn once: the bundled fonts remember the strings they rendered lately.

Drawing a table picture was a fifth text rendering: FreeType lays out and rasterises
every name, count and label of the picture each time, although most of them ("Bid 7",
"12 points", a player's name, "Last trick") are the same from one move to the next and
across tables. :class:`CachedFont` is the bundled font with a memory: the mask of a
string (what ``ImageDraw.text`` pastes with the ink) and its advance width are kept,
least recently used first out, within :data:`BUDGET` bytes for the whole process. The
mask does not depend on the ink for the plain ("L" / "1") masks the pictures use, so
one mask serves every colour; a colour-font mask ("RGBA") is never kept. Pictures are
the same pixel for pixel, with or without the memory (``tests/images``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Final

from PIL import ImageFont

BUDGET: Final = 4 * 2**20
"""Bytes of masks kept for the whole process (a 24 px label is 2-6 KB)."""


class _Memory:
    """The masks of every :class:`CachedFont`, by font and string, bounded in bytes."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.masks: OrderedDict[Hashable, tuple[Any, tuple[int, int], int]] = OrderedDict()
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> tuple[Any, tuple[int, int]] | None:
        found = self.masks.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self.masks.move_to_end(key)
        return found[0], found[1]

    def put(self, key: Hashable, mask: Any, offset: tuple[int, int]) -> None:
        w, h = mask.size
        size = w * h * (4 if mask.mode == "RGBA" else 1) + 64
        if size > self.budget // 16:
            return
        self.masks[key] = (mask, offset, size)
        self.bytes += size
        while self.bytes > self.budget:
            _, (_, _, out) = self.masks.popitem(last=False)
            self.bytes -= out

    def clear(self) -> None:
        self.masks.clear()
        self.bytes = 0


MEMORY = _Memory(BUDGET)


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType font whose plain masks and lengths are remembered (:data:`MEMORY`)."""

    def __init__(self, path: str, size: int, layout_engine: ImageFont.Layout | None) -> None:
        super().__init__(path, size, layout_engine=layout_engine)
        self._id = (path, size)
        self._lengths: dict[tuple[str, str], float] = {}

    def getmask2(  # type: ignore[override]
        self,
        text: str,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        plain = mode in ("L", "1", "") and not args and isinstance(text, str)
        key = (
            self._id,
            text,
            mode,
            direction,
            tuple(features) if features else None,
            language,
            stroke_width,
            anchor,
            start,
            tuple(sorted(kwargs.items())),
        )
        if plain and (known := MEMORY.get(key)) is not None:
            return known
        mask, offset = super().getmask2(
            text, mode, direction, features, language, stroke_width, anchor, ink, start,
            *args, **kwargs,
        )  # fmt: skip
        if plain:
            MEMORY.put(key, mask, offset)
        return mask, offset

    def getlength(  # type: ignore[override]
        self,
        text: str,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        if direction is not None or features or language is not None:
            return super().getlength(text, mode, direction, features, language)
        key = (text, mode)
        known = self._lengths.get(key)
        if known is None:
            known = super().getlength(text, mode)
            if len(self._lengths) >= 4096:
                self._lengths.clear()
            self._lengths[key] = known
        return known
