"""The rules of a preset, in the reader's language (the ``/batak rules`` text)."""

from __future__ import annotations

from batak import preset

from ..i18n import t


def rules_text(name: str, lang: str) -> str:
    """The rules of a preset in the reader's language."""
    r = preset(name)
    lines = [
        t("rules.title", lang, preset=t(f"preset.{name}", lang)),
        t("rules.basics", lang),
        t("rules.auction", lang, min_bid=r.min_bid),
    ]
    if r.all_pass == "dealer-forced":
        lines.append(t("rules.all_pass_forced", lang, forced=r.forced_bid))
    else:
        lines.append(t("rules.all_pass_must", lang, min_bid=r.min_bid))
    if r.blind_bidding:
        lines.append(t("rules.blind", lang))
    if r.fixed_trump is not None:
        lines.append(t("rules.fixed_trump", lang))
    else:
        lines.append(t("rules.trump", lang))
    lines.append(t("rules.follow", lang))
    if not r.overtake_when_trumped:
        lines.append(t("rules.no_overtake", lang))
    lines.append(t(f"rules.trump_lead.{r.trump_lead}", lang))
    if r.partnership:
        lines.append(t("rules.partnership", lang))
    lines.append(t(f"rules.scoring.{r.scoring}", lang))
    lines.append(t("rules.match", lang, deals=r.deals))
    return "\n".join(lines)
