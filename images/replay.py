"""The replay of a finished deal as an animated picture (APNG, or GIF).

:func:`replay_view` reads a ``batak-deal/1`` record (checked by
:func:`batak.records.deal_from_record`) into a :class:`ReplayView`: the
frames to show, as plain data. :func:`render_replay` draws them:

1. the four hands as dealt;
2. the auction, call by call, and the contract;
3. one frame per trick: its four cards, who took it, the hands left and the
   tricks taken so far;
4. the score of the deal.

A finished deal hides nothing, so every hand is drawn face up. The picture is
720 pixels wide and no text in it is smaller than 18 pixels, so it still
reads at 9 pixels on a phone that shows it 360 pixels wide.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image, ImageDraw

from batak import scoring
from batak.cards import HAND_SUIT_ORDER, sort_codes

from . import draw as dr
from .cards import FACE, FACE_EDGE, card_shadowed, card_size, shadow_margin, suit_colour
from .labels import suit_name, text_for, upper
from .png import PNG_LEVEL
from .table import position, preset_title, seat_fallback
from .text import display_name, draw_text, font
from .theme import Theme, get_theme
from .views import SUIT_SYMBOLS, rank_label

W: Final = 720
H: Final = 760
HEAD_H: Final = 78
FELT: Final = (8, HEAD_H, W - 8, H - 8)
PANEL_W: Final = 224
ROW: Final = 27
PANEL_H: Final = 14 + 5 * ROW
CARD_W: Final = 64
MIN_TEXT: Final = 18
"""The smallest font size drawn (pixels at full size): 9 pixels at 360 wide."""

# Where each position's hand panel goes (0 bottom, 1 right, 2 top, 3 left)
PANEL_XY: Final = {
    0: ((W - PANEL_W) // 2, H - 16 - PANEL_H),
    1: (W - 20 - PANEL_W, 342),
    2: ((W - PANEL_W) // 2, HEAD_H + 12),
    3: (20, 342),
}
# Where each position's card of the trick goes (its centre)
TRICK_XY: Final = {0: (360, 530), 1: (436, 416), 2: (360, 302), 3: (284, 416)}

DURATION_MS: Final = {"deal": 3000, "auction": 3500, "trick": 1800, "score": 6000}
HAND_SUITS: Final = "".join(s.letter for s in HAND_SUIT_ORDER)  # the one hand order


# --- the view -----------------------------------------------------------------------


@dataclass(frozen=True)
class ReplayFrame:
    """One picture of the replay.

    ``hands`` are the cards each seat holds at that moment (codes, by seat);
    ``trick`` the cards of the trick shown, by seat (``None`` for none);
    ``tricks_won`` the tricks taken so far, this frame's trick included;
    ``calls`` the auction calls shown (``(seat, bid)``, ``bid`` ``None`` for a pass).
    """

    kind: str  # "deal", "auction", "trick" or "score"
    hands: tuple[tuple[str, ...], ...]
    tricks_won: tuple[int, int, int, int]
    trick_number: int | None = None
    trick: tuple[str | None, str | None, str | None, str | None] = (None, None, None, None)
    leader: int | None = None
    winner: int | None = None
    calls: tuple[tuple[int, int | None], ...] = ()
    duration_ms: int = 1000


@dataclass(frozen=True)
class ReplayView:
    """Everything the replay picture shows; built by :func:`replay_view`."""

    names: tuple[str, str, str, str]
    preset: str
    partnership: bool
    dealer: int
    holder: int
    bid: int
    forced: bool
    trump: str
    scores: tuple[int, int, int, int]
    frames: tuple[ReplayFrame, ...]
    viewer: int = 0  # the seat drawn at the bottom


def _sorted_hand(codes: Sequence[str]) -> tuple[str, ...]:
    return tuple(sort_codes(codes))


def replay_view(record: Any, names: Sequence[str], viewer: int = 0) -> ReplayView:
    """The frames of the replay of ``record`` (a ``batak-deal/1`` object).

    ``names`` are the four seats' display names (empty ones show "Seat n").
    Raises :class:`batak.records.RecordError` naming the field when the record
    is not a valid finished deal, and ``ValueError`` for bad names or viewer.
    """
    from batak.cards import card_code, cards_of
    from batak.records import deal_from_record

    if len(names) != 4:
        raise ValueError(f"names: expected 4 names, got {len(names)}")
    if viewer not in (0, 1, 2, 3):
        raise ValueError(f"viewer must be a seat 0..3, got {viewer!r}")
    deal = deal_from_record(record)
    contract = deal.contract
    assert contract is not None and contract.trump is not None and deal.scores is not None
    hands = [[card_code(c) for c in cards_of(h)] for h in deal.initial_hands]
    zero = (0, 0, 0, 0)
    dealt = tuple(_sorted_hand(h) for h in hands)
    frames = [
        ReplayFrame("deal", dealt, zero, duration_ms=DURATION_MS["deal"]),
        ReplayFrame(
            "auction", dealt, zero, calls=tuple(deal.calls), duration_ms=DURATION_MS["auction"]
        ),
    ]
    won = [0, 0, 0, 0]
    for number, trick in enumerate(deal.tricks, start=1):
        by_seat: list[str | None] = [None, None, None, None]
        for i, card in enumerate(trick.cards):
            seat = trick.seat_of(i)
            code = card_code(card)
            by_seat[seat] = code
            hands[seat].remove(code)
        won[trick.winner] += 1
        frames.append(
            ReplayFrame(
                "trick",
                tuple(_sorted_hand(h) for h in hands),
                (won[0], won[1], won[2], won[3]),
                trick_number=number,
                trick=(by_seat[0], by_seat[1], by_seat[2], by_seat[3]),
                leader=trick.leader,
                winner=trick.winner,
                duration_ms=DURATION_MS["trick"],
            )
        )
    frames.append(
        ReplayFrame(
            "score",
            tuple(() for _ in range(4)),
            (won[0], won[1], won[2], won[3]),
            duration_ms=DURATION_MS["score"],
        )
    )
    s = deal.scores
    return ReplayView(
        names=(names[0], names[1], names[2], names[3]),
        preset=deal.rules.preset,
        partnership=deal.rules.partnership,
        dealer=deal.dealer,
        holder=contract.seat,
        bid=contract.bid,
        forced=contract.forced,
        trump=contract.trump.letter,
        scores=(s[0], s[1], s[2], s[3]),
        frames=tuple(frames),
        viewer=viewer,
    )


# --- drawing -----------------------------------------------------------------------


def _name(view: ReplayView, seat: int, size: int, max_width: int, lang: str) -> str:
    return display_name(view.names[seat], size, True, max_width, seat_fallback(seat, lang))


def _side_tricks(view: ReplayView, won: Sequence[int]) -> int:
    return scoring.side_tricks(view, won, view.holder)


def _header(
    im: Image.Image, d: ImageDraw.ImageDraw, view: ReplayView, caption: str, th: Theme, lang: str
) -> None:
    who = _name(view, view.holder, 24, 260, lang)
    line = text_for(lang, "img.contract_line", name=who, n=view.bid)
    if view.forced:
        line += text_for(lang, "img.forced_paren")
    line += text_for(lang, "img.trump_line", suit=suit_name(lang, view.trump))
    chip = dr.suit_chip(view.trump, 44, False, th.panel_border)
    dr.paste(im, chip, (W - 16 - chip.width, 14))
    room = W - 32 - chip.width - 24
    dr.text(d, (16, 12), line, 24, th.text, bold=True, max_width=room)
    sub = preset_title(view.preset, lang) + " · " + caption
    dr.text(d, (16, 46), sub, 20, th.dim, max_width=room)


def _hand_panel(
    im: Image.Image,
    view: ReplayView,
    seat: int,
    hand: Sequence[str],
    won: int,
    th: Theme,
    lang: str,
    four_colour: bool,
    highlight: bool,
) -> None:
    x, y = PANEL_XY[position(seat, view.viewer)]
    edge = th.accent if highlight else FACE_EDGE
    dr.paste(im, dr.shadow((PANEL_W, PANEL_H), 12, th.shadow_alpha), (x - 12, y - 9))
    dr.paste(im, dr.rounded((PANEL_W, PANEL_H), 12, dr.rgba(FACE), dr.rgba(edge), 3), (x, y))
    d = ImageDraw.Draw(im)
    ink = (28, 30, 34)
    # right end of the name row: the tricks taken, then the dealer's chip
    tally = dr.pill(str(won), 18, th.accent if won else FACE_EDGE, th.accent_text)
    right = x + PANEL_W - 10 - tally.width
    dr.paste(im, tally, (right, y + 6))
    if seat == view.dealer:
        chip = dr.pill(text_for(lang, "img.dealer_chip"), 18, (120, 124, 132), (255, 255, 255))
        right -= chip.width + 6
        dr.paste(im, chip, (right, y + 6))
    marks = f"  {view.bid}" if seat == view.holder else ""
    bold = font(20, True)
    room = int(right - 8 - (x + 12) - bold.getlength(marks))
    name = _name(view, seat, 20, room, lang)
    nx = x + 12 + draw_text(d, (x + 12, y + 8), name, 20, ink, True, "la")
    if marks:
        d.text((nx, y + 8), marks, font=bold, fill=th.team_colours[1], anchor="la")
    for row, suit in enumerate(HAND_SUITS):
        cards = [c for c in hand if c[1] == suit]
        ranks = " ".join(rank_label(c) for c in cards) if cards else "–"
        ty = y + 12 + (row + 1) * ROW
        colour = suit_colour(suit, four_colour)
        d.text((x + 12, ty), SUIT_SYMBOLS[suit], font=font(21), fill=colour, anchor="la")
        room = PANEL_W - 24 - 28
        size = 21
        while size > MIN_TEXT and font(size, True).getlength(ranks) > room:
            size -= 1
        text = ranks
        while font(size, True).getlength(text) > room and len(text) > 1:
            text = text[:-2] + "…"
        d.text((x + 40, ty), text, font=font(size, True), fill=ink if cards else FACE_EDGE)


def _trick_cards(
    im: Image.Image, view: ReplayView, frame: ReplayFrame, th: Theme, fc: bool
) -> None:
    cw, ch = card_size(CARD_W)
    m = shadow_margin(CARD_W)
    leader = frame.leader if frame.leader is not None else 0
    for k in range(4):
        seat = (leader + k) % 4
        code = frame.trick[seat]
        if code is None:
            continue
        cx, cy = TRICK_XY[position(seat, view.viewer)]
        if seat == frame.winner:
            halo = dr.glow((cw + 8, ch + 8), 10, th.accent, 12, 255)
            dr.paste(im, halo, (cx - cw / 2 - 16, cy - ch / 2 - 16))
        sprite = card_shadowed(code, CARD_W, fc, 0.0, th.shadow_alpha)
        dr.paste(im, sprite, (cx - cw / 2 - m, cy - ch / 2 - m))


def _felt(im: Image.Image, th: Theme) -> None:
    x0, y0, x1, y1 = FELT
    felt = dr.rounded((x1 - x0, y1 - y0), 28, dr.rgba(th.felt), dr.rgba(th.felt_edge), 3)
    dr.paste(im, felt, (x0, y0))


def _auction_panel(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: ReplayView,
    frame: ReplayFrame,
    th: Theme,
    lang: str,
) -> None:
    calls = frame.calls
    cols = 1 if len(calls) <= 10 else 2
    per_col = -(-len(calls) // cols) if calls else 1
    col_w = 280 if cols == 1 else 260
    row = 36
    box_w = cols * col_w + 40
    box_h = 64 + per_col * row + 56
    x0 = (W - box_w) // 2
    y0 = 416 - box_h // 2
    dr.panel(im, (x0, y0, x0 + box_w, y0 + box_h), th, radius=16)
    dr.text(
        d, (x0 + 20, y0 + 16), upper(lang, text_for(lang, "img.auction")), 20, th.dim, bold=True
    )
    for i, (seat, bid) in enumerate(calls):
        cx = x0 + 20 + (i // per_col) * col_w
        cy = y0 + 58 + (i % per_col) * row
        name = _name(view, seat, 24, col_w - 110, lang)
        dr.text(d, (cx, cy), name, 24, th.text, bold=True)
        said = text_for(lang, "img.pass") if bid is None else str(bid)
        colour = th.faint if bid is None else th.accent
        dr.text(d, (cx + col_w - 30, cy), said, 24, colour, bold=True, anchor="ra")
    holds = text_for(lang, "img.holds", name=_name(view, view.holder, 20, 200, lang), n=view.bid)
    dr.text(d, (W // 2, y0 + box_h - 20), holds, 20, th.text, anchor="ms", max_width=box_w - 30)


def _score_panel(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    view: ReplayView,
    frame: ReplayFrame,
    th: Theme,
    lang: str,
) -> None:
    # the panel fills the felt's height: the heading, then a tall row per seat
    x0, x1 = 60, W - 60
    y0, y1 = HEAD_H + 28, H - 30
    dr.panel(im, (x0, y0, x1, y1), th, radius=18)
    side = _side_tricks(view, frame.tricks_won)
    who = _name(view, view.holder, 26, 330, lang)
    made = scoring.contract_made(view, scoring.Holding(view.holder, view.bid), frame.tricks_won)
    head = text_for(lang, "img.made_it" if made else "img.went_down", name=who)
    dr.text(d, (W // 2, y0 + 30), head, 30, th.good if made else th.bad, bold=True, anchor="mt")
    line = text_for(lang, "img.contract_line", name=who, n=view.bid)
    line += " · " + text_for(lang, "img.n_tricks", n=side)
    dr.text(d, (W // 2, y0 + 78), line, 22, th.dim, anchor="mt", max_width=x1 - x0 - 40)
    cols = (x0 + 28, x1 - 200, x1 - 40)
    ty = y0 + 140
    pitch = (y1 - 36 - (ty + 50)) // 4  # the seats' rows share the rest of the panel
    dr.text(d, (cols[0], ty), upper(lang, text_for(lang, "img.col.player")), 18, th.dim, bold=True)
    dr.text(d, (cols[1], ty), upper(lang, text_for(lang, "img.col.tricks")), 18, th.dim, True, "ra")
    dr.text(
        d, (cols[2], ty), upper(lang, text_for(lang, "img.replay.score")), 18, th.dim, True, "ra"
    )
    for seat in range(4):
        top = ty + 50 + seat * pitch
        ry = top + (pitch - 32) // 2
        if seat % 2 == 0:
            d.rounded_rectangle((x0 + 12, top, x1 - 12, top + pitch - 6), 12, fill=th.row_alt)
        name = _name(view, seat, 28, cols[1] - cols[0] - 110, lang)
        colour = th.accent if seat == view.holder else th.text
        dr.text(d, (cols[0], ry), name, 28, colour, bold=True)
        dr.text(d, (cols[1], ry), str(frame.tricks_won[seat]), 30, th.text, True, "ra")
        score = view.scores[seat]
        ink = th.good if score > 0 else th.bad if score < 0 else th.text
        dr.text(d, (cols[2], ry), dr.signed(score), 30, ink, True, "ra")


def caption(view: ReplayView, frame: ReplayFrame, lang: str = "en") -> str:
    """The line under the contract that says what this frame shows."""
    if frame.kind == "deal":
        dealer = _name(view, view.dealer, 20, 200, lang)
        return (
            text_for(lang, "img.replay.dealt")
            + " · "
            + text_for(lang, "img.replay.dealer", name=dealer)
        )
    if frame.kind == "auction":
        return text_for(lang, "img.bidding")
    if frame.kind == "trick":
        assert frame.winner is not None and frame.trick_number is not None
        name = _name(view, frame.winner, 20, 220, lang)
        return text_for(lang, "img.replay.takes", name=name, n=frame.trick_number)
    return text_for(lang, "img.deal_over")


def render_frame(
    view: ReplayView,
    frame: ReplayFrame,
    theme: str | Theme = "dark",
    four_colour: bool = False,
    lang: str = "en",
) -> Image.Image:
    """One frame of the replay as an RGB image (720 × 760)."""
    th = get_theme(theme)
    im, d = dr.canvas((W, H), th)
    _header(im, d, view, caption(view, frame, lang), th, lang)
    _felt(im, th)
    if frame.kind == "auction":
        _auction_panel(im, d, view, frame, th, lang)
        return im
    if frame.kind == "score":
        _score_panel(im, d, view, frame, th, lang)
        return im
    for seat in range(4):
        _hand_panel(
            im,
            view,
            seat,
            frame.hands[seat],
            frame.tricks_won[seat],
            th,
            lang,
            four_colour,
            highlight=seat == frame.winner,
        )
    if frame.kind == "trick":
        _trick_cards(im, view, frame, th, four_colour)
        # the contract side's tricks so far against the bid
        tag = f"{_side_tricks(view, frame.tricks_won)} / {view.bid}"
        pill = dr.pill(tag, 20, th.felt_edge, th.felt_text)
        dr.paste(im, pill, (W // 2 - pill.width // 2, 416 - pill.height // 2))
    return im


def render_replay(
    view: ReplayView,
    theme: str | Theme = "dark",
    four_colour: bool = False,
    lang: str = "en",
    fmt: str = "png",
) -> bytes:
    """The animated replay: APNG (``fmt="png"``, the default) or GIF (``fmt="gif"``).

    Every frame is mapped onto the theme's fixed palette, which keeps the file
    small (about 0.5 MB for a 13-trick deal) and the colours the same from frame
    to frame. It loops forever."""
    if fmt not in ("png", "gif"):
        raise ValueError(f"fmt must be 'png' or 'gif', not {fmt!r}")
    th = get_theme(theme)
    from .palette import palette_for

    pal = palette_for(th)
    frames = [
        render_frame(view, f, th, four_colour, lang).quantize(palette=pal, dither=Image.Dither.NONE)
        for f in view.frames
    ]
    durations = [f.duration_ms for f in view.frames]
    buf = io.BytesIO()
    first, rest = frames[0], frames[1:]
    if fmt == "png":
        first.save(
            buf,
            "PNG",
            save_all=True,
            append_images=rest,
            duration=durations,
            loop=0,
            compress_level=PNG_LEVEL,
        )
    else:
        first.save(buf, "GIF", save_all=True, append_images=rest, duration=durations, loop=0)
    return buf.getvalue()


def render_replay_record(
    record: Any,
    names: Sequence[str],
    theme: str | Theme = "dark",
    four_colour: bool = False,
    lang: str = "en",
    fmt: str = "png",
    viewer: int = 0,
) -> bytes:
    """:func:`replay_view` then :func:`render_replay`: a record and four names in,
    the animated file out."""
    return render_replay(replay_view(record, names, viewer), theme, four_colour, lang, fmt)


__all__ = [
    "ReplayFrame",
    "ReplayView",
    "caption",
    "render_frame",
    "render_replay",
    "render_replay_record",
    "replay_view",
]
