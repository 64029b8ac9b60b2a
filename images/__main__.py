"""``python -m images gallery OUTDIR`` and ``python -m images bench``."""

from __future__ import annotations

import argparse
import html
import io
import statistics
import sys
import time
from pathlib import Path

from PIL import Image


def gallery(outdir: Path) -> int:
    from .samples import all_samples, render_sample

    outdir.mkdir(parents=True, exist_ok=True)
    samples = all_samples()
    rows = []
    for s in samples:
        png = render_sample(s)
        path = outdir / f"{s.name}.png"
        path.write_bytes(png)
        with Image.open(io.BytesIO(png)) as im:
            size = f"{im.width}x{im.height}"
        note = f"{s.kind} · {s.theme}{' · four-colour' if s.four_colour else ''} · {s.lang}"
        print(f"{path}  {size}  {len(png) / 1024:.1f} KB")
        rows.append(
            f'<figure><img src="{html.escape(path.name)}" loading="lazy">'
            f"<figcaption>{html.escape(s.name)} — {html.escape(note)} — {size}, "
            f"{len(png) / 1024:.1f} KB</figcaption></figure>"
        )
    (outdir / "index.html").write_text(
        "<!doctype html><meta charset=utf-8><title>batak-bot images</title>"
        "<style>body{background:#777;font:14px sans-serif;display:flex;flex-wrap:wrap;gap:16px}"
        "figure{margin:0}img{max-width:480px;display:block}</style>\n" + "\n".join(rows) + "\n",
        encoding="utf-8",
    )
    print(f"{len(samples)} pictures in {outdir} (index.html shows them all)")
    return 0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def bench(n: int) -> int:
    """Render time per picture type (p50 / p95 over ``n`` renders) and PNG sizes.

    Each type cycles through all its sample states (and both themes), so the
    caches are as warm as in a running bot, where a table changes by one card.
    """
    from . import warm_up
    from .samples import Sample, all_samples, render_sample

    t0 = time.perf_counter()
    warm_up()
    ms = 1000 * (time.perf_counter() - t0)
    print(f"warm-up (palettes, backgrounds, card sprites): {ms:.0f} ms")
    by_kind: dict[str, list[Sample]] = {}
    for s in all_samples():
        by_kind.setdefault(s.kind, []).append(s)
    print(f"{'picture':<12} {'states':>6} {'p50 ms':>8} {'p95 ms':>8} {'min KB':>8} {'max KB':>8}")
    for kind, samples in by_kind.items():
        times: list[float] = []
        sizes: list[int] = []
        for i in range(n):
            s = samples[i % len(samples)]
            start = time.perf_counter()
            png = render_sample(s)
            times.append(1000 * (time.perf_counter() - start))
            sizes.append(len(png))
        print(
            f"{kind:<12} {len(samples):>6} {statistics.median(times):>8.2f} "
            f"{_percentile(times, 0.95):>8.2f} {min(sizes) / 1024:>8.1f} {max(sizes) / 1024:>8.1f}"
        )
    live(n)
    return 0


def live(n: int) -> None:
    """The table redrawn after every move of a bot match (each state new): the bot's load."""
    try:
        from batak.match import Match
        from batak.players import RuleOfThumbPlayer
        from batak.rules import preset
    except ImportError:  # pragma: no cover
        return
    from . import render_table, table_view_from_match
    from .samples import TURKISH

    match = Match(preset("standard"), seed=2024)
    bots = [RuleOfThumbPlayer(s) for s in range(4)]
    times: list[float] = []
    sizes: list[int] = []
    while not match.is_over and len(times) < n:
        start = time.perf_counter()
        png = render_table(table_view_from_match(match, TURKISH, len(times) % 4))
        times.append(1000 * (time.perf_counter() - start))
        sizes.append(len(png))
        seat = match.to_act
        assert seat is not None
        match.apply(bots[seat].choose(match.observation(seat)))
    print(
        f"{'table-live':<12} {len(times):>6} {statistics.median(times):>8.2f} "
        f"{_percentile(times, 0.95):>8.2f} {min(sizes) / 1024:>8.1f} {max(sizes) / 1024:>8.1f}"
    )
    print("table-live: the table after every move of a bot match, view and PNG included")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m images", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gallery", help="write one PNG per sample state to OUTDIR")
    g.add_argument("outdir", type=Path)
    b = sub.add_parser("bench", help="render time per picture type and PNG sizes")
    b.add_argument("-n", type=int, default=200, help="renders per picture type (default 200)")
    args = parser.parse_args(argv)
    if args.command == "gallery":
        return gallery(args.outdir)
    return bench(args.n)


if __name__ == "__main__":
    sys.exit(main())
