"""What each seed document means by its settings, including the ones it never spells out.

A config or command line is *recognised* as a seed's by the keys only that seed uses
(``lora_r`` is seed 001's, ``--model-size`` seed 002's, ``--use_vllm`` seed 003's,
``tinyv_setup`` seed 004's) or by ``--seed NNN``. A recognised run gets the seed's values
wherever the file and the flags leave a setting open: seed 001 reads only ``\\boxed{}``
answers, seed 003 runs q with no format and 3 tests, seed 004 rewards on TinyV's 1/0
scale. ``DIFFERENCES`` lists where this project deliberately does otherwise; the trainer
prints them at start-up and ``grpo-train --explain`` shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SEEDS = ("001", "002", "003", "004")


@dataclass(frozen=True)
class SeedValue:
    """One value a seed sets or implies, and where in the document it comes from."""

    value: Any
    why: str


# Keys (normalised flat config keys and flag names) that only one seed document uses.
SIGNATURES: dict[str, frozenset[str]] = {
    "001": frozenset(
        {
            "lora_r",
            "lora_alpha",
            "lora_dropout",
            "num_return_sequences",
            "num_epochs",
            "reward_correct",
            "reward_wrong",
            "reward_no_answer",
            "max_new_tokens",
            "fp16",
        }
    ),
    "002": frozenset(
        {
            "model_size",
            "use_lora",
            "disable_wandb",
            "hf_token",
            "batch_size",
            "cliprange",
            # Its script's flags are dashed; seed 003's same-named ones are underscored.
            "--max-steps",
            "--learning-rate",
            "--gradient-accumulation-steps",
        }
    ),
    "003": frozenset(
        {
            "--model",
            "use_vllm",
            "generation_temp",
            "use_reasoning_format",
            "simple_eval_problems",
            "repeat_eval_problems",
            "eval_steps",
            "use_wandb",
            "wandb_name",
            "max_tests_per_problem",
            "base_reward_weight",
            "perfect_reward_weight",
            "max_model_len",
            "num_processes",
        }
    ),
    "004": frozenset(
        {
            "tinyv_setup",
            "tinyv_weight",
            "tinyv_only",
            "train_files",
            "val_files",
            "total_epochs",
            "test_freq",
            "save_freq",
            "experiment_name",
            "project_name",
            "max_response_length",
        }
    ),
}

_SEED001_DATA = "data/cot_generated/first_round_final_gsm8k_math/first_round_final_gsm8k_math.json"

DEFAULTS: dict[str, dict[str, SeedValue]] = {
    "001": {
        "lora.enabled": SeedValue(True, "LoRA for parameter-efficient training"),
        "lora.r": SeedValue(16, "lora_r 16"),
        "lora.alpha": SeedValue(32, "lora_alpha 32"),
        "lora.dropout": SeedValue(0.05, "lora_dropout 0.05"),
        "lora.target_modules": SeedValue(
            ["q_proj", "k_proj", "v_proj", "o_proj"], "~0.28% trainable = r16 on q,k,v,o"
        ),
        "grpo.num_generations": SeedValue(2, "num_return_sequences 2"),
        "grpo.beta": SeedValue(0.05, "kl_coef 0.05"),
        "grpo.loss_type": SeedValue("grpo", "the GRPO paper's objective"),
        "training.output_dir": SeedValue("results/rl_grpo_checkpoints", "its checkpoints folder"),
        "training.num_train_epochs": SeedValue(3.0, "num_epochs 3"),
        "training.per_device_train_batch_size": SeedValue(4, "per_device_train_batch_size 4"),
        "training.gradient_accumulation_steps": SeedValue(4, "gradient_accumulation_steps 4"),
        "training.learning_rate": SeedValue(5e-6, "learning_rate 5e-6"),
        "training.logging_steps": SeedValue(10, "metrics logged every 10 steps"),
        "training.gradient_checkpointing": SeedValue(True, "enabled by default"),
        "generation.max_completion_length": SeedValue(2048, "max_new_tokens 2048"),
        "generation.temperature": SeedValue(0.7, "temperature 0.7"),
        "generation.top_p": SeedValue(0.9, "top_p 0.9"),
        "data.path": SeedValue(_SEED001_DATA, "its dataset file"),
        "data.question_field": SeedValue("question", "rows {question, ground_truth, ...}"),
        "data.answer_field": SeedValue("ground_truth", "rows {question, ground_truth, ...}"),
        "data.reasoning_format": SeedValue("none", "a \\boxed{} answer, no tags"),
        "reward.task": SeedValue("math", "math answers"),
        "reward.mode": SeedValue("rule", "a rule-based binary reward verifier"),
        "reward.extraction": SeedValue("boxed", "answers are extracted from \\boxed{} only"),
        "reward.correct": SeedValue(1.0, "reward_correct 1.0"),
        "reward.wrong": SeedValue(-1.0, "reward_wrong -1.0"),
        "reward.no_answer": SeedValue(-0.5, "reward_no_answer -0.5: no \\boxed{} answer"),
        "reward.format_weight": SeedValue(0.0, "binary reward only"),
        "reward.thinking_weight": SeedValue(0.0, "binary reward only"),
    },
    "002": {
        "model.path": SeedValue("Qwen/Qwen3-4B", "--model-size 4B (its default)"),
        "lora.enabled": SeedValue(False, "--use-lora off by default"),
        "grpo.num_generations": SeedValue(8, "rollout num_generations 8"),
        "grpo.epsilon": SeedValue(0.2, "grpo cliprange 0.2"),
        "training.max_steps": SeedValue(500, "--max-steps 500"),
        "training.per_device_train_batch_size": SeedValue(4, "--batch-size 4"),
        "training.gradient_accumulation_steps": SeedValue(16, "--gradient-accumulation-steps 16"),
        "training.learning_rate": SeedValue(1e-5, "--learning-rate 1e-5"),
        "training.report_to": SeedValue(["wandb"], "wandb on unless --disable-wandb"),
        "training.wandb_project": SeedValue("verl-reasoning-grpo", "its wandb project"),
        "training.wandb_tags": SeedValue(["reasoning", "grpo", "verl"], "its wandb tags"),
        "generation.temperature": SeedValue(1.0, "rollout temperature 1.0"),
        "data.reasoning_format": SeedValue("think", "its <think> format reward"),
        "reward.task": SeedValue("math", "answer correctness against ground_truth"),
        "reward.answer_weight": SeedValue(1.0, "answer_score, summed unweighted"),
        "reward.format_weight": SeedValue(1.0, "format_score, summed unweighted"),
        "reward.thinking_weight": SeedValue(1.0, "thinking_score, summed unweighted"),
        "reward.debug_log_every": SeedValue(10, "num_examine: sampled completions in debug logs"),
    },
    "003": {
        "lora.enabled": SeedValue(False, "full fine-tuning under ZeRO-3"),
        "training.per_device_train_batch_size": SeedValue(1, "per_device_train_batch_size 1"),
        "training.gradient_accumulation_steps": SeedValue(8, "gradient_accumulation_steps 8"),
        "training.learning_rate": SeedValue(2e-6, "--learning_rate 2e-6"),
        "training.save_steps": SeedValue(100, "checkpoint-100, checkpoint-200, ..."),
        "training.wandb_project": SeedValue("q-rl", "--wandb_project q-rl"),
        "generation.temperature": SeedValue(0.8, "--generation_temp .8"),
        "generation.vllm_server_base_url": SeedValue(
            "http://127.0.0.1:8001", "its `trl vllm-serve` (port 8001 here: see the differences)"
        ),
        "data.reasoning_format": SeedValue("none", "no format unless --use_reasoning_format"),
        "reward.task": SeedValue("code", "rewards from running q code against test cases"),
        "reward.language": SeedValue("q", "q code"),
        "reward.max_tests": SeedValue(3, "--max_tests_per_problem (3 default)"),
        "reward.base_weight": SeedValue(1.0, "--base_reward_weight (1.0 default)"),
        "reward.perfect_weight": SeedValue(1.0, "--perfect_reward_weight (1.0 default)"),
        "reward.perfect_bonus": SeedValue(1.0, "a perfect bonus for passing all tests"),
        "eval.every_steps": SeedValue(25, "--eval_steps 25"),
        "eval.num_problems": SeedValue(15, "--simple_eval_problems 15"),
        "eval.num_samples": SeedValue(4, "--repeat_eval_problems 4"),
    },
    "004": {
        "grpo.num_generations": SeedValue(8, "ROLLOUT_N_SAMPLE=8"),
        "grpo.beta": SeedValue(0.0, "NO_ENTROPY_LOSS_AND_KL=True: KL_COEF=0.000"),
        "training.num_train_epochs": SeedValue(12.0, "MAX_EPOCHS=12"),
        "training.learning_rate": SeedValue(5e-7, "actor lr 5e-7"),
        "generation.max_completion_length": SeedValue(4096, "MAX_RESPONSE_LEN=4096"),
        "reward.task": SeedValue("math", "math answers judged by rule and TinyV"),
        "reward.mode": SeedValue("verifier_only", "VERIFIER_SETUP=tinyv_only (its default)"),
        "reward.verifier_weight": SeedValue(1.0, "VERIFIER_WEIGHT=1.0"),
        "reward.correct": SeedValue(1.0, "TinyV's scale: 1 correct"),
        "reward.wrong": SeedValue(0.0, "TinyV's scale: 0 wrong"),
        "reward.no_answer": SeedValue(0.0, "TinyV's scale: 0 without an answer"),
    },
}

# Settings a seed run must give because the document names no usable value.
REQUIRED: dict[str, dict[str, str]] = {
    "002": {"data.path": "seed 002 loads an unnamed Hugging Face set: pass --dataset FILE"},
    "003": {"data.path": "seed 003 names no q dataset file: pass --dataset FILE"},
}

# Where this project deliberately does otherwise than the seed, and why.
DIFFERENCES: dict[str, list[str]] = {
    "001": [
        "TRL's GRPOTrainer replaces the seed's own trainer (trl 0.7.10); the reward comes "
        "from the service, with the same +1 / -1 / -0.5 on \\boxed{} answers",
        "the KL reference is the base model with the LoRA adapter disabled, not a second "
        "frozen copy: the same reference without the extra memory",
        "precision 'auto' picks bf16 where the GPU has it (the seed runs fp16)",
    ],
    "002": [
        "TRL's GRPOTrainer (sharded by accelerate's FSDP) replaces verl's Ray workers; GRPO "
        "has no critic, so the seed's critic settings have no counterpart",
        "the three summed rewards are one service reward with answer, format and thinking "
        "weights 1",
    ],
    "003": [
        "q tests run in the service's sandbox, not in the training processes",
        "its `trl vllm-serve` is expected on port 8001: TRL's default 8000 is the reward "
        "service's port here",
        "evaluation samples come from the policy's generate(), not vLLM",
    ],
    "004": [
        "TRL's GRPO (group-relative advantages, no critic) replaces verl's PPO with GAE; the "
        "TinyV modes live in the service, so verl users keep PPO through the verl adapter",
    ],
}


def recognise(keys: set[str]) -> tuple[str | None, str]:
    """(the seed whose signature keys appear, or None; a sentence saying why)."""
    found = {
        seed: sorted(keys & signature) for seed, signature in SIGNATURES.items() if keys & signature
    }
    if not found:
        return None, "no seed's own keys or flags"
    if len(found) > 1:
        listed = "; ".join(f"seed {seed}: {', '.join(names)}" for seed, names in found.items())
        return None, f"keys of several seeds ({listed}): no seed's defaults; choose with --seed"
    seed, names = next(iter(found.items()))
    return seed, f"recognised by {', '.join(names)}"
