"""The hint, in the reader's language, from the computer player's structured reason."""

from __future__ import annotations

from batak import Action, card_label
from batak.ai.hints import Hint

from ..i18n import t
from .words import action_text, suit_text


# ----------------------------------------------------------------------------- hints
def _pct(x: float | None, lang: str) -> str:
    return t("hint.percent", lang, n=round(100 * (x or 0.0)))


def hint_text(action: Action, h: Hint, lang: str) -> str:
    """A hint in the reader's language from the AI's structured reason."""
    kind = h.kind
    tricks = f"{h.tricks:.1f}" if h.tricks is not None else "?"
    chance = _pct(h.chance, lang)
    trump = suit_text(h.trump, lang) if h.trump is not None else "?"
    honours = " ".join(card_label(c) for c in h.honours)
    extra = (
        t("hint.extra_honours", lang, honours=honours, count=h.trump_count)
        if honours
        else t("hint.extra_count", lang, count=h.trump_count)
    )
    card = card_label(h.card) if h.card is not None else action_text(action, lang)
    params = {
        "bid": h.bid,
        "tricks": tricks,
        "chance": chance,
        "trump": trump,
        "extra": extra,
        "card": card,
        "worlds": h.worlds,
    }
    if kind in ("bid", "bid-forced", "pass", "pass-forced") and h.trump is not None:
        params["base"] = t("hint.base", lang, **params)
        key = f"hint.{kind}"
        if kind == "pass" and h.bid is None:
            key = "hint.pass-plain"
        return t(key, lang, **params)
    if kind in ("pass", "pass-forced"):
        return t("hint.pass-none", lang)
    if kind == "pass-blind" and h.bid is None:
        return t("hint.pass-blind-none", lang, **params)
    if kind in ("bid-blind", "pass-blind", "pass-partner", "trump", "only"):
        return t(f"hint.{kind}", lang, **params)
    if kind in ("draw-trumps", "cash", "lead", "win", "duck", "discard"):
        goal = "hint.outlook-make" if h.holder_side else "hint.outlook-beat"
        params["outlook"] = t(goal, lang, **params)
        return t(f"hint.{kind}", lang, **params)
    return t("hint.suggest", lang, action=action_text(action, lang))


def hint_message(action: Action, h: Hint, lang: str) -> str:
    """The hint as a message line."""
    return "💡 " + hint_text(action, h, lang)
