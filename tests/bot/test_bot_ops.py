"""The operator's view on its own: JSON log lines, the rate-limited error webhook (posting
to the fake Discord's webhook endpoint), /healthz and /metrics, and the new settings."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping

import aiohttp
import pytest

from cogs.config import ConfigError, load_config
from ops import ErrorWebhook, HealthCheck, JsonFormatter, Metrics, OpsServer, RateLimit
from tests.fakediscord.driver import Driver


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def record(
    msg: str, *, exc: BaseException | None = None, name: str = "batak.test"
) -> logging.LogRecord:
    exc_info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    return logging.LogRecord(name, logging.ERROR, __file__, 1, msg, (), exc_info)


def boom() -> ValueError:
    try:
        raise ValueError("the table broke")
    except ValueError as exc:
        return exc


def test_json_lines_are_one_object_each_with_the_exception() -> None:
    f = JsonFormatter({"shards": [1]})
    line = f.format(record("table %s\nfailed", exc=boom()))
    assert "\n" not in line
    obj = json.loads(line)
    assert obj["level"] == "ERROR" and obj["logger"] == "batak.test"
    assert obj["message"] == "table %s\nfailed" and obj["shards"] == [1]
    assert "ValueError: the table broke" in obj["exception"]
    assert obj["time"].endswith("+00:00")


def test_rate_limit_allows_n_per_sliding_minute() -> None:
    clock = FakeClock()
    limit = RateLimit(3, clock)
    assert [limit.allow() for _ in range(5)] == [True, True, True, False, False]
    clock.now += 59.9
    assert not limit.allow()
    clock.now += 0.1
    assert [limit.allow() for _ in range(4)] == [True, True, True, False]
    with pytest.raises(ValueError):
        RateLimit(0)


async def test_errors_reach_the_owner_webhook_rate_limited_with_the_suppressed_count() -> None:
    async with Driver() as d:
        guild = d.create_guild("Ops")
        url = d.fake.create_webhook(d.channel(guild))
        clock = FakeClock()
        hook = ErrorWebhook(url, per_minute=2, context="(shards 0)", clock=clock)
        hook.start()
        try:
            hook.handle(record("first", exc=boom()))
            for i in range(4):
                hook.handle(record(f"storm {i}"))
            hook.handle(logging.LogRecord("x", logging.WARNING, __file__, 1, "warn", (), None))
            await hook.drain()
            assert [p["content"].splitlines()[1] for p in d.fake.webhook_posts] == [
                "first",
                "storm 0",
            ]
            first = d.fake.webhook_posts[0]
            assert first["content"].startswith("**ERROR** `batak.test` (shards 0)")
            assert "ValueError: the table broke" in first["content"]
            assert first["allowed_mentions"] == {"parse": []}
            assert hook.suppressed == 3
            clock.now += 60
            hook.handle(record("after the storm"))
            await hook.drain()
            last = d.fake.webhook_posts[-1]["content"]
            assert "after the storm" in last and "(3 more error(s) not posted" in last
            assert hook.suppressed == 0 and hook.posted == 3
            # the messages are in the channel, as Discord shows a webhook's posts
            shown = [m for m in d.messages(d.channel(guild)) if "webhook_id" in m.data]
            assert len(shown) == 3
        finally:
            await hook.close_async()


async def test_a_webhook_with_a_wrong_token_is_logged_not_posted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with Driver() as d:
        url = d.fake.create_webhook(d.channel(d.create_guild()))
        hook = ErrorWebhook(url + "x", per_minute=5)
        hook.start()
        try:
            with caplog.at_level(logging.WARNING, "ops.logs"):
                hook.handle(record("lost"))
                await hook.drain()
        finally:
            await hook.close_async()
        assert hook.posted == 0 and not d.fake.webhook_posts
        assert "error webhook answered 401" in caplog.text


async def _get(port: int, path: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as s, s.get(f"http://127.0.0.1:{port}{path}") as r:
        return r.status, r.headers.get("Content-Type", ""), await r.text()


async def test_healthz_names_each_check_and_metrics_are_prometheus_text() -> None:
    metrics = Metrics()
    state: dict[str, object] = {"db": None, "shards": {"0": True, "1": True}}

    async def database() -> None:
        if state["db"] is not None:
            raise state["db"]  # type: ignore[misc]  # an exception set by the test

    def shards() -> Mapping[str, bool]:
        return state["shards"]  # type: ignore[return-value]  # set by the test

    health = HealthCheck(
        gateway=shards, database=database, workers=lambda: {"drawing": True}, metrics=metrics
    )
    server = OpsServer(
        health, port=0, metrics=metrics, before_scrape=[lambda: metrics.open_tables.set(7)]
    )
    port = await server.start()
    try:
        status, ctype, body = await _get(port, "/healthz")
        assert status == 200 and ctype.startswith("application/json")
        obj = json.loads(body)
        assert obj["ok"] is True
        assert obj["checks"] == {"gateway": True, "database": True, "workers": True}
        state["db"] = OSError("connection refused")
        state["shards"] = {"0": True, "1": False}
        status, _, body = await _get(port, "/healthz")
        obj = json.loads(body)
        assert status == 503 and obj["checks"] == {
            "gateway": False,
            "database": False,
            "workers": True,
        }
        assert obj["details"]["gateway"] == "shard(s) down: 1"
        assert "connection refused" in obj["details"]["database"]
        metrics.moves.labels("player").inc(3)
        status, ctype, text = await _get(port, "/metrics")
        assert status == 200 and ctype.startswith("text/plain")
        assert "batak_open_tables 7.0" in text
        assert 'batak_moves_total{actor="player"} 3.0' in text
        assert "batak_database_seconds_count 1.0" in text  # only the good probe is timed
        for name in (
            "batak_interaction_ack_seconds_bucket",
            "batak_discord_rate_limited_total",
            "batak_worker_restarts",
            "batak_store_commit_seconds_bucket",
        ):
            assert name in text
    finally:
        await server.close()


def test_shard_and_operator_settings() -> None:
    base = {"DISCORD_TOKEN": "t"}
    c = load_config(base)
    assert c.shard_count is None and c.shard_ids is None and c.owns_guild(12345 << 22)
    assert c.runs_shard_zero and c.log_format == "text" and c.metrics_port is None
    c = load_config({**base, "SHARD_COUNT": "4", "SHARD_IDS": "3, 1"})
    assert c.shard_ids == (1, 3) and not c.runs_shard_zero
    assert [c.owns_guild(ms << 22) for ms in range(4)] == [False, True, False, True]
    c = load_config(
        {
            **base,
            "LOG_FORMAT": "JSON",
            "METRICS_PORT": "9108",
            "METRICS_HOST": "0.0.0.0",
            "ERROR_WEBHOOK_URL": "https://discord.com/api/webhooks/1/abc",
            "ERROR_WEBHOOK_PER_MINUTE": "10",
        }
    )
    assert (c.log_format, c.metrics_port, c.metrics_host) == ("json", 9108, "0.0.0.0")
    assert c.error_webhook_url and c.error_webhook_per_minute == 10
    for bad, says in [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "a"}, "separated by commas"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT"),
        ({"METRICS_PORT": "70000"}, "METRICS_PORT"),
        ({"ERROR_WEBHOOK_URL": "discord.com/x"}, "ERROR_WEBHOOK_URL"),
        ({"ERROR_WEBHOOK_PER_MINUTE": "0"}, "ERROR_WEBHOOK_PER_MINUTE"),
    ]:
        with pytest.raises(ConfigError, match=says):
            load_config({**base, **bad})
