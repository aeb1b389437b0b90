"""The composition root in-process: real math workers, a real sandbox, a verifier client
pointed at a closed loopback port (no server at all)."""

from __future__ import annotations

import gc

import pytest

from harness.service import free_port
from services.api.readiness import NO_SANDBOX, readiness
from services.api.results import score_batch
from services.composition import build_backends
from services.contract.protocol import RewardOptions, Status
from services.metrics import Metrics
from services.settings import Settings
from services.verifier import BreakerState, ErrorKind, VerifyRequest
from services.verifier.not_configured import NOT_CONFIGURED

pytestmark = pytest.mark.anyio

MATH = {"task": "math", "completion": "so \\boxed{\\frac{1}{2}}", "reference": "0.5"}
CODE = {
    "task": "code",
    "language": "python",
    "completion": "```python\ndef f(x):\n    return 2 * x\n```",
    "tests": [{"code": "assert f(2) == 4", "expected": ""}],
}


def _settings(**values: object) -> Settings:
    return Settings(math_workers=1, **values)  # type: ignore[arg-type]


async def test_math_only_backends_score_math_and_refuse_code() -> None:
    async with build_backends(_settings(), Metrics(), code=False) as backends:
        assert backends.sandbox is None and backends.verifier is None
        response = await score_batch(backends.scorer, [MATH, CODE], RewardOptions().to_policy())
        math, code = response.results
        assert (math.status, math.reward) == (Status.OK, 1.0)
        assert code.status is Status.UNAVAILABLE and "not enabled" in code.detail
        ready = await readiness(_settings(), backends)
        assert ready.backends["sandbox"].detail == NO_SANDBOX
        assert ready.backends["llm_verifier"].detail == NOT_CONFIGURED
        assert not ready.ready  # sandbox is required by default


async def test_full_backends_run_code_in_the_sandbox_and_close() -> None:
    settings = _settings(sandbox={"workers": 1})
    async with build_backends(settings, Metrics()) as backends:
        assert backends.sandbox is not None
        assert backends.sandbox.config.workers == 1
        response = await score_batch(backends.scorer, [CODE], RewardOptions().to_policy())
        (code,) = response.results
        assert code.status is Status.OK and code.reward is not None and code.reward > 0
        ready = await readiness(Settings(required_backends="math"), backends)
        assert ready.ready and ready.required == ["math"]
    # Closed on exit: the sandbox refuses work.
    assert backends.sandbox.status().isolation.reason == "sandbox is closed"


async def test_llm_section_reaches_the_verifier_client() -> None:
    # One failure opens the breaker, and nothing retries: the settings, not the defaults.
    settings = _settings(
        llm={
            "url": f"http://127.0.0.1:{free_port()}",
            "retries": 0,
            "breaker_failures": 1,
            "connect_timeout_s": 1.0,
        }
    )
    async with build_backends(settings, Metrics(), code=False) as backends:
        assert backends.verifier is not None
        (judgement,) = await backends.verifier.judge([VerifyRequest("q", "1", "2")])
        assert judgement.error_kind is ErrorKind.UNAVAILABLE
        (endpoint,) = backends.verifier.transport.endpoints
        assert endpoint.breaker.state is BreakerState.OPEN
        assert backends.verifier.transport.requests_sent.total() == 1


async def test_what_start_up_built_is_out_of_the_collectors_sight_while_backends_live() -> None:
    # A full collection during a large batch then walks the batch's objects, not the
    # service's; when the last backends close, the collector sees everything again.
    before = gc.get_freeze_count()  # another test's backends may be alive in this process
    async with build_backends(_settings(), Metrics(), code=False):
        assert gc.get_freeze_count() > before
        async with build_backends(_settings(), Metrics(), code=False):
            pass
        assert gc.get_freeze_count() > before  # the inner backends' exit kept the freeze
    assert gc.get_freeze_count() == 0 if before == 0 else gc.get_freeze_count() >= before


@pytest.mark.parametrize(
    ("convention", "verdicts"),
    [
        # \log 100 = 2 | \ln x = \log x | \log 3 / 2 = \ln 3 / 2
        ("reference", [1.0, 1.0, -1.0]),  # the reference's: \ln, else base 10
        ("natural", [-1.0, 1.0, 1.0]),
        ("common", [1.0, -1.0, -1.0]),
    ],
)
async def test_the_log_convention_setting_reaches_the_math_workers(
    convention: str, verdicts: list[float]
) -> None:
    items = [
        {"task": "math", "completion": f"\\boxed{{{answer}}}", "reference": reference}
        for reference, answer in [
            ("\\log 100", "2"),
            ("\\ln x", "\\log x"),
            ("\\frac{\\log 3}{2}", "\\frac{\\ln 3}{2}"),
        ]
    ]
    settings = _settings(math_log_convention=convention)
    async with build_backends(settings, Metrics(), code=False) as backends:
        response = await score_batch(backends.scorer, items, RewardOptions().to_policy())
    assert [r.status for r in response.results] == [Status.OK] * 3
    assert [r.reward for r in response.results] == verdicts  # 1 right, -1 wrong
