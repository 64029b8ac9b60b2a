"""Each documented rule of discordspec: a minimal example it refuses, one it accepts."""

from __future__ import annotations

from typing import Any

import pytest

from discordspec import Violation, check_commands, validate_request
from discordspec.commands import command_size, valid_chat_input_name
from discordspec.messages import is_empty

MESSAGES = "/channels/1/messages"
CALLBACK = "/interactions/1/tok/callback"
FOLLOWUP = "/webhooks/1/tok"
ORIGINAL = "/webhooks/1/tok/messages/@original"


def found(method: str, path: str, body: Any) -> dict[tuple[str | int, ...], str]:
    return {v.path: v.code for v in validate_request(method, path, body)}


def cmd(**fields: Any) -> dict[str, Any]:
    return {"name": "batak", "description": "Play", **fields}


def opt(name: str, type_: int = 3, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "name": name, "description": name, **fields}


def command_codes(*cmds: dict[str, Any]) -> dict[tuple[str | int, ...], str]:
    return {v.path: v.code for v in check_commands(list(cmds))}


def rules(vs: list[Violation]) -> set[str]:
    return {v.rule for v in vs}


# ------------------------------------------------------------------ application commands


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("batak", True),
        ("oyun-ı_2'", True),  # ı has no other lowercase form
        ("खेल", True),  # Devanagari, marks included
        ("ไพ่", True),  # Thai
        ("Batak", False),
        ("İhale", False),  # İ has a lowercase form
        ("two words", False),
        ("", False),
        ("x" * 33, False),
        ("a.b", False),
    ],
)
def test_chat_input_names_follow_the_naming_rule(name: str, ok: bool) -> None:
    assert valid_chat_input_name(name) is ok


def test_command_and_option_names() -> None:
    assert command_codes(cmd(name="Batak")) == {(0, "name"): "APPLICATION_COMMAND_INVALID_NAME"}
    assert command_codes(cmd(options=[opt("Who")])) == {
        (0, "options", 0, "name"): "APPLICATION_COMMAND_INVALID_NAME"
    }
    assert command_codes(cmd(name_localizations={"tr": "Oyna"})) == {
        (0, "name_localizations", "tr"): "APPLICATION_COMMAND_INVALID_NAME"
    }
    # USER and MESSAGE commands may have capitals and spaces, and no description
    assert command_codes({"name": "Show Hand", "type": 2}) == {}
    assert command_codes(cmd(name_localizations={"tr": "oyna"}, options=[opt("who")])) == {}


def test_a_slash_command_has_a_description() -> None:
    assert command_codes({"name": "batak", "description": ""}) == {
        (0, "description"): "BASE_TYPE_BAD_LENGTH"
    }
    assert command_codes({"name": "batak"}) == {(0, "description"): "BASE_TYPE_BAD_LENGTH"}


def test_required_options_come_first() -> None:
    bad = cmd(options=[opt("a"), opt("b", required=True)])
    assert command_codes(bad) == {
        (0, "options", 1, "required"): "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"
    }
    assert command_codes(cmd(options=[opt("b", required=True), opt("a")])) == {}


def test_option_names_are_unique_in_their_list() -> None:
    assert command_codes(cmd(options=[opt("a"), opt("a")])) == {
        (0, "options", 1, "name"): "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"
    }
    # the same name in two subcommands is fine
    sub = [opt("x", 1, options=[opt("a")]), opt("y", 1, options=[opt("a")])]
    assert command_codes(cmd(options=sub)) == {}


def test_localized_option_names_do_not_clash() -> None:
    clash = [opt("who", name_localizations={"tr": "kac"}), opt("kac")]
    assert command_codes(cmd(options=clash)) == {
        (
            0,
            "options",
            0,
            "name_localizations",
            "tr",
        ): "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"
    }
    same_locale = [
        opt("who", name_localizations={"tr": "kim"}),
        opt("whom", name_localizations={"tr": "kim"}),
    ]
    assert list(command_codes(cmd(options=same_locale))) == [
        (0, "options", 1, "name_localizations", "tr")
    ]
    fine = [
        opt("who", name_localizations={"tr": "kim"}),
        opt("deals", name_localizations={"tr": "el"}),
    ]
    assert command_codes(cmd(options=fine)) == {}


def test_subcommand_nesting() -> None:
    mixed = cmd(options=[opt("new", 1), opt("deals", 4)])
    assert command_codes(mixed) == {(0, "options"): "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"}
    # the schema: a group holds subcommands only, a subcommand no subcommands
    group_in_sub = cmd(options=[opt("new", 1, options=[opt("inner", 1)])])
    assert command_codes(group_in_sub) == {
        (0, "options", 0, "options", 0, "type"): "UNION_TYPE_CHOICES"
    }
    deep = cmd(options=[opt("g", 2, options=[opt("s", 1, options=[opt("a", 4)])])])
    assert command_codes(deep) == {}
    assert command_codes(cmd(options=[opt("g", 2, options=[opt("a", 4)])])) == {
        (0, "options", 0, "options", 0, "type"): "BASE_TYPE_CHOICES"
    }


def test_only_slash_commands_have_options() -> None:
    assert command_codes({"name": "Hand", "type": 2, "options": [opt("a")]}) == {
        (0, "options"): "APPLICATION_COMMAND_OPTIONS_NOT_ALLOWED"
    }


def test_choices_autocomplete_and_values() -> None:
    with_auto = opt("a", choices=[{"name": "x", "value": "x"}], autocomplete=True)
    assert command_codes(cmd(options=[with_auto])) == {
        (0, "options", 0, "autocomplete"): "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES"
    }
    on_bool = opt("a", 5, choices=[{"name": "x", "value": 1}])
    assert command_codes(cmd(options=[on_bool])) == {
        (0, "options", 0, "choices"): "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED"
    }
    long_value = opt("a", choices=[{"name": "x", "value": "v" * 101}])
    assert command_codes(cmd(options=[long_value])) == {
        (0, "options", 0, "choices", 0, "value"): "BASE_TYPE_MAX_LENGTH"
    }
    many = opt("a", choices=[{"name": str(i), "value": str(i)} for i in range(26)])
    assert command_codes(cmd(options=[many])) == {
        (0, "options", 0, "choices"): "BASE_TYPE_MAX_LENGTH"
    }
    assert command_codes(cmd(options=[opt("a", choices=[{"name": "x", "value": "v" * 100}])])) == {}


def test_number_options_stay_within_two_to_the_53() -> None:
    bad = opt("a", 10, min_value=-(2.0**53) * 2, choices=[{"name": "x", "value": 2.0**54}])
    assert command_codes(cmd(options=[bad])) == {
        (0, "options", 0, "min_value"): "NUMBER_TYPE_MIN",
        (0, "options", 0, "choices", 0, "value"): "NUMBER_TYPE_MAX",
    }
    assert command_codes(cmd(options=[opt("a", 10, min_value=-(2.0**53), max_value=0.5)])) == {}


def test_more_than_25_options_are_refused() -> None:
    assert command_codes(cmd(options=[opt(f"o{i}") for i in range(26)])) == {
        (0, "options"): "BASE_TYPE_MAX_LENGTH"
    }


def test_a_command_holds_at_most_8000_characters() -> None:
    options = [opt(f"o{i}", description="d" * 100) for i in range(25)]
    choices = [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]
    options[0]["choices"] = options[1]["choices"] = choices
    big = cmd(options=options)
    assert command_size(big) > 8000
    assert command_codes(big) == {(0,): "APPLICATION_COMMAND_TOO_LARGE"}
    options[1]["choices"] = []
    assert command_size(big) < 8000 and command_codes(big) == {}
    # only the longest localization of a field counts
    named = cmd(description="d", description_localizations={"tr": "x" * 50, "de": "y" * 60})
    assert command_size(named) == len("batak") + 60


def test_how_many_commands_and_unique_names() -> None:
    hundred_and_one = [cmd(name=f"c{i}") for i in range(101)]
    assert command_codes(*hundred_and_one) == {(): "APPLICATION_COMMANDS_TOO_MANY"}
    users = [{"name": f"U{i}", "type": 2} for i in range(16)]
    assert command_codes(*users) == {(): "APPLICATION_COMMANDS_TOO_MANY"}
    assert command_codes(cmd(), cmd()) == {(1, "name"): "APPLICATION_COMMANDS_DUPLICATE_NAME"}
    assert command_codes(cmd(), {"name": "batak", "type": 2}) == {}  # another type
    entry = {"name": "launch", "type": 4, "description": "Launch"}
    guild = validate_request("PUT", "/applications/1/guilds/2/commands", [entry])
    assert {v.path: v.code for v in guild} == {(0, "type"): "APPLICATION_COMMAND_TYPE_INVALID"}


# ------------------------------------------------------------------ messages and components


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def button(cid: str | None = "b", style: int = 1, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": 2, "style": style, "label": "L", **fields}
    if cid is not None:
        out["custom_id"] = cid
    return out


def select(cid: str = "s", values: tuple[str, ...] = ("a", "b"), **fields: Any) -> dict[str, Any]:
    options = [{"label": v, "value": v} for v in values]
    return {"type": 3, "custom_id": cid, "options": options, **fields}


def msg(*rows: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"content": "x", "components": list(rows), **fields}


def test_embed_totals_and_fields() -> None:
    two = {"content": "", "embeds": [{"description": "d" * 3500}, {"description": "e" * 3500}]}
    assert found("POST", MESSAGES, two) == {("embeds",): "MAX_EMBED_SIZE_EXCEEDED"}
    padded = {"embeds": [{"description": " " * 2000 + "d" * 2000}] * 2}
    assert found("POST", MESSAGES, padded) == {}  # whitespace at the ends does not count
    blank = {"embeds": [{"fields": [{"name": " ", "value": "v"}]}]}
    assert found("POST", MESSAGES, blank) == {
        ("embeds", 0, "fields", 0, "name"): "BASE_TYPE_REQUIRED"
    }
    assert found("POST", MESSAGES, {"embeds": [{"title": "t" * 257}]}) == {
        ("embeds", 0, "title"): "BASE_TYPE_MAX_LENGTH"
    }


def test_legacy_messages_have_up_to_five_action_rows() -> None:
    six = msg(*[row(button(f"b{i}")) for i in range(6)])
    assert found("POST", MESSAGES, six) == {("components",): "BASE_TYPE_MAX_LENGTH"}
    loose = {"content": "x", "components": [button()]}
    assert found("POST", MESSAGES, loose) == {("components", 0, "type"): "UNION_TYPE_CHOICES"}
    assert found("POST", MESSAGES, msg(*[row(button(f"b{i}")) for i in range(5)])) == {}


def test_a_row_holds_five_buttons_or_one_select() -> None:
    assert found("POST", MESSAGES, msg(row(*[button(f"b{i}") for i in range(6)]))) == {
        ("components", 0, "components"): "BASE_TYPE_BAD_LENGTH"  # 1 to 5
    }
    assert found("POST", MESSAGES, msg(row(select(), button()))) == {
        ("components", 0, "components"): "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
    }
    assert (
        found("POST", MESSAGES, msg(row(select()), row(*[button(f"b{i}") for i in range(5)]))) == {}
    )


def test_custom_ids_and_ids_are_unique_in_a_message() -> None:
    dup = msg(row(button("same")), row(button("same")))
    assert found("POST", MESSAGES, dup) == {
        ("components", 1, "components", 0, "custom_id"): "COMPONENT_CUSTOM_ID_DUPLICATED"
    }
    ids = msg(row(button("a", id=7), button("b", id=7)))
    assert found("POST", MESSAGES, ids) == {
        ("components", 0, "components", 1, "id"): "COMPONENT_ID_DUPLICATED"
    }
    assert found("POST", MESSAGES, msg(row(button("c" * 101)))) == {
        ("components", 0, "components", 0, "custom_id"): "BASE_TYPE_BAD_LENGTH"
    }
    assert found("POST", MESSAGES, msg(row(button("a", id=0), button("b", id=0)))) == {}


def test_what_each_button_style_needs() -> None:
    def codes(b: dict[str, Any]) -> dict[tuple[str | int, ...], str]:
        return {p[-1:]: c for p, c in found("POST", MESSAGES, msg(row(b))).items()}

    assert codes(button(None)) == {("custom_id",): "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED"}
    assert codes(button("a", url="https://x.org")) == {
        ("url",): "BUTTON_COMPONENT_FIELD_NOT_ALLOWED"
    }
    assert codes(button(None, 5)) == {("url",): "BUTTON_COMPONENT_URL_REQUIRED"}
    assert codes(button("a", 5, url="https://x.org")) == {
        ("custom_id",): "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED"
    }
    premium = {"type": 2, "style": 6, "label": "Buy"}
    assert codes(premium) == {
        ("sku_id",): "BUTTON_COMPONENT_SKU_ID_REQUIRED",
        ("label",): "BUTTON_COMPONENT_FIELD_NOT_ALLOWED",
    }
    assert codes({"type": 2, "style": 1, "custom_id": "a"}) == {
        ("label",): "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED"
    }
    assert codes(button(None, 5, url="https://x.org")) == {}
    assert codes({"type": 2, "style": 6, "sku_id": "123"}) == {}
    assert codes({"type": 2, "style": 2, "custom_id": "e", "emoji": {"name": "🂡"}}) == {}


def test_select_options() -> None:
    dup = msg(row(select(values=("a", "a"))))
    assert found("POST", MESSAGES, dup) == {
        (
            "components",
            0,
            "components",
            0,
            "options",
            1,
            "value",
        ): "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"
    }
    counts = msg(row(select(min_values=3, max_values=2)))
    assert found("POST", MESSAGES, counts) == {
        ("components", 0, "components", 0, "min_values"): "BASE_TYPE_BAD_INT"
    }
    assert found("POST", MESSAGES, msg(row(select(values=())))) == {
        ("components", 0, "components", 0, "options"): "BASE_TYPE_BAD_LENGTH"
    }
    assert found("POST", MESSAGES, msg(row(select(min_values=0, max_values=2)))) == {}


def test_components_v2_messages() -> None:
    v2 = 1 << 15
    texts = [{"type": 10, "content": str(i)} for i in range(41)]
    assert found("POST", MESSAGES, {"flags": v2, "components": texts}) == {
        ("components",): "BASE_TYPE_MAX_LENGTH"
    }
    with_content = {"flags": v2, "content": "x", "components": texts[:2]}
    assert found("POST", MESSAGES, with_content) == {
        ("content",): "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
    }
    container = {"type": 17, "components": [{"type": 10, "content": "hi"}, row(button())]}
    assert found("POST", MESSAGES, {"flags": v2, "components": [container]}) == {}


def test_modals() -> None:
    def modal(n: int, **fields: Any) -> dict[str, Any]:
        inputs = [
            row({"type": 4, "custom_id": f"i{k}", "style": 1, "label": "L", **fields})
            for k in range(n)
        ]
        return {"type": 9, "data": {"custom_id": "m", "title": "T", "components": inputs}}

    assert found("POST", CALLBACK, modal(6)) == {("data", "components"): "BASE_TYPE_BAD_LENGTH"}
    assert found("POST", CALLBACK, modal(1, disabled=True)) == {
        ("data", "components", 0, "components", 0, "disabled"): "COMPONENT_DISABLED_NOT_ALLOWED"
    }
    assert found("POST", CALLBACK, modal(5)) == {}


def test_message_flags_per_route() -> None:
    ephemeral, suppress, v2 = 1 << 6, 1 << 2, 1 << 15
    assert found("POST", MESSAGES, {"content": "x", "flags": ephemeral}) == {
        ("flags",): "MESSAGE_FLAGS_INVALID"
    }
    assert found("POST", MESSAGES, {"content": "x", "flags": suppress | 1 << 12}) == {}
    answer = {"type": 4, "data": {"content": "x", "flags": ephemeral | suppress}}
    assert found("POST", CALLBACK, answer) == {}
    answer["data"]["flags"] = 1 << 7  # LOADING is the server's to set
    assert found("POST", CALLBACK, answer) == {("data", "flags"): "MESSAGE_FLAGS_INVALID"}
    assert found("POST", CALLBACK, {"type": 5, "data": {"flags": ephemeral}}) == {}
    assert found("POST", CALLBACK, {"type": 5, "data": {"flags": v2}}) == {
        ("data", "flags"): "MESSAGE_FLAGS_INVALID"
    }
    assert found("POST", FOLLOWUP, {"content": "x", "flags": ephemeral}) == {}
    assert found("PATCH", ORIGINAL, {"content": "x", "flags": ephemeral}) == {
        ("flags",): "MESSAGE_FLAGS_INVALID"
    }
    # Edit Message ignores flags a bot may not change; nothing to refuse
    assert found("PATCH", MESSAGES + "/2", {"content": "x", "flags": ephemeral | 32}) == {}
    refused = validate_request("POST", MESSAGES, {"content": "x", "flags": ephemeral})
    assert rules(refused) == {"docs: resources/message.mdx › Create Message › JSON/Form Params"}


def test_an_empty_message() -> None:
    assert is_empty({"content": ""}, has_files=False)
    assert is_empty({"content": None, "embeds": [], "components": []}, has_files=False)
    assert not is_empty({}, has_files=True)
    assert not is_empty({"embeds": [{"title": "t"}]}, has_files=False)


def test_every_documented_rule_cites_a_section() -> None:
    bad = cmd(name="Batak", options=[opt("a"), opt("b", required=True), opt("a")])
    for v in check_commands([bad]):
        assert (v.rule.startswith(("docs: ", "openapi: ")) and " › " in v.rule) or "/" in v.rule
