"""Refused table settings and server settings in the reader's language: every code of a
:class:`~batak.RulesError` and an :class:`~data.InvalidSettingError` comes from a real
bad input, is worded ``bad_rules.<code>`` / ``bad_setting.<code>`` in all 8 catalogues
(no ``{placeholder}`` left), and a Turkish reader gets no English word; the engine's
and the store's English (``str()``) stays for the terminal and the logs."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from test_bot_service import ALICE, CHANNEL, GUILD

from batak import Rules, RulesError, preset
from batak.rules import RULES_CODES
from cogs.i18n import catalogues
from cogs.text.house import parse_rules, read_value
from cogs.text.refusals import error_text, rules_error_text, setting_error_text
from data import InvalidSettingError
from data.settings import (
    SETTING_CODES,
    validate_setting,
    validate_user_setting,
)
from tables import ServiceError
from tests.bot.test_bot_refusals import ENGLISH, LANGS, words

CODE_SPAN = re.compile(r"`[^`]*`")
"""What people type (``min_bid``, ``on``), in code marks: not words of a language."""

RULES_CASES: dict[str, Callable[[], object]] = {
    "unknown-option": lambda: parse_rules("trumps=S"),
    "not-a-preset": lambda: parse_rules("preset=bridge"),
    "not-allowed": lambda: Rules.from_dict(parse_rules("trump_lead=never")),
    "out-of-range": lambda: Rules.from_dict(parse_rules("min_bid=14")),
    "forced-bid-needed": lambda: preset("classic", all_pass="dealer-forced"),
    "out-of-range-or-none": lambda: preset("classic", forced_bid=0),
    "not-a-flag": lambda: parse_rules("partnership=maybe"),
    "bad-suit": lambda: Rules.from_dict(parse_rules("fixed_trump=X")),
    "not-an-object": lambda: Rules.from_dict([]),  # type: ignore[arg-type]
    "not-a-number": lambda: parse_rules("deals=eight"),
    "rules-syntax": lambda: parse_rules("min_bid"),
    "given-twice": lambda: parse_rules("deals=3 deals=4"),
    "too-long": lambda: parse_rules("x=1 " * 200),
}
"""One real bad input per code (``bad-pace`` is made by the table service, below)."""

SETTING_CASES: dict[str, Callable[[], object]] = {
    "unknown-setting": lambda: validate_setting("colour", "red"),
    "not-one-of": lambda: validate_setting("language", "xx"),
    "deals-range": lambda: validate_setting("deals", 21),
    "seconds-range": lambda: validate_setting("live_turn_timeout_s", 5),
    "not-a-flag": lambda: validate_user_setting("four_colour", "yes"),
    "role-id": lambda: validate_setting("tournament_role", "admins"),
    "bad-timezone": lambda: validate_setting("timezone", "Mars/Olympus"),
    "bad-channel": lambda: validate_setting("announce_channel", "#general"),
}


def rules_error(make: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as err:
        make()
    return err.value


def setting_error(make: Callable[[], object]) -> InvalidSettingError:
    with pytest.raises(InvalidSettingError) as err:
        make()
    return err.value


def prose(text: str) -> set[str]:
    """The words of ``text`` outside code marks."""
    return words(CODE_SPAN.sub(" ", text))


async def bad_pace(env: Any) -> RulesError:
    service = env[0]
    with pytest.raises(ServiceError) as err:
        await service.create_table(GUILD, CHANNEL, ALICE, "Alice", pace="sprint")
    reason = err.value.params["reason"]
    assert isinstance(reason, RulesError)
    return reason


def test_every_rules_code_has_a_real_input() -> None:
    assert set(RULES_CASES) | {"bad-pace"} == RULES_CODES
    for code, make in RULES_CASES.items():
        assert rules_error(make).code == code, code


def test_every_setting_code_has_a_real_input() -> None:
    assert set(SETTING_CASES) == SETTING_CODES
    for code, make in SETTING_CASES.items():
        assert setting_error(make).code == code, code


def test_the_english_of_the_engine_and_the_store_is_kept() -> None:
    err = rules_error(RULES_CASES["not-a-flag"])
    assert str(err) == "partnership: 'maybe' is not allowed; expected on or off"
    assert err.params == {"option": "partnership", "value": "'maybe'"}
    err = rules_error(RULES_CASES["not-allowed"])
    assert str(err) == (
        "trump_lead: 'never' is not allowed; expected after-trump-played, after-ruff, free"
    )
    assert err.params["allowed"] == ("after-trump-played", "after-ruff", "free")
    err = rules_error(RULES_CASES["out-of-range"])
    assert str(err) == "min_bid: 14 is not allowed; expected an integer 1..13"
    assert (err.params["low"], err.params["high"]) == (1, 13)
    setting = setting_error(SETTING_CASES["seconds-range"])
    assert str(setting) == "setting 'live_turn_timeout_s': must be from 10 to 3600 seconds (got 5)"
    with pytest.raises(ValueError, match="unknown rules error code"):
        RulesError("x", "no-such-code")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", sorted(RULES_CASES))
def test_every_rules_error_is_worded_in_every_language(code: str, lang: str) -> None:
    assert f"bad_rules.{code}" in catalogues()[lang]
    err = rules_error(RULES_CASES[code])
    text = rules_error_text(err, lang)
    assert text and "{" not in text and "}" not in text, text
    if lang != "en":
        assert text != rules_error_text(err, "en")
    framed = error_text(ServiceError("error.bad_rules", reason=err), lang)
    assert framed.endswith(text) and "{" not in framed


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("code", sorted(SETTING_CASES))
def test_every_setting_error_is_worded_in_every_language(code: str, lang: str) -> None:
    assert f"bad_setting.{code}" in catalogues()[lang]
    err = setting_error(SETTING_CASES[code])
    text = setting_error_text(err, lang)
    assert text and "{" not in text and "}" not in text, text
    if lang != "en":
        assert text != setting_error_text(err, "en")
    framed = error_text(ServiceError("error.bad_setting", reason=err), lang)
    assert framed.endswith(text) and "{" not in framed


@pytest.mark.parametrize("lang", LANGS)
async def test_a_bad_pace_is_worded_in_every_language(env: Any, lang: str) -> None:
    err = await bad_pace(env)
    assert err.code == "bad-pace" and str(err) == "pace 'sprint'"
    text = error_text(ServiceError("error.bad_rules", reason=err), lang)
    assert "`sprint`" in text and "{" not in text


@pytest.mark.parametrize("code", sorted(RULES_CASES))
def test_a_turkish_rules_error_has_no_english_word(code: str) -> None:
    err = rules_error(RULES_CASES[code])
    text = error_text(ServiceError("error.bad_rules", reason=err), "tr")
    assert text.startswith("Bu masa ayarları geçerli değil: "), text
    assert not prose(text) & ENGLISH, (text, prose(text) & ENGLISH)
    # before: the engine's English went to the reader, and the check catches it
    before = f"Bu masa ayarları geçerli değil: {err}"
    assert code in ("too-long", "given-twice") or prose(before) & ENGLISH, before


@pytest.mark.parametrize("code", sorted(SETTING_CASES))
def test_a_turkish_setting_error_has_no_english_word(code: str) -> None:
    err = setting_error(SETTING_CASES[code])
    text = error_text(ServiceError("error.bad_setting", reason=err), "tr")
    assert text.startswith("Bu ayar geçerli değil: "), text
    assert not prose(text) & ENGLISH, (text, prose(text) & ENGLISH)
    assert prose(f"Bu ayar geçerli değil: {err}") & ENGLISH


def test_the_turkish_wording_of_a_new_table_with_bad_rules() -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_dict(parse_rules("min_bid=14"))
    assert error_text(ServiceError("error.bad_rules", reason=err.value), "tr") == (
        "Bu masa ayarları geçerli değil: `min_bid` 1 ile 13 arasında bir sayı olmalı, `14` olmaz"
    )
    flag = rules_error(lambda: read_value("partnership", "belki"))
    assert rules_error_text(flag, "tr") == "`partnership` `on` ya da `off` olmalı, `belki` olmaz"
    preset_error = rules_error(RULES_CASES["not-a-preset"])
    assert rules_error_text(preset_error, "tr").endswith(
        "`standard`, `classic`, `esli`, `koz-maca` veya `kanli`"
    )
    setting = setting_error(lambda: validate_setting("pace", "fast"))
    assert setting_error_text(setting, "tr") == (
        "`pace` için `fast` olmaz; şunlardan birini seç: `live` veya `async`"
    )


def test_what_people_type_stays_in_code_marks() -> None:
    err = RulesError("x", "not-a-flag", option="partnership", value="'a`b'")
    assert rules_error_text(err, "en") == "`partnership` must be `on` or `off`, not `a'b`"
    params: dict[str, Any] = {"name": "deals", "value": "0", "low": 1, "high": 20}
    framed = setting_error_text(InvalidSettingError("x", "deals-range", **params), "tr")
    assert "(0: kural setinin kendi tur sayısı)" in framed
