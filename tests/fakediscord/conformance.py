"""Would the real Discord accept what the bot sent? An audit apart from the fake's refusals.

The fake Discord refuses what Discord refuses, but the bot may swallow a refusal (many of
its edits and clean-ups ignore an ``HTTPException``), and a test goes on green. So every
request the real bot sends during the end-to-end tests is also written down as it arrived
(:class:`Capture`: method, path, status served, the JSON body or a multipart request's
``payload_json``, the files' sizes) and validated again afterwards, on its own, against
Discord's published OpenAPI specification and the documented rules that the
specification does not carry (:func:`discordspec.validate_request`). The report counts
the requests checked per route and lists every violation.

    python -m tests.fakediscord.conformance DIR [DIR ...]   # captures of earlier runs
    python -m tests.fakediscord.conformance --match         # play full matches, then check

``make test`` runs the end-to-end suite with ``BATAK_CONFORMANCE_DIR`` set (see
``tests/conftest.py``): the captures land there and the run fails on any violation.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import discordspec

ENV = "BATAK_CONFORMANCE_DIR"
_files = count()


class Capture:
    """One fake's requests, a JSON object per line, in ``directory``."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / f"requests-{os.getpid()}-{next(_files)}.jsonl"
        self._file = self.path.open("a", encoding="utf-8")

    def write(self, method: str, path: str, status: int, body: Any, file_sizes: list[int]) -> None:
        record = {"method": method, "path": path, "status": status, "body": body}
        if file_sizes:
            record["files"] = file_sizes
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def capture_from_env() -> Capture | None:
    """A capture in ``$BATAK_CONFORMANCE_DIR`` when the variable is set."""
    directory = os.environ.get(ENV)
    return Capture(Path(directory)) if directory else None


@dataclass
class Finding:
    method: str
    path: str
    status: int
    violation: discordspec.Violation

    def line(self) -> str:
        where = "/".join(str(p) for p in self.violation.path) or "(body)"
        return (
            f"{self.method} {route_of(self.path)} (served {self.status}): {where}: "
            f"{self.violation.code} {self.violation.message} [{self.violation.rule}]"
        )


@dataclass
class Report:
    requests: int = 0
    with_body: int = 0
    routes: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [
            f"Discord conformance: {self.requests} requests ({self.with_body} with a body) "
            f"over {len(self.routes)} routes, {len(self.findings)} violation(s)"
        ]
        width = max((len(r) for r in self.routes), default=0)
        for route, n in sorted(self.routes.items()):
            refused = self.refused.get(route, 0)
            note = f"  ({refused} answered 4xx by the fake)" if refused else ""
            out.append(f"  {route:<{width}}  {n:>6}{note}")
        out.extend("  VIOLATION " + f.line() for f in self.findings[:50])
        if len(self.findings) > 50:
            out.append(f"  ... and {len(self.findings) - 50} more")
        return out


def route_of(path: str) -> str:
    """The route a path belongs to, with its ids as placeholders (for counting)."""
    from .server import _route_template

    return _route_template(path.split("?", 1)[0])


def records(paths: Iterable[Path]) -> Iterator[dict[str, Any]]:
    for p in paths:
        files = sorted(p.glob("*.jsonl")) if p.is_dir() else [p]
        for f in files:
            with f.open(encoding="utf-8") as lines:
                for line in lines:
                    if line.strip():
                        yield json.loads(line)


def check(paths: Iterable[Path]) -> Report:
    """Validate every captured request again, apart from what the fake answered."""
    report = Report()
    for r in records(paths):
        method, path, status, body = r["method"], r["path"], int(r["status"]), r.get("body")
        route = f"{method} {route_of(path)}"
        report.requests += 1
        report.routes[route] += 1
        if 400 <= status < 500:
            report.refused[route] += 1
        if body is None:
            continue
        report.with_body += 1
        for v in discordspec.validate_request(method, path.split("?", 1)[0], body):
            report.findings.append(Finding(method, path, status, v))
    return report


async def play_matches(directory: Path, *, tables: int, deals: int) -> None:
    """Full matches of four people each through the real bot, every request captured."""
    from .bench import BatakTableScript, run_bench

    os.environ[ENV] = str(directory)
    result = await run_bench(
        tables=tables,
        script=BatakTableScript(deals=deals),
        think=0.0,
        warmup=0,
        ramp=0.0,
        metrics=False,
        patience=60.0,
    )
    print(
        f"played {result.tables} full match(es) of {deals} deal(s): {result.moves} moves, "
        f"{result.failed_interactions} failed interactions, {result.lost_moves} lost moves"
    )
    if result.failed_interactions or result.lost_moves or result.duplicated_moves:
        raise SystemExit("the matches did not play through; see the lines above")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="*", type=Path, help="capture directories or files")
    ap.add_argument("--match", action="store_true", help="play full matches first")
    ap.add_argument("--tables", type=int, default=2, help="with --match: tables at once")
    ap.add_argument("--deals", type=int, default=2, help="with --match: deals per match")
    args = ap.parse_args(argv)
    dirs: list[Path] = list(args.dirs)
    if args.match:
        scratch = Path(tempfile.mkdtemp(prefix="batak-conformance-"))
        asyncio.run(play_matches(scratch, tables=args.tables, deals=args.deals))
        dirs.append(scratch)
    if not dirs:
        ap.error("name a capture directory, or --match")
    report = check(dirs)
    print("\n".join(report.lines()))
    if report.requests == 0:
        print("no request was captured", file=sys.stderr)
        return 1
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
