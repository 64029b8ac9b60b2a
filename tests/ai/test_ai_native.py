"""The compiled simulator (``build_native.py``, mypyc) decides exactly as its sources.

``make test`` compiles ``batak/play.py``, ``batak/ai/sim.py`` and
``batak/solver.py`` first (and builds the solver's C search, ``batak/_solver_core.c``,
which ``tests/engine/test_engine_solver.py`` checks node for node); these tests
compare the compiled and the pure-Python modules on the same seeds and
observations, and check that no compiled module is older than its source (Python
would import the stale one).
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NATIVE = ("batak/play.py", "batak/ai/sim.py", "batak/solver.py", "batak/_solver_core.c")


def _compiled(source: str) -> list[Path]:
    stem = ROOT / source
    return [p for s in EXTENSION_SUFFIXES if (p := stem.with_suffix(s)).exists()]


def _probe(mode: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.ai.native_probe", mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_compiled_modules_are_not_older_than_their_sources() -> None:
    for source in NATIVE:
        for built in _compiled(source):
            assert built.stat().st_mtime >= (ROOT / source).stat().st_mtime, (
                f"{built.name} is older than {source}: run `make native` (or "
                "`python build_native.py clean` to use the sources)"
            )


@pytest.mark.skipif(
    not all(_compiled(s) for s in NATIVE), reason="the simulator is not compiled here"
)
def test_compiled_and_pure_python_make_the_same_decisions() -> None:
    pure = _probe("pure")
    native = _probe("native")
    assert pure.pop("sim") == "py"
    assert native.pop("sim") != "py"
    assert pure == native
    standard = native["standard"]
    assert isinstance(standard, dict) and len(standard["actions"]) > 52


def test_doctests_of_the_compiled_modules_pass_on_their_sources() -> None:
    results = _probe("doctest")
    assert set(results) == {"batak.play", "batak.ai.sim", "batak.solver"}
    for name, result in results.items():
        assert isinstance(result, dict)
        assert str(result["file"]).endswith(".py"), name
        assert result["failed"] == 0, name
    play = results["batak.play"]
    assert isinstance(play, dict) and play["attempted"] > 0
