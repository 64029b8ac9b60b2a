"""What a refusal looks like: one :class:`Violation` per broken rule, Discord's nested
``errors`` tree built from them, and a one-line account of each for a person."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Violation:
    """One rule a request body breaks.

    ``path`` leads from the body's root to the offending value (list indexes as ints),
    ``code`` and ``message`` are what Discord puts in its ``errors`` tree, and ``rule``
    names where the rule comes from: ``"openapi: <schema> / <keyword>"`` for Discord's
    published schema, ``"docs: <file> › <section>"`` for its developer documentation (files
    under ``developers/`` of discord-api-docs). ``limit`` is the bound that was crossed,
    when there is one (``describe`` names it)."""

    path: Path
    code: str
    message: str
    rule: str
    limit: int | float | None = field(default=None, compare=False)


def form_errors(violations: Iterable[Violation]) -> dict[str, Any]:
    """Discord's ``errors`` object of a 50035 "Invalid Form Body" answer: one level per
    path element (indexes as strings), ``_errors`` lists at the leaves."""
    tree: dict[str, Any] = {}
    for v in violations:
        node = tree
        for key in v.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": v.code, "message": v.message})
    return tree


_TOO_HIGH = {"NUMBER_TYPE_MAX"}
_TOO_LOW = {"NUMBER_TYPE_MIN"}


def describe(violation: Violation, commands: Sequence[dict[str, Any]] | None = None) -> str:
    """One line for a person. Given the command list the violation is about, the command,
    subcommand and option are named instead of counted::

        /batak watch, option 'table': max_value 999999999999999999 is over Discord's
        limit 9007199254740991 (openapi: Int53Type / maximum)
    """
    where, rest, value, found = _locate(violation.path, commands)
    field_name = ".".join(str(p) for p in rest) if rest else ""
    if found and violation.limit is not None and violation.code in _TOO_HIGH | _TOO_LOW:
        side = "over" if violation.code in _TOO_HIGH else "under"
        what = f"{field_name} {value!r} is {side} Discord's limit {violation.limit}"
    else:
        what = f"{field_name}: {violation.message}" if field_name else violation.message
    head = f"{where}: " if where else ""
    return f"{head}{what} ({violation.rule})"


def _locate(
    path: Path, commands: Sequence[dict[str, Any]] | None
) -> tuple[str, Path, object, bool]:
    """(who, the rest of the path, the value at the path, whether the value was found)."""
    if commands is None or not path or not isinstance(path[0], int):
        where = ".".join(str(p) for p in path[:-1]) if len(path) > 1 else ""
        return (f"at {where}" if where else ""), path[-1:], None, False
    index = path[0]
    if not 0 <= index < len(commands) or not isinstance(commands[index], dict):
        return f"command #{index}", path[1:], None, False
    node: Any = commands[index]
    words = [f"/{node.get('name', '?')}"]
    option = ""
    i = 1
    while i + 1 < len(path) and path[i] == "options" and isinstance(path[i + 1], int):
        options = node.get("options") if isinstance(node, dict) else None
        k = path[i + 1]
        if not isinstance(options, list) or not isinstance(k, int) or not 0 <= k < len(options):
            break
        node = options[k]
        if not isinstance(node, dict):
            break
        if node.get("type") in (1, 2):
            words.append(str(node.get("name", "?")))
        else:
            option = f"option {node.get('name', '?')!r}"
        i += 2
    rest = path[i:]
    value: Any = node
    found = True
    for key in rest:
        in_dict = isinstance(value, dict) and isinstance(key, str) and key in value
        in_list = isinstance(value, list) and isinstance(key, int) and 0 <= key < len(value)
        if in_dict or in_list:
            value = value[key]
        else:
            found = False
            break
    who = " ".join(words) + (f", {option}" if option else "")
    return who, rest, value, found
