"""Seasons on the Discord side, without Discord: the season a ``season:`` option names,
the season texts in several languages, and :class:`cogs.seasons.SeasonKeeper` posting a
season's end once (also after a restart and when a crash left it pending)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from cogs import seasons as cog_seasons
from cogs.pictures import Drawing, Picture
from cogs.seasons import SeasonKeeper, chosen_season, season_choices
from cogs.text.seasons import champion_text, season_end_text, season_name
from data import GuildSettings, Seat, Store
from data.samples import STANDARD_RULES, synthetic_record
from tables import ServiceError

G = 81
PEOPLE = [Seat.human(1), Seat.human(2), Seat.human(3), Seat.human(4)]


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class Channel:
    def __init__(self, sent: list[dict[str, Any]], channel_id: int) -> None:
        self.sent, self.id = sent, channel_id

    async def send(self, content: str, **kw: Any) -> None:
        self.sent.append({"channel": self.id, "content": content, **kw})


class Bot:
    """What the keeper asks of the bot: channels to post in, names of people."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def get_partial_messageable(self, channel_id: int, **_: Any) -> Channel:
        return Channel(self.sent, channel_id)

    def get_guild(self, guild_id: int) -> None:
        return None

    def get_user(self, user_id: int) -> Any:
        return type("U", (), {"display_name": f"Player<{user_id}>", "name": f"p{user_id}"})()


@pytest.fixture
async def store() -> AsyncIterator[Store]:
    s = await Store.open(
        ":memory:", housekeeping=None, clock=Clock(datetime(2027, 3, 5, tzinfo=UTC))
    )
    yield s
    await s.close()


@pytest.fixture(autouse=True)
def inline_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw in this process (the keeper draws in the drawing worker)."""

    async def draw(drawing: Drawing | None) -> Picture | None:
        if drawing is None:
            return None
        return Picture(drawing.filename, drawing.renderer(drawing.view), drawing.description)

    monkeypatch.setattr(cog_seasons.pictures, "draw", draw)


async def play(store: Store, at: datetime, winner: int) -> None:
    import random

    rec = synthetic_record(random.Random(winner))
    scores = [0, 0, 0, 0]
    scores[winner] = 40
    recs = [dict(rec, score=scores, contract=None)] + [
        dict(rec, score=[0, 0, 0, 0], contract=None) for _ in range(3)
    ]
    g = await store.games.create_game(G, 777, 1, {}, seats=PEOPLE)
    await store.games.start_game(g.id, phase="auction", to_act=0)
    await store.matches.record_match(
        G, PEOPLE, recs, rules=STANDARD_RULES, game_id=g.id, finished_at=at
    )


def test_season_names_in_the_readers_language() -> None:
    assert season_name("2027-03", "en") == "March 2027"
    assert season_name("2027-03", "tr") == "Mart 2027"
    assert season_name("2027-03", "de") == "März 2027"
    assert "квартал" in season_name("2027-Q1", "uk")
    assert season_name("all", "en") == "all"
    assert champion_text([], "en") is None
    line = champion_text(["2027-03", "2026-Q4"], "en")
    assert line is not None and "March 2027" in line and "4th quarter 2026" in line
    assert "Mart 2027" in (champion_text(["2027-03"], "tr") or "")


def test_the_season_an_option_names() -> None:
    now = datetime(2027, 4, 10, tzinfo=UTC)
    monthly = GuildSettings(G)
    current = chosen_season(None, monthly, now)
    assert current is not None and current.label == "2027-04"
    assert chosen_season("all", monthly, now) is None
    assert chosen_season(" ALL ", monthly, now) is None
    past = chosen_season("2027-03", monthly, now)
    assert past is not None and past.label == "2027-03"
    none = GuildSettings(G, season="none")
    assert chosen_season(None, none, now) is None  # no seasons: the all-time board
    istanbul = GuildSettings(G, timezone="Europe/Istanbul")
    march = chosen_season("2027-03", istanbul, now)
    assert march is not None and march.end == datetime(2027, 3, 31, 21, tzinfo=UTC)
    for bad in ("forever", "2027-13", "<@1>", "2027-05"):  # 2027-05 has not begun
        with pytest.raises(ServiceError) as refused:
            chosen_season(bad, monthly, now)
        assert refused.value.key == "error.unknown_season"


def test_the_end_of_a_season_in_words() -> None:
    podium = [
        {"place": 1, "user_id": 1, "wins": 3, "matches": 5, "rating": 1120, "settling": False},
        {"place": 2, "user_id": 2, "wins": 1, "matches": 5, "rating": 990, "settling": True},
    ]
    names = {1: "**Ayşe**", 2: "Bob"}
    text = season_end_text("2027-03", podium, names, "en")
    assert "March 2027" in text and "\\*\\*Ayşe\\*\\*" in text  # names are data, not markup
    assert "3 wins in 5 matches" in text and "1120" in text and "new" in text
    tr = season_end_text("2027-03", podium, names, "tr")
    assert "Mart 2027 sezonu bitti" in tr


async def test_autocomplete_offers_this_season_the_played_ones_and_all(store: Store) -> None:
    await play(store, datetime(2027, 1, 10, tzinfo=UTC), 0)
    await play(store, datetime(2027, 3, 2, tzinfo=UTC), 1)
    now = datetime(2027, 3, 5, tzinfo=UTC)
    choices = await season_choices(store, G, "", "en", now)
    assert [c.value for c in choices] == ["2027-03", "2027-01", "all"]
    assert choices[0].name == "this season: March 2027"
    assert [c.value for c in await season_choices(store, G, "jan", "en", now)] == ["2027-01"]
    await store.guild_settings.update_guild_settings(G, season="quarterly")
    assert [c.value for c in await season_choices(store, G, "", "en", now)] == [
        "2027-Q1",  # this season, then the seasons played, as they were cut
        "2027-03",
        "2027-01",
        "all",
    ]


async def test_a_season_end_is_posted_once(store: Store) -> None:
    clock: Any = store.database.clock
    await store.guild_settings.update_guild_settings(G, announce_channel=5050)
    for day, seat in ((1, 0), (2, 0), (3, 1)):
        await play(store, datetime(2027, 3, day, 12, tzinfo=UTC), seat)
    bot = Bot()
    keeper = SeasonKeeper(bot, store, lambda: [G])  # type: ignore[arg-type]
    await keeper.check_all()
    assert bot.sent == []  # March is running
    clock.now = datetime(2027, 4, 1, tzinfo=UTC)  # the boundary
    keeper.poke(G)
    await keeper.settle()
    assert len(bot.sent) == 1
    post = bot.sent[0]
    assert post["channel"] == 5050 and "March 2027" in post["content"]
    assert "Player<1>" in post["content"].replace("\\", "")
    assert [f.filename for f in post["files"]] == ["batak-season-2027-03.png"]
    # again, and after a restart (a new keeper): nothing more
    await keeper.check_all()
    await SeasonKeeper(bot, store, lambda: [G]).check_all()  # type: ignore[arg-type]
    keeper.poke(G)  # a command later in April: nothing to do
    await keeper.settle()
    assert len(bot.sent) == 1
    assert await store.announcements.pending_announcements(guild_id=G) == []


async def test_a_crash_before_the_post_leaves_it_for_the_next_start(store: Store) -> None:
    clock: Any = store.database.clock
    await play(store, datetime(2027, 3, 3, tzinfo=UTC), 2)
    clock.now = datetime(2027, 4, 2, tzinfo=UTC)
    closed = await store.seasons.close_due(G)  # recorded, then the process died
    assert closed is not None
    bot = Bot()
    keeper = SeasonKeeper(bot, store, lambda: [G])  # type: ignore[arg-type]
    keeper.start()
    for _ in range(100):
        if bot.sent:
            break
        await asyncio.sleep(0.02)
    await keeper.close()
    assert [p["channel"] for p in bot.sent] == [777]  # the channel of the last match
    assert "Player<3>" in bot.sent[0]["content"].replace("\\", "")


async def test_a_channel_that_refuses_for_good_is_given_up_after_five_tries(store: Store) -> None:
    clock: Any = store.database.clock
    await play(store, datetime(2027, 3, 3, tzinfo=UTC), 0)
    clock.now = datetime(2027, 4, 2, tzinfo=UTC)
    await store.seasons.close_due(G)
    bot = Bot()
    refused = type("R", (), {"status": 403, "reason": "Forbidden"})()

    async def send(content: str, **kw: Any) -> None:
        raise discord.Forbidden(refused, {"code": 50013, "message": "Missing Permissions"})  # type: ignore[arg-type]

    bot.get_partial_messageable = lambda channel_id, **_: type(
        "C", (), {"send": staticmethod(send)}
    )()  # type: ignore[method-assign]
    keeper = SeasonKeeper(bot, store, lambda: [G])  # type: ignore[arg-type]
    for tries in range(1, 6):
        await keeper.post_pending()
        left = await store.announcements.pending_announcements(guild_id=G)
        assert len(left) == (1 if tries < 5 else 0), tries
