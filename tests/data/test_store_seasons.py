"""Seasons in the store: the season settings, each season's board from the rated matches
that ended in it (exact at the boundary, in the server's zone), the end of a season
recorded once with its podium and announcement, and the champions. Both backends."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from test_store_standings import rated, record

from data import InvalidSettingError, Seat, Store, user_key
from data.samples import STANDARD_RULES
from data.schema import MIGRATIONS
from data.season_calendar import season_at, season_of_label
from data.seasons import SEASON_END, PodiumPlace
from data.standings import STANDING_COLUMNS

from store_clock import Clock

CLOCK_START = datetime(2027, 3, 20, 12, 0, tzinfo=UTC)
G = 70
ALICE, BOB, CEM, DENIZ = 1, 2, 3, 4
PEOPLE = [Seat.human(ALICE), Seat.human(BOB), Seat.human(CEM), Seat.human(DENIZ)]


async def play(store: Store, at: datetime, winner: int, *, casual: bool = False) -> int:
    """A rated match that ended at ``at``, won by seat ``winner``; its id."""
    scores = [0, 0, 0, 0]
    scores[winner] = 50
    g = await store.games.create_game(G, 900 + winner, ALICE, {}, seats=PEOPLE)
    await store.games.start_game(g.id, phase="auction", to_act=0)
    m = await store.matches.record_match(
        G,
        PEOPLE,
        rated(record(scores, holder=winner)),
        rules=STANDARD_RULES,
        game_id=g.id,
        finished_at=at,
        rated=not casual,
    )
    return m.id


async def test_season_settings_are_checked_and_kept(store: Store) -> None:
    g = await store.guild_settings.get_guild_settings(G)
    assert (g.season, g.timezone, g.announce_channel) == ("monthly", "UTC", None)
    g = await store.guild_settings.update_guild_settings(
        G, season="quarterly", timezone="Europe/Istanbul", announce_channel=555
    )
    again = await store.guild_settings.get_guild_settings(G)
    assert (again.season, again.timezone, again.announce_channel) == (
        "quarterly",
        "Europe/Istanbul",
        555,
    )
    with pytest.raises(InvalidSettingError) as bad:
        await store.guild_settings.update_guild_settings(G, timezone="Mars/Olympus")
    assert bad.value.code == "bad-timezone"
    with pytest.raises(InvalidSettingError) as bad:
        await store.guild_settings.update_guild_settings(G, season="weekly")
    assert bad.value.code == "not-one-of" and "none" in bad.value.params["allowed"]
    with pytest.raises(InvalidSettingError) as bad:
        await store.guild_settings.update_guild_settings(G, announce_channel=-3)
    assert bad.value.code == "bad-channel"
    # nothing changed by the refused ones
    assert (await store.guild_settings.get_guild_settings(G)).timezone == "Europe/Istanbul"


async def test_a_match_belongs_to_the_season_it_ended_in(store: Store) -> None:
    await store.guild_settings.update_guild_settings(G, timezone="Europe/Istanbul")
    april_starts = datetime(2027, 3, 31, 21, 0, tzinfo=UTC)  # midnight in Istanbul
    await play(store, april_starts - timedelta(milliseconds=1), ALICE - 1)  # March
    await play(store, april_starts, BOB - 1)  # April, exactly at the boundary
    await play(store, april_starts + timedelta(days=2), BOB - 1)
    await play(store, april_starts + timedelta(days=3), CEM - 1, casual=True)  # not counted
    m_board = await store.seasons.board(G, "2027-03")
    a_board = await store.seasons.board(G, season_of_label("2027-04", "Europe/Istanbul"))
    assert [(s.user_id, s.wins, s.matches) for s in m_board][:1] == [(ALICE, 1, 1)]
    assert [(s.user_id, s.wins, s.matches) for s in a_board][:1] == [(BOB, 2, 2)]
    assert {s.matches for s in a_board} == {2}  # the casual match is in no season
    assert [s.rank for s in a_board] == [1, 2, 3, 4]
    assert a_board[0].deal_score_sum == 100  # points: the season's match totals
    # the rating shown is the one after the player's last match of the season
    after = await store.standings.player_stats(G, user_key(BOB))
    assert after is not None
    assert a_board[0].rating == pytest.approx(after.rating)
    # in UTC the same instant is still March: the zone decides, as set when it ended
    await store.guild_settings.update_guild_settings(G, timezone="UTC")
    await play(store, april_starts + timedelta(minutes=1), DENIZ - 1)  # 21:01 UTC: March
    assert {s.wins for s in await store.seasons.board(G, "2027-03") if s.user_id == DENIZ} == {1}
    by_rating = await store.seasons.board(G, "2027-04", by="rating")
    assert by_rating[0].rating == max(s.rating for s in a_board)
    assert await store.seasons.labels(G) == ["2027-04", "2027-03"]
    played = await store.seasons.seasons_played(G, "Europe/Istanbul")
    assert [s.start for s in played][1] == datetime(2027, 2, 28, 21, tzinfo=UTC)
    # quarterly from now on: the next match counts in a quarter
    await store.guild_settings.update_guild_settings(G, season="quarterly")
    await play(store, april_starts + timedelta(days=5), ALICE - 1)
    assert await store.seasons.labels(G) == ["2027-Q2", "2027-04", "2027-03"]
    assert [s.wins for s in await store.seasons.board(G, "2027-Q2")][:1] == [1]


async def test_a_season_ends_once_with_its_podium(store: Store, clock: Clock) -> None:
    await store.guild_settings.update_guild_settings(G, announce_channel=4242)
    for day, seat in [(1, 0), (2, 0), (3, 1), (4, 2), (5, 0), (6, 1)]:
        await play(store, datetime(2027, 3, day, 12, tzinfo=UTC), seat)
    assert await store.seasons.due(G) == []  # March is still running
    clock.now = datetime(2027, 3, 31, 23, 59, 59, 999000, tzinfo=UTC)
    assert await store.seasons.due(G) == []
    clock.now = datetime(2027, 4, 1, 0, 0, tzinfo=UTC)  # the boundary, exactly
    (due,) = await store.seasons.due(G)
    assert due.label == "2027-03"
    # two processes at once: one records it, the other finds it done
    results = await asyncio.gather(
        store.seasons.close(G, due), store.seasons.close(G, due), store.seasons.close_due(G)
    )
    podiums = [r for r in results if r]
    assert len(podiums) == 1 and results.count(None) + results.count([]) == 2
    podium = podiums[0]
    assert isinstance(podium[0], PodiumPlace)
    assert [(p.place, p.user_id, p.wins, p.matches) for p in podium] == [
        (1, ALICE, 3, 6),
        (2, BOB, 2, 6),
        (3, CEM, 1, 6),
    ]
    assert await store.seasons.due(G) == []
    assert await store.seasons.close_due(G) == []
    pending = await store.announcements.pending_announcements(guild_id=G)
    ends = [a for a in pending if a.kind == SEASON_END]
    assert len(ends) == 1 and ends[0].channel_id == 4242 and ends[0].game_id is None
    assert ends[0].payload["season"] == "2027-03"
    assert [p["user_id"] for p in ends[0].payload["podium"]] == [ALICE, BOB, CEM]
    assert await store.seasons.podium(G, "2027-03") == podium
    assert await store.seasons.titles(G, user_key(ALICE)) == ["2027-03"]
    assert await store.seasons.titles(G, user_key(BOB)) == []
    assert await store.seasons.titles(G, user_key(BOB), place=2) == ["2027-03"]


async def test_a_quiet_season_in_between_and_no_seasons(store: Store, clock: Clock) -> None:
    await play(store, datetime(2027, 1, 10, tzinfo=UTC), 3)
    clock.now = datetime(2027, 3, 5, tzinfo=UTC)  # nobody played in February
    assert [s.label for s in await store.seasons.due(G)] == ["2027-01"]
    assert [s.label for s in await store.seasons.close_due(G)] == ["2027-01"]
    # the announcement goes to the channel of the season's last match (none was set)
    ends = await store.announcements.pending_announcements(guild_id=G)
    assert [a.channel_id for a in ends if a.kind == SEASON_END] == [903]
    await store.guild_settings.update_guild_settings(G, season="none")
    await play(store, datetime(2027, 3, 6, tzinfo=UTC), 0)
    clock.now = datetime(2027, 5, 1, tzinfo=UTC)
    assert await store.seasons.due(G) == []  # no seasons: nothing ever ends
    assert await store.seasons.labels(G) == ["2027-01"]  # the match counted in none


async def test_an_empty_season_has_an_empty_board(store: Store) -> None:
    s = season_at(CLOCK_START, "monthly", "UTC")
    assert s is not None
    assert await store.seasons.board(G, s) == []
    assert await store.seasons.seasons_played(G, "UTC") == []
    assert await store.seasons.close(G, s) is None  # a season nobody played never ends
    with pytest.raises(ValueError, match="by must be"):
        await store.seasons.board(G, s, by="luck")


V6_RATING = (26.0, 7.0, 5.0, 0.0, "2027-03-02T10:00:00.000+00:00")


async def test_the_months_before_seasons_become_seasons(tmp_path: Path) -> None:
    """Version 6 kept month rows (UTC); version 8 makes them the seasons they were
    (monthly, UTC): boards readable, the months already over not announced, each
    server's latest announced at its end."""
    path = tmp_path / "v6.sqlite3"
    await (await Store.open(path, migrations=MIGRATIONS[:6])).close()
    cols = ", ".join(STANDING_COLUMNS)
    marks = ", ".join("?" for _ in STANDING_COLUMNS)
    with sqlite3.connect(path) as db:
        for guild, period, wins in [
            (5, "all", 3),
            (5, "2027-02", 1),
            (5, "2027-03", 2),
            (6, "all", 1),
            (6, "2026-12", 1),
        ]:
            db.execute(
                f"INSERT INTO standings ({cols}) VALUES ({marks})",
                (guild, period, user_key(1), 1, None, 3, wins, 24, 90, 2, 1, 1, *V6_RATING),
            )
    store = await Store.open(path, clock=lambda: datetime(2027, 4, 2, tzinfo=UTC))
    try:
        assert await store.seasons.labels(5) == ["2027-03", "2027-02"]
        assert [(s.user_id, s.wins) for s in await store.seasons.board(5, "2027-02")] == [(1, 1)]
        assert [s.label for s in await store.seasons.due(5)] == ["2027-03"]
        assert [s.label for s in await store.seasons.due(6)] == ["2026-12"]
        assert await store.seasons.is_closed(5, "2027-02")
    finally:
        await store.close()
