"""`verifier grade` on a real JSONL file, in-process and through the running service."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from harness.service import ServiceProcess, free_port

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


def test_grade_via_url_retries_until_the_service_is_up(tmp_path: Path) -> None:
    """Real refused connections: the service starts only after grading has begun."""
    source, target = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    expected = _write_input(source)
    replica = ServiceProcess(port=free_port())
    command = [sys.executable, "-m", "services.cli", "grade", str(source), "-o", str(target)]
    command += ["--answer-field", "output", "--reference-field", "gt", "--id-field", "uid"]
    command += ["--url", replica.url, "--retries", "30"]
    grading = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert grading.stderr is not None
    stderr: list[str] = []
    refused = threading.Event()

    def read_stderr() -> None:
        assert grading.stderr is not None
        for line in grading.stderr:
            stderr.append(line)
            if "retrying in" in line:
                refused.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        assert refused.wait(timeout=60), "".join(stderr)
        replica.start()  # 30 retries (waits doubling from 0.5 s to 10 s) outlast the start-up
        replica.wait_ready()
        assert grading.wait(timeout=300) == 0, "".join(stderr)
    finally:
        replica.stop()
        if grading.poll() is None:
            grading.kill()
        reader.join(timeout=10)
    output = "".join(stderr)
    assert "service attempt 1 failed (All connection attempts failed)" in output, output
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    judged = [line["grade"]["correct"] for line in lines]
    assert judged == expected


def test_grade_via_url_fails_clearly_when_the_service_never_comes(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    _write_input(source)
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens here
    command = [sys.executable, "-m", "services.cli", "grade", str(source), "-o", "/dev/null"]
    command += ["--url", url, "--retries", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "service attempt 1 failed" in done.stderr
    assert "service failed 2 attempts" in done.stderr, done.stderr
