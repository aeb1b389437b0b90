"""The Kubernetes manifests: valid against the bundled schemas, and wired to each other."""

from __future__ import annotations

from typing import Any

import yaml

from tests.deploy.schemas import K8S_DIR, k8s_documents, k8s_schema_errors


def _objects() -> dict[tuple[str, str], dict[str, Any]]:
    return {(doc["kind"], doc["metadata"]["name"]): doc for doc in k8s_documents().values()}


def _container(deployment: dict[str, Any]) -> dict[str, Any]:
    containers: list[dict[str, Any]] = deployment["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def test_manifests_match_the_kubernetes_schemas() -> None:
    assert k8s_schema_errors(k8s_documents()) == []


def test_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((K8S_DIR / "kustomization.yaml").read_text())
    manifests = {p.name for p in K8S_DIR.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == manifests


def test_services_hpa_and_pdb_select_their_deployments() -> None:
    objects = _objects()
    for name in ("verifier", "rubric"):
        pod_labels = objects["Deployment", name]["spec"]["template"]["metadata"]["labels"]
        assert objects["Deployment", name]["spec"]["selector"]["matchLabels"].items() <= (
            pod_labels.items()
        )
        assert objects["Service", name]["spec"]["selector"].items() <= pod_labels.items()
        assert objects["Service", name]["spec"]["type"] == "ClusterIP"
    verifier_labels = objects["Deployment", "verifier"]["spec"]["template"]["metadata"]["labels"]
    pdb = objects["PodDisruptionBudget", "verifier"]["spec"]
    assert pdb["selector"]["matchLabels"].items() <= verifier_labels.items()
    hpa = objects["HorizontalPodAutoscaler", "verifier"]["spec"]
    assert hpa["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "verifier",
    }
    assert 2 <= hpa["minReplicas"] < hpa["maxReplicas"]
    # An HPA on CPU utilisation needs CPU requests to measure against.
    assert _container(objects["Deployment", "verifier"])["resources"]["requests"]["cpu"]


def test_verifier_pods_gate_traffic_on_ready_and_can_sandbox() -> None:
    container = _container(_objects()["Deployment", "verifier"])
    assert container["readinessProbe"]["httpGet"]["path"] == "/ready"
    assert container["livenessProbe"]["httpGet"]["path"] == "/health"
    security = container["securityContext"]
    assert {"SYS_ADMIN", "NET_ADMIN"} <= set(security["capabilities"]["add"])
    assert security["seccompProfile"]["type"] == "Unconfined"
    assert security["appArmorProfile"]["type"] == "Unconfined"
    assert container["resources"]["limits"]["memory"]


def test_rubric_holds_a_gpu_and_only_verifiers_reach_it() -> None:
    objects = _objects()
    rubric = _container(objects["Deployment", "rubric"])
    assert rubric["image"].startswith("vllm/vllm-openai")
    assert rubric["resources"]["limits"]["nvidia.com/gpu"] == 1
    assert rubric["startupProbe"]["httpGet"]["path"] == "/health"
    # Every $(VAR) in the args is defined in the container's env.
    env_names = {entry["name"] for entry in rubric["env"]}
    for arg in rubric["args"]:
        if "$(" in arg:
            assert arg.split("$(")[1].split(")")[0] in env_names, arg
    policy = objects["NetworkPolicy", "rubric"]["spec"]
    rubric_labels = objects["Deployment", "rubric"]["spec"]["template"]["metadata"]["labels"]
    verifier_labels = objects["Deployment", "verifier"]["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= rubric_labels.items()
    allowed = policy["ingress"][0]["from"][0]["podSelector"]["matchLabels"]
    assert allowed.items() <= verifier_labels.items()


def test_every_referenced_setting_and_secret_exists() -> None:
    from services.settings import variables

    objects = _objects()
    config = objects["ConfigMap", "verifier-settings"]["data"]
    secret = objects["Secret", "verifier-secrets"]["stringData"]
    for name in ("verifier", "rubric"):
        for entry in _container(objects["Deployment", name]).get("env", []):
            source = entry.get("valueFrom", {})
            if "configMapKeyRef" in source:
                assert source["configMapKeyRef"]["key"] in config, entry
            if "secretKeyRef" in source:
                assert source["secretKeyRef"]["key"] in secret, entry
    known = {variable.env for variable in variables()}
    for key in config:
        assert key in known or key.startswith("RUBRIC_"), key


def test_the_hpa_scales_on_a_queue_metric_the_service_exports() -> None:
    from services.metrics import Metrics

    hpa = _objects()["HorizontalPodAutoscaler", "verifier"]["spec"]
    pods = [m["pods"]["metric"]["name"] for m in hpa["metrics"] if m["type"] == "Pods"]
    assert pods == ["verifier_queue_fill"]
    rules = yaml.safe_load((K8S_DIR.parent / "prometheus" / "adapter-rules.yaml").read_text())
    served = {rule["name"]["as"] for rule in rules["rules"]}
    assert set(pods) <= served
    exported = Metrics().render().decode()
    for name in pods:
        assert f"# TYPE {name} gauge" in exported
