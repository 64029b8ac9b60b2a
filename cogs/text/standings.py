"""The server's texts: leaderboards, a player's statistics and history, its settings.

Names come in plain (:func:`.words.plain_name`) and are escaped here, once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from data import DailyResult, GuildSettings, MatchSummary, Standing

from ..i18n import t
from .words import safe_name


def named_standings(
    rows: Sequence[Standing], names: Mapping[int, str], lang: str
) -> list[tuple[Standing, str]]:
    """Each standing with the name to show: the person's, or the computer level's."""
    named: list[tuple[Standing, str]] = []
    for s in rows:
        if s.user_id is not None:
            named.append((s, names[s.user_id]))
        else:
            named.append((s, t("seat.bot_level", lang, level=t(f"level.{s.bot_level}", lang))))
    return named


def board_text(named: Sequence[tuple[Standing, str]], title: str, subtitle: str, lang: str) -> str:
    """The leaderboard by rating or wins (also the picture's screen-reader text)."""
    lines = [f"{title} · {subtitle}"]
    for s, name in named:
        lines.append(
            t(
                "leaderboard.line",
                lang,
                rank=s.rank,
                name=safe_name(name),
                rating=f"{s.rating:.1f}",
                wins=s.wins,
                matches=s.matches,
            )
        )
    return "\n".join(lines)


def daily_board_text(rows: Sequence[DailyResult], names: Mapping[int, str], lang: str) -> str:
    """Today's daily match results, best first."""
    lines = [t("leaderboard.daily_title", lang)]
    for r in rows:
        lines.append(
            t(
                "leaderboard.daily_line",
                lang,
                rank=r.rank,
                name=safe_name(names[r.user_id]),
                score=r.score,
            )
        )
    return "\n".join(lines)


def stats_text(name: str, overall: Standing, month: Standing | None, lang: str) -> str:
    """A player's statistics, all time and this month."""
    lines = [t("stats.title", lang, name=safe_name(name))]
    for label, s in ((t("period.all", lang), overall), (t("period.month", lang), month)):
        if s is None:
            continue
        lines.append(
            t(
                "stats.line",
                lang,
                period=label,
                rank=s.rank,
                rating=f"{s.rating:.1f}",
                matches=s.matches,
                wins=s.wins,
                win_rate=f"{100 * s.win_rate:.0f}",
                avg=f"{s.average_deal_score:.1f}",
                taken=s.contracts_taken,
                made=s.contracts_made,
                down=s.went_down,
            )
        )
    return "\n".join(lines)


def history_text(name: str, user_id: int, matches: Sequence[MatchSummary], lang: str) -> str:
    """A player's recent matches, with a line about the attached records."""
    lines = [t("history.title", lang, name=safe_name(name))]
    for m in matches:
        me = next((p for p in m.players if p.user_id == user_id), None)
        lines.append(
            t(
                "history.line",
                lang,
                id=m.id,
                date=m.finished_at[:10],
                preset=t(f"preset.{m.preset}", lang),
                deals=m.deals,
                place=me.placement if me else "?",
                total=me.total if me else "?",
            )
        )
    lines.append(t("history.file", lang))
    return "\n".join(lines)


def settings_text(g: GuildSettings, lang: str) -> str:
    """The server's settings, as ``/batak settings`` shows them."""
    return t(
        "settings.show",
        lang,
        language=g.language,
        preset=t(f"preset.{g.preset}", lang),
        deals=g.deals if g.deals is not None else t("settings.preset_deals", lang),
        pace=t(f"pace.{g.pace}", lang),
        live=g.live_turn_timeout_s,
        hours=f"{g.async_turn_timeout_s / 3600:g}",
        computer=t(f"level.{g.bot_level}", lang),
        threads=t("yes" if g.use_threads else "no", lang),
    )
