"""The names of the people (and computer levels) a leaderboard or a history shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from data import MatchSummary

from .i18n import t
from .text.words import display_name


async def names_of(
    client: discord.Client, interaction: discord.Interaction[Any], user_ids: Sequence[int]
) -> dict[int, str]:
    """Each user's name on this server (plain, put it in a text through ``safe_name``):
    the member's, else the user's, else ``#id``."""
    out: dict[int, str] = {}
    guild = interaction.guild
    for uid in user_ids:
        member = guild.get_member(uid) if guild is not None else None
        if member is not None:
            out[uid] = display_name(member)
            continue
        user = client.get_user(uid)
        if user is None:
            try:
                user = await client.fetch_user(uid)
            except discord.HTTPException:
                user = None
        out[uid] = display_name(user) if user is not None else f"#{uid}"
    return out


async def seat_names_of(
    client: discord.Client,
    interaction: discord.Interaction[Any],
    matches: Sequence[MatchSummary],
    lang: str,
) -> dict[int, list[str]]:
    """Each match's seat names (by match id): the person's, or the computer level's."""
    uids = sorted({p.user_id for m in matches for p in m.players if p.user_id is not None})
    names = await names_of(client, interaction, uids)
    out: dict[int, list[str]] = {}
    for m in matches:
        seats = ["?"] * 4
        for p in m.players:
            if p.user_id is not None:
                seats[p.seat] = names[p.user_id]
            else:
                seats[p.seat] = t("seat.bot_level", lang, level=t(f"level.{p.bot_level}", lang))
        out[m.id] = seats
    return out
