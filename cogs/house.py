"""The host's rules panel: house rules and watching, changed in the lobby.

Opened by the lobby's House rules button, only for the host, as a private message with
select menus: the option, then its value. Each pick is judged by the engine; a refused
one changes nothing and the panel, redrawn, says why (the reason names the option).
"""

from __future__ import annotations

from typing import Any

import discord

from batak import Rules
from tables import ServiceError, Table, TableService

from .components.panel import HouseClick, panel_view
from .replies import NO_PINGS, Languages, send
from .text.house import PANEL_OPTIONS, panel_text, read_value
from .text.refusals import error_text


def panel_content(table: Table, lang: str, notice: str | None = None) -> str:
    text = panel_text(table.rules, table.id, table.settings.rated, table.settings.watching, lang)
    return f"{notice}\n{text}" if notice else text


class HousePanel:
    """Clicks on the rules panel (and the lobby's button that opens it)."""

    def __init__(self, service: TableService, languages: Languages) -> None:
        self.service = service
        self.languages = languages

    async def on_click(self, interaction: discord.Interaction[Any], click: HouseClick) -> None:
        lang = await self.languages.of(interaction)
        user = interaction.user.id
        if click.what == "rules":  # from the public lobby message: a new private panel
            table = self.service.host_lobby(click.table, user)
            await send(interaction, panel_content(table, lang), view=panel_view(table, lang))
            return
        table = self.service.host_lobby(click.table, user)
        option: str | None = None
        notice: str | None = None
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values") or []]
        try:
            if click.what == "opt" and values and values[0] in PANEL_OPTIONS:
                option = values[0]
            elif click.what == "set" and click.option is not None and values:
                option = click.option
                await self.service.set_rules(
                    table.id, user, {option: read_value(option, values[0])}
                )
            elif click.what == "reset":
                base = Rules.from_preset(table.rules.preset, deals=table.rules.deals)
                await self.service.set_rules(table.id, user, base.to_dict())
            elif click.what in ("won", "woff"):
                await self.service.set_watching(table.id, user, click.what == "won")
            else:
                raise ServiceError("error.forged")
        except ServiceError as exc:
            notice = "⚠️ " + error_text(exc, lang)
        except ValueError as exc:  # RulesError from reading the value
            notice = "⚠️ " + error_text(ServiceError("error.bad_rules", reason=exc), lang)
        await interaction.response.edit_message(
            content=panel_content(table, lang, notice),
            view=panel_view(table, lang, option),
            allowed_mentions=NO_PINGS,
        )
