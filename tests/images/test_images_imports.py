"""images/ imports point one way: no cycle between its modules, nothing from cogs/.

The graph is read by :mod:`tests.import_graph` (the same walk as for the other packages).
"""

from __future__ import annotations

from tests.import_graph import assert_no_cycle, graph


def test_the_graph_sees_the_imports() -> None:
    inside, _ = graph("images")
    assert "images.png" in inside["images.table"]
    assert "images.palette" in inside["images.png"]
    assert "images.draw" in inside["images.palette"]


def test_no_import_cycle_inside_images() -> None:
    assert_no_cycle("images")


def test_images_never_import_cogs() -> None:
    _, outside = graph("images")
    for name, imported in outside.items():
        assert not imported & {"tables", "cogs", "discord"}, name
