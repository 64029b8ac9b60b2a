"""The server's texts: leaderboards, a player's statistics and history, its settings.

Names come in plain (:func:`.words.plain_name`) and are escaped here, once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from batak import Suit
from batak.scoring import Holding, contract_made, side_tricks
from data import (
    PROVISIONAL_MATCHES,
    DailyResult,
    GuildSettings,
    MatchSummary,
    Standing,
    UserSettings,
)

from ..i18n import t
from .words import safe_name, suit_text

LANGUAGE_NAMES: Mapping[str, str] = {
    "en": "English",
    "tr": "Türkçe",
    "de": "Deutsch",
    "pt": "Português (Brasil)",
    "uk": "Українська",
    "sw": "Kiswahili",
    "es": "Español",
    "fr": "Français",
}
"""Each language by its own name (the same in every catalogue)."""


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


def rating_text(s: Standing, lang: str) -> str:
    """The rating people read (1000 + 40 x ordinal); while the player is still settling
    in (:attr:`data.Standing.provisional`) words saying so, never a number."""
    if s.provisional:
        n = s.rated_matches or s.matches  # all time when read
        return t("rating.settling", lang, n=n, of=PROVISIONAL_MATCHES)
    return str(s.shown_rating)


def board_text(
    named: Sequence[tuple[Standing, str]],
    title: str,
    subtitle: str,
    lang: str,
    bots: Sequence[Standing] = (),
    settling: Sequence[tuple[Standing, str]] = (),
) -> str:
    """The people's leaderboard by rating or wins (also the picture's screen-reader
    text), then the computer players on a line apart, then the people still settling in
    (fewer than :data:`~data.models.PROVISIONAL_MATCHES` rated matches: named, never
    ranked)."""
    lines = [f"{title} · {subtitle}"]
    for s, name in named:
        lines.append(
            t(
                "leaderboard.line",
                lang,
                rank=s.rank,
                name=safe_name(name),
                rating=rating_text(s, lang),
                wins=s.wins,
                matches=s.matches,
            )
        )
    if bots:
        listed = " · ".join(
            f"{t(f'level.{b.bot_level}', lang)} {rating_text(b, lang)}" for b in bots
        )
        lines.append(t("leaderboard.bots", lang, list=listed))
    if settling:
        names = ", ".join(safe_name(name) for _, name in settling)
        lines.append(t("leaderboard.provisional", lang, names=names, of=PROVISIONAL_MATCHES))
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
                rank="–" if s.provisional else s.rank,  # not ranked while settling in
                rating=rating_text(s, lang),
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


def rules_label(m: MatchSummary, lang: str) -> str:
    """ "Standard, 8 deals" (the preset's name; "house rules" when options were changed)."""
    return t("history.rules", lang, preset=t(f"preset.{m.preset}", lang), deals=m.deals)


def rated_word(m: MatchSummary) -> str:
    """The key of how a match counted: rated, casual, or unrated because the computers
    finished it after everyone left."""
    if m.computers_finished:
        return "history.by_computers"
    return "history.rated" if m.rated else "history.casual"


def history_text(name: str, user_id: int, matches: Sequence[MatchSummary], lang: str) -> str:
    """A player's recent matches (also the picture's screen-reader text), with a line
    about the attached records and how to open one match."""
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
            + " · "
            + t(rated_word(m), lang)
        )
    lines.append(t("history.file", lang))
    lines.append(t("history.open", lang, id=matches[0].id if matches else 1))
    return "\n".join(lines)


def match_deals_text(m: MatchSummary, names: Sequence[str], lang: str) -> str:
    """One match, deal by deal: who dealt, the contract and whether it was made, each
    seat's score; then the totals and places. ``names`` by seat, plain."""
    shown = [safe_name(n) for n in names]
    head = t(
        "history.match_head",
        lang,
        id=m.id,
        date=m.finished_at[:10],
        rules=rules_label(m, lang),
        rated=t(rated_word(m), lang),
    )
    lines = [head]
    for i, rec in enumerate(m.records or ()):
        scores = ", ".join(f"{shown[s]} {int(rec['score'][s]):+d}" for s in range(4))
        contract = rec.get("contract")
        if contract is None:
            what = t("history.no_contract", lang)
        else:
            held = Holding(int(contract["seat"]), int(contract["bid"]))
            won = [int(n) for n in rec["tricks_won"]]
            took = side_tricks(m, won, held.seat)
            what = t(
                "history.contract_made" if contract_made(m, held, won) else "history.contract_down",
                lang,
                name=shown[held.seat],
                bid=held.bid,
                trump=suit_text(Suit[str(contract["trump"])], lang),
                tricks=took,
            )
        lines.append(t("history.deal_line", lang, n=i + 1, contract=what, scores=scores))
    order = sorted(m.players, key=lambda p: (p.placement, p.seat))
    places = ", ".join(
        t("history.place_line", lang, place=p.placement, name=shown[p.seat], total=p.total)
        for p in order
    )
    lines.append(t("history.places", lang, places=places))
    return "\n".join(lines)


def settings_text(g: GuildSettings, lang: str) -> str:
    """The server's settings, as ``/batak settings`` shows them."""
    return (
        t(
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
        + "\n"
        + t("settings.hints_show", lang, hints=t("yes" if g.casual_hints else "no", lang))
        + "\n"
        + t(
            "settings.achievements_line_show",
            lang,
            shown=t("yes" if g.achievements_line else "no", lang),
        )
        + "\n"
        + (
            t("settings.tournament_role_none", lang)
            if g.tournament_role is None
            else t("settings.tournament_role_show", lang, role=f"<@&{g.tournament_role}>")
        )
    )


def personal_text(me: UserSettings, lang: str) -> str:
    """A person's own settings, as ``/batak settings me`` shows them."""
    unset = t("settings.me_default", lang)
    language = LANGUAGE_NAMES.get(me.language, unset) if me.language else unset
    deck = (
        unset
        if me.four_colour is None
        else t("settings.deck_four" if me.four_colour else "settings.deck_two", lang)
    )
    theme = t(f"settings.theme_{me.theme}", lang) if me.theme else unset
    return t("settings.me_show", lang, language=language, deck=deck, theme=theme)


def notifications_saved_text(mode: str, open_tables: int, lang: str) -> str:
    """What ``/batak settings me notifications:`` says once saved: how many open tables
    keep the choice (a plural entry), or, with none open, that the next tables will."""
    key = "settings.notify_saved" if open_tables > 0 else "settings.notify_saved_none"
    return t(key, lang, mode=t(f"notify.{mode}", lang), n=open_tables)
