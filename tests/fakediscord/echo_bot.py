"""A tiny real discord.py bot used to prove the fake Discord (and to exercise the bench).

Run as ``python tests/fakediscord/echo_bot.py`` with DISCORD_TOKEN, optional DEV_GUILD_ID
(commands synced to that guild, else globally) and, to reach the fake,
BATAK_FAKE_DISCORD plus this directory on PYTHONPATH (see fixtures.py).
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import sys

import discord
from discord import app_commands

log = logging.getLogger("echo_bot")


def png(
    color: tuple[int, int, int] = (200, 30, 30), size: tuple[int, int] = (32, 16)
) -> discord.File:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, "PNG")
    buf.seek(0)
    return discord.File(buf, filename="table.png")


class Buttons(discord.ui.View):
    """Persistent buttons (fixed custom_ids, no timeout) on the public message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ping", custom_id="echo:ping", style=discord.ButtonStyle.primary)
    async def ping(
        self, interaction: discord.Interaction, button: discord.ui.Button[Buttons]
    ) -> None:
        # The count lives in the message itself: it survives restarts and does not depend on
        # which view instance (per-message or persistent) receives the click.
        content = interaction.message.content if interaction.message else ""
        count = int(content.split()[1]) if content.startswith("pong ") else 0
        await interaction.response.edit_message(content=f"pong {count + 1}")

    @discord.ui.button(label="Secret", custom_id="echo:secret")
    async def secret(
        self, interaction: discord.Interaction, button: discord.ui.Button[Buttons]
    ) -> None:
        await interaction.response.send_message(
            f"only for {interaction.user.name}", ephemeral=True, view=Private()
        )

    @discord.ui.button(label="Picture", custom_id="echo:picture")
    async def picture(
        self, interaction: discord.Interaction, button: discord.ui.Button[Buttons]
    ) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(
            content="with picture", attachments=[png((0, 90, 0))]
        )


class Private(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Again", custom_id="echo:again")
    async def again(
        self, interaction: discord.Interaction, button: discord.ui.Button[Private]
    ) -> None:
        await interaction.response.edit_message(content=f"again for {interaction.user.name}")

    @discord.ui.button(label="Off", custom_id="echo:off", disabled=True)
    async def off(
        self, interaction: discord.Interaction, button: discord.ui.Button[Private]
    ) -> None:
        await interaction.response.send_message("disabled button clicked?!")


class EchoClient(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(echo)

    async def setup_hook(self) -> None:
        self.add_view(Buttons())
        self.add_view(Private())
        dev = os.environ.get("DEV_GUILD_ID")
        if dev:
            guild = discord.Object(int(dev))
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        log.info("commands synced")

    async def on_ready(self) -> None:
        log.info("ready as %s", self.user)


echo = app_commands.Group(name="echo", description="Echo test commands")


@echo.command(name="say", description="Say something publicly, with buttons")
async def say(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(text, view=Buttons())


@echo.command(name="secret", description="Ephemeral reply")
async def secret(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(
        f"psst {text}", ephemeral=True, view=Private(), file=png((9, 9, 9))
    )


@echo.command(name="slow", description="Defer, then answer with a file")
async def slow(interaction: discord.Interaction, millis: int, private: bool = False) -> None:
    await interaction.response.defer(thinking=True, ephemeral=private)
    await asyncio.sleep(millis / 1000)
    await interaction.edit_original_response(content=f"done after {millis} ms", attachments=[png()])


@echo.command(name="late", description="Answer after a delay, without deferring")
async def late(interaction: discord.Interaction, millis: int) -> None:
    await asyncio.sleep(millis / 1000)
    try:
        await interaction.response.send_message("late answer")
    except discord.HTTPException as e:
        log.info("late answer refused: %s %s", e.status, e.code)


@echo.command(name="double", description="Acknowledge twice")
async def double(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("first")
    interaction.response._response_type = None  # bypass discord.py's own guard to reach the server
    try:
        await interaction.response.send_message("second")
    except discord.HTTPException as e:
        await interaction.followup.send(f"second ack refused: {e.status} {e.code}")


@echo.command(name="limits", description="Try to break a limit")
@app_commands.choices(
    what=[app_commands.Choice(name=n, value=n) for n in ("content", "duplicate", "custom_id")]
)
async def limits(interaction: discord.Interaction, what: str) -> None:
    view = discord.ui.View()
    content = "ok"
    if what == "content":
        content = "x" * 2001
    elif what == "duplicate":
        # discord.py checks rows and widths itself, but not custom_id uniqueness
        view.add_item(discord.ui.Button(label="a", custom_id="dup"))
        view.add_item(discord.ui.Button(label="b", custom_id="dup"))
    elif what == "custom_id":
        view.add_item(discord.ui.Button(label="long", custom_id="c" * 101))
    try:
        assert interaction.channel is not None
        await interaction.channel.send(content, view=view)  # type: ignore[union-attr]  # a text channel
        await interaction.response.send_message("sent", ephemeral=True)
    except discord.HTTPException as e:
        await interaction.response.send_message(f"refused: {e.status} {e.code}", ephemeral=True)


@echo.command(name="post", description="Post in the channel, edit it, open a thread")
async def post(
    interaction: discord.Interaction, text: str, who: discord.Member | None = None
) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    msg = await channel.send(text, file=png())
    await msg.edit(content=f"{text} (edited)", attachments=[*msg.attachments, png((0, 0, 200))])
    thread = await msg.create_thread(name=f"thread {text}")
    mention = who.mention if who else interaction.user.mention
    await thread.send(f"your turn {mention}", allowed_mentions=discord.AllowedMentions(users=True))
    await interaction.edit_original_response(content=f"posted {msg.id} thread {thread.id}")


@echo.command(name="secret_edit", description="Try to edit an ephemeral message via the channel")
async def secret_edit(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("ephemeral", ephemeral=True)
    original = await interaction.original_response()
    try:
        await interaction.channel.get_partial_message(original.id).edit(content="x")  # type: ignore[union-attr]  # text channel
        await interaction.followup.send("edited through channel?!", ephemeral=True)
    except discord.NotFound as e:
        await interaction.followup.send(f"channel edit refused: {e.code}", ephemeral=True)


@echo.command(name="stale", description="Answer a deferred command after waiting")
async def stale(interaction: discord.Interaction, millis: int) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(millis / 1000)
    try:
        await interaction.edit_original_response(content="stale answer")
    except discord.HTTPException as e:
        log.info("stale answer refused: %s %s", e.status, e.code)


@echo.command(name="followup", description="Defer, then send a follow-up (deprecated)")
async def followup(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    try:
        await interaction.followup.send("follow-up while loading")
    except discord.HTTPException as e:
        log.info("follow-up while loading refused: %s %s", e.status, e.code)
        await interaction.edit_original_response(content=f"refused: {e.status} {e.code}")


class Ask(discord.ui.Modal, title="Tell me"):
    answer: discord.ui.TextInput[Ask] = discord.ui.TextInput(label="Answer", custom_id="answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you said {self.answer.value}", ephemeral=True)


@echo.command(name="ask", description="Open a modal")
async def ask(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(Ask())


class Choose(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="echo:choose",
        placeholder="Pick one",
        options=[discord.SelectOption(label=x.upper(), value=x) for x in "abc"],
    )
    async def choose(
        self, interaction: discord.Interaction, select: discord.ui.Select[Choose]
    ) -> None:
        await interaction.response.edit_message(content=f"chose {select.values[0]}")


@echo.command(name="choose", description="A select menu")
async def choose(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("choose", view=Choose())


def main() -> None:
    token = os.environ.get("DISCORD_TOKEN")
    if not token:
        print("DISCORD_TOKEN is required", file=sys.stderr)
        raise SystemExit(2)
    level = os.environ.get("LOG_LEVEL", "INFO")
    discord.utils.setup_logging(level=getattr(logging, level.upper(), logging.INFO), root=True)
    EchoClient().run(token, log_handler=None)


if __name__ == "__main__":
    main()
