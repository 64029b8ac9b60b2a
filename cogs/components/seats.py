"""The seat buttons of a match in play: taking a computer's seat, and the host's answer.

- ``bs:{table}:sit`` on the table message: take a computer's seat (which one is asked
  when there are several);
- ``bs:{table}:s{seat}``: take that seat (0-based in the id, 1-based on the label);
- ``bs:{table}:{user}:y`` / ``:n``: the host approves or refuses that person's request.

:class:`SeatButton` draws them and receives their presses (its template is
:data:`SEAT_RE`); :func:`parse_seat_id` takes exactly the ids written here (the rules of
:mod:`.codec`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from tables import Table
from tables.seats import computer_seats

from ..i18n import t
from .buttons import Press, view_of
from .codec import MAX_TABLE_ID, _number

if TYPE_CHECKING:
    from ..batak_cog import BatakCog

MAX_USER_ID = 2**64 - 1

SEAT_RE = r"bs:(?P<table>[0-9]{1,18}):(?P<what>sit|s[0-3]|[0-9]{1,20}:[yn])"
"""The shape of a seat button's id (:func:`parse_seat_id` is the exact rule)."""


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


class SeatButton(Press[SeatClick], template=SEAT_RE):
    """A seat button (``custom_id`` written by :func:`seat_id` or :func:`answer_id`); it
    counts only in the table's channel or thread."""

    def __init__(
        self,
        custom_id: str,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=custom_id
        )
        super().__init__(button, self.read(custom_id))

    @classmethod
    def read(cls, custom_id: str) -> SeatClick | None:
        return parse_seat_id(custom_id)

    @staticmethod
    def table_of(click: SeatClick) -> int:
        return click.table

    async def handle(
        self, cog: BatakCog, interaction: discord.Interaction[Any], click: SeatClick
    ) -> None:
        await cog.on_seat_button(interaction, click)


def take_seat_buttons(table: Table, lang: str) -> list[discord.ui.Item[Any]]:
    """The table message's "Take a seat" button, while a computer plays a seat a person
    could take (not once the computers finish a match nobody is left at)."""
    if table.is_daily or table.settings.computers_finish or not computer_seats(table):
        return []
    return [
        SeatButton(
            seat_id(table.id, "sit"),
            label=t("button.take_seat", lang),
            style=discord.ButtonStyle.secondary,
        )
    ]


def seat_pick_view(table: Table, lang: str) -> discord.ui.View:
    """One button per seat a computer plays (for the person who asked to sit)."""
    return view_of(
        [
            SeatButton(
                seat_id(table.id, f"s{i}"),
                label=t("button.seat_n", lang, seat=i + 1),
                style=discord.ButtonStyle.primary,
            )
            for i in computer_seats(table)
        ]
    )


def seat_answer_view(table_id: int, user_id: int, lang: str) -> discord.ui.View:
    """The host's Approve and Refuse buttons for one request."""
    return view_of(
        [
            SeatButton(
                answer_id(table_id, user_id, True),
                label=t("button.approve", lang),
                style=discord.ButtonStyle.success,
            ),
            SeatButton(
                answer_id(table_id, user_id, False),
                label=t("button.refuse", lang),
                style=discord.ButtonStyle.danger,
            ),
        ]
    )
