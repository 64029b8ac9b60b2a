"""Fallback fonts: names in any script and emoji are drawn, never as a notdef box."""

from __future__ import annotations

import shutil
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from images import fonts
from images.build import players_of
from images.fonts import clusters, find_faces, is_emoji_cluster
from images.leaderboard import render_leaderboard_image
from images.results import render_match_result_image
from images.samples import forced_table, handmade_samples, leaderboard_sample
from images.table import render_table_image
from images.text import (
    ELLIPSIS,
    REGULAR_PATH,
    clean,
    display_name,
    draw_text,
    fit,
    font,
    initials,
    length,
    runs,
)
from images.views import MatchResultView
from tests.images.fontcheck import (
    NAMES,
    assert_all_mapped,
    assert_no_notdef,
    needs_debian_fonts,
    no_fallback_fonts,
    recorded_text,
)


def result_view(names: tuple[str, ...]) -> MatchResultView:
    view = next(s.view for s in handmade_samples() if isinstance(s.view, MatchResultView))
    return replace(view, players=players_of(names))


def pictures(names: tuple[str, ...]) -> list[Image.Image]:
    """The table, the leaderboard and a match result with these names."""
    four = [names[i % len(names)] for i in range(4)]
    return [
        render_table_image(forced_table(tuple(four)), "dark"),
        render_leaderboard_image(leaderboard_sample(names), "light"),
        render_match_result_image(result_view(tuple(four)), "dark"),
    ]


def test_clusters_keep_sequences_whole() -> None:
    assert clusters("a👨‍👩‍👧b") == ["a", "👨‍👩‍👧", "b"]
    assert clusters("🇹🇷🇩🇪") == ["🇹🇷", "🇩🇪"]
    assert clusters("👍🏽!") == ["👍🏽", "!"]
    assert clusters("❤️x") == ["❤️", "x"]
    assert clusters("A\u0301\u0302") == ["A\u0301\u0302"]
    assert clusters("देव") == ["दे", "व"]
    assert is_emoji_cluster("❤️") and is_emoji_cluster("🌙") and is_emoji_cluster("🇹🇷")
    assert not is_emoji_cluster("❤") and not is_emoji_cluster("A") and not is_emoji_cluster("☺︎")


def test_plain_text_takes_the_single_draw_of_before() -> None:
    """A name DejaVu Sans draws alone is drawn exactly as one ImageDraw.text does."""
    for s, anchor in (("Ayşe Yılmaz", "la"), ("Олександра 12", "mm"), ("İğdır", "ls")):
        a = Image.new("RGB", (300, 60), (30, 30, 30))
        b = a.copy()
        ImageDraw.Draw(a).text(
            (150, 30), s, font=font(22, True), fill=(250, 250, 250), anchor=anchor
        )
        w = draw_text(ImageDraw.Draw(b), (150, 30), s, 22, (250, 250, 250), True, anchor)
        assert ImageChops.difference(a, b).getbbox() is None
        assert w == font(22, True).getlength(s)
        assert [r.face for r in runs(s)] == [None]


def test_no_fallback_font_drops_what_no_font_has(monkeypatch: pytest.MonkeyPatch) -> None:
    with no_fallback_fonts():
        assert fonts.emoji_face() is None
        assert fonts.startup_note() is not None
        assert "fonts-noto-color-emoji" in (fonts.startup_note() or "")
        assert clean("Leyla 🌙") == "Leyla"
        assert clean("🔥🔥🔥", "Seat 2") == "Seat 2"
        assert clean("🇹🇷 Ali") == "Ali"
        assert clean("a 山田 b") == "a b"
        # DejaVu Sans has some emoji of its own: kept, in its (monochrome) outline
        assert clean("😀") == "😀"
        assert display_name("👨‍👩‍👧", 22, True, 200, "Seat 3") == "Seat 3"
        with recorded_text(monkeypatch) as calls:
            pictures(("Leyla 🌙", "🔥🔥🔥", "山田太郎", "🇹🇷 Ali"))
        assert_all_mapped(calls)
        assert any(c.text == "Leyla" for c in calls)
        assert_no_notdef(clean("Leyla 🌙"))


def test_extra_fonts_setting_comes_first(tmp_path: Path) -> None:
    shutil.copy(REGULAR_PATH, tmp_path / "Extra.ttf")
    (tmp_path / "notes.txt").write_text("not a font")
    (tmp_path / "broken.ttf").write_bytes(b"nonsense")
    found = find_faces(str(tmp_path), standard=())
    assert [Path(f.path).name for f in found] == ["Extra.ttf"]
    assert not found[0].colour and ord("Ş") in found[0].coverage
    # a font named twice is used once; the setting's fonts come before the standard ones
    twice = find_faces(str(REGULAR_PATH), standard=(str(tmp_path), str(REGULAR_PATH)))
    assert [Path(f.path).name for f in twice] == ["DejaVuSans.ttf", "Extra.ttf"]


@needs_debian_fonts
def test_emoji_font_is_the_colour_one() -> None:
    face = fonts.emoji_face()
    assert face is not None and face.colour and face.strike == 109
    assert fonts.startup_note() is None


@needs_debian_fonts
@pytest.mark.parametrize("name", NAMES)
def test_name_clusters_are_never_notdef(name: str) -> None:
    s = clean(name)
    assert s == clean(s)

    # nothing of the name is lost: every letter, mark and emoji is kept
    def visible(t: str) -> str:
        return "".join(c for c in t if not fonts.is_joiner_part(ord(c)) and not c.isspace())

    assert visible(s) == visible(unicodedata.normalize("NFC", name))
    for bold in (False, True):
        assert_no_notdef(s, 22, bold)


@needs_debian_fonts
def test_emoji_and_scripts_choose_their_fonts() -> None:
    def face_of(s: str) -> str:
        (run,) = runs(clean(s))
        return "DejaVu" if run.face is None else Path(run.face.path).name

    assert face_of("Ölçü İğdır") == face_of("Добрий") == face_of("Ελένη") == "DejaVu"
    assert face_of("محمد") == "DejaVu"
    for emoji in ("🌙", "🔥🔥🔥", "👨‍👩‍👧", "🇹🇷", "😀", "❤️"):
        assert face_of(emoji) == "NotoColorEmoji.ttf", emoji
    assert face_of("山田太郎") != "DejaVu" and face_of("देव") != "DejaVu"
    assert [r.text for r in runs(clean("Leyla 🌙"))] == ["Leyla ", "🌙"]


@needs_debian_fonts
def test_names_are_drawn_on_every_picture_without_a_box(monkeypatch: pytest.MonkeyPatch) -> None:
    with recorded_text(monkeypatch) as calls:
        for i in range(0, len(NAMES), 4):
            pictures(NAMES[i : i + 4] + NAMES[: max(0, 4 - len(NAMES[i : i + 4]))])
        pictures(NAMES)
    assert_all_mapped(calls)
    emoji_font = fonts.DEBIAN_FONTS[0]
    drawn_in_colour = {c.text for c in calls if c.path == emoji_font}
    for emoji in ("🌙", "🔥🔥🔥", "👨‍👩‍👧", "🇹🇷"):
        assert emoji in drawn_in_colour, emoji
    texts = " ".join(c.text for c in calls)
    for word in ("山田太郎", "देव", "محمد", "Ελένη", "Ölçü İğdır", "Добрий", "Á"):
        assert word in texts, word


@needs_debian_fonts
def test_emoji_name_shows_in_its_row() -> None:
    """The leaderboard row of "🔥🔥🔥" holds the colour emoji: warm colours that no
    text or panel of the theme has, where the old picture had a row of boxes."""
    names = ("🔥🔥🔥", "Ali", "Veli", "Can")
    im = render_leaderboard_image(leaderboard_sample(names), "dark")
    with no_fallback_fonts():
        bare = render_leaderboard_image(leaderboard_sample(names), "dark")
    from images.ranked import LIST_TOP, ROW_H, X_NAME

    box = (X_NAME, LIST_TOP, X_NAME + 200, LIST_TOP + ROW_H)
    assert ImageChops.difference(im.crop(box), bare.crop(box)).getbbox() is not None
    warm = [p for p in im.crop(box).get_flattened_data() if p[0] > 200 and p[1] < 170 and p[2] < 90]
    assert len(warm) > 20


@needs_debian_fonts
def test_fitting_measures_runs_and_never_cuts_a_sequence() -> None:
    family = "👨‍👩‍👧"
    s = fit(family * 12, 22, True, 150)
    assert s.endswith(ELLIPSIS)
    assert length(s, 22, True) <= 150
    body = s[: -len(ELLIPSIS)]
    assert body and body == family * (len(clusters(body)))
    mixed = clean("Leyla 🌙 " * 10)
    t = fit(mixed, 22, True, 240)
    assert length(t, 22, True) <= 240 and t.endswith(ELLIPSIS)
    # the emoji's width is counted: more than an empty name, less than two letters' more
    assert length("Ali 🌙", 22, True) > length("Ali ", 22, True) + 10
    assert initials("🔥🔥🔥") == "🔥" and initials(family) == family
    assert initials("山田 太郎") == "山太"
