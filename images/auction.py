"""The auction picture: calls so far by seat and round, the high bid, who is to call."""

from __future__ import annotations

from PIL import Image

from . import draw as dr
from .labels import suit_name, text_for
from .png import to_png
from .text import display_name, fit, font, wrap
from .theme import Theme, get_theme
from .views import AuctionView

W = 720
"""720 wide (taller rather than wider): a phone shows it at half size."""
MIN_TEXT = dr.phone_px(W)
"""The smallest font size drawn: 18 px, 9 px on a phone 360 px wide."""
COL_W = 168
GRID_X = (W - 4 * COL_W) // 2
HEAD_H = 150
COL_HEAD_H = 138
ROW_H = 54
FOOT_H = 100
MIN_ROWS = 2
CELL_H = 40


def auction_order(dealer: int) -> list[int]:
    """Seats in calling order: right of the dealer first, the dealer last."""
    return [(dealer + i) % 4 for i in (1, 2, 3, 4)]


def _rows(view: AuctionView) -> list[dict[int, int | None]]:
    rows: list[dict[int, int | None]] = []
    count = [0, 0, 0, 0]
    for seat, bid in view.calls:
        r = count[seat]
        count[seat] += 1
        while len(rows) <= r:
            rows.append({})
        rows[r][seat] = bid
    return rows


def render_auction_image(
    view: AuctionView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    th = get_theme(theme)
    rows = _rows(view)
    next_row = None
    if view.to_act is not None:
        next_row = sum(1 for s, _ in view.calls if s == view.to_act)
    n_rows = max(MIN_ROWS, len(rows), (next_row + 1) if next_row is not None else 0)
    height = HEAD_H + COL_HEAD_H + n_rows * ROW_H + FOOT_H + 24
    im, d = dr.canvas((W, height), th)

    # header: title left, high bid right
    from .table import preset_title, seat_fallback

    sub = text_for(lang, "img.deal_sub", n=view.deal_number, count=view.deal_count)
    sub += f" · {preset_title(view.preset, lang)}"
    box = (W - GRID_X - 300, 22, W - GRID_X - 6, 130)
    dr.label(d, (GRID_X + 8, 26), text_for(lang, "img.auction"), th, MIN_TEXT)
    dr.heading(
        d, (GRID_X + 8, 56), text_for(lang, "img.bidding"), sub, th, box[0] - GRID_X - 24, 20
    )
    high = view.high
    dr.panel(im, box, th)
    dr.label(d, (box[0] + 18, box[1] + 12), text_for(lang, "img.high_bid"), th, MIN_TEXT)
    if high is None:
        d.text(
            (box[0] + 18, box[1] + 40),
            text_for(lang, "img.none_yet"),
            font=font(30, True),
            fill=th.faint,
            anchor="lt",
        )
    else:
        seat, bid = high
        d.text(
            (box[0] + 18, box[1] + 42), str(bid), font=font(50, True), fill=th.accent, anchor="lt"
        )
        bw = font(50, True).getlength(str(bid))
        dr.paste(
            im,
            dr.player_avatar(
                48,
                view.players[seat].name,
                view.players[seat].initials,
                view.players[seat].avatar_colour,
            ),
            (box[0] + 30 + bw, box[1] + 44),
        )
        dr.name_text(
            d,
            (box[0] + 88 + bw, box[1] + 68),
            view.players[seat].name,
            22,
            th.text,
            int(box[2] - box[0] - 102 - bw),
            seat_fallback(seat, lang),
            anchor="lm",
        )

    # column heads, in calling order
    order = auction_order(view.dealer)
    top = HEAD_H
    for col, seat in enumerate(order):
        x0 = GRID_X + col * COL_W + 6
        x1 = x0 + COL_W - 12
        active = seat == view.to_act
        p = view.players[seat]
        if active:
            dr.paste(
                im, dr.glow((x1 - x0, COL_HEAD_H - 12), 16, th.accent, 12, 170), (x0 - 12, top - 12)
            )
        dr.panel(
            im,
            (x0, top, x1, top + COL_HEAD_H - 12),
            th,
            outline=th.accent if active else None,
            width=3 if active else 2,
            with_shadow=not active,
        )
        mid = (x0 + x1) // 2
        avatar = dr.player_avatar(48, p.name, p.initials, p.avatar_colour)
        dr.paste(im, avatar, (mid - 24, top + 10))
        tags = []
        if seat == view.dealer:
            tags.append(text_for(lang, "img.dealer"))
        if view.partnership:
            tags.append(text_for(lang, "img.team", t="AB"[seat % 2]))
        if seat == view.viewer_seat and not view.spectator:
            tags.append(text_for(lang, "img.pos.0"))
        dr.name_text(
            d,
            (mid, top + 76),
            p.name,
            20,
            th.text,
            x1 - x0 - 16,
            seat_fallback(seat, lang),
            anchor="mm",
        )
        if tags:
            tag = fit(" · ".join(tags), MIN_TEXT, False, x1 - x0 - 12)
            d.text((mid, top + 100), tag, font=font(MIN_TEXT), fill=th.dim, anchor="mm")
        if view.partnership:
            stripe = dr.rounded((x1 - x0 - 24, 5), 2, dr.rgba(th.team_colours[seat % 2]))
            dr.paste(im, stripe, (x0 + 12, top + COL_HEAD_H - 22))

    # the calls, one row per round
    gy = top + COL_HEAD_H
    for r in range(n_rows):
        y = gy + r * ROW_H
        if r % 2 == 0:
            d.rectangle((GRID_X + 6, y, W - GRID_X - 6, y + ROW_H - 1), fill=th.row_alt)
        for col, seat in enumerate(order):
            cx = GRID_X + col * COL_W + COL_W // 2
            cy = y + ROW_H // 2
            if r < len(rows) and seat in rows[r]:
                call = rows[r][seat]
                if call is None:
                    sprite = dr.pill(
                        text_for(lang, "img.pass"),
                        18,
                        th.panel_border,
                        th.dim,
                        bold=False,
                        height=CELL_H,
                        pad_x=26,
                    )
                else:
                    is_high = high is not None and high == (seat, call)
                    fill = th.accent if is_high else th.panel
                    ink = th.accent_text if is_high else th.text
                    sprite = dr.pill(str(call), 22, fill, ink, height=CELL_H, pad_x=30)
                dr.paste(im, sprite, (cx - sprite.width // 2, cy - sprite.height // 2))
            elif next_row == r and seat == view.to_act:
                slot = dr.rounded(
                    (96, CELL_H),
                    CELL_H // 2,
                    dr.rgba(th.accent, 40),
                    dr.rgba(th.accent),
                    2,
                    dash=True,
                )
                dr.paste(im, slot, (cx - 48, cy - CELL_H // 2))
                d.text((cx, cy), "?", font=font(22, True), fill=th.accent, anchor="mm")

    # footer: who is to call (or who holds the contract), then the rules that matter
    fy = gy + n_rows * ROW_H + 14
    t = None
    if view.to_act is None and view.contract is not None:
        c = view.contract
        who = display_name(view.players[c.seat].name, 20, True, 220, seat_fallback(c.seat, lang))
        t = text_for(lang, "img.holds", name=who, n=c.bid)
    elif view.to_act is not None:
        p = view.players[view.to_act]
        msg = display_name(p.name, 20, True, 260, seat_fallback(view.to_act, lang))
        t = text_for(lang, "img.to_call", name=msg)
    if t is not None:
        pill = dr.pill(
            fit(t, 20, True, W - 2 * GRID_X - 48),
            20,
            th.accent,
            th.accent_text,
            height=36,
            pad_x=16,
        )
        dr.paste(im, pill, (W - GRID_X - 8 - pill.width, fy))
    bits = [text_for(lang, "img.min_bid", n=view.min_bid)]
    if view.forced_bid is not None:
        bits.append(text_for(lang, "img.all_pass_forced", n=view.forced_bid))
    else:
        bits.append(text_for(lang, "img.all_pass_must"))
    if view.fixed_trump is not None:
        bits.append(text_for(lang, "img.always_trump", suit=suit_name(lang, view.fixed_trump)))
    if view.blind:
        bits.append(text_for(lang, "img.blind"))
    lines = wrap(" · ".join(bits), MIN_TEXT, False, W - 2 * GRID_X - 16, 2)
    for k, line in enumerate(lines):
        d.text((GRID_X + 8, fy + 62 + 26 * k), line, font=font(MIN_TEXT), fill=th.dim, anchor="lm")
    return im


def render_auction(view: AuctionView, theme: str | Theme = "dark", lang: str = "en") -> bytes:
    """PNG bytes of the auction picture (720 wide)."""
    return to_png(render_auction_image(view, theme, lang), get_theme(theme))
