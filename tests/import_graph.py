"""The import graph of one of the project's packages, read with ``ast`` (shared by the
layout tests of batak/, images/, data/, ops/, tables/, cogs/ and locales/).

Every import is seen, also those inside functions (a cycle hidden in a function is
still a cycle), but not those under ``if TYPE_CHECKING:``, which never run.
Relative imports are resolved; ``from package import name`` counts as an import
of ``package.name`` when that is a module, else of ``package``.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The project root (where batak/, images/, data/, ops/, tables/, cogs/ and locales/ are)."""


def module_name(path: Path) -> str:
    """``tables/play.py`` -> ``tables.play``; a package's ``__init__``
    is the package itself."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> dict[str, Path]:
    """Every module of ``package`` (sub-packages included), by dotted name."""
    return {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.AST, package: str, known: dict[str, Path]) -> list[str]:
    """Every module name imported in ``tree``, a module of ``package``."""
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
                out.append(sub if sub in known else module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def graph(package: str) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The edges inside ``package`` (module -> modules of ``package`` it imports)
    and, per module, the top-level names of everything else it imports."""
    known = modules(package)
    inside: dict[str, set[str]] = {}
    outside: dict[str, set[str]] = {}
    for name, path in known.items():
        parent = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        inside[name] = set()
        outside[name] = set()
        for imported in imports(tree, parent, known):
            if imported in known:
                if imported != name:
                    inside[name].add(imported)
            elif imported.split(".")[0] != package:
                outside[name].add(imported.split(".")[0])
    return inside, outside


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``edges`` (``[a, b, a]``), or None when there is none."""
    try:
        TopologicalSorter(edges).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return None


def assert_no_cycle(package: str) -> None:
    found = cycle(graph(package)[0])
    assert found is None, f"import cycle in {package}/: {' -> '.join(found or [])}"


def line_counts(package: str) -> dict[str, int]:
    """The number of lines of every module of ``package``."""
    return {
        name: len(path.read_text(encoding="utf-8").splitlines())
        for name, path in modules(package).items()
    }


PROJECT = ("batak", "images", "data", "ops", "tables", "cogs", "locales")
"""The project's packages; with ``bot.py`` they are the whole program."""


def project_graph() -> dict[str, set[str]]:
    """Every module of the project (``bot`` included) -> the project modules it imports.

    Importing ``a.b.c`` runs ``a`` and ``a.b`` first, so those count as imported too."""
    known = {name: path for package in PROJECT for name, path in modules(package).items()}
    known["bot"] = ROOT / "bot.py"
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        parent = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges[name] = set()
        for imported in imports(tree, parent, known):
            parts = imported.split(".")
            for n in range(1, len(parts) + 1):
                prefix = ".".join(parts[:n])
                if prefix in known and prefix != name:
                    edges[name].add(prefix)
    return edges


def reachable(edges: dict[str, set[str]], roots: set[str]) -> set[str]:
    """The modules ``roots`` import, directly or through others (the roots included)."""
    seen = set(roots)
    todo = list(roots)
    while todo:
        for nxt in edges.get(todo.pop(), set()) - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen
