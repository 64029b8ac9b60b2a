"""The terminal game (`batak play`), driven by a scripted person at its prompts."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest

from batak import cli
from batak.rules import preset


def scripted(answers: Callable[[str], str], limit: int = 400) -> Callable[[str], str]:
    """An ``input`` that answers each prompt with ``answers(prompt)``, at most ``limit`` times."""
    asked = 0

    def ask(prompt: str) -> str:
        nonlocal asked
        asked += 1
        if asked > limit:
            raise AssertionError(f"the game kept asking: {prompt!r}")
        return answers(prompt)

    return ask


def spades_holder(prompt: str) -> str:
    """Bid 13 (the contract is ours), name spades, then play the first legal card."""
    if prompt.startswith("Your bid"):
        return "13"
    if prompt.startswith("You hold the contract"):
        return "S"
    return "1"


def played(seed: int) -> str:
    """What the terminal showed over one deal played by :func:`spades_holder`."""
    out = io.StringIO()
    ui = cli.Terminal(out, scripted(spades_holder), color=False)
    cli.play_terminal(preset("standard", deals=1), seed, "easy", ui)
    return out.getvalue()


def test_spades_show_as_trump_not_as_a_question_mark() -> None:
    text = played(7)
    # spades are suit 0: a truthiness test once printed "trump ?" for them
    assert "trump ♠" in text
    assert "trump ?" not in text.split("You name ♠")[1]
    assert "You name ♠ Spades as trump" in text


def test_the_person_is_echoed_and_the_verbs_agree() -> None:
    text = played(11)
    assert "You bid 13" in text
    assert re.search(r"^You play \S+$", text, re.M), "the person's own card is not echoed"
    assert "You wins" not in text and "You takes" not in text
    assert re.search(r"→ (You take|(Right|Partner|Across|Left) takes) the trick", text)
    assert "You take the trick" in text or "takes the trick" in text


@pytest.mark.parametrize("stop", ["q", "quit", "eof"])
def test_stopping_is_a_normal_end(stop: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def answers(prompt: str) -> str:
        if stop == "eof":
            raise EOFError
        return stop

    out = io.StringIO()
    monkeypatch.setattr("builtins.input", scripted(answers))
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["play", "--seed", "3", "--no-color"]) == 0
    assert "Bye. (seed 3" in out.getvalue()
