"""The words of a deal review and of the daily comparison."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from batak import parse_action
from batak.cards import Suit
from batak.review import Decision, Review

from ..i18n import t
from .words import action_text, suit_text


def _action(text: str, lang: str) -> str:
    return action_text(parse_action(text), lang)


def _decision_line(d: Decision, lang: str) -> str:
    params = {
        "chosen": _action(d.chosen, lang),
        "better": _action(d.better, lang),
        "kept": f"{d.kept:+.1f}",
        "got": f"{d.got:+.1f}",
    }
    if d.trick is None:
        return "- " + t("review.decision_auction", lang, **params)
    return "- " + t("review.decision", lang, trick=d.trick, **params)


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
