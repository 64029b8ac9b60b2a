"""Rated and casual tables in the service: who may have hints, what is recorded; a
try-out (a match shorter than 3 deals) is never rated; what a result says of ratings."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_bot_service import ALICE, CHANNEL, GUILD, play_out

from batak import Rules
from batak.rules import MIN_RATED_DEALS
from cogs.i18n import languages
from cogs.text.house import panel_text
from cogs.text.summaries import match_result_text, public_summary, rating_line
from data import MatchPlayer, display_rating
from tables import ServiceError, Table, TableService, can_be_rated, is_preset_unchanged

TRY_OUT = "Try-out table: a match of fewer than 3 deals is not rated"


async def alice_and_computers(service: TableService, deals: int = 1, **kw: Any) -> Table:
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=deals, **kw)
    return await service.start(table.id, ALICE)


def test_preset_unchanged() -> None:
    assert is_preset_unchanged(Rules.from_preset("classic"))
    assert is_preset_unchanged(Rules.from_preset("esli", deals=3))  # the length is free
    assert not is_preset_unchanged(Rules.from_preset("standard", min_bid=6))
    assert not is_preset_unchanged(Rules.from_preset("kanli", blind_bidding=False))
    # the one rule of a rated table: its preset unchanged, and at least 3 deals
    assert MIN_RATED_DEALS == 3
    assert can_be_rated(Rules.from_preset("esli", deals=3))
    assert not can_be_rated(Rules.from_preset("esli", deals=2))
    assert not can_be_rated(Rules.from_preset("standard", deals=1))
    assert not can_be_rated(Rules.from_preset("standard", min_bid=6))


async def test_rated_table_refuses_hints_and_is_rated(env: Any) -> None:
    service, _rec, timers, store = env
    await store.guild_settings.update_guild_settings(
        GUILD, casual_hints=True
    )  # never at a rated table
    table = await alice_and_computers(service, deals=MIN_RATED_DEALS)
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
    # her first rated match: how far along she is, no rating number and no change
    (line,) = [x for x in text.splitlines() if "Alice" in x and ". " in x[:3]]
    assert line.endswith(" · still settling in: 1 of 5 rated matches, no rating shown yet")
    assert not re.search(r"[+-]\d|\d{3}", line.split(" · ")[1])
    assert "casual" not in text and "?" not in text


async def test_casual_table_hints_only_when_the_server_allows(env: Any) -> None:
    service, _rec, timers, store = env
    table = await alice_and_computers(service, deals=MIN_RATED_DEALS, casual=True)
    assert not table.settings.rated and not table.settings.hints
    with pytest.raises(ServiceError) as err:
        await service.hint(table.id, ALICE)
    assert err.value.key == "error.hint_off"
    await service.cancel(table.id, ALICE, is_admin=False)

    await store.guild_settings.update_guild_settings(GUILD, casual_hints=True)
    table = await alice_and_computers(service, deals=MIN_RATED_DEALS, casual=True)
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


# ----------------------------------------------------------------------------- try-outs
@pytest.mark.parametrize("deals", [1, 2])
async def test_no_rated_match_under_the_minimum_length(env: Any, deals: int) -> None:
    """A 1- or 2-deal table is a try-out: casual from the lobby on, the lobby says why,
    and its match changes no rating and never reaches the leaderboard."""
    service, _rec, timers, store = env
    lobby = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=deals)
    assert not lobby.settings.rated and not lobby.settings.hints
    assert TRY_OUT + ", so the ratings do not change; no hints." in public_summary(lobby, "en")
    table = await service.start(lobby.id, ALICE)
    await play_out(service, timers, table)
    summary = table.summary
    assert summary is not None and not summary.rated
    assert all(p.mu_after == p.mu_before for p in summary.players)
    assert await store.standings.leaderboard(GUILD) == []
    assert await store.standings.player_stats(GUILD, f"user:{ALICE}") is None
    text = match_result_text(table, summary, "en")
    assert text.endswith("A try-out (fewer than 3 deals): not rated, the ratings did not change.")
    assert "rating" not in text.split("\n", 2)[2].split("A try-out")[0]
    # its rematch is a try-out too
    again = await service.rematch(table.id, ALICE, "Alice")
    assert again.rules.deals == deals and not again.settings.rated


async def test_a_short_table_with_house_rules_is_told_casual(env: Any) -> None:
    """Its house-rules line already says why it is casual: no try-out words."""
    service, _rec, _timers, _store = env
    options = {"min_bid": 6}
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1, options=options)
    text = public_summary(table, "en")
    assert not table.settings.rated and "Casual table" in text and "Try-out" not in text


async def test_three_deals_of_an_unchanged_preset_are_rated(env: Any) -> None:
    service, _rec, _timers, store = env
    await store.guild_settings.update_guild_settings(GUILD, casual_hints=True)
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=3)
    assert table.settings.rated and "Rated table" in public_summary(table, "en")
    await service.cancel(table.id, ALICE, is_admin=False)
    short = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=2)
    assert short.settings.hints  # the server allows hints at casual tables
    assert TRY_OUT + ", so the ratings do not change; hints are on." in public_summary(short, "en")


async def test_the_house_panel_shortening_the_match_makes_it_a_try_out(env: Any) -> None:
    service, _rec, _timers, _store = env
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice")
    await service.set_rules(table.id, ALICE, {"deals": 5})  # still long enough
    assert table.rules.deals == 5 and table.settings.rated
    await service.set_rules(table.id, ALICE, {"deals": 2})
    assert table.rules.deals == 2 and not table.settings.rated
    assert TRY_OUT in public_summary(table, "en")
    panel = panel_text(table.rules, table.id, table.settings.rated, True, "en")
    assert TRY_OUT + "; the ratings do not change." in panel
    # as with any change: once the table was announced casual, it stays casual
    await service.set_rules(table.id, ALICE, {"deals": 3})
    assert table.rules.deals == 3 and not table.settings.rated
    assert "Casual table" in public_summary(table, "en")


# ----------------------------------------------------------------------------- a result's words
def player(rated_matches: int | None, *, user_id: int | None = ALICE) -> MatchPlayer:
    """Rated from 1012 to 1026 on the shown scale (sigma 1: ordinal mu - 3)."""
    return MatchPlayer(
        0, "p", user_id, None, 40, 1, True, 3, 1, 1, 0, 3.3, 1.0, 3.65, 1.0, rated_matches
    )


def test_a_settled_player_reads_the_rating_and_its_change() -> None:
    p = player(7)
    assert (display_rating(p.rating_before), display_rating(p.rating_after)) == (1012, 1026)
    assert rating_line(p, "en") == "· rating 1026 (+14)"
    assert rating_line(player(7, user_id=None), "en") is None  # a computer player
    assert rating_line(player(None), "en") is None  # the count was not read


@pytest.mark.parametrize("lang", languages())
def test_a_player_settling_in_reads_no_rating_number(lang: str) -> None:
    line = rating_line(player(2), lang)
    assert line is not None
    # only how far along they are: 2 of 5, never the rating or its change
    assert sorted(re.findall(r"\d+", line)) == ["2", "5"], line
    assert "+" not in line and "?" not in line
