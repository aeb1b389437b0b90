"""deploy/ray/serve.yaml as the harness adapts it to a simulated cluster on one machine.

The rest of harness/ray_cluster.py starts Ray (raylets, Serve, ``serve run``) or asks a
running one (replicas, status, kills): it is exercised on a real simulated cluster by
tests/deploy/test_ray.py."""

from __future__ import annotations

import pytest
import yaml

pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")

from harness.ray_cluster import APP, DEPLOYMENT, SERVE_CONFIG, serve_config

ORIGINAL = yaml.safe_load(SERVE_CONFIG.read_text())


def test_serve_config_listens_on_loopback_with_one_proxy_and_keeps_the_rest() -> None:
    config = serve_config(18123, {})
    assert config["proxy_location"] == "HeadOnly"
    assert config["http_options"] == {
        **ORIGINAL["http_options"],
        "host": "127.0.0.1",
        "port": 18123,
    }
    assert config["applications"] == ORIGINAL["applications"]  # nothing else changed


def test_serve_config_adds_environment_and_overrides_deployment_fields() -> None:
    deployment = {"ray_actor_options": {"num_cpus": 0.5}, "max_ongoing_requests": 3}
    env = {"VERIFIER_MODE": "hybrid", "VERIFIER_SANDBOX_WORKERS": "1"}
    config = serve_config(18124, deployment, env)
    (application,) = config["applications"]
    assert application["name"] == APP
    original_env = ORIGINAL["applications"][0]["runtime_env"]["env_vars"]
    assert application["runtime_env"]["env_vars"] == {**original_env, **env}
    (verifier,) = application["deployments"]
    assert verifier["name"] == DEPLOYMENT
    assert verifier["ray_actor_options"] == {"num_cpus": 0.5}  # replaced whole
    assert verifier["max_ongoing_requests"] == 3
    assert (
        verifier["autoscaling_config"]
        == (ORIGINAL["applications"][0]["deployments"][0]["autoscaling_config"])
    )


def test_serve_config_is_a_fresh_copy_each_time() -> None:
    serve_config(18125, {"max_ongoing_requests": 1}, {"A": "1"})
    assert serve_config(18126, {}) == {
        **ORIGINAL,
        "proxy_location": "HeadOnly",
        "http_options": {**ORIGINAL["http_options"], "host": "127.0.0.1", "port": 18126},
    }
