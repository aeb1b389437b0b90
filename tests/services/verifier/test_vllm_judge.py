"""Verdicts from a real vLLM server: logprob and text modes, batching, cache, raw API facts."""

from __future__ import annotations

import math

import httpx
import pytest

from harness.vllm import VLLMServer
from services.verifier import VerifierClient, VerifierConfig, VerifyRequest

pytestmark = pytest.mark.anyio

ITEMS = [
    VerifyRequest("What is 2 + 2?", "4", "4"),
    VerifyRequest("What is 2 + 2?", "4", "5"),
    VerifyRequest("Simplify 2/4.", "\\frac{1}{2}", "0.5"),
    VerifyRequest("Name the capital of France.", "Paris", "London"),
]


def _auth(server: VLLMServer) -> dict[str, str]:
    return {"Authorization": f"Bearer {server.api_key}"}


def _config(server: VLLMServer, **overrides: object) -> VerifierConfig:
    base = {"url": server.url, "model": server.model, "api_key": server.api_key}
    return VerifierConfig(**{**base, **overrides})


async def test_logprob_mode_gives_probabilities_and_label_mass(vllm_server: VLLMServer) -> None:
    async with VerifierClient(_config(vllm_server)) as client:
        results = await client.judge(ITEMS)
    for judgement in results:
        assert judgement.error is None, judgement.error
        assert judgement.decided_by == "logprob"
        assert judgement.probability is not None and 0.0 <= judgement.probability <= 1.0
        assert judgement.label_mass is not None and 0.0 < judgement.label_mass <= 1.0
        assert judgement.raw  # the greedy first token, whatever it is
        assert not judgement.cached


async def test_token_id_logprobs_match_the_top_k(vllm_server: VLLMServer) -> None:
    """logprob_token_ids returns the same numbers as top-20, even outside the top-k."""
    async with VerifierClient(_config(vllm_server)) as client:
        [ours] = await client.judge(ITEMS[:1])
        wrapper = client._wrapper
    assert wrapper is not None and "<|im_start|>assistant" in wrapper.suffix
    from services.verifier.prompts import verify_prompt

    prompt = wrapper.wrap(verify_prompt(_config(vllm_server), ITEMS[0]))
    body = {
        "model": vllm_server.model,
        "prompt": [prompt],
        "max_tokens": 1,
        "temperature": 0,
        "logprobs": 20,
        "add_special_tokens": False,
    }
    async with httpx.AsyncClient(timeout=120, headers=_auth(vllm_server)) as http:
        top = (await http.post(f"{vllm_server.url}/v1/completions", json=body)).json()
    tops = top["choices"][0]["logprobs"]["top_logprobs"][0]
    p_true = sum(math.exp(v) for k, v in tops.items() if k.strip().lower() == "true")
    p_false = sum(math.exp(v) for k, v in tops.items() if k.strip().lower() == "false")
    assert ours.label_mass is not None and ours.label_mass >= p_true + p_false - 1e-4
    if p_true > 0 and p_false > 0:
        assert ours.probability == pytest.approx(p_true / (p_true + p_false), abs=0.02)


async def test_128_items_use_few_http_requests_and_then_the_cache(
    vllm_server: VLLMServer,
) -> None:
    items = [
        VerifyRequest(f"What is {i} + {i}?", str(2 * i), str(2 * i + i % 2)) for i in range(128)
    ]
    before = _server_completion_requests(vllm_server)
    # A shared 2-core host can take over a minute for a 64-prompt batch: a generous timeout
    # keeps a slow-but-alive server from triggering retries, which this test counts.
    config = _config(vllm_server, max_batch=64, timeout_s=600)
    async with VerifierClient(config) as client:
        results = await client.judge(items)
        assert all(j.ok for j in results), [j.error for j in results if not j.ok][:3]
        assert client.transport.requests_sent["/v1/completions"] == 2  # 128 / max_batch 64
        assert _server_completion_requests(vllm_server) - before == 2
        again = await client.judge([*items[:10], *items[:10]])
        assert all(j.cached for j in again)
        assert [j.probability for j in again[:10]] == [j.probability for j in results[:10]]
        assert client.transport.requests_sent["/v1/completions"] == 2  # nothing new sent


async def test_duplicates_in_a_batch_are_asked_once(vllm_server: VLLMServer) -> None:
    async with VerifierClient(_config(vllm_server, cache_size=0)) as client:
        results = await client.judge([ITEMS[1]] * 6)
        assert len({j.probability for j in results}) == 1
        assert client.transport.requests_sent["/v1/completions"] == 1


async def test_text_mode_returns_only_labels(vllm_server: VLLMServer) -> None:
    async with VerifierClient(_config(vllm_server, scoring="text")) as client:
        results = await client.judge(ITEMS)
    for judgement in results:
        assert judgement.error is None, judgement.error
        assert judgement.decided_by == "text"
        assert judgement.raw in ("True", "False")
        assert judgement.probability == (1.0 if judgement.raw == "True" else 0.0)


def test_structured_outputs_constrain_but_guided_fields_are_ignored(
    vllm_server: VLLMServer,
) -> None:
    """The claim behind using ``structured_outputs``: vLLM 0.32 drops ``guided_choice``."""
    body = {
        "model": vllm_server.model,
        "prompt": ["Write a long poem about the sea.\n"],
        "max_tokens": 6,
        "temperature": 0,
    }
    url = f"{vllm_server.url}/v1/completions"
    auth = _auth(vllm_server)
    guided = httpx.post(
        url, json={**body, "guided_choice": ["True", "False"]}, headers=auth, timeout=120
    )
    structured = httpx.post(
        url,
        json={**body, "structured_outputs": {"choice": ["True", "False"]}},
        headers=auth,
        timeout=120,
    )
    assert guided.status_code == 200  # accepted silently ...
    assert guided.json()["choices"][0]["text"] not in ("True", "False")  # ... unconstrained
    assert structured.json()["choices"][0]["text"] in ("True", "False")
    assert structured.json()["choices"][0]["finish_reason"] == "stop"


async def test_health_reports_the_served_model(vllm_server: VLLMServer) -> None:
    async with VerifierClient(_config(vllm_server)) as client:
        ok, detail = await client.health()
    assert ok, detail
    assert vllm_server.model in detail
    async with VerifierClient(_config(vllm_server, model="other-model")) as client:
        ok, detail = await client.health()
    assert not ok and "not served" in detail


def _server_completion_requests(server: VLLMServer) -> float:
    """HTTP requests the server counted on /v1/completions (its Prometheus metrics)."""
    text = httpx.get(f"{server.url}/metrics", timeout=10).text
    total = 0.0
    for line in text.splitlines():
        if line.startswith("http_requests_total{") and 'handler="/v1/completions"' in line:
            total += float(line.rsplit(" ", 1)[1])
    return total
