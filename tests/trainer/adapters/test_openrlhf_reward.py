"""The OpenRLHF reward file, loaded by path as OpenRLHF loads it, scoring through a real
service on loopback with this run's options from the environment."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.openrlhf_executor import ScriptedEngine, openrlhf_reward_path

REWARD_FILE = Path(__file__).resolve().parents[3] / "trainer" / "adapters" / "openrlhf_reward.py"
PROMPT = "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n"
ADDER = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
VERL_TESTS = json.dumps({"inputs": ["1 2\n", "5 7\n"], "outputs": ["3\n", "12\n"]})
# TinyV's scale and boxed answers only: options a bare /get_reward URL cannot send.
RUN_OPTIONS = {"correct": 1, "wrong": 0, "no_answer": 0, "extraction": "boxed"}


def load_by_path() -> types.ModuleType:
    """The file as OpenRLHF 0.11 loads it (openrlhf/utils/agent.py, SingleTurnAgentExecutor)."""
    spec = importlib.util.spec_from_file_location("reward_func", str(REWARD_FILE))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def hook(monkeypatch: pytest.MonkeyPatch, service_url: str) -> Iterator[types.ModuleType]:
    monkeypatch.setenv("VERIFIER_URL", f"{service_url}/")
    monkeypatch.setenv("VERIFIER_REWARD_OPTIONS", json.dumps(RUN_OPTIONS))
    monkeypatch.delenv("VERIFIER_API_KEY", raising=False)
    module = load_by_path()
    yield module
    module.reset()


def test_reward_func_scores_with_the_runs_options(hook: types.ModuleType) -> None:
    samples = [
        ("\\boxed{4}<|im_end|>", "4"),  # right, boxed
        ("The answer is 4<|im_end|>", "4"),  # right but not boxed: no answer under "boxed"
        ("\\boxed{5}<|im_end|>", 4),  # wrong; a numeric label as datasets hold it
        (ADDER + "<|im_end|>", VERL_TESTS),  # code: verl's test data as the label
    ]
    rewards = []
    for response, label in samples:
        answer = hook.reward_func([PROMPT + response], [PROMPT], [label])
        assert set(answer) == {"rewards", "scores", "extra_logs"}
        rewards.append(answer["rewards"][0])
    # On the service's defaults the unboxed answer would be +1 and the wrong one -1.
    assert rewards == [1.0, 0.0, 0.0, 2.0]


def test_samples_in_one_call_and_an_unjudgeable_label(hook: types.ModuleType) -> None:
    answer = hook.reward_func(
        [PROMPT + "\\boxed{4}", PROMPT + "\\boxed{4}"], [PROMPT, PROMPT], ["4", ""]
    )
    assert answer["rewards"] == [1.0, 0.0]  # the empty label: no_answer of this run (0)
    assert answer["extra_logs"]["error"] == [0.0, 1.0]


def test_settings_it_cannot_use_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    module = load_by_path()
    monkeypatch.setenv("VERIFIER_REWARD_OPTIONS", "[1, 2]")
    with pytest.raises(module.RewardSettingsError, match="VERIFIER_REWARD_OPTIONS"):
        module.reward_func([PROMPT], [PROMPT], ["4"])
    monkeypatch.setenv("VERIFIER_REWARD_OPTIONS", '{"mode": "rule"}')
    monkeypatch.setenv("VERIFIER_REWARD_TIMEOUT_S", "soon")
    with pytest.raises(module.RewardSettingsError, match="VERIFIER_REWARD_TIMEOUT_S"):
        module.reward_func([PROMPT], [PROMPT], ["4"])


def test_an_unreachable_service_raises_instead_of_a_reward(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from services.contract.client import RewardServiceError

    monkeypatch.setenv("VERIFIER_URL", "http://127.0.0.1:9")  # discard port: refused
    monkeypatch.setenv("VERIFIER_REWARD_TIMEOUT_S", "2")
    module = load_by_path()
    try:
        # The client's own retries would back off for seconds; one attempt shows the error.
        client, _ = module._connect()
        object.__setattr__(client.settings, "retries", 0)
        with pytest.raises(RewardServiceError, match="unreachable"):
            module.reward_func([PROMPT + "\\boxed{4}"], [PROMPT], ["4"])
    finally:
        module.reset()


# OpenRLHF's own executor, with the GPU-only vllm module stubbed and a scripted engine.


def test_openrlhfs_executor_loads_the_file_and_trains_on_its_rewards(
    hook: types.ModuleType,
) -> None:
    pytest.importorskip("openrlhf", reason="openrlhf==0.11.* is installed by make install-dev")
    from trainer.smollm2 import build_tokenizer, gguf_path

    with openrlhf_reward_path() as openrlhf:
        tokenizer = build_tokenizer(gguf_path())
        executor = openrlhf.Executor(str(REWARD_FILE))  # --reward.remote_url FILE.py
        assert executor.reward_func is not None

        async def rollout(response: str, label: Any) -> Any:
            chat = [{"role": "user", "content": "What is 2+2?"}]
            prompt = tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)
            ids = tokenizer(response, add_special_tokens=False)["input_ids"]
            ids += tokenizer.convert_tokens_to_ids(["<|im_end|>"])
            return await executor.execute(
                prompt,
                label,
                types.SimpleNamespace(max_tokens=512, logprobs=None),
                max_length=2048,
                hf_tokenizer=tokenizer,
                llm_engine=ScriptedEngine(ids, response),
            )

        async def every() -> list[Any]:
            pairs = [("\\boxed{4}", "4"), ("The answer is 4", "4"), ("\\boxed{5}", "4")]
            return list(await asyncio.gather(*(rollout(r, label) for r, label in pairs)))

        outputs = asyncio.run(every())
        experiences = [openrlhf.generator._process_response_into_experience(o) for o in outputs]
        assert [e.rewards.flatten().item() for e in experiences] == [1.0, 0.0, 0.0]
        assert [e.info["correct"].item() for e in experiences] == [1.0, 0.0, 0.0]
