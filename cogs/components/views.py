"""The buttons of a message: the table message's and a hand's."""

from __future__ import annotations

from typing import Any

import discord

from batak import Bid, ChooseTrump, Pass, Play, card_code
from batak.deal import Phase
from images.build import sort_hand

from ..i18n import t
from ..service import Table
from ..text.words import action_text, suit_text
from .buttons import HandButton, TableButton, view_of

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
            ]
        )
    if table.playing:
        return view_of(
            [TableButton(tid, "show", label=t("button.show_hand", lang), style=Style.primary)]
        )
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
                    f"b{bid.tricks}",
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
                    "p",
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
                        f"t{choice.suit.letter}",
                        label=suit_text(choice.suit, lang),
                        style=Style.primary,
                        row=0,
                    )
                )
    elif obs.phase is Phase.PLAY and obs.hand is not None:
        legal = {a.card for a in obs.legal if isinstance(a, Play)} if mine else set()
        from batak import parse_card

        codes = sort_hand([card_code(c) for c in _cards(obs.hand)])
        for i, code in enumerate(codes):
            card = parse_card(code)
            ok = card in legal
            items.append(
                HandButton(
                    tid,
                    seat,
                    move,
                    f"c{code}",
                    label=action_text(Play(card), lang),
                    style=Style.primary if ok else Style.secondary,
                    disabled=not ok,
                    row=i // 5,
                )
            )
    items.append(
        HandButton(tid, seat, move, "hint", label=t("button.hint", lang), disabled=not mine, row=4)
    )
    items.append(HandButton(tid, seat, move, "ref", label=t("button.refresh", lang), row=4))
    return view_of(items)


def _cards(mask: int) -> list[int]:
    from batak import cards_of

    return cards_of(mask)
