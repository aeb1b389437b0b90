"""Schema validation of the compose and Kubernetes files, with schemas shipped in wheels.

* Compose: check-jsonschema's vendored copy of the Compose Specification schema
  (``--builtin-schema vendor.compose-spec``), run through its CLI.
* Kubernetes: kubernetes-validate's bundled OpenAPI-derived schemas, strict mode (unknown
  fields are errors, so a misspelt key fails instead of being silently dropped).

Neither fetches anything: ``python -m tests.deploy.schemas`` validates everything and
the test suite runs it once without a network namespace to prove it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]
import yaml

from harness.compose_files import (
    COMPOSE_FILES,
    ROOT,
    load_compose,
    read_env_file,
)

K8S_DIR = ROOT / "deploy" / "k8s"
# The oldest Kubernetes the manifests support (appArmorProfile is a field since 1.30) and
# the newest schema kubernetes-validate ships.
K8S_VERSIONS = ("1.30", str(kubernetes_validate.latest_version()))
# What `-f deploy/compose.q.yaml` needs set; .env.example leaves them blank on purpose.
Q_ENV = {"QHOME_HOST": "/opt/kdb", "QLIC_HOST": "/opt/kdb-licence"}


def compose_documents() -> dict[str, Any]:
    """Each compose file as written, and as compose sees it after `cp .env.example .env`."""
    env = read_env_file()
    documents: dict[str, Any] = {}
    for path in COMPOSE_FILES:
        name = str(path.relative_to(ROOT))
        documents[f"{name} (as written)"] = load_compose(path)
        documents[f"{name} (.env.example)"] = load_compose(path, {**env, **Q_ENV})
    return documents


def compose_schema_errors(documents: dict[str, Any]) -> list[str]:
    """check-jsonschema's verdict on each document ([] when all are valid)."""
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for index, (name, document) in enumerate(documents.items()):
            path = Path(tmp) / f"{index}.json"
            path.write_text(json.dumps(document))
            files.append((name, path))
        command = [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.compose-spec",
            "--output-format",
            "text",
            *(str(path) for _, path in files),
        ]
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if run.returncode == 0:
        return []
    report = run.stdout + run.stderr
    for name, path in files:
        report = report.replace(str(path), name)
    return [report]


def k8s_documents() -> dict[str, dict[str, Any]]:
    """Every Kubernetes object in deploy/k8s/ (the kustomization is kubectl's, not an API
    object), keyed by file and kind/name."""
    documents: dict[str, dict[str, Any]] = {}
    for path in sorted(K8S_DIR.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for document in yaml.safe_load_all(path.read_text()):
            if document:
                name = document.get("metadata", {}).get("name")
                documents[f"{path.name}: {document.get('kind')}/{name}"] = document
    return documents


def k8s_schema_errors(documents: dict[str, dict[str, Any]]) -> list[str]:
    errors = []
    for name, document in documents.items():
        for version in K8S_VERSIONS:
            try:
                kubernetes_validate.validate(document, version, strict=True)
            except kubernetes_validate.ValidationError as exc:
                where = "/".join(str(part) for part in exc.path)
                errors.append(f"{name} (Kubernetes {version}): {exc.message} at {where}")
            except kubernetes_validate.SchemaNotFoundError as exc:
                errors.append(f"{name} (Kubernetes {version}): {exc}")
    return errors


def main() -> int:
    """Validate everything; for the offline test and for `python -m tests.deploy.schemas`."""
    compose, k8s = compose_documents(), k8s_documents()
    errors = compose_schema_errors(compose) + k8s_schema_errors(k8s)
    for error in errors:
        print(error)
    print(
        f"{len(compose)} compose documents, {len(k8s)} Kubernetes objects: "
        f"{'invalid' if errors else 'valid'}"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
