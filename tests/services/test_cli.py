"""`verifier grade` on real files (JSON Lines, CSV, Parquet), in-process and through the
running service: the same verdicts as /grade."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from harness.service import ServiceProcess, free_port
from services.contract.client import Client
from tests.services.contract.client.grading_pairs import PAIRS

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
def test_grade_jsonl(tmp_path: Path, request: pytest.FixtureRequest, through_service: bool) -> None:
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
        command += ["--url", request.getfixturevalue("service_url")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert len(lines) == ROWS
    for i, (line, want) in enumerate(zip(lines, expected, strict=True)):
        grade = line["grade"]
        if want is None:
            assert grade["status"] == "error" and grade["correct"] is None, (i, grade)
            assert grade["explanation"]
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
    assert "unreachable after 2 attempts" in done.stderr, done.stderr


def _grade(*arguments: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "services.cli", "grade", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def test_the_verdicts_are_the_grade_routes(tmp_path: Path, service_url: str) -> None:
    """Corpus answers, numeric references among them: every line's verdict, in-process,
    is what POST /grade answers for it."""
    source, target = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    with source.open("w") as handle:
        for n, (answer, reference) in enumerate(PAIRS):
            handle.write(json.dumps({"n": n, "completion": answer, "reference": reference}) + "\n")
    done = _grade(str(source), "-o", str(target), "--workers", "2")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    with Client(service_url) as client:
        for line, (answer, reference) in zip(lines, PAIRS, strict=True):
            expected = client.grade(answer, reference).model_dump(mode="json")
            assert line["grade"] == expected, (answer, reference)
    # "So we get $\frac{1}{2}$" is an answer under /grade's lenient default.
    assert any(
        line["completion"].startswith("So we get") and line["grade"]["correct"] is True
        for line in lines
    )


def test_tables_and_the_grade_options(tmp_path: Path) -> None:
    """CSV in, Parquet out, in-process, with /grade's extraction option and the reasoning
    rule; a CSV reference is read as written."""
    pandas = pytest.importorskip("pandas", reason="CSV and Parquet need pandas")
    pytest.importorskip("pyarrow", reason="Parquet needs pyarrow")
    source, target = tmp_path / "in.csv", tmp_path / "out.parquet"
    rows = [
        {"question": "1/2?", "completion": "So we get $\\frac{1}{2}$", "reference": "0.5"},
        {"question": "2+2?", "completion": "The answer is 4.", "reference": "4"},
        {"question": "2+2?", "completion": "<think>the answer is 4", "reference": "4"},
        {"question": "2+3?", "completion": "\\boxed{6}", "reference": "5"},
        {"question": "0.10?", "completion": "\\boxed{0.1}", "reference": "0.10"},
    ]
    pandas.DataFrame(rows).to_csv(source, index=False)
    command = [str(source), "-o", str(target), "--workers", "1"]
    done = _grade(*command, "--extraction", "marked", "--answer-anywhere")
    assert done.returncode == 0, done.stderr
    graded = pandas.read_parquet(target)
    assert list(graded["question"]) == [row["question"] for row in rows]
    # marked: no answer in the first line; anywhere: the open reasoning block's answer counts.
    assert list(graded["grade_correct"]) == [False, True, True, False, True]
    assert "no final answer" in graded["grade_explanation"][0]
    assert list(graded["grade_status"]) == ["ok"] * 5
    assert list(graded["grade_extracted_reference"])[4] == "0.10"
    assert "accuracy 60.00% (3/5 judged)" in done.stderr


def test_tables_via_url_and_the_default_options(tmp_path: Path, service_url: str) -> None:
    pandas = pytest.importorskip("pandas", reason="CSV and Parquet need pandas")
    pytest.importorskip("pyarrow", reason="Parquet needs pyarrow")
    source, target = tmp_path / "in.parquet", tmp_path / "out.csv"
    frame = pandas.DataFrame(
        {
            "output": ["So we get $\\frac{1}{2}$", "<think>the answer is 4", "\\boxed{7}"],
            "gt": [0.5, 4.0, 7.0],
        }
    )
    frame.to_parquet(source, index=False)
    command = [str(source), "-o", str(target), "--url", service_url]
    done = _grade(*command, "--answer-field", "output", "--reference-field", "gt")
    assert done.returncode == 0, done.stderr
    graded = pandas.read_csv(target, dtype=str, keep_default_na=False)
    # lenient (the first line), the reasoning rule on (the second: an open block).
    assert list(graded["grade_correct"]) == ["True", "False", "True"]
    # A float column's numbers, read exactly as the dataset holds them.
    assert list(graded["grade_extracted_reference"]) == ["0.5", "4.0", "7.0"]


def test_tables_without_pandas_fail_clearly(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"completion": "4", "reference": "4"}) + "\n")
    blocked = (
        "import sys; sys.modules['pandas'] = None; from services.cli import app; "
        f"app(['grade', {str(source)!r}, '-o', {str(tmp_path / 'out.csv')!r}])"
    )
    wide = {**os.environ, "COLUMNS": "400"}  # the message on one line
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, env=wide)
    assert done.returncode == 2, done.stderr
    assert "needs pandas" in done.stderr and "pip install pandas pyarrow" in done.stderr


def test_the_reasoning_rule_is_the_services_through_a_url(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"completion": "4", "reference": "4"}) + "\n")
    url = f"http://127.0.0.1:{free_port()}"
    done = _grade(str(source), "-o", "/dev/null", "--url", url, "--answer-anywhere")
    assert done.returncode == 2
    assert "VERIFIER_ANSWER_AFTER_REASONING" in done.stderr
