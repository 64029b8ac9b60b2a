"""Server and personal settings: their values, how each is checked, and the error a bad
one raises (with a code, so the bot can say it in the reader's language)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from .models import (
    AUTO_LEVEL,
    BOT_LEVEL_SETTINGS,
    LANGUAGES,
    PACES,
    PRESETS,
    RETIRED_LEVELS,
    StoreError,
)
from .season_calendar import DEFAULT_TIMEZONE, SEASON_MODES, zone

SETTING_CODES: Final = frozenset(
    {
        "unknown-setting",
        "not-one-of",
        "deals-range",
        "seconds-range",
        "not-a-flag",
        "bad-timezone",
        "bad-channel",
        "role-id",
    }
)
"""Every code of an :class:`InvalidSettingError` (the bot words each as
``bad_setting.<code>``). Values by name: ``name`` (the setting), ``value`` (what was
given, shown as text), ``allowed`` (the values it may take), ``known`` (every setting),
``low``/``high`` (a range; in seconds for the turn timers)."""

SettingParam = int | str | tuple[str, ...]
"""A value of an :class:`InvalidSettingError`."""


class InvalidSettingError(StoreError, ValueError):
    """A server or personal setting with an unknown name or an out-of-range value.

    Its message (``str()``) is English, for logs; ``code`` (one of :data:`SETTING_CODES`)
    and ``params`` let the bot say it in the reader's language."""

    def __init__(self, message: str, code: str, **params: SettingParam) -> None:
        if code not in SETTING_CODES:
            raise ValueError(f"unknown setting error code {code!r}")
        super().__init__(message)
        self.code = code
        self.params: dict[str, SettingParam] = params


# --------------------------------------------------------------------------- settings
@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's settings; a server that never changed one gets these defaults."""

    guild_id: int
    language: str = "en"
    preset: str = "standard"
    deals: int | None = None  # None: the preset's own number of deals
    pace: str = "live"
    live_turn_timeout_s: int = 60
    async_turn_timeout_s: int = 12 * 3600
    bot_level: str = AUTO_LEVEL  # or one of BOT_LEVELS (see table_level)
    use_threads: bool = True
    casual_hints: bool = False
    """Hints at casual tables (never at rated ones, never in the daily match)."""
    achievements_line: bool = False
    """One quiet line at a table's end naming the achievements it earned (else only
    the person is told)."""
    season: str = "monthly"
    """How the server's seasons run: monthly, quarterly or none (all time only)."""
    timezone: str = DEFAULT_TIMEZONE
    """The IANA zone the seasons' boundaries are midnights of."""
    announce_channel: int | None = None
    """Where a season's end is announced (None: the channel of its last match)."""
    tournament_role: int | None = None
    """A role whose members may open tournaments (besides Manage Server); None: none."""
    updated_at: str | None = field(default=None, compare=False)

    def table_level(self, pace: str, daily: bool = False) -> str:
        """The level of a new table of ``pace``: the server's if it set one, else hard
        at async tables (people take hours over a turn there) and normal at live ones and
        in the ``daily`` match (played in one sitting)."""
        if self.bot_level != AUTO_LEVEL:
            return RETIRED_LEVELS.get(self.bot_level, self.bot_level)
        return "hard" if pace == "async" and not daily else "normal"

    def turn_timeout_s(self, pace: str | None = None) -> int:
        p = pace or self.pace
        return self.async_turn_timeout_s if p == "async" else self.live_turn_timeout_s


SETTING_NAMES: Final = (
    "language",
    "preset",
    "deals",
    "pace",
    "live_turn_timeout_s",
    "async_turn_timeout_s",
    "bot_level",
    "use_threads",
    "casual_hints",
    "achievements_line",
    "season",
    "timezone",
    "announce_channel",
    "tournament_role",
)


def validate_setting(name: str, value: Any) -> Any:
    """Return the value to store, or raise InvalidSettingError naming the problem."""

    def bad(why: str, code: str, **params: SettingParam) -> InvalidSettingError:
        return InvalidSettingError(
            f"setting {name!r}: {why} (got {value!r})",
            code,
            name=name,
            value=repr(value)[:40],
            **params,
        )

    choices = {
        "language": LANGUAGES,
        "preset": PRESETS,
        "pace": PACES,
        "bot_level": BOT_LEVEL_SETTINGS,
        "season": SEASON_MODES,
    }
    if name in choices:
        if value not in choices[name]:
            allowed = tuple(choices[name])
            raise bad("must be one of " + ", ".join(allowed), "not-one-of", allowed=allowed)
        return value
    if name == "deals":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 20:
            why = "must be a whole number from 1 to 20, or None for the preset's default"
            raise bad(why, "deals-range", low=1, high=20)
        return value
    if name == "live_turn_timeout_s":
        if isinstance(value, bool) or not isinstance(value, int) or not 10 <= value <= 3600:
            raise bad("must be from 10 to 3600 seconds", "seconds-range", low=10, high=3600)
        return value
    if name == "async_turn_timeout_s":
        if isinstance(value, bool) or not isinstance(value, int) or not 60 <= value <= 7 * 86400:
            why = "must be from 60 seconds to 7 days"
            raise bad(why, "seconds-range", low=60, high=7 * 86400)
        return value
    if name in ("use_threads", "casual_hints", "achievements_line"):
        if not isinstance(value, bool):
            raise bad("must be true or false", "not-a-flag")
        return value
    if name == "timezone":
        try:
            return zone(value).key
        except ValueError:
            raise bad("must be an IANA time zone such as Europe/Istanbul", "bad-timezone") from None
    if name == "announce_channel":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise bad("must be a channel id, or None", "bad-channel")
        return value
    if name == "tournament_role":
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < 1
        ):
            raise bad("must be a role id, or None for no role", "role-id")
        return value
    raise _unknown("setting", name, SETTING_NAMES)


# --------------------------------------------------------------------------- people
THEMES: Final = ("dark", "light")
NOTIFICATION_MODES: Final = ("needed", "every", "never")
USER_SETTING_NAMES: Final = ("language", "four_colour", "theme", "notifications")


@dataclass(frozen=True, slots=True)
class UserSettings:
    """A person's own settings, for every server; None is "not chosen" (the Discord
    locale or the server's language, the two-colour deck, dark pictures, the default
    notifications)."""

    user_id: int
    language: str | None = None
    four_colour: bool | None = None
    theme: str | None = None
    notifications: str | None = None
    updated_at: str | None = field(default=None, compare=False)


def validate_user_setting(name: str, value: Any) -> Any:
    """Return the value to store, or raise InvalidSettingError naming the problem.
    None always clears a choice."""
    if value is None and name in USER_SETTING_NAMES:
        return None
    choices = {"language": LANGUAGES, "theme": THEMES, "notifications": NOTIFICATION_MODES}
    if name in choices:
        if value not in choices[name]:
            allowed = tuple(choices[name])
            raise InvalidSettingError(
                f"setting {name!r}: must be one of {', '.join(allowed)} (got {value!r})",
                "not-one-of",
                name=name,
                value=repr(value)[:40],
                allowed=allowed,
            )
        return value
    if name == "four_colour":
        if not isinstance(value, bool):
            raise InvalidSettingError(
                f"setting 'four_colour': must be true or false (got {value!r})",
                "not-a-flag",
                name=name,
                value=repr(value)[:40],
            )
        return value
    raise _unknown("personal setting", name, USER_SETTING_NAMES)


def _unknown(kind: str, name: str, known: tuple[str, ...]) -> InvalidSettingError:
    return InvalidSettingError(
        f"unknown {kind} {name!r}; known settings: " + ", ".join(known),
        "unknown-setting",
        name=repr(name)[:40],
        known=known,
    )
