"""The table picture: decoded and checked where it matters."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from images import ContractView, Player, TableView, TrickView, render_table
from images.cards import FACE, card_size
from images.samples import HOSTILE, LONG, MORE_HOSTILE, TURKISH, forced_table, hostile_table
from images.table import (
    CARD_W,
    PLATE_H,
    PLATE_W,
    PLATE_XY,
    TRICK_XY,
    H,
    W,
    position,
    render_table_image,
)
from images.theme import DARK, LIGHT, Theme

Colour = tuple[int, int, int]


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(png))
    im.load()
    return im.convert("RGB")


def near(a: Colour, b: Colour, tol: int = 24) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def share(im: Image.Image, box: tuple[int, int, int, int], colour: Colour, tol: int = 24) -> float:
    """Fraction of the pixels in ``box`` close to ``colour``."""
    raw = im.crop(box).tobytes()
    pixels = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
    return sum(1 for p in pixels if near(p, colour, tol)) / len(pixels)


def card_box(pos: int) -> tuple[int, int, int, int]:
    cw, ch = card_size(CARD_W)
    x, y = TRICK_XY[pos]
    # the lower left part of the card: under the index, left of the pip or court frame
    return (x - cw // 2 + 6, y + 4, x - cw // 2 + cw * 3 // 10, y + ch // 2 - 8)


def plate_border(pos: int) -> tuple[int, int, int, int]:
    """A strip along the bottom border of a plate (clear of the tags on its top edge)."""
    x, y = PLATE_XY[pos]
    return (x + 40, y + PLATE_H - 4, x + PLATE_W - 40, y + PLATE_H - 1)


def base_view(**kw: object) -> TableView:
    view = TableView(
        players=tuple(Player(n) for n in TURKISH),  # type: ignore[arg-type]  # four names: a 4-tuple
        dealer=0,
        phase="play",
        contract=ContractView(1, 6, False, "H"),
        trump="H",
        trick=TrickView(leader=1, cards=("AS", "KS")),
        to_act=3,
        tricks_won=(1, 3, 0, 1),
        targets=(1, 6, 1, 1),
        totals=(12, -60, 23, 11),
        deal_number=2,
    )
    return replace(view, **kw)  # type: ignore[arg-type]  # mixed field types; checked at run time


def test_size_and_format() -> None:
    png = render_table(base_view())
    im = decode(png)
    assert im.size == (W, H) == (960, 680)
    assert len(png) <= 150 * 1024


@pytest.mark.parametrize("viewer", [0, 1, 2, 3])
def test_cards_are_in_front_of_the_seats_that_played_them(viewer: int) -> None:
    # seat 1 led AS, seat 2 played KS; seats 3 and 0 have not played
    im = decode(render_table(base_view(viewer_seat=viewer)))
    for seat in range(4):
        white = share(im, card_box(position(seat, viewer)), FACE, 12)
        if seat in (1, 2):
            assert white > 0.8, (seat, white)
        else:
            assert white < 0.05, (seat, white)


def test_seats_are_laid_out_in_playing_order() -> None:
    # seat s+1 sits to the right of seat s: the viewer's next seat is drawn on the right
    assert [position(s, 0) for s in range(4)] == [0, 1, 2, 3]
    assert TRICK_XY[1][0] > TRICK_XY[0][0] and TRICK_XY[3][0] < TRICK_XY[0][0]
    assert TRICK_XY[2][1] < TRICK_XY[0][1]
    assert position(0, 2) == 2 and position(3, 2) == 1


@pytest.mark.parametrize("theme", [DARK, LIGHT])
@pytest.mark.parametrize("to_act", [0, 1, 2, 3])
def test_the_seat_to_act_is_highlighted(theme: Theme, to_act: int) -> None:
    im = decode(render_table(base_view(to_act=to_act, trick=None), theme))
    for seat in range(4):
        accent = share(im, plate_border(position(seat, 0)), theme.accent, 40)
        if seat == to_act:
            assert accent > 0.6, (seat, accent)
        else:
            assert accent < 0.1, (seat, accent)


def test_empty_slot_marks_where_the_next_card_goes() -> None:
    im = decode(render_table(base_view(to_act=3)))
    cw, ch = card_size(CARD_W)
    x, y = TRICK_XY[3]
    edge = (x - cw // 2, y - ch // 2 + 20, x - cw // 2 + 3, y + ch // 2 - 20)
    assert share(im, edge, DARK.accent, 60) > 0.3


def test_last_trick_box_shows_four_cards() -> None:
    last = TrickView(leader=0, cards=("2C", "QC", "AC", "5C"), winner=2)
    with_last = render_table_image(base_view(last_trick=last))
    without = render_table_image(base_view(last_trick=None))
    box = (W - 300, H - 150, W - 30, H - 40)
    a = share(with_last, box, FACE, 12)
    b = share(without, box, FACE, 12)
    assert a > 0.25 and b < 0.01


@pytest.mark.parametrize("names", [HOSTILE, MORE_HOSTILE, LONG])
def test_hostile_names_do_not_break_it(names: tuple[str, ...]) -> None:
    for view in (hostile_table(names), forced_table(names)):
        im = decode(render_table(view))
        assert im.size == (W, H)


def test_every_phase_renders() -> None:
    for phase, to_act in (("auction", 2), ("trump", 1), ("play", 0), ("done", None)):
        view = base_view(phase=phase, to_act=to_act, calls=((1, 6), (2, None)))
        if phase in ("auction", "trump"):
            view = replace(view, contract=None if phase == "auction" else view.contract, trick=None)
        assert decode(render_table(view)).size == (W, H)


def test_four_colour_deck_changes_diamonds() -> None:
    view = base_view(trick=TrickView(leader=0, cards=("AD",)), to_act=1)
    two = render_table_image(view)
    four = render_table_image(view, four_colour=True)
    box = card_box(0)
    x, y = TRICK_XY[0]
    pip = (x - 10, y - 10, x + 20, y + 20)
    assert two.crop(box).tobytes() == four.crop(box).tobytes()
    assert two.crop(pip).tobytes() != four.crop(pip).tobytes()


def test_view_validation() -> None:
    with pytest.raises(ValueError):
        base_view(to_act=4)
    with pytest.raises(ValueError):
        TrickView(leader=0, cards=("XX",))
    with pytest.raises(ValueError):
        base_view(phase="bidding")


def test_public_picture_names_the_players_under_the_last_trick() -> None:
    """The channel's picture is a spectator's: no seat is labelled "you"."""
    from batak import Match, preset
    from images import render_table
    from images.build import table_view_from_match

    match = Match(preset("standard"), seed=5)
    while not match.deal.tricks or match.deal.trick:
        match.apply(match.legal_actions()[0])
    names = ["Ayşe", "Mehmet", "Олекса", "Zeynep"]
    own = table_view_from_match(match, names, 0)
    public = table_view_from_match(match, names, 0, spectator=True)
    assert public.spectator and not own.spectator
    assert public.last_trick == own.last_trick
    assert render_table(public) != render_table(own)


def test_the_plate_tags_lie_inside_the_plate() -> None:
    """The bid tag and "▶ TO PLAY" sit inside their seat's plate, right of its total."""
    from images.samples import all_samples
    from images.table import AVATAR, plate_tags, position
    from images.text import font
    from images.theme import get_theme

    seen = 0
    for sample in all_samples():
        view = sample.view
        if not isinstance(view, TableView):
            continue
        for lang in ("en", "tr", "de"):
            for seat in range(4):
                x, y = PLATE_XY[position(seat, view.viewer_seat)]
                total_right = x + 16 + AVATAR + 12 + font(24).getlength(f"{view.totals[seat]} ptsx")
                for tag, (tx, ty) in plate_tags(view, seat, get_theme(sample.theme), lang):
                    seen += 1
                    assert x <= tx and tx + tag.width <= x + PLATE_W, sample.name
                    assert y <= ty and ty + tag.height <= y + PLATE_H, sample.name
                    if lang == "en":
                        assert tx >= total_right - 12, sample.name
    assert seen > 20


def test_ready_made_panels_give_the_same_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plates and corner boxes pasted ready-made over untouched felt
    (:class:`images.onfelt.Felt`) are the very pixels pasting them through their alpha
    gives: every table sample of the gallery, drawn both ways."""
    from images import onfelt
    from images.samples import all_samples

    felts: list[onfelt.Felt] = []
    start = onfelt.Felt.__init__

    def keep(self: onfelt.Felt, theme: Theme) -> None:
        start(self, theme)
        felts.append(self)

    monkeypatch.setattr(onfelt.Felt, "__init__", keep)
    samples = [s for s in all_samples() if isinstance(s.view, TableView)]
    fast = [render_table_image(s.view, s.theme, s.four_colour, s.lang) for s in samples]
    assert all(f.ready >= 4 for f in felts)  # at least the four plates, ready-made
    # everything under a panel counts as drawn on: each is pasted through its alpha
    monkeypatch.setattr(onfelt.Felt, "untouched", lambda self, box: False)
    felts.clear()
    slow = [render_table_image(s.view, s.theme, s.four_colour, s.lang) for s in samples]
    assert all(f.ready == 0 for f in felts)
    assert len(samples) >= 10
    for sample, a, b in zip(samples, fast, slow, strict=True):
        assert a.tobytes() == b.tobytes(), sample.name


def test_a_panel_over_something_drawn_is_pasted_through_its_alpha() -> None:
    """Where a card was drawn under a plate's place, the plate is not pasted
    ready-made (that would hide the card): the felt is what the ready-made one holds."""
    from images import onfelt
    from images.table import PLATE_PAD, _plate_panel

    theme = DARK
    at = (PLATE_XY[0][0] - PLATE_PAD, PLATE_XY[0][1] - PLATE_PAD)
    panel = _plate_panel(theme, False, None)
    red = Image.new("RGBA", (40, 40), (255, 0, 0, 255))
    felt = onfelt.Felt(theme)
    felt.paste(red, (at[0], at[1]))  # in the plate's shadow, top-left
    felt.panel(("plate", False, None), lambda: panel, at)
    assert felt.ready == 0
    expected = onfelt.background(theme).copy()
    expected.paste(red, at, red)
    expected.paste(panel, at, panel)
    assert felt.im.tobytes() == expected.tobytes()
    clean = onfelt.Felt(theme)
    clean.panel(("plate", False, None), lambda: panel, at)
    assert clean.ready == 1
