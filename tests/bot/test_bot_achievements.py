"""Achievements told by the Discord layer: privately through a live hand (then marked
seen), and the server's optional quiet line under a result, read from the store."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.achievements import tell_achievements, with_achievements_line
from cogs.text.achievements import achievements_section
from data import Seat, Store
from data.samples import STANDARD_RULES, synthetic_record

SEATS = [Seat.human(1), Seat.human(2), Seat.bot("hard"), Seat.human(4)]


def crafted(holder: int, bid: int, tricks: list[int], score: list[int]) -> dict[str, Any]:
    rec = synthetic_record(random.Random(bid))
    rec["contract"] = {"seat": holder, "bid": bid, "forced": False, "trump": "S"}
    rec["tricks_won"], rec["score"] = tricks, score
    return rec


BIG = crafted(1, 10, [1, 10, 1, 1], [10, 100, 10, 10])  # seat 1 makes a 10


def match_of(*deals: dict[str, Any]) -> list[dict[str, Any]]:
    """Three deals; after the given ones a computer (seat 2) makes a quiet 5."""
    quiet = [crafted(2, 5, [3, 2, 6, 2], [0, 0, 50, 0]) for _ in range(3 - len(deals))]
    return [*deals, *quiet]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(str(tmp_path / "s.sqlite3"), housekeeping=None)
    yield s
    await s.close()


class FakeLive:
    """A live hand for user 2 only (in Turkish); the others have none."""

    def __init__(self) -> None:
        self.told: list[tuple[int, int, str]] = []

    async def tell(self, table_id: int, user_id: int, content: Callable[[str], str]) -> bool:
        if user_id != 2:
            return False
        self.told.append((table_id, user_id, content("tr")))
        return True


def table_of(summary: Any, guild_id: int = 5) -> Any:
    seats = [
        Seat.human(1, "Ayşe"),
        Seat.human(2, "Mehmet"),
        Seat.bot("hard"),
        Seat.human(4, "**Can**"),
    ]
    return SimpleNamespace(summary=summary, game=SimpleNamespace(guild_id=guild_id), seats=seats)


async def test_told_privately_then_not_new(store: Store) -> None:
    summary = await store.matches.record_match(5, SEATS, match_of(BIG), rules=STANDARD_RULES)
    live = FakeLive()
    announcer = SimpleNamespace(live=live, store=store)
    at = SimpleNamespace(table_id=77, game=SimpleNamespace(guild_id=5))
    await tell_achievements(announcer, at, summary)  # type: ignore[arg-type]
    assert live.told == [
        (77, 2, "🏅 Yeni başarı: Ondan yukarı. 10 ya da daha yüksek bir ihaleyi çıkardın.")
    ]
    (held,) = await store.achievements.of_player(5, 2)
    assert not held.new
    assert "new!" not in achievements_section([held], "en", mark_new=True)


async def test_not_told_without_a_live_hand_stays_new(store: Store) -> None:
    seats = [Seat.human(1), Seat.human(3), Seat.bot("hard"), Seat.human(4)]
    summary = await store.matches.record_match(5, seats, match_of(BIG), rules=STANDARD_RULES)
    live = FakeLive()
    at = SimpleNamespace(table_id=77, game=SimpleNamespace(guild_id=5))
    await tell_achievements(SimpleNamespace(live=live, store=store), at, summary)  # type: ignore[arg-type]
    assert live.told == []
    (held,) = await store.achievements.of_player(5, 3)
    assert held.new
    assert achievements_section([held], "en", mark_new=True).endswith("· new!")
    assert not achievements_section([held], "en", mark_new=False).endswith("· new!")


async def test_the_servers_line_only_when_turned_on(store: Store) -> None:
    summary = await store.matches.record_match(5, SEATS, match_of(BIG), rules=STANDARD_RULES)
    table = table_of(summary)
    assert await with_achievements_line(store, table, "Result", "en") == "Result"
    await store.guild_settings.update_guild_settings(5, achievements_line=True)
    shown = await with_achievements_line(store, table, "Result", "en")
    assert shown == "Result\n🏅 Mehmet: Ten and up"
    # nothing earned: no line at all
    plain = await store.matches.record_match(5, SEATS, match_of(), rules=STANDARD_RULES)
    assert await with_achievements_line(store, table_of(plain), "Result", "en") == "Result"
