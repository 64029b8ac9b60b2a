"""House rules and the watching setting of a lobby: the host changes them before the start.

Every value is judged by the engine (:class:`batak.Rules`); a change the engine refuses
changes nothing and is answered with its reason, which names the option. A table whose
rules differ from its preset, or whose match is shorter than 3 deals (a try-out), is
casual: its match never changes a rating.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from batak import Rules, RulesError, preset

from .errors import ServiceError
from .events import Moment, TableChanged
from .model import Table, can_be_rated
from .registry import Registry


def rules_with(base: Rules, options: Mapping[str, Any]) -> Rules:
    """``base`` with ``options`` changed (``preset`` among them starts from that preset,
    keeping the match length unless it is given too); the engine's refusal, naming the
    option, becomes ``error.bad_rules``."""
    try:
        if "preset" in options and options["preset"] != base.preset:
            rest = {k: v for k, v in options.items() if k != "preset"}
            start = preset(str(options["preset"]), deals=base.deals)
            return Rules.from_dict({**start.to_dict(), **rest})
        return Rules.from_dict({**base.to_dict(), **options})
    except RulesError as exc:
        raise ServiceError("error.bad_rules", reason=exc) from exc


class HouseRules:
    """The host's rules panel: house rules and watching, in the lobby."""

    def __init__(self, reg: Registry) -> None:
        self.reg = reg

    def host_lobby(self, table_id: int, user_id: int) -> Table:
        table = self.reg.get(table_id)
        if table.is_daily:
            raise ServiceError("error.daily_fixed")
        if not table.in_lobby:
            raise ServiceError("error.already_started")
        if not self.reg.is_host(table, user_id):
            raise ServiceError("error.host_only")
        return table

    async def set_rules(self, table_id: int, user_id: int, options: Mapping[str, Any]) -> Rules:
        """The host changes options of the lobby's rules (``{}`` or ``{"preset": name}``
        included). The table stays rated only while it plays its preset unchanged for at
        least :data:`~batak.rules.MIN_RATED_DEALS` deals (:func:`can_be_rated`: fewer is
        a try-out); once casual it stays casual (the people at it were told so), also
        when the deals are put back to 3 or more."""
        table = self.host_lobby(table_id, user_id)
        async with self.reg.hold(table):
            table = self.host_lobby(table_id, user_id)
            rules = rules_with(table.rules, options)
            if rules == table.rules:
                return rules
            rated = table.settings.rated and can_be_rated(rules)
            hints = table.settings.hints
            if table.settings.rated and not rated:
                guild = await self.reg.store.guild_settings.get_guild_settings(table.game.guild_id)
                hints = guild.casual_hints
            settings = replace(table.settings, rules=rules.to_dict(), rated=rated, hints=hints)
            table.game = await self.reg.store.games.set_game_settings(table.id, settings.to_dict())
            table.rules = rules
            changed = TableChanged(Moment.of(table))
        await self.reg.emit([changed])
        return rules

    async def set_watching(self, table_id: int, user_id: int, allowed: bool) -> None:
        """The host lets people watch the match privately, or not."""
        table = self.host_lobby(table_id, user_id)
        async with self.reg.hold(table):
            table = self.host_lobby(table_id, user_id)
            if table.settings.watching == allowed:
                return
            settings = replace(table.settings, watching=allowed)
            table.game = await self.reg.store.games.set_game_settings(table.id, settings.to_dict())
            changed = TableChanged(Moment.of(table))
        await self.reg.emit([changed])

    def watchable(self, table_id: int, user_id: int) -> Table:
        """A table ``user_id`` may watch: open, not a daily match, watching on, not seated
        there (their own hand shows them more)."""
        table = self.reg.get(table_id)
        if table.is_daily or table.status not in ("lobby", "playing"):
            raise ServiceError("error.table_over")
        if not table.settings.watching:
            raise ServiceError("error.watching_off")
        if table.seat_of(user_id) is not None:
            raise ServiceError("error.watch_seated")
        if table.match is None:
            raise ServiceError("error.not_started")
        return table
