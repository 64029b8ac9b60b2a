"""Prometheus metrics and the operator's HTTP port (``/metrics``, ``/healthz``).

:data:`METRICS` is the bot's one set of metrics (its own registry, so tests and a second
bot in one process do not collide). The game layer counts moves and worker restarts
directly; :func:`discord_trace` counts Discord's 429s and times the acknowledgement of
every interaction (from its arrival on the gateway to Discord's answer to the callback)
on discord.py's own HTTP session. :class:`OpsServer` serves the registry and a health
check on 127.0.0.1 by default.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace

import aiohttp
from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

log = logging.getLogger(__name__)

# Acknowledgement latency: Discord allows 3 s; the buckets are finer below one second.
ACK_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)
DB_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
# A move's commit: finer, so that a p99 read from the buckets is close to the truth.
COMMIT_BUCKETS = (
    *(0.0005, 0.001, 0.0015, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.015, 0.02),
    *(0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0, 5.0),
)
# A computer's decision, wall clock: the hard level's guard stops thinking 1.5 s after it
# was asked (at a table, waiting for the worker included).
DECISION_BUCKETS = (
    *(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5),
    *(0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0),
)


class Metrics:
    """Every metric the bot exports, on one registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.open_tables = Gauge(
            "batak_open_tables", "Tables in the lobby or in play in this process", registry=r
        )
        self.moves = Counter(
            "batak_moves", "Moves committed, by who made them", ["actor"], registry=r
        )
        self.ai_decisions = Counter(
            "batak_ai_decisions", "Computer moves thought out, by level", ["level"], registry=r
        )
        self.ai_decisions_cut = Counter(
            "batak_ai_decisions_cut",
            "Computer moves whose thinking the wall-clock guard cut short (a starved CPU)",
            ["level"],
            registry=r,
        )
        self.ai_decision = Histogram(
            "batak_ai_decision_seconds",
            "Seconds from asking the thinking worker for a computer's move to its answer "
            "(queueing for the worker included), by level",
            ["level"],
            buckets=DECISION_BUCKETS,
            registry=r,
        )
        self.ai_move_wait = Histogram(
            "batak_ai_move_wait_seconds",
            "Seconds a computer's move waited for its thinking once it was due (it thinks "
            "while its delay runs, so mostly none), by level",
            ["level"],
            buckets=DECISION_BUCKETS,
            registry=r,
        )
        self.ack_latency = Histogram(
            "batak_interaction_ack_seconds",
            "Seconds from an interaction's arrival to Discord's answer to its acknowledgement",
            buckets=ACK_BUCKETS,
            registry=r,
        )
        self.discord_429 = Counter(
            "batak_discord_rate_limited", "HTTP 429 answers from Discord", registry=r
        )
        self.discord_held = Counter(
            "batak_discord_requests_held",
            "Requests held back as they left so that no second sends more than the bot's "
            "part of Discord's global limit (cogs.budget.SendWindow)",
            registry=r,
        )
        self.pictures = Counter(
            "batak_pictures_drawn",
            "Pictures the drawing worker drew (not those taken from the pictures drawn "
            "lately), by kind: table, auction, hand, deal_summary, match_result...",
            ["kind"],
            registry=r,
        )
        self.worker_restarts = Counter(
            "batak_worker_restarts", "Worker processes replaced after dying", ["worker"], registry=r
        )
        self.db_latency = Histogram(
            "batak_database_seconds",
            "Seconds a database round trip (the health probe) takes",
            buckets=DB_BUCKETS,
            registry=r,
        )

        self.store_commit = Histogram(
            "batak_store_commit_seconds",
            "Seconds committing one move to the store (waiting for a connection included)",
            buckets=COMMIT_BUCKETS,
            registry=r,
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)


METRICS = Metrics()

_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


def discord_trace(
    metrics: Metrics = METRICS, clock: Callable[[], float] = time.perf_counter
) -> tuple[aiohttp.TraceConfig, Callable[[int], None]]:
    """A trace for discord.py's HTTP session (``Client(http_trace=...)``) and the function
    to call when an interaction arrives (with its id). Counts 429s; observes the
    acknowledgement latency when the callback of an interaction seen arriving returns."""
    arrived: dict[int, float] = {}

    def interaction_arrived(interaction_id: int) -> None:
        if len(arrived) > 10_000:  # never acknowledged ones must not pile up
            arrived.clear()
        arrived[interaction_id] = clock()

    async def on_request_end(
        session: aiohttp.ClientSession, ctx: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        status = params.response.status
        if status == 429:
            metrics.discord_429.inc()
        m = _CALLBACK.search(params.url.path)
        if m is not None and status < 400:
            start = arrived.pop(int(m.group(1)), None)
            if start is not None:
                metrics.ack_latency.observe(clock() - start)

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace, interaction_arrived


@dataclass(slots=True)
class Health:
    """What ``/healthz`` says: every check by name, and whether all passed."""

    checks: dict[str, bool] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(self.checks.values())

    def to_json(self) -> dict[str, object]:
        return {"ok": self.ok, "checks": self.checks, "details": self.details}


@dataclass(slots=True)
class HealthCheck:
    """The checks: gateway connected, database reachable (a timed round trip, also
    observed as :attr:`Metrics.db_latency`), workers alive, and, when ``storage`` is
    given, no storage outage going on (it returns None while the storage answers, else
    "down since ..."; see ``data.outage``: a full disk still answers the probe's read,
    but refuses every move)."""

    gateway: Callable[[], Mapping[str, bool]]
    database: Callable[[], Awaitable[object]]
    workers: Callable[[], Mapping[str, bool]]
    metrics: Metrics = METRICS
    database_timeout: float = 3.0
    storage: Callable[[], str | None] | None = None

    async def probe_database(self) -> tuple[bool, str]:
        start = time.perf_counter()
        try:
            await asyncio.wait_for(self.database(), self.database_timeout)
        except TimeoutError:
            return False, f"no answer within {self.database_timeout:g} s"
        except Exception as exc:
            return False, f"{type(exc).__name__}: {exc}"
        elapsed = time.perf_counter() - start
        self.metrics.db_latency.observe(elapsed)
        return True, f"{elapsed * 1000:.1f} ms"

    async def run(self) -> Health:
        h = Health()
        shards = dict(self.gateway())
        h.checks["gateway"] = bool(shards) and all(shards.values())
        h.details["gateway"] = _which(shards, "shard")
        h.checks["database"], h.details["database"] = await self.probe_database()
        if self.storage is not None:
            down = self.storage()
            h.checks["storage"] = down is None
            h.details["storage"] = "up" if down is None else down
        workers = dict(self.workers())
        h.checks["workers"] = all(workers.values())
        h.details["workers"] = _which(workers, "worker")
        return h


def _which(states: Mapping[str, bool], what: str) -> str:
    if not states:
        return f"no {what} connected yet"
    down = [k for k, ok in states.items() if not ok]
    return f"{what}(s) down: {', '.join(down)}" if down else f"all up: {', '.join(states)}"


class OpsServer:
    """``GET /metrics`` (Prometheus text format) and ``GET /healthz`` (200 or 503 with a
    JSON body naming each check) on ``host:port``; ``port=0`` picks a free port."""

    def __init__(
        self,
        health: HealthCheck,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        metrics: Metrics = METRICS,
        before_scrape: Iterable[Callable[[], None]] = (),
    ) -> None:
        self.health = health
        self.host = host
        self.port = port
        self.metrics = metrics
        self.before_scrape = list(before_scrape)
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        for s in self._runner.addresses:
            self.port = int(s[1])
            break
        log.info("operator port: http://%s:%d/metrics and /healthz", self.host, self.port)
        return self.port

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        for update in self.before_scrape:
            update()
        return web.Response(
            body=self.metrics.render(), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def _healthz(self, request: web.Request) -> web.Response:
        h = await self.health.run()
        return web.Response(
            status=200 if h.ok else 503,
            text=json.dumps(h.to_json()),
            content_type="application/json",
        )
