"""The bench harness, driven through the echo bot (the real bot plugs in the same way)."""

from __future__ import annotations

import json

import pytest
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from .bench import busy_loops, main
from .scrape import combined, count, counter, counter_by, histogram, minus, quantile


def test_bench_measures_latency_throughput_and_memory(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--echo", "--tables", "3", "--moves", "4", "--think", "0.01", "--ramp", "0", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tables"] == 3 and out["moves"] == 12
    assert out["interactions"] == 15  # one /echo say per table, then the moves
    assert 0 < out["ack_p50_ms"] <= out["ack_p99_ms"] <= out["ack_max_ms"] < 1000
    assert out["moves_per_second"] > 0
    assert out["lost_moves"] == out["duplicated_moves"] == out["failed_interactions"] == 0
    assert out["rss_idle_bytes"] > 10 * 2**20 and out["rss_active_bytes"] >= out["rss_idle_bytes"]
    assert out["unhandled_routes"] == 0
    # the echo bot answers every press through the interaction endpoints: nothing of the
    # measured tables counts against the global limit; one budget (the bot's token)
    assert out["discord_calls"] >= 15 and out["discord_calls_per_move"] > 1
    assert out["global_limited_calls"] == out["global_calls_per_move"] == 0
    assert out["global_calls_by_route"] == {} and out["global_budgets"] == 1
    assert out["served_429"] == out["served_429_global"] + out["served_429_route"] == 0
    assert out["start_tables"] == 0 and out["start_to_picture_p95_ms"] == 0  # no Start


def test_bench_of_the_real_bot_counts_global_calls_and_start_to_picture(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two tables of bot.py, a few moves each, on Discord-like route buckets."""
    argv = ["--tables", "2", "--moves", "4", "--think", "0.05", "--ramp", "0", "--warmup", "0"]
    assert main([*argv, "--rate-limits", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves"] == 8 and out["lost_moves"] == out["duplicated_moves"] == 0
    # the table message is edited in its channel: global-limited; presses are answered
    # through the interaction endpoints: not
    assert 0 < out["global_limited_calls"] < out["discord_calls"]
    assert out["global_calls_per_move"] == out["global_limited_calls"] / 8
    routes = out["global_calls_by_route"]
    assert sum(routes.values()) == out["global_limited_calls"]
    assert routes.get("PATCH /channels/{id}/messages/{id}", 0) > 0
    assert not any("/interactions/" in r or "/webhooks/" in r for r in routes)
    assert out["global_budgets"] == 1
    assert out["served_429"] == out["served_429_global"] + out["served_429_route"]
    assert out["held_requests"] == 0  # a few requests a second: never near the window
    # Start-to-picture, per table: both tables started and got their picture
    assert out["start_tables"] == 2
    assert 0 < out["start_to_picture_p50_ms"] <= out["start_to_picture_p95_ms"]
    assert out["start_to_picture_p95_ms"] <= out["start_to_picture_max_ms"] < 60_000
    # the pictures the drawing worker drew meanwhile, by kind: at least each table's first
    drawn = out["pictures_by_kind"]
    assert set(drawn) <= {"table", "auction", "hand"}, drawn
    assert drawn.get("table", 0) + drawn.get("auction", 0) >= 2, drawn


def test_bench_with_computers_reports_their_decisions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Three people and a hard computer at one table: the computer's moves come between
    the people's; the bench reads them, and its decisions, from the bot's /metrics."""
    argv = ["--tables", "1", "--players", "3", "--level", "hard", "--moves", "9"]
    assert main([*argv, "--think", "0.05", "--ramp", "0", "--warmup", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves"] == 9 and out["people_moves_committed"] == 9
    assert out["lost_moves"] == out["duplicated_moves"] == out["failed_interactions"] == 0
    assert out["computer_level"] == "hard"
    # at most one computer move after each person's (in the auction a seat that passed
    # is out, so fewer); the computer's answer to the last one may not be stored yet
    assert 1 <= out["computer_moves"] <= out["ai_decisions"] <= out["computer_moves"] + 1 <= 10
    assert 0 <= out["ai_decisions_cut"] <= out["ai_decisions"]
    assert 0 < out["ai_decision_p50_ms"] <= out["ai_decision_p95_ms"] <= out["ai_decision_p99_ms"]
    # and how long each due move still waited for its decision (thought out meanwhile)
    assert 0 < out["ai_move_wait_p50_ms"] <= out["ai_move_wait_p95_ms"]
    assert out["ai_move_wait_p95_ms"] <= out["ai_move_wait_p99_ms"]


def test_commit_latency_is_read_from_the_bots_histogram() -> None:
    """Two readings of a /metrics histogram: what came between them, and its quantiles
    as Prometheus interpolates them inside a bucket."""
    registry = CollectorRegistry()
    h = Histogram("batak_store_commit_seconds", "x", buckets=(0.001, 0.01, 0.1), registry=registry)
    h.observe(0.0005)
    before = histogram(generate_latest(registry).decode(), "batak_store_commit_seconds")
    for _ in range(98):
        h.observe(0.005)  # in (0.001, 0.01]
    h.observe(0.05)  # in (0.01, 0.1]
    h.observe(3.0)  # above every bound
    after = histogram(generate_latest(registry).decode(), "batak_store_commit_seconds")
    between = minus(after, before)
    assert count(between) == 100 and count(after) == 101
    assert quantile(0.5, between) == pytest.approx(0.001 + 0.009 * 50 / 98)
    assert quantile(0.99, between) == pytest.approx(0.1)  # the 99th of 100 is the 0.05 one
    assert quantile(1.0, between) == 0.1  # in +Inf: the highest finite bound
    assert quantile(0.99, []) == 0.0
    assert count(combined([between, between])) == 200
    assert histogram("", "batak_store_commit_seconds") == []


def test_labelled_metrics_are_read_together_or_by_label() -> None:
    """A histogram by level is read as one (every level's observations); a counter is
    summed over its samples, or over those with the labels asked for."""
    registry = CollectorRegistry()
    h = Histogram(
        "batak_ai_decision_seconds", "x", ["level"], buckets=(0.1, 1.0), registry=registry
    )
    h.labels("hard").observe(0.05)
    h.labels("hard").observe(0.5)
    h.labels("normal").observe(0.01)
    moves = Counter("batak_moves", "x", ["actor"], registry=registry)
    moves.labels("player").inc(7)
    moves.labels("bot").inc(2)
    text = generate_latest(registry).decode()
    both = histogram(text, "batak_ai_decision_seconds")
    assert both == [(0.1, 2.0), (1.0, 3.0), (float("inf"), 3.0)]
    assert counter(text, "batak_moves") == 9
    assert counter(text, "batak_moves", actor="bot") == 2
    assert counter(text, "batak_moves", actor="timeout") == 0
    assert counter(text, "batak_absent") == 0
    assert counter_by(text, "batak_moves", "actor") == {"player": 7, "bot": 2}
    assert counter_by(text, "batak_moves", "level") == {}
    assert counter_by(text, "batak_absent", "kind") == {}


def test_busy_loops_spin_for_the_bench_and_stop_after_it() -> None:
    """``--busy``: the loops run while the bench does, and none outlives it."""
    with busy_loops(2) as loops:
        assert len(loops) == 2 and all(p.poll() is None for p in loops)
    assert all(p.poll() is not None for p in loops)
    with pytest.raises(SystemExit):
        main(["--busy", "-1"])
