"""``python -m images gallery OUTDIR``, ``bench``, ``replay RECORDS OUT`` and ``replay-bench``."""

from __future__ import annotations

import argparse
import html
import io
import statistics
import sys
import time
from pathlib import Path

from PIL import Image


def replay_pictures() -> list[tuple[str, str, bytes]]:
    """The ``/batak replay`` animated file of a finished deal played by computers, as
    ``(name, note, PNG bytes)`` (its frames are samples: ``replay-frame-*``)."""
    from .replay import render_replay
    from .samples import ReplayFrameView, replay_samples

    first = next(replay_samples()).view
    assert isinstance(first, ReplayFrameView)
    return [("replay-animated", "replay · animated PNG (APNG)", render_replay(first.replay))]


def gallery(outdir: Path) -> int:
    from .samples import all_samples, render_sample

    outdir.mkdir(parents=True, exist_ok=True)
    samples = all_samples()
    pictures = [
        (
            s.name,
            f"{s.kind} · {s.theme}{' · four-colour' if s.four_colour else ''} · {s.lang}",
            render_sample(s),
        )
        for s in samples
    ]
    pictures += replay_pictures()
    rows = []
    for name, note, png in pictures:
        path = outdir / f"{name}.png"
        path.write_bytes(png)
        with Image.open(io.BytesIO(png)) as im:
            size = f"{im.width}x{im.height}"
        print(f"{path}  {size}  {len(png) / 1024:.1f} KB")
        rows.append(
            f'<figure><img src="{html.escape(path.name)}" loading="lazy">'
            f"<figcaption>{html.escape(name)} — {html.escape(note)} — {size}, "
            f"{len(png) / 1024:.1f} KB</figcaption></figure>"
        )
    (outdir / "index.html").write_text(
        "<!doctype html><meta charset=utf-8><title>batak-bot images</title>"
        "<style>body{background:#777;font:14px sans-serif;display:flex;flex-wrap:wrap;gap:16px}"
        "figure{margin:0}img{max-width:480px;display:block}</style>\n" + "\n".join(rows) + "\n",
        encoding="utf-8",
    )
    print(f"{len(pictures)} pictures in {outdir} (index.html shows them all)")
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


def replay(path: Path, out: Path, deal: int, names: list[str], fmt: str, theme: str) -> int:
    """Write the animated replay of deal ``deal`` (1-based) of a JSON Lines record file."""
    import json

    from batak.records import RecordError, loads

    from .replay import render_replay, replay_view

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return 2
    try:
        loads(text)  # every record checked: a bad one is named by its line
    except RecordError as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return 2
    lines = [line for line in text.splitlines() if line.strip()]
    if not 1 <= deal <= len(lines):
        print(f"error: --deal {deal}: the file holds {len(lines)} deal(s)", file=sys.stderr)
        return 2
    start = time.perf_counter()
    view = replay_view(json.loads(lines[deal - 1]), names)
    data = render_replay(view, theme, fmt=fmt)
    out.write_bytes(data)
    ms = 1000 * (time.perf_counter() - start)
    kind = "APNG" if fmt == "png" else "GIF"
    print(f"{out}: {kind}, {len(view.frames)} frames, {len(data) / 1024:.0f} KB, {ms:.0f} ms")
    return 0


def replay_bench(n: int) -> int:
    """Render time and file size of the replay of 13-trick bot-played deals."""
    from batak.cli import selfplay_records
    from batak.rules import preset

    from .replay import render_replay, replay_view

    records = selfplay_records(preset("standard"), n, 7, ["easy"] * 4)
    names = ["Ayşe", "Mehmet", "Şule", "Emre"]
    render_replay(replay_view(records[0], names))  # warm the caches
    for fmt in ("png", "gif"):
        times: list[float] = []
        walls: list[float] = []
        sizes: list[int] = []
        for record in records:
            start = time.process_time()
            wall = time.perf_counter()
            data = render_replay(replay_view(record, names), fmt=fmt)
            times.append(1000 * (time.process_time() - start))
            walls.append(1000 * (time.perf_counter() - wall))
            sizes.append(len(data))
        print(
            f"replay {fmt.upper():<4} {len(records)} deals of 13 tricks (16 frames): "
            f"CPU p50 {statistics.median(times):.0f} ms, max {max(times):.0f} ms "
            f"(wall p50 {statistics.median(walls):.0f} ms); "
            f"size p50 {statistics.median(sizes) / 1024:.0f} KB, max {max(sizes) / 1024:.0f} KB"
        )
    return 0


def _names_arg(text: str) -> list[str]:
    names = text.split(",")
    if len(names) != 4:
        raise argparse.ArgumentTypeError("give four names separated by commas")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m images", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gallery", help="write one PNG per sample state to OUTDIR")
    g.add_argument("outdir", type=Path)
    b = sub.add_parser("bench", help="render time per picture type and PNG sizes")
    b.add_argument("-n", type=int, default=200, help="renders per picture type (default 200)")
    r = sub.add_parser("replay", help="the animated replay (APNG or GIF) of a recorded deal")
    r.add_argument("records", type=Path, help="a JSON Lines file of batak-deal/1 records")
    r.add_argument("out", type=Path, help="the file to write")
    r.add_argument("--deal", type=int, default=1, help="which record, from 1 (default 1)")
    r.add_argument(
        "--names",
        type=_names_arg,
        default=["", "", "", ""],
        help="four seat names, comma-separated (default Seat 1..4)",
    )
    r.add_argument("--gif", action="store_true", help="write a GIF instead of an APNG")
    r.add_argument("--theme", choices=("dark", "light"), default="dark")
    rb = sub.add_parser("replay-bench", help="replay render time and file size")
    rb.add_argument("-n", type=int, default=5, help="deals to render (default 5)")
    args = parser.parse_args(argv)
    if args.command == "gallery":
        return gallery(args.outdir)
    if args.command == "replay":
        fmt = "gif" if args.gif else "png"
        return replay(args.records, args.out, args.deal, args.names, fmt, args.theme)
    if args.command == "replay-bench":
        return replay_bench(max(1, args.n))
    return bench(args.n)


if __name__ == "__main__":
    sys.exit(main())
