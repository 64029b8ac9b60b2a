"""The rules of a preset, or of a table, in the reader's language (``/batak rules``)."""

from __future__ import annotations

from batak import Rules, preset

from ..i18n import t
from .house import house_line
from .words import suit_text


def rules_text(rules: str | Rules, lang: str, *, table: int | None = None) -> str:
    """The rules of a preset (by name) or a table's rules in force (``table``: its number,
    named in the title, with its house rules on a line of their own)."""
    r = preset(rules) if isinstance(rules, str) else rules
    title = t("rules.title", lang, preset=t(f"preset.{r.preset}", lang))
    lines = [t("rules.table_title", lang, table=table, title=title) if table else title]
    house = house_line(r, lang)
    if house is not None:
        lines.append(house)
    lines += [t("rules.basics", lang), t("rules.auction", lang, min_bid=r.min_bid)]
    if r.all_pass == "dealer-forced":
        lines.append(t("rules.all_pass_forced", lang, forced=r.forced_bid))
    else:
        lines.append(t("rules.all_pass_must", lang, min_bid=r.min_bid))
    if r.blind_bidding:
        lines.append(t("rules.blind", lang))
    if r.fixed_trump is not None:
        key = "rules.fixed_trump" if r.fixed_trump.letter == "S" else "rules.fixed_trump_suit"
        lines.append(t(key, lang, suit=suit_text(r.fixed_trump, lang)))
    else:
        lines.append(t("rules.trump", lang))
    lines.append(t("rules.follow", lang))
    if not r.overtake_when_trumped:
        lines.append(t("rules.no_overtake", lang))
    lines.append(t(f"rules.trump_lead.{r.trump_lead}", lang))
    if r.partnership:
        lines.append(t("rules.partnership", lang))
    lines.append(t(f"rules.scoring.{r.scoring}", lang))
    key = "rules.match" if r.tie_break == "extra-deal" else "rules.match_share"
    lines.append(t(key, lang, deals=r.deals))
    return "\n".join(lines)
