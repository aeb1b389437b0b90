"""OpenRLHF 0.11's own reward path against the running service.

Its real code runs here: ``SingleTurnAgentExecutor.execute`` tokenizes the prompt, decodes
prompt + response with special tokens kept, posts ``{query, prompts, labels}`` with aiohttp
and reads the reply; ``SamplesGenerator._process_response_into_experience`` turns the
reply into tensors, and ``Experience.concat_experiences`` / ``split_experience_batch``
merge and split the samples' logs as its trainer does. The tokenizer is SmolLM2's real one.

Stubbed, because they need a GPU: the rollout engine (vLLM), replaced by an engine that
returns a scripted response's token ids, and the ``vllm`` module the trainer imports only
for ``SamplingParams`` and its engine actor.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import base64
import importlib.util
import json
import re
import shlex
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import API_KEY
from tests.openrlhf_executor import ScriptedEngine, openrlhf_reward_path
from trainer.smollm2 import build_tokenizer, gguf_path

pytest.importorskip("openrlhf", reason="openrlhf==0.11.* is installed by make install-dev")

PRIME_TESTS = json.dumps({"inputs": ["1 2\n", "5 7\n"], "outputs": ["3\n", "12\n"]})
ADDER = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"


@pytest.fixture(scope="module")
def openrlhf() -> Iterator[types.SimpleNamespace]:
    """OpenRLHF's reward-path classes, imported with the GPU-only ``vllm`` module stubbed."""
    with openrlhf_reward_path() as classes:
        yield classes


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    return build_tokenizer(gguf_path())


def _prompt(tokenizer: Any, question: str) -> str:
    chat = [{"role": "user", "content": question}]
    prompt: str = tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)
    return prompt


def _rollout(
    openrlhf: types.SimpleNamespace,
    tokenizer: Any,
    url: str,
    samples: list[tuple[str, str, Any, list[str]]],
    max_length: int = 2048,
) -> list[dict[str, Any]]:
    """OpenRLHF's executor on each (question, response, label, trailing tokens)."""
    executor = openrlhf.Executor(url)

    async def one(question: str, response: str, label: Any, trailing: list[str]) -> Any:
        ids = tokenizer(response, add_special_tokens=False)["input_ids"]
        ids += tokenizer.convert_tokens_to_ids(trailing)
        params = types.SimpleNamespace(max_tokens=512, logprobs=None)
        return await executor.execute(
            _prompt(tokenizer, question),
            label,
            params,
            max_length=max_length,
            hf_tokenizer=tokenizer,
            llm_engine=ScriptedEngine(ids, response),
        )

    async def every() -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(one(*sample) for sample in samples)))

    return asyncio.run(every())


SAMPLES: list[tuple[str, str, Any, list[str]]] = [
    # (question, response, label as the dataset holds it, end tokens the model emitted)
    ("What is 2+2?", "#### 4", "4", ["<|im_end|>"]),
    ("What is 2+2?", "The answer is 4", 4, ["<|im_end|>", "<|endoftext|>", "<|endoftext|>"]),
    ("What is 2+2?", "The answer is 5", "4", ["<|im_end|>"]),
    ("What is 0.5 + 0.25?", "\\boxed{0.75}", 0.75, ["<|im_end|>"]),
    ("Add the two numbers.", ADDER, PRIME_TESTS, ["<|im_end|>"]),
    ("What is 2+2?", "#### 4", "", ["<|im_end|>"]),  # --data.label_key not given
]


def test_openrlhf_reward_path_on_the_service(
    openrlhf: types.SimpleNamespace, tokenizer: Any, client: httpx.Client, service_url: str
) -> None:
    outputs = _rollout(openrlhf, tokenizer, f"{service_url}/get_reward", SAMPLES)
    assert all(o["reward"] is not None for o in outputs), "a reward request failed"
    experiences = [openrlhf.generator._process_response_into_experience(o) for o in outputs]
    rewards = [e.rewards.flatten().item() for e in experiences]
    assert rewards == [1.0, 1.0, -1.0, 1.0, 2.0, -0.5]

    # The same items through /score give the same rewards.
    items: list[dict[str, Any]] = [
        {"task": "math", "completion": response, "reference": str(label)}
        for _, response, label, _ in SAMPLES[:4]
    ]
    items.append({"task": "code", "language": "python", "completion": ADDER, "tests": PRIME_TESTS})
    scored = client.post("/score", json={"items": items}).json()["results"]
    assert rewards[:5] == [r["reward"] for r in scored]

    # Every sample logs the same numeric keys, so OpenRLHF's batch merge and split work.
    batch = openrlhf.Experience.concat_experiences(experiences, tokenizer.pad_token_id)
    logs = {key: value.flatten().tolist() for key, value in batch.info.items()}
    assert logs["correct"] == [1.0, 1.0, 0.0, 1.0, 1.0, 0.0]
    assert logs["error"] == [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]  # the empty label, counted
    assert logs["score"] == [1.0, 1.0, 0.0, 1.0, 1.0, 0.0]
    assert len(openrlhf.split(batch)) == len(SAMPLES)


def test_a_prompt_openrlhf_truncated_is_still_cut_off(
    openrlhf: types.SimpleNamespace, tokenizer: Any, service_url: str
) -> None:
    """A prompt longer than its budget loses its first tokens; the answer shown in the
    prompt's own instructions must not be read as the response's."""
    question = "Reply in the form \\boxed{7}. What is 2+2?"
    prompt_tokens = len(tokenizer(_prompt(tokenizer, question), add_special_tokens=False).input_ids)
    sample = (question, "I do not know.", "4", ["<|im_end|>"])
    # OpenRLHF keeps the last max_length - max_tokens (512) prompt tokens: 3 are cut.
    (output,) = _rollout(
        openrlhf, tokenizer, f"{service_url}/get_reward", [sample], 509 + prompt_tokens
    )
    assert output["action_ranges"][0][0] == prompt_tokens - 3, "the prompt was not truncated"
    assert output["reward"] == [-0.5]  # no answer, as /score gives for the response alone


def test_text_in_extra_logs_breaks_openrlhf(openrlhf: types.SimpleNamespace) -> None:
    """Why the reply holds numbers only: the shape this service used to send crashes."""
    reply = {
        "observation_tokens": [1, 2, 3],
        "action_ranges": [(1, 3)],
        "rollout_log_probs": None,
        "prompt": "p",
        "label": "4",
        "reward": [1.0],
        "scores": [1.0],
        "extra_logs": {"status": ["ok"]},
    }
    with pytest.raises(ValueError, match="too many dimensions 'str'"):
        openrlhf.generator._process_response_into_experience(reply)


def test_url_credentials_and_end_tokens_reach_the_service(
    openrlhf: types.SimpleNamespace, tokenizer: Any, strict_service_url: str
) -> None:
    host = strict_service_url.removeprefix("http://")
    # OpenRLHF sends no headers; aiohttp turns the URL's credentials into Basic auth. A
    # tokenizer-specific end text (here [END]) goes in the end_token query parameter.
    url = f"http://openrlhf:{API_KEY}@{host}/get_reward?end_token=%5BEND%5D"
    samples = [("What is 2+2?", "#### 4 [END]", "4", ["<|im_end|>"])]
    (output,) = _rollout(openrlhf, tokenizer, url, samples)
    assert output["reward"] == [1.0]

    body = {"query": ["Q #### 4[END]"], "prompts": ["Q"], "labels": ["4"]}
    plain = httpx.post(f"{strict_service_url}/get_reward", json=body)
    assert plain.status_code == 401
    wrong = base64.b64encode(b"openrlhf:not-the-key").decode()
    refused = httpx.post(
        f"{strict_service_url}/get_reward", json=body, headers={"Authorization": f"Basic {wrong}"}
    )
    assert refused.status_code == 401
    bearer = {"Authorization": f"Bearer {API_KEY}"}
    unstripped = httpx.post(f"{strict_service_url}/get_reward", json=body, headers=bearer)
    assert unstripped.json()["rewards"] == [-1.0]  # the answer read as "4[END]"


def test_labels_as_datasets_hold_them(client: httpx.Client) -> None:
    query = ["Q: \\boxed{4}</s><pad><pad>"] * 6
    labels: list[Any] = [4, 4.0, "4", None, "  ", {"inputs": ["1"], "outputs": ["1"]}]
    reply = client.post(
        "/get_reward", json={"query": query, "prompts": ["Q: "] * 6, "labels": labels}
    )
    assert reply.status_code == 200, reply.text
    data = reply.json()
    # The code label: the completion holds no python code, so the empty-code reward.
    assert data["rewards"] == [1.0, 1.0, 1.0, -0.5, -0.5, -0.5]
    assert data["extra_logs"]["error"] == [0.0, 0.0, 0.0, 1.0, 1.0, 0.0]
    assert data["extra_logs"]["no_answer"] == [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    assert set(data["extra_logs"]) == {
        "correct",
        "no_answer",
        "verifier",
        "error",
        "unavailable",
        "timeout",
    }
    missing = client.post("/get_reward", json={"query": query[:1], "prompts": ["Q: "]}).json()
    assert missing["rewards"] == [-0.5] and missing["extra_logs"]["error"] == [1.0]
    broken = client.post(
        "/get_reward",
        json={"query": query[:1], "prompts": ["Q: "], "labels": ['{"inputs": ["1"]']},
    ).json()
    assert broken["extra_logs"]["error"] == [1.0]  # code-like label that does not parse
    odd = client.post(
        "/get_reward",
        json={"query": query[:3], "prompts": ["Q: "] * 3, "labels": [["4"], [[1, 2]], {"a": 1}]},
    ).json()
    # A list of answers, a nested list, an object of no test format: errors, not math.
    assert odd["extra_logs"]["error"] == [1.0, 1.0, 1.0] and odd["rewards"] == [-0.5] * 3


def test_labels_that_cannot_judge_are_errors_and_numbers_are_exact(client: httpx.Client) -> None:
    """A label with no answer in it, a boolean or NaN is that sample's error (the no-answer
    reward and error 1), never a -1 judged against it; 0.1 is read as 0.1."""
    labels = ["0.1", "true", '"4\\u0000"', '"$$"', '"\\t "', "NaN", "4", "1e-05"]
    answers = ["0.1", "4", "4", "4", "4", "4", "4", "0.00001"]
    query = [f"Q: \\boxed{{{answer}}}" for answer in answers]
    # Python's JSON (the route's) reads NaN; httpx writes none, so the body is written here.
    fields = [f'"query": {json.dumps(query)}', f'"prompts": {json.dumps(["Q: "] * len(query))}']
    content = "{" + ", ".join([*fields, f'"labels": [{", ".join(labels)}]']) + "}"
    reply = client.post(
        "/get_reward", content=content, headers={"Content-Type": "application/json"}
    )
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["rewards"] == [1.0, -0.5, -0.5, -0.5, -0.5, -0.5, 1.0, 1.0]
    assert data["extra_logs"]["error"] == [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]
    assert data["extra_logs"]["correct"] == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]


def _is_stdlib_import(node: ast.stmt) -> bool:
    if isinstance(node, ast.ImportFrom):
        names = [node.module or ""]
    elif isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        return False
    return all(name.split(".")[0] in sys.stdlib_module_names for name in names)


def _openrlhf_parser() -> argparse.ArgumentParser:
    """train_ppo_ray's own argument parser: its standard-library imports, then its
    ``__main__`` block up to ``parse_args`` (the rest starts Ray and needs GPUs)."""
    spec = importlib.util.find_spec("openrlhf.cli.train_ppo_ray")
    assert spec is not None and spec.origin is not None
    module = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    imports = [n for n in module.body if _is_stdlib_import(n)]
    main = next(n for n in module.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n))
    end = next(i for i, n in enumerate(main.body) if "parse_args" in ast.unparse(n))
    source = ast.Module(body=[*imports, *main.body[:end]], type_ignores=[])
    namespace: dict[str, Any] = {}
    exec(compile(source, spec.origin, "exec"), namespace)
    parser: argparse.ArgumentParser = namespace["parser"]
    return parser


def test_the_documented_command_parses_with_openrlhf_itself() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "trainer.md").read_text()
    block = re.search(r"```bash\n(python -m openrlhf\.cli\.train_ppo_ray.*?)```", docs, re.DOTALL)
    assert block is not None, "docs/trainer.md has no OpenRLHF command"
    words = shlex.split(block.group(1).replace("\\\n", " "))[3:]
    parser = _openrlhf_parser()
    args = parser.parse_args(words)
    assert getattr(args, "reward.remote_url").endswith("/get_reward")
    assert getattr(args, "data.label_key") == "ground_truth"
    with pytest.raises(SystemExit):  # the flag these docs used to show
        parser.parse_args(["--remote_rm_url", "http://verifier-0:8000/get_reward"])
