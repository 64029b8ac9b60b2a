"""Answering an interaction: the reply itself, errors as polite messages, the reader's
language, and the small facts about who clicked where."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import discord

from data import StorageUnavailableError, Store, StoreError, UserSettings
from tables import ServiceError

from .components import release
from .i18n import language_of, resolve, t
from .payload import KEEP, MessagePayload
from .text.refusals import error_text
from .text.words import MAX_CONTENT, clip

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


class Languages:
    """The reader's language: the one they chose (``/batak settings me``), else their
    Discord locale if we have it, else the server's. Also their other personal choices
    (:meth:`personal`), read once per person and kept."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._languages: dict[int, str] = {}
        self._unset: dict[int, str] = {}
        """Servers that never chose their settings: the stored default language (read
        once; choosing settings goes through :meth:`remember`)."""
        self._people: dict[int, UserSettings] = {}

    async def personal(self, user_id: int | None) -> UserSettings:
        """The person's own settings (nothing chosen for None or a person never seen)."""
        if user_id is None:
            return UserSettings(0)
        found = self._people.get(user_id)
        if found is None:
            found = await self.store.user_settings.get_user_settings(user_id)
            if len(self._people) > 10_000:
                self._people.clear()
            self._people[user_id] = found
        return found

    def known_looks(self, user_id: int | None) -> Any:
        """How the person chose to see their pictures, as far as is known without the
        store (:meth:`personal` read them before): a key for "did their looks change"."""
        found = self._people.get(user_id) if user_id is not None else None
        return None if found is None else (found.theme, found.four_colour)

    def remember_personal(self, settings: UserSettings) -> None:
        """A person's settings were just changed."""
        self._people[settings.user_id] = settings

    async def server(
        self, guild_id: int | None, guild_locale: str | discord.Locale | None = None
    ) -> str:
        """The server's language: its setting, else (never set) its Discord locale when
        there is a catalogue for it, else English."""
        if guild_id is None:
            return "en"
        lang = self._languages.get(guild_id)
        if lang is not None:
            return lang
        default = self._unset.get(guild_id)
        if default is None:
            g = await self.store.guild_settings.get_guild_settings(guild_id)
            if g.updated_at is not None:  # the server chose its settings
                self._languages[guild_id] = g.language
                return g.language
            if len(self._unset) > 10_000:
                self._unset.clear()
            default = self._unset[guild_id] = g.language
        return language_of(guild_locale) or default

    async def of(self, interaction: discord.Interaction[Any]) -> str:
        """The reader's language (replies): their own setting, else their locale, else
        the server's language."""
        chosen = (await self.personal(interaction.user.id)).language
        if chosen is not None:
            return chosen
        server = await self.server(interaction.guild_id, interaction.guild_locale)
        return resolve(interaction.locale, server)

    def remember(self, guild_id: int, language: str) -> None:
        """The server's language was just changed to ``language``."""
        self._unset.pop(guild_id, None)
        self._languages[guild_id] = language


MOVE = "move"
"""``interaction.extras`` key: the press is a move (set just before it goes to the table),
so a storage outage is answered "your move was not played"."""

ANSWERED = "original_answered"
"""``interaction.extras`` key: the original response is no longer the "thinking"
message of a deferral (:func:`send` edited it, or :func:`fail` deleted it)."""
ORIGINAL_ID = "original_id"
"""``interaction.extras`` key: the id of the message that replaced the "thinking" one."""


def thinking(interaction: discord.Interaction[Any]) -> bool:
    """True while the interaction's original response is still the "thinking" message of
    a deferral (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, type 5) that nothing replaced yet.

    Its answer must then be an edit of that message: a follow-up sent right after such
    a deferral only stands in for Edit Original Interaction Response for backwards
    compatibility, which Discord deprecates (developers/interactions/
    receiving-and-responding.mdx, Create Followup Message). After a deferred update of a
    component (type 6) or any other first response there is no loading message: a new
    message is a follow-up."""
    return (
        interaction.response.type is discord.InteractionResponseType.deferred_channel_message
        and not interaction.extras.get(ANSWERED)
    )


def original_id(interaction: discord.Interaction[Any]) -> int | None:
    """The id of the interaction's original response message, when the bot knows it: the
    message that replaced its "thinking" one, or the message whose component was pressed
    once the press was answered by updating it (types 6 and 7). That message is edited
    through the ``@original`` route of the interaction's token."""
    known = interaction.extras.get(ORIGINAL_ID)
    if isinstance(known, int):
        return known
    updated = (
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.message_update,
    )
    if interaction.response.type in updated and interaction.message is not None:
        return interaction.message.id
    return None


NOTES = "notes"
"""``interaction.extras`` key: the :class:`Notes` of the person answered."""


@runtime_checkable
class Notes(Protocol):
    """What the bot still has to tell a person (:class:`cogs.access.Access`: a permission
    Discord refused it), added to their next private answer."""

    async def take(self, interaction: discord.Interaction[Any]) -> list[str]: ...


async def _notes(interaction: discord.Interaction[Any], ephemeral: bool) -> list[str]:
    """The notes for the person answered, when the answer is private."""
    keeper = interaction.extras.get(NOTES)
    public = thinking(interaction) and interaction.extras.get("public")
    if not ephemeral or public or not isinstance(keeper, Notes):
        return []
    return await keeper.take(interaction)


async def send(
    interaction: discord.Interaction[Any],
    content: str,
    *,
    ephemeral: bool = True,
    files: Sequence[discord.File] | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message | None:
    """Answer an interaction, never pinging anyone: its first response; else, while its
    original response is "thinking" (:func:`thinking`), an edit of that message (which
    keeps the ephemerality chosen when deferring); else a follow-up message.

    A private answer also says what the bot still has to tell the person (:class:`Notes`):
    below a plain text that has room for it, else in follow-ups (a message with buttons
    or pictures, such as a hand, is redrawn later: a note there would not stay).

    Returns the message of an edit or a follow-up, None for a first response."""
    text = clip(content)
    notes = await _notes(interaction, ephemeral)
    plain = not files and view is None
    if notes and plain and len(joined := "\n".join([text, *notes])) <= MAX_CONTENT:
        text, notes = joined, []
    message = await _answer(interaction, text, ephemeral, files, view)
    for note in notes:
        await interaction.followup.send(
            clip(note), ephemeral=True, wait=True, allowed_mentions=NO_PINGS
        )
    return message


async def _answer(
    interaction: discord.Interaction[Any],
    text: str,
    ephemeral: bool,
    files: Sequence[discord.File] | None,
    view: discord.ui.View | None,
) -> discord.Message | None:
    # an edit keeps what it is not given: no pictures or buttons given, none touched
    payload = MessagePayload(text, files=files or None, view=KEEP if view is None else view)
    try:
        if thinking(interaction):
            edit = payload.edit_kwargs()
            message = await interaction.edit_original_response(allowed_mentions=NO_PINGS, **edit)
            interaction.extras[ANSWERED] = True
            interaction.extras[ORIGINAL_ID] = message.id
            return message
        new = payload.send_kwargs()
        if not interaction.response.is_done():
            await interaction.response.send_message(
                ephemeral=ephemeral, allowed_mentions=NO_PINGS, **new
            )
            return None
        return await interaction.followup.send(
            ephemeral=ephemeral, wait=True, allowed_mentions=NO_PINGS, **new
        )
    finally:
        release(view)


async def defer_public(interaction: discord.Interaction[Any]) -> None:
    """Defer an answer everyone in the channel will see (a leaderboard, statistics).

    Remembered on the interaction, so that :func:`fail` removes the public "thinking"
    message and answers an error privately instead of in front of the channel."""
    interaction.extras["public"] = True
    await interaction.response.defer(thinking=True)


def about(interaction: discord.Interaction[Any]) -> str:
    """Who did what, for a log line: command or custom_id, table, user, server."""
    data: Any = interaction.data or {}
    command = getattr(interaction.command, "qualified_name", None)
    what = f"/{command}" if command else f"custom_id={str(data.get('custom_id', ''))[:100]!r}"
    table = interaction.extras.get("table")
    return (
        f"{what} table={table if table is not None else '-'} "
        f"user={interaction.user.id} guild={interaction.guild_id or '-'}"
    )


async def fail(
    interaction: discord.Interaction[Any], error: BaseException, languages: Languages
) -> None:
    """Answer any error with a specific, translated, private message; an unexpected one
    is logged here once, with its traceback and who did what (never shown to anyone).
    A storage outage is no bug: the store logged it once (``data.outage``); the press
    is counted as refused and the person told their move was not played."""
    if interaction.extras.get("failed"):
        return  # answered already (a handler and the tree's on_error saw the same error)
    interaction.extras["failed"] = True
    if isinstance(error, ServiceError):
        log.debug("refused %s: %s", about(interaction), error.key)
    elif isinstance(error, StorageUnavailableError):
        languages.store.outage.refused()
        log.debug("refused %s: %s", about(interaction), error)
    else:
        log.error("failed %s", about(interaction), exc_info=error)
    try:
        lang = await languages.of(interaction)
    except Exception:  # the store itself failing: the person's or the server's locale
        lang = resolve(interaction.locale, language_of(interaction.guild_locale))
    if isinstance(error, ServiceError):
        text = error_text(error, lang)
    elif isinstance(error, StorageUnavailableError):
        move = interaction.extras.get(MOVE)
        text = t("error.storage_down_move" if move else "error.storage_down", lang)
    elif isinstance(error, StoreError):  # nothing was stored, so nothing was acknowledged
        text = t("error.storage", lang)
    else:
        text = t("error.unexpected", lang)
    if interaction.extras.get("public") and thinking(interaction):
        # Not in front of the channel: take the public "thinking" message away first;
        # the answer is then a new (private) follow-up message.
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
            interaction.extras[ANSWERED] = True
    with contextlib.suppress(discord.HTTPException):
        await send(interaction, text)


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """The server of a command that needs one."""
    if interaction.guild_id is None:
        raise ServiceError("error.guild_only")
    return interaction.guild_id


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)
