"""The buttons of a message: the table message's and a hand's.

Only buttons that can do something are drawn. A button that would only ever be refused
in the state shown is left out (Hint where the table gives no hints, Add bot at a full
table, Watch where watching is off); one that is drawn greyed says why on itself
("Table full", "Waiting for Alice"). The cards of a hand are the exception: the hand is
drawn whole, its cards greyed where they cannot be played now (the "Waiting for ..."
button, or the hand's text, says why)."""

from __future__ import annotations

import functools
import itertools
from typing import Any, NamedTuple

import discord

from batak import PASS, PLAYS, Bid, ChooseTrump, Pass, Play, card_code
from batak.cards import SUITS
from batak.deal import Phase
from images.build import sort_hand
from images.views import RED_SUITS, rank_label
from tables import Table
from tables.model import TOURNAMENT

from ..i18n import t
from ..text.words import players, suit_text
from .buttons import HandButton, Prebuilt, TableButton, view_of
from .codec import HINT, REFRESH, WAIT, button_code, hand_id
from .panel import rules_button, watch_button
from .seats import take_seat_buttons

Style = discord.ButtonStyle


LABEL_LIMIT = 80
"""Discord's limit on a button's label (developers/components/reference.mdx, Button)."""


def button_label(text: str) -> str:
    """``text`` as a button's label: cut to Discord's limit (a long name is shortened)."""
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"


def hints_offered(table: Table) -> bool:
    """Whether the table gives hints: a casual table whose server allows them (never a
    rated table, never the daily match). Elsewhere the hand has no Hint button."""
    settings = table.settings
    return settings.hints and not settings.rated and not table.is_daily


def table_view(table: Table, lang: str, rematch: int | None = None) -> discord.ui.View | None:
    """The table message's buttons. ``rematch``: the table the finished one's rematch
    opened (its Rematch button then says so, greyed)."""
    tid = table.id
    if table.in_lobby:
        full = not any(s.is_empty for s in table.seats)
        join = (
            TableButton(tid, "join", label=t("button.table_full", lang), disabled=True)
            if full
            else TableButton(tid, "join", label=t("button.join", lang), style=Style.success)
        )
        lobby: list[discord.ui.Item[Any]] = [
            join,
            TableButton(tid, "leave", label=t("button.leave", lang)),
        ]
        if not full:  # a full table has no seat for a computer
            lobby.append(TableButton(tid, "bot", label=t("button.add_bot", lang)))
        lobby += [
            TableButton(tid, "start", label=t("button.start", lang), style=Style.primary),
            TableButton(tid, "cancel", label=t("button.cancel", lang), style=Style.danger),
            rules_button(table, lang, row=1),  # the host's rules panel
        ]
        return view_of(lobby)
    if table.playing:
        show = TableButton(tid, "show", label=t("button.show_hand", lang), style=Style.primary)
        # anyone: a private spectator view (unless the host turned watching off); and a
        # seat a computer plays, for the taking
        watch = [watch_button(table, lang)] if table.settings.watching else []
        # a tournament's seats are its pairing's: nobody else sits down
        seats = [] if table.kind == TOURNAMENT else take_seat_buttons(table, lang)
        return view_of([show, *watch, *seats])
    if table.finished and not table.is_daily and table.kind != TOURNAMENT:
        if rematch is not None:
            label = button_label(t("button.rematch_open", lang, table=rematch))
            return view_of([TableButton(tid, "rematch", label=label, disabled=True)])
        return view_of(
            [TableButton(tid, "rematch", label=t("button.rematch", lang), style=Style.success)]
        )
    return None


class Spec(NamedTuple):
    """One button of a hand, as drawn: what :class:`HandButton` takes."""

    table: int
    seat: int
    move: int
    code: str
    label: str
    style: discord.ButtonStyle = Style.secondary
    disabled: bool = False
    row: int = 0


def hand_view(table: Table, seat: int, lang: str) -> discord.ui.View | None:
    """The hand's buttons, as discord.py items (a message sent or answered)."""
    specs = hand_buttons(table, seat, lang)
    if specs is None:
        return None
    return view_of(
        [
            HandButton(
                s.table,
                s.seat,
                s.move,
                s.code,
                label=s.label,
                style=s.style,
                disabled=s.disabled,
                row=s.row,
            )
            for s in specs
        ]
    )


def hand_components(table: Table, seat: int, lang: str) -> discord.ui.View | None:
    """The same buttons as :func:`hand_view`, already in Discord's JSON form (what
    discord.py's ``View.to_components`` makes of them): the live hands' edits, 4 a move,
    need no discord.py item per button (a tenth of a millisecond each)."""
    specs = hand_buttons(table, seat, lang)
    if specs is None:
        return None
    rows: list[dict[str, Any]] = []
    last: int | None = None
    for s in sorted(specs, key=lambda s: s.row):  # stable, as discord.py sorts
        if s.row != last:
            rows.append({"type": 1, "components": []})
            last = s.row
        rows[-1]["components"].append(
            {
                "type": 2,
                "style": s.style.value,
                "disabled": s.disabled,
                "label": s.label,
                "custom_id": hand_id(s.table, s.seat, s.move, s.code),
            }
        )
    return Prebuilt(rows)


def hand_buttons(table: Table, seat: int, lang: str) -> list[Spec] | None:
    """The buttons of ``seat``'s hand (None: the hand has none, the match is over)."""
    match = table.match
    if match is None or match.is_over:
        return None
    obs = match.observation(seat)
    move = match.move_number
    tid = table.id
    mine = obs.to_act == seat
    items: list[Spec] = []
    if obs.phase is Phase.AUCTION and mine:
        for i, bid in enumerate(a for a in obs.legal if isinstance(a, Bid)):
            items.append(
                Spec(
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
                Spec(
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
                    Spec(
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
                Spec(
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
        items += _controls(table, seat, move, obs.to_act, lang, control_row)
        return items
    items += _controls(table, seat, move, obs.to_act, lang, 4)
    return items


def _controls(
    table: Table, seat: int, move: int, to_act: int | None, lang: str, row: int
) -> list[Spec]:
    """The hand's last row: Hint on the person's turn where the table gives hints, or a
    greyed "Waiting for ..." while someone else is to act; then Refresh."""
    tid = table.id
    items: list[Spec] = []
    if to_act is not None and to_act != seat:
        name = players(table, lang)[to_act].name
        waiting = button_label(t("button.waiting", lang, name=name))
        items.append(Spec(tid, seat, move, WAIT, label=waiting, disabled=True, row=row))
    elif to_act == seat and hints_offered(table):
        items.append(Spec(tid, seat, move, HINT, label=t("button.hint", lang), row=row))
    items.append(Spec(tid, seat, move, REFRESH, label=t("button.refresh", lang), row=row))
    return items


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
