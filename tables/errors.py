"""What the service refuses: a message id of the catalogues and its parameters."""

from __future__ import annotations

from typing import Any

from batak import Refusal


class ServiceError(Exception):
    """A request the service refuses; ``key`` is a message id of the catalogues."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key} {params}" if params else key)
        self.key = key
        self.params = params


class StaleAction(ServiceError):
    """The button was made for an earlier move (a double click, an old message)."""

    def __init__(self, current: int) -> None:
        super().__init__("error.stale", move=current)
        self.current = current


class IllegalMove(ServiceError):
    """The engine refused the action; ``refusal`` is its reason (a code and values),
    the ``reason`` parameter of ``error.illegal``: the cogs word it in the reader's
    language (its ``str()`` is the engine's English)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__("error.illegal", reason=refusal)
        self.refusal = refusal
