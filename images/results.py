"""Deal summary and match result pictures."""

from __future__ import annotations

from PIL import Image, ImageDraw

from batak import scoring

from . import draw as dr
from .labels import suit_name, text_for, upper
from .png import to_png
from .text import display_name, draw_text, font
from .theme import Theme, get_theme
from .views import ContractView, DealSummaryView, MatchResultView, Player

W = 960
PAD = 36


def _contract_line(players: tuple[Player, ...], c: ContractView | None, lang: str) -> str:
    if c is None:
        return text_for(lang, "img.no_contract")
    from .table import seat_fallback

    who = display_name(players[c.seat].name, 18, False, 300, seat_fallback(c.seat, lang))
    trump = text_for(lang, "img.trump_line", suit=suit_name(lang, c.trump)) if c.trump else ""
    forced = text_for(lang, "img.forced_paren") if c.forced else ""
    return text_for(lang, "img.contract_line", name=who, n=c.bid) + forced + trump


def render_deal_summary_image(
    view: DealSummaryView, theme: str | Theme = "dark", four_colour: bool = False, lang: str = "en"
) -> Image.Image:
    from .table import preset_title, seat_fallback

    th = get_theme(theme)
    row_h = 70
    head_h = 150
    height = head_h + 50 + 4 * row_h + 40
    hands_top = height - 16
    if view.hands:
        height = hands_top + HANDS_HEAD + 4 * HAND_ROW + 24
    im, d = dr.canvas((W, height), th)
    c = view.contract
    head = text_for(lang, "img.deal_head", n=view.deal_number, count=view.deal_count)
    dr.label(d, (PAD, 30), f"{head} · {upper(lang, preset_title(view.preset, lang))}", th)
    holder_made = view.made(c.seat) if c is not None else None
    title = text_for(lang, "img.deal_over")
    if c is not None:
        who = display_name(view.players[c.seat].name, 30, True, 440, seat_fallback(c.seat, lang))
        title = text_for(lang, "img.made_it" if holder_made else "img.went_down", name=who)
    dr.heading(d, (PAD, 54), title, _contract_line(view.players, c, lang), th, 600)
    if c is not None:
        badge_fill = th.good if holder_made else th.bad
        word = text_for(lang, "img.made_badge" if holder_made else "img.down_badge")
        badge = dr.pill(word, 24, badge_fill, (255, 255, 255), height=52, pad_x=26)
        bx = W - PAD - badge.width
        dr.paste(im, badge, (bx, 48))
        if c.trump is not None:
            dr.paste(im, dr.suit_chip(c.trump, 52, four_colour, th.panel_border), (bx - 68, 48))

    # table of seats
    cols = [
        ("img.col.player", PAD + 16, "la"),
        ("img.col.contract", 470, "ma"),
        ("img.col.tricks", 590, "ma"),
        ("img.col.result", 700, "ma"),
        ("img.col.deal", 810, "ra"),
        ("img.col.total", W - PAD - 16, "ra"),
    ]
    ty = head_h
    dr.panel(im, (PAD, ty, W - PAD, ty + 50 + 4 * row_h + 8), th)
    for name, x, anchor in cols:
        d.text((x, ty + 18), text_for(lang, name), font=font(15, True), fill=th.dim, anchor=anchor)
    order = [(view.dealer + i) % 4 for i in (1, 2, 3, 4)]
    best_total = max(view.totals)
    for r, seat in enumerate(order):
        y = ty + 50 + r * row_h
        if r % 2 == 0:
            d.rectangle((PAD + 2, y, W - PAD - 3, y + row_h - 1), fill=th.row_alt)
        p = view.players[seat]
        cy = y + row_h // 2
        x = PAD + 16
        if view.partnership:
            stripe = dr.rounded((6, row_h - 24), 3, dr.rgba(th.team_colours[seat % 2]))
            dr.paste(im, stripe, (PAD + 8, y + 12))
            x += 8
        dr.paste(im, dr.player_avatar(44, p.name, p.initials, p.avatar_colour), (x, cy - 22))
        is_holder = c is not None and c.seat == seat
        sub = (
            text_for(lang, "img.holder")
            if is_holder
            else (text_for(lang, "img.dealer") if seat == view.dealer else "")
        )
        if view.partnership:
            team = text_for(lang, "img.team", t="AB"[seat % 2])
            sub = team + (" · " + sub if sub else "")
        dr.name_text(
            d,
            (x + 56, cy - 10 if sub else cy),
            p.name,
            22,
            th.text,
            470 - 60 - (x + 56) - 10,
            seat_fallback(seat, lang),
            anchor="lm",
        )
        d.text(
            (x + 56, cy + 14),
            sub,
            font=font(15),
            fill=th.accent if is_holder else th.dim,
            anchor="lm",
        )
        target = view.targets[seat]
        d.text(
            (470, cy),
            "–" if target is None else str(target),
            font=font(24, True),
            fill=th.accent if is_holder else th.text,
            anchor="mm",
        )
        tricks = str(view.tricks_won[seat])
        if view.partnership:
            tricks += f" ({view.team_tricks(seat)})"
        d.text((590, cy), tricks, font=font(24, True), fill=th.text, anchor="mm")
        made = view.made(seat)
        if made is None:
            d.text((700, cy), "–", font=font(22), fill=th.faint, anchor="mm")
        else:
            word = text_for(lang, "img.made" if made else "img.down")
            tag = dr.pill(
                word, 16, th.good if made else th.bad, (255, 255, 255), height=28, pad_x=12
            )
            dr.paste(im, tag, (700 - tag.width // 2, cy - 14))
        score = view.scores[seat]
        d.text(
            (810, cy),
            ("+" if score > 0 else "") + dr.signed(score),
            font=font(24, True),
            fill=th.good if score > 0 else (th.bad if score < 0 else th.dim),
            anchor="rm",
        )
        total = view.totals[seat]
        d.text(
            (W - PAD - 16, cy),
            dr.signed(total),
            font=font(24, True),
            fill=th.accent if total == best_total else th.text,
            anchor="rm",
        )
    if view.hands:
        _dealt_hands(im, view, hands_top, th, four_colour, lang)
    return im


HANDS_HEAD = 44
HAND_ROW = 92
HAND_CARD = 50


def _dealt_hands(
    im: Image.Image, view: DealSummaryView, top: int, th: Theme, four_colour: bool, lang: str
) -> None:
    """The four hands as dealt, a row each in the seats' order of the table above."""
    from .cards import card_face
    from .table import seat_fallback

    d = ImageDraw.Draw(im)
    dr.panel(im, (PAD, top, W - PAD, top + HANDS_HEAD + 4 * HAND_ROW + 8), th)
    d.text(
        (PAD + 16, top + 16),
        text_for(lang, "img.hands_dealt"),
        font=font(15, True),
        fill=th.dim,
        anchor="la",
    )
    name_w = 170
    left = PAD + 16 + name_w
    for r, seat in enumerate((view.dealer + i) % 4 for i in (1, 2, 3, 4)):
        y = top + HANDS_HEAD + r * HAND_ROW
        if r % 2 == 0:
            d.rectangle((PAD + 2, y, W - PAD - 3, y + HAND_ROW - 1), fill=th.row_alt)
        dr.name_text(
            d,
            (PAD + 16, y + HAND_ROW // 2),
            view.players[seat].name,
            20,
            th.text,
            name_w - 12,
            seat_fallback(seat, lang),
            anchor="lm",
        )
        codes = view.hands[seat]
        room = W - PAD - 16 - left - HAND_CARD
        step = min(HAND_CARD + 4, room // max(1, len(codes) - 1)) if len(codes) > 1 else 0
        for i, code in enumerate(codes):
            face = card_face(code, HAND_CARD, four_colour)
            dr.paste(im, face, (left + i * step, y + (HAND_ROW - face.height) // 2))


def render_deal_summary(
    view: DealSummaryView, theme: str | Theme = "dark", four_colour: bool = False, lang: str = "en"
) -> bytes:
    """PNG bytes of the end-of-deal summary (960 wide)."""
    return to_png(render_deal_summary_image(view, theme, four_colour, lang), get_theme(theme))


def render_match_result_image(
    view: MatchResultView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    from .table import preset_title, seat_fallback

    th = get_theme(theme)
    n = len(view.deal_scores)
    row_h = 34 if n <= 12 else 28
    podium_h = 130
    head_h = 150
    grid_top = head_h + podium_h + 30
    height = grid_top + 46 + max(n, 1) * row_h + 16 + 46 + 30
    im, d = dr.canvas((W, height), th)
    winners = [w for w in view.winners if 0 <= w <= 3]
    running = not winners
    dr.label(
        d, (PAD, 30), text_for(lang, "img.match_so_far" if running else "img.match_result"), th
    )

    def name(seat: int, width: int) -> str:
        return display_name(view.players[seat].name, 30, True, width, seat_fallback(seat, lang))

    partners = len(winners) == 2 and scoring.same_side(view, winners[0], winners[1])
    if len(winners) == 1 or partners:
        w = winners[0]
        title = text_for(lang, "img.wins", name=name(w, 560))
        if view.partnership:
            mate = scoring.partner(w)
            title = text_for(
                lang, "img.team_wins", t="AB"[w % 2], a=name(w, 240), b=name(mate, 240)
            )
    elif winners:
        title = text_for(lang, "img.shared_win")
    else:
        title = text_for(lang, "img.standings")
    sub = preset_title(view.preset, lang) + " · " + text_for(lang, "img.n_deals", n=n)
    if n > view.deal_count:
        sub += text_for(lang, "img.extra", n=n - view.deal_count)
    dr.heading(d, (PAD, 54), title, sub, th, W - 2 * PAD - 140)
    if winners:
        trophy = dr.pill("★", 40, th.accent, th.accent_text, height=76)
        dr.paste(im, trophy, (W - PAD - trophy.width, 36))

    # podium: seats ranked by total
    ranked = sorted(range(4), key=lambda s: (-view.totals[s], s))
    places = scoring.placements(view.totals, partnership=view.partnership)
    card_w = (W - 2 * PAD - 3 * 16) // 4
    for i, seat in enumerate(ranked):
        x0 = PAD + i * (card_w + 16)
        y0 = head_h
        win = seat in winners
        if win:
            dr.paste(im, dr.glow((card_w, podium_h), 16, th.accent, 12, 170), (x0 - 12, y0 - 12))
        dr.panel(
            im,
            (x0, y0, x0 + card_w, y0 + podium_h),
            th,
            outline=th.accent if win else None,
            width=3 if win else 2,
            with_shadow=not win,
        )
        p = view.players[seat]
        rank = places[seat]
        d.text(
            (x0 + 16, y0 + 14),
            f"#{rank}",
            font=font(20, True),
            fill=th.accent if rank == 1 else th.dim,
            anchor="lt",
        )
        dr.paste(
            im,
            dr.player_avatar(48, p.name, p.initials, p.avatar_colour),
            (x0 + card_w - 64, y0 + 12),
        )
        dr.name_text(
            d,
            (x0 + 16, y0 + 80),
            p.name,
            20,
            th.text,
            card_w - 32,
            seat_fallback(seat, lang),
            anchor="lm",
        )
        d.text(
            (x0 + 16, y0 + 110),
            dr.signed(view.totals[seat]),
            font=font(26, True),
            fill=th.text,
            anchor="lm",
        )
        if view.partnership:
            stripe = dr.rounded((card_w - 32, 5), 2, dr.rgba(th.team_colours[seat % 2]))
            dr.paste(im, stripe, (x0 + 16, y0 + 62))

    # per-deal grid
    gx0, gx1 = PAD, W - PAD
    dr.panel(im, (gx0, grid_top, gx1, height - 24), th)
    first_col = gx0 + 150
    col_w = (gx1 - 16 - first_col) // 4
    d.text(
        (gx0 + 18, grid_top + 24),
        text_for(lang, "img.col.deal"),
        font=font(15, True),
        fill=th.dim,
        anchor="lm",
    )
    for seat in range(4):
        cx = first_col + seat * col_w + col_w // 2
        nm = display_name(view.players[seat].name, 16, True, col_w - 16, seat_fallback(seat, lang))
        draw_text(d, (cx, grid_top + 24), nm, 16, th.text, True, "mm")
    y = grid_top + 46
    for i, row in enumerate(view.deal_scores):
        ry = y + i * row_h
        if i % 2 == 0:
            d.rectangle((gx0 + 2, ry, gx1 - 3, ry + row_h - 1), fill=th.row_alt)
        extra = i >= view.deal_count
        d.text(
            (gx0 + 18, ry + row_h // 2),
            f"{i + 1}{' +' if extra else ''}",
            font=font(17),
            fill=th.dim,
            anchor="lm",
        )
        c = view.contracts[i] if i < len(view.contracts) else None
        for seat in range(4):
            cx = first_col + seat * col_w + col_w // 2
            v = row[seat]
            colour = th.good if v > 0 else (th.bad if v < 0 else th.dim)
            bold = c is not None and c.seat == seat
            txt = dr.signed(v)
            d.text((cx, ry + row_h // 2), txt, font=font(18, bold), fill=colour, anchor="mm")
            if bold and c is not None:
                tw = font(18, True).getlength(txt)
                d.text(
                    (cx + tw / 2 + 6, ry + row_h // 2),
                    f"({c.bid}{'!' if c.forced else ''})",
                    font=font(13),
                    fill=th.dim,
                    anchor="lm",
                )
    ty = y + max(n, 1) * row_h + 8
    d.line((gx0 + 12, ty, gx1 - 12, ty), fill=th.panel_border, width=2)
    d.text(
        (gx0 + 18, ty + 22),
        text_for(lang, "img.col.total"),
        font=font(15, True),
        fill=th.dim,
        anchor="lm",
    )
    for seat in range(4):
        cx = first_col + seat * col_w + col_w // 2
        d.text(
            (cx, ty + 22),
            dr.signed(view.totals[seat]),
            font=font(20, True),
            fill=th.accent if seat in winners else th.text,
            anchor="mm",
        )
    return im


def render_match_result(
    view: MatchResultView, theme: str | Theme = "dark", lang: str = "en"
) -> bytes:
    """PNG bytes of the match result (or standings so far, when there is no winner yet)."""
    return to_png(render_match_result_image(view, theme, lang), get_theme(theme))
