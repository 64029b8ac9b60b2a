"""Rated and casual tables in the service: who may have hints, what is recorded."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_bot_service import ALICE, CHANNEL, GUILD, play_out

from batak import Rules
from cogs.text.summaries import match_result_text
from tables import ServiceError, Table, TableService, is_preset_unchanged


async def alice_and_computers(service: TableService, **kw: Any) -> Table:
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1, **kw)
    return await service.start(table.id, ALICE)


def test_preset_unchanged() -> None:
    assert is_preset_unchanged(Rules.from_preset("classic"))
    assert is_preset_unchanged(Rules.from_preset("esli", deals=3))  # the length is free
    assert not is_preset_unchanged(Rules.from_preset("standard", min_bid=6))
    assert not is_preset_unchanged(Rules.from_preset("kanli", blind_bidding=False))


async def test_rated_table_refuses_hints_and_is_rated(env: Any) -> None:
    service, _rec, timers, store = env
    await store.guild_settings.update_guild_settings(
        GUILD, casual_hints=True
    )  # never at a rated table
    table = await alice_and_computers(service)
    assert table.settings.rated and not table.settings.hints
    with pytest.raises(ServiceError) as err:
        await service.hint(table.id, ALICE)
    assert err.value.key == "error.hint_rated"
    await play_out(service, timers, table)
    assert table.summary is not None and table.summary.rated
    assert {s.user_id for s in await store.standings.leaderboard(GUILD, include_bots=False)} == {
        ALICE
    }
    text = match_result_text(table, table.summary, "en")
    assert re.search(r"\(rating [+-]\d+\)", text) and "casual" not in text


async def test_casual_table_hints_only_when_the_server_allows(env: Any) -> None:
    service, _rec, timers, store = env
    table = await alice_and_computers(service, casual=True)
    assert not table.settings.rated and not table.settings.hints
    with pytest.raises(ServiceError) as err:
        await service.hint(table.id, ALICE)
    assert err.value.key == "error.hint_off"
    await service.cancel(table.id, ALICE, is_admin=False)

    await store.guild_settings.update_guild_settings(GUILD, casual_hints=True)
    table = await alice_and_computers(service, casual=True)
    assert table.settings.hints
    match = table.match
    assert match is not None
    while match.to_act != 0:
        await service._timer_fired(table.id, match.move_number, False)
    action, _reason = await service.hint(table.id, ALICE)
    assert action in match.legal_actions()
    await play_out(service, timers, table)
    assert table.summary is not None and not table.summary.rated
    text = match_result_text(table, table.summary, "en")
    assert "(rating" not in text and text.endswith("A casual match: the ratings did not change.")
    assert await store.standings.leaderboard(GUILD) == []  # a casual match changes no standing
    (recent,) = await store.matches.recent_matches(GUILD)
    assert recent.rated is False
    # its rematch is casual too
    again = await service.rematch(table.id, ALICE, "Alice")
    assert not again.settings.rated


async def test_daily_match_refuses_hints(env: Any) -> None:
    service, _rec, _timers, store = env
    await store.guild_settings.update_guild_settings(GUILD, casual_hints=True)
    table = await service.start_daily(GUILD, CHANNEL, ALICE, "Alice")
    with pytest.raises(ServiceError) as err:
        await service.hint(table.id, ALICE)
    assert err.value.key == "error.hint_daily"


async def test_old_rows_read_as_rated(env: Any) -> None:
    from tables import TableSettings

    assert TableSettings.from_dict({}).rated
    assert not TableSettings.from_dict({"rated": True, "hints": True}).hints
    s = TableSettings.from_dict({"rated": False, "hints": True})
    assert not s.rated and s.hints and TableSettings.from_dict(s.to_dict()) == s
