"""A local fake Discord: REST API v10 and gateway v10 on 127.0.0.1, for one bot application.

Everything here was checked against discord.py 2.7.1 (http.py, gateway.py, interactions.py,
webhook/async_.py, state.py). The parts of Discord a bot can get wrong are enforced, each
with Discord's own status and error code:

* every request body is checked by :mod:`discordspec` (Discord's OpenAPI schema and the rules
  of its documentation: command names, option ranges and order, locales, message content and
  embeds, components, modals, message flags per route); a violation is answered 400 / 50035
  "Invalid Form Body" with the ``errors`` tree, and changes nothing (``checked``,
  ``violations``);
* an interaction must be acknowledged within 3 s (else 404 / 10062 "Unknown interaction"),
  only once (400 / 40060 "Interaction has already been acknowledged.");
* interaction tokens (follow-ups, @original edits) expire after 15 min (401 / 50027);
* a follow-up while the deferred response is still loading, which Discord turns into an edit
  of that response and deprecates, is refused (400, ``deprecated_followups``);
* ephemeral messages exist only for their user: channel endpoints answer 404 / 10008;
* empty messages (400 / 50006), file size over the attachment limit (413 / 40005);
* permissions (view / send / send in threads / attach / embed / create threads: 403 / 50013),
  and per route: deleting or modifying a thread (MANAGE_THREADS, also for its creator;
  unarchiving an unlocked one needs SEND_MESSAGES), pins (PIN_MESSAGES), deleting someone
  else's message and bulk deletes (MANAGE_MESSAGES);
* privileged intents are refused unless allowed (gateway close 4014);
* Discord's global rate limit, always: 50 requests per second per bot token, shared by
  every connection and shard process of that token, interaction endpoints exempt (429
  with ``global: true``; :mod:`.global_limit`, ``FakeDiscord(global_limit=None)`` turns
  it off);
* optional 429s, injected or from per-route buckets, with ``Retry-After`` and ``Via``.

Time is read from an injectable :class:`Clock` so tests can jump past deadlines.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import math
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from discordspec import Violation, form_errors, validate_request
from discordspec import messages as spec_messages

from .global_limit import (
    GLOBAL_LIMIT,
    GlobalRateLimit,
    global_route,
    is_interaction_endpoint,
    who_is,
)

if TYPE_CHECKING:
    from .conformance import Capture

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions)
CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
PIN_MESSAGES = 1 << 51
ALL_PERMISSIONS = (1 << 53) - 1

EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
# What bot.py's invite URL asks for (INVITE_PERMISSIONS); nothing more.
BOT_ROLE_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
# A locked-down server: @everyone may read and use commands, nothing else.
EVERYONE_LOCKED = VIEW_CHANNEL | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS

# Intents
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Message flags: discordspec's (one definition, with its source)
FLAG_SUPPRESS_EMBEDS = spec_messages.SUPPRESS_EMBEDS
FLAG_EPHEMERAL = spec_messages.EPHEMERAL
FLAG_LOADING = spec_messages.LOADING
FLAG_SUPPRESS_NOTIFICATIONS = spec_messages.SUPPRESS_NOTIFICATIONS
FLAG_COMPONENTS_V2 = spec_messages.IS_COMPONENTS_V2

# Channel types
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)

DEFAULT_ATTACHMENT_LIMIT = 10 * 1024 * 1024
INTERACTION_DEADLINE = 3.0
TOKEN_TTL = 15 * 60.0


# ---------------------------------------------------------------------------------------------
# small helpers


class Clock:
    """Monotonic seconds with an offset tests can advance (deadlines and token expiry)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class Snowflakes:
    def __init__(self) -> None:
        self._counter = itertools.count()

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        """A new id; with ``shard=(id, count)`` one whose guild would live on that shard
        (its timestamp moved less than ``count`` ms ahead)."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        if shard is not None:
            ms += (shard[0] - ms) % shard[1]
        return (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events: Discord's ``(guild_id >> 22) % count``."""
    return (guild_id >> 22) % shard_count


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


def _dumps(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py compares the header to "application/json" exactly: no charset parameter.
    h = {"Content-Type": "application/json"}
    if headers:
        h.update(headers)
    return web.Response(body=_dumps(data), status=status, headers=h)


class DiscordHTTPError(Exception):
    """An error answered the way Discord answers it: status, JSON code, message, errors."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        b: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            b["errors"] = self.errors
        return b


def not_found(code: int, what: str) -> DiscordHTTPError:
    return DiscordHTTPError(404, code, f"Unknown {what}")


UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
REQUEST_TOO_LARGE = 40005
MISSING_ACCESS = 50001
CANNOT_EDIT_OTHERS = 50005
EMPTY_MESSAGE = 50006
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
THREAD_ARCHIVED = 50083
THREAD_ALREADY_CREATED = 160004
BULK_DELETE_TOO_OLD = 50034

DEPRECATED_FOLLOWUP = (
    "A follow-up sent while the deferred response (type 5) is still loading edits that "
    "response instead of creating a message; Discord keeps this only for backwards "
    "compatibility and deprecates it. Edit the original response instead: PATCH "
    "/webhooks/{application.id}/{interaction.token}/messages/@original "
    "(developers/interactions/receiving-and-responding.mdx › Create Followup Message)."
)


class FormErrors:
    """Collects 50035 errors into Discord's nested ``errors`` tree."""

    def __init__(self, prefix: Iterable[str | int] = ()) -> None:
        self.prefix = list(prefix)
        self.tree: dict[str, Any] = {}

    def add(self, path: Iterable[str | int], code: str, message: str) -> None:
        node = self.tree
        for key in [*self.prefix, *path]:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def raise_if_any(self) -> None:
        if self.tree:
            raise DiscordHTTPError(400, INVALID_FORM_BODY, "Invalid Form Body", self.tree)


# ---------------------------------------------------------------------------------------------
# world model


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    avatar: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": self.avatar,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Member:
    user_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }
        if self.bot_id is not None:
            d["tags"] = {"bot_id": str(self.bot_id)}
        return d


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    preferred_locale: str = "en-US"
    attachment_size_limit: int = DEFAULT_ATTACHMENT_LIMIT
    features: list[str] = field(default_factory=list)


@dataclass
class Channel:
    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    # threads
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=iso_now)
    message_count: int = 0
    thread_member_ids: set[int] = field(default_factory=set)
    invitable: bool = True
    # DMs
    recipient_ids: list[int] = field(default_factory=list)
    deleted: bool = False
    last_message_id: int | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_json(self, users: dict[int, User] | None = None) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "flags": 0,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
        }
        if self.guild_id is not None:
            d["guild_id"] = str(self.guild_id)
        if self.type in THREAD_TYPES:
            d.update(
                parent_id=str(self.parent_id),
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=min(len(self.thread_member_ids), 50),
                rate_limit_per_user=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": self.archive_timestamp,
                },
            )
        elif self.type == DM:
            d["recipients"] = [users[u].to_json() for u in self.recipient_ids] if users else []
        else:
            d.update(
                position=self.position,
                permission_overwrites=self.overwrites,
                parent_id=str(self.parent_id) if self.parent_id else None,
                topic=None,
                nsfw=False,
                rate_limit_per_user=0,
                default_thread_rate_limit_per_user=0,
            )
        return d


@dataclass(eq=False)
class MessageRecord:
    """A message as the fake stores it. ``data`` is the Discord JSON of its current version."""

    data: dict[str, Any]
    channel_id: int
    guild_id: int | None
    ephemeral_to: int | None = None
    interaction_id: int | None = None
    deleted: bool = False
    versions: list[dict[str, Any]] = field(default_factory=list)
    files: dict[int, bytes] = field(default_factory=dict)
    notified: list[int] = field(default_factory=list)
    seq: int = 0
    created_at: float = field(default_factory=time.perf_counter)
    changed_at: float = field(default_factory=time.perf_counter)

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.data.get("components") or [])

    @property
    def attachments(self) -> list[dict[str, Any]]:
        return list(self.data.get("attachments") or [])

    @property
    def edit_count(self) -> int:
        return len(self.versions) - 1

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def text(self) -> str:
        """Everything a reader sees as text: content, embeds, component labels, file names."""
        return version_text(self.data)

    def __repr__(self) -> str:
        eph = f" ephemeral_to={self.ephemeral_to}" if self.ephemeral_to else ""
        return f"<MessageRecord id={self.id} channel={self.channel_id}{eph} {self.content[:40]!r}>"


def iter_components(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for c in components:
        yield c
        if "components" in c:
            yield from iter_components(c["components"])
        if "accessory" in c:
            yield from iter_components([c["accessory"]])


def version_text(data: dict[str, Any]) -> str:
    parts = [str(data.get("content") or "")]
    for e in data.get("embeds") or []:
        parts += [str(e.get(k) or "") for k in ("title", "description")]
        parts += [str((e.get("footer") or {}).get("text") or "")]
        parts += [str((e.get("author") or {}).get("name") or "")]
        for f in e.get("fields") or []:
            parts += [str(f.get("name") or ""), str(f.get("value") or "")]
    for c in iter_components(data.get("components") or []):
        parts += [str(c.get("label") or ""), str(c.get("placeholder") or "")]
        parts += [str(c.get("content") or "")]
        emoji = c.get("emoji") or {}
        parts += [str(emoji.get("name") or "")]
        for o in c.get("options") or []:
            parts += [str(o.get("label") or ""), str(o.get("description") or "")]
    for a in data.get("attachments") or []:
        parts += [str(a.get("filename") or ""), str(a.get("description") or "")]
    return "\n".join(p for p in parts if p)


@dataclass(eq=False)
class InteractionRecord:
    """One interaction the fake dispatched to the bot, and what the bot did with it."""

    id: int
    token: str
    type: int
    user_id: int
    guild_id: int | None
    channel_id: int
    payload: dict[str, Any]
    created: float  # Clock time of dispatch (deadline / token expiry)
    dispatched_at: float = 0.0  # perf_counter at dispatch
    acked_at: float | None = None  # perf_counter at callback arrival
    ack_type: int | None = None
    source_message_id: int | None = None  # component interactions
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    ephemeral: bool = False
    modal: dict[str, Any] | None = None
    autocomplete_choices: list[dict[str, Any]] | None = None
    late_callback: bool = False
    rejected: list[DiscordHTTPError] = field(default_factory=list)
    ack_event: asyncio.Event = field(default_factory=asyncio.Event)
    response_event: asyncio.Event = field(default_factory=asyncio.Event)
    edits: int = 0
    responses: list[dict[str, Any]] = field(default_factory=list)
    """The message as each edit made through this interaction left it, oldest first (the
    first is the bot's answer to it; later ones come through its token as the game goes on)."""
    fake: Any = field(default=None, repr=False)

    @property
    def response(self) -> MessageRecord | None:
        """The message the acknowledgement created or updated (``@original``), if any."""
        if self.fake is None or self.original_message_id is None:
            return None
        msg: MessageRecord | None = self.fake.messages.get(self.original_message_id)
        return msg

    @property
    def followups(self) -> list[MessageRecord]:
        if self.fake is None:
            return []
        return [self.fake.messages[m] for m in self.followup_ids]

    @property
    def failed(self) -> bool:
        """What Discord's client would show as "This interaction failed"."""
        if self.acked:
            return False
        clock = self.fake.clock if self.fake is not None else None
        return (
            bool(clock and clock.now() - self.created > self.fake.interaction_deadline)
            or self.late_callback
        )

    @property
    def acked(self) -> bool:
        return self.ack_type is not None

    @property
    def ack_latency(self) -> float | None:
        """Seconds from dispatch on the gateway to the callback's arrival."""
        return None if self.acked_at is None else self.acked_at - self.dispatched_at

    @property
    def name(self) -> str:
        """``"batak new"`` for slash commands, the custom_id for components."""
        data = self.payload.get("data") or {}
        if self.type in (2, 4):
            parts = [data.get("name", "")]
            opts = data.get("options") or []
            while opts and opts[0].get("type") in (1, 2):
                parts.append(opts[0]["name"])
                opts = opts[0].get("options") or []
            return " ".join(parts)
        return str(data.get("custom_id", ""))


@dataclass
class RequestLogEntry:
    method: str
    path: str
    status: int
    at: float


@dataclass
class RateLimitRule:
    pattern: re.Pattern[str]
    method: str | None
    limit: int
    per: float
    hits: dict[str, deque[float]] = field(default_factory=dict)


@dataclass
class Injected429:
    pattern: re.Pattern[str] | None
    method: str | None
    count: int
    retry_after: float
    is_global: bool


class GatewaySession:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.seq = 0
        self.identified = False
        self.intents = 0
        self.session_id = ""
        self.lock = asyncio.Lock()
        self.identify_payload: dict[str, Any] = {}
        self.presence: dict[str, Any] | None = None
        self.shard: tuple[int, int] = (0, 1)  # [shard_id, num_shards] from IDENTIFY

    def receives(self, guild_id: int | None) -> bool:
        """Events of this guild go to this session (events of no guild, such as DMs,
        go to shard 0)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id

    async def send(self, payload: dict[str, Any]) -> None:
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(_dumps(payload).decode())

    async def dispatch(self, event: str, data: Any) -> None:
        async with self.lock:
            if self.ws.closed:
                return
            self.seq += 1
            await self.ws.send_str(_dumps({"op": 0, "t": event, "s": self.seq, "d": data}).decode())


# ---------------------------------------------------------------------------------------------
# the server


class FakeDiscord:
    """The fake Discord for one bot application. ``await start()``; ``url``; ``await close()``."""

    def __init__(
        self,
        *,
        token: str | None = None,
        clock: Clock | None = None,
        interaction_deadline: float = INTERACTION_DEADLINE,
        token_ttl: float = TOKEN_TTL,
        allow_privileged_intents: bool = False,
        bot_name: str = "BatakBot",
        keep_history: bool = True,
        shard_count: int = 1,
        global_limit: int | None = GLOBAL_LIMIT,
    ) -> None:
        """``keep_history=False`` (long benches) keeps only the current version of each
        message, the bytes of its current attachments, and slim interaction records.
        ``shard_count``: the shards ``GET /gateway/bot`` recommends and the fewest an
        IDENTIFY may use (fewer: close 4011, as Discord requires sharding).
        ``global_limit``: Discord's global rate limit, requests per second per bot token
        (50, as Discord; :mod:`.global_limit`); None turns it off, for a test that must
        flood on purpose and says so."""
        if shard_count < 1:
            raise ValueError("shard_count must be at least 1")
        self.global_limit: GlobalRateLimit | None = (
            GlobalRateLimit(limit=global_limit) if global_limit is not None else None
        )
        """The budgets of the global rate limit, and the requests counted / refused by
        route (:class:`GlobalRateLimit`); None when off."""
        self.keep_history = keep_history
        self.shard_count = shard_count
        self.owner_webhooks: dict[int, tuple[str, int]] = {}  # webhook id -> token, channel
        self.webhook_posts: list[dict[str, Any]] = []  # bodies posted to owner webhooks
        self.expected_token = token
        self.clock = clock or Clock()
        self.interaction_deadline = interaction_deadline
        self.token_ttl = token_ttl
        self.allow_privileged_intents = allow_privileged_intents
        self.snowflakes = Snowflakes()
        self.bot_user = User(self.snowflakes.next(), bot_name, bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner_user = User(self.snowflakes.next(), "app_owner", "App Owner")
        self.users: dict[int, User] = {
            self.bot_user.id: self.bot_user,
            self.owner_user.id: self.owner_user,
        }
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, MessageRecord] = {}
        self.uploads: dict[int, bytes] = {}  # files attached to slash command options
        self.interactions: dict[int, InteractionRecord] = {}
        self.tokens: dict[str, InteractionRecord] = {}
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.command_ids: dict[tuple[int | None, str, int], int] = {}
        self.app_emojis: dict[int, dict[str, Any]] = {}
        self.sessions: list[GatewaySession] = []
        self.requests: deque[RequestLogEntry] = deque(maxlen=200_000)
        self.route_counts: Counter[str] = Counter()
        self.unhandled: list[tuple[str, str]] = []
        self.errors_served: list[tuple[str, str, int, int]] = []  # method, path, status, code
        self.capture: Capture | None = None
        """Where every request is written down for the conformance audit, if anywhere."""
        self.checked: Counter[str] = Counter()
        """Request bodies checked by discordspec, per route ("PUT /applications/{app}/commands")."""
        self.refused: Counter[str] = Counter()
        """Of those, the bodies refused (400 / 50035), per route."""
        self.violations: list[tuple[str, str, Violation]] = []
        """(method, route, violation) of every body refused as Discord would refuse it."""
        self.deprecated_followups: list[str] = []
        """Interactions (names) that sent a follow-up while their deferred response was
        still loading: refused, as the documentation deprecates that fallback."""
        self.injected_429: list[Injected429] = []
        self.rate_limits: list[RateLimitRule] = []
        self.served_429 = 0
        self.served_429_by_scope: Counter[str] = Counter()
        """429s answered, by scope: ``global`` (the global limit, or an injected global
        429) or ``route`` (a route bucket, or an injected route 429)."""
        self.api_calls = 0
        """Every REST request the bot made (the bench reports them per move)."""
        self.identify_count = 0
        self.resume_count = 0
        self.resumable: dict[str, GatewaySession] = {}
        self.command_syncs = 0
        self.last_guild_create = 0.0
        self.reactions: list[tuple[int, str, int]] = []
        self.pins: dict[int, dict[int, str]] = {}  # channel id -> message id -> pinned_at
        self.nonces: dict[tuple[int, str], int] = {}
        self._seq = itertools.count(1)
        self._change_log: list[int] = []  # message ids in order of creation / edit / delete
        self.change_listeners: list[Callable[[MessageRecord], None]] = []
        """Called with each message as it is created, edited or deleted, at that moment
        (the bench times pictures with them)."""
        self._change_waiters: list[asyncio.Future[None]] = []
        self._channel_log: dict[int, list[int]] = {}
        self._channel_waiters: dict[int, list[asyncio.Future[None]]] = {}
        self._state_waiters: list[asyncio.Future[None]] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.bot_role_ids: dict[int, int] = {}

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=200 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{channel}/{att}/{filename}", self._cdn_attachment)
        app.router.add_get("/avatars/{user}/{file}", self._cdn_avatar)
        app.router.add_get("/embed/avatars/{file}", self._cdn_avatar)
        self._add_api_routes(app)
        app.router.add_route("*", "/{tail:.*}", self._unhandled)
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]  # a TCP socket

    def start_capture(self) -> None:
        """Write down every request from now on for the conformance audit
        (``tests/fakediscord/conformance.py``), when ``$BATAK_CONFORMANCE_DIR`` is set."""
        if self.capture is None:
            from .conformance import capture_from_env

            self.capture = capture_from_env()

    async def close(self) -> None:
        if self.capture is not None:
            self.capture.close()
            self.capture = None
        for s in list(self.sessions):
            with contextlib.suppress(Exception):
                await s.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ world building

    def create_user(self, username: str, *, locale: str = "en-US", bot: bool = False) -> User:
        u = User(self.snowflakes.next(), username, username.capitalize(), bot=bot, locale=locale)
        self.users[u.id] = u
        return u

    def create_guild(
        self,
        name: str = "Test Server",
        *,
        owner: User | None = None,
        locale: str = "en-US",
        attachment_size_limit: int = DEFAULT_ATTACHMENT_LIMIT,
        everyone_permissions: int = EVERYONE_DEFAULT,
        bot_permissions: int = BOT_ROLE_DEFAULT,
        shard: int | None = None,
    ) -> Guild:
        """``shard``: an id that puts the guild on that shard of ``shard_count``."""
        if shard is not None and not 0 <= shard < self.shard_count:
            raise ValueError(f"shard must be from 0 to {self.shard_count - 1}, not {shard}")
        gid = self.snowflakes.next(shard=None if shard is None else (shard, self.shard_count))
        owner = owner or self.create_user(f"owner_{len(self.guilds) + 1}")
        g = Guild(gid, name, owner.id, preferred_locale=locale)
        g.attachment_size_limit = attachment_size_limit
        g.roles[gid] = Role(gid, "@everyone", everyone_permissions, 0)
        admin = Role(self.snowflakes.next(), "Admin", MANAGE_GUILD | EVERYONE_DEFAULT, 2)
        g.roles[admin.id] = admin
        bot_role = Role(self.snowflakes.next(), self.bot_user.username, bot_permissions, 1, True)
        bot_role.bot_id = self.bot_user.id
        g.roles[bot_role.id] = bot_role
        self.bot_role_ids[gid] = bot_role.id
        g.members[self.bot_user.id] = Member(self.bot_user.id, [bot_role.id])
        g.members[owner.id] = Member(owner.id)
        self.guilds[gid] = g
        self.create_channel(g, "general")
        return g

    def admin_role_id(self, guild: Guild) -> int:
        return next(r.id for r in guild.roles.values() if r.name == "Admin")

    def add_member(self, guild: Guild, user: User, *, admin: bool = False) -> Member:
        m = Member(user.id, [self.admin_role_id(guild)] if admin else [])
        guild.members[user.id] = m
        return m

    def create_channel(self, guild: Guild, name: str) -> Channel:
        c = Channel(
            self.snowflakes.next(), GUILD_TEXT, name, guild.id, position=len(guild.channel_ids)
        )
        self.channels[c.id] = c
        guild.channel_ids.append(c.id)
        return c

    def set_overwrite(
        self,
        channel: Channel,
        target_id: int,
        *,
        allow: int = 0,
        deny: int = 0,
        member: bool = True,
    ) -> None:
        channel.overwrites = [o for o in channel.overwrites if int(o["id"]) != target_id]
        channel.overwrites.append(
            {
                "id": str(target_id),
                "type": 1 if member else 0,
                "allow": str(allow),
                "deny": str(deny),
            }
        )

    def default_channel(self, guild: Guild) -> Channel:
        return self.channels[guild.channel_ids[0]]

    # ------------------------------------------------------------------ permissions

    def permissions(self, user_id: int, channel: Channel) -> int:
        if channel.type == DM:
            return (
                VIEW_CHANNEL
                | SEND_MESSAGES
                | READ_MESSAGE_HISTORY
                | EMBED_LINKS
                | ATTACH_FILES
                | PIN_MESSAGES
            )
        guild = self.guilds[channel.guild_id or 0]
        member = guild.members.get(user_id)
        if member is None:
            return 0
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        perms = guild.roles[guild.id].permissions
        for rid in member.roles:
            perms |= guild.roles[rid].permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        base_channel = (
            self.channels[channel.parent_id] if channel.is_thread and channel.parent_id else channel
        )
        ows = {int(o["id"]): o for o in base_channel.overwrites}
        if guild.id in ows:
            perms &= ~int(ows[guild.id]["deny"])
            perms |= int(ows[guild.id]["allow"])
        allow = deny = 0
        for rid in member.roles:
            if rid in ows:
                allow |= int(ows[rid]["allow"])
                deny |= int(ows[rid]["deny"])
        perms = (perms & ~deny) | allow
        if user_id in ows:
            perms &= ~int(ows[user_id]["deny"])
            perms |= int(ows[user_id]["allow"])
        if not perms & VIEW_CHANNEL:
            return 0
        return perms

    def can_see(self, user_id: int, msg: MessageRecord) -> bool:
        if msg.deleted:
            return False
        if msg.ephemeral_to is not None:
            return msg.ephemeral_to == user_id
        channel = self.channels.get(msg.channel_id)
        if channel is None:
            return False
        if channel.type == DM:
            return user_id in channel.recipient_ids
        if channel.type == PRIVATE_THREAD and user_id not in channel.thread_member_ids:
            return False
        return bool(self.permissions(user_id, channel) & VIEW_CHANNEL)

    def _require(self, channel: Channel, perm: int, what: str) -> None:
        perms = self.permissions(self.bot_user.id, channel)
        if not perms & VIEW_CHANNEL:
            raise DiscordHTTPError(403, MISSING_ACCESS, "Missing Access")
        if not perms & perm:
            raise DiscordHTTPError(403, MISSING_PERMISSIONS, f"Missing Permissions ({what})")

    # ------------------------------------------------------------------ JSON shapes

    def member_json(
        self, guild: Guild, user_id: int, *, with_user: bool = True, channel: Channel | None = None
    ) -> dict[str, Any]:
        m = guild.members[user_id]
        d: dict[str, Any] = {
            "roles": [str(r) for r in m.roles],
            "nick": m.nick,
            "avatar": None,
            "banner": None,
            "joined_at": m.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            d["user"] = self.users[user_id].to_json()
        if channel is not None:
            d["permissions"] = str(self.permissions(user_id, channel))
        return d

    def guild_json(self, guild: Guild, *, full: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [r.to_json() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": guild.features,
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(guild.channel_ids[0]) if guild.channel_ids else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }
        if full:
            threads = [
                c
                for c in self.channels.values()
                if c.guild_id == guild.id and c.is_thread and not c.archived and not c.deleted
            ]
            d.update(
                joined_at=guild.members[self.bot_user.id].joined_at,
                large=False,
                unavailable=False,
                member_count=len(guild.members),
                voice_states=[],
                members=[self.member_json(guild, uid) for uid in guild.members],
                channels=[
                    self.channels[c].to_json()
                    for c in guild.channel_ids
                    if not self.channels[c].is_thread and not self.channels[c].deleted
                ],
                threads=[t.to_json() for t in threads],
                presences=[],
                stage_instances=[],
                guild_scheduled_events=[],
                soundboard_sounds=[],
            )
        return d

    def app_json(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.username,
            "icon": None,
            "description": "A fake application",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": self.owner_user.to_json(),
            "team": None,
            "bot": self.bot_user.to_json(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    # ------------------------------------------------------------------ change notifications

    def _changed(self, msg: MessageRecord) -> None:
        msg.seq = next(self._seq)
        msg.changed_at = time.perf_counter()
        self._change_log.append(msg.id)
        self._channel_log.setdefault(msg.channel_id, []).append(msg.id)
        for listener in self.change_listeners:
            listener(msg)
        self._wake(self._change_waiters)
        waiters = self._channel_waiters.get(msg.channel_id)
        if waiters:
            self._wake(waiters)

    def _state_changed(self) -> None:
        self._wake(self._state_waiters)

    @staticmethod
    def _wake(waiters: list[asyncio.Future[None]]) -> None:
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)
        waiters.clear()

    def _log_for(self, channel_id: int | None) -> list[int]:
        if channel_id is None:
            return self._change_log
        return self._channel_log.setdefault(channel_id, [])

    def change_cursor(self, channel_id: int | None = None) -> int:
        """Position in the log of message changes (all, or one channel's)."""
        return len(self._log_for(channel_id))

    def changes_since(
        self, cursor: int, channel_id: int | None = None
    ) -> tuple[list[MessageRecord], int]:
        """Messages created, edited or deleted since ``cursor``; and the new cursor."""
        log = self._log_for(channel_id)
        seen: set[int] = set()
        out = []
        for mid in log[cursor:]:
            if mid not in seen:
                seen.add(mid)
                out.append(self.messages[mid])
        return out, len(log)

    async def wait_change(self, timeout: float, channel_id: int | None = None) -> None:
        """Until some message changes (in ``channel_id`` if given) or ``timeout``."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if channel_id is None:
            self._change_waiters.append(fut)
        else:
            self._channel_waiters.setdefault(channel_id, []).append(fut)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(fut, timeout)

    async def wait_state(self, predicate: Callable[[], bool], timeout: float) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            left = deadline - loop.time()
            if left <= 0:
                return False
            fut: asyncio.Future[None] = loop.create_future()
            self._state_waiters.append(fut)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(fut, min(left, 0.25))
        return True

    # ------------------------------------------------------------------ gateway

    @property
    def bot_connected(self) -> bool:
        return any(s.identified and not s.ws.closed for s in self.sessions)

    def connected_shards(self) -> set[tuple[int, int]]:
        """``(shard_id, num_shards)`` of every identified, open session."""
        return {s.shard for s in self.sessions if s.identified and not s.ws.closed}

    def guild_connected(self, guild_id: int | None) -> bool:
        """A session that receives this guild's events is connected."""
        return any(s.identified and not s.ws.closed and s.receives(guild_id) for s in self.sessions)

    async def dispatch(
        self, event: str, data: Any, *, intent: int | None = None, guild_id: int | None = None
    ) -> None:
        """Send an event to the session(s) of its guild: ``guild_id``, else the
        ``guild_id`` field of ``data`` (none: shard 0, as Discord sends DMs)."""
        if guild_id is None and isinstance(data, dict) and data.get("guild_id"):
            guild_id = int(data["guild_id"])
        for s in list(self.sessions):
            if not s.identified or not s.receives(guild_id):
                continue
            if intent is not None and not s.intents & intent:
                continue
            with contextlib.suppress(ConnectionError, RuntimeError):
                await s.dispatch(event, data)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        session = GatewaySession(ws)
        self.sessions.append(session)
        try:
            await session.send({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.BINARY:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                    continue
                payload = json.loads(msg.data)
                await self._gateway_op(session, payload)
        finally:
            self.sessions.remove(session)
            self._state_changed()
        return ws

    async def _gateway_op(self, session: GatewaySession, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        d = payload.get("d")
        if op == 1:
            await session.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(session, d or {})
        elif op == 6:
            await self._resume(session, d or {})
        elif op == 3:
            session.presence = d
        elif op == 8:
            gid = int((d or {}).get("guild_id", 0))
            guild = self.guilds.get(gid)
            if guild is not None:
                await session.dispatch(
                    "GUILD_MEMBERS_CHUNK",
                    {
                        "guild_id": str(gid),
                        "members": [self.member_json(guild, u) for u in guild.members],
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "nonce": (d or {}).get("nonce"),
                    },
                )

    async def _resume(self, session: GatewaySession, d: dict[str, Any]) -> None:
        """RESUME a session this fake started (events missed meanwhile are not replayed;
        interactions cannot be sent while no bot is connected). An unknown session gets
        INVALID_SESSION, and the client identifies again (after discord.py's 5 s wait)."""
        old = self.resumable.get(str(d.get("session_id")))
        if old is None or (
            self.expected_token is not None and d.get("token") != self.expected_token
        ):
            await session.send({"op": 9, "d": False, "s": None, "t": None})
            return
        session.session_id, session.intents = old.session_id, old.intents
        session.shard = old.shard
        session.identify_payload = old.identify_payload
        session.seq = max(old.seq, int(d.get("seq") or 0))
        session.identified = True
        self.resumable[session.session_id] = session
        self.resume_count += 1
        await session.dispatch("RESUMED", {"_trace": ["fake-discord"]})
        self._state_changed()

    async def _identify(self, session: GatewaySession, d: dict[str, Any]) -> None:
        token = str(d.get("token", ""))
        if self.expected_token is not None and token != self.expected_token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(d.get("intents", 0))
        if intents & PRIVILEGED_INTENTS and not self.allow_privileged_intents:
            await session.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = d.get("shard", [0, 1])
        valid = (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in shard)
            and shard[1] >= 1
            and 0 <= shard[0] < shard[1]
        )
        if not valid:
            await session.ws.close(code=4010, message=b"Invalid shard.")
            return
        if shard[1] < self.shard_count:
            await session.ws.close(code=4011, message=b"Sharding required.")
            return
        session.shard = (shard[0], shard[1])
        session.intents = intents
        session.identify_payload = d
        session.session_id = f"fake-session-{self.snowflakes.next()}"
        mine = [g for g in self.guilds.values() if session.receives(g.id)]
        ready = {
            "v": 10,
            "user": {**self.bot_user.to_json(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth_session_id_hash": "",
            "_trace": ["fake-discord"],
        }
        if "shard" in d:
            ready["shard"] = d["shard"]
        await session.dispatch("READY", ready)
        for guild in mine:
            await session.dispatch("GUILD_CREATE", self.guild_json(guild, full=True))
        session.identified = True
        self.resumable[session.session_id] = session
        self.identify_count += 1
        self.last_guild_create = time.monotonic()
        self._state_changed()

    # ------------------------------------------------------------------ HTTP plumbing

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        path = request.path
        if not path.startswith(API_PREFIX):
            plain: web.StreamResponse = await handler(request)
            return plain
        sub = path[len(API_PREFIX) :]
        method = request.method
        self.api_calls += 1
        tokenless = sub.startswith(("/interactions/", "/webhooks/"))
        resp: web.StreamResponse
        try:
            if not tokenless:
                auth = request.headers.get("Authorization", "")
                if not auth.startswith("Bot ") or (
                    self.expected_token is not None and auth != f"Bot {self.expected_token}"
                ):
                    raise DiscordHTTPError(401, 0, "401: Unauthorized")
            limited = self._check_429(method, sub)
            if limited is None:
                limited = self._check_global(request, method, sub)
            if limited is not None:
                resp = limited
            else:
                rl_headers = self._check_bucket(method, sub)
                if isinstance(rl_headers, web.Response):
                    resp = rl_headers
                else:
                    await self._check_body(request, sub)
                    resp = await handler(request)
                    if rl_headers:
                        resp.headers.update(rl_headers)
        except DiscordHTTPError as e:
            self.errors_served.append((method, sub, e.status, e.code))
            resp = json_response(e.body(), e.status)
        self.requests.append(RequestLogEntry(method, sub, resp.status, time.perf_counter()))
        self.route_counts[f"{method} {_route_template(sub)}"] += 1
        if self.capture is not None:
            parsed = request.get(_BODY)
            body: Any = None
            sizes: list[int] = []
            if parsed is not None:
                payload, files = parsed
                body = payload.get("__list__", payload) if set(payload) == {"__list__"} else payload
                sizes = [len(data) for _, _, data in files]
            self.capture.write(method, request.path_qs[len(API_PREFIX) :], resp.status, body, sizes)
        return resp

    def inject_429(
        self,
        path: str | None = None,
        *,
        method: str | None = None,
        count: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> None:
        """The next ``count`` requests matching ``path`` (a regex searched in the path after
        /api/v10) and ``method`` answer 429 with ``Retry-After`` and ``Via`` headers."""
        pat = re.compile(path) if path else None
        self.injected_429.append(Injected429(pat, method, count, retry_after, is_global))

    def set_rate_limit(
        self, path: str, limit: int, per: float, *, method: str | None = None
    ) -> None:
        """A sliding-window bucket per major parameter (channel, guild, webhook token) for
        requests matching ``path``; answers X-RateLimit-* headers and 429 when exceeded."""
        self.rate_limits.append(RateLimitRule(re.compile(path), method, limit, per))

    def _response_429(
        self, retry_after: float, *, is_global: bool, bucket: str = ""
    ) -> web.Response:
        self.served_429 += 1
        self.served_429_by_scope["global" if is_global else "route"] += 1
        headers = {
            "Retry-After": str(math.ceil(retry_after)),
            "Via": "1.1 google",
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        if bucket:
            headers.update(
                {
                    "X-RateLimit-Bucket": bucket,
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                }
            )
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
            "code": 0,
        }
        return json_response(body, 429, headers)

    def _check_429(self, method: str, sub: str) -> web.Response | None:
        for inj in self.injected_429:
            if inj.count <= 0:
                continue
            if inj.method and inj.method != method:
                continue
            if inj.pattern and not inj.pattern.search(sub):
                continue
            inj.count -= 1
            return self._response_429(inj.retry_after, is_global=inj.is_global)
        return None

    def _check_global(self, request: web.Request, method: str, sub: str) -> web.Response | None:
        """Discord's global rate limit (rate-limits.mdx › Global Rate Limit): 50 requests
        per second per bot token, whichever connection or shard process sends them;
        without an Authorization header, per IP address; interaction endpoints exempt."""
        if self.global_limit is None or is_interaction_endpoint(sub, self.application_id):
            return None
        who = who_is(request.headers.get("Authorization", ""), request.remote)
        retry = self.global_limit.take(who, global_route(method, sub), self.clock.now())
        if retry is None:
            return None
        return self._response_429(retry, is_global=True)

    def _check_bucket(self, method: str, sub: str) -> dict[str, str] | web.Response | None:
        for i, rule in enumerate(self.rate_limits):
            if rule.method and rule.method != method:
                continue
            if not rule.pattern.search(sub):
                continue
            major = _major_parameter(sub)
            hits = rule.hits.setdefault(major, deque())
            now = time.monotonic()
            while hits and hits[0] <= now - rule.per:
                hits.popleft()
            bucket = f"fakebucket{i}"
            if len(hits) >= rule.limit:
                retry = max(0.001, hits[0] + rule.per - now)
                return self._response_429(retry, is_global=False, bucket=bucket)
            hits.append(now)
            reset_after = hits[0] + rule.per - now
            return {
                "X-RateLimit-Limit": str(rule.limit),
                "X-RateLimit-Remaining": str(rule.limit - len(hits)),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": bucket,
            }
        return None

    async def _unhandled(self, request: web.Request) -> web.Response:
        self.unhandled.append((request.method, request.path))
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    async def _check_body(self, request: web.Request, sub: str) -> None:
        """Every request with a body, against Discord's schema and documented rules
        (:func:`discordspec.validate_request`): a violation is answered as Discord does, 400 /
        50035 "Invalid Form Body" with the ``errors`` tree, before the handler changes
        anything. Counted per route in ``checked`` and ``violations``."""
        if not request.can_read_body:
            return
        payload, _ = await self._read_body(request)
        body: Any = payload.get("__list__", payload) if set(payload) == {"__list__"} else payload
        route = f"{request.method} {_route_name(request)}"
        self.checked[route] += 1
        found = validate_request(request.method, sub, body)
        if found:
            self.refused[route] += 1
            self.violations.extend((request.method, route, v) for v in found)
            error = DiscordHTTPError(
                400, INVALID_FORM_BODY, "Invalid Form Body", form_errors(found)
            )
            rec = self._interaction_of(request)
            if rec is not None:
                rec.rejected.append(error)
            raise error

    def _interaction_of(self, request: web.Request) -> InteractionRecord | None:
        """The interaction a callback or an interaction-token webhook request is about."""
        info = request.match_info
        if "iid" in info:
            with contextlib.suppress(ValueError):
                return self.interactions.get(int(info["iid"]))
        if "token" in info and info.get("app") == str(self.application_id):
            return self.tokens.get(info["token"])
        return None

    async def _read_body(
        self, request: web.Request
    ) -> tuple[dict[str, Any], list[tuple[int, str, bytes]]]:
        """JSON body, or multipart ``payload_json`` + ``files[n]`` parts (parsed once per
        request: the check of :meth:`_check_body` and the handler share it)."""
        cached = request.get(_BODY)
        if cached is not None:
            return cached
        parsed = await self._parse_body(request)
        request[_BODY] = parsed
        return parsed

    async def _parse_body(
        self, request: web.Request
    ) -> tuple[dict[str, Any], list[tuple[int, str, bytes]]]:
        files: list[tuple[int, str, bytes]] = []
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            payload: dict[str, Any] = {}
            for name, filename, data in parse_multipart(ctype, await request.read()):
                if name == "payload_json":
                    payload = json.loads(data)
                    continue
                m = re.fullmatch(r"files\[(\d+)\]", name)
                if m:
                    files.append((int(m.group(1)), filename or "file", data))
                else:
                    raise DiscordHTTPError(
                        400,
                        INVALID_FORM_BODY,
                        "Invalid Form Body",
                        {
                            name: {
                                "_errors": [{"code": "UNKNOWN_FIELD", "message": "Unknown field"}]
                            }
                        },
                    )
            return payload, files
        raw = await request.read()
        if not raw:
            return {}, files
        try:
            body = json.loads(raw)
        except ValueError:
            raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.") from None
        return (body if isinstance(body, dict) else {"__list__": body}), files

    def _add_api_routes(self, app: web.Application) -> None:
        r = app.router
        p = API_PREFIX
        routes: list[tuple[str, str, Any]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/users/{user_id:\\d+}", self._get_user),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/oauth2/applications/@me", self._get_app),
            ("GET", "/applications/@me", self._get_app),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("POST", "/applications/{app}/commands", self._post_command),
            ("GET", "/applications/{app}/commands/{cmd}", self._get_command),
            ("DELETE", "/applications/{app}/commands/{cmd}", self._delete_command),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("POST", "/applications/{app}/guilds/{guild}/commands", self._post_command),
            ("GET", "/applications/{app}/guilds/{guild}/commands/permissions", self._empty_list),
            ("GET", "/applications/{app}/guilds/{guild}/commands/{cmd}", self._get_command),
            ("DELETE", "/applications/{app}/guilds/{guild}/commands/{cmd}", self._delete_command),
            ("GET", "/applications/{app}/emojis", self._get_app_emojis),
            ("POST", "/applications/{app}/emojis", self._post_app_emoji),
            ("GET", "/guilds/{guild}", self._get_guild),
            ("GET", "/guilds/{guild}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild}/roles", self._get_guild_roles),
            ("GET", "/guilds/{guild}/members", self._get_guild_members),
            ("GET", "/guilds/{guild}/members/{user}", self._get_guild_member),
            ("GET", "/guilds/{guild}/threads/active", self._get_active_threads),
            ("GET", "/channels/{channel}", self._get_channel),
            ("PATCH", "/channels/{channel}", self._patch_channel),
            ("DELETE", "/channels/{channel}", self._delete_channel),
            ("POST", "/channels/{channel}/typing", self._no_content),
            ("GET", "/channels/{channel}/messages", self._get_messages),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("POST", "/channels/{channel}/messages/bulk-delete", self._bulk_delete),
            ("GET", "/channels/{channel}/messages/pins", self._get_pins),
            ("PUT", "/channels/{channel}/messages/pins/{message}", self._pin),
            ("DELETE", "/channels/{channel}/messages/pins/{message}", self._pin),
            ("GET", "/channels/{channel}/pins", self._get_pins),
            ("PUT", "/channels/{channel}/pins/{message}", self._pin),
            ("DELETE", "/channels/{channel}/pins/{message}", self._pin),
            ("GET", "/channels/{channel}/messages/{message}", self._get_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._patch_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._delete_message),
            ("POST", "/channels/{channel}/messages/{message}/threads", self._thread_from_message),
            ("PUT", "/channels/{channel}/messages/{message}/reactions/{emoji}/@me", self._react),
            ("DELETE", "/channels/{channel}/messages/{message}/reactions/{emoji}/@me", self._react),
            ("POST", "/channels/{channel}/threads", self._thread_without_message),
            ("GET", "/channels/{channel}/thread-members", self._get_thread_members),
            ("PUT", "/channels/{channel}/thread-members/{user}", self._thread_member),
            ("DELETE", "/channels/{channel}/thread-members/{user}", self._thread_member),
            ("POST", "/interactions/{iid}/{token}/callback", self._interaction_callback),
            ("POST", "/webhooks/{app}/{token}", self._webhook_execute),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._webhook_get),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._webhook_edit),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._webhook_delete),
        ]
        for method, path, handler in routes:
            r.add_route(method, p + path, handler)

    # ------------------------------------------------------------------ lookups

    def _channel(self, request: web.Request, key: str = "channel") -> Channel:
        try:
            c = self.channels[int(request.match_info[key])]
        except (KeyError, ValueError):
            raise not_found(UNKNOWN_CHANNEL, "Channel") from None
        if c.deleted:
            raise not_found(UNKNOWN_CHANNEL, "Channel")
        return c

    def _guild(self, request: web.Request) -> Guild:
        try:
            return self.guilds[int(request.match_info["guild"])]
        except (KeyError, ValueError):
            raise not_found(UNKNOWN_GUILD, "Guild") from None

    def _channel_message(self, request: web.Request) -> tuple[Channel, MessageRecord]:
        channel = self._channel(request)
        try:
            msg = self.messages[int(request.match_info["message"])]
        except (KeyError, ValueError):
            raise not_found(UNKNOWN_MESSAGE, "Message") from None
        # Ephemeral messages are not reachable through channel endpoints.
        if msg.deleted or msg.channel_id != channel.id or msg.ephemeral_to is not None:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return channel, msg

    def _check_app(self, request: web.Request) -> None:
        if request.match_info.get("app") not in (str(self.application_id), "@me"):
            raise DiscordHTTPError(403, 50001, "Missing Access")

    # ------------------------------------------------------------------ misc REST

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(
            {
                **self.bot_user.to_json(),
                "verified": True,
                "mfa_enabled": False,
                "locale": "en-US",
                "email": None,
            }
        )

    async def _get_user(self, request: web.Request) -> web.Response:
        u = self.users.get(int(request.match_info["user_id"]))
        if u is None:
            raise not_found(UNKNOWN_USER, "User")
        return json_response(u.to_json())

    async def _create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        uid = int(body.get("recipient_id", 0))
        if uid not in self.users:
            raise not_found(UNKNOWN_USER, "User")
        for c in self.channels.values():
            if c.type == DM and c.recipient_ids == [uid]:
                return json_response(c.to_json(self.users))
        c = Channel(self.snowflakes.next(), DM, "", recipient_ids=[uid])
        self.channels[c.id] = c
        return json_response(c.to_json(self.users))

    async def _get_app(self, request: web.Request) -> web.Response:
        return json_response(self.app_json())

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _empty_list(self, request: web.Request) -> web.Response:
        return json_response([])

    async def _no_content(self, request: web.Request) -> web.Response:
        self._channel(request)
        return web.Response(status=204)

    async def _get_app_emojis(self, request: web.Request) -> web.Response:
        self._check_app(request)
        return json_response({"items": list(self.app_emojis.values())})

    async def _post_app_emoji(self, request: web.Request) -> web.Response:
        self._check_app(request)
        body, _ = await self._read_body(request)
        name = str(body.get("name", ""))
        errs = FormErrors()
        if not re.fullmatch(r"\w{2,32}", name):
            errs.add(["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
        if not str(body.get("image", "")).startswith("data:image/"):
            errs.add(["image"], "BINARY_TYPE_INVALID_IMAGE", "Invalid image data")
        errs.raise_if_any()
        eid = self.snowflakes.next()
        emoji = {
            "id": str(eid),
            "name": name,
            "roles": [],
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
            "user": self.owner_user.to_json(),
        }
        self.app_emojis[eid] = emoji
        return json_response(emoji, 201)

    async def _get_guild(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        d = self.guild_json(g)
        d["approximate_member_count"] = len(g.members)
        return json_response(d)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        return json_response(
            [
                self.channels[c].to_json()
                for c in g.channel_ids
                if not self.channels[c].is_thread and not self.channels[c].deleted
            ]
        )

    async def _get_guild_roles(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        return json_response([r.to_json() for r in g.roles.values()])

    async def _get_guild_members(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        limit = int(request.query.get("limit", "1"))
        after = int(request.query.get("after", "0"))
        ids = sorted(u for u in g.members if u > after)[:limit]
        return json_response([self.member_json(g, u) for u in ids])

    async def _get_guild_member(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        uid = int(request.match_info["user"])
        if uid not in g.members:
            raise not_found(UNKNOWN_MEMBER, "Member")
        return json_response(self.member_json(g, uid))

    async def _get_active_threads(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        threads = [
            c
            for c in self.channels.values()
            if c.guild_id == g.id and c.is_thread and not c.archived and not c.deleted
        ]
        return json_response({"threads": [t.to_json() for t in threads], "members": []})

    # ------------------------------------------------------------------ commands

    def _command_scope(self, request: web.Request) -> tuple[int | None, dict[str, dict[str, Any]]]:
        self._check_app(request)
        if "guild" in request.match_info:
            gid = int(request.match_info["guild"])
            if gid not in self.guilds:
                raise DiscordHTTPError(403, MISSING_ACCESS, "Missing Access")
            return gid, self.guild_commands.setdefault(gid, {})
        return None, self.global_commands

    def _register_command(self, gid: int | None, cmd: dict[str, Any]) -> dict[str, Any]:
        """A command as Discord stores it (the body was checked by :meth:`_check_body`)."""
        ctype = int(cmd.get("type") or 1)
        key = (gid, str(cmd.get("name")), ctype)
        cid = self.command_ids.setdefault(key, self.snowflakes.next())
        out = {
            **cmd,
            "id": str(cid),
            "application_id": str(self.application_id),
            "version": str(self.snowflakes.next()),
            "type": ctype,
            "default_member_permissions": cmd.get("default_member_permissions"),
            "nsfw": bool(cmd.get("nsfw", False)),
        }
        if out["default_member_permissions"] is not None:
            out["default_member_permissions"] = str(out["default_member_permissions"])
        if gid is not None:
            out["guild_id"] = str(gid)
        out.setdefault("description", "")
        out.setdefault("options", [])
        return out

    async def _put_commands(self, request: web.Request) -> web.Response:
        gid, scope = self._command_scope(request)
        body, _ = await self._read_body(request)
        cmds = body.get("__list__")
        if not isinstance(cmds, list):  # the schema allows null: an empty list
            cmds = []
        out = [self._register_command(gid, cmd) for cmd in cmds]
        scope.clear()
        for c in out:
            scope[c["name"]] = c
        self.command_syncs += 1
        self._state_changed()
        return json_response(out)

    async def _post_command(self, request: web.Request) -> web.Response:
        gid, scope = self._command_scope(request)
        body, _ = await self._read_body(request)
        c = self._register_command(gid, body)
        scope[c["name"]] = c
        self.command_syncs += 1
        self._state_changed()
        return json_response(c, 201)

    async def _get_commands(self, request: web.Request) -> web.Response:
        _, scope = self._command_scope(request)
        return json_response(list(scope.values()))

    def _find_command(
        self, request: web.Request
    ) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
        _, scope = self._command_scope(request)
        for c in scope.values():
            if c["id"] == request.match_info["cmd"]:
                return scope, c
        raise not_found(UNKNOWN_COMMAND, "application command")

    async def _get_command(self, request: web.Request) -> web.Response:
        return json_response(self._find_command(request)[1])

    async def _delete_command(self, request: web.Request) -> web.Response:
        scope, c = self._find_command(request)
        del scope[c["name"]]
        return web.Response(status=204)

    def lookup_command(self, guild_id: int | None, name: str) -> dict[str, Any] | None:
        """A chat-input command by its name or one of its localized names (guild first)."""
        scopes = [self.guild_commands.get(guild_id, {})] if guild_id is not None else []
        scopes.append(self.global_commands)
        for scope in scopes:
            if name in scope:
                return scope[name]
            for c in scope.values():
                if name in (c.get("name_localizations") or {}).values():
                    return c
        return None

    # ------------------------------------------------------------------ messages

    def _author_json(self) -> dict[str, Any]:
        return self.bot_user.to_json()

    def _attachments(
        self,
        channel_id: int,
        payload: dict[str, Any],
        files: list[tuple[int, str, bytes]],
        limit: int,
        existing: list[dict[str, Any]] | None,
        store: dict[int, bytes],
        ephemeral: bool,
    ) -> list[dict[str, Any]]:
        """New attachments from ``files[n]`` and the ``attachments`` list (by id/index)."""
        if len(files) > 10:
            raise DiscordHTTPError(
                400,
                INVALID_FORM_BODY,
                "Invalid Form Body",
                {
                    "files": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_MAX_LENGTH",
                                "message": "Must be 10 or fewer in length.",
                            }
                        ]
                    }
                },
            )
        total = sum(len(b) for _, _, b in files)
        if total > limit or any(len(b) > limit for _, _, b in files):
            raise DiscordHTTPError(413, REQUEST_TOO_LARGE, "Request entity too large")
        by_index = {i: (name, data) for i, name, data in files}
        meta = {}
        listed = payload.get("attachments")
        keep: list[dict[str, Any]] = []
        if isinstance(listed, list):
            old = {str(a["id"]): a for a in existing or []}
            for a in listed:
                aid = str(a.get("id"))
                if aid in old:
                    keep.append(
                        {
                            **old[aid],
                            **({"description": a["description"]} if "description" in a else {}),
                        }
                    )
                elif aid.isdigit() and int(aid) in by_index:
                    meta[int(aid)] = a
                else:
                    raise DiscordHTTPError(
                        400,
                        INVALID_FORM_BODY,
                        "Invalid Form Body",
                        {
                            "attachments": {
                                "_errors": [
                                    {
                                        "code": "ATTACHMENT_NOT_FOUND",
                                        "message": f"Attachment {aid} not found",
                                    }
                                ]
                            }
                        },
                    )
        else:
            keep = list(existing or [])
        out = list(keep)
        for index, (fname, data) in sorted(by_index.items()):
            a = meta.get(index, {})
            filename = str(a.get("filename") or fname)
            new_id = self.snowflakes.next()
            store[new_id] = data
            att: dict[str, Any] = {
                "id": str(new_id),
                "filename": filename,
                "size": len(data),
                "url": f"{self.url}/attachments/{channel_id}/{new_id}/{filename}",
                "proxy_url": f"{self.url}/attachments/{channel_id}/{new_id}/{filename}",
                "content_type": _content_type(filename, data),
            }
            if a.get("description"):
                att["description"] = a["description"]
            if ephemeral:
                att["ephemeral"] = True
            size = _image_size(data)
            if size:
                att["width"], att["height"] = size
            out.append(att)
        return out

    def _build_message(
        self,
        channel: Channel,
        payload: dict[str, Any],
        files: list[tuple[int, str, bytes]],
        *,
        ephemeral_to: int | None = None,
        interaction: InteractionRecord | None = None,
        loading: bool = False,
        msg_type: int = 0,
    ) -> MessageRecord:
        guild = self.guilds.get(channel.guild_id or 0)
        limit = guild.attachment_size_limit if guild else DEFAULT_ATTACHMENT_LIMIT
        if not loading and spec_messages.is_empty(
            payload, has_files=bool(files) or bool(payload.get("attachments"))
        ):
            raise DiscordHTTPError(400, EMPTY_MESSAGE, "Cannot send an empty message")
        mid = self.snowflakes.next()
        store: dict[int, bytes] = {}
        attachments = self._attachments(
            channel.id, payload, files, limit, None, store, ephemeral_to is not None
        )
        flags = int(payload.get("flags") or 0) & (
            FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
        )
        if ephemeral_to is not None:
            flags |= FLAG_EPHEMERAL
        if loading:
            flags |= FLAG_LOADING
        data: dict[str, Any] = {
            "id": str(mid),
            "type": msg_type,
            "channel_id": str(channel.id),
            "author": self._author_json(),
            "content": "" if loading else str(payload.get("content") or ""),
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": [] if loading else list(payload.get("embeds") or []),
            "components": [] if loading else list(payload.get("components") or []),
            "pinned": False,
            "flags": flags,
            "position": channel.message_count if channel.is_thread else None,
        }
        if payload.get("nonce") is not None:
            data["nonce"] = payload["nonce"]
        if interaction is not None:
            user = self.users[interaction.user_id]
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": user.to_json(),
                "authorizing_integration_owners": (
                    {"0": str(interaction.guild_id)}
                    if interaction.guild_id
                    else {"1": str(user.id)}
                ),
            }
            if interaction.type == 2:
                meta["name"] = interaction.name
            if interaction.source_message_id is not None:
                meta["interacted_message_id"] = str(interaction.source_message_id)
            if interaction.original_message_id is not None:
                meta["original_response_message_id"] = str(interaction.original_message_id)
            data["interaction_metadata"] = meta
            data["interaction"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "name": interaction.name,
                "user": user.to_json(),
            }
        ref = payload.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id"):
            refd = self.messages.get(int(ref["message_id"]))
            if refd is None or refd.deleted or refd.ephemeral_to is not None:
                if ref.get("fail_if_not_exists", True):
                    raise DiscordHTTPError(
                        400,
                        INVALID_FORM_BODY,
                        "Invalid Form Body",
                        {
                            "message_reference": {
                                "_errors": [
                                    {
                                        "code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                                        "message": "Unknown message",
                                    }
                                ]
                            }
                        },
                    )
            else:
                data["type"] = 19
                data["message_reference"] = {
                    "message_id": str(refd.id),
                    "channel_id": str(refd.channel_id),
                    "type": 0,
                }
                data["referenced_message"] = refd.data
        rec = MessageRecord(
            data,
            channel.id,
            channel.guild_id,
            ephemeral_to,
            interaction.id if interaction else None,
            files=store,
        )
        if channel.guild_id is not None and ephemeral_to is None and not loading:
            rec.notified = self._mentions(channel, payload, data)
        data["mentions"] = [self.users[u].to_json() for u in rec.notified]
        rec.versions.append(data)
        return rec

    def _mentions(
        self, channel: Channel, payload: dict[str, Any], data: dict[str, Any]
    ) -> list[int]:
        """Users actually pinged, as Discord decides: ``<@id>``, ``<@&role>``, ``@everyone``
        / ``@here`` in the content, filtered by ``allowed_mentions`` (absent: everything is
        allowed) and, for @everyone / @here, the bot's Mention Everyone permission."""
        guild = self.guilds[channel.guild_id or 0]
        content = str(payload.get("content") or "")
        users = [int(x) for x in re.findall(r"<@!?(\d+)>", content)]
        roles = [int(x) for x in re.findall(r"<@&(\d+)>", content)]
        everyone = "@everyone" in content or "@here" in content
        am = payload.get("allowed_mentions")
        if isinstance(am, dict):
            parse = am.get("parse") or []
            allowed_users = {int(u) for u in am.get("users") or []}
            allowed_roles = {int(r) for r in am.get("roles") or []}
            users = [u for u in users if "users" in parse or u in allowed_users]
            roles = [r for r in roles if "roles" in parse or r in allowed_roles]
            everyone = everyone and "everyone" in parse
        if everyone and not self.permissions(self.bot_user.id, channel) & MENTION_EVERYONE:
            everyone = False
        data["mention_everyone"] = everyone
        data["mention_roles"] = [str(r) for r in roles]
        if int(data.get("flags") or 0) & FLAG_SUPPRESS_NOTIFICATIONS:
            return []
        if everyone:
            users += list(guild.members)
        for r in roles:
            users += [uid for uid, m in guild.members.items() if r in m.roles]
        out = []
        for u in users:
            if u in guild.members and u not in out and u != self.bot_user.id:
                out.append(u)
        return out

    async def _store_new(self, rec: MessageRecord) -> None:
        self.messages[rec.id] = rec
        channel = self.channels[rec.channel_id]
        if rec.ephemeral_to is None:
            channel.last_message_id = rec.id
            if channel.is_thread:
                channel.message_count += 1
        self._changed(rec)
        if rec.ephemeral_to is None:
            await self._dispatch_message("MESSAGE_CREATE", rec)

    async def _dispatch_message(self, event: str, rec: MessageRecord) -> None:
        d = dict(rec.data)
        if rec.guild_id is not None:
            d["guild_id"] = str(rec.guild_id)
            guild = self.guilds[rec.guild_id]
            d["member"] = self.member_json(guild, self.bot_user.id, with_user=False)
        await self.dispatch(event, d, intent=INTENT_GUILD_MESSAGES)

    def _apply_edit(
        self,
        rec: MessageRecord,
        payload: dict[str, Any],
        files: list[tuple[int, str, bytes]],
        errs_prefix: Iterable[str] = (),
    ) -> None:
        guild = self.guilds.get(rec.guild_id or 0)
        limit = guild.attachment_size_limit if guild else DEFAULT_ATTACHMENT_LIMIT
        new = dict(rec.data)
        for key in ("content", "embeds", "components"):
            if key in payload:
                new[key] = (
                    payload[key] if payload[key] is not None else ([] if key != "content" else "")
                )
        if "flags" in payload and payload["flags"] is not None:
            # SUPPRESS_EMBEDS can be set and unset, IS_COMPONENTS_V2 only set; other flag
            # changes are ignored (docs: resources/message.mdx › Edit Message)
            keep = int(new.get("flags") or 0) & ~FLAG_SUPPRESS_EMBEDS
            changeable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            new["flags"] = keep | (int(payload["flags"]) & changeable)
        if files or "attachments" in payload:
            new["attachments"] = self._attachments(
                rec.channel_id,
                payload,
                files,
                limit,
                rec.data.get("attachments"),
                rec.files,
                rec.ephemeral_to is not None,
            )
        new["flags"] = int(new.get("flags") or 0) & ~FLAG_LOADING
        # What the message is after the edit (the body alone was checked by _check_body):
        # not empty, and with IS_COMPONENTS_V2 made of components only.
        after = {k: new.get(k) for k in ("content", "embeds", "components", "flags")}
        if spec_messages.is_empty(after, has_files=bool(new.get("attachments"))):
            raise DiscordHTTPError(400, EMPTY_MESSAGE, "Cannot send an empty message")
        legacy = spec_messages.components_v2_exclusive(after, tuple(errs_prefix))
        if legacy:
            raise DiscordHTTPError(400, INVALID_FORM_BODY, "Invalid Form Body", form_errors(legacy))
        new["edited_timestamp"] = iso_now()
        rec.data = new
        if self.keep_history:
            rec.versions.append(new)
        else:
            rec.versions[:] = [new]
            current = {int(a["id"]) for a in new.get("attachments") or []}
            for aid in [a for a in rec.files if a not in current]:
                del rec.files[aid]
        self._changed(rec)

    async def _edit_and_dispatch(
        self,
        rec: MessageRecord,
        payload: dict[str, Any],
        files: list[tuple[int, str, bytes]],
        errs_prefix: Iterable[str] = (),
    ) -> None:
        self._apply_edit(rec, payload, files, errs_prefix)
        if rec.ephemeral_to is None:
            await self._dispatch_message("MESSAGE_UPDATE", rec)

    async def _delete(self, rec: MessageRecord) -> None:
        rec.deleted = True
        self._changed(rec)
        if rec.ephemeral_to is None:
            d: dict[str, Any] = {"id": str(rec.id), "channel_id": str(rec.channel_id)}
            if rec.guild_id:
                d["guild_id"] = str(rec.guild_id)
            await self.dispatch("MESSAGE_DELETE", d, intent=INTENT_GUILD_MESSAGES)

    def _check_send(self, channel: Channel, payload: dict[str, Any], files: list[Any]) -> None:
        if channel.type == DM:
            return
        if channel.is_thread:
            self._require(channel, SEND_MESSAGES_IN_THREADS, "SEND_MESSAGES_IN_THREADS")
            if channel.locked:
                raise DiscordHTTPError(400, THREAD_ARCHIVED, "Thread is locked")
            channel.archived = False  # sending unarchives an unlocked thread
        else:
            self._require(channel, SEND_MESSAGES, "SEND_MESSAGES")
        if files:
            self._require(channel, ATTACH_FILES, "ATTACH_FILES")
        if payload.get("embeds"):
            # Stricter than Discord, which drops the embeds of a sender without Embed Links
            # (developers/topics/permissions.mdx, Permissions): a vanished embed is a bug.
            self._require(channel, EMBED_LINKS, "EMBED_LINKS")

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload, files = await self._read_body(request)
        self._check_send(channel, payload, files)
        nonce = payload.get("nonce")
        if nonce is not None and payload.get("enforce_nonce"):
            prev = self.nonces.get((channel.id, str(nonce)))
            if prev is not None:
                return json_response(self.messages[prev].data)
        rec = self._build_message(channel, payload, files)
        if nonce is not None:
            self.nonces[(channel.id, str(nonce))] = rec.id
        await self._store_new(rec)
        return json_response(rec.data)

    async def _get_message(self, request: web.Request) -> web.Response:
        _, rec = self._channel_message(request)
        return json_response(rec.data)

    async def _get_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, READ_MESSAGE_HISTORY, "READ_MESSAGE_HISTORY")
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        before = int(request.query.get("before", "0") or 0)
        after = int(request.query.get("after", "0") or 0)
        msgs = sorted(
            (
                m
                for m in self.messages.values()
                if m.channel_id == channel.id and not m.deleted and m.ephemeral_to is None
            ),
            key=lambda m: m.id,
            reverse=True,
        )
        if before:
            msgs = [m for m in msgs if m.id < before]
        if after:
            msgs = [m for m in msgs if m.id > after][-limit:]
        return json_response([m.data for m in msgs[:limit]])

    async def _patch_message(self, request: web.Request) -> web.Response:
        _, rec = self._channel_message(request)
        payload, files = await self._read_body(request)
        if int(rec.data["author"]["id"]) != self.bot_user.id:
            raise DiscordHTTPError(
                403, CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user"
            )
        await self._edit_and_dispatch(rec, payload, files)
        return json_response(rec.data)

    async def _delete_message(self, request: web.Request) -> web.Response:
        channel, rec = self._channel_message(request)
        if int(rec.data["author"]["id"]) != self.bot_user.id:
            self._require(channel, MANAGE_MESSAGES, "MANAGE_MESSAGES")
        await self._delete(rec)
        return web.Response(status=204)

    async def _bulk_delete(self, request: web.Request) -> web.Response:
        """Bulk Delete Messages (developers/resources/message.mdx): guild channels only,
        MANAGE_MESSAGES, 2 to 100 distinct ids (the schema's), none older than 14 days."""
        channel = self._channel(request)
        if channel.guild_id is None:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        self._require(channel, MANAGE_MESSAGES, "MANAGE_MESSAGES")
        body, _ = await self._read_body(request)
        ids = [int(x) for x in body.get("messages") or []]
        oldest_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS - 14 * 24 * 3600 * 1000
        if any((mid >> 22) < oldest_ms for mid in ids):
            raise DiscordHTTPError(
                400,
                BULK_DELETE_TOO_OLD,
                "You can only bulk delete messages that are under 14 days old.",
            )
        for mid in ids:
            rec = self.messages.get(mid)
            if (
                rec
                and rec.channel_id == channel.id
                and rec.ephemeral_to is None
                and not rec.deleted
            ):
                await self._delete(rec)
        return web.Response(status=204)

    async def _pin(self, request: web.Request) -> web.Response:
        """Pin / Unpin Message (developers/resources/message.mdx › Pin Message, Unpin
        Message; the deprecated /channels/{id}/pins/{id} routes alike): PIN_MESSAGES."""
        channel, rec = self._channel_message(request)
        self._require(channel, PIN_MESSAGES, "PIN_MESSAGES")
        pins = self.pins.setdefault(channel.id, {})
        if request.method == "PUT":
            pins.setdefault(rec.id, iso_now())
        else:
            pins.pop(rec.id, None)
        rec.data = {**rec.data, "pinned": rec.id in pins}
        self._changed(rec)
        d: dict[str, Any] = {
            "channel_id": str(channel.id),
            "last_pin_timestamp": max(pins.values()) if pins else None,
        }
        if channel.guild_id is not None:
            d["guild_id"] = str(channel.guild_id)
        await self.dispatch("CHANNEL_PINS_UPDATE", d, intent=INTENT_GUILDS)
        return web.Response(status=204)

    async def _get_pins(self, request: web.Request) -> web.Response:
        """Get Channel Pins: VIEW_CHANNEL; without READ_MESSAGE_HISTORY, no pins."""
        channel = self._channel(request)
        self._require(channel, VIEW_CHANNEL, "VIEW_CHANNEL")
        readable = bool(self.permissions(self.bot_user.id, channel) & READ_MESSAGE_HISTORY)
        pins = self.pins.get(channel.id, {}) if readable else {}
        newest = sorted(pins.items(), key=lambda p: p[1], reverse=True)
        if request.path.endswith("/messages/pins"):
            items = [{"pinned_at": at, "message": self.messages[m].data} for m, at in newest]
            return json_response({"items": items[:50], "has_more": len(items) > 50})
        return json_response([self.messages[m].data for m, _ in newest[:50]])

    async def _react(self, request: web.Request) -> web.Response:
        _, rec = self._channel_message(request)
        self.reactions.append(
            (rec.id, request.match_info["emoji"], 1 if request.method == "PUT" else -1)
        )
        return web.Response(status=204)

    # ------------------------------------------------------------------ channels / threads

    async def _get_channel(self, request: web.Request) -> web.Response:
        c = self._channel(request)
        if c.guild_id is not None and not self.permissions(self.bot_user.id, c) & VIEW_CHANNEL:
            raise DiscordHTTPError(403, MISSING_ACCESS, "Missing Access")
        return json_response(c.to_json(self.users))

    async def _patch_channel(self, request: web.Request) -> web.Response:
        c = self._channel(request)
        body, _ = await self._read_body(request)
        if c.is_thread:
            self._check_thread_edit(c, body)
            for k in ("archived", "locked", "invitable"):
                if k in body:
                    setattr(c, k, bool(body[k]))
            if "auto_archive_duration" in body:
                c.auto_archive_duration = int(body["auto_archive_duration"])
            if "archived" in body:
                c.archive_timestamp = iso_now()
        else:
            self._require(c, MANAGE_CHANNELS, "MANAGE_CHANNELS")
        if "name" in body:
            c.name = str(body["name"])
        d = c.to_json(self.users)
        await self.dispatch(
            "THREAD_UPDATE" if c.is_thread else "CHANNEL_UPDATE", d, intent=INTENT_GUILDS
        )
        return json_response(d)

    def _check_thread_edit(self, thread: Channel, body: dict[str, Any]) -> None:
        """Modify Channel on a thread (developers/resources/channel.mdx › Modify Channel ›
        JSON Params (Thread)): unarchiving an unlocked thread needs only SEND_MESSAGES (or
        MANAGE_THREADS); anything else (archiving, locking, unlocking, renaming, unarchiving
        a locked thread) needs MANAGE_THREADS, also for the thread's creator; and an archived
        thread is only modified by a request that unarchives it."""
        unarchive = body.get("archived") is False
        plain_unarchive = (
            unarchive
            and not thread.locked
            and not body.get("locked")
            and set(body) <= {"archived", "locked"}
        )
        perms = self.permissions(self.bot_user.id, thread)
        if not (plain_unarchive and perms & SEND_MESSAGES):
            self._require(thread, MANAGE_THREADS, "MANAGE_THREADS")
        if thread.archived and not unarchive:
            raise DiscordHTTPError(400, THREAD_ARCHIVED, "Thread is archived")

    async def _delete_channel(self, request: web.Request) -> web.Response:
        c = self._channel(request)
        if c.is_thread:
            # MANAGE_THREADS, whoever created the thread (developers/resources/channel.mdx ›
            # Delete/Close Channel)
            self._require(c, MANAGE_THREADS, "MANAGE_THREADS")
        else:
            self._require(c, MANAGE_CHANNELS, "MANAGE_CHANNELS")
        c.deleted = True
        d = c.to_json(self.users)
        if c.is_thread:
            await self.dispatch(
                "THREAD_DELETE",
                {
                    "id": d["id"],
                    "guild_id": d["guild_id"],
                    "parent_id": d["parent_id"],
                    "type": c.type,
                },
                intent=INTENT_GUILDS,
            )
        else:
            await self.dispatch("CHANNEL_DELETE", d, intent=INTENT_GUILDS)
        return json_response(d)

    def new_thread(
        self,
        parent: Channel,
        name: str,
        owner_id: int,
        *,
        thread_id: int | None = None,
        type_: int = PUBLIC_THREAD,
        auto_archive_duration: int = 1440,
    ) -> Channel:
        t = Channel(
            thread_id or self.snowflakes.next(),
            type_,
            name[:100],
            parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            auto_archive_duration=auto_archive_duration,
        )
        t.thread_member_ids.add(owner_id)
        self.channels[t.id] = t
        if parent.guild_id is not None:
            self.guilds[parent.guild_id].channel_ids.append(t.id)
        return t

    def _thread_errors(self, parent: Channel, body: dict[str, Any], type_: int) -> None:
        if parent.type != GUILD_TEXT:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        perm = CREATE_PUBLIC_THREADS if type_ == PUBLIC_THREAD else CREATE_PRIVATE_THREADS
        self._require(
            parent,
            perm,
            "CREATE_PUBLIC_THREADS" if type_ == PUBLIC_THREAD else "CREATE_PRIVATE_THREADS",
        )
        # (name 1-100 and auto_archive_duration are the schema's, checked by _check_body)

    async def _announce_thread(self, t: Channel) -> None:
        d = t.to_json()
        d["newly_created"] = True
        d["member"] = {
            "id": str(t.id),
            "user_id": str(self.bot_user.id),
            "join_timestamp": iso_now(),
            "flags": 0,
        }
        await self.dispatch("THREAD_CREATE", d, intent=INTENT_GUILDS)
        self._state_changed()

    async def _thread_from_message(self, request: web.Request) -> web.Response:
        parent, rec = self._channel_message(request)
        body, _ = await self._read_body(request)
        self._thread_errors(parent, body, PUBLIC_THREAD)
        if "thread" in rec.data or rec.id in self.channels:
            raise DiscordHTTPError(
                400, THREAD_ALREADY_CREATED, "A thread has already been created for this message"
            )
        t = self.new_thread(
            parent,
            str(body["name"]),
            self.bot_user.id,
            thread_id=rec.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        rec.data = {**rec.data, "thread": t.to_json()}
        self._changed(rec)
        await self._announce_thread(t)
        return json_response(t.to_json(), 201)

    async def _thread_without_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body, _ = await self._read_body(request)
        type_ = int(body.get("type") or PRIVATE_THREAD)
        if type_ not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise DiscordHTTPError(400, INVALID_FORM_BODY, "Invalid Form Body")
        self._thread_errors(parent, body, type_)
        t = self.new_thread(
            parent,
            str(body["name"]),
            self.bot_user.id,
            type_=type_,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        t.invitable = bool(body.get("invitable", True))
        await self._announce_thread(t)
        return json_response(t.to_json(), 201)

    async def _get_thread_members(self, request: web.Request) -> web.Response:
        t = self._channel(request)
        return json_response(
            [
                {"id": str(t.id), "user_id": str(u), "join_timestamp": iso_now(), "flags": 0}
                for u in sorted(t.thread_member_ids)
            ]
        )

    async def _thread_member(self, request: web.Request) -> web.Response:
        t = self._channel(request)
        if not t.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        who = request.match_info["user"]
        uid = self.bot_user.id if who == "@me" else int(who)
        if request.method == "PUT":
            if t.archived:
                raise DiscordHTTPError(400, THREAD_ARCHIVED, "Thread is archived")
            t.thread_member_ids.add(uid)
        else:
            t.thread_member_ids.discard(uid)
        return web.Response(status=204)

    # ------------------------------------------------------------------ interactions

    def new_interaction(
        self,
        itype: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        message: MessageRecord | None = None,
    ) -> InteractionRecord:
        iid = self.snowflakes.next()
        token = f"aW50ZXJhY3Rpb24{iid}fake{self.snowflakes.next():x}"
        guild = self.guilds.get(channel.guild_id or 0)
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel.to_json(self.users),
            "app_permissions": str(self.permissions(self.bot_user.id, channel)),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": guild.attachment_size_limit
            if guild
            else DEFAULT_ATTACHMENT_LIMIT,
        }
        if guild is not None:
            payload.update(
                guild_id=str(guild.id),
                guild={
                    "id": str(guild.id),
                    "locale": guild.preferred_locale,
                    "features": guild.features,
                },
                guild_locale=guild.preferred_locale,
                member=self.member_json(guild, user.id, channel=channel),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.to_json(), authorizing_integration_owners={"1": str(user.id)}, context=1
            )
        if message is not None:
            payload["message"] = message.data
        rec = InteractionRecord(
            iid,
            token,
            itype,
            user.id,
            channel.guild_id,
            channel.id,
            payload,
            self.clock.now(),
            source_message_id=message.id if message is not None else None,
            fake=self,
        )
        self.interactions[iid] = rec
        self.tokens[token] = rec
        return rec

    async def send_interaction(self, rec: InteractionRecord) -> None:
        gid = rec.payload.get("guild_id")
        if not self.guild_connected(int(gid) if gid else None):
            raise RuntimeError("no bot session of this guild's shard is connected to the fake")
        rec.created = self.clock.now()
        rec.dispatched_at = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", rec.payload)
        if not self.keep_history:
            # keep what InteractionRecord.name needs, not the channel / member / message
            rec.payload = {"data": rec.payload.get("data")}

    def _ack(self, rec: InteractionRecord, rtype: int, at: float) -> None:
        rec.ack_type = rtype
        rec.acked_at = at
        rec.ack_event.set()
        self._state_changed()

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()
        try:
            rec = self.interactions[int(request.match_info["iid"])]
        except (KeyError, ValueError):
            raise not_found(UNKNOWN_INTERACTION, "interaction") from None
        if rec.token != request.match_info["token"]:
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        payload, files = await self._read_body(request)
        try:
            answer = await self._callback(rec, payload, files, arrived)
        except DiscordHTTPError as e:
            rec.rejected.append(e)
            raise
        # changelog "Interaction Callback Response" (2024-08-19) and
        # receiving-and-responding.mdx, Create Interaction Response: the interaction
        # callback response only with the query parameter with_response=true (discord.py
        # sends it); otherwise 204 No Content
        if request.query.get("with_response", "").lower() not in ("true", "1"):
            return web.Response(status=204)
        return answer

    async def _callback(
        self,
        rec: InteractionRecord,
        payload: dict[str, Any],
        files: list[tuple[int, str, bytes]],
        arrived: float,
    ) -> web.Response:
        if rec.acked:
            raise DiscordHTTPError(
                400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        if self.clock.now() - rec.created > self.interaction_deadline:
            rec.late_callback = True
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        rtype = int(payload.get("type") or 0)
        data = payload.get("data") or {}
        channel = self.channels[rec.channel_id]
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}.get(rec.type, set())
        if rec.type == 5 and rec.source_message_id is None:
            allowed = {4, 5}
        if rtype not in allowed:
            errs = FormErrors()
            errs.add(
                ["type"],
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Interaction response type {rtype} is not valid for interaction type {rec.type}",
            )
            errs.raise_if_any()
        result: dict[str, Any] = {"type": rtype}
        if rtype in (4, 5):
            # (interaction responses need no SEND_MESSAGES permission in the channel)
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = self._build_message(
                channel,
                data,
                files,
                ephemeral_to=rec.user_id if ephemeral else None,
                interaction=rec,
                loading=rtype == 5,
                msg_type=20 if rec.type == 2 else 0,
            )
            rec.ephemeral = ephemeral
            rec.original_message_id = msg.id
            self._ack(rec, rtype, arrived)
            await self._store_new(msg)
            result["message"] = msg.data
            if rtype == 4:
                rec.response_event.set()
        elif rtype == 7:
            src = self.messages.get(rec.source_message_id or 0)
            if src is None or src.deleted:
                raise not_found(UNKNOWN_MESSAGE, "Message")
            self._apply_edit(src, data, files, ["data"])
            rec.original_message_id = src.id
            rec.ephemeral = src.ephemeral_to is not None
            self._ack(rec, rtype, arrived)
            rec.edits += 1
            rec.responses.append(src.data)
            rec.response_event.set()
            if src.ephemeral_to is None:
                await self._dispatch_message("MESSAGE_UPDATE", src)
            result["message"] = src.data
        elif rtype == 6:
            rec.original_message_id = rec.source_message_id
            src = self.messages.get(rec.source_message_id or 0)
            rec.ephemeral = bool(src and src.ephemeral_to is not None)
            self._ack(rec, rtype, arrived)
        elif rtype == 9:
            rec.modal = data
            self._ack(rec, rtype, arrived)
            rec.response_event.set()
        elif rtype == 8:
            rec.autocomplete_choices = list(data.get("choices") or [])
            self._ack(rec, rtype, arrived)
            rec.response_event.set()
        interaction = {
            "id": str(rec.id),
            "type": rec.type,
            "response_message_loading": rtype == 5,
            "response_message_ephemeral": rec.ephemeral,
        }
        if rec.original_message_id is not None and rtype in (4, 5, 7):
            interaction["response_message_id"] = str(rec.original_message_id)
        return json_response({"interaction": interaction, "resource": result})

    def _webhook_interaction(self, request: web.Request) -> InteractionRecord:
        if request.match_info["app"] != str(self.application_id):
            raise not_found(UNKNOWN_WEBHOOK, "Webhook")
        rec = self.tokens.get(request.match_info["token"])
        if rec is None:
            raise DiscordHTTPError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if self.clock.now() - rec.created > self.token_ttl:
            raise DiscordHTTPError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if not rec.acked:
            raise not_found(UNKNOWN_WEBHOOK, "Webhook")
        return rec

    def _webhook_message(self, rec: InteractionRecord, mid: str) -> MessageRecord:
        if mid == "@original":
            msg_id = rec.original_message_id
        else:
            try:
                msg_id = int(mid)
            except ValueError:
                raise not_found(UNKNOWN_MESSAGE, "Message") from None
            if msg_id not in rec.followup_ids and msg_id != rec.original_message_id:
                raise not_found(UNKNOWN_MESSAGE, "Message")
        msg = self.messages.get(msg_id or 0)
        if msg is None or msg.deleted:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return msg

    def create_webhook(self, channel: Channel) -> str:
        """A channel webhook of the owner's (as made in the channel's settings); its URL."""
        wid = self.snowflakes.next()
        token = f"owner-webhook-{self.snowflakes.next():x}"
        self.owner_webhooks[wid] = (token, channel.id)
        return f"{self.url}{API_PREFIX}/webhooks/{wid}/{token}"

    async def _owner_webhook_execute(self, request: web.Request, wid: int) -> web.Response:
        """Execute Webhook: the message appears in the webhook's channel."""
        token, channel_id = self.owner_webhooks[wid]
        if request.match_info["token"] != token:
            raise DiscordHTTPError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        payload, files = await self._read_body(request)
        # A channel webhook's message: EPHEMERAL is a follow-up's flag only.
        flags = spec_messages.flag_rules(payload, spec_messages.EXECUTE_WEBHOOK_FLAGS)
        if flags:
            raise DiscordHTTPError(400, INVALID_FORM_BODY, "Invalid Form Body", form_errors(flags))
        self.webhook_posts.append(payload)
        msg = self._build_message(self.channels[channel_id], payload, files)
        msg.data["webhook_id"] = str(wid)
        await self._store_new(msg)
        if request.query.get("wait") not in ("true", "True", "1"):
            return web.Response(status=204)
        return json_response(msg.data)

    async def _webhook_execute(self, request: web.Request) -> web.Response:
        app = request.match_info["app"]
        if app.isdigit() and int(app) in self.owner_webhooks:
            return await self._owner_webhook_execute(request, int(app))
        rec = self._webhook_interaction(request)
        payload, files = await self._read_body(request)
        channel = self.channels[rec.channel_id]
        original = self.messages.get(rec.original_message_id or 0)
        if rec.ack_type == 5 and original is not None and original.loading:
            self.deprecated_followups.append(rec.name)
            error = DiscordHTTPError(400, INVALID_FORM_BODY, DEPRECATED_FOLLOWUP)
            rec.rejected.append(error)
            raise error
        ephemeral = bool(int(payload.get("flags") or 0) & FLAG_EPHEMERAL)
        msg = self._build_message(
            channel,
            payload,
            files,
            interaction=rec,
            ephemeral_to=rec.user_id if ephemeral else None,
        )
        rec.followup_ids.append(msg.id)
        await self._store_new(msg)
        rec.response_event.set()
        if request.query.get("wait") not in ("true", "True", "1"):
            return web.Response(status=204)
        return json_response(msg.data)

    async def _webhook_get(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        return json_response(self._webhook_message(rec, request.match_info["message"]).data)

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        msg = self._webhook_message(rec, request.match_info["message"])
        payload, files = await self._read_body(request)
        await self._edit_and_dispatch(msg, payload, files)
        rec.edits += 1
        rec.responses.append(msg.data)
        rec.response_event.set()
        return json_response(msg.data)

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        msg = self._webhook_message(rec, request.match_info["message"])
        await self._delete(msg)
        return web.Response(status=204)

    # ------------------------------------------------------------------ CDN

    async def _cdn_attachment(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["att"])
        for rec in self.messages.values():
            if aid in rec.files:
                return web.Response(body=rec.files[aid], content_type="application/octet-stream")
        if aid in self.uploads:  # a file attached to a slash command option
            return web.Response(body=self.uploads[aid], content_type="application/octet-stream")
        return web.Response(status=404)

    async def _cdn_avatar(self, request: web.Request) -> web.Response:
        from PIL import Image

        buf = io.BytesIO()
        Image.new("RGBA", (64, 64), (88, 101, 242, 255)).save(buf, "PNG")
        return web.Response(body=buf.getvalue(), content_type="image/png")

    # ------------------------------------------------------------------ user actions (driver)

    async def user_message(self, user: User, channel: Channel, content: str) -> MessageRecord:
        """A person writes a message in a channel (dispatched as MESSAGE_CREATE)."""
        mid = self.snowflakes.next()
        data: dict[str, Any] = {
            "id": str(mid),
            "type": 0,
            "channel_id": str(channel.id),
            "author": user.to_json(),
            "content": content,
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "flags": 0,
        }
        rec = MessageRecord(data, channel.id, channel.guild_id)
        rec.versions.append(data)
        self.messages[mid] = rec
        channel.last_message_id = mid
        self._changed(rec)
        d = dict(data)
        if channel.guild_id is not None:
            d["guild_id"] = str(channel.guild_id)
            d["member"] = self.member_json(self.guilds[channel.guild_id], user.id, with_user=False)
        for s in list(self.sessions):
            if not s.identified or not s.intents & INTENT_GUILD_MESSAGES:
                continue
            if not s.receives(channel.guild_id):
                continue
            dd = d
            mentioned = f"<@{self.bot_user.id}>" in content
            if not s.intents & INTENT_MESSAGE_CONTENT and not mentioned:
                dd = {**d, "content": "", "embeds": [], "attachments": [], "components": []}
            await s.dispatch("MESSAGE_CREATE", dd)
        return rec


# ---------------------------------------------------------------------------------------------
# misc


_DISPOSITION_PARAM = re.compile(rb'(\w+)\*?="((?:[^"\\]|\\.)*)"|(\w+)=([^;\s]+)')


def parse_multipart(content_type: str, body: bytes) -> list[tuple[str, str | None, bytes]]:
    """(name, filename, bytes) of each part of a multipart/form-data body (as aiohttp's
    FormData(quote_fields=False) writes it; much cheaper than aiohttp's streaming reader)."""
    m = re.search(r'boundary="?([^";]+)"?', content_type)
    if m is None:
        raise DiscordHTTPError(400, INVALID_FORM_BODY, "Invalid Form Body")
    delimiter = b"--" + m.group(1).encode()
    out: list[tuple[str, str | None, bytes]] = []
    for chunk in body.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, data = chunk.partition(b"\r\n\r\n")
        if data.endswith(b"\r\n"):
            data = data[:-2]
        params: dict[str, str] = {}
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-disposition:"):
                for k1, v1, k2, v2 in _DISPOSITION_PARAM.findall(line):
                    key = (k1 or k2).decode().lower()
                    params[key] = (v1 or v2).decode("utf-8", "replace").replace('\\"', '"')
        out.append((params.get("name", ""), params.get("filename"), data))
    return out


_BODY = web.RequestKey("fake_body", tuple[dict[str, Any], list[tuple[int, str, bytes]]])
"""A request's parsed body, shared by the check of every body and the handler."""


def _route_name(request: web.Request) -> str:
    """The fake's route template of a request (``/applications/{app}/commands``)."""
    resource = request.match_info.route.resource
    name = resource.canonical if resource is not None else request.path
    return name[len(API_PREFIX) :] if name.startswith(API_PREFIX) else name


def _route_template(sub: str) -> str:
    s = re.sub(r"/webhooks/(\d+)/[^/]+", r"/webhooks/{app}/{token}", sub)
    s = re.sub(r"/interactions/\d+/[^/]+", "/interactions/{id}/{token}", s)
    return re.sub(r"\d{5,}", "{id}", s)


def _major_parameter(sub: str) -> str:
    for pat in (
        r"/channels/(\d+)",
        r"/guilds/(\d+)",
        r"/webhooks/\d+/([^/]+)",
        r"/interactions/(\d+)",
    ):
        m = re.search(pat, sub)
        if m:
            return m.group(1)
    return ""


def _content_type(filename: str, data: bytes) -> str:
    if data.startswith(b"\x89PNG"):
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if filename.endswith(".json"):
        return "application/json; charset=utf-8"
    if filename.endswith((".jsonl", ".txt", ".md", ".csv")):
        return "text/plain; charset=utf-8"
    return "application/octet-stream"


def _image_size(data: bytes) -> tuple[int, int] | None:
    if not (
        data.startswith(b"\x89PNG")
        or data[:3] == b"\xff\xd8\xff"
        or data[:4] == b"RIFF"
        or data[:3] == b"GIF"
    ):
        return None
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as im:
            return int(im.width), int(im.height)
    except Exception:
        return None
