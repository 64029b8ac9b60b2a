"""The README stays short and its links land; the API reference's docstring rewriting
(docs/griffe_docstrings.py) turns roles and examples into Markdown. The site itself is
checked by ``make docs`` (``mkdocs build --strict``: links, anchors, docstrings)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_LIMIT = 15_000
"""Bytes: what it is, a picture, the two commands, token and invite, links. The rest is
in docs/."""


def _griffe_docstrings() -> ModuleType:
    path = ROOT / "docs" / "griffe_docstrings.py"
    spec = importlib.util.spec_from_file_location("griffe_docstrings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_short() -> None:
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes; move detail into docs/"


def test_every_relative_link_of_the_readme_lands() -> None:
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert any(t.startswith("docs/") for t in local)
    missing = [t for t in local if not (ROOT / t).exists()]
    assert missing == []


def test_sphinx_roles_become_inline_code() -> None:
    markdown = _griffe_docstrings().markdown
    text = "A :class:`~batak.deal.Observation`, :func:`batak.ai.make_player` and :mod:`x`."
    assert markdown(text) == "A `Observation`, `batak.ai.make_player` and `x`."
    assert markdown("a :unknown:`role` stays") == "a :unknown:`role` stays"


def test_examples_are_fenced_up_to_the_blank_line() -> None:
    markdown = _griffe_docstrings().markdown
    text = "Before.\n\n>>> f(\n...     1)\n['AS', '3S']\n\nAfter.\n>>> last()"
    assert markdown(text).split("\n") == [
        "Before.",
        "",
        "```pycon",
        ">>> f(",
        "...     1)",
        "['AS', '3S']",
        "```",
        "",
        "After.",
        "```pycon",
        ">>> last()",
        "```",
    ]


def test_the_first_make_run_says_what_it_is_doing() -> None:
    """The venv and the compiled simulator take minutes the first time: each of those recipes
    begins by printing what it does, so a first `make run` is never silent."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("$(VENV)/.installed:", "$(VENV)/.native:"):
        recipe = makefile.split("\n" + target, 1)[1].split("\n\n", 1)[0].splitlines()[1:]
        assert recipe and recipe[0].lstrip().startswith("@echo "), (target, recipe[:1])
