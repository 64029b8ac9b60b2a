"""The replay file that fits an upload limit: APNG, else GIF, else fewer frames."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .replay import ReplayView, render_replay, replay_view


def fewer_frames(view: ReplayView) -> ReplayView:
    """The same replay with every other trick left out (the last trick and the score
    stay; the tricks taken shown are still the true counts of each frame)."""
    tricks = [f for f in view.frames if f.kind == "trick"]
    keep = {id(f) for i, f in enumerate(tricks) if i % 2 == 1 or i == len(tricks) - 1}
    frames = tuple(f for f in view.frames if f.kind != "trick" or id(f) in keep)
    return replace(view, frames=frames)


def fit_replay(
    record: Any, names: Sequence[str], limit: int, lang: str = "en", theme: str = "dark"
) -> tuple[bytes, str]:
    """``(file, extension)`` of the replay of ``record`` no larger than ``limit`` bytes:
    the APNG, the GIF, then both with every other trick, in that order. Raises
    ``ValueError`` if even the shortest is too large, and
    :class:`batak.records.RecordError` for a bad record."""
    view = replay_view(record, names)
    for v in (view, fewer_frames(view)):
        for fmt in ("png", "gif"):
            data = render_replay(v, theme, False, lang, fmt)
            if len(data) <= limit:
                return data, fmt
    raise ValueError(f"the replay does not fit in {limit} bytes")


__all__ = ["fewer_frames", "fit_replay"]
