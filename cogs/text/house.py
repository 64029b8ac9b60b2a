"""House rules as people write them: ``min_bid=6 partnership=on deals=3``.

Reading the words is this module's; what is allowed is the engine's alone: every value
is handed to :class:`batak.Rules`, whose :class:`~batak.RulesError` names the option. The
values offered (select menus, autocomplete) are the engine's own lists.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Final

from batak import BIDS, PRESET_NAMES, Rules, RulesError
from batak.rules import (
    ALL_PASS_VALUES,
    MAX_DEALS,
    MIN_RATED_DEALS,
    SCORING_VALUES,
    TIE_BREAK_VALUES,
    TRUMP_LEAD_VALUES,
    not_a_preset,
    show_value,
)
from tables import is_preset_unchanged, is_tryout

from ..i18n import t

OPTIONS: Final[tuple[str, ...]] = tuple(f.name for f in fields(Rules) if f.name != "preset")
"""Every option a table may change, in the order of the rules contract."""
PANEL_OPTIONS: Final[tuple[str, ...]] = ("preset", *OPTIONS)
"""The host's panel also switches the preset (the options then start from it)."""

_ON: Final = frozenset({"on", "true", "yes", "1"})
_OFF: Final = frozenset({"off", "false", "no", "0"})
_NONE: Final = frozenset({"none", "null", "-", "off"})
_SUITS: Final = ("S", "H", "D", "C")
MAX_TEXT: Final = 400
"""The longest rules text read (a slash command option is at most 6000 characters)."""


def option_values(option: str) -> tuple[str, ...]:
    """The values a person may pick for ``option``, as they are written."""
    bids = tuple(str(b) for b in sorted(BIDS))
    values: dict[str, tuple[str, ...]] = {
        "preset": PRESET_NAMES,
        "min_bid": bids,
        "forced_bid": ("none", *bids),
        "all_pass": ALL_PASS_VALUES,
        "scoring": SCORING_VALUES,
        "trump_lead": TRUMP_LEAD_VALUES,
        "overtake_when_trumped": ("on", "off"),
        "partnership": ("on", "off"),
        "fixed_trump": ("none", *_SUITS),
        "blind_bidding": ("on", "off"),
        "deals": tuple(str(n) for n in range(1, MAX_DEALS + 1)),
        "tie_break": TIE_BREAK_VALUES,
    }
    return values.get(option, ())


def _is_flag(option: str) -> bool:
    return isinstance(getattr(Rules(), option), bool)


def read_value(option: str, text: str) -> Any:
    """One option's value from its written form (``on``, ``6``, ``S``, ``none``...); the
    engine judges it. An option the rules do not have is refused here, by name."""
    if option not in PANEL_OPTIONS:
        names = ", ".join(PANEL_OPTIONS)
        shown = show_value(option)
        raise RulesError(
            f"{shown}: no such option; the options are {names}",
            "unknown-option",
            option=shown,
            options=PANEL_OPTIONS,
        )
    word = text.strip().lower()
    if option == "preset":
        if word not in PRESET_NAMES:
            raise not_a_preset(text)
        return word
    if _is_flag(option):
        if word in _ON:
            return True
        if word in _OFF:
            return False
        shown = show_value(text)
        raise RulesError(
            f"{option}: {shown} is not allowed; expected on or off",
            "not-a-flag",
            option=option,
            value=shown,
        )
    if option in ("forced_bid", "fixed_trump") and word in _NONE:
        return None
    if option == "fixed_trump":
        return text.strip().upper()
    if word.isascii() and word.isdigit():
        return int(word)
    if option in ("min_bid", "forced_bid", "deals"):
        shown = show_value(text)
        raise RulesError(
            f"{option}: {shown} is not allowed; expected a number",
            "not-a-number",
            option=option,
            value=shown,
        )
    return word


def parse_rules(text: str) -> dict[str, Any]:
    """``"min_bid=6 partnership=on"`` -> ``{"min_bid": 6, "partnership": True}``.

    Options are separated by spaces or commas; ``preset=NAME`` names the base. A word
    without ``=``, an unknown option or an option given twice raises
    :class:`~batak.RulesError` naming it."""
    if len(text) > MAX_TEXT:
        raise RulesError(f"rules: at most {MAX_TEXT} characters", "too-long", max=MAX_TEXT)
    out: dict[str, Any] = {}
    for word in text.replace(",", " ").split():
        name, eq, value = word.partition("=")
        name = name.strip().lower().replace("-", "_")
        if not eq or not name or not value:
            shown = show_value(word)
            raise RulesError(
                f"{shown}: write each option as name=value", "rules-syntax", text=shown
            )
        if name in out:
            raise RulesError(f"{name}: given twice", "given-twice", option=name)
        out[name] = read_value(name, value)
    return out


def shown_value(rules: Rules, option: str) -> str:
    """An option's value as people write it (the inverse of :func:`read_value`)."""
    value = rules.to_dict()[option]
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


def changed_options(rules: Rules) -> list[str]:
    """The options where ``rules`` differs from its preset (the match length aside: every
    preset is played at any length)."""
    base = Rules.from_preset(rules.preset, deals=rules.deals).to_dict()
    mine = rules.to_dict()
    return [o for o in OPTIONS if o != "deals" and mine[o] != base[o]]


def house_line(rules: Rules, lang: str) -> str | None:
    """One short line naming the house rules (``min_bid=6 · partnership=on``), or None
    when the table plays its preset."""
    changed = changed_options(rules)
    if not changed:
        return None
    options = " · ".join(f"{o}={shown_value(rules, o)}" for o in changed)
    return t("house.line", lang, options=options)


def complete(current: str, limit: int = 25) -> list[str]:
    """Autocomplete for the ``rules`` option: the text so far with its last word
    finished (an option name, or a value of the named option)."""
    text = current[:MAX_TEXT]
    head, _, last = text.rpartition(" ")
    prefix = f"{head} " if head else ""
    given = {w.partition("=")[0] for w in head.split()}
    name, eq, value = last.partition("=")
    out: list[str] = []
    if eq:
        for v in option_values(name):
            if v.startswith(value.lower()):
                out.append(f"{prefix}{name}={v}")
    else:
        for o in OPTIONS:
            if o.startswith(name.lower()) and o not in given:
                out.append(f"{prefix}{o}=")
    return [c for c in out if len(c) <= 100][:limit]


def told_as_try_out(rules: Rules) -> bool:
    """A casual table is told it is a try-out when the short match is what keeps it from
    being rated (with house rules, the house-rules line already says why)."""
    return is_tryout(rules) and is_preset_unchanged(rules)


def panel_text(rules: Rules, table_id: int, rated: bool, watching: bool, lang: str) -> str:
    """The host's rules panel: every option and its value (the changed ones marked), and
    what the table is."""
    changed = set(changed_options(rules))
    lines = [t("house.panel_title", lang, table=table_id)]
    for option in PANEL_OPTIONS:
        mark = " ✱" if option in changed else ""
        lines.append(f"`{option}` = **{shown_value(rules, option)}**{mark}")
    if rated:
        lines.append(t("house.rated", lang))
    elif told_as_try_out(rules):  # why it is casual: too short to be rated
        lines.append(t("house.tryout", lang, min=MIN_RATED_DEALS))
    else:
        lines.append(t("house.casual", lang))
    lines.append(t("watch.on_line" if watching else "watch.off_line", lang))
    lines.append(t("house.panel_help", lang))
    return "\n".join(lines)
