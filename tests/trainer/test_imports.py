"""The trainer talks to the service over HTTP: from ``services/`` it imports only the
contract (the wire models, the HTTP policy and the client), never the service itself."""

from __future__ import annotations

import ast
from pathlib import Path

TRAINER = Path(__file__).resolve().parents[2] / "trainer"
CONTRACT = ("services.contract",)


def _imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
    return modules


def test_the_trainer_imports_only_the_contract_from_services() -> None:
    outside = {
        f"{path.relative_to(TRAINER.parent)}: {module}"
        for path in sorted(TRAINER.rglob("*.py"))
        for module in _imported_modules(path)
        if module.split(".")[0] == "services"
        and not any(module == c or module.startswith(c + ".") for c in CONTRACT)
    }
    assert not outside, sorted(outside)
