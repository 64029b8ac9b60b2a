"""``make gallery``: the Gallery section of the pictures page (docs/pictures.md) names
files the gallery really writes, and the replay pictures are there (the samples' own
pictures are tested elsewhere)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from images.__main__ import replay_pictures
from images.samples import all_samples, render_sample

PICTURES = Path(__file__).resolve().parents[2] / "docs" / "pictures.md"


def gallery_section() -> str:
    """From the "## Gallery" heading to the next heading of that level, or the end."""
    text = PICTURES.read_text(encoding="utf-8")
    start = text.index("\n## Gallery\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_the_pictures_page_names_only_pictures_the_gallery_writes() -> None:
    replays = replay_pictures()
    written = {s.name for s in all_samples()} | {name for name, _note, _png in replays}
    named = set(re.findall(r"`([a-z0-9-]+)\.png`", gallery_section()))
    assert len(named) >= 20
    assert sorted(named - written) == []
    # one of each kind a command shows is named
    kinds = ("table", "auction", "hand", "deal", "match", "leaderboard", "daily", "history")
    for kind in (*kinds, "tournament"):
        assert any(n.startswith(kind) for n in named), kind


def test_the_replay_pictures_are_its_frames_and_the_animation() -> None:
    pictures = {name: png for name, _note, png in replay_pictures()}
    assert set(pictures) == {"replay-animated"}
    with Image.open(io.BytesIO(pictures["replay-animated"])) as im:
        assert getattr(im, "n_frames", 1) > 3
    frames = [s for s in all_samples() if s.kind == "replay"]
    assert [s.name for s in frames] == [
        f"replay-frame-{k}" for k in ("deal", "auction", "trick", "score")
    ]
    pngs = [render_sample(s) for s in frames]
    assert len(set(pngs)) == 4  # four different pictures
    for png in pngs:
        with Image.open(io.BytesIO(png)) as im:
            assert im.size == (720, 760) and getattr(im, "n_frames", 1) == 1
