"""Types of the C search of :class:`batak.solver.Solver` (``batak/_solver_core.c``)."""

from collections.abc import Sequence

class Core:
    nodes: int
    limit: int
    @property
    def size(self) -> int: ...
    def __init__(
        self, trump: int, side: Sequence[bool], overtake: bool, lead_rule: int
    ) -> None: ...
    def search(
        self,
        h0: int,
        h1: int,
        h2: int,
        h3: int,
        trick: Sequence[int],
        leader: int,
        broken: bool,
        need: int,
        /,
    ) -> int: ...
