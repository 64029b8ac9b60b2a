"""Seating a player from a git revision in the arena (``hard@REV``)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from batak.ai import make_player
from batak.ai.arena import run_arena
from batak.ai.revision import RevisionError, observation_to_json, revision_trees, split_kind
from batak.cli import main
from batak.deal import Deal, Phase
from batak.rules import preset

ROOT = Path(__file__).resolve().parents[2]


def _has_git_checkout() -> bool:
    if shutil.which("git") is None:
        return False
    done = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "HEAD"], capture_output=True, check=False
    )
    return done.returncode == 0


needs_git = pytest.mark.skipif(not _has_git_checkout(), reason="not a git checkout")


def _child() -> Any:
    spec = importlib.util.spec_from_file_location(
        "revision_child", ROOT / "batak" / "ai" / "revision_child.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["standard", "esli", "classic"])
def test_observations_cross_the_protocol_unchanged(name: str) -> None:
    child = _child()
    rules = preset(name)
    deal = Deal.from_seed(rules, 41, 1)
    players = [make_player("easy", s) for s in range(4)]
    seen = 0
    while deal.phase is not Phase.DONE:
        for seat in range(4):
            obs = deal.observation(seat)
            assert child._observation(observation_to_json(obs)) == obs
            seen += 1
        deal.apply(players[deal.to_act].choose(deal.observation(deal.to_act)))
    final = deal.observation(2)
    assert child._observation(observation_to_json(final)) == final
    assert seen > 4 * 52


def test_a_child_whose_arena_stopped_reading_ends_quietly() -> None:
    """An SPRT that decides stops the arena while a child may still be answering: the
    child's write then meets a closed pipe, and it ends with status 0, no traceback."""

    class Closed:
        def __init__(self) -> None:
            self.lines: list[str] = []

        def write(self, text: str) -> None:
            if self.lines:  # the "ready" line went; the arena is gone since
                raise BrokenPipeError(32, "Broken pipe")
            self.lines.append(text)

        def flush(self) -> None:
            pass

    requests = ['{"op": "new", "kind": "random", "seed": 1, "budget": 0.01}\n'] * 2
    assert _child().serve(iter(requests), Closed()) == 0


def test_split_kind() -> None:
    assert split_kind("hard@abc123") == ("hard", "abc123")
    assert split_kind("easy") == ("easy", None)


@needs_git
def test_a_revision_player_plays_like_the_same_level_here() -> None:
    # 'random' at HEAD is this tree's random player: every deal must tie exactly,
    # and the worktree must be gone afterwards.
    before = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True, check=True
    ).stdout
    res = run_arena(preset("standard"), "random", "random@HEAD", 2, seed=4)
    assert res.baseline == "random@HEAD"
    assert res.mean_diff == 0.0 and res.deals == 2
    assert res.base_times
    after = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True, check=True
    ).stdout
    assert after == before


@needs_git
def test_an_unknown_revision_is_refused_by_name() -> None:
    with (
        pytest.raises(RevisionError, match="no-such-revision"),
        revision_trees(["hard@no-such-revision"]),
    ):
        pass


@needs_git
def test_arena_command_reports_a_bad_revision(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--baseline", "hard@no-such-revision", "--deals", "1"])
    assert code == 2
    assert "no-such-revision" in capsys.readouterr().err


def test_arena_command_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--baseline", "grandmaster@HEAD", "--deals", "1"])
    assert "'grandmaster' is not a level" in capsys.readouterr().err
