"""The words of a deal review and of the daily comparison."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from batak import parse_action
from batak.cards import Suit
from batak.review import RESULT_SWING, TRICK_COST, Decision, Review

from ..i18n import t
from .words import action_text, suit_text


def _action(text: str, lang: str) -> str:
    return action_text(parse_action(text), lang)


def _sentence(text: str, lang: str) -> str:
    """``text`` with a capital first letter (an action's words may start it: "pass")."""
    first = text[:1]
    upper = "İ" if first == "i" and lang == "tr" else first.upper()
    return upper + text[1:]


def _why(d: Decision, lang: str) -> str:
    """Why a listed decision cost: its situation in a player's words, then what the
    better choice would have kept, in tricks and in the result (never in points)."""
    chosen, better = _action(d.chosen, lang), _action(d.better, lang)
    tricks = max(1, round(d.lost))
    parts: list[str] = []
    if d.reason != "other":
        parts.append(t(f"review.why.{d.reason}", lang))
    if d.phase == "auction":
        if d.reason == "overbid" and d.lost >= TRICK_COST:
            parts.append(t("review.effect.short", lang, tricks=tricks))
        if d.swing >= RESULT_SWING and d.holder_side:
            parts.append(t("review.effect.made", lang, better=better))
        else:
            parts.append(t("review.effect.better", lang, better=better))
        return " ".join(_sentence(p, lang) for p in parts)
    if d.lost >= TRICK_COST:
        parts.append(t("review.effect.tricks", lang, better=better, chosen=chosen, tricks=tricks))
    if d.swing >= RESULT_SWING:
        key = "review.effect.made" if d.holder_side else "review.effect.set"
        parts.append(t(key, lang, better=better))
    return " ".join(_sentence(p, lang) for p in parts)


def _decision_line(d: Decision, lang: str) -> str:
    chosen = _action(d.chosen, lang)
    if d.trick is None:
        return "- " + t("review.decision_auction", lang, chosen=chosen, why=_why(d, lang))
    return "- " + t("review.decision", lang, trick=d.trick, chosen=chosen, why=_why(d, lang))


def review_text(review: Review, names: Sequence[str], number: int, lang: str) -> str:
    """The private review message of deal ``number`` (1-based)."""
    trump = suit_text(Suit[review.trump], lang)
    outcome = t("review.made" if review.made else "review.down", lang)
    lines = [
        t("review.title", lang, n=number),
        t(
            "review.contract",
            lang,
            name=names[review.holder],
            bid=review.bid,
            trump=trump,
            tricks=review.side_tricks,
            outcome=outcome,
        ),
    ]
    if review.par is not None:
        lines.append(t("review.par", lang, tricks=review.par))
    elif review.about is not None:
        lines.append(t("review.par_about", lang, tricks=review.about, cards=review.about_cards))
    turn = review.turn
    if turn is None:
        lines.append(t("review.no_turn", lang))
    else:
        lines.append(
            t(
                "review.turn",
                lang,
                trick=turn.trick,
                name=names[turn.seat],
                card=_action(f"play {turn.card}", lang),
                before=turn.before,
                after=turn.after,
            )
        )
    for seat, decisions in sorted(review.decisions.items()):
        lines.append(f"**{names[seat]}**")
        if not decisions:
            lines.append("- " + t("review.none", lang))
        lines.extend(_decision_line(d, lang) for d in decisions)
    lines.append(t("review.note", lang))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class CompareRow:
    """One person's play of one daily deal."""

    name: str
    holder: str
    bid: int
    trump: str
    tricks: int
    score: int
    par: int | None


def compare_text(day: str, deals: Sequence[Sequence[CompareRow]], lang: str) -> str:
    """Today's daily deals side by side: each deal, everyone who played it."""
    lines = [t("daily.compare_title", lang, day=day)]
    for number, rows in enumerate(deals, start=1):
        lines.append(t("daily.compare_deal", lang, n=number))
        for r in rows:
            lines.append(
                "- "
                + t(
                    "daily.compare_row",
                    lang,
                    name=r.name,
                    holder=r.holder,
                    bid=r.bid,
                    trump=suit_text(Suit[r.trump], lang),
                    tricks=r.tricks,
                    score=r.score,
                    par="?" if r.par is None else str(r.par),
                )
            )
    return "\n".join(lines)
