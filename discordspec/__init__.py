"""Discord's own rules for what a bot sends, as a package: ``validate_request`` checks a
request body against Discord's published OpenAPI schema and the rules its developer
documentation states that the schema does not carry.

``openapi.json`` is Discord's OpenAPI 3.1 description of the v10 HTTP API, from the
public repository ``discord/discord-api-spec`` at commit 74fda0f (2026-07-18), copied
unchanged and pinned: it changes only when someone copies a newer one on purpose. It comes
under the MIT licence in ``LICENSE`` beside it. The documented rules cite their source in
``discord/discord-api-docs`` (files under ``developers/``), section by section.

No Discord client and no event loop here: plain functions over parsed JSON.

>>> [v.code for v in check_commands([{"name": "Batak", "description": "Play"}])]
['APPLICATION_COMMAND_INVALID_NAME']
"""

from __future__ import annotations

from .requests import check_commands, validate_request
from .violations import Violation, describe, form_errors

__all__ = ["Violation", "check_commands", "describe", "form_errors", "validate_request"]
