"""Discord's global rate limit, as the fake enforces it.

discord/discord-api-docs, developers/topics/rate-limits.mdx:

* › Global Rate Limit: "All bots can make up to 50 requests per second to our API. If no
  authorization header is provided, then the limit is applied to the IP address. This is
  independent of any individual rate limit on a route." The limit belongs to the bot (its
  token), not to a connection: every shard process of one bot draws on the same 50.
* › Global Rate Limit: "Interaction endpoints are not bound to the bot's Global Rate
  Limit." Those are the endpoints of interactions/receiving-and-responding.mdx › Endpoints:
  Create Interaction Response (``POST /interactions/{id}/{token}/callback``) and the
  webhook routes of the interaction token (``/webhooks/{application.id}/{token}...``: the
  original response, follow-ups, their edits and deletes).
* › Header Format and › Exceeding A Rate Limit › Example Exceeded Global Rate Limit
  Response: 429 with ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global``,
  ``Retry-After``, and the body ``{"message", "retry_after", "global": true}``.

The documentation does not say how the second is counted. The fake counts fixed windows
of one second per bot token: the first request opens a window, the 51st inside it is
answered 429 with ``retry_after`` = the time left in the window, and the window's end
frees the whole budget at once, so that every request discord.py held back (it stops all
requests of the client on a global 429 and sleeps ``retry_after``) can go on at the next
try. Requests refused with a global 429 do not use the budget; every other request
(answered 2xx, 4xx or a route 429) does.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

GLOBAL_LIMIT = 50
"""Requests per second per bot token (rate-limits.mdx › Global Rate Limit)."""
GLOBAL_WINDOW = 1.0
"""Seconds of one window of the global limit."""

_INTERACTION_CALLBACK = re.compile(r"^/interactions/\d+/[^/]+/callback$")
_WEBHOOK = re.compile(r"^/webhooks/(\d+)/[^/]+(/.*)?$")


def is_interaction_endpoint(sub: str, application_id: int) -> bool:
    """Whether a request path (after ``/api/v10``) is one of the interaction endpoints the
    global limit leaves out: the callback, or a webhook route of an interaction token
    (whose webhook id is the application's id). An owner webhook's routes are not."""
    if _INTERACTION_CALLBACK.match(sub):
        return True
    m = _WEBHOOK.match(sub)
    return m is not None and int(m.group(1)) == application_id


def global_route(method: str, sub: str) -> str:
    """A request's route with its ids replaced, as the global-limit counts name it
    (``PATCH /channels/{id}/messages/{id}``, ``POST /webhooks/{webhook}/{token}``)."""
    s = re.sub(r"^/webhooks/\d+/[^/]+", "/webhooks/{webhook}/{token}", sub)
    return f"{method} " + re.sub(r"\d{5,}", "{id}", s)


@dataclass
class GlobalRateLimit:
    """The budget of each bot token (or, for requests without one, each IP address):
    ``limit`` requests per ``window`` seconds, fixed windows."""

    limit: int = GLOBAL_LIMIT
    window: float = GLOBAL_WINDOW
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)
    """Who -> (start of the current window, requests counted in it)."""
    counted: Counter[str] = field(default_factory=Counter)
    """Requests counted against the limit, by route (:func:`global_route`)."""
    refused: Counter[str] = field(default_factory=Counter)
    """Requests answered with a global 429, by route."""

    def take(self, who: str, route: str, now: float) -> float | None:
        """Count one request of ``who`` at ``now``: None when it is within the budget,
        else the seconds until the window ends (the 429's ``retry_after``)."""
        start, used = self.windows.get(who, (now, 0))
        if now - start >= self.window:
            start, used = now, 0
        if used >= self.limit:
            self.refused[route] += 1
            return max(0.001, start + self.window - now)
        self.windows[who] = (start, used + 1)
        self.counted[route] += 1
        return None


def who_is(authorization: str, remote: str | None) -> str:
    """Whose budget a request draws on: its bot token, else its IP address."""
    if authorization.startswith("Bot "):
        return "token " + authorization[4:]
    return f"ip {remote or '?'}"
