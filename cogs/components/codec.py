"""The ``custom_id`` of our buttons: everything a click needs, so it survives a restart.

- hand buttons: ``bt:{table}:{seat}:{move}:{code}``; ``code`` is ``p`` (pass),
  ``b7`` (bid), ``tH`` (trump), ``cTH`` (card), ``hint`` or ``ref`` (refresh).
- table buttons: ``bx:{table}:{what}``; ``what`` is show, join, leave, bot,
  start, cancel or rematch.
"""

from __future__ import annotations

from typing import Any

import discord

from batak import Action, Bid, ChooseTrump, Pass, Play
from batak.cards import Suit

HAND_RE = (
    r"bt:(?P<table>[0-9]{1,18}):(?P<seat>[0-9]):(?P<move>[0-9]{1,6}):(?P<code>[A-Za-z0-9]{1,6})"
)
TABLE_RE = r"bx:(?P<table>[0-9]{1,18}):(?P<what>show|join|leave|bot|start|cancel|rematch)"

TABLE_ACTIONS = ("show", "join", "leave", "bot", "start", "cancel", "rematch")


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
    from batak import card_code

    return f"c{card_code(action.card)}"


def parse_button_code(code: str) -> Action | None:
    """The inverse of :func:`button_code`; None for anything else (a forged id)."""
    from batak import BIDS, PASS, PLAYS, TRUMPS, parse_card

    try:
        if code == "p":
            return PASS
        if code[:1] == "b" and code[1:].isdigit() and int(code[1:]) in BIDS:
            return BIDS[int(code[1:])]
        if code[:1] == "t" and len(code) == 2 and code[1] in Suit.__members__:
            return TRUMPS[Suit[code[1]]]  # exactly the record letter button_code wrote
        if code[:1] == "c" and len(code) == 3:
            return PLAYS[parse_card(code[1:])]
    except ValueError:
        return None
    return None


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
