"""The engine's docstrings as the API reference shows them (a Griffe extension that
``mkdocs.yml`` loads for mkdocstrings).

The docstrings are written for ``help()`` and for pytest's doctests: Sphinx-style roles
(``:class:`~batak.deal.Observation```) and ``>>>`` examples in the prose. Markdown reads
neither: a role shows its colons, an example's ``>>>`` starts a quotation and a list in
its output looks like a link reference. Before the page is made, each role becomes inline
code (the name as the role shows it: after a ``~``, its last part) and each run of
example lines a fenced ``pycon`` block. The docstrings themselves are not changed.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`(~?)([^`]+)`")
"""A Sphinx cross-reference role: ``:kind:`target``` or ``:kind:`~target```."""


def _role(match: re.Match[str]) -> str:
    short, target = match.group(1), match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


def markdown(text: str) -> str:
    """``text`` with its roles as inline code and its examples fenced (an example runs
    from its first ``>>>`` line to the next blank line)."""
    out: list[str] = []
    example: list[str] = []
    for line in ROLE.sub(_role, text).split("\n"):
        if example and line.strip():
            example.append(line)
            continue
        if example:
            out += ["```pycon", *example, "```"]
            example = []
        if line.lstrip().startswith(">>>"):
            example.append(line)
        else:
            out.append(line)
    if example:
        out += ["```pycon", *example, "```"]
    return "\n".join(out)


class DocstringsAsMarkdown(griffe.Extension):
    """Rewrites every docstring of the loaded objects with :func:`markdown`."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
