"""A table picture drawn over its theme's felt, its fixed panels pasted ready-made.

The name plates and the corner boxes of the table picture are large translucent
sprites (soft shadow, glow) always pasted at the same places. Pasting one through its
alpha is most of the cost of drawing a table (0.4 ms a plate). Where the felt under
such a sprite was not drawn on yet, the result is always the same: the felt with the
sprite over it. :class:`Felt` keeps that result per sprite and place, and pastes it as
plain pixels; where something was drawn under the sprite already (a card's shadow
reaching a plate), it pastes through the alpha as before. Either way the pixels are
the same: pasting through a mask is a per-pixel blend of the same two values.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from PIL import Image

from .felt import background
from .theme import Theme

Box = tuple[int, int, int, int]

_READY: dict[Hashable, tuple[Box, Image.Image] | None] = {}
"""(theme, sprite key, place) -> the drawn part of the sprite over the felt, and where."""
READY_MAX = 256
"""Ready-made panels kept (each under 200 kB; a table uses 4 plates and 3 boxes)."""


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def drawn_box(sprite: Image.Image, x: int, y: int) -> Box | None:
    """Where pasting ``sprite`` at ``(x, y)`` changes pixels: its non-transparent part."""
    if sprite.mode != "RGBA":
        return (x, y, x + sprite.width, y + sprite.height)
    box = sprite.getchannel("A").getbbox()
    if box is None:
        return None
    return (x + box[0], y + box[1], x + box[2], y + box[3])


class Felt:
    """The picture being drawn and the parts of it drawn on since the felt."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.im = background(theme).copy()
        self.drawn: list[Box] = []
        self.ready = 0
        """Sprites pasted ready-made (for the tests)."""

    def mark(self, box: Box | None) -> None:
        """Something was drawn (or will be) inside ``box``."""
        if box is not None:
            self.drawn.append(box)

    def untouched(self, box: Box) -> bool:
        """Nothing was drawn inside ``box`` since the felt."""
        return not any(_meets(box, other) for other in self.drawn)

    def paste(self, sprite: Image.Image, xy: tuple[float, float]) -> None:
        """Paste an RGBA sprite through its alpha (as ``images.draw.paste``), noting where."""
        x, y = round(xy[0]), round(xy[1])
        self.im.paste(sprite, (x, y), sprite)
        self.mark(drawn_box(sprite, x, y))

    def panel(self, key: Hashable, sprite: Callable[[], Image.Image], xy: tuple[int, int]) -> None:
        """Paste the sprite ``sprite()`` (always the same for ``key``) at ``xy``: ready-made
        when the felt under it is untouched, else through its alpha."""
        ready_key = (self.theme, key, xy)
        if ready_key not in _READY:
            _READY[ready_key] = _ready_made(self.theme, sprite(), xy)
            if len(_READY) > READY_MAX:
                del _READY[next(iter(_READY))]
        ready = _READY[ready_key]
        if ready is None:  # nothing to paste: the sprite is transparent
            return
        box, pixels = ready
        if not self.untouched(box):
            self.paste(sprite(), xy)
            return
        self.im.paste(pixels, box[:2])
        self.ready += 1
        self.mark(box)


def _ready_made(
    theme: Theme, sprite: Image.Image, xy: tuple[int, int]
) -> tuple[Box, Image.Image] | None:
    box = drawn_box(sprite, *xy)
    if box is None:
        return None
    felt = background(theme)
    box = (max(0, box[0]), max(0, box[1]), min(felt.width, box[2]), min(felt.height, box[3]))
    pixels = felt.crop(box)
    x, y = xy
    part = sprite.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y))
    pixels.paste(part, (0, 0), part)
    return box, pixels
