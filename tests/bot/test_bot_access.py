"""Which permission a refusal of Discord's is about (cogs.access), and who hears of it:
the mapping from a refused request to the permission to give, and the host told once
per table and permission (in their own answer, in the table's channel, or in their
next answer when the bot can post nowhere)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from yarl import URL

from batak import Match, preset
from cogs.access import (
    ATTACH,
    HISTORY,
    PERMISSIONS,
    SEND,
    SEND_IN_THREADS,
    THREADS,
    VIEW,
    Access,
    Refusal,
    action_of,
    close_thread,
    lacking,
    needs,
    refusal_of,
)
from cogs.i18n import languages, t
from cogs.replies import Languages
from data import Store
from tables import ServiceError
from tests.bot.test_bot_render import fake_table


def refused(method: str, path: str, code: int = 50013, *, files: bool = False) -> discord.Forbidden:
    """A 403 as discord.py raises it for a request (method, path, its body's type)."""
    kind = "multipart/form-data; boundary=x" if files else "application/json"
    response = SimpleNamespace(
        status=403,
        reason="Forbidden",
        method=method,
        url=URL("https://discord.com/api/v10" + path),
        request_info=SimpleNamespace(headers={"Content-Type": kind}),
    )
    return discord.Forbidden(response, {"code": code, "message": "Missing Permissions"})  # type: ignore[arg-type]


class Bot:
    """The parts of the client Access uses: channels it knows (none) and posting."""

    def __init__(self, refuse: set[int] | None = None) -> None:
        self.refuse = refuse or set()
        self.posts: list[tuple[int, str, discord.AllowedMentions]] = []

    def get_channel(self, channel_id: int) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, **_: Any) -> Any:
        bot = self

        class Channel:
            async def send(self, text: str, *, allowed_mentions: discord.AllowedMentions) -> None:
                if channel_id in bot.refuse:
                    raise refused("POST", f"/channels/{channel_id}/messages")
                bot.posts.append((channel_id, text, allowed_mentions))

        return Channel()


@dataclass
class Person:
    """An interaction of a person (the parts Access and Languages read)."""

    user_id: int
    guild_id: int = 1
    locale: str = "en-US"
    guild_locale: str = "en-US"
    app_permissions: discord.Permissions = field(default_factory=discord.Permissions.none)
    channel_id: int = 2
    channel: Any = None
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def user(self) -> Any:
        return SimpleNamespace(id=self.user_id)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "access.db")
    try:
        yield opened
    finally:
        await opened.close()


def test_what_each_action_takes_in_the_order_it_is_looked_at() -> None:
    assert needs("send") == (VIEW, SEND)
    assert needs("send", files=True) == (VIEW, SEND, ATTACH)
    assert needs("send", thread=True, files=True) == (VIEW, SEND_IN_THREADS, ATTACH)
    assert needs("edit") == (VIEW,) and needs("edit", files=True) == (VIEW, ATTACH)
    assert needs("delete", files=True) == (VIEW,)
    assert needs("history") == (VIEW, HISTORY)
    assert needs("thread") == (VIEW, THREADS)


def test_the_permission_named_is_the_first_the_bot_lacks() -> None:
    needed = needs("send", thread=True, files=True)
    everything = discord.Permissions.all()
    no_files = discord.Permissions(view_channel=True, send_messages_in_threads=True)
    assert lacking(needed, 50013, no_files) == (ATTACH,)
    no_threads = discord.Permissions(view_channel=True, attach_files=True)
    assert lacking(needed, 50013, no_threads) == (SEND_IN_THREADS,)
    assert lacking(needed, 50013, discord.Permissions.none()) == (VIEW,)
    # Unknown, or seemingly complete (the bot has not heard of a change): from the code
    # and the action.
    assert lacking(needed, 50001, None) == (VIEW,)
    assert lacking(needed, 50013, None) == (SEND_IN_THREADS, ATTACH)
    assert lacking(needed, 50013, everything) == (SEND_IN_THREADS, ATTACH)
    assert lacking(needs("edit"), 50013, everything) == (VIEW,)


def test_the_action_is_read_from_the_refused_route() -> None:
    assert action_of("POST", "/api/v10/channels/12/messages") == (12, "send")
    assert action_of("GET", "/api/v10/channels/12/messages") == (12, "history")
    assert action_of("PATCH", "/api/v10/channels/12/messages/34") == (12, "edit")
    assert action_of("DELETE", "/api/v10/channels/12/messages/34") == (12, "delete")
    assert action_of("POST", "/api/v10/channels/12/threads") == (12, "thread")
    assert action_of("POST", "/api/v10/channels/12/messages/34/threads") == (12, "thread")
    assert action_of("PATCH", "/api/v10/channels/12") is None  # a thread's settings
    assert action_of("GET", "/api/v10/channels/12/messages/34") is None
    assert action_of("POST", "/api/v10/webhooks/1/token") is None  # answers need none


def test_a_refusal_names_the_permission_of_its_request() -> None:
    bot: Any = Bot()
    post = refused("POST", "/channels/12/messages", files=True)
    assert refusal_of(post, bot) == Refusal(12, (SEND, ATTACH))
    assert refusal_of(post, bot, thread_id=12) == Refusal(12, (SEND_IN_THREADS, ATTACH))
    plain = refused("POST", "/channels/12/messages")
    assert refusal_of(plain, bot) == Refusal(12, (SEND,))
    assert refusal_of(refused("POST", "/channels/12/messages", 50001), bot) == Refusal(12, (VIEW,))
    history = refused("GET", "/channels/12/messages")
    assert refusal_of(history, bot) == Refusal(12, (HISTORY,))
    assert refusal_of(refused("POST", "/channels/12/threads"), bot) == Refusal(12, (THREADS,))
    # Not a permission refusal of a channel's messages: not ours to explain.
    assert refusal_of(refused("PATCH", "/channels/12/messages/3", 50005), bot) is None
    assert refusal_of(refused("POST", "/webhooks/1/tok"), bot) is None
    assert refusal_of(ValueError("x"), bot) is None


def test_every_permission_has_its_words_in_every_language() -> None:
    for lang in languages():
        for name in PERMISSIONS:
            text = Access.text(Refusal(5, (name,)), lang)
            assert t(f"perm.{name}", lang) in text and "<#5>" in text, (lang, name)
            assert "{" not in text


async def test_the_host_is_told_once_per_table_and_permission(store: Store) -> None:
    bot = Bot()
    access = Access(bot, Languages(store))  # type: ignore[arg-type]
    table = fake_table(Match(preset("standard"), seed=1))  # host 1, in channel 2
    await access.refused(table, Refusal(2, (ATTACH,)))
    await access.refused(table, Refusal(2, (ATTACH,)))
    assert len(bot.posts) == 1
    where, text, mentions = bot.posts[0]
    assert where == 2 and text.startswith("<@1> ") and "**Attach Files**" in text
    assert [u.id for u in mentions.users] == [1] and not mentions.everyone  # type: ignore[union-attr]
    await access.refused(table, Refusal(2, (HISTORY,)))  # another permission: told too
    assert len(bot.posts) == 2


async def test_the_hosts_own_answer_says_it_and_nothing_is_posted(store: Store) -> None:
    bot = Bot()
    access = Access(bot, Languages(store))  # type: ignore[arg-type]
    table = fake_table(Match(preset("standard"), seed=1))
    host: Any = Person(1, locale="tr")
    await access.refused(table, Refusal(2, (SEND,)), host)
    assert bot.posts == []
    assert await access.take(host) == [Access.text(Refusal(2, (SEND,)), "tr")]
    assert await access.take(host) == []
    # Someone else's answer says it too, and the host is told.
    other: Any = Person(3)
    await access.refused(table, Refusal(2, (ATTACH,)), other)
    assert len(await access.take(other)) == 1 and len(bot.posts) == 1


async def test_a_refusal_nobody_can_see_waits_for_the_hosts_next_answer(store: Store) -> None:
    bot = Bot(refuse={2})
    access = Access(bot, Languages(store))  # type: ignore[arg-type]
    table = fake_table(Match(preset("standard"), seed=1))
    await access.refused(table, Refusal(2, (SEND,)))
    assert bot.posts == []
    assert await access.take(Person(3)) == []  # not the host's
    assert await access.take(Person(1, guild_id=9)) == []  # another server
    notes = await access.take(Person(1))
    assert len(notes) == 1 and "**Send Messages**" in notes[0] and "<#2>" in notes[0]
    assert await access.take(Person(1)) == []


async def test_a_refused_command_is_answered_with_the_permission(store: Store) -> None:
    access = Access(Bot(), Languages(store))  # type: ignore[arg-type]
    table = fake_table(Match(preset("standard"), seed=1))
    host: Any = Person(1)
    error = await access.explain(host, refused("POST", "/channels/2/messages", files=True), table)
    assert isinstance(error, ServiceError) and error.key == "error.refused"
    assert "**Send Messages, Attach Files**" in (await access.take(host))[0]
    other = ValueError("not a refusal")
    assert await access.explain(host, other, table) is other


async def test_where_a_new_table_opens_follows_the_bots_permissions(store: Store) -> None:
    access = Access(Bot(), Languages(store))  # type: ignore[arg-type]
    everything: Any = Person(1, app_permissions=discord.Permissions.all())
    assert await access.where_to_open(everything, True) is True
    assert await access.take(everything) == []
    no_threads: Any = Person(
        1,
        app_permissions=discord.Permissions(
            view_channel=True, send_messages=True, attach_files=True
        ),
    )
    assert await access.where_to_open(no_threads, True) is False  # here, and said why
    assert ["**Create Public Threads**" in n for n in await access.take(no_threads)] == [True]
    nothing: Any = Person(1, app_permissions=discord.Permissions(view_channel=True))
    with pytest.raises(ServiceError) as refused_here:
        await access.where_to_open(nothing, True)
    assert refused_here.value.key == "error.not_opened"
    notes = await access.take(nothing)
    assert len(notes) == 2 and "**Create Public Threads**" in notes[0]
    assert "**Send Messages**" in notes[1]


@dataclass
class Thread:
    """A thread of the bot's (the parts close_thread uses); any permission unknown."""

    id: int = 77
    edits: list[dict[str, Any]] = field(default_factory=list)

    async def edit(self, **changes: Any) -> None:
        self.edits.append(changes)


async def test_a_thread_without_its_table_is_archived_never_deleted() -> None:
    thread: Any = Thread()
    await close_thread(thread)
    assert thread.edits == [{"archived": True}]  # no lock without Manage Threads
