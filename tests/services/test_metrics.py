"""The app's Prometheus metrics: a registry per app, and the look-up counters."""

from __future__ import annotations

from services.metrics import Metrics


def test_each_app_has_its_own_registry() -> None:
    first, second = Metrics(), Metrics()  # a second app would fail on a shared registry
    first.cache_lookup(hit=True)
    assert 'verifier_math_cache_total{result="hit"} 1.0' in first.render().decode()
    assert 'verifier_math_cache_total{result="hit"}' not in second.render().decode()


def test_lookups_and_methods_are_counted_by_label() -> None:
    metrics = Metrics()
    metrics.cache_lookup(hit=False)
    metrics.code_cache_lookup(hit=True)
    metrics.code_cache_lookup(hit=True)
    metrics.verifier_cache_lookup("answer", hit=False)
    metrics.math_decided("symbolic")
    assert {
        'verifier_math_cache_total{result="miss"} 1.0',
        'verifier_code_cache_total{result="hit"} 2.0',
        'verifier_llm_cache_total{kind="answer",result="miss"} 1.0',
        'verifier_math_method_total{method="symbolic"} 1.0',
    } <= set(metrics.render().decode().splitlines())
