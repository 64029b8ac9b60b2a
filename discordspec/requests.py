"""A request body against everything known about its route: the spec's schema, then the
documented rules of that route."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import commands as command_rules
from . import messages, openapi
from .violations import Violation

Rules = Callable[[object], list[Violation]]

_BULK_GLOBAL = "/applications/{application_id}/commands"
_BULK_GUILD = "/applications/{application_id}/guilds/{guild_id}/commands"


def _bulk_global(body: object) -> list[Violation]:
    return command_rules.bulk_rules(body, guild=False)


def _bulk_guild(body: object) -> list[Violation]:
    return command_rules.bulk_rules(body, guild=True)


def _create(flags: messages.Flags) -> Rules:
    return lambda body: messages.create_message_rules(body, flags)


def _edit(flags: messages.Flags | None) -> Rules:
    return lambda body: messages.edit_message_rules(body, flags)


ROUTE_RULES: dict[tuple[str, str], Rules] = {
    ("PUT", _BULK_GLOBAL): _bulk_global,
    ("PUT", _BULK_GUILD): _bulk_guild,
    ("POST", _BULK_GLOBAL): command_rules.command_rules,
    ("POST", _BULK_GUILD): command_rules.command_rules,
    ("PATCH", _BULK_GLOBAL + "/{command_id}"): command_rules.command_rules,
    ("PATCH", _BULK_GUILD + "/{command_id}"): command_rules.command_rules,
    ("POST", "/channels/{channel_id}/messages"): _create(messages.CREATE_MESSAGE_FLAGS),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): _edit(None),
    (
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
    ): messages.callback_rules,
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): _create(messages.FOLLOWUP_FLAGS),
    (
        "PATCH",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    ): _edit(messages.EDIT_WEBHOOK_MESSAGE_FLAGS),
    (
        "PATCH",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    ): _edit(messages.EDIT_WEBHOOK_MESSAGE_FLAGS),
}
"""The documented rules per route (method, OpenAPI path template). Execute Webhook is
checked as a follow-up (EPHEMERAL allowed): the route serves both, and only the caller
knows whose token it is; :data:`messages.EXECUTE_WEBHOOK_FLAGS` is the stricter set for a
channel webhook."""


def validate_request(method: str, path: str, body: object) -> list[Violation]:
    """Everything Discord would refuse in ``body`` sent as ``method path``.

    ``path`` as sent after ``/api/v10``, with real ids (``"/channels/123/messages"``);
    ``body`` the parsed JSON (for multipart requests, the parsed ``payload_json``). An
    unknown route, or one without a request body in the spec, gives ``[]``."""
    route = openapi.match(method, path)
    if route is None or not openapi.has_body_schema(route):
        return []
    found = openapi.schema_violations(route, body)
    rules = ROUTE_RULES.get((route.method, route.template))
    if rules is not None:
        found += rules(body)
    return _dedupe(found)


def check_commands(commands: list[dict[str, Any]]) -> list[Violation]:
    """A bulk command registration (the body of ``PUT /applications/{id}/commands``):
    the schema and the documented rules."""
    route = openapi.Route("PUT", _BULK_GLOBAL)
    return _dedupe(openapi.schema_violations(route, commands) + _bulk_global(commands))


def _dedupe(found: list[Violation]) -> list[Violation]:
    """One report per place and code (the schema and a documented rule can both catch the
    same thing, e.g. content over 2000 characters on a route whose schema says 2000)."""
    kept: dict[tuple[tuple[str | int, ...], str], Violation] = {}
    for v in found:
        key = (v.path, v.code)
        old = kept.get(key)
        if old is None:
            kept[key] = v
        elif v.limit is not None and old.limit is not None and abs(v.limit) < abs(old.limit):
            kept[key] = v  # the tighter of two limits is the one that binds
    return list(kept.values())
