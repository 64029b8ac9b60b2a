"""The layout keeps its promises: no import cycle inside a package, no oversized
module in the Discord, table and storage layers, dependencies pointing one way
(batak <- images, data <- tables <- cogs <- bot; ops below tables, knowing no game),
and the module tree of the architecture page (docs/architecture.md) in step with the files."""

from __future__ import annotations

import ast
import builtins
import dataclasses
import importlib
import pkgutil
import re
import typing
from typing import Any, Protocol

import pytest

from tests.import_graph import (
    ROOT,
    assert_no_cycle,
    cycle,
    graph,
    line_counts,
    project_graph,
    reachable,
)

MAX_LINES = 600
"""A module of cogs/, tables/ or data/ longer than this holds more than one concern."""


@pytest.mark.parametrize("package", ["batak", "images", "data", "ops", "tables", "cogs", "locales"])
def test_no_import_cycle_inside_the_package(package: str) -> None:
    assert_no_cycle(package)


def test_the_walk_sees_the_imports_of_every_package() -> None:
    data, _ = graph("data")
    assert "data.matches" in data["data.store"]
    assert "data.base" in data["data.games"]
    tables, tables_outside = graph("tables")
    assert "tables.model" in tables["tables.events"]  # from .model import (...)
    assert "tables.workers" in tables["tables.play"]  # from . import workers
    assert {"batak", "data", "ops"} <= tables_outside["tables.play"]
    cogs, cogs_outside = graph("cogs")
    assert "tables" in cogs_outside["cogs.text.summaries"]  # from tables import Table
    assert "cogs.components.codec" in cogs["cogs.components"]
    assert {"batak", "data", "discord"} <= cogs_outside["cogs.settings"]
    assert "locales" not in graph("locales")[0]["locales"]  # a package is not its own import


def test_a_cycle_is_found() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    found = cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}})
    assert found is not None and set(found) == {"a", "b", "c"}


@pytest.mark.parametrize("package", ["cogs", "tables", "data"])
def test_no_module_is_over_the_size_limit(package: str) -> None:
    counts = line_counts(package)
    assert counts, f"no modules found in {package}/"
    too_long = {name: n for name, n in counts.items() if n > MAX_LINES}
    assert not too_long, f"split these by concern (over {MAX_LINES} lines): {too_long}"


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("data", {"tables", "cogs", "images", "discord"}),
        ("images", {"tables", "cogs", "data", "discord"}),
        ("tables", {"cogs", "bot", "discord"}),
        ("ops", {"batak", "images", "data", "tables", "cogs", "bot", "discord"}),
    ],
)
def test_dependencies_point_one_way(package: str, forbidden: set[str]) -> None:
    _, outside = graph(package)
    for name, imported in outside.items():
        assert not imported & forbidden, f"{name} imports {sorted(imported & forbidden)}"


def test_the_table_service_reaches_nothing_of_discord() -> None:
    """No module of tables/ imports discord, nor reaches it through another project
    module (a cogs/ module, say): the walk follows every import from tables/ and looks
    at what each module it reaches imports from outside the project."""
    edges = project_graph()
    roots = {name for name in edges if name.split(".")[0] == "tables"}
    assert {"tables", "tables.play", "tables.timers", "tables.workers"} <= roots
    reached = reachable(edges, roots)
    assert {"batak.deal", "data", "ops.metrics"} <= reached  # the walk follows the imports
    assert not {m for m in reached if m.split(".")[0] in ("cogs", "bot")}, sorted(reached)
    outside = {
        name: imported
        for package in {m.split(".")[0] for m in reached} - {"bot"}
        for name, imported in graph(package)[1].items()
    }
    assert "discord" in graph("cogs")[1]["cogs.settings"]  # the check below can see it
    found = {m: sorted(outside[m] & {"discord"}) for m in reached if "discord" in outside[m]}
    assert not found, f"tables/ reaches discord through {found}"


def test_the_cog_layer_calls_the_table_service() -> None:
    """cogs/ may (and does) import tables/: the arrow points from the Discord layer down."""
    edges = project_graph()
    assert "tables" in edges["cogs.batak_cog"]
    assert "tables" in edges["bot"]


NOT_A_MIXIN = {"object", "Protocol", "Generic"} | {
    name
    for name, v in vars(builtins).items()
    if isinstance(v, type) and issubclass(v, BaseException)
}
"""Bases that add no behaviour of the service or the store (builtin exceptions among
them: an error may also be a ``LookupError``): a class may name these besides one other."""


def _mixed_classes(source: str) -> list[str]:
    """The classes of ``source`` built from more than one base that adds behaviour."""
    mixed = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(b).rsplit(".", 1)[-1].split("[", 1)[0] for b in node.bases]
            if len([b for b in bases if b not in NOT_A_MIXIN]) > 1:
                mixed.append(f"{node.name}({', '.join(bases)})")
    return mixed


def test_the_mixin_check_sees_a_mixin() -> None:
    assert _mixed_classes("class A(B, C): pass") == ["A(B, C)"]
    assert _mixed_classes("class A(m.B, C[int]): pass") == ["A(B, C)"]
    assert _mixed_classes("class A(B, Protocol): pass\nclass E(ValueError, Exception): pass") == []
    assert _mixed_classes("class E(StoreError, LookupError): pass") == []


@pytest.mark.parametrize("package", ["tables", "data"])
def test_the_service_and_the_store_are_built_by_composition(package: str) -> None:
    """No class of tables/ or data/ inherits from more than one class that adds
    behaviour (no mixins: the service's parts are objects handed the registry, the
    store's parts objects handed the database)."""
    found = {
        str(path.relative_to(ROOT)): mixed
        for path in sorted((ROOT / package).rglob("*.py"))
        if (mixed := _mixed_classes(path.read_text(encoding="utf-8")))
    }
    assert not found, f"mixins in {package}/: {found}"


PLAIN_BASE_MODULES = {"builtins", "typing", "typing_extensions", "enum"}
"""Where a base class of a service or store class may come from, besides exceptions."""


def _foreign_bases(cls: type) -> list[str]:
    """The bases of ``cls`` that are another part's behaviour: anything but a builtin,
    a typing construct (``Protocol``, ``Generic``), an enum or an exception class."""
    return [
        f"{base.__module__}.{base.__qualname__}"
        for base in cls.__bases__
        if base.__module__ not in PLAIN_BASE_MODULES and not issubclass(base, BaseException)
    ]


def _classes_of(package: str) -> list[type]:
    """Every class defined at the top of a module of ``package`` (imported, so that a
    base reached through an alias or a re-export is seen for what it is)."""
    root = importlib.import_module(package)
    names = [package] + [
        m.name
        for m in pkgutil.walk_packages(root.__path__, package + ".")
        if not m.name.endswith(".__main__")
    ]
    classes = []
    for name in names:
        module = importlib.import_module(name)
        classes += [
            c for c in vars(module).values() if isinstance(c, type) and c.__module__ == name
        ]
    return classes


def test_the_base_check_sees_a_part_inheriting_another() -> None:
    from data.games import GameStore
    from data.models import StoreError

    class Inherits(GameStore):
        pass

    class Fails(StoreError, LookupError):
        pass

    class Listens(Protocol):
        pass

    assert _foreign_bases(Inherits) == ["data.games.GameStore"]
    assert _foreign_bases(Fails) == _foreign_bases(Listens) == _foreign_bases(str) == []


@pytest.mark.parametrize("package", ["tables", "data"])
def test_no_part_inherits_from_another(package: str) -> None:
    """Every class of tables/ and data/ stands on its own: its bases are builtins,
    typing constructs, enums or exception classes, never another part of the service
    or the store (``Store`` holds ``store.games``, ``store.matches``, ...; it is none
    of them)."""
    classes = _classes_of(package)
    names = {c.__qualname__ for c in classes}
    assert {"data": {"Store", "GameStore", "Database"}, "tables": {"TableService", "Play"}}[
        package
    ] <= names  # the walk sees the parts
    found = {c.__qualname__: bases for c in classes if (bases := _foreign_bases(c))}
    assert not found, f"classes of {package}/ that inherit another part: {found}"


# --- what the service reports ---------------------------------------------------------


def _holds(hint: Any, cls: type, seen: set[Any]) -> bool:
    """``hint`` is ``cls``, or holds it: in a union or a container's arguments, or in a
    field of a dataclass it names (followed through, each class once)."""
    if hint is cls:
        return True
    if any(_holds(arg, cls, seen) for arg in typing.get_args(hint)):
        return True
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint not in seen:
        seen.add(hint)
        hints = typing.get_type_hints(hint)
        return any(_holds(hints[f.name], cls, seen) for f in dataclasses.fields(hint))
    return False


def test_the_holds_check_sees_a_table_inside() -> None:
    from tables import ActResult, Table

    assert _holds(Table, Table, set())
    assert _holds(list[Table] | None, Table, set())
    assert _holds(ActResult, Table, set())  # a dataclass with a field typed Table


def test_every_event_is_a_frozen_snapshot_without_the_live_table() -> None:
    """Each kind of :data:`tables.events.TableEvent` is a frozen, slotted dataclass, and
    no field (nor any dataclass a field holds) is typed Table: an event says what was
    true when it was made, it does not read the table later."""
    from tables import Table, events

    kinds = typing.get_args(events.TableEvent)
    assert len(kinds) == 11, kinds
    for kind in (*kinds, events.Moment):
        assert dataclasses.is_dataclass(kind), kind
        assert kind.__dataclass_params__.frozen, f"{kind.__name__} is not frozen"  # type: ignore[attr-defined]
        assert "__slots__" in vars(kind), f"{kind.__name__} has no slots"
        hints = typing.get_type_hints(kind)
        typed_table = [
            f.name for f in dataclasses.fields(kind) if _holds(hints[f.name], Table, set())
        ]
        assert not typed_table, f"{kind.__name__} holds the live Table in {typed_table}"
        assert "at" in hints or kind is events.Moment


EVENT_LISTS = {"append", "insert", "extend", "emit"}
"""Calls that put events in a list, or hand a list of them over."""


def _lambda_events(source: str) -> list[int]:
    """The lines of ``source`` that put a lambda in a list of events (``events.append(lambda
    ...)``, ``emit([lambda ...])``): a closure run later, reading the table then."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        target = ast.unparse(node.func.value)
        if node.func.attr == "emit" or (
            node.func.attr in EVENT_LISTS and target.rsplit(".", 1)[-1].endswith("events")
        ):
            args = [*node.args, *(k.value for k in node.keywords)]
            if any(isinstance(n, ast.Lambda) for a in args for n in ast.walk(a)):
                found.append(node.lineno)
    return found


def test_the_lambda_check_sees_a_closure_event() -> None:
    assert _lambda_events("events.append(lambda: x.table_changed(t))") == [1]
    assert _lambda_events("self.events.insert(0, lambda: f(t))") == [1]
    assert _lambda_events("await self.reg.emit([lambda: f(t)])") == [1]
    assert _lambda_events("events.append(TableChanged(Moment.of(t)))") == []
    assert _lambda_events("timers.schedule(key, 1.0, lambda: fired(t))") == []


def test_the_service_makes_events_not_closures() -> None:
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "tables").rglob("*.py"))
        if (lines := _lambda_events(path.read_text(encoding="utf-8")))
    }
    assert not found, f"closures put in event lists (make an event object): {found}"


ARCHITECTURE = ROOT / "docs" / "architecture.md"


def _layout_tree() -> set[str]:
    """The module paths in the architecture page's "How the code is laid out" tree."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n## How the code is laid out\n", 1)[1]
    block = section.split("```", 2)[1]
    listed: set[str] = set()
    folder = ""
    for line in block.splitlines():
        top = re.match(r"(\S+/)\s", line)
        entry = re.match(r"  (\S+\.py)\s", line)
        if top:
            folder = top.group(1)
        elif entry:
            listed.add(folder + entry.group(1))
    return listed


def test_the_layout_tree_lists_every_module_and_only_real_ones() -> None:
    packages = ("batak", "images", "data", "locales", "ops", "tables", "cogs")
    listed = {p for p in _layout_tree() if p.split("/")[0] in packages}
    real = {
        str(path.relative_to(ROOT))
        for package in packages
        for path in (ROOT / package).rglob("*.py")
    }
    missing = {p for p in real - listed if not p.endswith("__init__.py") or p.count("/") == 1}
    missing.discard("cogs/__init__.py")
    assert not missing, f"the layout tree of {ARCHITECTURE.name} misses {sorted(missing)}"
    assert not listed - real, (
        f"the layout tree of {ARCHITECTURE.name} lists {sorted(listed - real)}"
    )


# --- one vocabulary ------------------------------------------------------------------

PARTNER_SEAT = re.compile(
    r"\(\s*[\w.\[\]]+\s*[+-]\s*2\s*\)\s*(?:%\s*4|&\s*3)\b"  # (seat + 2) % 4, (s - 2) & 3
    r"|\b\w+\s*\^\s*2\b"  # seat ^ 2
)
"""The seat across the table worked out by hand, instead of :func:`batak.play.partner`."""

PARTNER_HOME = "batak/play.py"
"""The one module that says which seat sits across (:func:`batak.play.partner`)."""


def _partner_seats() -> dict[str, list[str]]:
    """Each product file with the partner seat written out: its lines that do it."""
    found: dict[str, list[str]] = {}
    files = [ROOT / "bot.py"] + [
        path
        for package in ("batak", "images", "data", "ops", "tables", "cogs")
        for path in (ROOT / package).rglob("*.py")
    ]
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PARTNER_SEAT.search(line.split("#", 1)[0]):
                found.setdefault(str(path.relative_to(ROOT)), []).append(
                    f"{number}: {line.strip()}"
                )
    return found


def test_the_partner_pattern_sees_every_spelling() -> None:
    for spelled in ("(seat + 2) % 4", "(s+2)%4", "(obs.seat - 2) % 4", "(t[0] + 2) & 3", "k ^ 2"):
        assert PARTNER_SEAT.search(spelled), spelled
    for other in ("(leader + i) % 4", "(dealer + 1) % 4", "(seat + 2) % 13", "2 ** 2"):
        assert not PARTNER_SEAT.search(other), other


def test_the_partner_seat_is_written_out_only_where_it_is_defined() -> None:
    found = _partner_seats()
    assert list(found.get(PARTNER_HOME, [])) == [f"{_partner_line()}: return (seat + 2) % 4"]
    del found[PARTNER_HOME]
    assert not found, f"use batak.play.partner (or batak.scoring.side_tricks) instead: {found}"


def _partner_line() -> int:
    lines = (ROOT / PARTNER_HOME).read_text(encoding="utf-8").splitlines()
    start = lines.index("def partner(seat: int) -> int:")
    return next(n for n in range(start, len(lines)) if "% 4" in lines[n]) + 1


# --- experiments out of the product --------------------------------------------------

EXPERIMENTAL = "batak.ai.experimental"


def test_the_bot_never_imports_the_experimental_players() -> None:
    """The bot (``bot.py`` and every module of tables/ and cogs/, which it loads by name)
    reaches no module of batak.ai.experimental, directly or through another module."""
    edges = project_graph()
    roots = {"bot"} | {name for name in edges if name.split(".")[0] in ("tables", "cogs")}
    bot = reachable(edges, roots)
    assert "batak.ai.bots" in bot and "batak.ai.arena" not in bot  # the walk reaches the players
    assert {EXPERIMENTAL, "batak.ai.experimental.playfit"} <= reachable(edges, {"batak.ai.arena"})
    assert not {m for m in bot if m == EXPERIMENTAL or m.startswith(EXPERIMENTAL + ".")}
    for path in [ROOT / "bot.py", *(ROOT / "tables").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]:
        assert EXPERIMENTAL not in path.read_text(encoding="utf-8"), path  # nor by name
