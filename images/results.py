"""Deal summary and match result pictures."""

from __future__ import annotations

from PIL import Image, ImageDraw

from batak import scoring

from . import draw as dr
from .labels import suit_name, text_for, upper
from .png import to_png
from .text import clean, display_name, draw_text, fit, fit_size, font, wrap
from .theme import Theme, get_theme
from .views import ContractView, DealSummaryView, MatchResultView, Player, rank_label

W = 720
"""Both pictures are 720 wide (taller rather than wider) so Discord's phone view, 360 px
wide, shows them at half size."""
PAD = 24
MIN_TEXT = dr.phone_px(W)
"""The smallest font size drawn: 18 px here, 9 px on a phone."""
NUM = 26  # the numbers of the seats' table


def _contract_line(players: tuple[Player, ...], c: ContractView | None, lang: str) -> str:
    if c is None:
        return text_for(lang, "img.no_contract")
    from .table import seat_fallback

    who = display_name(players[c.seat].name, 20, False, 300, seat_fallback(c.seat, lang))
    trump = text_for(lang, "img.trump_line", suit=suit_name(lang, c.trump)) if c.trump else ""
    forced = text_for(lang, "img.forced_paren") if c.forced else ""
    return text_for(lang, "img.contract_line", name=who, n=c.bid) + forced + trump


ROW_H = 76
TABLE_HEAD = 48
HEAD_H = 146
# the seats' table: the player (avatar, name, result and role under it), then four
# number columns, each (label key, centre x, room for its label)
X_TOTAL = W - PAD - 16 - 46
COLS = (
    ("img.col.contract", X_TOTAL - 3 * 92 - 12, 116),
    ("img.col.tricks", X_TOTAL - 2 * 92, 88),
    ("img.col.deal", X_TOTAL - 92, 88),
    ("img.col.total", X_TOTAL, 90),
)
NAME_X = PAD + 16 + 58
NAME_ROOM = COLS[0][1] - COLS[0][2] // 2 - 10 - NAME_X


def _column_label(
    d: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    key: str,
    room: int,
    th: Theme,
    lang: str,
    anchor: str = "mm",
) -> None:
    text = text_for(lang, key)
    size = fit_size(text, MIN_TEXT, True, room, MIN_TEXT)
    d.text(xy, fit(text, size, True, room), font=font(size, True), fill=th.dim, anchor=anchor)


def render_deal_summary_image(
    view: DealSummaryView, theme: str | Theme = "dark", four_colour: bool = False, lang: str = "en"
) -> Image.Image:
    from .table import preset_title, seat_fallback

    th = get_theme(theme)
    table_bottom = HEAD_H + TABLE_HEAD + 4 * ROW_H + 8
    height = table_bottom + 24
    if view.hands:
        height = table_bottom + 16 + HANDS_HEAD + 2 * HAND_H + HAND_GAP + 16 + 24
    im, d = dr.canvas((W, height), th)
    c = view.contract
    head = text_for(lang, "img.deal_head", n=view.deal_number, count=view.deal_count)
    dr.label(d, (PAD, 26), f"{head} · {upper(lang, preset_title(view.preset, lang))}", th, MIN_TEXT)
    holder_made = view.made(c.seat) if c is not None else None
    title = text_for(lang, "img.deal_over")
    badge_left = W - PAD
    if c is not None:
        badge_fill = th.good if holder_made else th.bad
        word = text_for(lang, "img.made_badge" if holder_made else "img.down_badge")
        badge = dr.pill(
            fit(word, 22, True, 150), 22, badge_fill, (255, 255, 255), height=48, pad_x=20
        )
        badge_left = W - PAD - badge.width
        dr.paste(im, badge, (badge_left, 54))
        if c.trump is not None:
            badge_left -= 60
            dr.paste(im, dr.suit_chip(c.trump, 48, four_colour, th.panel_border), (badge_left, 54))
    room = badge_left - 16 - PAD
    if c is not None:
        who = display_name(
            view.players[c.seat].name, 30, True, room // 2, seat_fallback(c.seat, lang)
        )
        title = text_for(lang, "img.made_it" if holder_made else "img.went_down", name=who)
    dr.heading(d, (PAD, 56), title, _contract_line(view.players, c, lang), th, room, 20)

    # the seats' table
    ty = HEAD_H
    dr.panel(im, (PAD, ty, W - PAD, table_bottom), th)
    _column_label(
        d, (PAD + 16, ty + TABLE_HEAD // 2), "img.col.player", NAME_ROOM + 52, th, lang, "lm"
    )
    for key, x, label_room in COLS:
        _column_label(d, (x, ty + TABLE_HEAD // 2), key, label_room, th, lang)
    order = [(view.dealer + i) % 4 for i in (1, 2, 3, 4)]
    best_total = max(view.totals)
    for r, seat in enumerate(order):
        y = ty + TABLE_HEAD + r * ROW_H
        if r % 2 == 0:
            d.rectangle((PAD + 2, y, W - PAD - 3, y + ROW_H - 1), fill=th.row_alt)
        p = view.players[seat]
        cy = y + ROW_H // 2
        x = PAD + 16
        if view.partnership:
            stripe = dr.rounded((6, ROW_H - 24), 3, dr.rgba(th.team_colours[seat % 2]))
            dr.paste(im, stripe, (PAD + 6, y + 12))
        dr.paste(im, dr.player_avatar(48, p.name, p.initials, p.avatar_colour), (x, cy - 24))
        is_holder = c is not None and c.seat == seat
        dr.name_text(
            d,
            (NAME_X, cy - 14),
            p.name,
            22,
            th.text,
            NAME_ROOM,
            seat_fallback(seat, lang),
            anchor="lm",
            smallest=MIN_TEXT,
        )
        # under the name: made or down, then the seat's role (contract, dealer, team)
        sx = NAME_X
        made = view.made(seat)
        if made is not None:
            word = text_for(lang, "img.made" if made else "img.down")
            tag = dr.pill(
                word, MIN_TEXT, th.good if made else th.bad, (255, 255, 255), height=26, pad_x=9
            )
            dr.paste(im, tag, (sx, cy + 2))
            sx += tag.width + 8
        role = (
            text_for(lang, "img.holder")
            if is_holder
            else (text_for(lang, "img.dealer") if seat == view.dealer else "")
        )
        if view.partnership:
            team = text_for(lang, "img.team", t="AB"[seat % 2])
            role = team + (" · " + role if role else "")
        if role:
            d.text(
                (sx, cy + 15),
                fit(role, MIN_TEXT, False, NAME_X + NAME_ROOM - sx),
                font=font(MIN_TEXT),
                fill=th.accent if is_holder else th.dim,
                anchor="lm",
            )
        target = view.targets[seat]
        tricks = str(view.tricks_won[seat])
        if view.partnership:
            tricks += f" ({view.team_tricks(seat)})"
        score = view.scores[seat]
        total = view.totals[seat]
        cells = (
            ("–" if target is None else str(target), th.accent if is_holder else th.text),
            (tricks, th.text),
            (
                ("+" if score > 0 else "") + dr.signed(score),
                th.good if score > 0 else (th.bad if score < 0 else th.dim),
            ),
            (dr.signed(total), th.accent if total == best_total else th.text),
        )
        for (_, cx, label_room), (txt, colour) in zip(COLS, cells, strict=True):
            size = fit_size(txt, NUM, True, label_room + 4, MIN_TEXT)
            d.text((cx, cy), txt, font=font(size, True), fill=colour, anchor="mm")
    if view.hands:
        _dealt_hands(im, view, table_bottom + 16, th, four_colour, lang)
    return im


HANDS_HEAD = 40
HAND_GAP = 12
SUIT_ROW = 32
HAND_H = 46 + 4 * SUIT_ROW + 8
HAND_W = (W - 2 * PAD - HAND_GAP) // 2
INK = (28, 30, 34)


def _dealt_hands(
    im: Image.Image, view: DealSummaryView, top: int, th: Theme, four_colour: bool, lang: str
) -> None:
    """The four hands as dealt, two by two in the seats' order of the table above: each a
    white card-like panel with the seat's name and a row of ranks per suit (the trump
    suit's row marked)."""
    from batak.cards import HAND_SUIT_ORDER

    from .cards import FACE, FACE_EDGE, suit_colour
    from .table import seat_fallback

    d = ImageDraw.Draw(im)
    d.text(
        (PAD, top + HANDS_HEAD // 2),
        fit(text_for(lang, "img.hands_dealt"), MIN_TEXT, True, W - 2 * PAD),
        font=font(MIN_TEXT, True),
        fill=th.dim,
        anchor="lm",
    )
    trump = view.contract.trump if view.contract is not None else None
    for r, seat in enumerate((view.dealer + i) % 4 for i in (1, 2, 3, 4)):
        x = PAD + (r % 2) * (HAND_W + HAND_GAP)
        y = top + HANDS_HEAD + (r // 2) * (HAND_H + HAND_GAP)
        dr.paste(im, dr.shadow((HAND_W, HAND_H), 12, th.shadow_alpha), (x - 12, y - 9))
        dr.paste(im, dr.rounded((HAND_W, HAND_H), 12, dr.rgba(FACE), dr.rgba(FACE_EDGE), 2), (x, y))
        if view.partnership:
            stripe = dr.rounded((HAND_W - 28, 5), 2, dr.rgba(th.team_colours[seat % 2]))
            dr.paste(im, stripe, (x + 14, y + 38))
        dr.name_text(
            d,
            (x + 14, y + 10),
            view.players[seat].name,
            20,
            INK,
            HAND_W - 28,
            seat_fallback(seat, lang),
            smallest=MIN_TEXT,
        )
        codes = view.hands[seat]
        for row, suit in enumerate(s.letter for s in HAND_SUIT_ORDER):
            ry = y + 46 + row * SUIT_ROW
            if suit == trump:
                band = dr.rounded((HAND_W - 12, SUIT_ROW - 2), 8, dr.rgba(th.accent, 70))
                dr.paste(im, band, (x + 6, ry))
            dr.paste(im, dr.suit_chip(suit, 26, four_colour, FACE_EDGE), (x + 12, ry + 2))
            ranks = " ".join(rank_label(code) for code in codes if code[1] == suit)
            room = HAND_W - 48 - 12
            size = fit_size(ranks or "–", 20, True, room, MIN_TEXT)
            d.text(
                (x + 48, ry + SUIT_ROW // 2 - 1),
                fit(ranks, size, True, room) if ranks else "–",
                font=font(size, True),
                fill=suit_colour(suit, four_colour) if ranks else FACE_EDGE,
                anchor="lm",
            )


def render_deal_summary(
    view: DealSummaryView, theme: str | Theme = "dark", four_colour: bool = False, lang: str = "en"
) -> bytes:
    """PNG bytes of the end-of-deal summary (720 wide)."""
    return to_png(render_deal_summary_image(view, theme, four_colour, lang), get_theme(theme))


def render_match_result_image(
    view: MatchResultView, theme: str | Theme = "dark", lang: str = "en"
) -> Image.Image:
    from .table import preset_title, seat_fallback

    th = get_theme(theme)
    n = len(view.deal_scores)
    row_h = 36
    podium_h = 132
    head_h = 146
    grid_top = head_h + podium_h + 28
    grid_head = 62
    height = grid_top + grid_head + max(n, 1) * row_h + 16 + 46 + 24
    im, d = dr.canvas((W, height), th)
    winners = [w for w in view.winners if 0 <= w <= 3]
    running = not winners
    dr.label(
        d,
        (PAD, 26),
        text_for(lang, "img.match_so_far" if running else "img.match_result"),
        th,
        MIN_TEXT,
    )

    def name(seat: int, width: int) -> str:
        return display_name(view.players[seat].name, 30, True, width, seat_fallback(seat, lang))

    partners = len(winners) == 2 and scoring.same_side(view, winners[0], winners[1])
    if len(winners) == 1 or partners:
        w = winners[0]
        title = text_for(lang, "img.wins", name=name(w, 440))
        if view.partnership:
            mate = scoring.partner(w)
            title = text_for(
                lang, "img.team_wins", t="AB"[w % 2], a=name(w, 200), b=name(mate, 200)
            )
    elif winners:
        title = text_for(lang, "img.shared_win")
    else:
        title = text_for(lang, "img.standings")
    sub = preset_title(view.preset, lang) + " · " + text_for(lang, "img.n_deals", n=n)
    if n > view.deal_count:
        sub += text_for(lang, "img.extra", n=n - view.deal_count)
    dr.heading(d, (PAD, 56), title, sub, th, W - 2 * PAD - 100, 20)
    if winners:
        trophy = dr.pill("★", 36, th.accent, th.accent_text, height=68)
        dr.paste(im, trophy, (W - PAD - trophy.width, 38))

    # podium: seats ranked by total
    ranked = sorted(range(4), key=lambda s: (-view.totals[s], s))
    places = scoring.placements(view.totals, partnership=view.partnership)
    gap = 12
    card_w = (W - 2 * PAD - 3 * gap) // 4
    for i, seat in enumerate(ranked):
        x0 = PAD + i * (card_w + gap)
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
            (x0 + 14, y0 + 14),
            f"#{rank}",
            font=font(24, True),
            fill=th.accent if rank == 1 else th.dim,
            anchor="lt",
        )
        dr.paste(
            im,
            dr.player_avatar(48, p.name, p.initials, p.avatar_colour),
            (x0 + card_w - 60, y0 + 12),
        )
        shown = clean(p.name, seat_fallback(seat, lang))
        size = fit_size(shown, 20, True, card_w - 24, MIN_TEXT)
        dr.name_text(
            d,
            (x0 + 14, y0 + 82),
            p.name,
            size,
            th.text,
            card_w - 24,
            seat_fallback(seat, lang),
            anchor="lm",
        )
        d.text(
            (x0 + 14, y0 + 112),
            dr.signed(view.totals[seat]),
            font=font(28, True),
            fill=th.text,
            anchor="lm",
        )
        if view.partnership:
            stripe = dr.rounded((card_w - 28, 5), 2, dr.rgba(th.team_colours[seat % 2]))
            dr.paste(im, stripe, (x0 + 14, y0 + 64))

    # per-deal grid
    gx0, gx1 = PAD, W - PAD
    dr.panel(im, (gx0, grid_top, gx1, height - 24), th)
    first_col = gx0 + 100
    col_w = (gx1 - 12 - first_col) // 4
    label = text_for(lang, "img.col.deal")
    d.text(
        (gx0 + 16, grid_top + grid_head // 2),
        fit(label, MIN_TEXT, True, first_col - gx0 - 20),
        font=font(MIN_TEXT, True),
        fill=th.dim,
        anchor="lm",
    )
    for seat in range(4):
        cx = first_col + seat * col_w + col_w // 2
        # a name on up to two lines (at its word breaks), so it stays legible
        nm = clean(view.players[seat].name, seat_fallback(seat, lang))
        lines = wrap(nm, MIN_TEXT, True, col_w - 12, 2)
        for k, line in enumerate(lines):
            ly = grid_top + grid_head // 2 + (k - (len(lines) - 1) / 2) * 23
            draw_text(d, (cx, ly), line, MIN_TEXT, th.text, True, "mm")
    y = grid_top + grid_head
    for i, row in enumerate(view.deal_scores):
        ry = y + i * row_h
        if i % 2 == 0:
            d.rectangle((gx0 + 2, ry, gx1 - 3, ry + row_h - 1), fill=th.row_alt)
        extra = i >= view.deal_count
        d.text(
            (gx0 + 18, ry + row_h // 2),
            f"{i + 1}{' +' if extra else ''}",
            font=font(20),
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
            note = f"({c.bid}{'!' if c.forced else ''})" if bold and c is not None else ""
            # the score centred in its column, the contract's bid note after it
            tw = font(20, bold).getlength(txt)
            nw = font(MIN_TEXT).getlength(note) + 7
            sx = cx - (tw + nw) / 2 if note else cx - tw / 2
            d.text((sx, ry + row_h // 2), txt, font=font(20, bold), fill=colour, anchor="lm")
            if note:
                d.text(
                    (sx + tw + 7, ry + row_h // 2),
                    note,
                    font=font(MIN_TEXT),
                    fill=th.dim,
                    anchor="lm",
                )
    ty = y + max(n, 1) * row_h + 8
    d.line((gx0 + 12, ty, gx1 - 12, ty), fill=th.panel_border, width=2)
    d.text(
        (gx0 + 18, ty + 22),
        fit(text_for(lang, "img.col.total"), MIN_TEXT, True, first_col - gx0 - 20),
        font=font(MIN_TEXT, True),
        fill=th.dim,
        anchor="lm",
    )
    for seat in range(4):
        cx = first_col + seat * col_w + col_w // 2
        d.text(
            (cx, ty + 22),
            dr.signed(view.totals[seat]),
            font=font(22, True),
            fill=th.accent if seat in winners else th.text,
            anchor="mm",
        )
    return im


def render_match_result(
    view: MatchResultView, theme: str | Theme = "dark", lang: str = "en"
) -> bytes:
    """PNG bytes of the match result (or standings so far, when there is no winner yet)."""
    return to_png(render_match_result_image(view, theme, lang), get_theme(theme))
