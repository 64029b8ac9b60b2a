"""The components of the host's rules panel and of a spectator's view.

Their ``custom_id`` is ``bh:{table}:{what}`` or, for the value menu of one option,
``bh:{table}:set:{option}``; ``what`` is one of :data:`HOUSE_ACTIONS`. Like the other
buttons (:mod:`.codec`) everything a click needs is in the id, so a panel opened before
a restart still works, and only ids the bot writes are taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from batak import Rules
from tables import Table

from ..i18n import t
from ..text.house import PANEL_OPTIONS, option_values, shown_value
from .buttons import view_of
from .codec import MAX_TABLE_ID

Style = discord.ButtonStyle

HOUSE_ACTIONS = ("rules", "opt", "set", "won", "woff", "reset", "watch", "wref")
"""rules: open the panel; opt: pick an option; set: its value; won / woff: watching on
or off; reset: the preset's rules again; watch: a spectator view; wref: refresh one."""


@dataclass(frozen=True, slots=True)
class HouseClick:
    """A press (or a pick) on the rules panel, a Watch or a spectator's Refresh button."""

    table: int
    what: str
    option: str | None = None
    """The option of a ``set`` menu."""


def house_id(table: int, what: str, option: str | None = None) -> str:
    return f"bh:{table}:{what}" + (f":{option}" if option is not None else "")


def parse_house_id(custom_id: str) -> HouseClick | None:
    """The click of a ``bh:`` id the bot writes, or None."""
    parts = custom_id.split(":")
    if parts[0] != "bh" or len(parts) not in (3, 4):
        return None
    number = parts[1]
    if not number.isascii() or not number.isdigit() or number[0] == "0":
        return None
    table = int(number)
    if table > MAX_TABLE_ID or parts[2] not in HOUSE_ACTIONS:
        return None
    option = parts[3] if len(parts) == 4 else None
    if (parts[2] == "set") != (option is not None) or (
        option is not None and option not in PANEL_OPTIONS
    ):
        return None
    return HouseClick(table, parts[2], option)


def rules_button(table: Table, lang: str, row: int | None = None) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=t("button.house_rules", lang), custom_id=house_id(table.id, "rules"), row=row
    )


def watch_button(table: Table, lang: str, row: int | None = None) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=t("button.watch", lang), custom_id=house_id(table.id, "watch"), row=row
    )


def panel_view(table: Table, lang: str, option: str | None = None) -> discord.ui.View:
    """The host's panel: a menu of the options, the values of the one picked, watching
    on or off, back to the preset."""
    rules = table.rules
    items: list[discord.ui.Item[Any]] = []
    items.append(
        discord.ui.Select(
            custom_id=house_id(table.id, "opt"),
            placeholder=t("house.pick_option", lang),
            options=[
                discord.SelectOption(
                    label=o, value=o, description=shown_value(rules, o), default=o == option
                )
                for o in PANEL_OPTIONS
            ],
            row=0,
        )
    )
    if option is not None:
        current = shown_value(rules, option)
        items.append(
            discord.ui.Select(
                custom_id=house_id(table.id, "set", option),
                placeholder=t("house.pick_value", lang, option=option),
                options=[
                    discord.SelectOption(label=v, value=v, default=v == current)
                    for v in option_values(option)
                ],
                row=1,
            )
        )
    watching = table.settings.watching
    items.append(
        discord.ui.Button(
            label=t("button.watching_off" if watching else "button.watching_on", lang),
            custom_id=house_id(table.id, "woff" if watching else "won"),
            row=2,
        )
    )
    items.append(
        discord.ui.Button(
            label=t("button.preset_rules", lang),
            custom_id=house_id(table.id, "reset"),
            style=Style.danger,
            disabled=rules == Rules.from_preset(rules.preset, deals=rules.deals),
            row=2,
        )
    )
    return view_of(items)


def spectator_view(table: Table, lang: str) -> discord.ui.View | None:
    """A spectator's Refresh button (a press keeps the view following the game)."""
    if not table.playing:
        return None
    return view_of(
        [
            discord.ui.Button(
                label=t("button.refresh", lang), custom_id=house_id(table.id, "wref"), row=0
            )
        ]
    )
