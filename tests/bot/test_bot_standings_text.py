"""The server's texts (cogs/text/standings.py): names, lines and the settings summary."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogs.i18n import languages, t
from cogs.text.standings import (
    board_text,
    daily_board_text,
    named_standings,
    notifications_saved_text,
    settings_text,
    stats_text,
)
from data import DailyResult, GuildSettings, Standing

ALICE = Standing(
    guild_id=1,
    period="all",
    player_key="u:11",
    user_id=11,
    bot_level=None,
    matches=4,
    wins=3,
    deals=12,
    deal_score_sum=30,
    contracts_taken=5,
    contracts_made=4,
    went_down=1,
    mu=27.0,
    sigma=6.0,
    rating=9.25,
    start_rating=0.0,
    last_match_at="2026-12-01",
    rank=1,
)
HARD = replace(ALICE, player_key="b:hard", user_id=None, bot_level="hard", rank=2, rating=3.0)


def test_leaderboard_names_people_and_computer_levels() -> None:
    steady = replace(ALICE, matches=12, rated_matches=12)
    named = named_standings([steady, replace(HARD, rated_matches=30)], {11: "Alice"}, "en")
    computer = t("seat.bot_level", "en", level=t("level.hard", "en"))
    assert [name for _, name in named] == ["Alice", computer]
    text = board_text(named, "Rating", "All time", "en")
    lines = text.splitlines()
    assert lines[0] == "Rating · All time"
    # 1000 + 40 x 9.25
    assert len(lines) == 3 and "Alice" in lines[1] and "rating 1370 ·" in lines[1]


def test_leaderboard_keeps_computers_and_newcomers_apart() -> None:
    steady = replace(ALICE, matches=12)
    newcomer = replace(ALICE, player_key="u:12", user_id=12, matches=2, rank=None)
    text = board_text(
        named_standings([steady], {11: "Alice"}, "en"),
        "R",
        "A",
        "en",
        [HARD],
        named_standings([newcomer], {12: "Bob"}, "en"),
    )
    lines = text.splitlines()
    assert "1370" in lines[1] and "?" not in text
    # the computer level is still settling in: words, not a number
    assert lines[2] == "Computer players: hard not shown yet (4 of 5 rated matches)"
    assert "Computer" not in " ".join(lines[:2])
    # a person with two rated matches is named apart, never ranked nor rated
    assert lines[3] == "Still settling in, not ranked until 5 rated matches: Bob"
    assert "Bob" not in " ".join(lines[:3])


def test_a_month_does_not_make_a_regular_a_newcomer() -> None:
    month = replace(ALICE, period="2026-12", matches=1, rated_matches=40)
    assert not month.provisional
    assert "rating 1370 ·" in stats_text("Alice", month, None, "en")
    newcomer = stats_text("Alice", replace(ALICE, matches=2), None, "en").splitlines()[1]
    assert "rank –" in newcomer and "rating not shown yet (2 of 5 rated matches)" in newcomer
    assert "1370" not in newcomer


def test_daily_board_has_one_line_per_result() -> None:
    row = DailyResult(1, "2026-12-01", 11, 5, 42, 1, None, "", "", rank=1)
    text = daily_board_text([row], {11: "Alice"}, "en")
    assert len(text.splitlines()) == 2 and "Alice" in text and "42" in text


def test_stats_skip_an_empty_month() -> None:
    both = stats_text("Alice", ALICE, ALICE, "en").splitlines()
    alone = stats_text("Alice", ALICE, None, "en").splitlines()
    assert len(both) == 3 and len(alone) == 2 and "Alice" in alone[0]
    assert "75" in alone[1]  # the win rate in per cent


def test_settings_show_every_value() -> None:
    g = GuildSettings(guild_id=1, deals=5, async_turn_timeout_s=5400, use_threads=False)
    text = settings_text(g, "en")
    assert "5" in text and "1.5" in text and "60" in text
    assert "Hints at casual tables: no" in text
    assert "Hints at casual tables: yes" in settings_text(replace(g, casual_hints=True), "en")


def test_personal_settings_and_one_match_deal_by_deal() -> None:
    from batak import Match, preset
    from cogs.text.standings import match_deals_text, personal_text
    from data import MatchPlayer, MatchSummary, UserSettings

    assert "not chosen" in personal_text(UserSettings(5), "en")
    me = personal_text(UserSettings(5, "tr", True, "light"), "en")
    assert "Türkçe" in me and "four colours" in me and "light" in me
    match = Match(preset("standard", deals=2), seed=9)
    while not match.is_over:
        match.apply(match.legal_actions()[0], match.to_act)
    records = tuple(d.to_record() for d in match.finished)
    places = match.placements()
    players = tuple(
        MatchPlayer(
            s,
            f"u:{s}",
            s,
            None,
            match.totals[s],
            places[s],
            places[s] == 1,
            2,
            0,
            0,
            0,
            25.0,
            8.0,
            25.0,
            8.0,
        )
        for s in range(4)
    )
    summary = MatchSummary(
        3, 1, None, "standard", {}, 9, False, 2, "2026-12-01T10:00", players, records, rated=False
    )
    text = match_deals_text(summary, ["A", "B", "C", "D"], "en").splitlines()
    assert text[0] == "Match #3 · 2026-12-01 · Standard, 2 deals · casual"
    assert text[1].startswith("Deal 1: ") and text[2].startswith("Deal 2: ")
    assert ("made" in text[1]) or ("down" in text[1])
    assert text[3].startswith("Places: 1. ")


@pytest.mark.parametrize("lang", languages())
def test_saved_notifications_never_speak_of_zero_tables(lang: str) -> None:
    none = notifications_saved_text("every", 0, lang)
    assert t("notify.every", lang) in none
    assert "0" not in none and "{" not in none
    # One open table and several read differently, and several give their number.
    one, three = (notifications_saved_text("never", n, lang) for n in (1, 3))
    assert len({none, one, three}) == 3
    assert "3" in three and t("notify.never", lang) in three


def test_saved_notifications_in_english() -> None:
    assert notifications_saved_text("needed", 0, "en") == (
        "Your turn notifications: when needed (you have no open table now; "
        "your next tables will use it)."
    )
    assert "at your open table and" in notifications_saved_text("needed", 1, "en")
    assert "at your 2 open tables" in notifications_saved_text("needed", 2, "en")
