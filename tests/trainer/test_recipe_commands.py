"""Each recipe guide's command line, copied from its text, runs as written.

The model path is swapped for the tiny model, the service is the real one on loopback,
and a CPU run adds only what makes it one short step (``--max_steps 1``, a short
completion length, a smaller accumulation where the guide's would take minutes). Each
test checks the resolved recipe against the guide's values, then trains one step.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from safetensors import safe_open

from tests.trainer.run_checks import read_jsonl
from tests.trainer.test_recipe_runs import score_with
from trainer.cli import main, parse_args, resolve_recipe
from trainer.evaluation import RESULTS_FILE, SAMPLES_FILE
from trainer.recipe import Recipe
from trainer.training import DEBUG_FILE, METRICS_FILE

REPO = Path(__file__).resolve().parents[2]
DEMO_MATH = REPO / "trainer" / "data" / "demo_math.jsonl"

# Seed 001, "Key Hyperparameters", verbatim.
SEED001_YAML = """\
# Model
model_path: "<your_sft_checkpoint>"  # Replace with your SFT checkpoint

# LoRA Configuration
lora_r: 16
lora_alpha: 32
lora_dropout: 0.05

# GRPO Parameters
num_return_sequences: 2  # Generate 2 responses per prompt
reward_correct: 1.0
reward_wrong: -1.0
reward_no_answer: -0.5
kl_coef: 0.05  # KL penalty coefficient

# Training
num_epochs: 3
per_device_train_batch_size: 4
gradient_accumulation_steps: 4  # Effective batch size = 16
learning_rate: 5e-6

# Generation
max_new_tokens: 2048
temperature: 0.7
top_p: 0.9
"""
SEED001_DATA = "data/cot_generated/first_round_final_gsm8k_math/first_round_final_gsm8k_math.json"
# Seed 001, "Step 3: Run Training" and "Resume from Checkpoint", after
# `python models/train_rl_base.py`.
SEED001_RUN = """\
    --config configs/rl_grpo_config.yaml \\
    --model_path checkpoints/your_sft_checkpoint \\
    --output_dir results/rl_grpo_$(date +%Y%m%d_%H%M%S)"""
SEED001_RESUME = """\
    --config configs/rl_grpo_config.yaml \\
    --model_path results/rl_grpo_checkpoints/checkpoint-1000"""
# Seed 002, "Custom Configuration", "With LoRA", "With Hugging Face Token".
SEED002_CUSTOM = """\
    --model-size 1.5B \\
    --max-steps 1000 \\
    --batch-size 8 \\
    --learning-rate 2e-5"""
SEED002_LORA = "--use-lora"
SEED002_TOKEN = "--hf-token your_token_here"
# Seed 002, "Troubleshooting", "CUDA Memory Issues".
SEED002_TROUBLESHOOTING = "--batch-size 2 --use-lora"
# Seed 003, "Small Models" and "Large Models" (after `accelerate launch … rl_trainer.py`).
SEED003_SMALL = """\
  --model /your/best/sft/1.5b/checkpoint \\
  --use_vllm \\
  --output_dir final_outputs/1.5b/non_reasoning/ \\
  --learning_rate 2e-6 \\
  --simple_eval_problems 15 \\
  --repeat_eval_problems 4 \\
  --eval_steps 25 \\
  --use_wandb \\
  --wandb_name 1.5b_non_reason \\
  --generation_temp .8"""
SEED003_LARGE = (
    SEED003_SMALL.replace("1.5b/checkpoint", "14b/checkpoint")
    .replace("1.5b/non_reasoning/", "14b/reasoning/")
    .replace("1.5b_non_reason", "14b_reasoning")
    + " \\\n  --use_reasoning_format"
)

# A CPU step: the seeds' own lengths (2048 tokens) and batches take minutes per step here.
SHORT = ["--max_steps", "1", "--set", "generation.max_completion_length=8"]


def seed_argv(text: str, **swap: str) -> list[str]:
    """A seed's command line as argv, with ``$(date …)`` fixed and paths swapped."""
    for old, new in swap.items():
        text = text.replace(old, new)
    text = text.replace("\\\n", " ")  # line continuations, as the shell joins them
    return shlex.split(text.replace("$(date +%Y%m%d_%H%M%S)", "20260101_000000"))


def recipe_of(argv: list[str]) -> Recipe:
    return resolve_recipe(parse_args(argv), argv)


def steps_trained(out: Path) -> list[int]:
    # Seed 001 logs every 10 steps: a one-step run's record carries the reward, not the loss.
    return [m["step"] for m in read_jsonl(out / METRICS_FILE) if "reward" in m]


@pytest.fixture
def seed001_workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_model_dir: Path) -> Path:
    """The seed's layout: configs/rl_grpo_config.yaml and its dataset file, as the seed
    names them, relative to the working directory."""
    (tmp_path / "configs").mkdir()
    text = SEED001_YAML.replace("<your_sft_checkpoint>", str(tiny_model_dir))
    (tmp_path / "configs" / "rl_grpo_config.yaml").write_text(text)
    rows = [json.loads(line) for line in DEMO_MATH.read_text().splitlines()[:16]]
    data = [
        {
            "question": row["question"],
            "ground_truth": row["ground_truth"],
            "predicted_answer": row["ground_truth"],
            "correct": True,
        }
        for row in rows
    ]
    (tmp_path / SEED001_DATA).parent.mkdir(parents=True)
    (tmp_path / SEED001_DATA).write_text(json.dumps(data))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_math_lora_command_resolves_to_the_seeds_recipe_and_trains(
    seed001_workdir: Path, tiny_model_dir: Path, service_url: str
) -> None:
    argv = seed_argv(SEED001_RUN, **{"checkpoints/your_sft_checkpoint": str(tiny_model_dir)})
    argv += ["--service_url", service_url, "--max_samples", "10", *SHORT]
    recipe = recipe_of(argv)
    config = recipe.config
    assert recipe.name == "math-lora"
    # The values the seed implies without spelling them out.
    assert config.reward.extraction == "boxed" and config.reward.no_answer == -0.5
    assert (config.reward.correct, config.reward.wrong) == (1.0, -1.0)
    assert (config.reward.format_weight, config.reward.thinking_weight) == (0.0, 0.0)
    assert config.data.reasoning_format == "none"  # the prompt asks for \boxed{}
    assert config.data.path == SEED001_DATA  # its dataset, not the bundled demo set
    assert recipe.sources["reward.extraction"].startswith("recipe math-lora")
    # The values its YAML spells out.
    assert (config.lora.r, config.lora.alpha, config.lora.dropout) == (16, 32, 0.05)
    assert (config.grpo.num_generations, config.grpo.beta) == (2, 0.05)
    assert config.training.learning_rate == 5e-6
    assert (config.generation.temperature, config.generation.top_p) == (0.7, 0.9)
    assert config.training.output_dir == "results/rl_grpo_20260101_000000"

    # Its extraction rule on the service: only \boxed{} counts, no box -> -0.5.
    completions = ["\\boxed{42}", "The answer is 42.", "<answer>42</answer>", "42", "#### 42"]
    columns = {"task": ["math"] * 5, "reference": ["42"] * 5}
    assert score_with(config.reward, service_url, completions, columns) == [1.0] + [-0.5] * 4

    assert main(argv) == 0
    out = seed001_workdir / config.training.output_dir
    assert steps_trained(out) == [1]
    records = read_jsonl(out / DEBUG_FILE)
    assert {r["reward"] for r in records} <= {1.0, -1.0, -0.5}
    assert all("\\boxed{}" in r["prompt"] and "<answer>" not in r["prompt"] for r in records)


def test_math_lora_resume_from_model_path_continues_the_run(
    seed001_workdir: Path, tiny_model_dir: Path, service_url: str
) -> None:
    first = seed_argv(SEED001_RUN, **{"checkpoints/your_sft_checkpoint": str(tiny_model_dir)})
    first += ["--service_url", service_url, "--max_samples", "10", *SHORT]
    assert main(first) == 0
    checkpoint = seed001_workdir / "results/rl_grpo_20260101_000000/checkpoint-1"
    assert (checkpoint / "trainer_state.json").exists()

    resume = seed_argv(
        SEED001_RESUME, **{"results/rl_grpo_checkpoints/checkpoint-1000": str(checkpoint)}
    )
    resume += ["--service_url", service_url, "--max_samples", "10", "--max_steps", "2"]
    resume += ["--set", "generation.max_completion_length=8"]
    recipe = recipe_of(resume)
    assert recipe.config.model.path == str(tiny_model_dir)  # the base, not the checkpoint
    assert recipe.config.training.resume == str(checkpoint)
    assert main(resume) == 0
    out = seed001_workdir / "results/rl_grpo_checkpoints"  # the seed's default output_dir
    assert steps_trained(out) == [2]  # step 1 is not redone: the step count continues
    log = (out / "training.log").read_text()
    assert "starting at step 1" in log
    # One adapter on the base model, not an adapter stacked on the checkpoint's.
    adapter = json.loads((out / "adapter_config.json").read_text())
    assert adapter["base_model_name_or_path"] == str(tiny_model_dir)
    with safe_open(str(out / "adapter_model.safetensors"), "pt") as weights:
        names = list(weights.keys())
    assert names and not any(name.count("base_model.model") > 1 for name in names)


def test_reasoning_format_command_resolves_to_the_seeds_recipe_and_trains(
    tiny_model_dir: Path, service_url: str, tmp_path: Path
) -> None:
    argv = seed_argv(SEED002_CUSTOM) + seed_argv(SEED002_LORA)
    argv += ["--model_path", str(tiny_model_dir), "--dataset", str(DEMO_MATH)]
    argv += ["--service_url", service_url, "--output_dir", str(tmp_path), *SHORT]
    argv += ["--gradient-accumulation-steps", "1", "--max_samples", "8"]
    recipe = recipe_of(argv)
    config = recipe.config
    assert recipe.name == "reasoning-format"
    assert recipe.sources["model.path"] == "flag --model_path"  # wins over --model-size
    assert config.lora.enabled  # --use-lora
    assert (config.training.per_device_train_batch_size, config.training.learning_rate) == (
        8,
        2e-5,
    )
    # verl's batch counts prompts: 8 prompts, each sampled 8 times, are 64 completions.
    assert config.training.batch_size_counts == "prompts"
    assert config.completions_per_device() == 64
    assert config.training.max_steps == 1 and recipe.sources["training.max_steps"] == (
        "flag --max_steps"
    )
    # The guide's reward: format + thinking + answer, each weight 1, <think> format.
    weights = (config.reward.answer_weight, config.reward.format_weight)
    assert (*weights, config.reward.thinking_weight) == (1.0, 1.0, 1.0)
    assert config.data.reasoning_format == "think"
    assert (config.grpo.num_generations, config.grpo.epsilon) == (8, 0.2)
    # wandb is on in the seed; without wandb installed the run logs locally and says so.
    assert config.training.report_to == []
    assert any("wandb is not installed" in note for note in recipe.adjustments)

    assert main(argv) == 0
    assert steps_trained(tmp_path) == [1]
    for record in read_jsonl(tmp_path / DEBUG_FILE):
        c = record["components"]
        assert record["reward"] == pytest.approx(c["answer"] + c["format"] + c["thinking"])
    assert "wandb is not installed" in (tmp_path / "training.log").read_text()


def test_reasoning_format_troubleshooting_line_runs(
    tiny_model_dir: Path, service_url: str, tmp_path: Path
) -> None:
    # "CUDA Memory Issues": --batch-size 2 --use-lora. verl's batch counts prompts, so TRL
    # gets 2 x 8 = 16 completions, a whole number of groups (it failed with TRL's
    # "generation_batch_size (2) must be divisible by num_generations (8)").
    argv = seed_argv(SEED002_TROUBLESHOOTING)
    argv += ["--model_path", str(tiny_model_dir), "--dataset", str(DEMO_MATH)]
    argv += ["--service_url", service_url, "--output_dir", str(tmp_path), *SHORT]
    argv += ["--gradient-accumulation-steps", "1", "--max_samples", "4"]
    config = recipe_of(argv).config
    assert (config.training.per_device_train_batch_size, config.completions_per_device()) == (
        2,
        16,
    )
    assert main(argv) == 0
    assert steps_trained(tmp_path) == [1]


def test_reasoning_format_model_size_alone_resolves_to_its_hub_model() -> None:
    recipe = recipe_of([*seed_argv(SEED002_CUSTOM), "--dataset", str(DEMO_MATH)])
    assert recipe.config.model.path == "Qwen/Qwen2.5-1.5B-Instruct"
    assert recipe.sources["model.path"] == "flag --model-size"


def test_reasoning_format_refusals_are_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert main([*seed_argv(SEED002_TOKEN), "--dataset", str(DEMO_MATH), "--explain"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "--hf-token is refused: HF_HUB_OFFLINE is set" in error
    # With LoRA only, the seed names no dataset file: say what to pass.
    assert main(seed_argv(SEED002_LORA)) == 2
    assert "pass --dataset FILE" in capsys.readouterr().err
    # Its flags as YAML keys: mapped, or refused in one line, never a traceback.
    config = tmp_path / "seed002.yaml"
    config.write_text("model-size: 3B\ndisable-wandb: true\nuse_lora: true\n")
    recipe = recipe_of(["--config", str(config), "--dataset", str(DEMO_MATH)])
    assert (
        recipe.name == "reasoning-format" and recipe.config.model.path == "Qwen/Qwen2.5-3B-Instruct"
    )
    assert recipe.config.training.report_to == []
    assert (recipe.config.reward.format_weight, recipe.config.reward.thinking_weight) == (1, 1)
    config.write_text("model-size: 3B\nhf-token: abc\n")
    assert main(["--config", str(config), "--dataset", str(DEMO_MATH), "--explain"]) == 2
    stderr = capsys.readouterr().err
    (error,) = [line for line in stderr.splitlines() if line.startswith("grpo-train: error")]
    assert "'hf-token' is refused" in error and "Traceback" not in stderr


def write_q_rows(path: Path, count: int) -> Path:
    rows = [
        {
            "problem_description": f"Write solve that returns x+{n}.",
            "test_cases": [
                {"q_test_code": f"show solve {m};", "q_expected_output": str(m + n)}
                for m in range(4)
            ],
        }
        for n in range(count)
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def q_seed_argv(command: str, size: str, kind: str, model: Path, out: Path, rows: int) -> list[str]:
    """Seed 003's command with its checkpoint and output folder swapped for ours, and a
    local dataset of ``rows`` q problems beside ``out``."""
    argv = seed_argv(
        command,
        **{
            f"/your/best/sft/{size}/checkpoint": str(model),
            f"final_outputs/{size}/{kind}/": str(out),
        },
    )
    return [*argv, "--dataset", str(write_q_rows(out.parent / "q.jsonl", rows))]


def test_q_code_command_resolves_to_q_and_the_preflight_stops_without_q(
    tiny_model_dir: Path, service_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = q_seed_argv(SEED003_SMALL, "1.5b", "non_reasoning", tiny_model_dir, out, 20)
    argv += ["--service_url", service_url, *SHORT]
    recipe = recipe_of(argv)
    config = recipe.config
    assert recipe.name == "q-code" and recipe.sources["model.path"] == "flag --model"
    assert (config.reward.task, config.reward.language) == ("code", "q")
    assert config.reward.max_tests == 3  # "--max_tests_per_problem (3 default)"
    assert config.data.reasoning_format == "none"  # no --use_reasoning_format
    assert (config.eval.every_steps, config.eval.num_problems, config.eval.num_samples) == (
        25,
        15,
        4,
    )
    assert (config.training.learning_rate, config.generation.temperature) == (2e-6, 0.8)
    assert config.training.run_name == "1.5b_non_reason"
    assert not config.generation.use_vllm  # no vLLM here: transformers generates, and says so
    assert any("vLLM is not installed" in note for note in recipe.adjustments)

    # No q on this machine: the run stops before its first step, with the service's reason.
    assert main(argv) == 1
    error = capsys.readouterr().err
    assert "code (q) rewards are unavailable" in error and "Q_BIN" in error
    assert "--allow-unavailable" in error
    assert not (out / METRICS_FILE).exists() and not list(out.glob("checkpoint-*"))


def test_q_code_reasoning_command_with_allow_unavailable_says_what_it_could_not_score(
    tiny_model_dir: Path, service_url: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    argv = q_seed_argv(SEED003_LARGE, "14b", "reasoning", tiny_model_dir, out, 17)
    argv += ["--service_url", service_url, "--allow-unavailable", *SHORT]
    recipe = recipe_of(argv)
    assert recipe.config.data.reasoning_format == "reasoning"  # --use_reasoning_format
    assert main(argv) == 0
    assert steps_trained(out) == [1]
    metrics = next(m for m in read_jsonl(out / METRICS_FILE) if "reward" in m)
    log = (out / "training.log").read_text()
    assert "training anyway: --allow-unavailable" in log
    if metrics["verifier/unavailable_step"]:
        assert "step 1: REWARDS UNAVAILABLE" in log
    # The evaluation after the last step: 15 held-out problems x 4 samples, each counted.
    samples = read_jsonl(out / SAMPLES_FILE)
    assert len(samples) == 60
    unavailable = sum(s["status"] == "unavailable" for s in samples)
    scored = sum(s["status"] in ("ok", "timeout") for s in samples)
    (round_,) = json.loads((out / RESULTS_FILE).read_text())
    assert (round_["samples_unavailable"], round_["samples_scored"]) == (unavailable, scored)
    assert f"{scored} of 60 samples scored, {unavailable} unavailable" in log
    if unavailable:  # never a mean over the scored few as the round's reward
        assert round_["reward"] is None


def test_tinyv_rubric_tinyv_only_resolves_to_tinyvs_scale_and_needs_the_verifier(
    tiny_model_dir: Path, service_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 004's script runs verl; its VERIFIER_SETUP=tinyv_only on our trainer is
    # --mode tinyv_only, and --recipe tinyv-rubric takes its other values. This service has no LLM
    # verifier (the verifier modes with a real CPU vLLM are tested in tests/services/verifier).
    argv = ["--recipe", "tinyv-rubric", "--mode", "tinyv_only", "--model_path", str(tiny_model_dir)]
    argv += ["--dataset", str(DEMO_MATH), "--service_url", service_url]
    argv += ["--output_dir", str(tmp_path), "--max_samples", "8", *SHORT]
    argv += ["--set", "training.gradient_accumulation_steps=1"]
    argv += ["--set", "training.per_device_train_batch_size=1"]  # 1 prompt x 8 samples
    argv += ["--set", "reward.debug_samples=null"]
    recipe = recipe_of(argv)
    reward = recipe.config.reward
    assert reward.mode == "verifier_only" and reward.verifier_weight == 1.0
    assert (reward.correct, reward.wrong, reward.no_answer) == (1.0, 0.0, 0.0)
    assert recipe.config.grpo.beta == 0.0  # NO_ENTROPY_LOSS_AND_KL=True

    assert main(argv) == 1
    error = capsys.readouterr().err
    assert "math rewards are unavailable" in error and "LLM verifier" in error

    assert main([*argv, "--allow-unavailable"]) == 0
    assert steps_trained(tmp_path) == [1]
    # Completions with no answer are judged without the verifier (0, no credit); the
    # rest are unavailable, and the step line gives their share.
    statuses = [r["status"] for r in read_jsonl(tmp_path / DEBUG_FILE)]
    assert "unavailable" in statuses
    step = next(m for m in read_jsonl(tmp_path / METRICS_FILE) if "reward" in m)
    share = statuses.count("unavailable") / len(statuses)
    assert step["verifier/status_unavailable"] == pytest.approx(share)
    log = (tmp_path / "training.log").read_text()
    assert "verifier/status_unavailable=" in log
    assert ("step 1: REWARDS UNAVAILABLE" in log) == (share > 0.5)


@pytest.mark.parametrize(
    "name",
    [
        "recipes/math-lora.yaml",
        "recipes/reasoning-format.yaml",
        "recipes/q-code.yaml",
        "tinyv_parity.yaml",
    ],
)
def test_shipped_recipe_configs_resolve_without_wandb_and_take_an_eval_path(
    name: str, tmp_path: Path
) -> None:
    evaluation = write_q_rows(tmp_path / "q_eval.jsonl", 2)
    recipe = recipe_of(
        ["--config", str(REPO / "trainer" / "configs" / name), "--eval_dataset", str(evaluation)]
    )
    config = recipe.config
    assert config.eval.path == str(evaluation)
    assert recipe.sources["eval.path"] == "flag --eval_dataset"
    # wandb is not installed here: a config that asks for it logs locally and says so.
    assert "wandb" not in config.training.report_to
    if name == "recipes/reasoning-format.yaml":
        assert any("wandb is not installed" in note for note in recipe.adjustments)
    if name == "recipes/q-code.yaml":
        assert (config.reward.language, config.reward.max_tests) == ("q", 3)
        assert not config.generation.use_vllm  # no vLLM here, said in the adjustments


def test_explain_prints_each_value_with_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*seed_argv(SEED002_CUSTOM), "--dataset", str(DEMO_MATH), "--explain"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("recipe: reasoning-format (recognised by")
    shown = {line.split(" = ")[0].strip(): line for line in lines if " = " in line}
    assert shown["training.learning_rate"].endswith("[flag --learning-rate]")
    assert shown["reward.format_weight"].endswith(
        "[recipe reasoning-format: format_score, summed unweighted]"
    )
    assert shown["grpo.beta"].endswith("[project default]")
    assert "where this project differs from reasoning-format's guide on purpose:" in lines
    assert "converted for TRL:" in lines


def test_a_missing_dataset_names_where_its_path_came_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # the seed's relative dataset path does not exist here
    assert main(["--recipe", "math-lora", "--model_path", "unused"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0
    assert (
        f"data.path '{SEED001_DATA}' not found (from recipe math-lora: its dataset file)" in error
    )
