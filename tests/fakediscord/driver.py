"""The test-facing API of the fake Discord: people, servers, slash commands, clicks, and
what each person can see.

    async with Driver() as d:
        alice = d.create_user("alice")
        guild = d.create_guild("Cafe", members=[alice])
        async with running_bot(d, env={"DEV_GUILD_ID": str(guild.id)}):
            r = await d.slash(alice, "batak new", {"deals": 4})
            lobby = r.response
            await d.click(alice, lobby, "Join")
"""

from __future__ import annotations

import asyncio
import io
import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from discordspec import describe

from .server import (
    DM,
    FLAG_EPHEMERAL,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    VIEW_CHANNEL,
    Channel,
    Clock,
    FakeDiscord,
    Guild,
    InteractionRecord,
    MessageRecord,
    User,
    iso_now,
    version_text,
)

Wait = Literal["ack", "response", "none"]

__all__ = [
    "ComponentDisabled",
    "Driver",
    "InteractionFailed",
    "InteractionRecord",
    "MessageRecord",
    "percentile",
]


@dataclass(frozen=True)
class Upload:
    """A file a person attaches to a slash command option (type 11)."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"


class InteractionFailed(AssertionError):
    """The bot did not acknowledge (or answer) an interaction in time: on Discord the user
    would see "This interaction failed"."""

    def __init__(self, rec: InteractionRecord, what: str) -> None:
        rejected = "; ".join(f"{e.status}/{e.code} {e.message}" for e in rec.rejected)
        super().__init__(
            f"interaction {rec.name!r} (type {rec.type}) {what}"
            + (f"; callbacks refused: {rejected}" if rejected else "")
        )
        self.record = rec


class ComponentDisabled(AssertionError):
    """The component exists but is disabled: a person cannot click it."""


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of ``values``; 0.0 when empty."""
    if not values:
        return 0.0
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(p / 100 * len(s)) - 1))
    return s[k]


class Driver:
    """Owns a :class:`FakeDiscord` and exposes what tests do and observe."""

    def __init__(
        self,
        fake: FakeDiscord | None = None,
        *,
        reaction_time: float = 0.05,
        patience: float = 0.0,
        **fake_kwargs: Any,
    ) -> None:
        self.fake = fake or FakeDiscord(**fake_kwargs)
        # Every wait of the driver (for an ack, a response, a message, a condition) lasts at
        # least ``patience`` seconds before it gives up. Tests of behaviour set it high, so a
        # loaded machine makes them slower but not red; Discord's own deadlines (3 s to
        # acknowledge, 15 min per token) are still enforced by the fake on its clock.
        self.patience = patience
        # A person cannot click a component within ``reaction_time`` seconds of the message
        # (re)appearing. This also covers a real race: discord.py registers a per-message
        # View only after it has read the callback's HTTP answer, which the fake counts as
        # the acknowledgement; a click in that gap would be dropped by the bot, on Discord too.
        self.reaction_time = reaction_time

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> Driver:
        await self.fake.start()
        return self

    async def close(self) -> None:
        await self.fake.close()

    async def __aenter__(self) -> Driver:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def url(self) -> str:
        return self.fake.url

    @property
    def clock(self) -> Clock:
        return self.fake.clock

    @property
    def bot_user(self) -> User:
        return self.fake.bot_user

    # ------------------------------------------------------------------ world

    def create_user(self, name: str, *, locale: str = "en-US") -> User:
        return self.fake.create_user(name, locale=locale)

    def create_guild(
        self,
        name: str = "Test Server",
        *,
        owner: User | None = None,
        members: Iterable[User] = (),
        admins: Iterable[User] = (),
        locale: str = "en-US",
        attachment_size_limit: int | None = None,
        everyone_permissions: int | None = None,
        bot_permissions: int | None = None,
        shard: int | None = None,
    ) -> Guild:
        """A server with @everyone, an Admin role (Manage Server), the bot's managed role
        (by default exactly the invite URL's permissions), a #general channel, and the given
        members. ``everyone_permissions=EVERYONE_LOCKED`` makes a locked-down server where
        the bot has only its role. Create guilds before the bot connects (or call
        :meth:`announce_guild`). ``shard``: give it an id on that shard of the fake's
        ``shard_count`` (default: wherever its id falls)."""
        kw: dict[str, Any] = {"shard": shard}
        if attachment_size_limit is not None:
            kw["attachment_size_limit"] = attachment_size_limit
        if everyone_permissions is not None:
            kw["everyone_permissions"] = everyone_permissions
        if bot_permissions is not None:
            kw["bot_permissions"] = bot_permissions
        g = self.fake.create_guild(name, owner=owner, locale=locale, **kw)
        for u in members:
            self.fake.add_member(g, u)
        for u in admins:
            self.fake.add_member(g, u, admin=True)
        return g

    async def announce_guild(self, guild: Guild) -> None:
        """GUILD_CREATE for a guild created while the bot is connected (the bot joins it)."""
        await self.fake.dispatch(
            "GUILD_CREATE", self.fake.guild_json(guild, full=True), guild_id=guild.id
        )

    def add_member(self, guild: Guild, user: User, *, admin: bool = False) -> None:
        self.fake.add_member(guild, user, admin=admin)

    def create_channel(self, guild: Guild, name: str) -> Channel:
        return self.fake.create_channel(guild, name)

    def channel(self, guild: Guild | None = None, name: str | None = None) -> Channel:
        """A guild's channel by name (default: its first channel, #general)."""
        guild = guild or self._only_guild()
        for cid in guild.channel_ids:
            c = self.fake.channels[cid]
            if name is None or c.name == name:
                return c
        raise KeyError(name)

    async def create_thread(
        self,
        channel: Channel,
        name: str,
        *,
        owner: User | None = None,
        private: bool = False,
        from_message: MessageRecord | None = None,
    ) -> Channel:
        """A thread opened by a person (THREAD_CREATE is dispatched to the bot)."""
        owner_id = owner.id if owner else self.fake.guilds[channel.guild_id or 0].owner_id
        t = self.fake.new_thread(
            channel,
            name,
            owner_id,
            thread_id=from_message.id if from_message else None,
            type_=PRIVATE_THREAD if private else PUBLIC_THREAD,
        )
        if from_message is not None:
            from_message.data = {**from_message.data, "thread": t.to_json()}
        d = t.to_json()
        d["newly_created"] = True
        await self.fake.dispatch("THREAD_CREATE", d)
        return t

    def threads(self, channel: Channel | None = None) -> list[Channel]:
        return [
            c
            for c in self.fake.channels.values()
            if c.is_thread and not c.deleted and (channel is None or c.parent_id == channel.id)
        ]

    def set_bot_permissions(self, channel: Channel, *, allow: int = 0, deny: int = 0) -> None:
        """Channel overwrite for the bot (e.g. ``deny=CREATE_PUBLIC_THREADS``). Takes effect on
        REST immediately; the bot's cache learns it at its next GUILD_CREATE."""
        self.fake.set_overwrite(channel, self.fake.bot_user.id, allow=allow, deny=deny)

    async def drop_gateway(self, code: int = 4000, *, timeout: float = 15.0) -> None:
        """Close the bot's gateway connection (``4000``: unknown error, resumable) and wait
        until it is back (RESUMED, or identified again for non-resumable codes)."""
        before = self.fake.identify_count + self.fake.resume_count
        for session in list(self.fake.sessions):
            await session.ws.close(code=code)

        def back() -> bool:
            again = self.fake.identify_count + self.fake.resume_count > before
            return again and self.fake.bot_connected

        if not await self.fake.wait_state(back, timeout):
            raise TimeoutError("the bot did not come back to the gateway")

    async def say(self, user: User, channel: Channel, content: str) -> MessageRecord:
        """A person writes a plain message."""
        return await self.fake.user_message(user, channel, content)

    def _home_channel(self, user: User) -> Channel:
        """The first channel of the only server ``user`` is in (when ``channel=`` is omitted)."""
        guilds = [g for g in self.fake.guilds.values() if user.id in g.members]
        if len(guilds) != 1:
            raise ValueError(f"{user.username} is in {len(guilds)} servers: pass channel=")
        return self.channel(guilds[0])

    def _only_guild(self) -> Guild:
        if len(self.fake.guilds) != 1:
            raise ValueError("several guilds: pass channel= explicitly")
        return next(iter(self.fake.guilds.values()))

    # ------------------------------------------------------------------ interactions

    async def slash(
        self,
        user: User,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel: Channel | None = None,
        wait: Wait = "ack",
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Run ``/command`` as ``user`` (``"batak new"`` = group ``batak``, subcommand ``new``).

        ``options`` maps option names to values (str, int, bool, float, a :class:`User`
        for user options, a :class:`Channel` for channel options). They are checked against
        the schema the bot synced, as Discord's client would: unknown or missing required
        options, values outside choices or min/max raise ``ValueError`` before anything is
        sent. ``wait="ack"`` returns once the bot acknowledged; ``"response"`` also waits
        until a deferred response was replaced; ``"none"`` returns right after dispatch.
        Raises :class:`InteractionFailed` if the bot does not answer in time.
        """
        channel = channel or self._home_channel(user)
        parts = command.split()
        cmd = self.fake.lookup_command(channel.guild_id, parts[0])
        if cmd is None:
            known = sorted(self.fake.global_commands) + sorted(
                n for g in self.fake.guild_commands.values() for n in g
            )
            raise ValueError(f"/{parts[0]} is not registered (registered: {known})")
        self._check_command_permission(user, channel, cmd)
        schema: list[dict[str, Any]] = list(cmd.get("options") or [])
        chain: list[tuple[str, int]] = []
        for part in parts[1:]:
            sub = next((o for o in schema if _named(o, part) and o.get("type") in (1, 2)), None)
            if sub is None:
                raise ValueError(f"/{command}: no subcommand {part!r}")
            chain.append((str(sub["name"]), int(sub["type"])))
            schema = list(sub.get("options") or [])
        if any(o.get("type") in (1, 2) for o in schema):
            raise ValueError(f"/{command} is a group; name a subcommand")
        leaf, resolved = self._build_options(command, schema, options or {}, channel)
        opts: list[dict[str, Any]] = leaf
        for name, typ in reversed(chain):
            opts = [{"name": name, "type": typ, "options": opts}]
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 1,
            "options": opts,
        }
        if resolved:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        rec = self.fake.new_interaction(2, user, channel, data)
        return await self._run(rec, wait, timeout)

    def _check_command_permission(self, user: User, channel: Channel, cmd: dict[str, Any]) -> None:
        needed = cmd.get("default_member_permissions")
        if needed is None or channel.guild_id is None:
            return
        perms = self.fake.permissions(user.id, channel)
        if int(needed) & perms != int(needed):
            raise PermissionError(f"{user.username} cannot see /{cmd['name']} (needs {needed})")

    def _build_options(
        self,
        command: str,
        schema: list[dict[str, Any]],
        given: dict[str, Any],
        channel: Channel,
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        given = dict(given)
        for name in list(given):
            if name not in by_name:
                real = next((o["name"] for o in schema if _named(o, name)), None)
                if real is None:
                    raise ValueError(f"/{command}: no option {name!r} (has {sorted(by_name)})")
                given[real] = given.pop(name)
        out: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        guild = self.fake.guilds.get(channel.guild_id or 0)
        for o in schema:
            name = o["name"]
            if name not in given or given[name] is None:
                if o.get("required"):
                    raise ValueError(f"/{command}: option {name!r} is required")
                continue
            t = int(o["type"])
            v = given[name]
            value: Any
            if t == 3:
                value = str(v)
                if "min_length" in o and len(value) < int(o["min_length"]):
                    raise ValueError(f"/{command} {name}: shorter than {o['min_length']}")
                if "max_length" in o and len(value) > int(o["max_length"]):
                    raise ValueError(f"/{command} {name}: longer than {o['max_length']}")
            elif t == 4:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise ValueError(f"/{command} {name}: integer expected, got {v!r}")
                value = v
            elif t == 5:
                value = bool(v)
            elif t == 10:
                value = float(v)
            elif t in (6, 9):
                uid = int(getattr(v, "id", v))
                user = self.fake.users[uid]
                value = str(uid)
                resolved.setdefault("users", {})[str(uid)] = user.to_json()
                if guild is not None and uid in guild.members:
                    resolved.setdefault("members", {})[str(uid)] = self.fake.member_json(
                        guild, uid, with_user=False, channel=channel
                    )
            elif t == 7:
                cid = int(getattr(v, "id", v))
                ch = self.fake.channels[cid]
                value = str(cid)
                cj = ch.to_json(self.fake.users)
                cj["permissions"] = str(self.fake.permissions(self.fake.bot_user.id, ch))
                resolved.setdefault("channels", {})[str(cid)] = cj
            elif t == 8:
                rid = int(getattr(v, "id", v))
                value = str(rid)
                assert guild is not None
                resolved.setdefault("roles", {})[str(rid)] = guild.roles[rid].to_json()
            elif t == 11:
                if not isinstance(v, Upload):
                    raise ValueError(f"/{command} {name}: an Upload expected, got {v!r}")
                aid = self.fake.snowflakes.next()
                self.fake.uploads[aid] = v.data
                value = str(aid)
                url = f"{self.fake.url}/attachments/{channel.id}/{aid}/{v.filename}"
                resolved.setdefault("attachments", {})[str(aid)] = {
                    "id": str(aid),
                    "filename": v.filename,
                    "size": len(v.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": v.content_type,
                }
            else:
                raise ValueError(f"/{command} {name}: option type {t} not supported by the driver")
            choices = o.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise ValueError(
                    f"/{command} {name}: {value!r} not among {[c['value'] for c in choices]}"
                )
            if t in (4, 10):
                if "min_value" in o and value < o["min_value"]:
                    raise ValueError(f"/{command} {name}: below {o['min_value']}")
                if "max_value" in o and value > o["max_value"]:
                    raise ValueError(f"/{command} {name}: above {o['max_value']}")
            out.append({"name": name, "type": t, "value": value})
        return out, resolved

    def find_component(self, message: MessageRecord, target: str) -> dict[str, Any]:
        """A component by custom_id, else by exact label (or emoji name + label)."""
        comps = [c for c in _iter(message.components) if c.get("type") in (2, 3, 5, 6, 7, 8)]
        for c in comps:
            if c.get("custom_id") == target:
                return c
        matches = [c for c in comps if _label(c) == target or c.get("label") == target]
        if len(matches) > 1:
            raise ValueError(f"several components labelled {target!r} in {message!r}")
        if not matches:
            labels = [_label(c) or c.get("custom_id") for c in comps]
            raise LookupError(f"no component {target!r} in {message!r}; it has {labels}")
        return matches[0]

    async def click(
        self,
        user: User,
        message: MessageRecord | int,
        target: str,
        *,
        wait: Wait = "ack",
        timeout: float = 5.0,
        allow_disabled: bool = False,
    ) -> InteractionRecord:
        """Click a button (by custom_id or label) on a message ``user`` can see."""
        msg = self._message(message)
        await self._check_visible(user, msg)
        comp = self.find_component(msg, target)
        if comp.get("type") != 2:
            raise ValueError(f"{target!r} is not a button")
        if comp.get("style") == 5:
            raise ValueError(f"{target!r} is a link button")
        if comp.get("disabled") and not allow_disabled:
            raise ComponentDisabled(f"{target!r} is disabled in {msg!r}")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        rec = self.fake.new_interaction(3, user, self.fake.channels[msg.channel_id], data, msg)
        return await self._run(rec, wait, timeout)

    async def click_custom_id(
        self,
        user: User,
        message: MessageRecord | int,
        custom_id: str,
        *,
        wait: Wait = "ack",
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """A forged or stale click: send ``custom_id`` as if it were a button on ``message``,
        whether or not the message still has it (what an old client or a replay would do)."""
        msg = self._message(message)
        await self._check_visible(user, msg)
        data = {"custom_id": custom_id, "component_type": 2}
        rec = self.fake.new_interaction(3, user, self.fake.channels[msg.channel_id], data, msg)
        return await self._run(rec, wait, timeout)

    async def click_custom_id_in(
        self,
        user: User,
        channel: Channel,
        custom_id: str,
        *,
        message: MessageRecord | int | None = None,
        wait: Wait = "ack",
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """A forged press sent from ``channel``: a channel of any server (the person must
        be able to view it) or a direct message (:meth:`dm_channel`), naming ``custom_id``
        for a component of another place. ``message``, if given, is the message pressed
        on and must be in ``channel``; without one the interaction carries no message."""
        msg = self._message(message) if message is not None else None
        if msg is not None:
            if msg.channel_id != channel.id:
                raise ValueError(f"{msg!r} is not in channel {channel.id}")
            await self._check_visible(user, msg)
        elif (channel.type == DM and user.id not in channel.recipient_ids) or not (
            self.fake.permissions(user.id, channel) & VIEW_CHANNEL
        ):
            raise PermissionError(f"{user.username} cannot see channel {channel.id}")
        data = {"custom_id": custom_id, "component_type": 2}
        rec = self.fake.new_interaction(3, user, channel, data, msg)
        return await self._run(rec, wait, timeout)

    def dm_channel(self, user: User) -> Channel:
        """The direct-message channel between ``user`` and the bot, made on first use as
        ``POST /users/@me/channels`` makes it."""
        for c in self.fake.channels.values():
            if c.type == DM and c.recipient_ids == [user.id]:
                return c
        c = Channel(self.fake.snowflakes.next(), DM, "", recipient_ids=[user.id])
        self.fake.channels[c.id] = c
        return c

    async def select(
        self,
        user: User,
        message: MessageRecord | int,
        target: str,
        values: list[str],
        *,
        wait: Wait = "ack",
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Pick ``values`` in a select menu (by custom_id or placeholder)."""
        msg = self._message(message)
        await self._check_visible(user, msg)
        comps = [c for c in _iter(msg.components) if c.get("type") in (3, 5, 6, 7, 8)]
        comp = next(
            (c for c in comps if target in (c.get("custom_id"), c.get("placeholder"))), None
        )
        if comp is None:
            raise LookupError(f"no select {target!r} in {msg!r}")
        if comp.get("disabled"):
            raise ComponentDisabled(f"{target!r} is disabled")
        if comp["type"] == 3:
            allowed = {o["value"] for o in comp.get("options") or []}
            if not set(values) <= allowed:
                raise ValueError(f"{values} not among {sorted(allowed)}")
        if not int(comp.get("min_values", 1)) <= len(values) <= int(comp.get("max_values", 1)):
            raise ValueError("wrong number of values")
        data = {"custom_id": comp["custom_id"], "component_type": comp["type"], "values": values}
        rec = self.fake.new_interaction(3, user, self.fake.channels[msg.channel_id], data, msg)
        return await self._run(rec, wait, timeout)

    async def submit_modal(
        self,
        user: User,
        opened_by: InteractionRecord,
        values: dict[str, str],
        *,
        wait: Wait = "ack",
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Submit the modal the bot showed in answer to ``opened_by``; ``values`` maps text
        input custom_ids to text."""
        modal = opened_by.modal
        if modal is None:
            raise ValueError("that interaction did not open a modal")
        rows = []
        for row in modal.get("components") or []:
            inner = row.get("components") or ([row.get("component")] if "component" in row else [])
            comps = []
            for c in inner:
                if c.get("type") == 4:
                    v = values.get(c["custom_id"], c.get("value") or "")
                    if c.get("required", True) and not v:
                        raise ValueError(f"modal field {c['custom_id']!r} is required")
                    comps.append({"type": 4, "custom_id": c["custom_id"], "value": v})
            rows.append({"type": 1, "components": comps})
        data = {"custom_id": modal["custom_id"], "components": rows}
        msg = self.fake.messages.get(opened_by.source_message_id or 0)
        channel = self.fake.channels[opened_by.channel_id]
        rec = self.fake.new_interaction(5, user, channel, data, msg)
        return await self._run(rec, wait, timeout)

    def _limit(self, timeout: float) -> float:
        return max(timeout, self.patience)

    async def _run(self, rec: InteractionRecord, wait: Wait, timeout: float) -> InteractionRecord:
        timeout = self._limit(timeout)
        if not self.fake.bot_connected:
            # On Discord the person would see "This interaction failed" after 3 s.
            raise InteractionFailed(rec, "could not be delivered: no bot is connected")
        await self.fake.send_interaction(rec)
        if wait == "none":
            return rec
        try:
            await asyncio.wait_for(rec.ack_event.wait(), timeout)
        except TimeoutError:
            raise InteractionFailed(rec, f"was not acknowledged within {timeout}s") from None
        if wait == "response":
            try:
                await asyncio.wait_for(rec.response_event.wait(), timeout)
            except TimeoutError:
                raise InteractionFailed(rec, f"got no response within {timeout}s") from None
        return rec

    async def wait_ack(self, rec: InteractionRecord, timeout: float = 5.0) -> InteractionRecord:
        timeout = self._limit(timeout)
        try:
            await asyncio.wait_for(rec.ack_event.wait(), timeout)
        except TimeoutError:
            raise InteractionFailed(rec, f"was not acknowledged within {timeout}s") from None
        return rec

    async def wait_response(
        self, rec: InteractionRecord, timeout: float = 5.0
    ) -> InteractionRecord:
        timeout = self._limit(timeout)
        await self.wait_ack(rec, timeout)
        try:
            await asyncio.wait_for(rec.response_event.wait(), timeout)
        except TimeoutError:
            raise InteractionFailed(rec, f"got no response within {timeout}s") from None
        return rec

    # ------------------------------------------------------------------ messages & visibility

    def _message(self, message: MessageRecord | int) -> MessageRecord:
        mid = message if isinstance(message, int) else message.id
        msg = self.fake.messages.get(mid)
        if msg is None or msg.deleted:
            raise LookupError(f"message {mid} does not exist (deleted?)")
        return msg

    async def _check_visible(self, user: User, msg: MessageRecord) -> None:
        if not self.fake.can_see(user.id, msg):
            raise PermissionError(f"{user.username} cannot see {msg!r}")
        wait = self.reaction_time - (time.perf_counter() - msg.changed_at)
        if wait > 0:
            await asyncio.sleep(wait)

    def message(self, message_id: int) -> MessageRecord:
        return self.fake.messages[message_id]

    def messages(
        self, channel: Channel | None = None, *, include_ephemeral: bool = True
    ) -> list[MessageRecord]:
        """Existing messages, oldest first (optionally one channel; optionally public only)."""
        return sorted(
            (
                m
                for m in self.fake.messages.values()
                if not m.deleted
                and (channel is None or m.channel_id == channel.id)
                and (include_ephemeral or m.ephemeral_to is None)
            ),
            key=lambda m: m.id,
        )

    def visible_to(self, user: User, channel: Channel | None = None) -> list[MessageRecord]:
        """What ``user`` sees now: public messages in channels they can view, plus their own
        ephemeral messages (current versions, oldest first)."""
        return [m for m in self.messages(channel) if self.fake.can_see(user.id, m)]

    def seen_by(self, user: User) -> list[dict[str, Any]]:
        """Every version of every message ``user`` could have seen, including edited-away
        and deleted ones (for "no card leaks" checks)."""
        out: list[dict[str, Any]] = []
        for m in sorted(self.fake.messages.values(), key=lambda m: m.id):
            if m.ephemeral_to is not None:
                if m.ephemeral_to != user.id:
                    continue
            else:
                ch = self.fake.channels.get(m.channel_id)
                if ch is None:
                    continue
                if ch.type == DM:
                    if user.id not in ch.recipient_ids:
                        continue
                elif not self.fake.permissions(user.id, ch) & VIEW_CHANNEL:
                    continue
            out.extend(m.versions)
        return out

    def seen_text(self, user: User) -> str:
        return "\n".join(version_text(v) for v in self.seen_by(user))

    def notifications(self, user: User) -> list[MessageRecord]:
        """Messages that pinged ``user`` when they were created (edits never ping)."""
        return [m for m in self.messages(include_ephemeral=False) if user.id in m.notified]

    def ephemerals(self, user: User) -> list[MessageRecord]:
        return [m for m in self.messages() if m.ephemeral_to == user.id]

    async def wait_for_message(
        self,
        predicate: Callable[[MessageRecord], bool] = lambda m: True,
        timeout: float = 5.0,
        *,
        channel: Channel | None = None,
        visible_to: User | None = None,
        new: bool = False,
    ) -> MessageRecord:
        """The first message (created or edited; existing ones too unless ``new``) matching
        ``predicate`` and the filters. Raises ``TimeoutError`` listing recent messages."""

        def ok(m: MessageRecord) -> bool:
            if m.deleted:
                return False
            if channel is not None and m.channel_id != channel.id:
                return False
            if visible_to is not None and not self.fake.can_see(visible_to.id, m):
                return False
            return predicate(m)

        timeout = self._limit(timeout)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        cid = channel.id if channel is not None else None
        cursor = self.fake.change_cursor(cid)
        if not new:
            existing = (
                self.fake.messages.values()
                if cid is None
                else (self.fake.messages[i] for i in set(self.fake._log_for(cid)))
            )
            for m in sorted(existing, key=lambda m: m.seq):
                if ok(m):
                    return m
        while True:
            changed, cursor = self.fake.changes_since(cursor, cid)
            for m in changed:
                if ok(m):
                    return m
            left = deadline - loop.time()
            if left <= 0:
                recent = self.messages(channel)[-5:]
                shown = "\n  ".join(f"{m!r} {m.text()[:120]!r}" for m in recent)
                raise TimeoutError(f"no matching message within {timeout}s; recent:\n  {shown}")
            await self.fake.wait_change(left, cid)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        """Poll-free wait for any state predicate (re-checked on every message change)."""
        timeout = self._limit(timeout)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError("condition not met in time")
            await self.fake.wait_change(min(left, 0.1))

    def images(self, message: MessageRecord) -> list[Any]:
        """The message's image attachments decoded with Pillow (``PIL.Image.Image``)."""
        from PIL import Image

        out = []
        for a in message.attachments:
            data = self.attachment_bytes(message, a)
            if str(a.get("content_type", "")).startswith("image/"):
                im = Image.open(io.BytesIO(data))
                im.load()
                out.append(im)
        return out

    def attachment_bytes(self, message: MessageRecord, attachment: dict[str, Any] | str) -> bytes:
        """Bytes of an attachment (given as its dict or its filename)."""
        if isinstance(attachment, str):
            attachment = next(a for a in message.attachments if a["filename"] == attachment)
        return message.files[int(attachment["id"])]

    # ------------------------------------------------------------------ rules & metrics

    def ack_latencies(self, interactions: Iterable[InteractionRecord] | None = None) -> list[float]:
        recs = self.fake.interactions.values() if interactions is None else interactions
        return [r.ack_latency for r in recs if r.ack_latency is not None]

    def latency_summary(self) -> dict[str, float]:
        lat = self.ack_latencies()
        return {
            "n": float(len(lat)),
            "p50": percentile(lat, 50),
            "p99": percentile(lat, 99),
            "max": max(lat, default=0.0),
            "mean": statistics.fmean(lat) if lat else 0.0,
        }

    def failed_interactions(self) -> list[InteractionRecord]:
        """Interactions a person would see as "This interaction failed"."""
        return [r for r in self.fake.interactions.values() if r.failed]

    def loading_messages(self) -> list[MessageRecord]:
        """Deferred responses still showing "thinking…"."""
        return [m for m in self.messages() if m.loading]

    def errors_served(self) -> list[tuple[str, str, int, int]]:
        """(method, path, status, Discord code) of every error answer given to the bot."""
        return list(self.fake.errors_served)

    def violations(self) -> list[str]:
        """Every request body refused as Discord would refuse it (400 / 50035), one line
        each: ``"PUT /applications/{app}/commands: <what, and the rule it breaks>"``."""
        return [f"{route}: {describe(v)}" for _, route, v in self.fake.violations]

    def checked(self) -> Counter[str]:
        """Request bodies checked against Discord's rules, per route."""
        return Counter(self.fake.checked)

    def inject_429(self, path: str | None = None, **kw: Any) -> None:
        self.fake.inject_429(path, **kw)

    def set_rate_limit(self, path: str, limit: int, per: float, **kw: Any) -> None:
        self.fake.set_rate_limit(path, limit, per, **kw)

    def use_discord_rate_limits(self) -> None:
        """Per-channel buckets like the ones Discord answers in practice (not documented
        exactly): 5 message creates per 5 s, 5 edits per 5 s, 5 deletes per 1 s; and per
        interaction token, 5 edits of its messages per 2 s. discord.py reads the
        X-RateLimit-* headers and waits before it would hit a 429."""
        self.set_rate_limit(r"^/channels/\d+/messages$", 5, 5.0, method="POST")
        self.set_rate_limit(r"^/channels/\d+/messages/\d+$", 5, 5.0, method="PATCH")
        self.set_rate_limit(r"^/channels/\d+/messages/\d+$", 5, 1.0, method="DELETE")
        self.set_rate_limit(r"^/webhooks/\d+/[^/]+/messages/[^/]+$", 5, 2.0, method="PATCH")

    @staticmethod
    def is_ephemeral(message: MessageRecord) -> bool:
        return bool(message.flags & FLAG_EPHEMERAL)

    @staticmethod
    def now_iso() -> str:
        return iso_now()


def _iter(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for c in components:
        yield c
        if "components" in c:
            yield from _iter(c["components"])
        if "accessory" in c:
            yield from _iter([c["accessory"]])


def _named(option: dict[str, Any], name: str) -> bool:
    """Matches the canonical name or a localized one (what a person types on Discord)."""
    return option.get("name") == name or name in (option.get("name_localizations") or {}).values()


def _label(c: dict[str, Any]) -> str:
    emoji = (c.get("emoji") or {}).get("name") or ""
    label = c.get("label") or ""
    return f"{emoji} {label}".strip() if emoji and label else (label or emoji)
