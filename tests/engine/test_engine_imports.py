"""The engine's imports form no cycle, and it depends on nothing outside itself.

The imports are read with ``ast`` from every module of ``batak/``, including the
imports inside functions (a cycle hidden in a function is still a cycle), but
not those under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
import sys
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import batak

ROOT = Path(batak.__file__).parent
FORBIDDEN = ("images", "data", "cogs", "bot", "discord", "asyncio", "aiosqlite", "PIL")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, package: str, modules: dict[str, Path]) -> list[str]:
    """Every module name imported in ``tree`` (relative imports resolved). For
    ``from package import name`` that is ``package.name`` when it is a module,
    else ``package``."""
    out: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            out.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                out.append(sub if sub in modules else module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def _graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Inside edges (batak module -> batak modules) and outside imports per module."""
    modules = _modules()
    inside: dict[str, set[str]] = {}
    outside: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        inside[name] = set()
        outside[name] = set()
        for imported in _imports(tree, package, modules):
            if imported in modules:
                if imported != name:
                    inside[name].add(imported)
            elif not imported.startswith("batak."):
                outside[name].add(imported.split(".")[0])
    return inside, outside


def test_the_walk_sees_the_imports() -> None:
    inside, _ = _graph()
    assert "batak.play" in inside["batak.deal"]
    assert "batak.ai.sim" in inside["batak.ai.bots"]
    assert "batak.ai.arena" in inside["batak.cli"]  # imported inside a function


def test_no_import_cycle_inside_batak() -> None:
    inside, _ = _graph()
    try:
        TopologicalSorter(inside).prepare()
    except CycleError as exc:
        raise AssertionError(f"import cycle: {' -> '.join(exc.args[1])}") from None


def test_a_cycle_would_be_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}}
    try:
        TopologicalSorter(graph).prepare()
    except CycleError:
        return
    raise AssertionError("graphlib missed a cycle")


def test_batak_imports_only_the_standard_library() -> None:
    _, outside = _graph()
    for name, imported in outside.items():
        for top in imported:
            assert top not in FORBIDDEN, f"{name} imports {top}"
            assert top in sys.stdlib_module_names or top == "__future__", f"{name} imports {top}"
