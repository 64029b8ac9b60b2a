"""Doctest collection: a module that ``build_native.py`` compiled is skipped here.

pytest would import the compiled module for ``batak/play.py`` (say) and refuse it as
not the file it collected; and a compiled function keeps no doctest to run. Their
doctests run on the ``.py`` sources in ``tests/ai/test_ai_native.py`` instead.
"""

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

_ROOT = Path(__file__).resolve().parent
_NATIVE = ("batak/play.py", "batak/ai/sim.py", "batak/solver.py")

collect_ignore = [
    source
    for source in _NATIVE
    if any((_ROOT / source).with_suffix(suffix).exists() for suffix in EXTENSION_SUFFIXES)
]
