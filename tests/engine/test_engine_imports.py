"""The engine depends on nothing outside itself (its cycle check is in tests/test_layout.py).

The imports are read by :mod:`tests.import_graph`, including the imports inside
functions, but not those under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import sys

from tests.import_graph import assert_no_cycle, graph

FORBIDDEN = (
    "images",
    "data",
    "ops",
    "tables",
    "cogs",
    "bot",
    "discord",
    "asyncio",
    "aiosqlite",
    "PIL",
)


def test_the_walk_sees_the_imports() -> None:
    inside, _ = graph("batak")
    assert "batak.play" in inside["batak.deal"]
    assert "batak.ai.sim" in inside["batak.ai.bots"]
    assert "batak.ai.arena" in inside["batak.cli"]  # imported inside a function


def test_no_import_cycle_inside_batak() -> None:
    assert_no_cycle("batak")


def test_batak_imports_only_the_standard_library() -> None:
    _, outside = graph("batak")
    for name, imported in outside.items():
        for top in imported:
            assert top not in FORBIDDEN, f"{name} imports {top}"
            assert top in sys.stdlib_module_names or top == "__future__", f"{name} imports {top}"
