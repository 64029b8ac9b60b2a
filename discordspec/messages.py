"""Documented rules for message bodies that the schema does not carry: content and embed
limits, components and modals, and which message flags each route lets a bot set.

Each check is a small function naming the section of Discord's developer documentation it
follows (files under ``developers/`` of discord-api-docs). They read bodies defensively:
a value of the wrong shape is the schema's to report, and is skipped here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .violations import Path, Violation

MESSAGE = "resources/message.mdx"
COMPONENTS = "components/reference.mdx"
INTERACTIONS = "interactions/receiving-and-responding.mdx"
WEBHOOK = "resources/webhook.mdx"


def docs(file: str, section: str) -> str:
    return f"docs: {file} › {section}"


# Message flags (docs: resources/message.mdx › Message Flags)
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_VOICE_MESSAGE = 1 << 13
IS_COMPONENTS_V2 = 1 << 15

CONTENT_MAX = 2000
EMBED_TOTAL_MAX = 6000
LEGACY_ROWS_MAX = 5
V2_COMPONENTS_MAX = 40
MODAL_COMPONENTS_MAX = 5

BUTTON = 2
ACTION_ROW = 1
SELECTS = frozenset({3, 5, 6, 7, 8})
LINK, PREMIUM = 5, 6


@dataclass(frozen=True)
class Flags:
    """The flags a route lets a bot set, and the section that says so."""

    allowed: int
    rule: str


CREATE_MESSAGE_FLAGS = Flags(
    SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2,
    docs(MESSAGE, "Create Message › JSON/Form Params"),
)
INTERACTION_MESSAGE_FLAGS = Flags(
    SUPPRESS_EMBEDS | EPHEMERAL | IS_COMPONENTS_V2 | IS_VOICE_MESSAGE | SUPPRESS_NOTIFICATIONS,
    docs(INTERACTIONS, "Interaction Response Object › Messages"),
)
DEFERRED_FLAGS = Flags(EPHEMERAL, docs(INTERACTIONS, "Interaction Response Object › Messages"))
EXECUTE_WEBHOOK_FLAGS = Flags(
    SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2,
    docs(WEBHOOK, "Execute Webhook › JSON/Form Params"),
)
FOLLOWUP_FLAGS = Flags(
    EXECUTE_WEBHOOK_FLAGS.allowed | EPHEMERAL, docs(INTERACTIONS, "Create Followup Message")
)
EDIT_WEBHOOK_MESSAGE_FLAGS = Flags(
    SUPPRESS_EMBEDS | IS_COMPONENTS_V2, docs(WEBHOOK, "Edit Webhook Message › JSON/Form Params")
)
# Edit Message (PATCH /channels/{id}/messages/{id}): flags a bot may not change are ignored
# without an error (docs: resources/message.mdx › Edit Message), so nothing is refused there.


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


# ------------------------------------------------------------------ flags


def flag_rules(body: dict[str, Any], flags: Flags, prefix: Path = ()) -> list[Violation]:
    """Only the flags ``flags`` lists may be set on this route."""
    value = _int(body.get("flags"))
    extra = value & ~flags.allowed
    if not extra:
        return []
    bits = ", ".join(f"1 << {b}" for b in range(extra.bit_length()) if extra >> b & 1)
    return [
        Violation(
            (*prefix, "flags"),
            "MESSAGE_FLAGS_INVALID",
            f"Flags {bits} cannot be set on this route (allowed: {flags.allowed}).",
            flags.rule,
        )
    ]


# ------------------------------------------------------------------ content and embeds


def content_rules(body: dict[str, Any], prefix: Path = ()) -> list[Violation]:
    """``content`` holds at most 2000 characters (the schema allows 4000 on Create Message)."""
    content = _text(body.get("content"))
    if content is None or len(content) <= CONTENT_MAX:
        return []
    return [
        Violation(
            (*prefix, "content"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {CONTENT_MAX} or fewer in length.",
            docs(MESSAGE, "Create Message › JSON/Form Params"),
            CONTENT_MAX,
        )
    ]


_EMBED_TEXTS: tuple[tuple[str, ...], ...] = (
    ("title",),
    ("description",),
    ("footer", "text"),
    ("author", "name"),
)


def embed_rules(body: dict[str, Any], prefix: Path = ()) -> list[Violation]:
    """The characters of every title, description, field name and value, footer text and
    author name of a message's embeds add up to at most 6000 (leading and trailing
    whitespace not counted); a field has a name and a value."""
    out: list[Violation] = []
    total = 0
    limits = docs(MESSAGE, "Embed Object › Embed Limits")
    for i, raw in enumerate(_list(body.get("embeds"))):
        embed = _dict(raw)
        for keys in _EMBED_TEXTS:
            node: Any = embed
            for k in keys:
                node = _dict(node).get(k)
            total += len((_text(node) or "").strip())
        for j, raw_field in enumerate(_list(embed.get("fields"))):
            fld = _dict(raw_field)
            for key in ("name", "value"):
                text = _text(fld.get(key))
                if text is not None and not text.strip():
                    out.append(
                        Violation(
                            (*prefix, "embeds", i, "fields", j, key),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                            docs(MESSAGE, "Embed Object › Embed Field Structure"),
                        )
                    )
                total += len((text or "").strip())
    if total > EMBED_TOTAL_MAX:
        out.append(
            Violation(
                (*prefix, "embeds"),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}",
                limits,
                EMBED_TOTAL_MAX,
            )
        )
    return out


def components_v2_exclusive(body: dict[str, Any], prefix: Path = ()) -> list[Violation]:
    """With IS_COMPONENTS_V2 a message is made of components only: no content, embeds,
    stickers or poll."""
    if not _int(body.get("flags")) & IS_COMPONENTS_V2:
        return []
    out = []
    for key in ("content", "embeds", "sticker_ids", "poll"):
        if body.get(key) not in (None, "", []):
            out.append(
                Violation(
                    (*prefix, key),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                    docs(MESSAGE, "Create Message › JSON/Form Params"),
                )
            )
    return out


def is_empty(body: dict[str, Any], *, has_files: bool) -> bool:
    """A new message needs one of content, embeds, stickers, components, files, a poll or
    a shared client theme (docs: resources/message.mdx › Create Message › JSON/Form Params);
    Discord answers 50006 "Cannot send an empty message" otherwise."""
    return not (
        has_files
        or any(body.get(k) for k in ("content", "embeds", "sticker_ids", "components", "poll"))
        or body.get("shared_client_theme")
    )


# ------------------------------------------------------------------ components


def _walk(components: list[Any], prefix: Path) -> Iterator[tuple[dict[str, Any], Path]]:
    for i, raw in enumerate(components):
        if not isinstance(raw, dict):
            continue
        path = (*prefix, i)
        yield raw, path
        yield from _walk(_list(raw.get("components")), (*path, "components"))
        accessory = raw.get("accessory")
        if isinstance(accessory, dict):
            yield accessory, (*path, "accessory")


def component_rules(
    components: list[Any], *, v2: bool, prefix: Path = ("components",)
) -> list[Violation]:
    """The layout of a message's components (docs: components/reference.mdx)."""
    out: list[Violation] = [] if v2 else _legacy_layout(components, prefix)
    walked = list(_walk(components, prefix))
    if v2 and len(walked) > V2_COMPONENTS_MAX:
        out.append(
            Violation(
                prefix,
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {V2_COMPONENTS_MAX} or fewer in length.",
                docs(COMPONENTS, "introduction, before What is a Component"),
                V2_COMPONENTS_MAX,
            )
        )
    for c, path in walked:
        t = c.get("type")
        if t == ACTION_ROW:
            out += _row_rules(c, path)
        elif t == BUTTON:
            out += _button_rules(c, path)
        elif t in SELECTS:
            if t == 3:
                out += _string_select_rules(c, path)
            out += _select_count_rules(c, path)
    return out + _unique_ids(walked)


def _legacy_layout(components: list[Any], prefix: Path) -> list[Violation]:
    """Without IS_COMPONENTS_V2: at most 5 top-level components, all action rows."""
    legacy = docs(COMPONENTS, "Legacy Message Component Behavior")
    out = []
    if len(components) > LEGACY_ROWS_MAX:
        out.append(
            Violation(
                prefix,
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {LEGACY_ROWS_MAX} or fewer in length.",
                legacy,
                LEGACY_ROWS_MAX,
            )
        )
    for i, raw in enumerate(components):
        if isinstance(raw, dict) and raw.get("type") != ACTION_ROW:
            out.append(
                Violation(
                    (*prefix, i, "type"),
                    "UNION_TYPE_CHOICES",
                    "Top-level components must be action rows without the IS_COMPONENTS_V2 flag.",
                    legacy,
                )
            )
    return out


def _row_rules(row: dict[str, Any], path: Path) -> list[Violation]:
    """An action row holds up to 5 buttons (the schema's ``maxItems``), or a single select
    menu alone."""
    items = [c for c in _list(row.get("components")) if isinstance(c, dict)]
    if len(items) > 1 and any(c.get("type") in SELECTS for c in items):
        return [
            Violation(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
                docs(COMPONENTS, "Action Row"),
            )
        ]
    return []


_BUTTON_FIELDS = ("custom_id", "url", "sku_id", "label", "emoji")


def _button_rules(b: dict[str, Any], path: Path) -> list[Violation]:
    """Which fields each button style needs and forbids (docs: Button › Button Structure)."""
    rule = docs(COMPONENTS, "Button › Button Structure")
    style = b.get("style")
    has = {k for k in _BUTTON_FIELDS if b.get(k) is not None}
    out: list[Violation] = []

    def bad(key: str, code: str, message: str) -> None:
        out.append(Violation((*path, key), code, message, rule))

    if style == LINK:
        if "url" not in has:
            bad("url", "BUTTON_COMPONENT_URL_REQUIRED", "A url is required for link buttons")
        if "custom_id" in has:
            bad(
                "custom_id",
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                "Link buttons have no custom_id",
            )
    elif style == PREMIUM:
        if "sku_id" not in has:
            bad("sku_id", "BUTTON_COMPONENT_SKU_ID_REQUIRED", "A sku_id is required")
        for key in sorted(has & {"custom_id", "label", "url", "emoji"}):
            bad(key, "BUTTON_COMPONENT_FIELD_NOT_ALLOWED", f"Premium buttons have no {key}")
    elif isinstance(style, int):
        if "custom_id" not in has:
            bad("custom_id", "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required")
        for key in sorted(has & {"url", "sku_id"}):
            bad(key, "BUTTON_COMPONENT_FIELD_NOT_ALLOWED", f"This button style has no {key}")
    if style != PREMIUM and not b.get("label") and not b.get("emoji"):
        # Discord shows a button by its label or its emoji; one of the two is needed.
        bad("label", "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji is required")
    return out


def _string_select_rules(s: dict[str, Any], path: Path) -> list[Violation]:
    """Option values of a string select are told apart by their value: no two alike."""
    out = []
    seen: set[str] = set()
    for k, raw in enumerate(_list(s.get("options"))):
        value = _text(_dict(raw).get("value"))
        if value is None:
            continue
        if value in seen:
            out.append(
                Violation(
                    (*path, "options", k, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "The specified option value is already used",
                    docs(COMPONENTS, "String Select › Select Option Structure"),
                )
            )
        seen.add(value)
    return out


def _select_count_rules(s: dict[str, Any], path: Path) -> list[Violation]:
    """``min_values`` (default 1) cannot exceed ``max_values`` (default 1)."""
    lo = s.get("min_values")
    hi = s.get("max_values")
    lo = 1 if lo is None else lo
    hi = 1 if hi is None else hi
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        return [
            Violation(
                (*path, "min_values"),
                "BASE_TYPE_BAD_INT",
                f"min_values ({lo}) must not be above max_values ({hi}).",
                docs(COMPONENTS, "String Select › String Select Structure"),
            )
        ]
    return []


def _unique_ids(walked: list[tuple[dict[str, Any], Path]]) -> list[Violation]:
    """``custom_id`` is unique among a message's components; so is a non-zero ``id``."""
    out: list[Violation] = []
    custom: set[str] = set()
    ids: set[int] = set()
    for c, path in walked:
        cid = _text(c.get("custom_id"))
        if cid is not None:
            if cid in custom:
                out.append(
                    Violation(
                        (*path, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                        docs(COMPONENTS, "Anatomy of a Component › Custom ID"),
                    )
                )
            custom.add(cid)
        num = _int(c.get("id"))
        if num:
            if num in ids:
                out.append(
                    Violation(
                        (*path, "id"),
                        "COMPONENT_ID_DUPLICATED",
                        "Component id must be unique within the message",
                        docs(COMPONENTS, "Anatomy of a Component"),
                    )
                )
            ids.add(num)
    return out


def modal_rules(data: dict[str, Any], prefix: Path = ("data",)) -> list[Violation]:
    """A modal has 1 to 5 components (the schema allows 40), unique custom_ids, and no
    disabled component."""
    out: list[Violation] = []
    components = _list(data.get("components"))
    if len(components) > MODAL_COMPONENTS_MAX:
        out.append(
            Violation(
                (*prefix, "components"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MODAL_COMPONENTS_MAX} in length.",
                docs(INTERACTIONS, "Interaction Response Object › Modal"),
                MODAL_COMPONENTS_MAX,
            )
        )
    walked = list(_walk(components, (*prefix, "components")))
    for c, path in walked:
        if c.get("disabled"):
            out.append(
                Violation(
                    (*path, "disabled"),
                    "COMPONENT_DISABLED_NOT_ALLOWED",
                    "Modals cannot have disabled components",
                    docs(COMPONENTS, "String Select › String Select Structure"),
                )
            )
    return out + _unique_ids(walked)


# ------------------------------------------------------------------ whole bodies


def create_message_rules(body: object, flags: Flags | None, prefix: Path = ()) -> list[Violation]:
    """A new message (Create Message, an interaction's message, Execute Webhook / follow-up)."""
    if not isinstance(body, dict):
        return []
    out = content_rules(body, prefix) + embed_rules(body, prefix)
    v2 = bool(_int(body.get("flags")) & IS_COMPONENTS_V2)
    out += component_rules(_list(body.get("components")), v2=v2, prefix=(*prefix, "components"))
    out += components_v2_exclusive(body, prefix)
    if flags is not None:
        out += flag_rules(body, flags, prefix)
    return out


def edit_message_rules(
    body: object, flags: Flags | None, prefix: Path = (), *, v2: bool = False
) -> list[Violation]:
    """An edit (``v2``: the message already carries IS_COMPONENTS_V2, when the caller knows)."""
    if not isinstance(body, dict):
        return []
    out = content_rules(body, prefix) + embed_rules(body, prefix)
    v2 = v2 or bool(_int(body.get("flags")) & IS_COMPONENTS_V2)
    if "components" in body:
        out += component_rules(_list(body.get("components")), v2=v2, prefix=(*prefix, "components"))
    out += components_v2_exclusive(body, prefix)
    if flags is not None:
        out += flag_rules(body, flags, prefix)
    return out


def callback_rules(body: object) -> list[Violation]:
    """An interaction response, by its callback type."""
    if not isinstance(body, dict):
        return []
    rtype = body.get("type")
    data = body.get("data")
    if not isinstance(data, dict):
        return []
    if rtype == 4:
        return create_message_rules(data, INTERACTION_MESSAGE_FLAGS, ("data",))
    if rtype == 5:
        return flag_rules(data, DEFERRED_FLAGS, ("data",))
    if rtype == 7:
        return edit_message_rules(data, INTERACTION_MESSAGE_FLAGS, ("data",))
    if rtype == 9:
        return modal_rules(data)
    return []
