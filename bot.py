"""batak-bot: İhaleli Batak on Discord. Run with ``make run`` (or ``python bot.py``).

Settings come from the environment and ``.env`` (see ``.env.example``).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import aiohttp
import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs.budget import GlobalBudget, SendWindow, gate_sends, limit_http, send_limit, share
from cogs.config import BotConfig, ConfigError, load_config
from cogs.i18n import CatalogueTranslator
from cogs.tree import (
    BatakTree,
    CommandListRefused,
    command_list_problems,
    fingerprint,
    payload_summary,
    registration_payload,
    scope_name,
)
from data import (
    EXIT_DATABASE_DAMAGED,
    DatabaseDamagedError,
    DatabaseLocationError,
    Store,
    StoreError,
)
from images.fonts import startup_note as font_note
from ops import METRICS, ErrorWebhook, HealthCheck, JsonFormatter, OpsServer, discord_trace
from tables import TableService, workers

log = logging.getLogger("batak")

UNCHANGED_COMMANDS = "command list unchanged since the last start; not re-registered"


@runtime_checkable
class RestoresTables(Protocol):
    """What the bot asks of the ``/batak`` cog after a restart."""

    async def refresh_all(self) -> None: ...


class BatakBot(commands.AutoShardedBot):
    """The bot: one store (opened before the bot, closed with it), one table service,
    the ``/batak`` cog.

    Sharded (``SHARD_COUNT`` / ``SHARD_IDS``; by default all the shards Discord
    recommends, in this one process). Discord sends a server's events and interactions
    only to the process running its shard; that process alone restores, times and moves
    the server's tables, so several processes can share one database.
    """

    def __init__(self, config: BotConfig, store: Store) -> None:
        # No voice here: spare every start the two warnings about voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; no privileged intents
        trace, self._interaction_arrived = discord_trace()
        # what leaves in any second stays under Discord's global limit (cogs.budget)
        part = share(config.shard_count, config.shard_ids, 1.0)
        self.sends = SendWindow(send_limit(part))
        gate_sends(trace, self.sends, lambda: self.application_id)
        super().__init__(
            shard_count=config.shard_count,
            # discord.py reads None as "every shard" though its annotation says List[int]
            shard_ids=list(config.shard_ids) if config.shard_ids is not None else None,  # type: ignore[arg-type]
            http_trace=trace,
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            # No message cache: every message the bot edits or deletes is addressed by id
            # (the table message, turn notices), and 1000 cached messages with their
            # buttons would only add memory and garbage-collector work under load.
            max_messages=None,
            tree_cls=BatakTree,  # options checked before a command runs; one error handler
        )
        self.config = config
        # Discord's global limit, this process's share of it (cogs.budget)
        rate = share(config.shard_count, config.shard_ids, config.discord_requests_per_second)
        self.budget = GlobalBudget(rate)
        limit_http(self.http, self.budget)
        self.store = store
        self.service = TableService(
            store, config=config.service_config(), owns_guild=config.owns_guild
        )
        self.ops_server: OpsServer | None = None
        self.error_webhook: ErrorWebhook | None = None

    async def on_interaction(self, interaction: discord.Interaction[BatakBot]) -> None:
        self._interaction_arrived(interaction.id)

    def shard_states(self) -> dict[str, bool]:
        """Each shard of this process: is its gateway connection open?"""
        return {str(sid): not shard.is_closed() for sid, shard in sorted(self.shards.items())}

    async def start_operator_view(self) -> None:
        """The error webhook and the metrics / health port, when configured."""
        c = self.config
        if c.error_webhook_url:
            shards = "all" if c.shard_ids is None else ",".join(map(str, c.shard_ids))
            self.error_webhook = ErrorWebhook(
                c.error_webhook_url,
                per_minute=c.error_webhook_per_minute,
                context=f"(shards {shards})",
            )
            self.error_webhook.start()
            logging.getLogger().addHandler(self.error_webhook)
        if c.metrics_port is not None:
            health = HealthCheck(
                gateway=self.shard_states,
                database=lambda: self.store.guild_settings.get_guild_settings(0),
                workers=workers.alive,
                storage=self.store.outage.describe,
            )
            self.ops_server = OpsServer(
                health,
                host=c.metrics_host,
                port=c.metrics_port,
                before_scrape=[lambda: METRICS.open_tables.set(len(self.service.tables))],
            )
            await self.ops_server.start()

    async def close_operator_view(self) -> None:
        if self.ops_server is not None:
            await self.ops_server.close()
            self.ops_server = None
        if self.error_webhook is not None:
            logging.getLogger().removeHandler(self.error_webhook)
            await self.error_webhook.close_async()
            self.error_webhook = None

    async def setup_hook(self) -> None:
        await self.start_operator_view()
        await self.prepare_commands()
        guild, payload = await self.checked_command_list()  # a broken list: stop here
        workers.start_all()  # spawn the workers now, not on the first card
        settle_memory()
        restored = await self.service.restore()
        log.info("database %s; %d open table(s) restored", self.store.path, len(restored))
        cog = self.get_cog("Batak")
        if isinstance(cog, RestoresTables):
            await cog.refresh_all()
        await self.register_commands(guild, payload)

    async def prepare_commands(self) -> None:
        """The slash commands and their translator: the tree this bot registers, and the
        one ``bot.py --check`` checks."""
        await self.tree.set_translator(CatalogueTranslator())
        await self.load_extension("cogs.batak_cog")

    async def checked_command_list(self) -> tuple[discord.Object | None, list[dict[str, Any]]]:
        """Where the commands are registered (the ``DEV_GUILD_ID`` server, the global
        commands copied there; else None: globally) and the list sent there, checked
        against Discord's rules; raises :class:`CommandListRefused` if it breaks one."""
        guild = None
        if self.config.dev_guild_id is not None:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        payload = await registration_payload(self.tree, guild)
        problems = command_list_problems(payload)
        if problems:
            raise CommandListRefused(problems)
        return guild, payload

    async def register_commands(
        self, guild: discord.Object | None, payload: list[dict[str, Any]]
    ) -> None:
        """Register the command list with Discord (``SYNC_COMMANDS``): by default only
        when it differs from the one registered at the last start in this scope."""
        if not self.config.runs_shard_zero:
            log.info("commands are synced by the process running shard 0")
            return
        mode = self.config.sync_commands
        if mode == "never":
            log.info("SYNC_COMMANDS=never: the command list is not registered")
            return
        # per application too: another token on the same database registers afresh
        key = f"commands:{self.application_id}:{scope_name(guild)}"
        digest = fingerprint(payload)
        if mode == "auto" and await self.store.maintenance.get_bot_state(key) == digest:
            log.info(UNCHANGED_COMMANDS)
            return
        synced = await self.tree.sync(guild=guild)
        await self.store.maintenance.set_bot_state(key, digest)
        if guild is not None:
            log.info("synced %d command(s) to server %s", len(synced), guild.id)
        else:
            log.info("synced %d global command(s) (may take up to an hour to show)", len(synced))

    async def on_ready(self) -> None:
        user = self.user
        log.info(
            "logged in as %s (%s) in %d server(s)", user, user.id if user else "?", len(self.guilds)
        )
        if user is not None:
            log.info("invite URL: %s", invite_url(user.id))

    async def close(self) -> None:
        try:
            await self.service.close()
        finally:
            await super().close()  # unloads the cog first: its pending edits and posts stop
            await self.budget.close()  # its waiters' requests are not sent any more
            await self.close_operator_view()
            await self.store.close()
            workers.close_all()


def settle_memory() -> None:
    """Once the code is loaded: collect, then freeze what is alive (modules, discord.py,
    the command tree) into the collector's permanent generation. Its full passes,
    which stop the event loop, then walk only objects made since: with 200 busy tables
    they took up to half a second."""
    gc.collect()
    gc.freeze()
    log.debug("garbage collector: %d start-up objects frozen", gc.get_freeze_count())


INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)


def invite_url(application_id: int) -> str:
    """The invite link with the permissions and scopes the bot needs."""
    return discord.utils.oauth_url(
        application_id, permissions=INVITE_PERMISSIONS, scopes=("bot", "applications.commands")
    )


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop ``EVENT_LOOP`` names (None: the standard library's)."""
    if name == "uvloop":
        import uvloop

        return uvloop.new_event_loop
    return None


async def serve(config: BotConfig) -> None:
    """Open the database, then log in and run until the bot is closed."""
    note = font_note()  # one line when emoji in names cannot be drawn (no emoji font)
    if note:
        log.warning(note)
    store = await Store.open(
        config.database_path, pool_size=config.database_pool_size, backups=config.backups
    )
    async with BatakBot(config, store) as bot:  # closing the bot closes the store
        # after the store opened: a start-up that fails says so in one line, alone
        log.info("event loop: %s", type(asyncio.get_running_loop()).__module__.split(".")[0])
        await bot.start(config.token)


async def offline_command_list(config: BotConfig) -> list[dict[str, Any]]:
    """The command list the bot would register, checked, built without a token, a
    database file or a connection: the same bot and tree on an empty in-memory store."""
    store = await Store.open(":memory:", housekeeping=None)
    async with BatakBot(config, store) as bot:
        await bot.prepare_commands()
        _, payload = await bot.checked_command_list()
    return payload


def check_command_list() -> int:
    """``bot.py --check``: 0 and one line when the command list keeps Discord's rules,
    else 2 and one line per broken rule."""
    try:
        config = load_config(need_token=False)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING)
    try:
        payload = asyncio.run(offline_command_list(config))
    except CommandListRefused as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"command list OK: {payload_summary(payload)}")
    return 0


def connection_problem(exc: aiohttp.ClientConnectorError) -> str:
    """One line on why Discord could not be reached, and what to check."""
    where = f"{exc.host}:{exc.port}"
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return f"the name {exc.host} was not found (no internet connection, or no DNS)"
    if isinstance(exc.os_error, ConnectionRefusedError):
        return f"{where} refused the connection (a proxy or firewall in the way?)"
    reason = exc.os_error.strerror or str(exc.os_error) or type(exc.os_error).__name__
    return f"{where}: {reason} (check the internet connection)"


def setup_logging(config: BotConfig) -> None:
    """Plain lines on stderr, or one JSON object per line (``LOG_FORMAT=json``)."""
    handler = logging.StreamHandler()
    if config.log_format == "json":
        shards = None if config.shard_ids is None else list(config.shard_ids)
        handler.setFormatter(JsonFormatter({"shards": shards} if shards is not None else {}))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    logging.basicConfig(level=config.log_level, handlers=[handler])


USAGE = """usage: python bot.py [--check]

  (nothing)  run the bot (settings from the environment and .env)
  --check    check the slash command list against Discord's rules, without a token,
             a database or a connection; exit 0 if it keeps them, 2 if not"""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot; 0 on a normal stop, 2 when it cannot start (the message says why),
    1 when Discord cannot be reached, 65 for a damaged database, 73 when no database
    can be at its path and 77 when its place cannot be written (one line each).
    ``--check``: see :func:`check_command_list`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if args not in ([], ["--check"]):
        print(USAGE, file=sys.stderr)
        return 2
    load_dotenv()
    if args:
        return check_command_list()
    try:
        config = load_config()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    setup_logging(config)
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(config.log_level)))
    try:
        with asyncio.Runner(loop_factory=loop_factory(config.event_loop)) as runner:
            runner.run(serve(config))
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN: reset it on the Bot page of your "
            "application and put the new one in .env.",
            file=sys.stderr,
        )
        return 2
    except CommandListRefused as exc:  # a line per broken rule, no traceback
        print(exc, file=sys.stderr)
        return 2
    except DatabaseDamagedError as exc:  # one line, no traceback: what is wrong, what to do
        print(exc, file=sys.stderr)
        return EXIT_DATABASE_DAMAGED
    except DatabaseLocationError as exc:  # a folder, under a file, read-only: one line
        print(exc, file=sys.stderr)
        return exc.exit_code
    except StoreError as exc:
        print(f"Cannot use the database: {exc}", file=sys.stderr)
        return 2
    except aiohttp.ClientConnectorError as exc:  # refused, unreachable, DNS (a subclass)
        print(f"Cannot reach Discord: {connection_problem(exc)}.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
