"""Bundled font, safe text, and the card sprites."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from images import Player, render_table
from images.cards import card_back, card_face, card_size, suit_colour
from images.draw import player_avatar
from images.samples import forced_table
from images.text import (
    BOLD_PATH,
    ELLIPSIS,
    FONT_DIR,
    LICENSE_PATH,
    REGULAR_PATH,
    clean,
    display_name,
    fit,
    font,
    has_glyph,
    initials,
    length,
)
from images.views import RANKS, SUITS
from tests.images.fontcheck import assert_runs_mapped, no_fallback_fonts


def test_font_is_bundled_with_its_licence() -> None:
    assert REGULAR_PATH.is_file() and BOLD_PATH.is_file()
    assert "Bitstream" in LICENSE_PATH.read_text()
    for bold in (False, True):
        assert str(font(20, bold).path).startswith(str(FONT_DIR))


def test_font_covers_turkish_ukrainian_and_suits() -> None:
    for ch in "İıĞğŞşÇçÖöÜü" + "ҐґЄєІіЇїЖжЩщ" + "♠♥♦♣" + ELLIPSIS + "−→▶★":
        assert has_glyph(ch), ch


def test_clean_handles_hostile_text() -> None:
    assert clean("") == ""
    assert clean("   \n\t ", "Seat 1") == "Seat 1"
    assert clean("a\x00b\x1b[31mc\nd\t\te") == "ab[31mc d e"
    assert clean("\u202eevil\u200b") == "evil"
    # an emoji sequence no font has is left out (tests/images/test_images_fonts.py
    # checks that it is kept when there is an emoji font)
    with no_fallback_fonts():
        assert clean("hi 👍🏽🇹🇷 there") == "hi there"
    # combining marks are limited per character
    assert len(clean("a" + "\u0301" * 30)) <= 3
    assert clean("x" * 1000) == "x" * 120
    assert clean("Ayşe İğneci") == "Ayşe İğneci"


def test_fit_ellipsises_long_names() -> None:
    long = "Ğ" * 100
    short = fit(long, 24, True, 200)
    assert short.endswith(ELLIPSIS)
    assert font(24, True).getlength(short) <= 200
    assert fit("Ali", 24, True, 200) == "Ali"
    assert display_name("", 20, False, 100, "Seat 3") == "Seat 3"


def test_initials() -> None:
    assert initials("ayşe kaya") == "AK"
    assert initials("Олександра") == "О"
    assert initials("") == "?"
    with no_fallback_fonts():
        assert initials("👨‍👩‍👧") == "?"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=150))
def test_any_text_cleans_and_fits(name: str) -> None:
    s = display_name(name, 22, True, 180, "Seat 1")
    assert s
    assert length(s, 22, True) <= 180
    assert_runs_mapped(s)
    player_avatar(40, name, "", (10, 20, 30))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.text(max_size=120), min_size=4, max_size=4))
def test_any_names_render_on_the_table(names: list[str]) -> None:
    view = forced_table()
    view = type(view)(**{**view.__dict__, "players": tuple(Player(n) for n in names)})
    assert render_table(view)[:4] == b"\x89PNG"


def test_card_sprites_are_cached_and_distinct() -> None:
    faces = {card_face(r + s, 60).tobytes() for s in SUITS for r in RANKS}
    assert len(faces) == 52
    assert card_face("AS", 60) is card_face("AS", 60)
    assert card_face("AS", 60).size == card_size(60)
    assert card_back(60).size == card_size(60)


def test_four_colour_deck() -> None:
    assert suit_colour("D") == suit_colour("H")
    assert suit_colour("D", True) != suit_colour("H", True)
    assert suit_colour("C", True) != suit_colour("S", True)
    assert card_face("AS", 60, True).tobytes() == card_face("AS", 60).tobytes()
    assert card_face("AD", 60, True).tobytes() != card_face("AD", 60).tobytes()


def test_large_panels_are_stretched_exactly() -> None:
    from PIL import ImageChops

    from images import draw as dr

    size = (900, 400)
    fast = dr.rounded(size, 16, (10, 20, 30, 255), (200, 200, 200, 255), 2)
    slow = dr._rounded(size, 16, (10, 20, 30, 255), (200, 200, 200, 255), 2, False)
    assert ImageChops.difference(fast, slow).getbbox() is None
    fast = dr.glow(size, 16, (0, 0, 0), 12, 150)
    slow = dr._glow(size, 16, (0, 0, 0), 12, 150)
    assert ImageChops.difference(fast, slow).getbbox() is None
