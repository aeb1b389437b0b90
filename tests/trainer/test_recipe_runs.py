"""Each recipe config trains 2 GRPO steps on CPU against the real service, with its
recipe's reward semantics checked; evaluation writes pass@k; a flat-key YAML trains."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml

from services.codecheck.extraction import extract_code
from services.contract.http_policy import HttpPolicy
from tests.trainer.run_checks import check_logged_rewards, read_jsonl
from trainer.config import LLAMA_PROJECTIONS, ServiceSection, TrainerConfig, load_config
from trainer.evaluation import RESULTS_FILE
from trainer.flat_config import FlatKeyWarning
from trainer.remote_reward import RemoteReward
from trainer.run_logs import RUN_CONFIG_FILE
from trainer.service_client import AsyncServiceClient, ClientSettings
from trainer.training import DEBUG_FILE, METRICS_FILE, grpo_args, resolve_precision, train

REPO = Path(__file__).resolve().parents[2]
CONFIGS = REPO / "trainer" / "configs"
MATH_DATA = REPO / "trainer" / "data" / "demo_math.jsonl"

Q_ROWS = [
    {
        "problem_description": f"Write solve that returns x+{n}.",
        "test_cases": [
            {"q_test_code": f"show solve {m};", "q_expected_output": str(m + n)} for m in range(4)
        ],
    }
    for n in range(6)
]


def cpu_overrides(
    config: TrainerConfig, model: Path, data: Path, out: Path, service_url: str
) -> TrainerConfig:
    """What a CPU test run changes in a seed config: the model, the data, the length, the
    steps and the output; nothing that decides rewards or the batch geometry."""
    config.model.path = str(model)
    config.data.path = str(data)
    config.data.max_samples = 24
    config.training.output_dir = str(out)
    config.training.max_steps = 2
    config.training.num_train_epochs = 1
    config.training.logging_steps = 1
    config.training.save_steps = 100
    config.training.report_to = []  # wandb is not installed here (its settings are unit-tested)
    config.generation.max_completion_length = 8
    config.generation.use_vllm = False  # no GPU: transformers generates
    config.reward.debug_log_every = 1
    config.reward.debug_samples = None
    config.service.url = [service_url]
    config.service.http = dataclasses.replace(config.service.http, retries=2)
    if config.lora.enabled and config.lora.target_modules != "all-linear":
        assert set(config.lora.target_modules) <= set(LLAMA_PROJECTIONS)
    return config


def seed_config(name: str, model: Path, data: Path, out: Path, service_url: str) -> TrainerConfig:
    return cpu_overrides(load_config(CONFIGS / name), model, data, out, service_url)


def train_steps(out: Path) -> list[int]:
    return [m["step"] for m in read_jsonl(out / METRICS_FILE) if "loss" in m and "reward" in m]


def score_with(
    reward_section: Any, service_url: str, completions: list[str], columns: dict[str, list[Any]]
) -> list[float | None]:
    """The trainer's own reward function on hand-written completions."""
    client = AsyncServiceClient(
        ClientSettings.from_section(ServiceSection(url=[service_url], http=HttpPolicy(retries=0)))
    )
    reward = RemoteReward(client, reward_section)

    async def run() -> list[float | None]:
        try:
            return await reward(
                prompts=["What is 6 * 7?"] * len(completions), completions=completions, **columns
            )
        finally:
            await client.aclose()

    return asyncio.run(run())


def test_math_lora_unboxed_correct_answer_gets_the_no_answer_reward(service_url: str) -> None:
    # Needs the service's per-request extraction policy (options.extraction).
    reward = load_config(CONFIGS / "recipes/math-lora.yaml").reward
    completions = ["\\boxed{42}", "The answer is 42.", "42", "\\boxed{41}"]
    columns = {"task": ["math"] * 4, "reference": ["42"] * 4}
    assert score_with(reward, service_url, completions, columns) == [1.0, -0.5, -0.5, -1.0]


def test_math_lora_run(tiny_model_dir: Path, service_url: str, tmp_path: Path) -> None:
    cfg = seed_config("recipes/math-lora.yaml", tiny_model_dir, MATH_DATA, tmp_path, service_url)
    train(cfg)
    assert train_steps(tmp_path) == [1, 2]
    check_logged_rewards(tmp_path, service_url, cfg, steps=2)
    records = read_jsonl(tmp_path / DEBUG_FILE)
    # Binary rewards only: no format or thinking share.
    assert {r["reward"] for r in records} <= {1.0, -1.0, -0.5}
    assert (tmp_path / "adapter_config.json").exists()
    adapter = json.loads((tmp_path / "adapter_config.json").read_text())
    assert (adapter["r"], adapter["lora_alpha"]) == (16, 32)
    assert set(adapter["target_modules"]) == {"q_proj", "k_proj", "v_proj", "o_proj"}


def test_reasoning_format_run_with_its_validation_reward(
    tiny_model_dir: Path, service_url: str, tmp_path: Path
) -> None:
    cfg = seed_config(
        "recipes/reasoning-format.yaml", tiny_model_dir, MATH_DATA, tmp_path, service_url
    )
    cfg.eval.every_steps, cfg.eval.num_problems = 1, 3
    # Its batch counts prompts (verl's meaning): 4 prompts x 8 samples x 16 micro-steps would
    # need 64 prompts a step; 1 prompt x 8 samples x 2 micro-steps keeps the CPU run short.
    assert cfg.training.batch_size_counts == "prompts"
    cfg.training.per_device_train_batch_size, cfg.training.gradient_accumulation_steps = 1, 2
    train(cfg)
    assert train_steps(tmp_path) == [1, 2]
    check_logged_rewards(tmp_path, service_url, cfg, steps=2)
    records = read_jsonl(tmp_path / DEBUG_FILE)
    for r in records:  # answer + format + thinking, each weight 1
        c = r["components"]
        assert r["reward"] == pytest.approx(c["answer"] + c["format"] + c["thinking"])
    rounds = json.loads((tmp_path / RESULTS_FILE).read_text())
    assert [r["step"] for r in rounds] == [1, 2]
    assert all(r["num_samples"] == 1 and r["pass@1"] is not None for r in rounds)
    assert (tmp_path / "model.safetensors").exists()  # full fine-tuning, as the seed


def test_q_code_run_extracts_direct_q_code(
    tiny_model_dir: Path, service_url: str, tmp_path: Path
) -> None:
    data, evaluation = tmp_path / "q.jsonl", tmp_path / "q_eval.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in Q_ROWS))
    evaluation.write_text("".join(json.dumps(row) + "\n" for row in Q_ROWS[:2]))
    out = tmp_path / "out"
    cfg = seed_config("recipes/q-code.yaml", tiny_model_dir, data, out, service_url)
    cfg.eval.every_steps, cfg.eval.num_problems, cfg.eval.path = 1, 2, str(evaluation)
    cfg.reward.allow_unavailable = True  # no q here: the preflight would stop the run
    cfg.reward.max_unavailable_steps = 0  # this test looks at what the unavailable items say
    train(cfg)
    assert train_steps(out) == [1, 2]
    records = read_jsonl(out / DEBUG_FILE)
    assert len(records) == 2 * 8  # 1 completion x 8 accumulation steps per step
    assert all(len(r["tests"]) == 4 for r in records)
    for r in records:
        expected = extract_code(r["completion"], "q")
        assert r["extracted"] == expected
        if expected is None:  # nothing to run: the empty-code reward
            assert (r["status"], r["reward"]) == ("ok", -0.5)
        else:  # handed to the q runner, which is missing here
            assert r["status"] == "unavailable" and r["reward"] is None
            assert "Q_BIN" in r["detail"]
            assert r["components"]["tests_total"] == 3.0  # the seed's 3 tests per problem
    assert any(r["extracted"] is not None for r in records)  # bare completions count as code
    rounds = json.loads((out / RESULTS_FILE).read_text())
    assert [r["step"] for r in rounds] == [1, 2]
    assert all(r["num_samples"] == 4 and r["num_problems"] == 2 for r in rounds)


def test_a_flat_key_yaml_trains(tiny_model_dir: Path, service_url: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    seed_yaml = {
        "model_path": str(tiny_model_dir),
        "lora_r": 4,
        "lora_alpha": 8,
        "lora_dropout": 0.05,
        "num_return_sequences": 2,
        "kl_coef": 0.05,
        "reward_correct": 1.0,
        "reward_wrong": -1.0,
        "reward_no_answer": -0.5,
        "num_epochs": 1,
        "per_device_train_batch_size": 4,
        "gradient_accumulation_steps": 1,
        "learning_rate": 1e-4,
        "max_new_tokens": 12,
        "temperature": 0.7,
        "top_p": 0.9,
        "logging_steps": 1,
        "max_steps": 2,
        "output_dir": str(out),
        "train_files": str(MATH_DATA),
        "max_samples": 8,
        "service": {"url": service_url, "retries": 2},
    }
    path = tmp_path / "rl_grpo_config.yaml"
    path.write_text(yaml.safe_dump(seed_yaml))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cfg = load_config(path)
    messages = [str(w.message) for w in caught if w.category is FlatKeyWarning]
    assert len(messages) == len(seed_yaml) - 1  # every flat key; "service" is a section
    assert any("'kl_coef' read as 'grpo.beta'" in m for m in messages)
    cfg.reward.debug_log_every, cfg.reward.debug_samples = 1, None
    train(cfg)
    assert train_steps(out) == [1, 2]
    check_logged_rewards(out, service_url, cfg, steps=2)
    # The run's config.yaml is the resolved config, in sections: it loads with no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error", FlatKeyWarning)
        saved = load_config(out / RUN_CONFIG_FILE)
    assert saved == cfg


def test_knobs_reach_grpo_config_and_the_tracker_environment() -> None:
    from trainer.training import Hardware, tracker_environment

    cfg = load_config(CONFIGS / "recipes/q-code.yaml")
    cfg.generation.vllm_mode = "colocate"
    cfg.generation.vllm_max_model_length = 8192
    cfg.generation.vllm_tensor_parallel_size = 2
    cfg.training.wandb_tags = ["q", "grpo"]
    cfg.training.output_dir = "/tmp/unused-seed003"
    args = grpo_args(cfg, resolve_precision(cfg, Hardware(cuda=False, bf16_supported=False)))
    assert (args.vllm_max_model_length, args.vllm_tensor_parallel_size) == (8192, 2)
    assert args.run_name == "1.5b_non_reason" and args.report_to == ["wandb"]
    assert tracker_environment(cfg) == {"WANDB_PROJECT": "q-rl", "WANDB_TAGS": "q,grpo"}
