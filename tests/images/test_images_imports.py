"""images/ imports point one way: no cycle between its modules, nothing from cogs/."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

IMAGES = Path(__file__).resolve().parents[2] / "images"


def _imports(path: Path) -> set[str]:
    """The images modules ``path`` imports, anywhere in the file (functions included)."""
    out: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                out.add(node.module.split(".")[0])
            elif node.level == 1:  # from . import draw
                out.update(a.name for a in node.names)
            elif node.module and node.module.split(".")[0] == "images":
                parts = node.module.split(".")
                if len(parts) > 1:
                    out.add(parts[1])
                else:
                    out.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                if parts[0] == "images" and len(parts) > 1:
                    out.add(parts[1])
    return out


def _graph() -> dict[str, set[str]]:
    modules = {p.stem for p in IMAGES.glob("*.py")}
    return {
        p.stem: {m for m in _imports(p) if m in modules and m != p.stem}
        for p in IMAGES.glob("*.py")
        if p.stem not in ("__init__", "__main__")
    }


def test_the_graph_sees_the_imports() -> None:
    graph = _graph()
    assert "png" in graph["table"]
    assert "palette" in graph["png"]
    assert "draw" in graph["palette"]


def test_no_import_cycle_inside_images() -> None:
    try:
        order = list(TopologicalSorter(_graph()).static_order())
    except CycleError as exc:  # pragma: no cover - the failure message
        raise AssertionError(f"import cycle in images/: {exc.args[1]}") from exc
    assert set(order) >= {"draw", "palette", "table", "leaderboard", "png"}


def test_a_cycle_is_found() -> None:
    graph = _graph()
    graph["draw"] = graph["draw"] | {"table"}
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError:
        return
    raise AssertionError("a cycle draw -> table -> draw went unseen")


def test_images_never_import_cogs() -> None:
    for path in IMAGES.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            assert not any(n.split(".")[0] in ("cogs", "discord") for n in names), path.name
