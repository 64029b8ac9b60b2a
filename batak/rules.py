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


RULES_CODES: Final = frozenset(
    {
        "unknown-option",
        "not-a-preset",
        "not-allowed",
        "out-of-range",
        "forced-bid-needed",
        "out-of-range-or-none",
        "not-a-flag",
        "bad-suit",
        "not-an-object",
        "not-a-number",
        "rules-syntax",
        "given-twice",
        "too-long",
        "bad-pace",
    }
)
"""Every code of a :class:`RulesError` (the bot has a message ``bad_rules.<code>`` for each).

Values by name: ``option`` (the option's name as written in the rules), ``value`` (what
was given, as :func:`show_value` shows it), ``allowed`` (the values it may take),
``options``/``presets`` (every option, every preset), ``low``/``high`` (a range),
``text`` (a word that is not ``name=value``), ``max`` (the longest rules text)."""

RulesParam = int | str | tuple[str, ...]
"""A value of a :class:`RulesError`: a number, a name or value as text, a list of names."""


class RulesError(ValueError):
    """An option has a value the rules do not know; the message names the option.

    Besides its English message (``str()``, for the terminal, logs and records) it
    carries ``code`` (one of :data:`RULES_CODES`) and ``params``, so the bot can word
    it in each reader's language."""

    def __init__(self, message: str, code: str, **params: RulesParam) -> None:
        if code not in RULES_CODES:
            raise ValueError(f"unknown rules error code {code!r}")
        super().__init__(message)
        self.code = code
        self.params: dict[str, RulesParam] = params


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
        def check(ok: bool, option: str, expected: str, code: str, **params: RulesParam) -> None:
            if not ok:
                value = show_value(getattr(self, option))
                raise RulesError(
                    f"{option}: {value} is not allowed; expected {expected}",
                    code,
                    option=option,
                    value=value,
                    **params,
                )

        def one_of(option: str, allowed: tuple[str, ...]) -> None:
            joined = " or ".join(allowed) if len(allowed) == 2 else ", ".join(allowed)
            ok = getattr(self, option) in allowed
            check(ok, option, joined, "not-allowed", allowed=allowed)

        def in_range(option: str, high: int, code: str = "out-of-range", when: str = "") -> None:
            number = getattr(self, option)
            ok = _is_int(number) and 1 <= number <= high
            check(ok, option, f"an integer 1..{high}{when}", code, low=1, high=high)

        def flag(option: str) -> None:
            check(isinstance(getattr(self, option), bool), option, "true or false", "not-a-flag")

        one_of("preset", PRESET_NAMES)
        in_range("min_bid", 13)
        one_of("all_pass", ALL_PASS_VALUES)
        if self.all_pass == "dealer-forced":
            in_range("forced_bid", 13, "forced-bid-needed", " when all_pass is dealer-forced")
        elif self.forced_bid is not None:
            number = self.forced_bid
            ok = _is_int(number) and 1 <= number <= 13
            check(
                ok, "forced_bid", "null or an integer 1..13", "out-of-range-or-none", low=1, high=13
            )
        one_of("scoring", SCORING_VALUES)
        one_of("trump_lead", TRUMP_LEAD_VALUES)
        flag("overtake_when_trumped")
        flag("partnership")
        check(
            self.fixed_trump is None or isinstance(self.fixed_trump, Suit),
            "fixed_trump",
            "null or a suit S, H, D, C",
            "bad-suit",
        )
        flag("blind_bidding")
        in_range("deals", MAX_DEALS)
        one_of("tie_break", TIE_BREAK_VALUES)

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> Rules:
        """The rules of a named preset, with some options changed.

        >>> Rules.from_preset("classic", deals=3).min_bid
        4
        """
        if name not in PRESETS:
            raise not_a_preset(name)
        unknown = set(overrides) - {f.name for f in fields(cls)}
        if unknown:
            raise no_such_option(sorted(unknown, key=str)[0])
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
            raise RulesError("rules: expected an object", "not-an-object")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise no_such_option(sorted(unknown, key=str)[0])
        values = dict(data)
        preset = values.get("preset", "standard")
        base = PRESETS.get(preset) if isinstance(preset, str) else None
        if base is None:
            raise not_a_preset(preset)
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
    shown = show_value(value)
    raise RulesError(
        f"fixed_trump: {shown} is not allowed; expected null or S, H, D, C",
        "bad-suit",
        option="fixed_trump",
        value=shown,
    )


def not_a_preset(name: object) -> RulesError:
    """The error for a preset name that is none of :data:`PRESET_NAMES`."""
    shown = show_value(name)
    expected = ", ".join(PRESET_NAMES)
    return RulesError(
        f"preset: {shown} is not a preset; expected {expected}",
        "not-a-preset",
        value=shown,
        presets=PRESET_NAMES,
    )


def no_such_option(option: object) -> RulesError:
    """The error for an option the rules do not have."""
    options = tuple(f.name for f in fields(Rules))
    return RulesError(
        f"{option}: no such option", "unknown-option", option=str(option), options=options
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
