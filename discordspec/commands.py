"""Documented rules for application commands that the schema does not carry (docs:
interactions/application-commands.mdx, and reference.mdx › Locales for the locale keys)."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from typing import Any

from .messages import docs
from .violations import Path, Violation

COMMANDS = "interactions/application-commands.mdx"
NAMING = docs(COMMANDS, "Application Command Object › Application Command Naming")
STRUCTURE = docs(COMMANDS, "Application Command Object › Application Command Structure")
OPTION_STRUCTURE = docs(
    COMMANDS, "Application Command Object › Application Command Option Structure"
)
OPTION_TYPE = docs(COMMANDS, "Application Command Object › Application Command Option Type")
CHOICE_STRUCTURE = docs(
    COMMANDS, "Application Command Object › Application Command Option Choice Structure"
)
REGISTERING = docs(COMMANDS, "Registering a Command")
SLASH = docs(COMMANDS, "Slash Commands")
SUBCOMMANDS = docs(COMMANDS, "Subcommands and Subcommand Groups")
LOCALIZATION = docs(COMMANDS, "Localization")
LOCALE_LIST = docs("reference.mdx", "Locales")

CHAT_INPUT, USER, MESSAGE, PRIMARY_ENTRY_POINT = 1, 2, 3, 4
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, NUMBER = 3, 4, 10

LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt",
        "hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el",
        "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
    }
)  # fmt: skip
"""The locales of docs: reference.mdx › Locales (the schema's AvailableLocalesEnum also
has ``ar`` and ``he``; the documentation, and discord.py 2.7.1, do not)."""

MAX_COMMANDS = {CHAT_INPUT: 100, USER: 15, MESSAGE: 15, PRIMARY_ENTRY_POINT: 1}
COMMAND_SIZE_MAX = 8000
CHOICE_STRING_MAX = 100
NUMBER_LIMIT = 2**53


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _ctype(cmd: dict[str, Any]) -> int | None:
    """The command's type (CHAT_INPUT when absent); None when it is not a number."""
    t = cmd.get("type")
    if t is None:
        return CHAT_INPUT
    return t if isinstance(t, int) and not isinstance(t, bool) else None


def _in_script(c: str) -> bool:
    """Devanagari or Thai (``\\p{sc=Deva}``, ``\\p{sc=Thai}``), marks included."""
    o = ord(c)
    return 0x0900 <= o <= 0x097F or 0xA8E0 <= o <= 0xA8FF or 0x0E00 <= o <= 0x0E7F


def valid_chat_input_name(name: str) -> bool:
    """``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, and a letter that has a
    lowercase form is written in it."""
    if not 1 <= len(name) <= 32:
        return False
    for c in name:
        if c in "-_'":
            continue
        if unicodedata.category(c)[0] not in "LN" and not _in_script(c):
            return False
        if c != c.lower():
            return False
    return True


def _name_violation(path: Path, name: str, what: str) -> Violation:
    return Violation(
        path,
        "APPLICATION_COMMAND_INVALID_NAME",
        f"{what} name {name!r} is invalid: 1-32 lowercase letters, digits, - _ or '.",
        NAMING,
    )


def _locale_keys(node: dict[str, Any], key: str, path: Path) -> list[Violation]:
    out = []
    for loc in _dict(node.get(key)):
        if loc not in LOCALES:
            out.append(
                Violation(
                    (*path, key, loc),
                    "BASE_TYPE_CHOICES",
                    f"{loc!r} is not one of Discord's locales.",
                    LOCALE_LIST,
                )
            )
    return out


def _localized_names(node: dict[str, Any]) -> dict[str, str]:
    return {k: v for k, v in _dict(node.get("name_localizations")).items() if isinstance(v, str)}


def command_rules(cmd: object, path: Path = ()) -> list[Violation]:
    """One command (Create / Edit Command, or one item of a bulk overwrite)."""
    if not isinstance(cmd, dict):
        return []
    out: list[Violation] = []
    ctype = _ctype(cmd)
    name = cmd.get("name")
    chat = ctype == CHAT_INPUT
    if chat and isinstance(name, str) and not valid_chat_input_name(name):
        out.append(_name_violation((*path, "name"), name, "Command"))
    for loc, value in _localized_names(cmd).items():
        if chat and not valid_chat_input_name(value):
            out.append(_name_violation((*path, "name_localizations", loc), value, "Command"))
    out += _locale_keys(cmd, "name_localizations", path)
    out += _locale_keys(cmd, "description_localizations", path)
    if chat and "name" in cmd:
        description = cmd.get("description")
        if not isinstance(description, str) or not 1 <= len(description) <= 100:
            out.append(
                Violation(
                    (*path, "description"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                    STRUCTURE,
                    100,
                )
            )
    options = _list(cmd.get("options"))
    if options and ctype in (USER, MESSAGE, PRIMARY_ENTRY_POINT):
        out.append(
            Violation(
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED",
                "Only CHAT_INPUT commands have options.",
                STRUCTURE,
            )
        )
    if chat:
        out += _options_rules(options, (*path, "options"))
        size = command_size(cmd)
        if size > COMMAND_SIZE_MAX:
            out.append(
                Violation(
                    path,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({COMMAND_SIZE_MAX})",
                    SLASH,
                    COMMAND_SIZE_MAX,
                )
            )
    return out


def _options_rules(options: list[Any], path: Path) -> list[Violation]:
    """One array of options: names, order, nesting, choices and ranges, then each child."""
    out: list[Violation] = []
    items = [(i, o) for i, o in enumerate(options) if isinstance(o, dict)]
    kinds = {o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for _, o in items}
    if len(kinds) > 1:
        out.append(
            Violation(
                path,
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Subcommands and subcommand groups cannot sit beside other options.",
                SUBCOMMANDS,
            )
        )
    names: dict[str, int] = {}
    for i, o in items:
        name = o.get("name")
        if isinstance(name, str):
            if not valid_chat_input_name(name):
                out.append(_name_violation((*path, i, "name"), name, "Option"))
            if name in names:
                out.append(
                    Violation(
                        (*path, i, "name"),
                        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                        f"Option name {name!r} is already used in this list.",
                        OPTION_STRUCTURE,
                    )
                )
            names.setdefault(name, i)
        for loc, value in _localized_names(o).items():
            if not valid_chat_input_name(value):
                out.append(_name_violation((*path, i, "name_localizations", loc), value, "Option"))
        out += _locale_keys(o, "name_localizations", (*path, i))
        out += _locale_keys(o, "description_localizations", (*path, i))
    out += _localized_name_clashes(items, path)
    out += _required_first(items, path)
    for i, o in items:
        out += _option_rules(o, (*path, i))
    return out


def _localized_name_clashes(items: list[tuple[int, dict[str, Any]]], path: Path) -> list[Violation]:
    """A localized option name differs from the other options' default names and from their
    names in the same locale."""
    out = []
    defaults = {i: o["name"] for i, o in items if isinstance(o.get("name"), str)}
    by_locale: dict[str, dict[str, int]] = {}
    for i, o in items:
        for loc, value in _localized_names(o).items():
            others = {n for j, n in defaults.items() if j != i}
            seen = by_locale.setdefault(loc, {})
            if value in others or value in seen:
                out.append(
                    Violation(
                        (*path, i, "name_localizations", loc),
                        "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                        f"Localized option name {value!r} is already used by another option.",
                        LOCALIZATION,
                    )
                )
            seen.setdefault(value, i)
    return out


def _required_first(items: list[tuple[int, dict[str, Any]]], path: Path) -> list[Violation]:
    out = []
    optional_seen = False
    for i, o in items:
        if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            continue
        if o.get("required") is True:
            if optional_seen:
                out.append(
                    Violation(
                        (*path, i, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                        OPTION_STRUCTURE,
                    )
                )
        else:
            optional_seen = True
    return out


def _option_rules(o: dict[str, Any], path: Path) -> list[Violation]:
    out: list[Violation] = []
    t = o.get("type")
    if t in (SUB_COMMAND, SUB_COMMAND_GROUP):
        return _options_rules(_list(o.get("options")), (*path, "options"))
    choices = _list(o.get("choices"))
    if choices and t not in (STRING, INTEGER, NUMBER):
        out.append(
            Violation(
                (*path, "choices"),
                "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED",
                "Only STRING, INTEGER and NUMBER options have choices.",
                OPTION_STRUCTURE,
            )
        )
    if choices and o.get("autocomplete") is True:
        out.append(
            Violation(
                (*path, "autocomplete"),
                "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES",
                "autocomplete may not be set to true if choices are present.",
                OPTION_STRUCTURE,
            )
        )
    for k, raw in enumerate(choices):
        choice = _dict(raw)
        out += _locale_keys(choice, "name_localizations", (*path, "choices", k))
        value = choice.get("value")
        if t == STRING and isinstance(value, str) and len(value) > CHOICE_STRING_MAX:
            out.append(
                Violation(
                    (*path, "choices", k, "value"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {CHOICE_STRING_MAX} or fewer in length.",
                    CHOICE_STRUCTURE,
                    CHOICE_STRING_MAX,
                )
            )
        if t == NUMBER:
            out += _number_range(value, (*path, "choices", k, "value"))
    if t == NUMBER:
        for key in ("min_value", "max_value"):
            out += _number_range(o.get(key), (*path, key))
    return out


def _number_range(value: object, path: Path) -> list[Violation]:
    """NUMBER values lie between -2^53 and 2^53."""
    if not _number(value):
        return []
    assert isinstance(value, int | float)
    if value > NUMBER_LIMIT:
        return [
            Violation(
                path,
                "NUMBER_TYPE_MAX",
                f"float value should be less than or equal to {NUMBER_LIMIT}.",
                OPTION_TYPE,
                NUMBER_LIMIT,
            )
        ]
    if value < -NUMBER_LIMIT:
        return [
            Violation(
                path,
                "NUMBER_TYPE_MIN",
                f"float value should be greater than or equal to {-NUMBER_LIMIT}.",
                OPTION_TYPE,
                -NUMBER_LIMIT,
            )
        ]
    return []


def _longest(node: dict[str, Any], key: str) -> int:
    """The longest of a field and its localizations (what counts towards the size)."""
    texts = [node.get(key), *_dict(node.get(f"{key}_localizations")).values()]
    return max((len(t) for t in texts if isinstance(t, str)), default=0)


def command_size(cmd: dict[str, Any]) -> int:
    """The characters that count towards a slash command's 8000: name, description and
    value of the command, every option (subcommands and groups included) and choice, each
    field counted by its longest localization."""

    def of(node: dict[str, Any]) -> int:
        n = _longest(node, "name") + _longest(node, "description")
        value = node.get("value")
        if value is not None and not isinstance(value, dict | list):
            n += len(str(value))
        for child in _list(node.get("options")) + _list(node.get("choices")):
            if isinstance(child, dict):
                n += of(child)
        return n

    return of(cmd)


def bulk_rules(commands: object, *, guild: bool) -> list[Violation]:
    """A bulk overwrite: every command, plus how many of each type and unique names per
    type (docs: Registering a Command)."""
    if not isinstance(commands, list):
        return []
    out: list[Violation] = []
    types: list[int] = []
    seen: dict[tuple[int, str], int] = {}
    for i, cmd in enumerate(commands):
        out += command_rules(cmd, (i,))
        if not isinstance(cmd, dict):
            continue
        ctype = _ctype(cmd)
        if ctype is None:
            continue
        types.append(ctype)
        name = cmd.get("name")
        if isinstance(name, str):
            if (ctype, name) in seen:
                out.append(
                    Violation(
                        (i, "name"),
                        "APPLICATION_COMMANDS_DUPLICATE_NAME",
                        f"Application command names must be unique per type ({name})",
                        REGISTERING,
                    )
                )
            seen.setdefault((ctype, name), i)
        if guild and ctype == PRIMARY_ENTRY_POINT:
            out.append(
                Violation(
                    (i, "type"),
                    "APPLICATION_COMMAND_TYPE_INVALID",
                    "A PRIMARY_ENTRY_POINT command cannot be a guild command.",
                    REGISTERING,
                )
            )
    out += _counts(Counter(types).items())
    return out


def _counts(counts: Iterable[tuple[int, int]]) -> list[Violation]:
    out = []
    for ctype, n in counts:
        limit = MAX_COMMANDS.get(ctype)
        if limit is not None and n > limit:
            out.append(
                Violation(
                    (),
                    "APPLICATION_COMMANDS_TOO_MANY",
                    f"At most {limit} commands of type {ctype}; this list has {n}.",
                    REGISTERING,
                    limit,
                )
            )
    return out
