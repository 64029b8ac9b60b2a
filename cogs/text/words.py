"""Names and short words of the messages: seats, actions, suits, people; the length limit.

Public text never mentions anyone (names only, no pings).
"""

from __future__ import annotations

import discord

from batak import Action, Bid, ChooseTrump, Pass, Play, card_label
from batak.cards import Suit
from data import Seat
from images.views import Player

from ..i18n import t
from ..service import Table

SUIT_KEYS = {Suit.S: "suit.S", Suit.H: "suit.H", Suit.D: "suit.D", Suit.C: "suit.C"}


# ----------------------------------------------------------------------------- names
def seat_name(seat: Seat, index: int, lang: str) -> str:
    """A seat's display name (never a mention: public text must not ping)."""
    if seat.is_empty:
        return t("seat.empty", lang)
    if seat.is_bot:
        return t("seat.bot", lang, n=index + 1)
    name = seat.name or t("seat.player", lang, n=index + 1)
    if seat.is_away:
        return t("seat.away", lang, name=name)
    return name


def seat_names(table: Table, lang: str) -> list[str]:
    return [seat_name(s, i, lang) for i, s in enumerate(table.seats)]


def name_at(table: Table, seat: int, move: int, lang: str) -> str:
    """Who played ``seat`` at ``move``: a person who has left since keeps their name."""
    return table.former_name(seat, move) or seat_name(table.seats[seat], seat, lang)


def deadline_text(deadline: float, lang: str) -> str:
    """When time runs out, as a Discord timestamp each reader sees in their own clock."""
    return t("turn.deadline", lang, when=f"<t:{int(deadline)}:R>")


def players(table: Table, lang: str) -> list[Player]:
    return [
        Player(name, is_bot=s.is_bot)
        for name, s in zip(seat_names(table, lang), table.seats, strict=True)
    ]


def table_language(table: Table) -> str:
    return table.settings.language


# ----------------------------------------------------------------------------- actions
def action_text(action: Action, lang: str) -> str:
    """A person's words for an action: "bid 7", "pass", "trump ♥ Hearts", "A♠"."""
    if isinstance(action, Bid):
        return t("action.bid", lang, n=action.tricks)
    if isinstance(action, Pass):
        return t("action.pass", lang)
    if isinstance(action, ChooseTrump):
        return t("action.trump", lang, suit=suit_text(action.suit, lang))
    assert isinstance(action, Play)
    return card_label(action.card)


def suit_text(suit: Suit, lang: str) -> str:
    return f"{suit.symbol} {t(SUIT_KEYS[suit], lang)}"


def display_name(user: discord.abc.User) -> str:
    """What a person is called on this server (their display name, else their user name)."""
    return getattr(user, "display_name", None) or user.name


MAX_CONTENT = 2000
"""Discord's limit on a message's text."""


def clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"
