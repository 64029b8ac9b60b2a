"""Run by ``test_ai_native``: computer players' decisions as JSON, compiled or not.

``python -m tests.ai.native_probe pure`` imports every ``batak`` module from its
``.py`` source (the compiled modules of ``build_native.py`` are skipped);
``native`` imports as usual; ``doctest`` runs the doctests of the compiled
modules on their sources. ``pure`` and ``native`` print the same JSON when the compiled
modules make the same decisions as the sources.
"""

from __future__ import annotations

import importlib.machinery
import json
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType


class SourceOnly:
    """A meta path finder that loads ``batak`` and its modules from ``.py`` files only."""

    @staticmethod
    def find_spec(
        name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name != "batak" and not name.startswith("batak."):
            return None
        details = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path if path is not None else sys.path:
            spec = importlib.machinery.FileFinder(entry or ".", details).find_spec(name)
            if spec is not None:
                return spec
        return None


def decisions() -> dict[str, object]:
    from batak.ai import make_player
    from batak.ai.sim import __file__ as sim_file
    from batak.deal import Deal, Phase
    from batak.rules import preset
    from batak.solver import Position, Solver

    out: dict[str, object] = {"sim": sim_file.rsplit(".", 1)[-1]}
    for name, seed in (("standard", 11), ("esli", 12)):
        rules = preset(name)
        players = [make_player("hard", seed * 4 + s, budget=0.03) for s in range(4)]
        deal = Deal.from_seed(rules, seed, seed % 4)
        actions: list[str] = []
        solved: list[int] = []
        while deal.phase is not Phase.DONE:
            if deal.phase is Phase.PLAY and not deal.trick and deal.hands[0].bit_count() == 6:
                contract = deal.contract
                assert contract is not None and contract.trump is not None
                h = deal.hands
                pos = Position(
                    rules,
                    (h[0], h[1], h[2], h[3]),
                    contract.trump,
                    deal.to_act,
                    contract.seat,
                    deal.trump_broken,
                )
                solved.append(Solver(rules, contract.trump, contract.seat).solve(pos))
            seat = deal.to_act
            action = players[seat].choose(deal.observation(seat))
            actions.append(repr(action))
            deal.apply(action)
        out[name] = {"actions": actions, "solved": solved, "scores": deal.scores}
    return out


def doctests() -> dict[str, object]:
    """The doctests of the compiled modules, run on their sources."""
    import doctest
    import importlib

    out: dict[str, object] = {}
    for name in NATIVE_MODULES:
        module = importlib.import_module(name)
        failed, attempted = doctest.testmod(module)
        out[name] = {"file": module.__file__, "failed": failed, "attempted": attempted}
    return out


NATIVE_MODULES = ("batak.play", "batak.ai.sim", "batak.solver")


def main(argv: Sequence[str]) -> int:
    if argv[1:] not in (["pure"], ["native"], ["doctest"]):
        print("usage: python -m tests.ai.native_probe pure|native|doctest", file=sys.stderr)
        return 2
    if argv[1] != "native":
        sys.meta_path.insert(0, SourceOnly())
    print(json.dumps(doctests() if argv[1] == "doctest" else decisions()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
