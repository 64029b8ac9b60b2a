"""Achievements in words: the section of ``/batak stats``, the private note to the
person who earned one, and the server's optional line at a table's end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from data.achievements import Achievement

from ..i18n import t
from .words import safe_name


def achievement_name(code: str, lang: str) -> str:
    return t(f"achievement.{code}", lang)


def achievements_section(held: Sequence[Achievement], lang: str, *, mark_new: bool) -> str:
    """The stats section: each achievement with the day it was earned; ``mark_new``
    (the person looking at their own stats) marks the ones not told to them yet."""
    if not held:
        return ""
    lines = [t("stats.achievements", lang)]
    for a in held:
        key = "stats.achievement_new" if mark_new and a.new else "stats.achievement"
        lines.append(t(key, lang, name=achievement_name(a.code, lang), date=a.earned_at[:10]))
    return "\n".join(lines)


def achievement_told_text(a: Achievement, lang: str) -> str:
    """The private note: what was earned and exactly what earned it."""
    return t(
        "achievement.told",
        lang,
        name=achievement_name(a.code, lang),
        desc=t(f"achievement_desc.{a.code}", lang),
    )


def achievements_table_line(
    earned: Sequence[Achievement], names: Mapping[int, str], lang: str
) -> str:
    """The one quiet line at a table's end (when the server turns it on): who earned
    what. ``names`` by user id, plain."""
    if not earned:
        return ""
    items = [
        t(
            "achievement.table_item",
            lang,
            player=safe_name(names.get(a.user_id, str(a.user_id))),
            name=achievement_name(a.code, lang),
        )
        for a in earned
    ]
    return t("achievement.table_line", lang, list=", ".join(items))
