"""Names and short words of the messages: seats, actions, suits, people; the length limit.

Public text never mentions anyone (names only, no pings).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import discord

from batak import Action, Bid, ChooseTrump, Pass, Play, card_label
from batak.cards import Suit
from data import Seat
from images.views import Player
from tables import Table

from ..i18n import t

SUIT_KEYS = {Suit.S: "suit.S", Suit.H: "suit.H", Suit.D: "suit.D", Suit.C: "suit.C"}


# ----------------------------------------------------------------------------- names
MAX_NAME = 32
"""Characters of a person's name we show (Discord's own limit for display names)."""

_INVISIBLE = frozenset(("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"))
"""Unicode categories removed from names: controls, format characters (the bidi
overrides and isolates, zero-width spaces and joiners, the BOM), private use,
surrogates, unassigned, line and paragraph separators."""

_LINK = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*):(?=//)")
_BRACKETS = re.compile(r"(\\.)|([<\[\]])")
"""An escaped character (kept as it is), or a bracket to escape."""


@lru_cache(maxsize=4096)
def plain_name(raw: str | None) -> str:
    """A name as plain characters: no invisible or direction-changing characters, one
    line, at most :data:`MAX_NAME` characters. For pictures, thread titles and the store;
    text messages use :func:`safe_name`. May be empty."""
    if not raw:
        return ""
    text = "".join(
        " " if ch.isspace() else ch
        for ch in unicodedata.normalize("NFC", raw)
        if unicodedata.category(ch) not in _INVISIBLE or ch in "\t\n\r"
    )
    text = " ".join(text.split())
    if len(text) > MAX_NAME:
        text = text[: MAX_NAME - 1].rstrip() + "…"
    return text


@lru_cache(maxsize=4096)  # names are drawn into every hand and table message, each move
def safe_name(raw: str | None) -> str:
    """A name inside a message the bot writes: data, never markup.

    :func:`plain_name`, then Discord's markdown (``**``, ``||``, code fences, masked
    links, headings) and mentions (``@everyone``, ``<@id>``, ``<@&id>``) escaped; ``<``,
    ``[`` and ``]`` escaped so no ``<#channel>``, ``<t:…>``, ``<a:emoji:…>`` or masked
    link forms; and a zero-width space after the scheme of anything that looks like a
    link so it is not one. Every
    text that shows a person's name goes through this function (``allowed_mentions``
    stays ``none`` as well).
    """
    text = discord.utils.escape_markdown(plain_name(raw), ignore_links=False)
    text = discord.utils.escape_mentions(text)
    text = _BRACKETS.sub(lambda m: m[1] or "\\" + m[2], text)
    return _LINK.sub("\\1:\u200b", text)


MAX_THREAD_NAME = 100
"""Discord's longest thread name."""

_MASKED_LINK = re.compile(r"\[([^\]]*)\]\(\s*<?[^)\s]*>?[^)]*\)")
_SCHEME = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://")
_MENTION_MARKS = re.compile(r"[<>@]")


def title_name(raw: str | None) -> str:
    """A name for a thread's title. Discord shows a channel or thread name as it is
    written (no markdown, so no backslash escapes: they would show), so markup is taken
    out rather than escaped: :func:`plain_name`, a masked link ``[label](url)`` becomes
    its label, no ``scheme://`` (nothing there is a link), no ``<``, ``>`` or ``@``
    (no mention, channel, time or emoji form). May be empty."""
    text = _MASKED_LINK.sub(lambda m: m[1], plain_name(raw))
    text = _MENTION_MARKS.sub("", _SCHEME.sub("", text))
    return " ".join(text.split())


def thread_title(lang: str, name: str | None, user_id: int) -> str:
    """The title of a table's thread: the person's name through :func:`title_name`
    (``#id`` when nothing is left), within :data:`MAX_THREAD_NAME` characters."""
    title = t("thread.name", lang, name=title_name(name) or f"#{user_id}")
    if len(title) > MAX_THREAD_NAME:
        title = title[: MAX_THREAD_NAME - 1].rstrip() + "…"
    return title


def seat_name(seat: Seat, index: int, lang: str, *, markup: bool = True) -> str:
    """A seat's name (never a mention: public text must not ping); ``markup=False`` for
    pictures, which show the characters as they are."""
    if seat.is_empty:
        return t("seat.empty", lang)
    if seat.is_bot:
        return t("seat.bot", lang, n=index + 1)
    name = (safe_name if markup else plain_name)(seat.name) or t("seat.player", lang, n=index + 1)
    if seat.is_away:
        return t("seat.away", lang, name=name)
    return name


def seat_names(table: Table, lang: str) -> list[str]:
    """The seats' names for text messages (escaped, see :func:`safe_name`)."""
    return [seat_name(s, i, lang) for i, s in enumerate(table.seats)]


def name_at(table: Table, seat: int, move: int, lang: str) -> str:
    """Who played ``seat`` at ``move``: a person who has left since keeps their name, a
    computer whose seat a person took since is a computer."""
    former = table.former_seat(seat, move)
    if former is not None and former.computer:
        return t("seat.bot", lang, n=seat + 1)
    return table.former_name(seat, move) or seat_name(table.seats[seat], seat, lang)


def deadline_text(deadline: float, lang: str) -> str:
    """When time runs out, as a Discord timestamp each reader sees in their own clock."""
    return t("turn.deadline", lang, when=f"<t:{int(deadline)}:R>")


def players(table: Table, lang: str) -> list[Player]:
    """The seats' names for pictures (plain characters)."""
    return [
        Player(seat_name(s, i, lang, markup=False), is_bot=s.is_bot)
        for i, s in enumerate(table.seats)
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


def display_name(user: discord.abc.User | discord.Object) -> str:
    """What a person is called on this server (their display name, else their user
    name), as :func:`plain_name`; put it in a text through :func:`safe_name`."""
    for raw in (getattr(user, "display_name", None), getattr(user, "name", None)):
        name = plain_name(raw)
        if name:
            return name
    return f"#{user.id}"


MAX_CONTENT = 2000
"""Discord's limit on a message's text."""


def clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"
