"""The components of the host's rules panel and of a spectator's view.

Their ``custom_id`` is ``bh:{table}:{what}`` or, for the value menu of one option,
``bh:{table}:set:{option}``; ``what`` is one of :data:`HOUSE_ACTIONS`. Like the other
buttons (:mod:`.codec`) everything a click needs is in the id, so a panel opened before
a restart still works, and only ids the bot writes are taken.

Two families share the prefix: :class:`HouseItem` (the host's panel and its lobby
button, pressed only where the table is) and :class:`WatchButton` (the Watch button and
a spectator's Refresh, pressed anywhere in the table's server); their templates
:data:`HOUSE_RE` and :data:`WATCH_RE` never match the same id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from batak import Rules
from tables import Table

from ..i18n import t
from ..text.house import PANEL_OPTIONS, option_values, shown_value
from .buttons import Press, view_of
from .codec import MAX_TABLE_ID

if TYPE_CHECKING:
    from ..batak_cog import BatakCog

Style = discord.ButtonStyle

HOUSE_ACTIONS = ("rules", "opt", "set", "won", "woff", "reset", "watch", "wref")
"""rules: open the panel; opt: pick an option; set: its value; won / woff: watching on
or off; reset: the preset's rules again; watch: a spectator view; wref: refresh one."""

WATCH_ACTIONS = ("watch", "wref")
"""The spectators' actions (:class:`WatchButton`); the others are the host's."""

HOUSE_RE = (
    r"bh:(?P<table>[0-9]{1,18}):(?P<what>rules|opt|set|won|woff|reset)"
    r"(?::(?P<option>[A-Za-z0-9_]{1,40}))?"
)
"""The shape of the ids of the host's panel (:func:`parse_house_id` is the exact rule)."""
WATCH_RE = r"bh:(?P<table>[0-9]{1,18}):(?P<what>watch|wref)"
"""The shape of the ids of the Watch and spectator's Refresh buttons."""


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


class HouseItem(Press[HouseClick], template=HOUSE_RE):
    """A component of the host's rules panel (a button, or a select menu), or the
    lobby's House rules button; it counts only in the table's channel or thread."""

    def __init__(self, item: discord.ui.Button[Any] | discord.ui.Select[Any]) -> None:
        custom_id = item.custom_id
        assert custom_id is not None  # written by house_id
        super().__init__(item, self.read(custom_id))

    @classmethod
    def read(cls, custom_id: str) -> HouseClick | None:
        click = parse_house_id(custom_id)
        return click if click is not None and click.what not in WATCH_ACTIONS else None

    @staticmethod
    def table_of(click: HouseClick) -> int:
        return click.table

    async def handle(
        self, cog: BatakCog, interaction: discord.Interaction[Any], click: HouseClick
    ) -> None:
        await cog.house.on_click(interaction, click)


class WatchButton(Press[HouseClick], template=WATCH_RE):
    """The Watch button of a table message, or a spectator view's Refresh: pressed
    anywhere in the table's server (``/batak watch`` works there too, and a spectator
    sees only public facts)."""

    server_wide = True

    def __init__(self, table: int, what: str, *, label: str, row: int | None = None) -> None:
        custom_id = house_id(table, what)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, custom_id=custom_id, row=row
        )
        super().__init__(button, self.read(custom_id))

    @classmethod
    def read(cls, custom_id: str) -> HouseClick | None:
        click = parse_house_id(custom_id)
        return click if click is not None and click.what in WATCH_ACTIONS else None

    @staticmethod
    def table_of(click: HouseClick) -> int:
        return click.table

    async def handle(
        self, cog: BatakCog, interaction: discord.Interaction[Any], click: HouseClick
    ) -> None:
        await cog.watchers.on_click(interaction, click)


def rules_button(table: Table, lang: str, row: int | None = None) -> HouseItem:
    return HouseItem(
        discord.ui.Button(
            label=t("button.house_rules", lang), custom_id=house_id(table.id, "rules"), row=row
        )
    )


def watch_button(table: Table, lang: str, row: int | None = None) -> WatchButton:
    return WatchButton(table.id, "watch", label=t("button.watch", lang), row=row)


def panel_view(table: Table, lang: str, option: str | None = None) -> discord.ui.View:
    """The host's panel: a menu of the options, the values of the one picked, watching
    on or off, back to the preset."""
    rules = table.rules
    items: list[discord.ui.Item[Any]] = []
    options: discord.ui.Select[Any] = discord.ui.Select(
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
    items.append(HouseItem(options))
    if option is not None:
        current = shown_value(rules, option)
        values: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=house_id(table.id, "set", option),
            placeholder=t("house.pick_value", lang, option=option),
            options=[
                discord.SelectOption(label=v, value=v, default=v == current)
                for v in option_values(option)
            ],
            row=1,
        )
        items.append(HouseItem(values))
    watching = table.settings.watching
    turn: discord.ui.Button[Any] = discord.ui.Button(
        label=t("button.watching_off" if watching else "button.watching_on", lang),
        custom_id=house_id(table.id, "woff" if watching else "won"),
        row=2,
    )
    preset = rules == Rules.from_preset(rules.preset, deals=rules.deals)
    reset: discord.ui.Button[Any] = discord.ui.Button(
        # greyed, it says why: the rules are the preset's already
        label=t("button.preset_rules_already" if preset else "button.preset_rules", lang),
        custom_id=house_id(table.id, "reset"),
        style=Style.secondary if preset else Style.danger,
        disabled=preset,
        row=2,
    )
    items += [HouseItem(turn), HouseItem(reset)]
    return view_of(items)


def spectator_view(table: Table, lang: str) -> discord.ui.View | None:
    """A spectator's Refresh button (a press keeps the view following the game)."""
    if not table.playing:
        return None
    return view_of([WatchButton(table.id, "wref", label=t("button.refresh", lang), row=0)])
