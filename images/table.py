"""The table picture: four seats, the trick, contract and trump, scores, turn."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from . import draw as dr
from .cards import card_shadowed, card_size, shadow_margin
from .felt import H, W
from .labels import suit_name, text_for, upper
from .onfelt import Felt
from .png import to_png
from .text import clean, draw_text, fit, font, initials, wrap
from .theme import Theme, get_theme
from .views import Player, TableView, TrickView

CX, CY = W // 2, H // 2
PLATE_W, PLATE_H = 300, 118
MARGIN = 22
CARD_W = 88
MINI_W = 50
AVATAR = 64
# the smallest text of the picture: 9 px high when Discord shows it 360 px wide on a phone
MIN_TEXT = 24

BOTTOM, RIGHT, TOP, LEFT = 0, 1, 2, 3

# top-left corner of each seat's plate, by position relative to the viewer
PLATE_XY = {
    BOTTOM: ((W - PLATE_W) // 2, H - PLATE_H - MARGIN),
    RIGHT: (W - PLATE_W - MARGIN, (H - PLATE_H) // 2),
    TOP: ((W - PLATE_W) // 2, MARGIN),
    LEFT: (MARGIN, (H - PLATE_H) // 2),
}
# centre of the card each position plays to the trick
TRICK_XY = {
    BOTTOM: (CX, CY + 72),
    RIGHT: (CX + 100, CY),
    TOP: (CX, CY - 72),
    LEFT: (CX - 100, CY),
}
INFO_W, INFO_H = 282, 150
CONTRACT_BOX = (MARGIN, MARGIN, MARGIN + INFO_W, MARGIN + INFO_H + 26)
DEAL_BOX = (W - MARGIN - INFO_W, MARGIN, W - MARGIN, MARGIN + INFO_H)
STATUS_BOX = (MARGIN, H - MARGIN - INFO_H, MARGIN + INFO_W, H - MARGIN)
LAST_BOX = (W - MARGIN - INFO_W, H - MARGIN - 196, W - MARGIN, H - MARGIN)

KNOWN_PRESETS = ("standard", "classic", "esli", "koz-maca", "kanli")


def position(seat: int, viewer: int) -> int:
    """Where ``seat`` is drawn for ``viewer``: 0 bottom, 1 right, 2 top, 3 left."""
    return (seat - viewer) % 4


def seat_fallback(seat: int, lang: str = "en") -> str:
    """What an empty name shows: "Seat 1"."""
    return text_for(lang, "img.seat", n=seat + 1)


def preset_title(preset: str, lang: str = "en") -> str:
    if preset in KNOWN_PRESETS:
        return text_for(lang, f"img.preset.{preset}")
    return fit(clean(preset), 18, False, 200) or "Batak"


BOX_TEXT = (18, 14)  # where an info box's text starts, from the panel's corner


@lru_cache(maxsize=16)
def _box(theme: Theme, size: tuple[int, int]) -> Image.Image:
    """An info box's panel with its shadow, 12 px larger each way (cached per size)."""
    w, h = size
    img = Image.new("RGBA", (w + 24, h + 24), (0, 0, 0, 0))
    img.alpha_composite(dr.shadow((w, h), 16, theme.shadow_alpha), (0, 3))
    img.alpha_composite(
        dr.rounded((w, h), 16, dr.rgba(theme.panel), dr.rgba(theme.panel_border), 2), (12, 12)
    )
    return img


def _draw_box(
    im: Image.Image, theme: Theme, box: tuple[int, int, int, int], felt: Felt | None = None
) -> tuple[int, int]:
    """Paste an info box's panel at ``box`` (ready-made where ``felt`` allows); returns the
    origin of its text."""
    x0, y0, x1, y1 = box
    size = (x1 - x0, y1 - y0)
    if felt is not None:
        felt.panel(("box", size), lambda: _box(theme, size), (x0 - 12, y0 - 12))
    else:
        dr.paste(im, _box(theme, size), (x0 - 12, y0 - 12))
    return x0 + BOX_TEXT[0], y0 + BOX_TEXT[1]


PLATE_PAD = 16


@lru_cache(maxsize=16)
def _plate_panel(theme: Theme, active: bool, team: int | None) -> Image.Image:
    """A name plate without its contents: glow or shadow, panel, team stripe (cached)."""
    pad = PLATE_PAD
    img = Image.new("RGBA", (PLATE_W + 2 * pad, PLATE_H + 2 * pad), (0, 0, 0, 0))
    if active:
        img.alpha_composite(dr.glow((PLATE_W, PLATE_H), 18, theme.accent, pad, 200), (0, 0))
    else:
        sh = dr.shadow((PLATE_W, PLATE_H), 18, theme.shadow_alpha, 6)
        img.alpha_composite(sh, (pad - 12, pad - 12 + 3))
    outline = theme.accent if active else theme.panel_border
    body = dr.rounded(
        (PLATE_W, PLATE_H), 18, dr.rgba(theme.panel), dr.rgba(outline), 4 if active else 2
    )
    img.alpha_composite(body, (pad, pad))
    if team is not None:
        stripe = dr.rounded((8, PLATE_H - 28), 4, dr.rgba(theme.team_colours[team]))
        img.alpha_composite(stripe, (pad + 6, pad + 14))
    return img


def draw_plate(
    im: Image.Image,
    xy: tuple[int, int],
    theme: Theme,
    player: Player,
    seat: int,
    main: str,
    main_colour: tuple[int, int, int],
    total: int,
    active: bool,
    dealer: bool,
    team: int | None,
    lang: str,
    felt: Felt | None = None,
) -> None:
    """One seat's name plate with its top-left corner at ``xy`` (its panel ready-made
    where ``felt`` allows).

    Line one is the name; line two ``main`` (bold), the tricks and what the seat
    still needs, or the last call; line three the match total. Only the
    empty panel is cached: with many tables, pictures of whole plates would fill
    the memory and rarely be drawn twice.
    """
    x, y = xy
    at = (x - PLATE_PAD, y - PLATE_PAD)
    if felt is not None:
        felt.panel(("plate", active, team), lambda: _plate_panel(theme, active, team), at)
    else:
        dr.paste(im, _plate_panel(theme, active, team), at)
    d = ImageDraw.Draw(im)
    ax, ay = x + 16, y + (PLATE_H - AVATAR) // 2
    dr.paste(
        im,
        dr.player_avatar(
            AVATAR, player.name, player.initials, player.avatar_colour, square=player.is_bot
        ),
        (ax, ay),
    )
    if dealer:
        chip = dr.pill(
            text_for(lang, "img.dealer_chip"), MIN_TEXT, theme.text, theme.panel, height=32, pad_x=8
        )
        dr.paste(im, chip, (ax + AVATAR - 28, ay + AVATAR - 24))
    tx = ax + AVATAR + 12
    max_w = x + PLATE_W - tx - 14
    dr.name_text(
        d, (tx, y + 12), player.name, MIN_TEXT, theme.text, max_w, seat_fallback(seat, lang)
    )
    # second line: tricks (or the last call); third: the match total
    main = fit(main, MIN_TEXT, True, max_w)
    d.text((tx, y + 68), main, font=font(MIN_TEXT, True), fill=main_colour, anchor="ls")
    points = fit(text_for(lang, "img.points", n=total), MIN_TEXT, False, max_w)
    d.text((tx, y + 102), points, font=font(MIN_TEXT), fill=theme.dim, anchor="ls")


TAG_H = 32


def plate_tags(
    view: TableView, seat: int, th: Theme, lang: str
) -> list[tuple[Image.Image, tuple[int, int]]]:
    """The tags of a seat's plate and where they go: the contract holder's bid and the
    seat to act ("▶ TO PLAY"), right-aligned on the plate's third line, inside the plate,
    right of the match total. Where the words do not fit the arrow alone marks the seat
    to act (its plate is outlined too), and the bid tag gives way last."""
    x, y = PLATE_XY[position(seat, view.viewer_seat)]
    c = view.contract
    active = view.to_act == seat and view.phase != "done"
    tx = x + 16 + AVATAR + 12
    points = fit(
        text_for(lang, "img.points", n=view.totals[seat]),
        MIN_TEXT,
        False,
        x + PLATE_W - tx - 14,
    )
    right = x + PLATE_W - 12
    room = right - (tx + round(font(MIN_TEXT).getlength(points)) + 12)

    def pill(text: str, fill: tuple[int, int, int], ink: tuple[int, int, int]) -> Image.Image:
        return dr.pill(text, MIN_TEXT, fill, ink, height=TAG_H, pad_x=8)

    bid = None
    if c is not None and c.seat == seat:
        bid = pill(text_for(lang, "img.bid_tag", n=c.bid), th.accent, th.accent_text)
    with_bid = [bid] if bid is not None else []
    choices: list[list[Image.Image]] = []
    if active:
        act = pill("▶ " + upper(lang, text_for(lang, f"img.act.{view.phase}")), th.text, th.panel)
        arrow = pill("▶", th.text, th.panel)
        choices += [[*with_bid, act], [*with_bid, arrow], [arrow]]
    else:
        choices += [with_bid, []]
    tags = choices[-1]
    for option in choices:
        if sum(t.width for t in option) + 6 * max(0, len(option) - 1) <= room:
            tags = option
            break
    out = []
    ty = y + PLATE_H - 10 - TAG_H
    for tag in reversed(tags):
        right -= tag.width
        out.append((tag, (right, ty)))
        right -= 6
    return out


def _line2(view: TableView, seat: int, theme: Theme, lang: str) -> tuple[str, tuple[int, int, int]]:
    """(text, colour) of a plate's second line: "2 · needs 3", "Bid 7", "Pass"."""
    if view.phase == "auction":
        bids = [b for s, b in view.calls if s == seat]
        if not bids:
            return "—", theme.dim
        last = bids[-1]
        if last is None:
            return text_for(lang, "img.pass"), theme.dim
        return text_for(lang, "img.bid_line", n=last), theme.text
    target = view.targets[seat]
    won = view.team_tricks(seat)
    if target is None:
        return text_for(lang, "img.n_tricks", n=won), theme.text
    if won >= target:
        return text_for(lang, "img.tricks_made", won=won), theme.good
    return text_for(lang, "img.tricks_need", won=won, n=target - won), theme.text


def _draw_contract(
    im: Image.Image,
    theme: Theme,
    holder: Player | None,
    holder_seat: int,
    bid: int,
    forced: bool,
    trump: str | None,
    trump_broken: bool,
    four_colour: bool,
    lang: str,
    felt: Felt | None = None,
) -> None:
    ox, oy = _draw_box(im, theme, CONTRACT_BOX, felt)
    bx, by = CONTRACT_BOX[0] - 12, CONTRACT_BOX[1] - 12  # the box sprite's corner
    w = INFO_W
    d = ImageDraw.Draw(im)
    small = font(MIN_TEXT)
    label = text_for(lang, "img.contract")
    chip = 60
    chip_cx = bx + 12 + w - 50
    top = by + 12 + 40
    room = chip_cx - chip // 2 - ox - 8
    if forced and holder is not None:  # the red tag takes the label's place
        tag = dr.pill(
            upper(lang, text_for(lang, "img.forced")),
            MIN_TEXT,
            theme.bad,
            (255, 255, 255),
            height=32,
            pad_x=8,
        )
        dr.paste(im, tag, (ox - 4, oy - 6))
    else:
        d.text(
            (ox, oy + 18),
            fit(label, MIN_TEXT, True, w - 36),
            font=font(MIN_TEXT, True),
            fill=theme.dim,
            anchor="ls",
        )
    if trump is not None:
        dr.paste(
            im,
            dr.suit_chip(trump, chip, four_colour, theme.panel_border),
            (chip_cx - chip // 2, top),
        )
        if trump_broken:
            note = fit(text_for(lang, "img.trump_broken"), MIN_TEXT, False, w - 36)
            d.text((ox, oy + 146), note, font=small, fill=theme.dim, anchor="ls")
    if holder is None:
        room = room if trump is not None else w - 36
        d.text(
            (ox, oy + 34),
            fit(text_for(lang, "img.not_yet"), 26, True, room),
            font=font(26, True),
            fill=theme.text,
            anchor="lt",
        )
        sub = (
            text_for(lang, "img.fixed_trump", suit=suit_name(lang, trump).capitalize())
            if trump is not None
            else text_for(lang, "img.auction_running")
        )
        d.text(
            (ox, oy + 88), fit(sub, MIN_TEXT, False, room), font=small, fill=theme.dim, anchor="ls"
        )
        return
    d.text((ox, oy + 28), str(bid), font=font(48, True), fill=theme.accent, anchor="lt")
    bw = font(48, True).getlength(str(bid))
    word = fit(text_for(lang, "img.tricks_word", n=bid), MIN_TEXT, False, int(room - bw - 8))
    d.text((ox + bw + 8, oy + 72), word, font=small, fill=theme.dim, anchor="ls")
    dr.name_text(
        d,
        (ox, oy + 80),
        holder.name,
        MIN_TEXT,
        theme.text,
        room,
        seat_fallback(holder_seat, lang),
        bold=True,
    )
    if trump is None:
        slot = dr.rounded((chip, chip), 10, (0, 0, 0, 0), dr.rgba(theme.faint), 2, dash=True)
        dr.paste(im, slot, (chip_cx - chip // 2, top))
        d.text((chip_cx, top + chip // 2), "?", font=font(30, True), fill=theme.faint, anchor="mm")


@lru_cache(maxsize=64)
def _deal_box(
    theme: Theme, deal_number: int, deal_count: int, preset: str, partnership: bool, lang: str
) -> Image.Image:
    x0, y0, x1, y1 = DEAL_BOX
    img, ox, oy = _box(theme, (x1 - x0, y1 - y0)).copy(), 12 + BOX_TEXT[0], 12 + BOX_TEXT[1]
    w = INFO_W
    d = ImageDraw.Draw(img)
    bold = font(MIN_TEXT, True)
    d.text((ox, oy + 18), text_for(lang, "img.deal"), font=bold, fill=theme.dim, anchor="ls")
    num = str(deal_number)
    d.text((ox, oy + 28), num, font=font(48, True), fill=theme.text, anchor="lt")
    nw = font(48, True).getlength(num)
    of = text_for(lang, "img.of_n_extra" if deal_number > deal_count else "img.of_n", n=deal_count)
    of = fit(of, MIN_TEXT, False, int(w - 36 - nw - 8))
    d.text((ox + nw + 8, oy + 72), of, font=font(MIN_TEXT), fill=theme.dim, anchor="ls")
    d.text(
        (ox, oy + 88),
        fit(preset_title(preset, lang), MIN_TEXT, True, w - 36),
        font=bold,
        fill=theme.text,
        anchor="lt",
    )
    if partnership:
        for team in (0, 1):
            dot = dr.rounded((16, 16), 8, dr.rgba(theme.team_colours[team]))
            img.alpha_composite(dot, (12 + w - 110 + team * 50, oy + 4))
            d.text(
                (12 + w - 90 + team * 50, oy + 12),
                "AB"[team],
                font=bold,
                fill=theme.dim,
                anchor="lm",
            )
    return img


def _draw_last_trick(
    im: Image.Image,
    theme: Theme,
    trick: TrickView,
    players: tuple[Player, ...],
    viewer: int,
    four_colour: bool,
    lang: str,
    spectator: bool = False,
    felt: Felt | None = None,
) -> None:
    """The last trick, cards in seat order from the viewer (you, right, across, left), each
    over its player's initials (the viewer's own: "you", unless ``spectator``) in the
    colour of their avatar; the winner's card ringed, its name below."""
    ox, oy = _draw_box(im, theme, LAST_BOX, felt)
    bx = LAST_BOX[0] - 12  # the box sprite's left edge
    w = INFO_W
    d = ImageDraw.Draw(im)
    bold = font(MIN_TEXT, True)
    title = fit(text_for(lang, "img.last_trick"), MIN_TEXT, True, w - 36)
    d.text((ox, oy + 18), title, font=bold, fill=theme.dim, anchor="ls")
    by_seat = trick.by_seat()
    m = shadow_margin(MINI_W)
    cw, ch = card_size(MINI_W)
    gap = 12
    sx = bx + 12 + (w - (4 * cw + 3 * gap)) // 2
    y = oy + 32
    for i in range(4):
        seat = (viewer + i) % 4
        code = by_seat.get(seat)
        if code is None:
            continue
        x = sx + i * (cw + gap)
        if seat == trick.winner:
            ring = dr.rounded((cw + 8, ch + 8), 9, (0, 0, 0, 0), dr.rgba(theme.accent), 3)
            dr.paste(im, ring, (x - 4, y - 4))
        dr.paste(
            im, card_shadowed(code, MINI_W, four_colour, 0.0, theme.shadow_alpha), (x - m, y - m)
        )
        p = players[seat]
        if i == 0 and not spectator:
            who, colour = text_for(lang, "img.pos.0"), theme.text
        else:
            who = clean(p.initials)[:2].upper() if p.initials else initials(p.name)
            colour = dr.mix(p.avatar_colour, theme.text, 0.25)
        who = fit(who, MIN_TEXT, True, cw + gap - 2)
        draw_text(d, (x + cw / 2, y + ch + 8), who, MIN_TEXT, colour, True, "mt")
    if trick.winner is not None:
        arrow = "→ "
        aw = bold.getlength(arrow)
        ny = y + ch + 62
        d.text((ox, ny), arrow, font=bold, fill=theme.text, anchor="ls")
        dr.name_text(
            d,
            (ox + aw, ny),
            players[trick.winner].name,
            MIN_TEXT,
            theme.text,
            int(w - 36 - aw),
            seat_fallback(trick.winner, lang),
            bold=True,
            anchor="ls",
        )


@lru_cache(maxsize=64)
def _slot(theme: Theme) -> Image.Image:
    cw, ch = card_size(CARD_W)
    return dr.rounded((cw, ch), 9, dr.rgba(theme.accent, 40), dr.rgba(theme.accent), 3, dash=True)


def _status(
    im: Image.Image, view: TableView, th: Theme, lang: str, felt: Felt | None = None
) -> None:
    """The bottom-left box: whose turn it is and what they are doing, or the deal's end."""
    sx, sy = _draw_box(im, th, STATUS_BOX, felt)
    d = ImageDraw.Draw(im)
    small, bold = font(MIN_TEXT), font(MIN_TEXT, True)
    room = INFO_W - 36
    seat = view.to_act
    if view.phase == "done" or seat is None:
        d.text((sx, sy + 18), text_for(lang, "img.status"), font=bold, fill=th.dim, anchor="ls")
        d.text(
            (sx, sy + 34),
            fit(text_for(lang, "img.deal_over"), 26, True, room),
            font=font(26, True),
            fill=th.text,
            anchor="lt",
        )
        played = text_for(lang, "img.tricks_played", n=sum(view.tricks_won))
        for i, line in enumerate(wrap(played, MIN_TEXT, False, room, 2)):
            d.text((sx, sy + 96 + 30 * i), line, font=small, fill=th.dim, anchor="ls")
        return
    d.text((sx, sy + 18), text_for(lang, "img.turn"), font=bold, fill=th.dim, anchor="ls")
    p = view.players[seat]
    dr.name_text(
        d, (sx, sy + 52), p.name, MIN_TEXT, th.text, room, seat_fallback(seat, lang), anchor="ls"
    )
    verb = text_for(lang, f"img.act.{view.phase}")
    if view.phase == "auction":
        high = max((b for _, b in view.calls if b is not None), default=None)
        detail = (
            text_for(lang, "img.no_bid")
            if high is None
            else text_for(lang, "img.high_bid_n", n=high)
        )
    elif view.phase == "trump":
        detail = ""
    else:
        detail = text_for(lang, "img.trick_n", n=min(sum(view.tricks_won) + 1, 13))
    d.text((sx, sy + 84), fit(verb, MIN_TEXT, False, room), font=small, fill=th.dim, anchor="ls")
    if detail:
        d.text(
            (sx, sy + 114), fit(detail, MIN_TEXT, False, room), font=small, fill=th.dim, anchor="ls"
        )


def render_table_image(
    view: TableView, theme: str | Theme = "dark", four_colour: bool = False, lang: str = "en"
) -> Image.Image:
    """The table picture as a Pillow image (see :func:`render_table` for PNG bytes)."""
    th = get_theme(theme)
    felt = Felt(th)
    im = felt.im
    viewer = view.viewer_seat

    # the trick: each card in front of the seat that played it
    trick = view.trick
    cw, ch = card_size(CARD_W)
    m = shadow_margin(CARD_W)
    played = trick.by_seat() if trick is not None else {}
    if view.phase == "play" and view.to_act is not None and view.to_act not in played:
        px, py = TRICK_XY[position(view.to_act, viewer)]
        felt.paste(_slot(th), (px - cw // 2, py - ch // 2))
    if trick is not None and trick.cards:
        for i, code in enumerate(trick.cards):
            seat = (trick.leader + i) % 4
            px, py = TRICK_XY[position(seat, viewer)]
            if trick.winner is not None and seat == trick.winner:
                ring = dr.rounded((cw + 10, ch + 10), 11, (0, 0, 0, 0), dr.rgba(th.accent), 4)
                felt.paste(ring, (px - cw // 2 - 5, py - ch // 2 - 5))
            felt.paste(
                card_shadowed(code, CARD_W, four_colour, 0.0, th.shadow_alpha),
                (px - cw // 2 - m, py - ch // 2 - m),
            )
        px, py = TRICK_XY[position(trick.leader, viewer)]
        tag = dr.pill(
            text_for(lang, "img.lead"), MIN_TEXT, th.accent, th.accent_text, height=32, pad_x=8
        )
        felt.paste(tag, (px - tag.width // 2, py + ch // 2 - tag.height // 2))

    # seats, with their tags (contract holder, seat to act) inside the plate
    c = view.contract
    for seat in range(4):
        pos = position(seat, viewer)
        main, colour = _line2(view, seat, th, lang)
        team = seat % 2 if view.partnership else None
        active = view.to_act == seat and view.phase != "done"
        x, y = PLATE_XY[pos]
        draw_plate(
            im,
            (x, y),
            th,
            view.players[seat],
            seat,
            main,
            colour,
            view.totals[seat],
            active,
            view.dealer == seat,
            team,
            lang,
            felt,
        )
        for tag, xy in plate_tags(view, seat, th, lang):
            felt.paste(tag, xy)

    # corner boxes: contract and trump, deal number, turn, last trick
    trump = view.effective_trump
    holder = view.players[c.seat] if c is not None else None
    _draw_contract(
        im,
        th,
        holder,
        c.seat if c else 0,
        c.bid if c else 0,
        c.forced if c else False,
        trump,
        view.trump_broken,
        four_colour,
        lang,
        felt,
    )
    box = _deal_box(th, view.deal_number, view.deal_count, view.preset, view.partnership, lang)
    felt.paste(box, (DEAL_BOX[0] - 12, DEAL_BOX[1] - 12))
    _status(im, view, th, lang, felt)
    last = view.last_trick
    if last is not None and last.cards:
        _draw_last_trick(
            im, th, last, view.players, viewer, four_colour, lang, view.spectator, felt
        )
    return im


def render_table(
    view: TableView, theme: str | Theme = "dark", four_colour: bool = False, lang: str = "en"
) -> bytes:
    """PNG bytes of the table picture for ``view`` (960×680)."""
    return to_png(render_table_image(view, theme, four_colour, lang), get_theme(theme))
