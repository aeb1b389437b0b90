"""The import rules of the layout, read from the code's own import statements (ast):

* nothing below the API's edge imports the wire contract (``services.contract.protocol``): the
  pipeline reads its own names (``services.domain``) and a request's resolved policy
  (``services.tasks.policy``), never a wire model;
* no two folders of the service and the sandbox import each other, directly or through
  others (a file of ``services/`` is a room of its own, and so is each part of the contract
  package, since the client's local grader runs the service the wire models describe; the
  sandbox is one room);
* the trainer imports from ``services/`` only the contract (the wire models, the HTTP
  policy and the client).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Where the wire contract may be imported: the contract package itself (the wire models, the
# HTTP policy and the client), and the edges that speak it (the HTTP routes, the command
# line, the app and its Ray ingress).
CONTRACT = ("services.contract",)
EDGES = ("services.api", "services.cli", "services.app", "services.ray_deployment")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources(*folders: str) -> Iterator[Path]:
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def _imports(path: Path) -> set[str]:
    """The project modules a file imports (``from X import Y`` names ``X`` and ``X.Y``)."""
    found: set[str] = set()
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def test_nothing_below_the_api_imports_the_wire_contract() -> None:
    offenders = [
        f"{_module(path)} imports services.contract.protocol"
        for path in _sources("services", "sandbox")
        if not _within(_module(path), CONTRACT + EDGES)
        and any(_within(name, ("services.contract.protocol",)) for name in _imports(path))
    ]
    assert offenders == []


def _folder(module: str) -> str | None:
    """The room a module lives in: a folder of ``services/`` or one of its own files, a
    part of the contract package (``protocol``, ``http_policy``, ``client``), or the
    sandbox; None outside them."""
    parts = module.split(".")
    if parts[0] == "sandbox":
        return "sandbox"
    if parts[:2] == ["services", "contract"] and len(parts) > 2:
        return f"services.contract.{parts[2]}"
    if parts[0] == "services" and len(parts) > 1:
        return f"services.{parts[1]}"
    return None


def _folder_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in _sources("services", "sandbox"):
        source = _folder(_module(path))
        for name in _imports(path):
            target = _folder(name)
            if source is not None and target is not None and target != source:
                graph.setdefault(source, set()).add(target)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_no_two_folders_import_each_other() -> None:
    assert _cycle(_folder_graph()) is None


def test_the_trainer_imports_only_the_contract_from_services() -> None:
    offenders = sorted(
        f"{_module(path)} imports {name}"
        for path in _sources("trainer")
        for name in _imports(path)
        if name.startswith("services") and name != "services" and not _within(name, CONTRACT)
    )
    assert offenders == []
