"""OpenRLHF's own reward path on CPU, for the tests that run it: its classes imported with
the GPU-only ``vllm`` module stubbed, and an engine that returns a scripted response."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class _Completion:
    token_ids: list[int]
    text: str
    finish_reason: str = "stop"
    logprobs: None = None


@dataclass
class _RequestOutput:
    outputs: list[_Completion] = field(default_factory=list)


class ScriptedEngine:
    """Stands in for OpenRLHF's vLLM engine (GPU): returns fixed token ids."""

    def __init__(self, token_ids: list[int], text: str) -> None:
        self._output = _RequestOutput([_Completion(token_ids, text)])

    async def generate(self, prompt_token_ids: list[int], *_: Any, **__: Any) -> _RequestOutput:
        return self._output


@contextmanager
def openrlhf_reward_path() -> Iterator[types.SimpleNamespace]:
    """OpenRLHF's reward-path classes, imported with the GPU-only ``vllm`` module stubbed
    (the stubs are removed again on leaving)."""
    stubs = {name: types.ModuleType(name) for name in ("vllm", "vllm.inputs", "vllm.utils")}
    stubs["vllm"].SamplingParams = types.SimpleNamespace  # type: ignore[attr-defined]
    stubs["vllm.inputs"].TokensPrompt = dict  # type: ignore[attr-defined]
    stubs["vllm.utils"].random_uuid = lambda: "0"  # type: ignore[attr-defined]
    saved = {name: sys.modules.get(name) for name in stubs}
    sys.modules.update(stubs)
    try:
        from openrlhf.trainer.ppo_utils.experience import Experience, split_experience_batch
        from openrlhf.trainer.ppo_utils.samples_generator import SamplesGenerator
        from openrlhf.utils.agent import SingleTurnAgentExecutor

        yield types.SimpleNamespace(
            Executor=SingleTurnAgentExecutor,
            Experience=Experience,
            split=split_experience_batch,
            generator=SamplesGenerator(
                strategy=types.SimpleNamespace(args=types.SimpleNamespace()),
                prompts_dataloader=None,
                eval_dataloader=None,
                tokenizer=None,
                vllm_engines=[],
            ),
        )
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
