"""docs/results.md's sections for the replica and trainer benchmarks, from their JSON."""

from __future__ import annotations

from benchmarks import report


def test_the_math_replica_section_reports_the_batch_the_sweep_and_the_peer_ratio() -> None:
    result = report.load("math_replica_bench")
    assert result is not None
    text = report.math_replica_section(result)
    one = result["single"]
    assert f"| items, workers | {one['items']:,}, {one['workers']} |" in text
    assert f"{one['health']['p99_ms']:g}" in text
    assert "| 2 |" in text and f"{result['sweep']['scaling']['2']:.2f}×" in text
    assert f"median **{result['peer']['median_ratio']:.2f}×**" in text


def test_the_trainer_section_reports_requests_and_seconds_by_path() -> None:
    result = report.load("verl_reward_bench")
    assert result is not None
    text = report.verl_reward_section(result)
    coalesced = result["arms"]["coalesced"]
    assert f"| {coalesced['requests']:,.0f} | {coalesced['refused_429']:,.0f} |" in text
    assert "1/186" in text and "OpenRLHF" in text


def test_the_code_loop_section_has_a_row_per_run() -> None:
    result = report.load("code_loop_bench")
    assert result is not None
    text = report.code_loop_section(result)
    for run in result["runs"]:
        assert f"| {run['label']} | {run['items']:,} | {run['seconds']:g} |" in text


def test_a_missing_result_says_which_command_writes_it() -> None:
    assert "python benchmarks/math_replica_bench.py" in report.math_replica_section(None)
    assert "python benchmarks/verl_reward_bench.py" in report.verl_reward_section(None)
    assert "python benchmarks/code_loop_bench.py" in report.code_loop_section(None)
