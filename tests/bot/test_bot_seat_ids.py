"""The seat buttons' ids: written and read back, and nothing else accepted."""

from __future__ import annotations

import pytest

from cogs.components.seats import SeatClick, answer_id, parse_seat_id, seat_id


def test_the_ids_the_bot_writes_read_back() -> None:
    assert parse_seat_id(seat_id(7, "sit")) == SeatClick(7, "sit")
    assert parse_seat_id(seat_id(7, "s3")) == SeatClick(7, "seat", seat=3)
    assert parse_seat_id(answer_id(7, 123456789012345678, True)) == SeatClick(
        7, "answer", user=123456789012345678, approve=True
    )
    assert parse_seat_id(answer_id(7, 42, False)) == SeatClick(7, "answer", user=42)


@pytest.mark.parametrize(
    "forged",
    [
        "bs:07:sit",  # a leading zero
        "bs:0:sit",
        "bs:7:s4",  # no seat 5
        "bs:7:s03",
        "bs:7:S1",
        "bs:7:stand",
        "bs:7:sit:1",
        "bs:7:42:yes",
        "bs:7:042:y",
        "bs:7:0:y",
        "bs:7:-1:n",
        "bs:7:42:y:1",
        "bs:7",
        "bs:",
        "BS:7:sit",
        "bx:7:sit",
        "",
    ],
)
def test_anything_else_is_refused(forged: str) -> None:
    assert parse_seat_id(forged) is None
