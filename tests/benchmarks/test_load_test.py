"""The GRPO load test's queue-wait report: scraped from /metrics before and after a phase."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.load_test import grpo_table, histogram_quantile, wait_buckets, wait_summary
from services.metrics import Metrics

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def _scrape(metrics: Metrics) -> dict[str, dict[str, dict[float, float]]]:
    return wait_buckets(metrics.render().decode())


def test_a_phase_counts_only_its_own_waits_and_those_past_3_s() -> None:
    metrics = Metrics()
    jobs = metrics.queue_wait.labels(backend="sandbox")
    requests = metrics.request_queue_wait.labels(backend="sandbox")
    jobs.observe(4.0)  # before the phase
    before = _scrape(metrics)
    for seconds in (0.01, 0.2, 0.2, 2.9, 3.5):
        jobs.observe(seconds)
    requests.observe(3.5)
    summary = wait_summary(before, _scrape(metrics))["sandbox"]
    assert summary["jobs"]["count"] == 5
    assert summary["jobs"]["over_3_s"] == 1
    assert summary["requests"] == {"count": 1, "over_3_s": 1, "p50_s": 3.5, "p99_s": 3.99}
    assert 0.1 <= summary["jobs"]["p50_s"] <= 0.25


def test_the_quantile_interpolates_within_its_bucket_as_prometheus_does() -> None:
    buckets = {1.0: 0.0, 2.0: 10.0, float("inf"): 10.0}
    assert histogram_quantile(0.5, buckets) == pytest.approx(1.5)
    assert histogram_quantile(0.5, {1.0: 0.0, float("inf"): 0.0}) is None
    assert histogram_quantile(0.99, {1.0: 0.0, 3.0: 0.0, float("inf"): 5.0}) == 3.0


def test_the_table_renders_runs_without_queue_waits() -> None:
    run = json.loads((RESULTS / "load_test_grpo_16_cores.json").read_text())
    table = grpo_table(run)
    assert "sandbox waits > 3 s" in table
    assert all(line.count("|") == table.splitlines()[0].count("|") for line in table.splitlines())
