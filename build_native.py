"""Compile the simulator's typed modules with mypyc, and the solver's C search,
next to their sources.

``make run`` and ``make test`` run this once after installing (it needs mypy,
pinned in ``pyproject.toml``, and the machine's C compiler). The ``.py``
files stay the definition: a compiled module is the same code, and Python
falls back to the source when no compiled module is there (or when
``python build_native.py clean`` removed them). A test checks that both make
the same decisions.
"""

from __future__ import annotations

import platform
import sys
from pathlib import Path

MODULES = ["batak/play.py", "batak/ai/sim.py", "batak/solver.py"]
"""The compiled modules: the play rules, the simulator and the exact solver."""

C_SEARCH = "batak/_solver_core.c"
"""The exact solver's search written in C (``batak.solver`` uses it when built)."""

ROOT = Path(__file__).resolve().parent


def clean() -> None:
    """Remove the compiled modules (Python then imports the sources)."""
    for pattern in ("batak/**/*.so", "*__mypyc*.so"):
        for path in ROOT.glob(pattern):
            path.unlink()
            print(f"removed {path.relative_to(ROOT)}")


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import Distribution, Extension  # type: ignore[import-untyped]  # no stubs

    extensions = mypycify(MODULES, opt_level="3", target_dir="build/mypyc")
    flags = ["-O2", "-std=c99"]
    if platform.machine() in ("x86_64", "AMD64"):
        flags.append("-mpopcnt")  # every x86-64 CPU since 2008; else gcc calls a slow helper
    extensions.append(Extension("batak._solver_core", [C_SEARCH], extra_compile_args=flags))
    dist = Distribution(
        {
            "name": "batak-native",
            "ext_modules": extensions,
            "script_name": "build_native.py",
            "script_args": ["build_ext", "--inplace", "--build-temp", "build/temp"],
        }
    )
    dist.parse_command_line()
    dist.run_commands()
    # build_ext copies an unchanged module with its old time stamp: mark every compiled
    # module as built now, so that a test can tell a stale one by its age.
    for pattern in ("batak/**/*.so", "*__mypyc*.so"):
        for path in ROOT.glob(pattern):
            path.touch()


def main(argv: list[str]) -> int:
    if argv[1:] == ["clean"]:
        clean()
        return 0
    if argv[1:]:
        print("usage: python build_native.py [clean]", file=sys.stderr)
        return 2
    build()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
