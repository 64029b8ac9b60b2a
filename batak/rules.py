"""The rule options of ``rules.md`` and its five presets."""

from __future__ import annotations

import reprlib
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal, get_args

from batak.cards import Suit

PresetName = Literal["standard", "classic", "esli", "koz-maca", "kanli"]
"""The names of the five presets of ``rules.md``."""
AllPass = Literal["dealer-forced", "dealer-must-bid"]
"""What happens when everyone passes (``all_pass``)."""
Scoring = Literal["tens", "tricks"]
"""How a deal is scored (``scoring``)."""
TrumpLead = Literal["after-trump-played", "after-ruff", "free"]
"""When trump may be led (``trump_lead``)."""
TieBreak = Literal["extra-deal", "share"]
"""What a tie for first place after the last deal leads to (``tie_break``)."""


_SHOW: Final = reprlib.Repr()
_SHOW.maxlevel = 2
_SHOW.maxstring = _SHOW.maxother = _SHOW.maxlong = 40


def show_value(value: object) -> str:
    """A short ``repr`` of a bad input for an error message: cut to a few dozen
    characters, safe for deep nesting and huge numbers."""
    try:
        return _SHOW.repr(value)
    except (ValueError, RecursionError):
        return f"<{type(value).__name__}>"


class RulesError(ValueError):
    """An option has a value the rules do not know; the message names the option."""


ALL_PASS_VALUES: Final[tuple[AllPass, ...]] = get_args(AllPass)
SCORING_VALUES: Final[tuple[Scoring, ...]] = get_args(Scoring)
TRUMP_LEAD_VALUES: Final[tuple[TrumpLead, ...]] = get_args(TrumpLead)
TIE_BREAK_VALUES: Final[tuple[TieBreak, ...]] = get_args(TieBreak)
PRESET_NAMES: Final[tuple[PresetName, ...]] = get_args(PresetName)
MAX_DEALS: Final = 20
MIN_RATED_DEALS: Final = 3
"""The shortest match that can change a rating: a shorter one is a try-out (too much
luck in one or two deals to say anything about the players), always casual."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of a table. Build one with :meth:`preset`.

    Field names and values are those of ``rules.md`` and the game record.
    """

    preset: PresetName = "standard"
    min_bid: int = 5
    forced_bid: int | None = 4
    all_pass: AllPass = "dealer-forced"
    scoring: Scoring = "tens"
    trump_lead: TrumpLead = "after-trump-played"
    overtake_when_trumped: bool = False
    partnership: bool = False
    fixed_trump: Suit | None = None
    blind_bidding: bool = False
    deals: int = 8
    tie_break: TieBreak = "extra-deal"

    def __post_init__(self) -> None:
        def check(ok: bool, option: str, expected: str) -> None:
            if not ok:
                value = getattr(self, option)
                raise RulesError(
                    f"{option}: {show_value(value)} is not allowed; expected {expected}"
                )

        check(self.preset in PRESET_NAMES, "preset", ", ".join(PRESET_NAMES))
        check(_is_int(self.min_bid) and 1 <= self.min_bid <= 13, "min_bid", "an integer 1..13")
        check(self.all_pass in ALL_PASS_VALUES, "all_pass", " or ".join(ALL_PASS_VALUES))
        if self.all_pass == "dealer-forced":
            check(
                _is_int(self.forced_bid) and 1 <= (self.forced_bid or 0) <= 13,
                "forced_bid",
                "an integer 1..13 when all_pass is dealer-forced",
            )
        else:
            check(
                self.forced_bid is None
                or (_is_int(self.forced_bid) and 1 <= self.forced_bid <= 13),
                "forced_bid",
                "null or an integer 1..13",
            )
        check(self.scoring in SCORING_VALUES, "scoring", " or ".join(SCORING_VALUES))
        check(self.trump_lead in TRUMP_LEAD_VALUES, "trump_lead", ", ".join(TRUMP_LEAD_VALUES))
        check(
            isinstance(self.overtake_when_trumped, bool), "overtake_when_trumped", "true or false"
        )
        check(isinstance(self.partnership, bool), "partnership", "true or false")
        check(
            self.fixed_trump is None or isinstance(self.fixed_trump, Suit),
            "fixed_trump",
            "null or a suit S, H, D, C",
        )
        check(isinstance(self.blind_bidding, bool), "blind_bidding", "true or false")
        check(
            _is_int(self.deals) and 1 <= self.deals <= MAX_DEALS,
            "deals",
            f"an integer 1..{MAX_DEALS}",
        )
        check(self.tie_break in TIE_BREAK_VALUES, "tie_break", " or ".join(TIE_BREAK_VALUES))

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> Rules:
        """The rules of a named preset, with some options changed.

        >>> Rules.from_preset("classic", deals=3).min_bid
        4
        """
        if name not in PRESETS:
            expected = ", ".join(PRESET_NAMES)
            raise RulesError(f"preset: {show_value(name)} is not a preset; expected {expected}")
        unknown = set(overrides) - {f.name for f in fields(cls)}
        if unknown:
            raise RulesError(f"{sorted(unknown)[0]}: no such option")
        if isinstance(overrides.get("fixed_trump"), str):
            overrides["fixed_trump"] = _parse_suit_option(overrides["fixed_trump"])
        return replace(PRESETS[name], **overrides)

    def with_options(self, **overrides: Any) -> Rules:
        return replace(self, **overrides)

    def deal_dict(self) -> dict[str, Any]:
        """The options that affect a deal, as in a record's ``rules`` field."""
        return {
            "preset": self.preset,
            "min_bid": self.min_bid,
            "forced_bid": self.forced_bid,
            "all_pass": self.all_pass,
            "scoring": self.scoring,
            "trump_lead": self.trump_lead,
            "overtake_when_trumped": self.overtake_when_trumped,
            "partnership": self.partnership,
            "fixed_trump": self.fixed_trump.letter if self.fixed_trump is not None else None,
            "blind_bidding": self.blind_bidding,
        }

    def to_dict(self) -> dict[str, Any]:
        """Every option, JSON-ready (for storage)."""
        out = asdict(self)
        out["fixed_trump"] = self.fixed_trump.letter if self.fixed_trump is not None else None
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """The inverse of :meth:`to_dict` (also reads a record's ``rules``).

        Options missing from ``data`` take the value of the named preset (or
        of ``standard``); an unknown preset name, unknown keys and bad values
        raise :class:`RulesError`.
        """
        if not isinstance(data, dict):
            raise RulesError("rules: expected an object")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RulesError(f"{sorted(unknown)[0]}: no such option")
        values = dict(data)
        preset = values.get("preset", "standard")
        base = PRESETS.get(preset) if isinstance(preset, str) else None
        if base is None:
            expected = ", ".join(PRESET_NAMES)
            raise RulesError(f"preset: {show_value(preset)} is not a preset; expected {expected}")
        if "fixed_trump" in values and values["fixed_trump"] is not None:
            values["fixed_trump"] = _parse_suit_option(values["fixed_trump"])
        return replace(base, **values)

    def describe(self) -> str:
        """A one-line English summary, e.g. for logs and the terminal."""
        parts = [
            f"{self.preset}",
            f"bids {self.min_bid}-13",
            f"{self.deals} deal{'s' if self.deals != 1 else ''}",
            f"scoring {self.scoring}",
        ]
        if self.partnership:
            parts.append("partners 0+2 v 1+3")
        if self.fixed_trump is not None:
            parts.append(f"trump always {self.fixed_trump.symbol}")
        if self.blind_bidding:
            parts.append("blind bidding")
        return ", ".join(parts)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_suit_option(value: object) -> Suit:
    if isinstance(value, Suit):
        return value
    if isinstance(value, str) and value in ("S", "H", "D", "C"):
        return Suit[value]
    raise RulesError(
        f"fixed_trump: {show_value(value)} is not allowed; expected null or S, H, D, C"
    )


PRESETS: Final[dict[str, Rules]] = {
    "standard": Rules(),
    "classic": Rules(
        preset="classic",
        min_bid=4,
        forced_bid=None,
        all_pass="dealer-must-bid",
        scoring="tricks",
        trump_lead="after-ruff",
        overtake_when_trumped=True,
        deals=5,
    ),
    "esli": Rules(
        preset="esli",
        min_bid=7,
        forced_bid=None,
        all_pass="dealer-must-bid",
        scoring="tricks",
        trump_lead="after-ruff",
        overtake_when_trumped=True,
        partnership=True,
        deals=5,
    ),
    "koz-maca": Rules(preset="koz-maca", fixed_trump=Suit.S),
    "kanli": Rules(preset="kanli", blind_bidding=True),
}


def preset(name: str, **overrides: Any) -> Rules:
    """Shorthand for :meth:`Rules.from_preset`."""
    return Rules.from_preset(name, **overrides)
