"""The named recipes: what each one sets, including what its original guide leaves unsaid.

Four recipes, named for what they train:

- ``math-lora``: LoRA GRPO on math with a binary reward on ``\\boxed{}`` answers (a TRL guide);
- ``reasoning-format``: GRPO with a ``<think>`` format reward on reasoning data (a verl script);
- ``q-code``: GRPO on q code rewarded by test cases (the Q paper's TRL trainer);
- ``tinyv-rubric``: TinyV verifier rewards, or training a rubric reward model (verl PPO).

A config or command line is *recognised* as a recipe's by the keys only that recipe's
guide uses (``lora_r`` is math-lora's, ``--model-size`` reasoning-format's, ``--use_vllm``
q-code's, ``tinyv_setup`` tinyv-rubric's) or chosen with ``--recipe NAME``. A recognised
run gets the recipe's values wherever the file and the flags leave a setting open.
``DIFFERENCES`` lists where this project deliberately does otherwise than the original;
the trainer prints them at start-up and ``grpo-train --explain`` shows them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RECIPES = ("math-lora", "reasoning-format", "q-code", "tinyv-rubric")


@dataclass(frozen=True)
class RecipeValue:
    """One value a recipe sets or implies, and where in its original guide it comes from."""

    value: Any
    why: str


# Keys (normalised flat config keys and flag names) that only one recipe's guide uses.
SIGNATURES: dict[str, frozenset[str]] = {
    "math-lora": frozenset(
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
    "reasoning-format": frozenset(
        {
            "model_size",
            "use_lora",
            "disable_wandb",
            "hf_token",
            "batch_size",
            "cliprange",
            # Its script's flags are dashed; q-code's same-named ones are underscored.
            "--max-steps",
            "--learning-rate",
            "--gradient-accumulation-steps",
        }
    ),
    "q-code": frozenset(
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
    "tinyv-rubric": frozenset(
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

_MATH_LORA_DATA = (
    "data/cot_generated/first_round_final_gsm8k_math/first_round_final_gsm8k_math.json"
)

DEFAULTS: dict[str, dict[str, RecipeValue]] = {
    "math-lora": {
        "lora.enabled": RecipeValue(True, "LoRA for parameter-efficient training"),
        "lora.r": RecipeValue(16, "lora_r 16"),
        "lora.alpha": RecipeValue(32, "lora_alpha 32"),
        "lora.dropout": RecipeValue(0.05, "lora_dropout 0.05"),
        "lora.target_modules": RecipeValue(
            ["q_proj", "k_proj", "v_proj", "o_proj"], "~0.28% trainable = r16 on q,k,v,o"
        ),
        "grpo.num_generations": RecipeValue(2, "num_return_sequences 2"),
        "grpo.beta": RecipeValue(0.05, "kl_coef 0.05"),
        "grpo.loss_type": RecipeValue("grpo", "the GRPO paper's objective"),
        "training.output_dir": RecipeValue("results/rl_grpo_checkpoints", "its checkpoints folder"),
        "training.num_train_epochs": RecipeValue(3.0, "num_epochs 3"),
        "training.per_device_train_batch_size": RecipeValue(4, "per_device_train_batch_size 4"),
        "training.gradient_accumulation_steps": RecipeValue(4, "gradient_accumulation_steps 4"),
        "training.learning_rate": RecipeValue(5e-6, "learning_rate 5e-6"),
        "training.logging_steps": RecipeValue(10, "metrics logged every 10 steps"),
        "training.gradient_checkpointing": RecipeValue(True, "enabled by default"),
        "generation.max_completion_length": RecipeValue(2048, "max_new_tokens 2048"),
        "generation.temperature": RecipeValue(0.7, "temperature 0.7"),
        "generation.top_p": RecipeValue(0.9, "top_p 0.9"),
        "data.path": RecipeValue(_MATH_LORA_DATA, "its dataset file"),
        "data.question_field": RecipeValue("question", "rows {question, ground_truth, ...}"),
        "data.answer_field": RecipeValue("ground_truth", "rows {question, ground_truth, ...}"),
        "data.reasoning_format": RecipeValue("none", "a \\boxed{} answer, no tags"),
        "reward.task": RecipeValue("math", "math answers"),
        "reward.mode": RecipeValue("rule", "a rule-based binary reward verifier"),
        "reward.extraction": RecipeValue("boxed", "answers are extracted from \\boxed{} only"),
        "reward.correct": RecipeValue(1.0, "reward_correct 1.0"),
        "reward.wrong": RecipeValue(-1.0, "reward_wrong -1.0"),
        "reward.no_answer": RecipeValue(-0.5, "reward_no_answer -0.5: no \\boxed{} answer"),
        "reward.format_weight": RecipeValue(0.0, "binary reward only"),
        "reward.thinking_weight": RecipeValue(0.0, "binary reward only"),
    },
    "reasoning-format": {
        "model.path": RecipeValue("Qwen/Qwen3-4B", "--model-size 4B (its default)"),
        "lora.enabled": RecipeValue(False, "--use-lora off by default"),
        "grpo.num_generations": RecipeValue(8, "rollout num_generations 8"),
        "grpo.epsilon": RecipeValue(0.2, "grpo cliprange 0.2"),
        "training.max_steps": RecipeValue(500, "--max-steps 500"),
        "training.per_device_train_batch_size": RecipeValue(4, "--batch-size 4"),
        "training.batch_size_counts": RecipeValue(
            "prompts", "verl's batch size counts prompts, each sampled num_generations times"
        ),
        "training.gradient_accumulation_steps": RecipeValue(16, "--gradient-accumulation-steps 16"),
        "training.learning_rate": RecipeValue(1e-5, "--learning-rate 1e-5"),
        "training.report_to": RecipeValue(["wandb"], "wandb on unless --disable-wandb"),
        "training.wandb_project": RecipeValue("verl-reasoning-grpo", "its wandb project"),
        "training.wandb_tags": RecipeValue(["reasoning", "grpo", "verl"], "its wandb tags"),
        "generation.temperature": RecipeValue(1.0, "rollout temperature 1.0"),
        "data.reasoning_format": RecipeValue("think", "its <think> format reward"),
        "reward.task": RecipeValue("math", "answer correctness against ground_truth"),
        "reward.answer_weight": RecipeValue(1.0, "answer_score, summed unweighted"),
        "reward.format_weight": RecipeValue(1.0, "format_score, summed unweighted"),
        "reward.thinking_weight": RecipeValue(1.0, "thinking_score, summed unweighted"),
        "reward.debug_log_every": RecipeValue(10, "num_examine: sampled completions in debug logs"),
    },
    "q-code": {
        "lora.enabled": RecipeValue(False, "full fine-tuning under ZeRO-3"),
        "training.per_device_train_batch_size": RecipeValue(1, "per_device_train_batch_size 1"),
        "training.gradient_accumulation_steps": RecipeValue(8, "gradient_accumulation_steps 8"),
        "training.learning_rate": RecipeValue(2e-6, "--learning_rate 2e-6"),
        "training.save_steps": RecipeValue(100, "checkpoint-100, checkpoint-200, ..."),
        "training.wandb_project": RecipeValue("q-rl", "--wandb_project q-rl"),
        "generation.temperature": RecipeValue(0.8, "--generation_temp .8"),
        "generation.vllm_server_base_url": RecipeValue(
            "http://127.0.0.1:8001", "its `trl vllm-serve` (port 8001 here: see the differences)"
        ),
        "data.reasoning_format": RecipeValue("none", "no format unless --use_reasoning_format"),
        "reward.task": RecipeValue("code", "rewards from running q code against test cases"),
        "reward.language": RecipeValue("q", "q code"),
        "reward.max_tests": RecipeValue(3, "--max_tests_per_problem (3 default)"),
        "reward.base_weight": RecipeValue(1.0, "--base_reward_weight (1.0 default)"),
        "reward.perfect_weight": RecipeValue(1.0, "--perfect_reward_weight (1.0 default)"),
        "reward.perfect_bonus": RecipeValue(1.0, "a perfect bonus for passing all tests"),
        "eval.every_steps": RecipeValue(25, "--eval_steps 25"),
        "eval.num_problems": RecipeValue(15, "--simple_eval_problems 15"),
        "eval.num_samples": RecipeValue(4, "--repeat_eval_problems 4"),
    },
    "tinyv-rubric": {
        "grpo.num_generations": RecipeValue(8, "ROLLOUT_N_SAMPLE=8"),
        "grpo.beta": RecipeValue(0.0, "NO_ENTROPY_LOSS_AND_KL=True: KL_COEF=0.000"),
        "training.num_train_epochs": RecipeValue(12.0, "MAX_EPOCHS=12"),
        "training.batch_size_counts": RecipeValue(
            "prompts", "verl's batch sizes count prompts, each sampled ROLLOUT_N_SAMPLE times"
        ),
        "training.learning_rate": RecipeValue(5e-7, "actor lr 5e-7"),
        "generation.max_completion_length": RecipeValue(4096, "MAX_RESPONSE_LEN=4096"),
        "reward.task": RecipeValue("math", "math answers judged by rule and TinyV"),
        "reward.mode": RecipeValue("verifier_only", "VERIFIER_SETUP=tinyv_only (its default)"),
        "reward.verifier_weight": RecipeValue(1.0, "VERIFIER_WEIGHT=1.0"),
        "reward.correct": RecipeValue(1.0, "TinyV's scale: 1 correct"),
        "reward.wrong": RecipeValue(0.0, "TinyV's scale: 0 wrong"),
        "reward.no_answer": RecipeValue(0.0, "TinyV's scale: 0 without an answer"),
    },
}

# Settings a run of the recipe must give because its guide names no usable value.
REQUIRED: dict[str, dict[str, str]] = {
    "reasoning-format": {
        "data.path": (
            "recipe reasoning-format loads an unnamed Hugging Face set: pass --dataset FILE"
        )
    },
    "q-code": {"data.path": "recipe q-code names no q dataset file: pass --dataset FILE"},
}

# Where this project deliberately does otherwise than the original guide, and why.
DIFFERENCES: dict[str, list[str]] = {
    "math-lora": [
        "TRL's GRPOTrainer replaces the guide's own trainer (trl 0.7.10); the reward comes "
        "from the service, with the same +1 / -1 / -0.5 on \\boxed{} answers",
        "the KL reference is the base model with the LoRA adapter disabled, not a second "
        "frozen copy: the same reference without the extra memory",
        "precision 'auto' picks bf16 where the GPU has it (the guide runs fp16)",
    ],
    "reasoning-format": [
        "TRL's GRPOTrainer (sharded by accelerate's FSDP) replaces verl's Ray workers; GRPO "
        "has no critic, so the script's critic settings have no counterpart",
        "the three summed rewards are one service reward with answer, format and thinking "
        "weights 1",
    ],
    "q-code": [
        "q tests run in the service's sandbox, not in the training processes",
        "its `trl vllm-serve` is expected on port 8001: TRL's default 8000 is the reward "
        "service's port here",
        "evaluation samples come from the policy's generate(), not vLLM",
    ],
    "tinyv-rubric": [
        "TRL's GRPO (group-relative advantages, no critic) replaces verl's PPO with GAE; the "
        "TinyV modes live in the service, so verl users keep PPO through the verl adapter",
    ],
}


def recognise(keys: set[str]) -> tuple[str | None, str]:
    """(the recipe whose own keys appear, or None; a sentence saying why)."""
    found = {
        name: sorted(keys & signature) for name, signature in SIGNATURES.items() if keys & signature
    }
    if not found:
        return None, "no recipe's own keys or flags"
    if len(found) > 1:
        listed = "; ".join(f"{name}: {', '.join(keys)}" for name, keys in found.items())
        return (
            None,
            f"keys of several recipes ({listed}): no recipe's defaults; choose with --recipe",
        )
    name, names = next(iter(found.items()))
    return name, f"recognised by {', '.join(names)}"
