"""The buttons of a message: the table message's and a hand's."""

from __future__ import annotations

import functools
import itertools
from typing import Any

import discord

from batak import PASS, PLAYS, Bid, ChooseTrump, Pass, Play, card_code
from batak.cards import SUITS
from batak.deal import Phase
from images.build import sort_hand
from images.views import RED_SUITS, rank_label
from tables import Table

from ..i18n import t
from ..text.words import suit_text
from .buttons import HandButton, TableButton, view_of
from .codec import HINT, REFRESH, button_code
from .panel import rules_button, watch_button
from .seats import take_seat_buttons

Style = discord.ButtonStyle


def table_view(table: Table, lang: str) -> discord.ui.View | None:
    tid = table.id
    if table.in_lobby:
        return view_of(
            [
                TableButton(tid, "join", label=t("button.join", lang), style=Style.success),
                TableButton(tid, "leave", label=t("button.leave", lang)),
                TableButton(tid, "bot", label=t("button.add_bot", lang)),
                TableButton(tid, "start", label=t("button.start", lang), style=Style.primary),
                TableButton(tid, "cancel", label=t("button.cancel", lang), style=Style.danger),
                rules_button(table, lang, row=1),  # the host's rules panel
            ]
        )
    if table.playing:
        show = TableButton(tid, "show", label=t("button.show_hand", lang), style=Style.primary)
        # anyone: a private spectator view; and a seat a computer plays, for the taking
        return view_of([show, watch_button(table, lang), *take_seat_buttons(table, lang)])
    if table.finished and not table.is_daily:
        return view_of(
            [TableButton(tid, "rematch", label=t("button.rematch", lang), style=Style.success)]
        )
    return None


def hand_view(table: Table, seat: int, lang: str) -> discord.ui.View | None:
    match = table.match
    if match is None or match.is_over:
        return None
    obs = match.observation(seat)
    move = match.move_number
    tid = table.id
    mine = obs.to_act == seat
    items: list[discord.ui.Item[Any]] = []
    if obs.phase is Phase.AUCTION and mine:
        for i, bid in enumerate(a for a in obs.legal if isinstance(a, Bid)):
            items.append(
                HandButton(
                    tid,
                    seat,
                    move,
                    button_code(bid),
                    label=str(bid.tricks),
                    style=Style.primary,
                    row=i // 5,
                )
            )
        if any(isinstance(a, Pass) for a in obs.legal):
            items.append(
                HandButton(
                    tid,
                    seat,
                    move,
                    button_code(PASS),
                    label=t("button.pass", lang),
                    style=Style.danger,
                    row=3,
                )
            )
    elif obs.phase is Phase.TRUMP and mine:
        for choice in obs.legal:
            if isinstance(choice, ChooseTrump):
                items.append(
                    HandButton(
                        tid,
                        seat,
                        move,
                        button_code(choice),
                        label=suit_text(choice.suit, lang),
                        style=Style.primary,
                        row=0,
                    )
                )
    elif obs.phase is Phase.PLAY and obs.hand is not None:
        legal = {a.card for a in obs.legal if isinstance(a, Play)} if mine else set()
        from batak import parse_card

        codes = sort_hand([card_code(c) for c in _cards(obs.hand)])
        rows = card_rows([code[1] for code in codes])
        for code, row in zip(codes, rows, strict=True):
            card = parse_card(code)
            ok = card in legal
            red = code[1] in RED_SUITS
            items.append(
                HandButton(
                    tid,
                    seat,
                    move,
                    button_code(PLAYS[card]),
                    label=card_button_label(code),
                    style=(Style.danger if red else Style.primary) if ok else Style.secondary,
                    disabled=not ok,
                    row=row,
                )
            )
        control_row = (rows[-1] + 1) if rows and rows[-1] < 4 else 4
        items.append(
            HandButton(
                tid,
                seat,
                move,
                HINT,
                label=t("button.hint", lang),
                disabled=not mine,
                row=control_row,
            )
        )
        items.append(
            HandButton(tid, seat, move, REFRESH, label=t("button.refresh", lang), row=control_row)
        )
        return view_of(items)
    items.append(
        HandButton(tid, seat, move, HINT, label=t("button.hint", lang), disabled=not mine, row=4)
    )
    items.append(HandButton(tid, seat, move, REFRESH, label=t("button.refresh", lang), row=4))
    return view_of(items)


SUIT_EMOJI = {s.letter: s.symbol + "\ufe0f" for s in SUITS}
"""The suit symbols in emoji presentation (the symbol, then U+FE0F): Discord draws
hearts and diamonds red, spades and clubs black, on every button style."""
ROWS, PER_ROW = 5, 5
"""Discord's limits: 5 action rows of 5 buttons."""


def card_button_label(code: str) -> str:
    """``"TH"`` -> ``"10♥️"``: the rank, then the suit as a coloured emoji."""
    return rank_label(code) + SUIT_EMOJI[code[1]]


def card_rows(suits: list[str]) -> list[int]:
    """The row of each card button (cards given in hand order, by suit letter).

    See :func:`_card_rows`; a hand's layout is worked out once per suit pattern (every
    edit of an open hand asks again, and the patterns are few)."""
    return list(_card_rows(tuple(suits)))


@functools.lru_cache(maxsize=4096)
def _card_rows(suits: tuple[str, ...]) -> tuple[int, ...]:
    """The row of each card button (cards given in hand order, by suit letter).

    A row holds one suit where it fits; a suit of more than five continues on the next
    row. The cards use at most four rows, the fifth (or the row after the cards) is for
    Hint and Refresh: when a row per suit would need more than four rows, the shortest
    neighbouring suits share a row (the fewest shared rows; colours tell them apart).
    """
    n = len(suits)
    if n == 0:
        return ()
    limit = ROWS - 1
    inf = 10 * n + 10
    # best[r][i]: the fewest mixed or split rows laying out the first i cards in r rows.
    best = [[inf] * (n + 1) for _ in range(limit + 1)]
    cut = [[0] * (n + 1) for _ in range(limit + 1)]
    best[0][0] = 0
    for r in range(1, limit + 1):
        for i in range(1, n + 1):
            for j in range(max(0, i - PER_ROW), i):
                if best[r - 1][j] >= inf:
                    continue
                row = suits[j:i]
                mixed = sum(1 for a, b in itertools.pairwise(row) if a != b)
                # a row ending inside a suit whose next card would have fitted is a split
                split = i < n and suits[i] == suits[i - 1] and i - j < PER_ROW
                cost = best[r - 1][j] + mixed + (1 if split else 0)
                if cost < best[r][i]:
                    best[r][i], cut[r][i] = cost, j
    # The fewest mixed rows; among those, the most rows (one suit per row reads best).
    used = min(range(1, limit + 1), key=lambda r: (best[r][n], -r))
    rows: list[int] = [0] * n
    i, r = n, used
    while r > 0:
        j = cut[r][i]
        for k in range(j, i):
            rows[k] = r - 1
        i, r = j, r - 1
    return tuple(rows)


def _cards(mask: int) -> list[int]:
    from batak import cards_of

    return cards_of(mask)
