"""Every shell block of README.md and docs/api.md, as a new user reads them.

Each ```bash block that calls curl is run against the real service on loopback (its
``localhost:8000`` rewritten to the test's address), and its output must be the JSON block
that follows it: the same structure and the same values, except for the fields listed in
``MAY_DIFFER``. A shell block without curl (it installs, builds images, needs a cluster or
a user's file) must be listed in ``NOT_RUN`` with the reason, so a new block fails here
until it is runnable or listed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs/api.md")
SHELL = {"bash", "sh", "shell", "console"}
DOCUMENTED_ADDRESS = "localhost:8000"

# (document, the block's first command without its comment) -> why the test does not run it.
NOT_RUN: dict[tuple[str, str], str] = {
    ("README.md", "make run"): "installs packages (system packages as root) and serves until "
    "stopped; the service it starts is the one these examples run against",
    ("README.md", "cp .env.example .env"): "needs a Docker engine and builds images; "
    "tests/deploy/test_compose_e2e.py runs the CPU stack",
    (
        "README.md",
        "docker build -f deploy/verifier.Dockerfile -t REGISTRY/reward-verifier:0.1.0 .",
    ): (
        "needs Docker, a registry and a Kubernetes cluster; tests/deploy/test_kubernetes.py "
        "validates the manifests"
    ),
    ("README.md", "RAY_ADDRESS=HEAD_IP:6379 serve run deploy/ray/serve.yaml --non-blocking"): (
        "needs a Ray cluster; tests/deploy/test_ray.py deploys serve.yaml on a simulated one"
    ),
    ("README.md", "make train-demo"): "installs the training stack and trains for minutes; "
    "tests/trainer/test_demo.py runs the demo's configuration",
    (
        "docs/api.md",
        ".venv/bin/verifier grade answers.jsonl -o graded.jsonl --answer-field output "
        "--reference-field gt",
    ): "grades the user's own file; tests/services/test_cli.py runs the command",
}

# Fields whose value may differ from the one shown (at any depth), and why.
MAY_DIFFER: dict[str, str] = {
    "elapsed_s": "the request's own wall-clock time",
}


@dataclass(frozen=True)
class Block:
    doc: str
    line: int  # of the opening fence, 1-based
    language: str
    text: str

    @property
    def name(self) -> str:
        """The block's first command, without its comment: what NOT_RUN lists."""
        first = self.text.splitlines()[0] if self.text else ""
        return " ".join(re.sub(r"(^|\s)#.*$", "", first).split())

    def __str__(self) -> str:
        return f"{self.doc}:{self.line} ({self.name[:60]!r})"


FENCE = re.compile(r"^(\s*)```(\w*)\s*$")


def fenced_blocks(doc: str) -> list[Block]:
    """The fenced blocks of ``doc`` in order; a fence line holds only backticks and a
    language (a fence inside a JSON string on a curl line is not one)."""
    lines = (ROOT / doc).read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    start: tuple[int, str, str] | None = None
    body: list[str] = []
    for number, line in enumerate(lines, 1):
        fence = FENCE.match(line)
        if start is None:
            if fence:
                start, body = (number, fence.group(2), fence.group(1)), []
            continue
        if fence and not fence.group(2):
            indent = start[2]
            text = "\n".join(b[len(indent) :] if b.startswith(indent) else b for b in body)
            blocks.append(Block(doc, start[0], start[1], text))
            start = None
            continue
        body.append(line)
    assert start is None, f"{doc}:{start[0]}: a fenced block is never closed"
    return blocks


def shell_blocks() -> Iterator[tuple[Block, Block | None]]:
    """Each shell block with the block after it (None at the end of its document)."""
    for doc in DOCS:
        blocks = fenced_blocks(doc)
        for index, block in enumerate(blocks):
            if block.language in SHELL:
                following = blocks[index + 1] if index + 1 < len(blocks) else None
                yield block, following


SHELL_BLOCKS = list(shell_blocks())
RUNNABLE = [(b, after) for b, after in SHELL_BLOCKS if "curl " in b.text]


def differences(shown: Any, got: Any, path: str = "$") -> list[str]:
    """Where ``got`` differs from ``shown``: structure (keys, lengths, types) and values,
    floats compared exactly, except the fields named in MAY_DIFFER (same type still)."""
    if isinstance(shown, dict) and isinstance(got, dict):
        found = []
        if list(shown) != list(got):
            missing, extra = set(shown) - set(got), set(got) - set(shown)
            if missing or extra:
                found.append(f"{path}: keys missing {sorted(missing)}, unexpected {sorted(extra)}")
        for key in shown.keys() & got.keys():
            if key in MAY_DIFFER:
                if type(shown[key]) is not type(got[key]):
                    found.append(f"{path}.{key}: {got[key]!r} is not of the shown type")
                continue
            found += differences(shown[key], got[key], f"{path}.{key}")
        return found
    if isinstance(shown, list) and isinstance(got, list):
        if len(shown) != len(got):
            return [f"{path}: {len(got)} elements, {len(shown)} shown"]
        found = []
        for index, (a, b) in enumerate(zip(shown, got, strict=True)):
            found += differences(a, b, f"{path}[{index}]")
        return found
    if type(shown) is not type(got) or shown != got:
        return [f"{path}: the service gives {got!r}, the docs show {shown!r}"]
    return []


def test_the_documents_have_the_blocks_this_test_knows() -> None:
    # A parser that found nothing would pass every test below.
    assert len(RUNNABLE) >= 7, [str(b) for b, _ in RUNNABLE]
    assert {b.doc for b, _ in RUNNABLE} == set(DOCS)


@pytest.mark.parametrize("block", [b for b, _ in SHELL_BLOCKS if "curl " not in b.text], ids=str)
def test_a_block_not_run_is_listed_with_its_reason(block: Block) -> None:
    assert (block.doc, block.name) in NOT_RUN, (
        f"{block}: this shell block is not run here; make it runnable (a curl call whose "
        "JSON output follows it) or list it in NOT_RUN with the reason"
    )


def test_every_listed_block_is_still_in_the_docs() -> None:
    present = {(b.doc, b.name) for b, _ in SHELL_BLOCKS}
    assert set(NOT_RUN) <= present, sorted(set(NOT_RUN) - present)
    assert not {(b.doc, b.name) for b, _ in RUNNABLE} & set(NOT_RUN)


@pytest.mark.parametrize(("block", "shown"), RUNNABLE, ids=[str(b) for b, _ in RUNNABLE])
def test_the_block_prints_the_output_shown(
    block: Block, shown: Block | None, service_url: str
) -> None:
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed: the documented commands need it")
    assert shown is not None and shown.language == "json", (
        f"{block}: a curl block must be followed by the JSON it prints"
    )
    assert block.text.count(DOCUMENTED_ADDRESS) == 1, f"{block}: calls {DOCUMENTED_ADDRESS} once"
    address = service_url.removeprefix("http://")
    command = block.text.replace(DOCUMENTED_ADDRESS, address)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"{block}: exit {done.returncode}\n{done.stderr}"
    got = json.loads(done.stdout)
    expected = json.loads(shown.text)
    found = differences(expected, got)
    assert not found, f"{block} prints other output than {shown}:\n" + "\n".join(found)
