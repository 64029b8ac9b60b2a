"""Computer players from an earlier git revision, for the arena (``hard@REV``).

``python -m batak arena --baseline hard@abc1234`` measures today's code against
the player of commit ``abc1234``: :func:`revision_trees` checks that revision out
into a temporary ``git worktree`` (removed afterwards, so no old copy lives in
the tree) and :class:`RevisionPlayer` asks a process running there
(:mod:`batak.ai.revision_child`) for each decision, sending the seat's
observation as JSON and getting the action back. One such process serves all
the players of a revision in one arena process (and one per worker with
``--jobs``). The old revision needs today's engine API (see the child's doc).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from batak.deal import Action, Observation, format_action, parse_action

_ROOT = Path(__file__).resolve().parents[2]
_CHILD = Path(__file__).resolve().with_name("revision_child.py")

_TREES: dict[str, Path] = {}
"""Revision name as given (``abc1234``) → its temporary worktree, while one is open."""

_SERVERS: dict[tuple[str, int], _Server] = {}
"""(revision, process id) → the process answering for it in this process."""


class RevisionError(RuntimeError):
    """A revision that cannot be seated: unknown to git, or its player failed."""


def split_kind(kind: str) -> tuple[str, str | None]:
    """``"hard@abc"`` → ``("hard", "abc")``; ``"hard"`` → ``("hard", None)``.

    >>> split_kind("hard@HEAD~1")
    ('hard', 'HEAD~1')
    >>> split_kind("normal")
    ('normal', None)
    """
    level, sep, rev = kind.partition("@")
    return (level, rev) if sep else (level, None)


def observation_to_json(obs: Observation) -> dict[str, Any]:
    """The seat's observation as JSON values (read back by the revision child)."""
    contract = obs.contract
    return {
        "seat": obs.seat,
        "rules": obs.rules.to_dict(),
        "dealer": obs.dealer,
        "phase": obs.phase.value,
        "hand": obs.hand,
        "to_act": obs.to_act,
        "legal": [format_action(a) for a in obs.legal],
        "calls": [[seat, bid] for seat, bid in obs.calls],
        "high_bid": obs.high_bid,
        "contract": None
        if contract is None
        else {
            "seat": contract.seat,
            "bid": contract.bid,
            "forced": contract.forced,
            "trump": None if contract.trump is None else int(contract.trump),
        },
        "trump": None if obs.trump is None else int(obs.trump),
        "trump_broken": obs.trump_broken,
        "trick_leader": obs.trick_leader,
        "trick": list(obs.trick),
        "tricks": [
            {"leader": t.leader, "cards": list(t.cards), "winner": t.winner, "legal": list(t.legal)}
            for t in obs.tricks
        ],
        "tricks_won": list(obs.tricks_won),
        "hand_sizes": list(obs.hand_sizes),
        "played": obs.played,
        "scores": None if obs.scores is None else list(obs.scores),
    }


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(_ROOT), *args], capture_output=True, text=True, check=False
        )
    except FileNotFoundError:
        raise RevisionError("seating an earlier revision needs git") from None
    if done.returncode != 0:
        raise RevisionError(f"git {' '.join(args)}: {done.stderr.strip() or 'failed'}")
    return done.stdout.strip()


@contextmanager
def revision_trees(kinds: Sequence[str], compile_native: bool = False) -> Iterator[None]:
    """Check out every revision named in ``kinds`` (``level@rev``) into a temporary
    worktree for the duration; unknown revisions raise :class:`RevisionError`.

    ``compile_native``: run the revision's own ``build_native.py`` (if it has one)
    in its worktree, so it plays at its compiled speed; a failed build leaves its
    pure-Python modules, which decide the same."""
    revs = sorted({rev for kind in kinds if (rev := split_kind(kind)[1]) is not None})
    made: list[tuple[str, Path, Path]] = []
    try:
        for rev in revs:
            if not rev:
                raise RevisionError("give a revision after '@', e.g. hard@HEAD~1")
            commit = _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
            base = Path(tempfile.mkdtemp(prefix="batak-rev-"))
            tree = base / commit[:12]
            _git("worktree", "add", "--detach", str(tree), commit)
            made.append((rev, base, tree))
            if compile_native and (tree / "build_native.py").exists():
                with open(base / "build.log", "w", encoding="utf-8") as log:
                    subprocess.run(
                        [sys.executable, "build_native.py"],
                        cwd=tree,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        check=False,
                    )
            _TREES[rev] = tree
        yield
    finally:
        for key in [k for k in _SERVERS if k[0] in revs]:
            _SERVERS.pop(key).close()
        for rev, base, tree in made:
            _TREES.pop(rev, None)
            with suppress(RevisionError):
                _git("worktree", "remove", "--force", str(tree))
            shutil.rmtree(base, ignore_errors=True)
        if made:
            with suppress(RevisionError):
                _git("worktree", "prune")


class _Server:
    """The child process answering for one revision."""

    def __init__(self, rev: str, tree: Path) -> None:
        self.rev = rev
        env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
        code = "import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, str(_CHILD)],
            cwd=tree,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        hello = self._read()
        where = str(hello.get("batak", ""))
        if not hello.get("ready") or not where.startswith(str(tree)):
            self.close()
            raise RevisionError(f"{rev}: the player process imported batak from {where!r}")

    def _read(self) -> dict[str, Any]:
        out: IO[str] | None = self.proc.stdout
        assert out is not None
        line = out.readline()
        if not line:
            raise RevisionError(f"{self.rev}: the player process ended")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        inp = self.proc.stdin
        assert inp is not None
        inp.write(json.dumps(message) + "\n")
        inp.flush()
        answer = self._read()
        if "error" in answer:
            raise RevisionError(f"{self.rev}: {answer['error']}")
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _server(rev: str) -> _Server:
    key = (rev, os.getpid())
    server = _SERVERS.get(key)
    if server is None:
        tree = _TREES.get(rev)
        if tree is None:
            raise RevisionError(f"{rev}: no worktree open (use revision_trees)")
        server = _SERVERS[key] = _Server(rev, tree)
    return server


class RevisionPlayer:
    """A player of an earlier revision, e.g. ``RevisionPlayer("hard@abc", seed=3)``,
    inside :func:`revision_trees`. It sends only the seat's observation."""

    def __init__(self, kind: str, seed: int | None = 0, budget: float | None = None) -> None:
        level, rev = split_kind(kind)
        if rev is None:
            raise ValueError(f"{kind!r} names no revision (expected level@rev)")
        self.name = kind
        self._server = _server(rev)
        message = {"op": "new", "kind": level, "seed": seed, "budget": budget}
        self._id = int(self._server.request(message)["id"])

    def choose(self, observation: Observation) -> Action:
        message = {"op": "choose", "id": self._id, "observation": observation_to_json(observation)}
        action = parse_action(str(self._server.request(message)["action"]))
        if action not in observation.legal:
            raise RevisionError(f"{self.name} chose {format_action(action)}, not a legal action")
        return action

    def close(self) -> None:
        """Let the revision's process forget this player."""
        self._server.request({"op": "drop", "id": self._id})


__all__ = [
    "RevisionError",
    "RevisionPlayer",
    "observation_to_json",
    "revision_trees",
    "split_kind",
]
