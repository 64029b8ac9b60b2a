"""When Discord refuses the bot a permission, the table's host hears which one, and where.

Discord answers a request the bot's role may not make with 403 and the code 50001
(Missing Access: it cannot see the channel) or 50013 (Missing Permissions)
(developers/topics/opcodes-and-status-codes.mdx, JSON Error Codes). :func:`refusal_of`
reads from the refused request what the bot was doing (posting, with files or not,
editing, reading the recent messages, opening a thread) and in which channel, and
:func:`lacking` names the permission that takes: the first the action needs that the
bot's role lacks there, from its permissions in the channel when the bot knows them
(a thread's are its parent's, with Send Messages in Threads in place of Send Messages:
developers/topics/permissions.mdx, Inherited Permissions (Threads)), else from the
action alone.

:class:`Access` tells the host once per table and permission, in their language: in
the private answer to the interaction being answered when it is theirs; else in the
table's thread or channel, pinging only them; and when the bot cannot post there
either, in the private answer to their next interaction.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import discord

from tables import ServiceError, Table

from .i18n import t
from .replies import Languages
from .text.words import clip, table_language

log = logging.getLogger(__name__)

MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013

VIEW = "view_channel"
SEND = "send_messages"
SEND_IN_THREADS = "send_messages_in_threads"
ATTACH = "attach_files"
HISTORY = "read_message_history"
THREADS = "create_public_threads"
PERMISSIONS = (VIEW, SEND, SEND_IN_THREADS, ATTACH, HISTORY, THREADS)
"""Every permission the table's messages take (bot.py's invite link asks for each); a
``perm.<name>`` and an ``access.<name>`` text of the catalogues name each."""

Doing = Literal["send", "edit", "delete", "history", "thread"]

REFUSALS = "refusals"
"""``interaction.extras`` key: what this interaction's answer must tell about refusals."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Discord refused the bot something in a channel for want of ``permissions``
    (usually one: the one to give)."""

    channel_id: int
    permissions: tuple[str, ...]


def needs(doing: Doing, *, thread: bool = False, files: bool = False) -> tuple[str, ...]:
    """The permissions an action takes in a channel, in the order they are looked at:
    seeing the channel first, then the action itself, then its files."""
    out = [VIEW]
    if doing == "send":
        out.append(SEND_IN_THREADS if thread else SEND)
    elif doing == "history":
        out.append(HISTORY)
    elif doing == "thread":
        out.append(THREADS)
    if files and doing in ("send", "edit"):
        out.append(ATTACH)
    return tuple(out)


def first_lacking(perms: discord.Permissions, needed: Sequence[str]) -> str | None:
    """The first of ``needed`` that ``perms`` lacks, or None."""
    return next((name for name in needed if not getattr(perms, name)), None)


def lacking(needed: Sequence[str], code: int, perms: discord.Permissions | None) -> tuple[str, ...]:
    """The permission to ask for after a refusal of an action that takes ``needed``:
    the first the bot lacks by ``perms`` (its permissions in the channel, when known).
    When they are not known, or seem complete (the bot has not yet heard of a change),
    the code tells: 50001 is the channel itself; else every permission the action
    takes beyond seeing the channel."""
    if perms is not None:
        missing = first_lacking(perms, needed)
        if missing is not None:
            return (missing,)
    beyond = tuple(name for name in needed if name != VIEW)
    if code == MISSING_ACCESS or not beyond:
        return (VIEW,)
    return beyond


_ROUTE = re.compile(r"/channels/(\d+)(/messages(?:/\d+)?)?(/threads)?$")
_MESSAGES: dict[tuple[str, bool], Doing] = {
    ("POST", False): "send",
    ("GET", False): "history",
    ("PATCH", True): "edit",
    ("DELETE", True): "delete",
}
"""(method, on one message) -> the action, for the routes of a channel's messages."""


def action_of(method: str, path: str) -> tuple[int, Doing] | None:
    """The channel and the action of a REST request on a channel's messages or threads
    (``POST /channels/1/messages`` is posting in channel 1); None for any other."""
    found = _ROUTE.search(path)
    if found is None:
        return None
    channel = int(found.group(1))
    messages, threads = found.group(2), found.group(3)
    if threads:
        return (channel, "thread") if method == "POST" else None
    if messages is None:
        return None  # the channel itself (a thread's settings): not a table message
    doing = _MESSAGES.get((method, messages != "/messages"))
    return None if doing is None else (channel, doing)


def permissions_in(channel: object) -> discord.Permissions | None:
    """The bot's permissions in a channel or thread it knows, as far as it knows them."""
    if not isinstance(channel, discord.TextChannel | discord.Thread):
        return None
    me = channel.guild.me
    if me is None:
        return None
    try:
        return channel.permissions_for(me)
    except discord.ClientException:  # a thread whose parent the bot does not know
        return None


def refusal_of(
    exc: BaseException, bot: discord.Client, thread_id: int | None = None
) -> Refusal | None:
    """What a refused request says about the bot's permissions, or None when the error
    is not a permission refusal of a channel's messages or threads. ``thread_id``: a
    thread the bot knows the channel to be even if not cached (the table's)."""
    if not isinstance(exc, discord.HTTPException) or exc.status != 403:
        return None
    if exc.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
        return None
    response: Any = exc.response
    url = getattr(response, "url", None)
    found = action_of(str(getattr(response, "method", "")), str(getattr(url, "path", "")))
    if found is None:
        return None
    channel_id, doing = found
    info = getattr(response, "request_info", None)
    sent_type = str(getattr(info, "headers", {}).get("Content-Type", ""))
    channel = bot.get_channel(channel_id)
    thread = isinstance(channel, discord.Thread) or channel_id == thread_id
    needed = needs(doing, thread=thread, files=sent_type.startswith("multipart/"))
    return Refusal(channel_id, lacking(needed, exc.code, permissions_in(channel)))


def _only(user_id: int) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)]
    )


class Access:
    """Permission refusals, told to the table's host once per table and permission."""

    def __init__(self, bot: discord.Client, languages: Languages) -> None:
        self.bot = bot
        self.languages = languages
        self._told: set[tuple[int, str]] = set()
        self._waiting: dict[tuple[int, int], list[Refusal]] = {}
        """(server, host) -> refusals the bot could not post: for their next answer."""
        self.refusals = 0
        """Refusals seen (each logged once, told as said above)."""

    @staticmethod
    def text(refusal: Refusal, lang: str) -> str:
        """One line: what the bot cannot do, where, and the permission it needs there."""
        first = refusal.permissions[0]
        return "⚠️ " + t(
            "access.missing",
            lang,
            doing=t(f"access.{first}", lang),
            where=f"<#{refusal.channel_id}>",
            permission=", ".join(t(f"perm.{name}", lang) for name in refusal.permissions),
        )

    async def refused(
        self,
        table: Table | None,
        refusal: Refusal,
        interaction: discord.Interaction[Any] | None = None,
    ) -> None:
        """Discord refused the bot ``refusal`` at ``table`` (None: before there is one).

        The answer to ``interaction`` (if any) says so; the host is told unless that
        answer is theirs, once per table and permission."""
        self.refusals += 1
        log.info(
            "table %s: refused in channel %s for want of %s",
            table.id if table is not None else "-",
            refusal.channel_id,
            "+".join(refusal.permissions),
        )
        if interaction is not None:
            lang = await self.languages.of(interaction)
            interaction.extras.setdefault(REFUSALS, []).append(self.text(refusal, lang))
        if table is None:
            return
        new = tuple(p for p in refusal.permissions if (table.id, p) not in self._told)
        if not new:
            return
        if len(self._told) > 50_000:
            self._told.clear()
        self._told.update((table.id, p) for p in new)
        if interaction is not None and interaction.user.id == table.host_id:
            return  # their own answer says it
        await self._tell_host(table, Refusal(refusal.channel_id, new))

    async def _tell_host(self, table: Table, refusal: Refusal) -> None:
        """Ping the host where the bot can post (the table's thread, else its channel);
        else keep it for their next answer."""
        host = table.host_id
        lang = (await self.languages.personal(host)).language or table_language(table)
        text = clip(f"<@{host}> " + self.text(refusal, lang))
        cannot_post = {VIEW, SEND, SEND_IN_THREADS} & set(refusal.permissions)
        for where in dict.fromkeys((table.game.where_id, table.game.channel_id)):
            if where == refusal.channel_id and cannot_post:
                continue  # the very thing refused there
            channel = self.bot.get_partial_messageable(where, guild_id=table.game.guild_id)
            try:
                await channel.send(text, allowed_mentions=_only(host))
                return
            except discord.HTTPException as exc:
                log.info("table %s: cannot tell the host in %s either: %s", table.id, where, exc)
        waiting = self._waiting.setdefault((table.game.guild_id, host), [])
        if refusal not in waiting and len(waiting) < 20:
            waiting.append(refusal)

    async def take(self, interaction: discord.Interaction[Any]) -> list[str]:
        """What the private answer to ``interaction`` must add: this interaction's
        refusals, and those kept for its author (see :data:`cogs.replies.Notes`)."""
        notes = [str(n) for n in interaction.extras.pop(REFUSALS, [])]
        waiting = self._waiting.pop((interaction.guild_id or 0, interaction.user.id), [])
        if waiting:
            lang = await self.languages.of(interaction)
            notes.extend(self.text(r, lang) for r in waiting)
        return list(dict.fromkeys(notes))  # a thread and its channel may lack the same

    async def told_of(
        self,
        table: Table | None,
        exc: BaseException,
        interaction: discord.Interaction[Any] | None = None,
    ) -> bool:
        """If ``exc`` is a permission refusal, it is told (:meth:`refused`): True."""
        thread = table.game.thread_id if table is not None else None
        refusal = refusal_of(exc, self.bot, thread)
        if refusal is None:
            return False
        await self.refused(table, refusal, interaction)
        return True

    @contextlib.asynccontextmanager
    async def guard(self, table: Table | None) -> AsyncIterator[None]:
        """Around what a table posts or edits on its own (a timer, a computer's move, a
        restart): a permission refusal is told to the host and goes no further; any
        other error goes on."""
        try:
            yield
        except discord.HTTPException as exc:
            if table is None or not await self.told_of(table, exc):
                raise

    async def run(self, coro: Awaitable[Any], table: Table | None) -> None:
        """Await ``coro`` under :meth:`guard` of ``table``."""
        async with self.guard(table):
            await coro

    def guarded(
        self, find: Callable[[int], Table | None], edit: Callable[[int], Awaitable[None]]
    ) -> Callable[[int], Awaitable[None]]:
        """``edit(table_id)`` under :meth:`guard` of that table."""

        async def run(table_id: int) -> None:
            async with self.guard(find(table_id)):
                await edit(table_id)

        return run

    async def explain(
        self, interaction: discord.Interaction[Any], error: BaseException, table: Table | None
    ) -> BaseException:
        """The error an interaction is answered with: a permission refusal becomes
        ``error.refused`` and the line naming the permission (the host told too)."""
        if not await self.told_of(table, error, interaction):
            return error
        return ServiceError("error.refused")

    async def where_to_open(self, interaction: discord.Interaction[Any], threaded: bool) -> bool:
        """Whether a new table opens in a thread of its own (else where the command was
        given), judged before anything is made by the bot's permissions there (sent with
        every interaction): a thread only if the bot may create it, post in it and attach
        the table's picture there, so none is left empty; the channel only if it may
        post that message there. What it lacks is said in the answer; nowhere to post
        refuses the table (``error.not_opened``)."""
        here = interaction.app_permissions
        channel_id = interaction.channel_id or 0
        if threaded:
            lack = first_lacking(here, (VIEW, THREADS, SEND_IN_THREADS, ATTACH))
            if lack is None:
                return True
            await self.refused(None, Refusal(channel_id, (lack,)), interaction)
        in_thread = isinstance(interaction.channel, discord.Thread)
        lack = first_lacking(here, needs("send", thread=in_thread, files=True))
        if lack is not None:
            await self.refused(None, Refusal(channel_id, (lack,)), interaction)
            raise ServiceError("error.not_opened")
        return False


async def close_thread(thread: discord.Thread) -> None:
    """Close a thread of the bot's that holds no table: archived, and locked only where
    the bot has Manage Threads. Never deleted: deleting a thread takes Manage Threads
    (developers/resources/channel.mdx, Delete/Close Channel), which the bot's invite does
    not ask for, while its creator may archive it without (developers/topics/
    threads.mdx, Editing & Deleting Threads)."""
    perms = permissions_in(thread)
    changes: dict[str, Any] = {"archived": True}
    if perms is not None and perms.manage_threads:
        changes["locked"] = True
    try:
        await thread.edit(**changes)
    except discord.HTTPException as exc:
        log.info("thread %s stays open: %s", thread.id, exc)
