"""Seasons on Discord: the season boards of ``/batak leaderboard``, and the end of each
season announced in the server's channel with its podium picture, once.

The end of a season is noticed by :class:`SeasonKeeper` at the first command after a
boundary, at start-up and on a timer (its ``clock``, the store's by default, is the one
the tests move). The store records the end with the podium and the announcement in one
transaction, once per server and season whichever process sees it first
(:meth:`data.seasons.SeasonStore.close`); the keeper then posts what is pending and marks
it announced: a crash in between leaves it pending for the next start, never lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from data import PendingAnnouncement, Standing
from data.season_calendar import Season, season_at, season_of_label
from data.seasons import SEASON_END
from images.podium import render_podium
from images.views import PodiumPlace, PodiumView
from tables import ServiceError

from . import pictures
from .i18n import t
from .names import names_of
from .pictures import Drawing, _prepare, files_of
from .replies import NO_PINGS, send
from .text.seasons import season_board_text, season_end_text, season_name
from .text.words import display_name

if TYPE_CHECKING:
    from data import GuildSettings, Store

log = logging.getLogger(__name__)

ALL = "all"
CHECK_EVERY = 60.0
"""Seconds between two looks at the clock for a season that ended (besides commands)."""


def chosen_season(value: str | None, g: GuildSettings, now: datetime) -> Season | None:
    """The season ``value`` names for server settings ``g``: None for all time
    (``all``, or a server without seasons and no season asked for), the current
    season when nothing is given. An unknown season raises ``error.unknown_season``."""
    text = (value or "").strip()
    if text.lower() == ALL or (not text and g.season == "none"):
        return None
    if not text:
        return season_at(now, g.season, g.timezone)
    try:
        chosen = season_of_label(text, g.timezone)
    except ValueError:
        raise ServiceError("error.unknown_season", season=text[:40]) from None
    if chosen.start > now:  # a season yet to come has no board
        raise ServiceError("error.unknown_season", season=chosen.label)
    return chosen


async def season_choices(
    store: Store, guild_id: int, current: str, lang: str, now: datetime
) -> list[app_commands.Choice[str]]:
    """Autocomplete of ``season:``: this season, the seasons with matches, all time."""
    g = await store.guild_settings.get_guild_settings(guild_id)
    out: list[app_commands.Choice[str]] = []
    seen: set[str] = set()
    this = season_at(now, g.season, g.timezone)
    if this is not None:
        name = t("season.current", lang, season=season_name(this.label, lang))
        out.append(app_commands.Choice(name=name, value=this.label))
        seen.add(this.label)
    for label in (await store.seasons.labels(guild_id))[:23]:
        if label not in seen:
            out.append(app_commands.Choice(name=season_name(label, lang), value=label))
            seen.add(label)
    out.append(app_commands.Choice(name=t("period.all", lang), value=ALL))
    typed = current.strip().lower()
    if typed:
        out = [c for c in out if typed in c.name.lower() or typed in c.value.lower()]
    return out[:25]


def podium_picture(
    label: str, podium: Sequence[dict[str, Any]], names: dict[int, str], lang: str
) -> Drawing | None:
    """A season's podium picture, from the announcement's payload."""

    def view() -> PodiumView:
        places = tuple(
            PodiumPlace(
                place=int(p["place"]),
                name=names.get(int(p["user_id"]), "?") if p.get("user_id") else "?",
                rating=None if p.get("settling") else int(p["rating"]),
                wins=int(p["wins"]),
                matches=int(p["matches"]),
            )
            for p in podium[:3]
        )
        return PodiumView(places, t("img.podium", lang), season_name(label, lang))

    return _prepare(
        f"batak-season-{label}.png", t("img.podium", lang), view, partial(render_podium, lang=lang)
    )


class SeasonKeeper:
    """Closes each server's seasons as they end and posts their announcements."""

    def __init__(
        self,
        bot: discord.Client,
        store: Store,
        guilds: Callable[[], Sequence[int]],
        clock: Callable[[], datetime] | None = None,
        every: float = CHECK_EVERY,
    ) -> None:
        self.bot = bot
        self.store = store
        self.guilds = guilds  # the servers this process serves (its shards')
        self.clock = clock or store.database.now
        self.every = every
        self._next: dict[int, datetime] = {}
        """server -> when to look again: its season's end as of its last check (a
        server without seasons: an hour later)."""
        self._lock = asyncio.Lock()
        self._posted: set[int] = set()
        self._failures: dict[int, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._timer: asyncio.Task[Any] | None = None
        self._checking: set[int] = set()

    def start(self) -> None:
        """At start-up: post what is pending, check every server, then keep checking."""
        self._timer = self._spawn(self._run())

    async def settle(self, timeout: float = 5.0) -> None:
        """Wait for the checks under way (not the timer) to finish their posts."""
        busy = [t_ for t_ in self._tasks if t_ is not self._timer]
        if busy:
            await asyncio.wait(busy, timeout=timeout)

    async def close(self) -> None:
        """Stop the timer; let a post under way be marked (else it would go twice)."""
        if self._timer is not None:
            self._timer.cancel()
        await self.settle()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _run(self) -> None:
        while True:
            # stopping the timer lets a pass under way finish (close() settles it)
            await asyncio.shield(self._spawn(self._pass()))
            await asyncio.sleep(self.every)

    async def _pass(self) -> None:
        try:
            await self.check_all()
        except Exception:
            log.exception("seasons: the check failed; will retry")

    def poke(self, guild_id: int | None) -> None:
        """A command arrived from ``guild_id``: check its season in the background
        when the clock crossed a boundary since the last look (cheap otherwise)."""
        if guild_id is None:
            return
        if not self._due(guild_id):
            return  # no boundary crossed since the last look
        if guild_id not in self._checking:  # a burst of commands: one check
            self._checking.add(guild_id)
            task = self._spawn(self.check(guild_id))
            task.add_done_callback(lambda _: self._checking.discard(guild_id))

    def _due(self, guild_id: int) -> bool:
        when = self._next.get(guild_id)
        return when is None or self.clock() >= when

    def forget(self, guild_id: int) -> None:
        """The server's season settings changed: look again at its next command."""
        self._next.pop(guild_id, None)

    async def check_all(self) -> None:
        """Every server of this process whose season may have ended; then post what is
        pending (also what a crash left unposted)."""
        for gid in list(self.guilds()):
            if self._due(gid):
                await self.check(gid, post=False)
        await self.post_pending()

    async def check(self, guild_id: int, *, post: bool = True) -> list[Season]:
        """Close the server's seasons that ended; post their announcements."""
        now = self.clock()
        closed = await self.store.seasons.close_due(guild_id, now)
        g = await self.store.guild_settings.get_guild_settings(guild_id)
        current = season_at(now, g.season, g.timezone)
        self._next[guild_id] = now + timedelta(hours=1) if current is None else current.end
        for s in closed:
            log.info("server %s: season %s ended", guild_id, s.label)
        if post:
            await self.post_pending(guild_id)
        return closed

    async def post_pending(self, guild_id: int | None = None) -> None:
        """Post the season announcements still pending (of one server, or all)."""
        async with self._lock:  # one poster at a time in this process
            pending = await self.store.announcements.pending_announcements(
                guild_id=guild_id, limit=500
            )
            for ann in pending:
                if ann.kind != SEASON_END or ann.id in self._posted:
                    continue
                try:
                    await self._post(ann)
                except discord.HTTPException as exc:
                    tries = self._failures[ann.id] = self._failures.get(ann.id, 0) + 1
                    if not (400 <= exc.status < 500 and exc.status != 429 and tries >= 5):
                        log.warning("season announcement %s: %s; will retry", ann.id, exc)
                        continue
                    # a channel gone or closed to the bot for good: not kept forever
                    log.error(
                        "season announcement %s refused %d times (%s); dropped", ann.id, tries, exc
                    )
                self._posted.add(ann.id)
                await self.store.announcements.mark_announced(ann.id)

    async def _post(self, ann: PendingAnnouncement) -> None:
        if ann.channel_id is None:
            return
        g = await self.store.guild_settings.get_guild_settings(ann.guild_id)
        lang = g.language
        label = str(ann.payload["season"])
        podium: list[dict[str, Any]] = list(ann.payload.get("podium", []))
        names = await self._names(ann.guild_id, [int(p["user_id"]) for p in podium])
        pic = await pictures.draw(podium_picture(label, podium, names, lang))
        channel = self.bot.get_partial_messageable(ann.channel_id, guild_id=ann.guild_id)
        await channel.send(
            season_end_text(label, podium, names, lang),
            files=files_of(pic),
            allowed_mentions=NO_PINGS,
            nonce=f"batak-{ann.id}",  # Discord drops a second send within minutes
        )

    async def _names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        guild = self.bot.get_guild(guild_id)
        out: dict[int, str] = {}
        for uid in user_ids:
            member = guild.get_member(uid) if guild is not None else None
            user: Any = member or self.bot.get_user(uid)
            if user is None:
                with contextlib.suppress(discord.HTTPException):
                    user = await self.bot.fetch_user(uid)
            out[uid] = display_name(user) if user is not None else f"#{uid}"
        return out


def season_rows(rows: Sequence[Standing], names: dict[int, str]) -> list[tuple[Standing, str]]:
    """A season board's rows with the names to show (people only)."""
    return [(s, names.get(s.user_id or 0, "?")) for s in rows]


async def season_board_reply(
    cog: Any,
    interaction: discord.Interaction[Any],
    guild_id: int,
    season: Season,
    by: str,
    lang: str,
) -> None:
    """``/batak leaderboard`` for one season: its people ranked (``by`` wins, the
    season's own order, or rating), as text and picture; a line when nobody played."""
    by = by if by in ("wins", "rating") else "wins"
    name = season_name(season.label, lang)
    rows = await cog.store.seasons.board(guild_id, season, by=by, limit=10)
    if not rows:
        # a server that never played a rated match hears so, as on the all-time board
        played = await cog.store.seasons.labels(guild_id)
        empty = t("leaderboard.season_empty", lang, season=name) if played else None
        await send(interaction, empty or t("leaderboard.empty", lang), ephemeral=False)
        return
    names = await names_of(cog.bot, interaction, [s.user_id for s in rows if s.user_id])
    title = t(f"leaderboard.title_{by}", lang)
    text = season_board_text(rows, names, season.label, lang, by=by)
    drawing = pictures.leaderboard_picture(season_rows(rows, names), title, name, lang)
    pic = await pictures.draw(drawing)
    await send(interaction, text, ephemeral=False, files=files_of(pic))
