"""Reading a bot's Prometheus ``/metrics`` from a bench: a histogram's buckets, the
difference of two readings, and a quantile from buckets as Prometheus computes it."""

from __future__ import annotations

import math
import socket
from collections.abc import Sequence

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

# (upper bound "le", observations at or below it): cumulative, by rising bound, +Inf last
Buckets = list[tuple[float, float]]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (for a bot's METRICS_PORT)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def scrape(port: int, timeout: float = 10.0) -> str:
    """The text of ``http://127.0.0.1:{port}/metrics``."""
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        response.raise_for_status()
        return await response.text()


def _samples(text: str, name: str, kind: str, suffix: str) -> list[Sample]:
    """The samples ``name + suffix`` (``_bucket``, ``_total``) of the metric ``name`` of type
    ``kind`` in a ``/metrics`` text; empty when it is not there."""
    for family in text_string_to_metric_families(text):
        if family.name == name and family.type == kind:
            return [s for s in family.samples if s.name == name + suffix]
    return []


def histogram(text: str, name: str) -> Buckets:
    """The buckets of histogram ``name`` in a ``/metrics`` text, all its labels together
    (a histogram by level: every level's observations); empty when it is not there."""
    total: dict[float, float] = {}
    for s in _samples(text, name, "histogram", "_bucket"):
        le = float(s.labels["le"])
        total[le] = total.get(le, 0.0) + float(s.value)
    return sorted(total.items())


def counter(text: str, name: str, **labels: str) -> float:
    """The value of counter ``name`` in a ``/metrics`` text, summed over the samples whose
    labels include ``labels`` (none given: all of them); 0.0 when it is not there.
    ``counter(text, "batak_moves", actor="bot")``: the moves computers made."""
    return sum(
        (
            float(s.value)
            for s in _samples(text, name, "counter", "_total")
            if all(s.labels.get(k) == v for k, v in labels.items())
        ),
        0.0,
    )


def counter_by(text: str, name: str, label: str) -> dict[str, float]:
    """Counter ``name`` in a ``/metrics`` text by the values of its ``label`` (summed over
    its other labels): ``counter_by(text, "batak_pictures_drawn", "kind")``."""
    out: dict[str, float] = {}
    for s in _samples(text, name, "counter", "_total"):
        if label in s.labels:
            out[s.labels[label]] = out.get(s.labels[label], 0.0) + float(s.value)
    return out


def minus(after: Buckets, before: Buckets) -> Buckets:
    """What was observed between two readings of one histogram."""
    if not before:
        return list(after)
    was = dict(before)
    return [(le, n - was.get(le, 0.0)) for le, n in after]


def combined(parts: Sequence[Buckets]) -> Buckets:
    """The histograms of several processes as one (same buckets)."""
    total: dict[float, float] = {}
    for part in parts:
        for le, n in part:
            total[le] = total.get(le, 0.0) + n
    return sorted(total.items())


def count(buckets: Buckets) -> int:
    return int(buckets[-1][1]) if buckets else 0


def quantile(q: float, buckets: Buckets) -> float:
    """The ``q`` quantile (0..1) of the observations, interpolated linearly inside
    the bucket where it falls (Prometheus's ``histogram_quantile``); the highest finite
    bound when it falls in the +Inf bucket; 0.0 with no observations."""
    total = count(buckets)
    if total == 0:
        return 0.0
    rank = q * total
    lower, below = 0.0, 0.0
    for le, n in buckets:
        if n >= rank:
            if math.isinf(le):
                return lower
            if n == below:
                return le
            return lower + (le - lower) * (rank - below) / (n - below)
        lower, below = le, n
    return lower
