"""Prometheus metrics, in a registry of the app's own so several apps can coexist."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "verifier_requests",
            "HTTP requests by route and status code.",
            ["route", "code"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "verifier_request_seconds",
            "HTTP request latency by route.",
            ["route"],
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
            registry=self.registry,
        )
        self.items = Counter(
            "verifier_items",
            "Scored items by task and status.",
            ["task", "status"],
            registry=self.registry,
        )
        self.math_cache = Counter(
            "verifier_math_cache",
            "Math verdict cache look-ups by result (hit or miss).",
            ["result"],
            registry=self.registry,
        )
        self.code_cache = Counter(
            "verifier_code_cache",
            "Code run cache look-ups by result (hit: a recent request's identical run reused).",
            ["result"],
            registry=self.registry,
        )
        self.math_method = Counter(
            "verifier_math_method",
            "Math verdicts by the method that decided them.",
            ["method"],
            registry=self.registry,
        )

        self.verifier_items = Counter(
            "verifier_llm_items",
            "Items per LLM-verifier decision: judged, skipped (addon: the rule accepted), "
            "fallback (verifier unavailable).",
            ["mode", "outcome"],
            registry=self.registry,
        )
        self.verifier_cache = Counter(
            "verifier_llm_cache",
            "LLM-verifier verdicts and rubric grades by where they came from: the verdict "
            "cache (hit) or the model (miss).",
            ["kind", "result"],
            registry=self.registry,
        )

        # Admission control (services/admission.py): work admitted per backend.
        self.queue_depth = Gauge(
            "verifier_queue_depth",
            "Work admitted and unfinished (queued or running), by backend: sandbox tests, "
            "math comparisons.",
            ["backend"],
            registry=self.registry,
        )
        self.queue_bound = Gauge(
            "verifier_queue_bound",
            "The bound on verifier_queue_depth past which requests get 429 (0: no bound).",
            ["backend"],
            registry=self.registry,
        )
        self.queue_fill = Gauge(
            "verifier_queue_fill",
            "verifier_queue_depth / verifier_queue_bound: 1 means full (the HPA's metric).",
            ["backend"],
            registry=self.registry,
        )
        self.queue_oldest = Gauge(
            "verifier_queue_oldest_seconds",
            "How long the oldest request still waiting on a backend has been there.",
            ["backend"],
            registry=self.registry,
        )
        self.queue_projected = Gauge(
            "verifier_queue_projected_seconds",
            "How long a backend would take to finish the work admitted to it: each "
            "unfinished request's units times the recent worker-seconds per unit, less what "
            "it used, over the workers (0: the backend is not metered); new requests are "
            "refused past VERIFIER_MAX_PROJECTED_WAIT_S.",
            ["backend"],
            registry=self.registry,
        )
        self.queue_refused = Counter(
            "verifier_queue_refused",
            "Requests refused with 429 because a backend's queue was full, by backend.",
            ["backend"],
            registry=self.registry,
        )
        # Fine around the 3 s that issue #25 bounds a wait at: 3 is a bucket edge, so the
        # waits past it are counted exactly.
        wait_buckets = (0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 4, 5, 10, 30)
        self.queue_wait = Histogram(
            "verifier_queue_wait_seconds",
            "How long each job waited for a backend's worker, from submission to a worker "
            "taking it (the sandbox: each test run).",
            ["backend"],
            buckets=wait_buckets,
            registry=self.registry,
        )
        self.request_queue_wait = Histogram(
            "verifier_request_queue_wait_seconds",
            "The longest any job of one admitted request waited for a backend's worker "
            "(the sandbox, where admission meters its requests).",
            ["backend"],
            buckets=wait_buckets,
            registry=self.registry,
        )
        self.backend_seconds = Histogram(
            "verifier_backend_seconds",
            "Time one request's items spent with a backend, queued and running.",
            ["backend"],
            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60, 120),
            registry=self.registry,
        )

        # The exploit canaries (services/exploits/canaries.py): the last run's outcome.
        self.canaries_failed = Gauge(
            "reward_exploit_canaries_failed",
            "Exploit canaries rewarded above their bound in the last run (0 = none gamed).",
            registry=self.registry,
        )
        self.canaries_failed_by_family = Gauge(
            "reward_exploit_canaries_failed_by_family",
            "Exploit canaries rewarded in the last run, by exploit family.",
            ["family"],
            registry=self.registry,
        )
        self.canary_controls_failed = Gauge(
            "reward_exploit_canary_controls_failed",
            "Honest control answers of the last canary run that were not rewarded.",
            registry=self.registry,
        )
        self.canaries_duration = Gauge(
            "reward_exploit_canaries_duration_seconds",
            "Wall-clock time of the last exploit canary run.",
            registry=self.registry,
        )
        self.canaries_last_run = Gauge(
            "reward_exploit_canaries_last_run_timestamp_seconds",
            "When the last exploit canary run finished (Unix time).",
            registry=self.registry,
        )

    def cache_lookup(self, hit: bool) -> None:
        self.math_cache.labels(result="hit" if hit else "miss").inc()

    def code_cache_lookup(self, hit: bool) -> None:
        self.code_cache.labels(result="hit" if hit else "miss").inc()

    def verifier_cache_lookup(self, kind: str, hit: bool) -> None:
        self.verifier_cache.labels(kind=kind, result="hit" if hit else "miss").inc()

    def math_decided(self, method: str) -> None:
        self.math_method.labels(method=method).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
