"""The layout keeps its promises: no import cycle inside a package, no oversized
module in the Discord and storage layers, and dependencies pointing one way."""

from __future__ import annotations

import pytest

from tests.import_graph import assert_no_cycle, cycle, graph, line_counts

MAX_LINES = 600
"""A module of cogs/ or data/ longer than this holds more than one concern."""


@pytest.mark.parametrize("package", ["batak", "images", "data", "cogs", "locales"])
def test_no_import_cycle_inside_the_package(package: str) -> None:
    assert_no_cycle(package)


def test_the_walk_sees_the_imports_of_every_package() -> None:
    data, _ = graph("data")
    assert "data.matches" in data["data.store"]
    assert "data.base" in data["data.games"]
    cogs, cogs_outside = graph("cogs")
    assert "cogs.service" in cogs["cogs.text.summaries"]  # from ..service import Table
    assert "cogs.components.codec" in cogs["cogs.components"]
    assert {"batak", "data", "discord"} <= cogs_outside["cogs.batak_cog"]
    assert "locales" not in graph("locales")[0]["locales"]  # a package is not its own import


def test_a_cycle_is_found() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    found = cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}})
    assert found is not None and set(found) == {"a", "b", "c"}


@pytest.mark.parametrize("package", ["cogs", "data"])
def test_no_module_is_over_the_size_limit(package: str) -> None:
    counts = line_counts(package)
    assert counts, f"no modules found in {package}/"
    too_long = {name: n for name, n in counts.items() if n > MAX_LINES}
    assert not too_long, f"split these by concern (over {MAX_LINES} lines): {too_long}"


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [("data", {"cogs", "images", "discord"}), ("images", {"cogs", "data", "discord"})],
)
def test_dependencies_point_one_way(package: str, forbidden: set[str]) -> None:
    _, outside = graph(package)
    for name, imported in outside.items():
        assert not imported & forbidden, f"{name} imports {sorted(imported & forbidden)}"
