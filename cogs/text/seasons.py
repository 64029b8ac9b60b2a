"""The seasons' texts: a season's name in the reader's language ("March 2027",
"Mart 2027"), its board, the announcement of its end, the champions' line of the stats.

Names come in plain and are escaped here, once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from babel.dates import format_skeleton

from data import GuildSettings, Standing
from data.season_calendar import mode_of_label

from ..i18n import t
from .standings import rating_text
from .words import safe_name


def season_name(label: str, lang: str) -> str:
    """A season by its label in words: ``2027-03`` -> "March 2027" ("Mart 2027"),
    ``2027-Q1`` -> "1st quarter 2027"; anything else as it is."""
    mode = mode_of_label(label)
    if mode is None:
        return label
    year, part = label.split("-")
    month = int(part) if mode == "monthly" else 3 * int(part[1:]) - 2
    skeleton = "yMMMM" if mode == "monthly" else "yQQQQ"
    return str(format_skeleton(skeleton, date(int(year), month, 1), locale=lang))


def season_settings_text(g: GuildSettings, lang: str) -> str:
    """The season line of ``/batak settings server``."""
    channel = (
        f"<#{g.announce_channel}>"
        if g.announce_channel is not None
        else t("settings.season_channel_default", lang)
    )
    return t(
        "settings.season_show",
        lang,
        mode=t(f"season.{g.season}", lang),
        timezone=g.timezone,
        channel=channel,
    )


def season_board_text(
    rows: Sequence[Standing], names: Mapping[int, str], label: str, lang: str, *, by: str = "wins"
) -> str:
    """A season's board (also the picture's screen-reader text), and how it is ranked."""
    lines = [t(f"leaderboard.title_{by}", lang) + " · " + season_name(label, lang)]
    for s in rows:
        lines.append(
            t(
                "leaderboard.season_line",
                lang,
                rank=s.rank,
                name=safe_name(names[s.user_id] if s.user_id is not None else "?"),
                wins=s.wins,
                matches=s.matches,
                points=s.deal_score_sum,
                rating=rating_text(s, lang),
            )
        )
    lines.append(
        t("leaderboard.season_order" if by == "wins" else "leaderboard.season_by_rating", lang)
    )
    return "\n".join(lines)


def podium_lines(
    podium: Sequence[Mapping[str, object]], names: Mapping[int, str], lang: str
) -> list[str]:
    out = []
    for p in podium:
        uid = p.get("user_id")
        name = names.get(uid, "?") if isinstance(uid, int) else "?"
        rating = t("img.settling", lang) if p.get("settling") else str(p.get("rating"))
        out.append(
            t(
                "season.podium_line",
                lang,
                place=p["place"],
                name=safe_name(name),
                wins=p["wins"],
                matches=p["matches"],
                rating=rating,
            )
        )
    return out


def season_end_text(
    label: str, podium: Sequence[Mapping[str, object]], names: Mapping[int, str], lang: str
) -> str:
    """The announcement of a season's end: the champion, the podium, the new season."""
    champion = podium[0].get("user_id") if podium else None
    name = names.get(champion, "?") if isinstance(champion, int) else "?"
    head = t("season.end", lang, season=season_name(label, lang), name=safe_name(name))
    return "\n".join([head, *podium_lines(podium, names, lang), t("season.next", lang)])


def champion_text(labels: Sequence[str], lang: str) -> str | None:
    """The stats' line of the seasons a player won, newest first; None when none."""
    if not labels:
        return None
    seasons = ", ".join(season_name(label, lang) for label in labels)
    return t("stats.champion", lang, seasons=seasons, n=len(labels))
