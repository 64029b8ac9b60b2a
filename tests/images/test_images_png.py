"""The palette PNG encoder: the same pixels and palette as the image, a valid file."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from images import png
from images.palette import palette_for
from images.png import palette_png, to_png
from images.samples import all_samples, render_sample
from images.theme import get_theme


def decoded(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as check:
        check.verify()  # the chunks' CRCs and structure
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def test_every_sample_decodes_to_its_palette_indices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each gallery picture, encoded, reads back as the very indices and palette of the
    quantised image it was made from, and as the pixels Pillow's own encoder writes."""
    made: list[tuple[Image.Image, bytes]] = []

    def recorded(im: Image.Image, level: int = png.PALETTE_LEVEL) -> bytes:
        data = palette_png(im, level)
        made.append((im.copy(), data))
        return data

    monkeypatch.setattr(png, "palette_png", recorded)
    checked = 0
    for sample in all_samples():
        made.clear()
        render_sample(sample)
        if not made:  # a picture encoded otherwise (the animated replay)
            continue
        (quantised, data) = made[-1]
        im = decoded(data)
        assert im.format == "PNG" and im.mode == "P", sample.name
        assert im.size == quantised.size, sample.name
        assert im.tobytes() == quantised.tobytes(), sample.name
        assert im.getpalette() == quantised.getpalette(), sample.name
        assert im.getpalette() == palette_for(get_theme(sample.theme)).getpalette(), sample.name
        pillow = io.BytesIO()
        quantised.save(pillow, "PNG", compress_level=png.PNG_LEVEL)
        assert decoded(pillow.getvalue()).convert("RGB").tobytes() == im.convert("RGB").tobytes()
        checked += 1
    assert checked >= 30  # tables, hands, auctions, boards, results, replay frames...


def test_to_png_keeps_the_quantised_pixels() -> None:
    theme = get_theme("dark")
    rgb = Image.new("RGB", (37, 11), theme.felt)
    rgb.paste(theme.accent, (3, 2, 20, 9))
    quantised = rgb.quantize(palette=palette_for(theme), dither=Image.Dither.NONE)
    im = decoded(to_png(rgb, theme))
    assert im.size == (37, 11)
    assert im.tobytes() == quantised.tobytes()
    assert im.convert("RGB").tobytes() == quantised.convert("RGB").tobytes()


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(1, 64),
    height=st.integers(1, 64),
    colours=st.integers(1, 256),
    seed=st.binary(min_size=1, max_size=4096),
)
def test_any_palette_image_round_trips(width: int, height: int, colours: int, seed: bytes) -> None:
    pixels = bytes(seed[i % len(seed)] % colours for i in range(width * height))
    im = Image.frombytes("P", (width, height), pixels)
    palette = [(i * 7 + c * 85) % 256 for i in range(colours) for c in range(3)]
    im.putpalette(palette)
    back = decoded(palette_png(im))
    assert back.size == (width, height)
    assert back.tobytes() == pixels
    assert (back.getpalette() or [])[: len(palette)] == palette


def test_only_palette_images_are_encoded() -> None:
    with pytest.raises(ValueError, match="palette image"):
        palette_png(Image.new("RGB", (4, 4)))
