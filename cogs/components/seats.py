"""The seat buttons of a match in play: taking a computer's seat, and the host's answer.

- ``bs:{table}:sit`` on the table message: take a computer's seat (which one is asked
  when there are several);
- ``bs:{table}:s{seat}``: take that seat (0-based in the id, 1-based on the label);
- ``bs:{table}:{user}:y`` / ``:n``: the host approves or refuses that person's request.

:func:`parse_seat_id` takes exactly the ids written here (the rules of :mod:`.codec`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from tables import Table
from tables.seats import computer_seats

from ..i18n import t
from .buttons import view_of
from .codec import MAX_TABLE_ID, _number

MAX_USER_ID = 2**64 - 1


@dataclass(frozen=True, slots=True)
class SeatClick:
    """A seat button: ``what`` is sit, seat (``seat`` set) or answer (``user``,
    ``approve`` set)."""

    table: int
    what: str
    seat: int | None = None
    user: int | None = None
    approve: bool = False


def seat_id(table: int, what: str) -> str:
    return f"bs:{table}:{what}"


def answer_id(table: int, user: int, approve: bool) -> str:
    return f"bs:{table}:{user}:{'y' if approve else 'n'}"


def parse_seat_id(custom_id: str) -> SeatClick | None:
    """What a seat button asks for, or None when the bot never writes this id."""
    parts = custom_id.split(":")
    if parts[0] != "bs" or len(parts) not in (3, 4):
        return None
    table = _number(parts[1], MAX_TABLE_ID)
    if table is None or table == 0:
        return None
    if len(parts) == 3:
        if parts[2] == "sit":
            return SeatClick(table, "sit")
        if parts[2] in ("s0", "s1", "s2", "s3"):
            return SeatClick(table, "seat", seat=int(parts[2][1]))
        return None
    user = _number(parts[2], MAX_USER_ID)
    if user is None or user == 0 or parts[3] not in ("y", "n"):
        return None
    return SeatClick(table, "answer", user=user, approve=parts[3] == "y")


def take_seat_buttons(table: Table, lang: str) -> list[discord.ui.Item[Any]]:
    """The table message's "Take a seat" button, while a computer plays a seat a person
    could take (not once the computers finish a match nobody is left at)."""
    if table.is_daily or table.settings.computers_finish or not computer_seats(table):
        return []
    return [
        discord.ui.Button(
            label=t("button.take_seat", lang),
            style=discord.ButtonStyle.secondary,
            custom_id=seat_id(table.id, "sit"),
        )
    ]


def seat_pick_view(table: Table, lang: str) -> discord.ui.View:
    """One button per seat a computer plays (for the person who asked to sit)."""
    return view_of(
        [
            discord.ui.Button(
                label=t("button.seat_n", lang, seat=i + 1),
                style=discord.ButtonStyle.primary,
                custom_id=seat_id(table.id, f"s{i}"),
            )
            for i in computer_seats(table)
        ]
    )


def seat_answer_view(table_id: int, user_id: int, lang: str) -> discord.ui.View:
    """The host's Approve and Refuse buttons for one request."""
    return view_of(
        [
            discord.ui.Button(
                label=t("button.approve", lang),
                style=discord.ButtonStyle.success,
                custom_id=answer_id(table_id, user_id, True),
            ),
            discord.ui.Button(
                label=t("button.refuse", lang),
                style=discord.ButtonStyle.danger,
                custom_id=answer_id(table_id, user_id, False),
            ),
        ]
    )
