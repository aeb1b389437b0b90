"""Rubric grades from a real vLLM server: critique, then a regex-forced "N/10"."""

from __future__ import annotations

import pytest

from harness.vllm import VLLMServer
from services.rewards.policy import rubric_reward
from services.verifier import RubricRequest, VerifierClient, VerifierConfig

pytestmark = pytest.mark.anyio


async def test_rubric_grades_are_parseable_scores(vllm_server: VLLMServer) -> None:
    config = VerifierConfig(
        url=vllm_server.url,
        model=vllm_server.model,
        api_key=vllm_server.api_key,
        rubric_max_tokens=48,
    )
    items = [
        RubricRequest("Explain why the sky is blue.", "Rayleigh scattering of sunlight."),
        RubricRequest("What is 7 * 6?", "42", "The exact number is required."),
        RubricRequest("Name a prime number above 10.", "15"),
    ]
    async with VerifierClient(config) as client:
        grades = await client.grade_rubric(items)
        assert client.transport.requests_sent["/v1/completions"] == 2  # critique + score
        again = await client.grade_rubric(items[:1])
    for grade in grades:
        assert grade.error is None, grade.error
        assert grade.score is not None and 0.0 <= grade.score <= 1.0
        assert "Total Score: " in grade.critique and grade.critique.endswith("/10")
        assert 0.0 <= rubric_reward(grade.score, 0.8) <= 1.0
    assert again[0].cached and again[0].score == grades[0].score
