"""Open hands that follow the game, without Discord: what is drawn again and what is
not, and the caches that keep a busy bot's CPU per move down (pictures, texts)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from functools import partial
from types import SimpleNamespace
from typing import Any

from batak import Match, preset
from batak.players import make_player
from cogs import pictures
from cogs.live import LiveHands
from cogs.payload import Drawn, MessagePayload
from cogs.pictures import Drawing, DrawnCache, Picture
from images.views import HandView
from locales import message
from tables import Table
from tests.bot.test_bot_render import fake_table


@dataclass
class EditLog:
    """Stands in for the webhook of an interaction token: the edits it was asked for."""

    edits: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    async def edit_message(self, message_id: int, **kwargs: Any) -> None:
        self.edits.append((message_id, kwargs))


@dataclass
class Press:
    """An interaction whose token made the hand as a follow-up message (edited by id)."""

    followup: EditLog
    extras: dict[str, Any] = field(default_factory=dict)
    message: Any = None
    response: Any = field(default_factory=lambda: SimpleNamespace(type=None))


class Hands:
    """A render and a state function for :class:`LiveHands` that count their calls."""

    def __init__(self) -> None:
        self.renders = 0
        self.looks = "dark"

    def state(self, table: Table, seat: int, lang: str) -> Any:
        match = table.match
        assert match is not None
        return (match.move_number, lang, self.looks)

    async def render(self, table: Table, seat: int, lang: str, shown_picture: Any) -> Drawn:
        self.renders += 1
        match = table.match
        assert match is not None
        content = f"move {match.move_number} seat {seat} {self.looks}"
        return Drawn(MessagePayload(content, view=None), None, self.state(table, seat, lang))


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


def play_one(match: Match) -> None:
    seat = match.to_act
    assert seat is not None
    match.apply(make_player("easy", seat).choose(match.observation(seat)), seat)


async def test_a_hand_is_drawn_again_only_when_what_it_shows_changed() -> None:
    match = Match(preset("standard"), seed=4)
    table = fake_table(match)
    hands = Hands()
    live = LiveHands(hands.render, lambda _id: table, 0.0, state=hands.state)
    log = EditLog()
    live.opened(table, 1, Press(log), 500, "en")  # type: ignore[arg-type]  # a stand-in token
    try:
        live.request(table)
        await settle()
        assert hands.renders == 1 and len(log.edits) == 1
        # Asked again with nothing changed (a second listener event, a press that
        # follows the one the edit answered): not drawn, not sent.
        for _ in range(3):
            live.request(table)
            await settle()
        assert hands.renders == 1 and len(log.edits) == 1
        assert live.skipped == 3
        # A move: drawn and sent once more.
        play_one(match)
        live.request(table)
        await settle()
        assert hands.renders == 2 and len(log.edits) == 2
        assert "move 1" in log.edits[-1][1]["content"]
        # The person's looks changed: their hand is drawn in them.
        hands.looks = "light"
        live.request(table)
        await settle()
        assert hands.renders == 3 and "light" in log.edits[-1][1]["content"]
        # Refresh draws and sends it even when nothing changed (the edit answers it).
        live.redraw(500)
        await settle()
        assert hands.renders == 4 and len(log.edits) == 4
    finally:
        await live.close()


async def test_a_hand_opened_with_its_state_is_not_drawn_twice() -> None:
    match = Match(preset("standard"), seed=5)
    table = fake_table(match)
    hands = Hands()
    live = LiveHands(hands.render, lambda _id: table, 0.0, state=hands.state)
    log = EditLog()
    shown = await hands.render(table, 0, "en", None)
    live.opened(table, 1, Press(log), 600, "en", shown=shown)  # type: ignore[arg-type]
    try:
        live.request(table)
        await settle()
        assert len(log.edits) == 0 and hands.renders == 1
    finally:
        await live.close()


def _drawing(cards: tuple[str, ...], theme: str = "dark") -> Drawing:
    return Drawing("hand.png", "a hand", HandView(cards), partial(_fake_render, theme=theme))


def _fake_render(view: Any, theme: str) -> bytes:
    return repr((view, theme)).encode()


def test_the_drawn_cache_keys_on_what_a_picture_is_drawn_from() -> None:
    cache = DrawnCache(max_bytes=10_000)
    a, b = _drawing(("AS", "KS")), _drawing(("AS", "KS"))
    key = cache.key(a)
    assert key is not None and key == cache.key(b)
    assert cache.key(_drawing(("AS",))) != key
    assert cache.key(_drawing(("AS", "KS"), theme="light")) != key  # other looks
    assert cache.get(key) is None
    cache.put(key, Picture("hand.png", b"x" * 100, "a hand"))
    got = cache.get(key)
    assert got is not None and got.data == b"x" * 100
    assert (cache.hits, cache.misses) == (1, 1)
    # A view model that cannot be a key is drawn every time.
    assert cache.key(Drawing("x.png", "", ["a", "list"], _fake_render)) is None


def test_the_drawn_cache_stays_within_its_bytes() -> None:
    cache = DrawnCache(max_bytes=4_000)
    keys = []
    for i in range(10):
        key = cache.key(_drawing(tuple(["AS", "KS", "QS", "JS", "TS"][: i % 5 + 1]), str(i)))
        assert key is not None
        keys.append(key)
        cache.put(key, Picture("hand.png", bytes(900), ""))
    assert len(cache) == 4  # the oldest went first
    assert cache.get(keys[0]) is None and cache.get(keys[-1]) is not None
    cache.put(keys[0], Picture("big.png", bytes(2_000), ""))  # over a quarter: not kept
    assert cache.get(keys[0]) is None


async def test_draw_answers_a_picture_drawn_lately_from_the_cache() -> None:
    match = Match(preset("standard"), seed=6)
    table = fake_table(match)
    drawing = pictures.hand_picture(table, 0, "en")
    assert drawing is not None
    key = pictures.DRAWN.key(drawing)
    assert key is not None
    known = Picture(drawing.filename, b"drawn before", drawing.description)
    pictures.DRAWN.put(key, known)
    assert await pictures.draw(pictures.hand_picture(table, 0, "en")) is known


def test_cached_messages_keep_values_of_other_types_apart() -> None:
    # True == 1 == 1.0 as keys, yet each is written its own way.
    assert message("en", "count.tricks", n=1) == "1 trick"
    assert message("en", "count.tricks", n=1.5) == "1.5 tricks"
    assert message("en", "count.tricks", n=True) != "1 trick"
    assert message("tr", "hint.base", tricks="5.9", trump="♠", extra="") == message(
        "tr", "hint.base", tricks="5.9", trump="♠", extra=""
    )
    assert "5,9" in message("tr", "hint.base", tricks="5.9", trump="♠", extra="")


async def test_a_server_without_settings_is_read_once_and_follows_a_choice(tmp_path: Any) -> None:
    from cogs.replies import Languages
    from data import Store

    store = await Store.open(tmp_path / "b.db")
    try:
        languages = Languages(store)
        # Never chose: its Discord locale where there is a catalogue, else the default.
        assert await languages.server(5, "tr") == "tr"
        assert await languages.server(5, "ja") == "en"
        # Remembered: a change behind the bot's back (another tool) is not read again...
        await store.guild_settings.update_guild_settings(5, language="de")
        assert await languages.server(5, "tr") == "tr"
        # ...but the bot's own /batak settings server says so, and it holds from then on.
        languages.remember(5, "de")
        assert await languages.server(5, "tr") == "de"
        assert await Languages(store).server(5, "tr") == "de"  # a fresh start reads it
    finally:
        await store.close()


def test_a_message_with_an_object_in_it_is_rendered_each_time() -> None:
    class Name:
        def __init__(self) -> None:
            self.text = "Ayşe"

        def __str__(self) -> str:
            return self.text

    name = Name()
    assert "Ayşe" in message("en", "hand.waiting", name=name)
    name.text = "Mehmet"
    assert "Mehmet" in message("en", "hand.waiting", name=name)


async def test_a_live_hand_sends_the_buttons_a_sent_hand_has() -> None:
    """A live hand's edit carries its buttons prebuilt in Discord's JSON form
    (:func:`cogs.components.hand_components`, no discord.py item per button): at every
    state of whole matches (auction, trump, play; hints on and off; two languages) they
    are what discord.py makes of :func:`~cogs.components.hand_view`'s items, and the
    skip test of an edit (``signature``) reads them the same."""
    from cogs.components import hand_components, hand_view, hints_offered
    from cogs.live import signature

    states = 0
    for seed, hints in ((11, True), (12, False)):
        match = Match(preset("standard"), seed=seed)
        table = fake_table(match, hints=hints, rated=not hints)
        assert hints_offered(table) is hints
        while True:
            for seat in range(4):
                for lang in ("en", "tr"):
                    items = hand_view(table, seat, lang)
                    prebuilt = hand_components(table, seat, lang)
                    if items is None or prebuilt is None:
                        assert items is None and prebuilt is None
                        continue
                    assert prebuilt.to_components() == items.to_components()
                    assert signature(MessagePayload("x", view=prebuilt)) == signature(
                        MessagePayload("x", view=items)
                    )
                    states += 1
            if match.is_over:
                break
            play_one(match)
    assert states > 400


class _Recorder:
    """Stands in for discord.py's webhook adapter: the requests it was asked to make."""

    def __init__(self) -> None:
        self.calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    async def edit_webhook_message(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        parts = kwargs.get("multipart") or []
        kwargs["multipart"] = [
            {k: (v.read() if hasattr(v, "read") else v) for k, v in part.items()} for part in parts
        ]
        kwargs["files"] = [f.filename for f in kwargs.get("files") or []]
        self.calls.append((args, kwargs))
        return {
            "id": "500",
            "channel_id": "2",
            "type": 0,
            "content": "",
            "author": {"id": "9", "username": "bot", "discriminator": "0", "avatar": None},
            "attachments": [],
            "embeds": [],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "mention_everyone": False,
            "tts": False,
            "timestamp": "2026-12-03T10:00:00+00:00",
            "edited_timestamp": None,
            "flags": 64,
            "components": [],
        }


async def test_a_hand_edit_is_the_request_discord_py_would_make() -> None:
    """``edit_hand`` skips only the parsing of Discord's answer: for a hand with its
    buttons, one with a new picture and a replaced one (no buttons, no pictures), the
    request is the one ``Webhook.edit_message`` makes."""
    import io

    import discord
    from discord.webhook.async_ import async_context

    from cogs.components import hand_components
    from cogs.live import edit_hand
    from cogs.replies import NO_PINGS

    table = fake_table(Match(preset("standard"), seed=7))
    client = discord.Client(intents=discord.Intents.none())
    webhook = discord.Webhook.from_state({"id": "9", "type": 3, "token": "tok"}, client._connection)

    def payloads() -> list[MessagePayload]:
        picture = discord.File(io.BytesIO(b"\x89PNG..."), "hand.png", description="a hand")
        return [
            MessagePayload("your hand", view=hand_components(table, 0, "en")),
            MessagePayload("your hand", files=[picture], view=hand_components(table, 1, "en")),
            MessagePayload("replaced", files=(), view=None),
        ]

    recorder = _Recorder()
    async_context.set(recorder)  # type: ignore[arg-type]
    for target in ("@original", 1234):
        for payload in payloads():
            await webhook.edit_message(target, allowed_mentions=NO_PINGS, **payload.edit_kwargs())
        for payload in payloads():
            await edit_hand(webhook, target, payload)
    assert len(recorder.calls) == 12
    for first, second in ((0, 3), (1, 4), (2, 5), (6, 9), (7, 10), (8, 11)):
        assert recorder.calls[first] == recorder.calls[second]
    assert recorder.calls[1][1]["files"] == ["hand.png"]


async def test_a_hand_whose_picture_is_late_goes_with_its_buttons_first(
    monkeypatch: Any,
) -> None:
    """A starved drawing worker does not hold a hand's buttons: past LATE_PICTURE the
    hand goes without its new picture (the old one kept), and once the picture is drawn
    the live hand is asked to be edited again, which shows it (drawn once)."""
    from cogs.hands import Hands as RealHands
    from data import UserSettings

    drawn: list[str] = []

    async def slow(drawing: Drawing | None, *, urgent: bool = False) -> Picture | None:
        await asyncio.sleep(0.05)
        assert drawing is not None
        drawn.append(drawing.filename)
        return Picture(drawing.filename, b"png", drawing.description)

    monkeypatch.setattr(pictures, "draw", slow)
    monkeypatch.setattr(pictures, "LATE_PICTURE", 0.01)

    chosen = [UserSettings(0)]

    async def personal(user_id: int | None) -> UserSettings:
        return chosen[0]

    table = fake_table(Match(preset("standard"), seed=6))
    announcer = SimpleNamespace(find=lambda _id: table, live=None)
    languages = SimpleNamespace(personal=personal, known_looks=lambda _user: None)
    hands = RealHands(None, None, languages, announcer)  # type: ignore[arg-type]
    asked: list[int] = []
    monkeypatch.setattr(hands.live, "request", lambda t: asked.append(t.id))

    first = await hands.live_payload(table, 0, "en", "an older picture")
    assert first.late and first.message.files is None  # the older picture stays
    assert first.picture == "an older picture" and first.state is None  # drawn again later
    assert first.message.view is not None  # the buttons, at once
    # While it is drawn, the hand goes at once again, and no second drawing is started.
    again = await hands.live_payload(table, 0, "en", "an older picture")
    assert again.late and drawn == [] and hands.late.busy((table.id, 0))
    for _ in range(3000):
        if asked:
            break
        await asyncio.sleep(0.01)
    assert asked == [table.id] and drawn == ["hand.png"]
    shown = await hands.live_payload(table, 0, "en", "an older picture")
    assert not shown.late and shown.state is not None
    assert shown.message.files is not None and len(shown.message.files) == 1
    assert drawn == ["hand.png"]  # the late picture itself, not drawn twice

    # A late picture drawn in other looks than the hand is in now is not taken.
    assert (await hands.live_payload(table, 0, "en", "an older picture")).late
    chosen[0] = UserSettings(0, theme="light")  # chosen while it was drawn (dark)
    for _ in range(3000):
        if len(asked) == 2:
            break
        await asyncio.sleep(0.01)
    assert len(asked) == 2 and drawn == ["hand.png"] * 2
    light = await hands.live_payload(table, 0, "en", "an older picture")
    assert light.late and hands.late.busy((table.id, 0))  # drawn again, in light
    hands.late.close()
