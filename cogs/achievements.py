"""Achievements told: privately to the person who earned one, through their live hand
at the table (else they see it as new in ``/batak stats``), and, when the server turns
it on (``/batak settings server achievements_line:``), in one quiet line under the
table's result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from data import MatchSummary
from data.achievements import Achievement
from tables import Moment, Table

from .text.achievements import achievement_told_text, achievements_table_line
from .text.words import seat_name

if TYPE_CHECKING:
    from data import Store

    from .announcements import Announcer


async def tell_achievements(announcer: Announcer, at: Moment, summary: MatchSummary | None) -> None:
    """Each person hears privately of what a match earned them; one told is marked
    seen (not new in their stats any more)."""
    earned = summary.achievements if summary is not None else ()
    if announcer.live is None or not earned:
        return
    for user_id in sorted({a.user_id for a in earned}):
        mine = [a for a in earned if a.user_id == user_id]

        def text(lang: str, mine: list[Achievement] = mine) -> str:
            return "\n".join(achievement_told_text(a, lang) for a in mine)

        if await announcer.live.tell(at.table_id, user_id, text):
            await announcer.store.achievements.mark_seen(
                at.game.guild_id, user_id, [a.code for a in mine]
            )


async def with_achievements_line(store: Store, table: Table, result: str, lang: str) -> str:
    """The table's ``result`` text with, when the server turns it on, a line naming
    what the match earned; read from the store, so it is the same after a restart."""
    summary = table.summary
    if summary is None:
        return result
    g = await store.guild_settings.get_guild_settings(table.game.guild_id)
    if not g.achievements_line:
        return result
    earned = await store.achievements.of_match(summary.id)
    names = {
        s.user_id: seat_name(s, i, lang, markup=False)
        for i, s in enumerate(table.seats)
        if s.user_id is not None
    }
    line = achievements_table_line(earned, names, lang)
    return f"{result}\n{line}" if line else result


async def daily_week_note(store: Store, table: Table, lang: str) -> str:
    """Under the daily result in the person's hand: the week this day completed
    ("" if it did not), then marked seen."""
    guild_id, user_id = table.game.guild_id, table.game.host_id
    held = await store.achievements.of_player(guild_id, user_id)
    week = next((a for a in held if a.code == "daily_week"), None)
    if week is None or week.day != table.settings.day:
        return ""
    if week.new:
        await store.achievements.mark_seen(guild_id, user_id, [week.code])
    return "\n" + achievement_told_text(week, lang)
