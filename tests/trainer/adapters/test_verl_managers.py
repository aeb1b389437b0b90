"""No reward manager of verl 0.9 trains on a made-up 0.0 when the adapter cannot score.

verl_managers_loop.py runs each manager verl registers with both of the adapter's functions
against a closed port, an item the service cannot judge, and (rate_limited) a service that
hangs; see it for what of verl runs where.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.trainer.adapters.verl_spec import VERL_PYTHON

MANAGERS = ["dapo", "gdpo", "naive", "rate_limited", "remote"]
REASONS = {
    "unreachable": ("RewardServiceError", "no answer after 5 attempts"),
    "unjudged": ("UnjudgedItemError", "the reference is missing"),
}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(900),
    pytest.mark.skipif(
        not VERL_PYTHON.exists(),
        reason="verl's venv is missing: scripts/verl-env.sh (run by make install-dev) builds it",
    ),
]


@pytest.fixture(scope="module")
def manager_runs(verl_runs: dict[str, Any]) -> dict[str, Any]:
    """The managers' runs (conftest.py runs them, with verl's reward loop, on one Ray)."""
    return dict(verl_runs["managers"])


def test_these_are_the_managers_verl_registers(manager_runs: dict[str, Any]) -> None:
    # A manager a new verl adds must be looked at (and added to docs/trainer.md's table).
    assert manager_runs["registered"] == MANAGERS


@pytest.mark.parametrize("fault", ["unreachable", "unjudged"])
@pytest.mark.parametrize("function", ["compute_score", "compute_score_async"])
@pytest.mark.parametrize("manager", MANAGERS)
def test_every_manager_stops_with_the_reason(
    manager_runs: dict[str, Any], manager: str, function: str, fault: str
) -> None:
    run = manager_runs["runs"][f"{manager}/{function}/{fault}"]
    if manager == "remote" and function == "compute_score_async":
        # verl's remote manager refuses an async function when it starts: no step runs.
        assert run["outcome"] == "refused"
        assert "Async reward score is not supported in remote reward manager" in run["reason"]
        return
    error, reason = REASONS[fault]
    assert run["outcome"] == "stopped", run
    # The remote manager's calls run in Ray actors: Ray wraps the error, keeping its type.
    assert run["error"] in (error, f"RayTaskError({error})")
    assert reason in run["reason"]


@pytest.mark.parametrize(
    ("fault", "error"),
    [("unjudged", "RayTaskError(UnjudgedItemError)"),
     ("unreachable", "RayTaskError(RewardServiceError)")],
)  # fmt: skip
def test_the_error_crosses_ray_and_stops_the_reward_loop(
    manager_runs: dict[str, Any], fault: str, error: str
) -> None:
    # RewardLoopManager.compute_rm_score with rate_limited, which used to score the failed
    # samples 0.0 (and, with one unjudged sample among others, fail on a KeyError when it
    # aggregated the extra keys).
    function = "compute_score_async" if fault == "unjudged" else "compute_score"
    run = manager_runs["runs"][f"rate_limited/{function}/{fault}/ray"]
    assert run["outcome"] == "stopped", run
    assert run["error"] == error
    assert REASONS[fault][1] in run["reason"]


def test_rate_limited_timeout_stops_the_step_with_the_async_function(
    manager_runs: dict[str, Any],
) -> None:
    run = manager_runs["runs"]["rate_limited/compute_score_async/hung"]
    assert run["outcome"] == "stopped", run
    assert run["error"] == "RewardServiceError"
    assert "cancelled before the service answered" in run["reason"]


def test_rate_limited_timeout_scores_a_synchronous_call_0_0(manager_runs: dict[str, Any]) -> None:
    # What docs/trainer.md warns of: a thread cannot be interrupted, so when a synchronous
    # call outlasts reward.timeout, verl's rate_limited manager scores it 0.0 itself.
    run = manager_runs["runs"]["rate_limited/compute_score/hung"]
    assert run["outcome"] == "scored"
    assert run["scores"] == [0.0, 0.0, 0.0]
    assert all(extra.get("timeout") is True for extra in run["extra"])
