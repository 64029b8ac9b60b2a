"""Rated and casual matches, computers apart from people, the shown rating, and a
person's own settings."""

from __future__ import annotations

import random
from typing import Any

import pytest

from batak.rules import MIN_RATED_DEALS
from data import (
    PROVISIONAL_MATCHES,
    InvalidSettingError,
    Seat,
    Store,
    UserSettings,
    bot_key,
    display_rating,
    user_key,
)
from data.samples import STANDARD_RULES, synthetic_record


def record(scores: list[int]) -> list[dict[str, Any]]:
    """A match of the shortest rated length: one deal that scores, then quiet ones."""
    rec = synthetic_record(random.Random(sum(scores)))
    rec["score"] = scores
    rec["contract"] = {"seat": 0, "bid": 5, "forced": False, "trump": "S"}
    rec["tricks_won"] = [5, 3, 3, 2]
    rec["rules"] = dict(STANDARD_RULES)
    quiet = dict(rec, score=[0, 0, 0, 0], contract=None)
    return [rec] + [quiet] * (MIN_RATED_DEALS - 1)


SEATS = [Seat.human(1), Seat.human(2), Seat.bot("hard"), Seat.bot("easy")]


async def test_casual_match_is_kept_but_changes_no_standing(store: Store) -> None:
    rated = await store.matches.record_match(
        9, SEATS, record([50, 10, 5, -20]), rules=STANDARD_RULES
    )
    before = await store.standings.leaderboard(9)
    casual = await store.matches.record_match(
        9, SEATS, record([-40, 60, 5, 5]), rules=STANDARD_RULES, rated=False
    )
    assert rated.rated and not casual.rated
    assert all(
        p.mu_before == p.mu_after and p.sigma_before == p.sigma_after for p in casual.players
    )
    assert await store.standings.leaderboard(9) == before  # neither ratings nor wins moved
    stats = await store.standings.player_stats(9, user_key(2))
    assert stats is not None and stats.matches == 1 and stats.wins == 0
    recent = await store.matches.recent_matches(9, user_key(1))
    assert [m.rated for m in recent] == [False, True]  # the history keeps both
    again = await store.matches.get_match(casual.id)
    assert again is not None and again.rated is False


async def test_people_and_computers_apart(store: Store) -> None:
    await store.matches.record_match(9, SEATS, record([50, 10, 5, -20]), rules=STANDARD_RULES)
    people = await store.standings.leaderboard(9, include_bots=False)
    bots = await store.standings.leaderboard(9, bots_only=True)
    assert {s.player_key for s in people} == {user_key(1), user_key(2)}
    assert [s.rank for s in people] == [1, 2]
    assert {s.player_key for s in bots} == {bot_key("hard"), bot_key("easy")}
    first = people[0]
    assert first.player_key == user_key(1) and first.provisional
    assert first.shown_rating == display_rating(first.rating) > people[1].shown_rating


def test_display_rating_scale() -> None:
    assert display_rating(0.0) == 1000  # a new player
    assert display_rating(2.5) == 1100
    assert display_rating(-1.26) == 950
    assert PROVISIONAL_MATCHES == 5


async def test_user_settings_round_trip(store: Store) -> None:
    assert await store.user_settings.get_user_settings(5) == UserSettings(5)
    s = await store.user_settings.update_user_settings(
        5, language="tr", four_colour=True, theme="light"
    )
    assert (s.language, s.four_colour, s.theme, s.notifications) == ("tr", True, "light", None)
    assert await store.user_settings.get_user_settings(5) == s
    s = await store.user_settings.update_user_settings(5, four_colour=False, notifications="never")
    assert (s.language, s.four_colour, s.notifications) == ("tr", False, "never")
    assert await store.user_settings.get_user_settings(6) == UserSettings(6)  # one row per person
    for bad in ({"theme": "blue"}, {"four_colour": 1}, {"language": "xx"}, {"colour": True}):
        with pytest.raises(InvalidSettingError):
            await store.user_settings.update_user_settings(5, **bad)
    assert await store.user_settings.get_user_settings(5) == s  # a refusal changes nothing


async def test_casual_hints_setting(store: Store) -> None:
    assert (await store.guild_settings.get_guild_settings(3)).casual_hints is False
    g = await store.guild_settings.update_guild_settings(3, casual_hints=True)
    assert g.casual_hints and (await store.guild_settings.get_guild_settings(3)).casual_hints
    with pytest.raises(InvalidSettingError):
        await store.guild_settings.update_guild_settings(3, casual_hints="yes")
