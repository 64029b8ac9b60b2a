"""The bench harness, driven through the echo bot (the real bot plugs in the same way)."""

from __future__ import annotations

import json

import pytest

from .bench import main


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
