"""A real TRL GRPO loop on CPU: tiny model, LoRA, KL, rewards from the real service."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tests.trainer.run_checks import check_logged_rewards, read_jsonl
from trainer.config import TrainerConfig
from trainer.evaluation import RESULTS_FILE, SAMPLES_FILE, pass_at_k
from trainer.training import DEBUG_FILE, METRICS_FILE, train

DEMO_MATH = Path(__file__).resolve().parents[2] / "trainer" / "data" / "demo_math.jsonl"
PY_ROWS = [
    {
        "prompt": f"Define add(a, b) returning the sum; add({n}, 1) is {n + 1}.",
        "tests": [
            {"code": f"assert add({n}, 1) == {n + 1}"},
            {"code": "print(add(2, 2))", "expected": "4"},
        ],
    }
    for n in range(4)
]


def config(
    model: Path, dataset: Path, service_url: str, out: Path, **sections: Any
) -> TrainerConfig:
    raw: dict[str, Any] = {
        "model": {"path": str(model)},
        "lora": {"r": 4, "alpha": 8, "target_modules": "all-linear"},
        "grpo": {"num_generations": 4, "beta": 0.05},
        "training": {
            "output_dir": str(out),
            "max_steps": 3,
            "per_device_train_batch_size": 4,
            "gradient_accumulation_steps": 1,
            "learning_rate": 1e-3,
            "save_steps": 2,
            "seed": 1,
        },
        "generation": {"max_completion_length": 12},
        "data": {"path": str(dataset), "max_samples": 6},
        "reward": {"debug_log_every": 1, "debug_samples": None},
        "service": {"url": service_url, "retries": 2},
    }
    for section, values in sections.items():
        raw[section] = {**raw.get(section, {}), **values}
    return TrainerConfig.model_validate(raw)


@pytest.fixture(scope="module")
def math_run(
    tiny_model_dir: Path, service_url: str, tmp_path_factory: pytest.TempPathFactory
) -> tuple[TrainerConfig, Path]:
    out = tmp_path_factory.mktemp("math-run")
    cfg = config(tiny_model_dir, DEMO_MATH, service_url, out)
    train(cfg)
    return cfg, out


def test_math_run_writes_checkpoints_metrics_and_logs(math_run: tuple[TrainerConfig, Path]) -> None:
    _, out = math_run
    assert {p.name for p in out.glob("checkpoint-*")} == {"checkpoint-2", "checkpoint-3"}
    assert (out / "checkpoint-2" / "adapter_model.safetensors").exists()  # LoRA, not full
    assert (out / "adapter_model.safetensors").exists()  # the final adapter
    metrics = [m for m in read_jsonl(out / METRICS_FILE) if "loss" in m and "reward" in m]
    assert [m["step"] for m in metrics] == [1, 2, 3]
    for m in metrics:
        for key in (
            "reward",
            "kl",
            "loss",
            "verifier/seconds",
            "verifier/accuracy",
            "verifier/answer",
            "verifier/status_ok",
        ):
            assert key in m and m[key] is not None and math.isfinite(m[key]), key
    assert metrics[-1]["kl"] >= 0.0  # beta > 0: a reference model is in use
    log = (out / "training.log").read_text()
    assert "step 3:" in log and "checkpoint-2" in log


def test_math_rewards_are_the_services(
    math_run: tuple[TrainerConfig, Path], service_url: str
) -> None:
    cfg, out = math_run
    check_logged_rewards(out, service_url, cfg, steps=3)


def test_resume_continues_from_the_last_checkpoint(math_run: tuple[TrainerConfig, Path]) -> None:
    cfg, out = math_run
    cfg.training.max_steps = 4
    cfg.training.resume = "latest"
    train(cfg)
    assert (out / "checkpoint-4").exists()
    steps = [m["step"] for m in read_jsonl(out / METRICS_FILE) if "loss" in m and "reward" in m]
    assert steps == [1, 2, 3, 4]  # step 4 only: nothing before the checkpoint was redone
    assert "starting at step 3" in (out / "training.log").read_text()


def test_resume_from_a_missing_checkpoint_fails(
    math_run: tuple[TrainerConfig, Path], tmp_path: Path
) -> None:
    cfg, _ = math_run
    cfg = cfg.model_copy(deep=True)
    cfg.training.resume = str(tmp_path / "checkpoint-9")
    cfg.training.output_dir = str(tmp_path)
    with pytest.raises(FileNotFoundError, match="checkpoint-9"):
        train(cfg)


def test_python_code_run(tiny_model_dir: Path, service_url: str, tmp_path: Path) -> None:
    data = tmp_path / "py.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in PY_ROWS))
    cfg = config(
        tiny_model_dir,
        data,
        service_url,
        tmp_path / "out",
        training={"max_steps": 2},
        reward={"task": "code", "language": "python"},
        data={"conversational": False, "reasoning_format": "none"},
    )
    train(cfg)
    out = tmp_path / "out"
    records = read_jsonl(out / DEBUG_FILE)
    assert {r["task"] for r in records} == {"code"}
    assert records[0]["prompt"].startswith("<|im_start|>user\nDefine add")  # chat template
    check_logged_rewards(out, service_url, cfg, steps=2)


def test_a_verl_format_code_dataset_trains(
    tiny_model_dir: Path, service_url: str, tmp_path: Path
) -> None:
    """verl's own code rows (chat-message prompt, tests as reward_model.ground_truth: a JSON
    string of stdin/stdout pairs, or a dict with fn_name for call-based items) train."""
    stdio = {"inputs": ["1 2\n", "5 7\n"], "outputs": ["3\n", "12\n"]}
    call = {"fn_name": "add", "inputs": [[1, 2], [2, 2]], "outputs": [[3], [4]]}
    rows = [
        {
            "data_source": "codecontests",
            "prompt": [{"role": "user", "content": f"Write add; case {n}."}],
            "ability": "code",
            "reward_model": {"style": "rule", "ground_truth": json.dumps(stdio) if n % 2 else call},
        }
        for n in range(4)
    ]
    data = tmp_path / "verl_code.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    cfg = config(
        tiny_model_dir,
        data,
        service_url,
        tmp_path / "out",
        # Two prompts a step, two steps: one epoch of the four rows, so both kinds are sent.
        training={"max_steps": 2, "per_device_train_batch_size": 8},
        reward={"task": "code", "language": "python"},
        data={"reasoning_format": "none"},
    )
    train(cfg)
    out = tmp_path / "out"
    records = read_jsonl(out / DEBUG_FILE)
    assert {r["task"] for r in records} == {"code"}
    # Both kinds of test reached the service: stdin/stdout pairs and calls of fn_name.
    assert any(t.get("stdin") == "1 2\n" for r in records for t in r["tests"])
    assert any("add" in (t.get("code") or "") for r in records for t in r["tests"])
    check_logged_rewards(out, service_url, cfg, steps=2)


def test_full_fine_tuning_run(tiny_model_dir: Path, service_url: str, tmp_path: Path) -> None:
    cfg = config(
        tiny_model_dir,
        DEMO_MATH,
        service_url,
        tmp_path,
        lora={"enabled": False},
        training={"max_steps": 1},
    )
    train(cfg)
    assert (tmp_path / "model.safetensors").exists()  # full weights, no adapter
    assert not (tmp_path / "adapter_model.safetensors").exists()
    metrics = [m for m in read_jsonl(tmp_path / METRICS_FILE) if "kl" in m]
    assert len(metrics) == 1 and metrics[0]["kl"] is not None


def test_evaluation_writes_pass_at_k_into_metrics_and_results(
    tiny_model_dir: Path, service_url: str, tmp_path: Path
) -> None:
    # Evaluations at step 2 and after the last step (3), on the last 3 of 24 rows.
    cfg = config(
        tiny_model_dir,
        DEMO_MATH,
        service_url,
        tmp_path,
        data={"max_samples": 24},
        eval={"every_steps": 2, "num_problems": 3, "num_samples": 4},
    )
    train(cfg)
    rounds = json.loads((tmp_path / RESULTS_FILE).read_text())
    assert [r["step"] for r in rounds] == [2, 3]
    samples = read_jsonl(tmp_path / SAMPLES_FILE)
    assert len(samples) == 2 * 3 * 4
    for entry in rounds:
        mine = [s for s in samples if s["step"] == entry["step"]]
        right = [sum(s["solved"] == 1 for s in mine if s["problem"] == p) for p in range(3)]
        assert entry["pass@1"] == pytest.approx(sum(pass_at_k(4, c, 1) for c in right) / 3)
        assert entry["pass@4"] == pytest.approx(sum(pass_at_k(4, c, 4) for c in right) / 3)
        assert entry["reward"] == pytest.approx(sum(s["reward"] for s in mine) / len(mine))
    # The held-out problems (the last 3 rows of 24) were never trained on.
    trained = {r["prompt"] for r in read_jsonl(tmp_path / DEBUG_FILE)}
    assert not trained & {s["prompt"] for s in samples}
    metrics = read_jsonl(tmp_path / METRICS_FILE)
    logged = [m for m in metrics if "eval/pass@1" in m]
    assert [m["step"] for m in logged] == [2, 3]
    # An evaluation step keeps its training log line.
    assert [m["step"] for m in metrics if "loss" in m and "reward" in m] == [1, 2, 3]
    for m, entry in zip(logged, rounds, strict=True):
        assert m["eval/pass@4"] == pytest.approx(entry["pass@4"])
        assert math.isfinite(m["eval/reward"]) and "eval/format" in m
