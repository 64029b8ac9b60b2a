"""The sign-up message's buttons of a tournament: Sign up and Withdraw
(``bz:{tournament}:{what}``, ``what`` join or leave). Like every button of ours a
dynamic item: it works on a message sent before a restart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from ..i18n import t
from .buttons import Press, view_of

if TYPE_CHECKING:
    from ..batak_cog import BatakCog

TOURNAMENT_RE = r"bz:(?P<tournament>[0-9]{1,18}):(?P<what>join|leave)"


@dataclass(frozen=True, slots=True)
class TournamentClick:
    tournament: int
    what: str


def tournament_id(tournament: int, what: str) -> str:
    return f"bz:{tournament}:{what}"


def parse_tournament_id(custom_id: str) -> TournamentClick | None:
    """The click of an id the bot writes; None for any other (``007`` for ``7``...)."""
    parts = custom_id.split(":")
    if len(parts) != 3 or parts[0] != "bz" or parts[2] not in ("join", "leave"):
        return None
    try:
        number = int(parts[1])
    except ValueError:
        return None
    if number < 1 or tournament_id(number, parts[2]) != custom_id:
        return None
    return TournamentClick(number, parts[2])


class TournamentButton(Press[TournamentClick], template=TOURNAMENT_RE):
    """Sign up / Withdraw under a tournament's sign-up message (names no table)."""

    def __init__(self, tournament: int, what: str, *, label: str) -> None:
        custom_id = tournament_id(tournament, what)
        style = discord.ButtonStyle.success if what == "join" else discord.ButtonStyle.secondary
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, style=style, custom_id=custom_id
        )
        super().__init__(button, self.read(custom_id))

    @classmethod
    def read(cls, custom_id: str) -> TournamentClick | None:
        return parse_tournament_id(custom_id)

    @staticmethod
    def table_of(click: TournamentClick) -> int | None:
        return None

    async def handle(
        self, cog: BatakCog, interaction: discord.Interaction[Any], click: TournamentClick
    ) -> None:
        await cog.tournament_clicked(interaction, click)


def signup_view(tournament: int, lang: str, *, open_: bool = True) -> discord.ui.View:
    """Sign up and Withdraw while sign-ups are open; Withdraw alone once it runs."""
    items: list[discord.ui.Item[Any]] = []
    if open_:
        items.append(TournamentButton(tournament, "join", label=t("button.sign_up", lang)))
    items.append(TournamentButton(tournament, "leave", label=t("button.withdraw", lang)))
    return view_of(items)
