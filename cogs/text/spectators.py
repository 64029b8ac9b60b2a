"""The hands of a finished deal (public once it is over), for the deal summary and the
spectators.

Built only from public facts: the table as everyone sees it, and the hands of a deal
that is over (every card of it has been played, so nothing is hidden any more).
"""

from __future__ import annotations

from batak import card_label, cards_of
from batak.cards import HAND_SUIT_ORDER, SUIT_MASKS
from tables import Table

from ..i18n import t
from .words import seat_names


def hand_line(hand: int) -> str:
    """A hand in suit order, high to low: ``♠A ♠7 · ♥K … · ♦ –``."""
    parts = []
    for suit in HAND_SUIT_ORDER:
        cards = [card_label(c) for c in reversed(cards_of(hand & SUIT_MASKS[suit]))]
        parts.append(" ".join(cards) if cards else f"{suit.symbol} –")
    return " · ".join(parts)


def dealt_hands_text(table: Table, index: int, lang: str) -> str:
    """The four hands of finished deal ``index`` as they were dealt."""
    match = table.match
    assert match is not None
    deal = match.finished[index]
    names = seat_names(table, lang)
    lines = [t("deal.hands", lang)]
    for seat in range(4):
        lines.append(f"{names[seat]}: {hand_line(deal.initial_hands[seat])}")
    return "\n".join(lines)


def between_deals(table: Table) -> bool:
    """A deal is over and no card of the next one is on the table yet."""
    match = table.match
    if match is None or not match.finished:
        return False
    if match.is_over:
        return True
    obs = match.observation(0)  # public fields only
    return not obs.tricks and not obs.trick
