"""Seats in a running match, without Discord: taking a computer's seat (with the host's
answer, or at once when it was one's own), the host hand-over, and a match every person
left, finished by the computers and recorded unrated."""

from __future__ import annotations

from typing import Any

import pytest
from test_bot_service import ALICE, BOB, CAROL, CHANNEL, GUILD, play_out

from data import Seat, user_key
from tables import ServiceError, Table, TableService, TableSettings

EVE = 15


async def two_people_two_computers(service: TableService, deals: int = 1) -> Table:
    """Alice (host, seat 0), Bob (seat 1), computers in seats 2 and 3."""
    table = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=deals)
    await service.join(table.id, BOB, "Bob")
    return await service.start(table.id, ALICE)


async def refused(coro: Any) -> str:
    with pytest.raises(ServiceError) as err:
        await coro
    return err.value.key


async def test_a_new_seat_waits_for_the_host_who_approves_or_refuses(env: Any) -> None:
    service, rec, _timers, store = env
    table = await two_people_two_computers(service)
    seat, taken = await service.take_seat(table.id, CAROL, "Carol", 3)
    assert (seat, taken) == (3, False)
    assert table.seats[3].is_bot  # nothing changes before the host answers
    assert ("request", table.id, 3, CAROL, "asked") in rec.events
    assert await refused(service.take_seat(table.id, CAROL, "Carol", 2)) == (
        "error.seat_request_pending"
    )
    # only the host answers; Bob is seated but does not host
    assert await refused(service.answer_seat_request(table.id, BOB, CAROL, True)) == (
        "error.host_only"
    )
    await service.answer_seat_request(table.id, ALICE, CAROL, True)
    assert table.seats[3] == Seat.human(CAROL, "Carol")
    assert (await store.games.get_game(table.id)).seats[3].user_id == CAROL
    assert ("request", table.id, 3, CAROL, "approved") in rec.events
    assert ("seat", table.id, 3, "took", "Carol") in rec.events
    assert await refused(service.answer_seat_request(table.id, ALICE, CAROL, True)) == (
        "error.seat_request_gone"
    )
    # Eve asks for seat 2: refused, nothing changes
    await service.take_seat(table.id, EVE, "Eve")
    await service.answer_seat_request(table.id, ALICE, EVE, False)
    assert table.seats[2].is_bot and table.seat_of(EVE) is None
    assert ("request", table.id, 2, EVE, "refused") in rec.events
    assert service.seat_requests(table.id) == []


async def test_bad_seats_are_refused_with_a_clear_reason(env: Any) -> None:
    service, _rec, _timers, _store = env
    lobby = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
    assert await refused(service.take_seat(lobby.id, CAROL, "Carol")) == "error.sit_lobby"
    await service.cancel(lobby.id, ALICE, is_admin=False)
    table = await two_people_two_computers(service)
    assert await refused(service.take_seat(table.id, BOB, "Bob")) == "error.already_seated"
    assert await refused(service.take_seat(table.id, CAROL, "Carol", 1)) == (
        "error.seat_not_computer"
    )
    assert await refused(service.take_seat(table.id, CAROL, "Carol", 4)) == "error.bad_seat"
    daily = await service.start_daily(GUILD, CHANNEL, EVE, "Eve")
    assert await refused(service.take_seat(daily.id, CAROL, "Carol")) == "error.sit_daily"


async def test_a_seat_one_left_is_taken_back_at_once(env: Any) -> None:
    service, rec, timers, _store = env
    table = await two_people_two_computers(service)
    await service.leave(table.id, BOB)
    assert table.seats[1].is_bot
    # the former seat is Bob's first choice; no host needed
    assert service.seat_choices(table.id, BOB)[0] == 1
    seat, taken = await service.take_seat(table.id, BOB, "Bob")
    assert (seat, taken) == (1, True)
    assert table.seats[1] == Seat.human(BOB, "Bob")
    assert ("seat", table.id, 1, "back", "Bob") in rec.events
    assert not rec.kinds("request")
    # a computer's move already timed for the seat is not played for Bob
    match = table.match
    assert match is not None
    if match.to_act == 1:
        before = match.move_number
        await timers.advance(1.5)
        assert match.move_number == before


async def test_a_pending_request_comes_to_nothing_when_the_seat_is_taken(env: Any) -> None:
    service, rec, _timers, _store = env
    table = await two_people_two_computers(service)
    await service.take_seat(table.id, CAROL, "Carol", 2)
    await service.take_seat(table.id, EVE, "Eve", 2)
    await service.answer_seat_request(table.id, ALICE, CAROL, True)
    assert ("request", table.id, 2, EVE, "void") in rec.events
    assert await refused(service.answer_seat_request(table.id, ALICE, EVE, True)) == (
        "error.seat_request_gone"
    )


async def test_the_host_role_passes_to_the_next_seated_person(env: Any) -> None:
    service, rec, _timers, store = env
    # in the lobby: Alice (seat 0) leaves, Bob (seat 1) hosts and may start
    lobby = await service.create_table(GUILD, CHANNEL, ALICE, "Alice", deals=1)
    await service.join(lobby.id, BOB, "Bob")
    await service.join(lobby.id, CAROL, "Carol")
    await service.leave(lobby.id, ALICE)
    assert lobby.host_id == BOB and ("host", lobby.id, BOB, "Bob") in rec.events
    assert service.hosted_by(GUILD, BOB) is lobby
    assert await refused(service.start(lobby.id, CAROL)) == "error.host_only"
    await service.start(lobby.id, BOB)
    # in play: Bob (seat 1) leaves; the next seated person after seat 1 is Carol (seat 2)
    await service.leave(lobby.id, BOB)
    assert lobby.host_id == CAROL and ("host", lobby.id, CAROL, "Carol") in rec.events
    assert (await store.games.get_game(lobby.id)).host_id == CAROL
    # Carol answers seat requests now
    await service.take_seat(lobby.id, EVE, "Eve", 3)
    await service.answer_seat_request(lobby.id, CAROL, EVE, True)
    assert lobby.seat_of(EVE) == 3


async def test_a_match_every_person_left_is_finished_by_the_computers_unrated(
    env: Any,
) -> None:
    service, rec, timers, store = env
    # a rated match first, so the standings hold something that must not change
    rated = await two_people_two_computers(service, deals=3)  # fewer is a try-out
    await play_out(service, timers, rated)
    board = await store.standings.leaderboard(GUILD)
    assert {s.user_id for s in board} >= {ALICE, BOB}

    table = await two_people_two_computers(service, deals=2)
    await service.take_seat(table.id, CAROL, "Carol")  # a request left open
    await service.leave(table.id, ALICE)
    await service.leave(table.id, BOB)
    assert ("seat", table.id, 1, "left_last", "Bob") in rec.events
    assert ("request", table.id, 2, CAROL, "void") in rec.events
    assert not rec.kinds("closed")  # not cancelled
    assert TableSettings.from_dict((await store.games.get_game(table.id)).settings).computers_finish
    assert await refused(service.take_seat(table.id, CAROL, "Carol")) == (
        "error.sit_computers_finish"
    )
    await timers.run_until_idle(max_delay=0)  # the computers play at once
    assert table.finished
    summary = rec.kinds("match")[-1][2]
    assert summary is not None and not summary.rated and summary.computers_finished
    # the people are on the seats they left (a computer standing in), so it is in
    # their history, marked; the standings did not change
    assert [p.user_id for p in summary.players] == [ALICE, BOB, None, None]
    assert all(p.mu_before == p.mu_after for p in summary.players)
    assert await store.standings.leaderboard(GUILD) == board  # the standings did not change
    history = await store.matches.recent_matches(GUILD, user_key(ALICE), limit=5)
    assert history[0].id == summary.id and history[0].computers_finished
    assert history[1].rated and not history[1].computers_finished


async def test_a_person_removed_needs_the_host_to_sit_down_again(env: Any) -> None:
    service, rec, _timers, _store = env
    table = await two_people_two_computers(service)
    await service.kick(table.id, ALICE, BOB, is_admin=False)
    seat, taken = await service.take_seat(table.id, BOB, "Bob")
    assert (seat, taken) == (1, False) and table.seats[1].is_bot
    assert ("request", table.id, 1, BOB, "asked") in rec.events
    await service.answer_seat_request(table.id, ALICE, BOB, False)
    assert table.seat_of(BOB) is None
    # and the stored settings keep it (a restart does not forget who was removed)
    stored = TableSettings.from_dict(table.game.settings).former_seats
    assert [(f.seat, f.user_id, f.kicked) for f in stored] == [(1, BOB, True)]


async def test_past_moves_of_a_seat_taken_from_a_computer_keep_the_computers_name(
    env: Any,
) -> None:
    from cogs.text.words import name_at

    service, _rec, timers, _store = env
    table = await two_people_two_computers(service)
    match = table.match
    assert match is not None
    # play on until the computer in seat 2 has made a move
    computer_move = None
    while computer_move is None:
        seat, move = match.to_act, match.move_number
        assert seat is not None
        if table.controlled_by_bot(seat):
            await timers.advance(1.5)
            computer_move = move if seat == 2 else None
        else:
            uid = table.seats[seat].user_id
            assert uid is not None
            await service.act(table.id, uid, seat, move, match.legal_actions()[-1])
    await service.take_seat(table.id, CAROL, "Carol", 2)
    await service.answer_seat_request(table.id, ALICE, CAROL, True)
    assert name_at(table, 2, computer_move, "en") == "Computer 3"
    assert name_at(table, 2, match.move_number, "en") == "Carol"


async def test_requests_come_to_nothing_when_the_table_closes(env: Any) -> None:
    service, rec, _timers, _store = env
    table = await two_people_two_computers(service)
    await service.take_seat(table.id, CAROL, "Carol", 3)
    await service.cancel(table.id, ALICE, is_admin=False)
    assert ("request", table.id, 3, CAROL, "void") in rec.events
    assert service.seat_requests(table.id) == []
