"""The ``custom_id`` of our buttons: everything a click needs, so it survives a restart.

- hand buttons: ``bt:{table}:{seat}:{move}:{code}``; ``code`` is ``p`` (pass),
  ``b7`` (bid), ``tH`` (trump), ``cTH`` (card), ``hint``, ``ref`` (refresh) or
  ``wait`` (the greyed "Waiting for ..." label: never pressed, taken as a refresh).
- table buttons: ``bx:{table}:{what}``; ``what`` is show, join, leave, bot,
  start, cancel or rematch.

:data:`HAND_RE` and :data:`TABLE_RE` are the templates of
:class:`~.buttons.HandButton` and :class:`~.buttons.TableButton` (discord.py matches
a press against them); :func:`parse_hand_id` and :func:`parse_table_id` then accept
exactly the ids the bot writes and nothing else: an id is taken only if writing its
parts again gives the same string, so ``007`` for ``7``, ``cth`` for ``cTH``, ``b07``
or an extra ``:field`` are refused like any forged id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from batak import BIDS, PASS, PLAYS, TRUMPS, Action, Bid, ChooseTrump, Pass, Play, card_code
from batak.cards import Suit

HAND_RE = (
    r"bt:(?P<table>[0-9]{1,18}):(?P<seat>[0-3]):(?P<move>[0-9]{1,6}):(?P<code>[A-Za-z0-9]{1,6})"
)
TABLE_RE = r"bx:(?P<table>[0-9]{1,18}):(?P<what>show|join|leave|bot|start|cancel|rematch)"

TABLE_ACTIONS = ("show", "join", "leave", "bot", "start", "cancel", "rematch")
HINT = "hint"
"""The code of a hand's Hint button."""
REFRESH = "ref"
"""The code of a hand's Refresh button."""
WAIT = "wait"
"""The code of a hand's greyed "Waiting for ..." button (disabled: it only says whose turn
it is; a forged press of it is taken as a refresh)."""
HAND_TOOLS = (HINT, REFRESH, WAIT)
"""Hand buttons that are not an action of the game."""

MAX_TABLE_ID = 10**18 - 1
MAX_MOVE = 999_999


def hand_id(table: int, seat: int, move: int, code: str) -> str:
    return f"bt:{table}:{seat}:{move}:{code}"


def table_id(table: int, what: str) -> str:
    return f"bx:{table}:{what}"


def button_code(action: Action) -> str:
    """The short action code a button carries: p, b7, tH, cTH."""
    if isinstance(action, Bid):
        return f"b{action.tricks}"
    if isinstance(action, Pass):
        return "p"
    if isinstance(action, ChooseTrump):
        return f"t{action.suit.letter}"
    assert isinstance(action, Play)
    return f"c{card_code(action.card)}"


def parse_button_code(code: str) -> Action | None:
    """The inverse of :func:`button_code`; None for anything it does not write."""
    action: Action | None = None
    if code == "p":
        action = PASS
    elif code[:1] == "b" and code[1:].isdigit() and int(code[1:]) in BIDS:
        action = BIDS[int(code[1:])]
    elif code[:1] == "t" and len(code) == 2 and code[1] in Suit.__members__:
        action = TRUMPS[Suit[code[1]]]
    elif code[:1] == "c" and len(code) == 3:
        from batak import parse_card

        try:
            action = PLAYS[parse_card(code[1:])]
        except ValueError:
            return None
    if action is None or button_code(action) != code:
        return None  # only the canonical spelling: not "b07", not "cth"
    return action


@dataclass(frozen=True, slots=True)
class HandClick:
    """A hand button: an action (or ``hint`` / ``ref``) for ``seat`` at ``move``."""

    table: int
    seat: int
    move: int
    code: str
    action: Action | None
    """The game action of ``code``; None for the hint, refresh and waiting buttons."""


@dataclass(frozen=True, slots=True)
class TableClick:
    """A button of a table's public message."""

    table: int
    what: str


def _number(text: str, highest: int) -> int | None:
    """A non-negative number written as the bot writes it (no sign, no leading zero)."""
    if not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        return None
    value = int(text)
    return value if value <= highest else None


def parse_hand_id(custom_id: str) -> HandClick | None:
    """What a hand button asks for, or None if the bot never writes this id."""
    parts = custom_id.split(":")
    if parts[0] != "bt" or len(parts) != 5:
        return None
    table, seat, move = _number(parts[1], MAX_TABLE_ID), parts[2], _number(parts[3], MAX_MOVE)
    code = parts[4]
    if table is None or table == 0 or move is None or seat not in ("0", "1", "2", "3"):
        return None
    if code in HAND_TOOLS:
        return HandClick(table, int(seat), move, code, None)
    action = parse_button_code(code)
    if action is None:
        return None
    return HandClick(table, int(seat), move, code, action)


def parse_table_id(custom_id: str) -> TableClick | None:
    """What a button of a table message asks for, or None if the bot never writes this id."""
    parts = custom_id.split(":")
    if parts[0] != "bx" or len(parts) != 3:
        return None
    table = _number(parts[1], MAX_TABLE_ID)
    if table is None or table == 0 or parts[2] not in TABLE_ACTIONS:
        return None
    return TableClick(table, parts[2])


def has_component(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        c = stack.pop()
        if getattr(c, "custom_id", None) == custom_id:
            return True
        stack.extend(getattr(c, "children", None) or [])
    return False
