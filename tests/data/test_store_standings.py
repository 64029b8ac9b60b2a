"""Finished matches, ratings and the per-server standings."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from batak.rules import MIN_RATED_DEALS
from data import AlreadyRecordedError, GameClosedError, Seat, Store, bot_key, user_key
from data.matches import placements_of, seat_stats
from data.samples import STANDARD_RULES, engine_match, synthetic_record

from store_clock import Clock


def record(
    scores: list[int],
    holder: int = 0,
    bid: int = 5,
    won: list[int] | None = None,
    partnership: bool = False,
) -> dict[str, Any]:
    rec = synthetic_record(random.Random(sum(scores) + holder))
    rec["score"] = scores
    rec["contract"] = {"seat": holder, "bid": bid, "forced": False, "trump": "S"}
    rec["tricks_won"] = won or [5, 3, 3, 2]
    rec["rules"] = dict(STANDARD_RULES, partnership=partnership)
    return rec


def rated(*recs: dict[str, Any]) -> list[dict[str, Any]]:
    """The deals ``recs``, then quiet ones (no contract, nobody scores) up to the shortest
    match that is rated: a shorter one is a try-out and never changes a standing."""
    quiet = [dict(recs[-1], score=[0, 0, 0, 0], contract=None)] * (MIN_RATED_DEALS - len(recs))
    return [*recs, *quiet]


PEOPLE = [Seat.human(1), Seat.human(2), Seat.human(3), Seat.human(4)]


def test_placements_and_seat_stats() -> None:
    assert placements_of([10, 30, 30, -5]) == [3, 1, 1, 4]
    assert placements_of([10, 30, 20, -5], winners=[1]) == [3, 1, 2, 4]
    # partners share their pair's place: the losing pair is 2nd and 2nd, as in batak.scoring
    assert placements_of([8, -8, 8, -8], partnership=True) == [1, 2, 1, 2]
    assert placements_of([8, 8, 8, 8], partnership=True) == [1, 1, 1, 1]
    with pytest.raises(ValueError, match="best total"):
        placements_of([10, 30, 20, -5], winners=[0])  # winners the totals do not give
    recs = [
        record([51, 12, 11, -10], holder=0, bid=5, won=[6, 2, 1, 0]),  # holder made
        record([-60, 12, 22, 11], holder=0, bid=6, won=[5, 2, 3, 3]),  # holder went down
        record([12, 71, 11, -10], holder=1, bid=7, won=[2, 7, 1, 0]),
    ]
    assert seat_stats(recs, 0) == {"deals": 3, "score": 3, "taken": 2, "made": 1, "down": 1}
    assert seat_stats(recs, 3) == {"deals": 3, "score": -9, "taken": 0, "made": 0, "down": 2}
    # partnership: the holder's team pools its tricks
    p = record([7, -7, 7, -7], holder=0, bid=7, won=[3, 3, 4, 3], partnership=True)
    assert seat_stats([p], 0)["made"] == 1


async def test_record_match_round_trip(store: Store) -> None:
    recs = [record([51, 12, 11, -10], won=[6, 2, 1, 0]), record([12, 61, 12, 11], holder=1, bid=6)]
    g = await store.games.create_game(7, 8, 1, {}, seats=PEOPLE)
    await store.games.start_game(g.id, phase="auction", to_act=1)
    m = await store.matches.record_match(
        7, PEOPLE, recs, rules=STANDARD_RULES, seed=99, game_id=g.id
    )
    assert m.totals == [63, 73, 23, 1] and m.winners == [1]
    assert [p.placement for p in m.players] == [2, 1, 3, 4]
    assert m.finished_at.startswith("2026-03-10T12:00")
    game = await store.games.get_game(g.id)
    assert game.status == "finished"  # in the same transaction

    got = await store.matches.get_match(m.id)
    assert got is not None
    assert got.players == m.players and got.totals == m.totals and got.seed == 99
    assert got.rules == STANDARD_RULES and got.preset == "standard" and got.game_id == g.id
    assert got.records == tuple(recs)
    lines = (await store.matches.match_records_jsonl([m.id])).splitlines()
    assert [json.loads(x) for x in lines] == recs

    with pytest.raises((AlreadyRecordedError, GameClosedError)):
        await store.matches.record_match(7, PEOPLE, recs, rules=STANDARD_RULES, game_id=g.id)


async def test_already_recorded_is_refused(store: Store) -> None:
    """Even if the table was reopened somehow, a game is recorded once."""
    g = await store.games.create_game(7, 8, 1, {}, seats=PEOPLE)
    await store.matches.record_match(
        7, PEOPLE, [record([1, 2, 3, 4])], rules=STANDARD_RULES, game_id=g.id
    )
    async with store.database.tx() as db:
        await db.execute("UPDATE games SET status = 'playing' WHERE id = ?", (g.id,))
    with pytest.raises(AlreadyRecordedError):
        await store.matches.record_match(
            7, PEOPLE, [record([1, 2, 3, 4])], rules=STANDARD_RULES, game_id=g.id
        )
    assert len(await store.matches.recent_matches(7)) == 1


async def test_free_for_all_rating_update(store: Store) -> None:
    m = await store.matches.record_match(
        1, PEOPLE, rated(record([40, 20, 10, -30])), rules=STANDARD_RULES
    )
    by_seat = {p.seat: p for p in m.players}
    assert by_seat[0].rating_change > 0 and by_seat[0].mu_after > by_seat[0].mu_before
    assert by_seat[3].rating_change < 0 and by_seat[3].mu_after < by_seat[3].mu_before
    assert by_seat[0].mu_after > by_seat[1].mu_after > by_seat[2].mu_after > by_seat[3].mu_after
    # the next match starts from the stored ratings
    mu_before = (await store.standings.rating(1, user_key(1)))[0]
    assert mu_before == pytest.approx(by_seat[0].mu_after)
    m2 = await store.matches.record_match(
        1, PEOPLE, rated(record([-30, 10, 20, 40])), rules=STANDARD_RULES
    )
    p0 = m2.players[0]
    assert p0.mu_before == pytest.approx(mu_before) and p0.mu_after < mu_before
    # other servers are separate
    mu, sigma = await store.standings.rating(2, user_key(1))
    assert mu == 25.0
    assert sigma == pytest.approx(25 / 3)


async def test_a_try_out_never_changes_a_rating(store: Store) -> None:
    """Fewer than 3 deals (played, or set in the rules) is a try-out: the store keeps it
    for the history but rates it not, whatever the caller asks."""
    one = await store.matches.record_match(
        1, PEOPLE, [record([80, -40, 10, -30])], rules=STANDARD_RULES, rated=True
    )
    two = await store.matches.record_match(
        1, PEOPLE, rated(record([80, -40, 10, -30]))[:2], rules=STANDARD_RULES
    )
    short_rules = dict(STANDARD_RULES, deals=2)  # the rules say 2, whatever was sent
    three = await store.matches.record_match(
        1, PEOPLE, rated(record([80, -40, 10, -30])), rules=short_rules
    )
    for m in (one, two, three):
        assert not m.rated
        assert all(p.mu_after == p.mu_before and p.sigma_after == p.sigma_before for p in m.players)
        assert all(p.rated_matches == 0 for p in m.players)
    assert await store.standings.leaderboard(1) == []
    assert await store.standings.player_stats(1, user_key(1)) is None
    assert await store.standings.rating(1, user_key(1)) == (25.0, pytest.approx(25 / 3))
    assert [m.rated for m in await store.matches.recent_matches(1)] == [False] * 3
    # three deals played under rules of three or more: rated, and on the leaderboard
    real = await store.matches.record_match(
        1, PEOPLE, rated(record([80, -40, 10, -30])), rules=STANDARD_RULES
    )
    assert real.rated and real.players[0].rating_change > 0
    assert [p.rated_matches for p in real.players] == [1, 1, 1, 1]
    assert len(await store.standings.leaderboard(1)) == 4
    again = await store.matches.get_match(real.id)
    assert again is not None and [p.rated_matches for p in again.players] == [1, 1, 1, 1]
    first = await store.matches.get_match(one.id)
    assert first is not None and [p.rated_matches for p in first.players] == [0, 0, 0, 0]


async def test_partnership_rates_both_partners(store: Store) -> None:
    rules = dict(STANDARD_RULES, preset="esli", partnership=True, scoring="tricks")
    recs = rated(record([8, -8, 8, -8], holder=0, bid=7, won=[4, 2, 4, 3], partnership=True))
    m = await store.matches.record_match(1, PEOPLE, recs, rules=rules)
    p = {x.seat: x for x in m.players}
    assert p[0].won and p[2].won and not p[1].won and not p[3].won
    assert p[0].placement == p[2].placement == 1 and p[1].placement == p[3].placement == 2
    for s in (0, 2):
        assert p[s].mu_after > p[s].mu_before and p[s].rating_change > 0
    for s in (1, 3):
        assert p[s].mu_after < p[s].mu_before and p[s].rating_change < 0
    assert p[0].mu_after == pytest.approx(p[2].mu_after)
    assert m.partnership
    for uid in (1, 3):
        st = await store.standings.player_stats(1, user_key(uid))
        assert st is not None and st.wins == 1 and st.rating > 0
    assert p[0].contracts_taken == 1 and p[0].contracts_made == 1 and p[2].contracts_taken == 0


async def test_computer_players_have_their_own_ratings(store: Store) -> None:
    seats = [Seat.human(1), Seat.bot("hard"), Seat.bot("hard"), Seat(5, "easy")]  # 5 is away
    m = await store.matches.record_match(
        1, seats, rated(record([-30, 40, 20, 10])), rules=STANDARD_RULES
    )
    keys = [p.player_key for p in m.players]
    assert keys == [user_key(1), bot_key("hard"), bot_key("hard"), user_key(5)]
    assert m.players[3].bot_level is None and m.players[1].bot_level == "hard"
    hard = await store.standings.player_stats(1, bot_key("hard"))
    assert hard is not None and hard.matches == 2 and hard.wins == 1 and hard.is_bot
    assert hard.mu > 25  # first and second place
    assert m.players[1].mu_after == m.players[2].mu_after  # one rating for the level
    board = await store.standings.leaderboard(1)
    assert board[0].player_key == bot_key("hard")
    people = await store.standings.leaderboard(1, include_bots=False)
    assert all(not s.is_bot for s in people) and len(people) == 2
    best_person = people[0]
    among_people = await store.standings.player_stats(1, best_person.player_key, include_bots=False)
    among_all = await store.standings.player_stats(1, best_person.player_key)
    assert among_people is not None and among_all is not None
    assert among_people.rank == 1 and among_all.rank == 2


async def test_leaderboards_and_stats(store: Store, clock: Clock) -> None:
    # March: player 1 wins twice, player 2 once
    await store.matches.record_match(
        1, PEOPLE, rated(record([50, 10, 5, -10], won=[6, 3, 2, 2])), rules=STANDARD_RULES
    )
    await store.matches.record_match(
        1, PEOPLE, rated(record([40, 30, 5, -10], won=[6, 3, 2, 2])), rules=STANDARD_RULES
    )
    await store.matches.record_match(
        1, PEOPLE, rated(record([-60, 50, 5, 11], won=[4, 4, 3, 2])), rules=STANDARD_RULES
    )
    clock.now = datetime(2026, 4, 2, 9, 0, tzinfo=UTC)
    seats = [Seat.human(3), Seat.human(2), Seat.human(5), Seat.human(6)]
    await store.matches.record_match(
        1, seats, rated(record([70, 10, 5, -10], won=[7, 3, 2, 1])), rules=STANDARD_RULES
    )

    wins = await store.standings.leaderboard(1, by="wins")
    assert [(s.player_key, s.wins, s.rank) for s in wins[:3]] == [
        (user_key(1), 2, 1),
        (user_key(2), 1, 2),
        (user_key(3), 1, 3),
    ]
    rating = await store.standings.leaderboard(1, by="rating")
    assert [s.rating for s in rating] == sorted((s.rating for s in rating), reverse=True)
    assert len(rating) == 6

    april = await store.standings.leaderboard(1, by="wins", period="month")
    assert {s.player_key for s in april} == {user_key(u) for u in (2, 3, 5, 6)}
    assert april[0].player_key == user_key(3) and april[0].matches == 1
    march = await store.standings.leaderboard(1, by="wins", period="2026-03")
    assert [s.player_key for s in march][:2] == [user_key(1), user_key(2)]
    assert all(s.period == "2026-03" for s in march)
    assert await store.standings.leaderboard(1, period="2025-01") == []
    assert await store.standings.leaderboard(2) == []
    with pytest.raises(ValueError):
        await store.standings.leaderboard(1, by="luck")
    with pytest.raises(ValueError):
        await store.standings.leaderboard(1, period="yesterday")

    st = await store.standings.player_stats(1, user_key(1))
    assert st is not None
    assert (st.matches, st.wins, st.deals, st.deal_score_sum) == (3, 2, 9, 30)
    assert st.average_deal_score == pytest.approx(30 / 9)
    assert (st.contracts_taken, st.contracts_made, st.went_down) == (3, 2, 1)
    assert st.rank == 1 + sum(1 for s in rating if s.rating > st.rating)
    assert await store.standings.player_stats(1, user_key(42)) is None
    p3 = await store.standings.player_stats(1, user_key(3), period="month")
    assert p3 is not None and p3.matches == 1 and p3.rating_change > 0
    # offset paging keeps the rank numbering
    page2 = await store.standings.leaderboard(1, limit=2, offset=2)
    assert [s.rank for s in page2] == [3, 4]
    regulars = await store.standings.leaderboard(1, min_matches=3)
    assert [s.player_key for s in regulars] == [s.player_key for s in rating if s.matches >= 3]
    assert [s.rank for s in regulars] == list(range(1, len(regulars) + 1))


async def test_recent_matches(store: Store) -> None:
    ids = []
    for i in range(5):
        seats = PEOPLE if i % 2 == 0 else [Seat.human(9), *PEOPLE[1:]]
        m = await store.matches.record_match(1, seats, [record([i, 0, 0, 0])], rules=STANDARD_RULES)
        ids.append(m.id)
    mine = await store.matches.recent_matches(1, user_key(1), limit=10)
    assert [m.id for m in mine] == [ids[4], ids[2], ids[0]]
    assert all(m.records is None for m in mine)
    with_recs = await store.matches.recent_matches(1, user_key(1), limit=2, with_records=True)
    assert [m.id for m in with_recs] == [ids[4], ids[2]]
    assert with_recs[0].records is not None and with_recs[0].records[0]["score"] == [4, 0, 0, 0]
    older = await store.matches.recent_matches(1, user_key(1), before_id=ids[2])
    assert [m.id for m in older] == [ids[0]]
    assert [m.id for m in await store.matches.recent_matches(1, limit=2)] == [ids[4], ids[3]]
    assert await store.matches.recent_matches(2) == []


async def test_engine_match_records_round_trip(store: Store) -> None:
    pytest.importorskip("batak")
    from batak import deal_from_record

    recs = engine_match(11)
    totals = [sum(r["score"][s] for r in recs) for s in range(4)]
    m = await store.matches.record_match(3, PEOPLE, recs, rules=recs[0]["rules"], totals=totals)
    got = await store.matches.get_match(m.id)
    assert got is not None and got.records is not None
    assert list(got.records) == recs
    for r in got.records:
        deal_from_record(r)  # the engine's reader accepts what the store gives back
    jsonl = await store.matches.match_records_jsonl([m.id])
    assert [json.loads(line) for line in jsonl.splitlines()] == recs


async def test_purge_closed_games_keeps_matches(store: Store, clock: Clock) -> None:
    done = await store.games.create_game(1, 2, 3, {}, seats=PEOPLE)
    await store.games.append_action(done.id, 0, "bid 5", seat=1, phase="auction", to_act=2)
    m = await store.matches.record_match(
        1, PEOPLE, rated(record([1, 2, 3, 4])), rules=STANDARD_RULES, game_id=done.id
    )
    gone = await store.games.create_game(1, 2, 3, {})
    await store.games.cancel_game(gone.id)
    live = await store.games.create_game(1, 2, 3, {})
    log = await store.games.action_log(done.id)
    assert log[0].at == "2026-03-10T12:00:00.000+00:00"

    clock.now = datetime(2026, 3, 20, tzinfo=UTC)
    assert await store.maintenance.purge_closed_games(30) == 0
    clock.now = datetime(2026, 5, 1, tzinfo=UTC)
    assert await store.maintenance.purge_closed_games(30) == 2
    assert [g.id for g in await store.games.list_games(status=None)] == [live.id]
    assert await store.games.action_log(done.id) == []
    kept = await store.matches.get_match(m.id)
    assert kept is not None and kept.game_id is None and kept.records
    st = await store.standings.player_stats(1, user_key(4))
    assert st is not None and st.wins == 1
