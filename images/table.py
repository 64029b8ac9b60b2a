"""The table picture: four seats, the trick, contract and trump, scores, turn."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from . import draw as dr
from .cards import card_shadowed, card_size, shadow_margin
from .text import fit, font
from .theme import Theme, get_theme
from .views import SUIT_NAMES, Player, TableView, TrickView

W, H = 960, 680
CX, CY = W // 2, H // 2
PLATE_W, PLATE_H = 296, 88
MARGIN = 22
CARD_W = 88
MINI_W = 50
AVATAR = 54

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
INFO_W, INFO_H = 282, 132
CONTRACT_BOX = (MARGIN, MARGIN, MARGIN + INFO_W, MARGIN + INFO_H)
DEAL_BOX = (W - MARGIN - INFO_W, MARGIN, W - MARGIN, MARGIN + INFO_H)
STATUS_BOX = (MARGIN, H - MARGIN - INFO_H, MARGIN + INFO_W, H - MARGIN)
LAST_BOX = (W - MARGIN - INFO_W, H - MARGIN - 150, W - MARGIN, H - MARGIN)

PRESET_TITLES = {
    "standard": "Standard",
    "classic": "Classic",
    "esli": "Eşli · partners",
    "koz-maca": "Koz Maça",
    "kanli": "Kanlı · blind bids",
}

ACTION_WORDS = {"auction": "to bid", "trump": "names trump", "play": "to play", "done": ""}


def position(seat: int, viewer: int) -> int:
    """Where ``seat`` is drawn for ``viewer``: 0 bottom, 1 right, 2 top, 3 left."""
    return (seat - viewer) % 4


def seat_fallback(seat: int) -> str:
    return f"Seat {seat + 1}"


def preset_title(preset: str) -> str:
    return PRESET_TITLES.get(preset, fit(preset, 18, False, 200) or "Batak")


@lru_cache(maxsize=8)
def background(theme: Theme) -> Image.Image:
    """The static part of the table picture: backdrop and felt (cached per theme)."""
    im = Image.new("RGB", (W, H), theme.bg)
    fx0, fy0, fx1, fy1 = 96, 64, W - 96, H - 64
    fw, fh = fx1 - fx0, fy1 - fy0
    dr.paste(im, dr.shadow((fw, fh), 170, theme.shadow_alpha, 10), (fx0 - 20, fy0 - 14))
    # felt: a radial gradient from the centre colour to the edge, inside a darker rim
    shape = dr.rounded((fw, fh), 170, (255, 255, 255, 255)).getchannel("A")
    inner = dr.rounded((fw - 20, fh - 20), 160, (255, 255, 255, 255)).getchannel("A")
    rim = Image.new("RGB", (fw, fh), theme.felt_edge)
    grad = Image.radial_gradient("L").resize((fw, fh), Image.Resampling.BILINEAR)
    felt = Image.composite(Image.new("RGB", (fw, fh), theme.felt),
                           Image.new("RGB", (fw, fh), theme.felt_centre), grad)
    inner_mask = Image.new("L", (fw, fh), 0)
    inner_mask.paste(inner, (10, 10))
    rim.paste(felt, (0, 0), inner_mask)
    im.paste(rim, (fx0, fy0), shape)
    # a thin inner line, like the stitching of a card table
    line = dr.mix(theme.felt, theme.felt_text, 0.22)
    ring = dr.rounded((fw - 44, fh - 44), 150, (0, 0, 0, 0), dr.rgba(line), 2)
    dr.paste(im, ring, (fx0 + 22, fy0 + 22))
    return im


@lru_cache(maxsize=512)
def plate(
    theme: Theme,
    player: Player,
    seat: int,
    line2: str,
    line2_colour: tuple[int, int, int],
    total: int,
    active: bool,
    dealer: bool,
    team: int | None,
) -> Image.Image:
    """One seat's name plate (cached: it only changes when the seat's numbers do)."""
    pad = 16
    img = Image.new("RGBA", (PLATE_W + 2 * pad, PLATE_H + 2 * pad), (0, 0, 0, 0))
    if active:
        img.alpha_composite(dr.glow((PLATE_W, PLATE_H), 18, theme.accent, pad, 200), (0, 0))
    else:
        sh = dr.shadow((PLATE_W, PLATE_H), 18, theme.shadow_alpha, 6)
        img.alpha_composite(sh, (pad - 12, pad - 12 + 3))
    outline = theme.accent if active else theme.panel_border
    body = dr.rounded((PLATE_W, PLATE_H), 18, dr.rgba(theme.panel), dr.rgba(outline),
                      4 if active else 2)
    img.alpha_composite(body, (pad, pad))
    d = ImageDraw.Draw(img)
    if team is not None:
        stripe = dr.rounded((8, PLATE_H - 28), 4, dr.rgba(theme.team_colours[team]))
        img.alpha_composite(stripe, (pad + 6, pad + 14))
    ax, ay = pad + 16, pad + (PLATE_H - AVATAR) // 2
    img.alpha_composite(
        dr.player_avatar(AVATAR, player.name, player.initials, player.avatar_colour), (ax, ay)
    )
    if dealer:
        chip = dr.pill("D", 15, theme.text, theme.panel, height=24, pad_x=6)
        img.alpha_composite(chip, (ax + AVATAR - 18, ay + AVATAR - 20))
    tx = ax + AVATAR + 12
    max_w = PLATE_W + pad - tx - 14
    dr.name_text(d, (tx, pad + 14), player.name, 24, theme.text, max_w, seat_fallback(seat))
    # second line: tricks on the left, match total on the right
    y2 = pad + 64
    right = PLATE_W + pad - 16
    d.text((right, y2), "pts", font=font(15), fill=theme.dim, anchor="rs")
    score = dr.signed(total)
    sx = right - font(15).getlength("pts") - 5
    d.text((sx, y2), score, font=font(22, True), fill=theme.text, anchor="rs")
    room = int(sx - font(22, True).getlength(score) - 12 - tx)
    main, _, rest = line2.partition(" ")
    main = fit(main, 22, True, room)
    d.text((tx, y2), main, font=font(22, True), fill=line2_colour, anchor="ls")
    mw = font(22, True).getlength(main) + 5
    if rest and mw + 20 < room:
        d.text((tx + mw, y2), fit(rest, 15, False, int(room - mw)), font=font(15), fill=theme.dim,
               anchor="ls")
    return img


def _line2(view: TableView, seat: int, theme: Theme) -> tuple[str, tuple[int, int, int]]:
    if view.phase == "auction":
        bids = [b for s, b in view.calls if s == seat]
        if not bids:
            return "—", theme.dim
        last = bids[-1]
        return ("Pass", theme.dim) if last is None else (f"Bid\u00a0{last}", theme.text)
    won = view.tricks_won[seat]
    target = view.targets[seat]
    team_won = view.team_tricks(seat)
    if target is None:
        label = f"{team_won} tricks" if view.partnership else f"{won} tricks"
        return (label if team_won != 1 else label[:-1]), theme.text
    colour = theme.good if team_won >= target else theme.text
    if view.partnership:
        return f"{team_won}/{target} team", colour
    return f"{won}/{target} tricks", colour


def _status(view: TableView) -> tuple[str, str]:
    """(headline, detail) for the status box."""
    names = view.players
    if view.phase == "done" or view.to_act is None:
        done = sum(view.tricks_won)
        return "Deal over", f"{done} of 13 tricks played"
    who = names[view.to_act].name
    if view.phase == "auction":
        high = max((b for _, b in view.calls if b is not None), default=None)
        return f"\0{view.to_act}", ("No bid yet" if high is None else f"High bid {high}")
    if view.phase == "trump":
        return f"\0{view.to_act}", "is naming trump"
    trick_no = sum(view.tricks_won) + 1
    del who
    return f"\0{view.to_act}", f"Trick {min(trick_no, 13)} of 13"


@lru_cache(maxsize=256)
def _contract_box(theme: Theme, view_key: tuple[object, ...], four_colour: bool) -> Image.Image:
    holder_name, holder_seat, bid, forced, trump, trump_broken, fixed = view_key
    x0, y0, x1, y1 = CONTRACT_BOX
    w, h = x1 - x0, y1 - y0
    img = Image.new("RGBA", (w + 24, h + 24), (0, 0, 0, 0))
    img.alpha_composite(dr.shadow((w, h), 16, theme.shadow_alpha), (0, 3))
    img.alpha_composite(dr.rounded((w, h), 16, dr.rgba(theme.panel), dr.rgba(theme.panel_border),
                                   2), (12, 12))
    d = ImageDraw.Draw(img)
    ox, oy = 12 + 18, 12 + 14
    d.text((ox, oy), "CONTRACT", font=font(15, True), fill=theme.dim, anchor="lt")
    chip = 60
    chip_cx = 12 + w - 62
    if trump is not None:
        img.alpha_composite(dr.suit_chip(str(trump), chip, four_colour, theme.panel_border),
                            (chip_cx - chip // 2, 12 + 16))
        label = "trump broken" if trump_broken else "trump"
        d.text((chip_cx, 12 + 16 + chip + 8), label, font=font(14), fill=theme.dim,
               anchor="mt")
    if holder_seat is None:
        d.text((ox, oy + 30), "Not yet", font=font(26, True), fill=theme.text, anchor="lt")
        d.text((ox, oy + 66), str(fixed) if fixed else "Auction running", font=font(17),
               fill=theme.dim, anchor="lt")
        return img
    d.text((ox, oy + 24), str(bid), font=font(48, True), fill=theme.accent, anchor="lt")
    bw = font(48, True).getlength(str(bid))
    d.text((ox + bw + 8, oy + 64), "tricks", font=font(17), fill=theme.dim, anchor="ls")
    room = chip_cx - chip // 2 - ox - 8
    dr.name_text(d, (ox, oy + 84), str(holder_name), 19, theme.text, room,
                 seat_fallback(int(str(holder_seat))), bold=True)
    if forced:
        tag = dr.pill("FORCED", 13, theme.bad, (255, 255, 255), height=22, pad_x=8)
        lw = font(15, True).getlength("CONTRACT")
        img.alpha_composite(tag, (ox + int(lw) + 10, oy - 4))
    if trump is None:
        d.text((chip_cx, 12 + 16 + chip // 2), "?", font=font(40, True),
               fill=theme.faint, anchor="mm")
    return img


@lru_cache(maxsize=64)
def _deal_box(theme: Theme, deal_number: int, deal_count: int, preset: str,
              partnership: bool) -> Image.Image:
    x0, y0, x1, y1 = DEAL_BOX
    w, h = x1 - x0, y1 - y0
    img = Image.new("RGBA", (w + 24, h + 24), (0, 0, 0, 0))
    img.alpha_composite(dr.shadow((w, h), 16, theme.shadow_alpha), (0, 3))
    img.alpha_composite(dr.rounded((w, h), 16, dr.rgba(theme.panel), dr.rgba(theme.panel_border),
                                   2), (12, 12))
    d = ImageDraw.Draw(img)
    ox, oy = 12 + 18, 12 + 14
    d.text((ox, oy), "DEAL", font=font(15, True), fill=theme.dim, anchor="lt")
    num = str(deal_number)
    d.text((ox, oy + 24), num, font=font(48, True), fill=theme.text, anchor="lt")
    nw = font(48, True).getlength(num)
    extra = " (extra)" if deal_number > deal_count else ""
    d.text((ox + nw + 8, oy + 64), f"of {deal_count}{extra}", font=font(17), fill=theme.dim,
           anchor="ls")
    d.text((ox, oy + 84), fit(preset_title(preset), 19, True, w - 36), font=font(19, True),
           fill=theme.text, anchor="lt")
    if partnership:
        for i, team in enumerate((0, 1)):
            dot = dr.rounded((14, 14), 7, dr.rgba(theme.team_colours[team]))
            img.alpha_composite(dot, (12 + w - 120 + i * 56, oy + 4))
            d.text((12 + w - 100 + i * 56, oy + 11), "AB"[team], font=font(15, True),
                   fill=theme.dim, anchor="lm")
    return img


@lru_cache(maxsize=256)
def _last_trick_box(theme: Theme, trick: TrickView, viewer: int, winner_name: str,
                    four_colour: bool) -> Image.Image:
    x0, y0, x1, y1 = LAST_BOX
    w, h = x1 - x0, y1 - y0
    img = Image.new("RGBA", (w + 24, h + 24), (0, 0, 0, 0))
    img.alpha_composite(dr.shadow((w, h), 16, theme.shadow_alpha), (0, 3))
    img.alpha_composite(dr.rounded((w, h), 16, dr.rgba(theme.panel), dr.rgba(theme.panel_border),
                                   2), (12, 12))
    d = ImageDraw.Draw(img)
    ox, oy = 12 + 18, 12 + 14
    d.text((ox, oy), "LAST TRICK", font=font(15, True), fill=theme.dim, anchor="lt")
    if trick.winner is not None:
        tw = font(15, True).getlength("LAST TRICK ")
        dr.name_text(d, (ox + tw + 4, oy), "→ " + winner_name, 15, theme.text,
                     int(w - 36 - tw - 4), "?", bold=True)
    # cards in seat order starting from the viewer, so they match the table
    by_seat = trick.by_seat()
    m = shadow_margin(MINI_W)
    cw, ch = card_size(MINI_W)
    gap = 12
    total = 4 * cw + 3 * gap
    sx = 12 + (w - total) // 2
    for i in range(4):
        seat = (viewer + i) % 4
        x = sx + i * (cw + gap)
        y = oy + 30
        code = by_seat.get(seat)
        if code is None:
            continue
        if seat == trick.winner:
            ring = dr.rounded((cw + 8, ch + 8), 9, (0, 0, 0, 0), dr.rgba(theme.accent), 3)
            img.alpha_composite(ring, (x - 4, y - 4))
        img.alpha_composite(card_shadowed(code, MINI_W, four_colour, 0.0, theme.shadow_alpha),
                            (x - m, y - m))
        label = ["you" if seat == viewer else "", "right", "across", "left"][i]
        d.text((x + cw / 2, y + ch + 6), label or "you", font=font(13), fill=theme.dim,
               anchor="mt")
    return img


@lru_cache(maxsize=64)
def _slot(theme: Theme) -> Image.Image:
    cw, ch = card_size(CARD_W)
    return dr.rounded((cw, ch), 9, dr.rgba(theme.accent, 40), dr.rgba(theme.accent), 3, dash=True)


def render_table_image(view: TableView, theme: str | Theme = "dark",
                       four_colour: bool = False) -> Image.Image:
    """The table picture as a Pillow image (see :func:`render_table` for PNG bytes)."""
    th = get_theme(theme)
    im = background(th).copy()
    d = ImageDraw.Draw(im)
    viewer = view.viewer_seat

    # the trick: each card in front of the seat that played it
    trick = view.trick
    cw, ch = card_size(CARD_W)
    m = shadow_margin(CARD_W)
    played = trick.by_seat() if trick is not None else {}
    if view.phase == "play" and view.to_act is not None and view.to_act not in played:
        px, py = TRICK_XY[position(view.to_act, viewer)]
        dr.paste(im, _slot(th), (px - cw // 2, py - ch // 2))
    if trick is not None:
        for i, code in enumerate(trick.cards):
            seat = (trick.leader + i) % 4
            px, py = TRICK_XY[position(seat, viewer)]
            if trick.winner is not None and seat == trick.winner:
                ring = dr.rounded((cw + 10, ch + 10), 11, (0, 0, 0, 0), dr.rgba(th.accent), 4)
                dr.paste(im, ring, (px - cw // 2 - 5, py - ch // 2 - 5))
            dr.paste(im, card_shadowed(code, CARD_W, four_colour, 0.0, th.shadow_alpha),
                     (px - cw // 2 - m, py - ch // 2 - m))
        if trick.cards:
            px, py = TRICK_XY[position(trick.leader, viewer)]
            tag = dr.pill("LEAD", 12, th.accent, th.accent_text, height=20, pad_x=7)
            dr.paste(im, tag, (px - tag.width // 2, py - ch // 2 - tag.height // 2))

    # seats
    for seat in range(4):
        pos = position(seat, viewer)
        line2, colour = _line2(view, seat, th)
        team = seat % 2 if view.partnership else None
        active = view.to_act == seat and view.phase != "done"
        sprite = plate(th, view.players[seat], seat, line2, colour, view.totals[seat], active,
                       view.dealer == seat, team)
        x, y = PLATE_XY[pos]
        dr.paste(im, sprite, (x - 16, y - 16))
        tags: list[Image.Image] = []
        c = view.contract
        if c is not None and c.seat == seat:
            tags.append(dr.pill(f"BID {c.bid}", 14, th.accent, th.accent_text, height=24))
        if active:
            tags.append(dr.pill("▶ " + ACTION_WORDS[view.phase].upper(), 14, th.text, th.panel,
                                height=24))
        tx = x + PLATE_W - 14
        for tag in tags:
            tx -= tag.width
            ty = y - tag.height // 2 if pos != TOP else y + PLATE_H - tag.height // 2
            dr.paste(im, tag, (tx, ty))
            tx -= 6

    # corner boxes
    c = view.contract
    trump = view.effective_trump
    fixed = "Spades are trump" if view.trump is not None and c is None else ""
    key: tuple[object, ...] = (
        view.players[c.seat].name if c else "",
        c.seat if c else None,
        c.bid if c else 0,
        c.forced if c else False,
        trump,
        view.trump_broken,
        fixed if view.trump is None else f"{SUIT_NAMES[view.trump]} are trump",
    )
    dr.paste(im, _contract_box(th, key, four_colour), (CONTRACT_BOX[0] - 12, CONTRACT_BOX[1] - 12))
    dr.paste(im, _deal_box(th, view.deal_number, view.deal_count, view.preset, view.partnership),
             (DEAL_BOX[0] - 12, DEAL_BOX[1] - 12))

    # status box (bottom left)
    dr.panel(im, STATUS_BOX, th)
    head, detail = _status(view)
    sx, sy = STATUS_BOX[0] + 18, STATUS_BOX[1] + 14
    d.text((sx, sy), "TURN" if view.phase != "done" else "STATUS", font=font(15, True),
           fill=th.dim, anchor="lt")
    room = INFO_W - 36
    if head.startswith("\0"):
        seat = int(head[1:])
        dr.paste(im, dr.player_avatar(40, view.players[seat].name, view.players[seat].initials,
                                      view.players[seat].avatar_colour, th.accent), (sx, sy + 30))
        dr.name_text(d, (sx + 52, sy + 50), view.players[seat].name, 24, th.text, room - 52,
                     seat_fallback(seat), anchor="lm")
        verb = ACTION_WORDS[view.phase]
        d.text((sx, sy + 86), f"{verb} · {detail}" if view.phase != "trump" else detail,
               font=font(18), fill=th.dim, anchor="lt")
    else:
        d.text((sx, sy + 34), head, font=font(26, True), fill=th.text, anchor="lt")
        d.text((sx, sy + 74), detail, font=font(18), fill=th.dim, anchor="lt")

    # last completed trick (bottom right)
    last = view.last_trick
    if last is not None and last.cards:
        winner_name = view.players[last.winner].name if last.winner is not None else ""
        dr.paste(im, _last_trick_box(th, last, viewer, winner_name, four_colour),
                 (LAST_BOX[0] - 12, LAST_BOX[1] - 12))
    return im


def render_table(view: TableView, theme: str | Theme = "dark", four_colour: bool = False) -> bytes:
    """PNG bytes of the table picture for ``view``."""
    return dr.to_png(render_table_image(view, theme, four_colour), get_theme(theme))
