"""`verifier grade` on a real JSONL file, in-process and through the running service."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROWS = 300


def _write_input(path: Path) -> list[bool | None]:
    """Rows with custom field names; returns the expected 'correct' of each line."""
    expected: list[bool | None] = []
    with path.open("w") as handle:
        for i in range(ROWS):
            if i == 7:
                handle.write("{this is not json\n")
                expected.append(None)
                continue
            if i == 11:
                handle.write(json.dumps({"uid": i, "gt": "3"}) + "\n")  # no model output
                expected.append(None)
                continue
            right = i % 3 != 0
            answer = f"\\frac{{{i}}}{{2}}" if right else f"{i + 1}/2"
            row = {"uid": i, "output": f"Working... so \\boxed{{{answer}}}.", "gt": f"{i / 2}"}
            handle.write(json.dumps(row) + "\n")
            expected.append(right)
        handle.write("\n")  # blank lines are skipped
    return expected


@pytest.mark.parametrize("through_service", [False, True], ids=["in-process", "via-url"])
def test_grade_jsonl(tmp_path: Path, service_url: str, through_service: bool) -> None:
    source, target = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    expected = _write_input(source)
    command = [
        sys.executable,
        "-m",
        "services.cli",
        "grade",
        str(source),
        "-o",
        str(target),
        "--answer-field",
        "output",
        "--reference-field",
        "gt",
        "--id-field",
        "uid",
        "--batch-size",
        "64",
    ]
    if through_service:
        command += ["--url", service_url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert len(lines) == ROWS
    for i, (line, want) in enumerate(zip(lines, expected, strict=True)):
        grade = line["grade"]
        if want is None:
            assert grade["status"] == "error" and grade["correct"] is None, (i, grade)
            assert grade["detail"]
        else:
            assert grade["status"] == "ok" and grade["correct"] is want, (i, grade)
            assert line["uid"] == i  # the input row is kept
    right = sum(1 for want in expected if want)
    judged = sum(1 for want in expected if want is not None)
    assert f"accuracy {right / judged:.2%} ({right}/{judged} judged)" in done.stderr
    assert "error=2" in done.stderr and f"ok={judged}" in done.stderr
