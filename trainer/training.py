"""Assemble and run TRL's GRPOTrainer from a :class:`TrainerConfig`.

The reward comes only from the service, over HTTP (:class:`RemoteReward`). With LoRA and
beta > 0 TRL uses the base model with the adapter disabled as the KL reference, so no
second copy of the weights is loaded.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import torch
from transformers import PrinterCallback

from trainer.config import SMOLLM2_MODEL, TrainerConfig
from trainer.data import as_dataset, load_examples
from trainer.evaluation import EvalCallback, Evaluator, select_problems
from trainer.preflight import RewardsUnavailable, UnavailableGuard, preflight
from trainer.progress import PLOT_FILE, ProgressBar, plot_rewards
from trainer.remote_reward import RemoteReward
from trainer.run_logs import (
    MetricsFileCallback,
    attach_training_log,
    detach_training_log,
    write_run_config,
)
from trainer.service_client import AsyncServiceClient, ClientSettings, ServiceClient

if TYPE_CHECKING:
    from peft import LoraConfig
    from transformers import PreTrainedModel, PreTrainedTokenizerBase
    from trl.trainer.grpo_config import GRPOConfig
    from trl.trainer.grpo_trainer import GRPOTrainer

log = logging.getLogger(__name__)

METRICS_FILE = "metrics.jsonl"
DEBUG_FILE = "reward_debug.jsonl"


@dataclass(frozen=True)
class Hardware:
    """What the precision and checkpointing defaults depend on."""

    cuda: bool
    bf16_supported: bool

    @classmethod
    def detect(cls) -> Hardware:
        cuda = torch.cuda.is_available()
        return cls(cuda=cuda, bf16_supported=cuda and torch.cuda.is_bf16_supported())


@dataclass(frozen=True)
class Precision:
    bf16: bool
    fp16: bool
    use_cpu: bool
    model_dtype: torch.dtype
    gradient_checkpointing: bool


def resolve_precision(config: TrainerConfig, hardware: Hardware) -> Precision:
    """Turn the 'auto' settings into explicit ones.

    GRPOConfig defaults to ``bf16=True`` and ``gradient_checkpointing=True``; without a GPU
    the first raises "Your setup doesn't support bf16/gpu" and the second only costs time,
    so on CPU both are off and ``use_cpu`` is on.
    """
    choice = config.training.precision
    if choice == "auto":
        choice = "fp32" if not hardware.cuda else "bf16" if hardware.bf16_supported else "fp16"
    if choice == "fp16" and not hardware.cuda:
        raise ValueError("training.precision 'fp16' needs a GPU; use 'fp32' or 'auto' on CPU")
    dtypes = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
    if config.model.dtype != "auto":
        model_dtype = dtypes[config.model.dtype]
    else:
        # fp16 mixed precision needs fp32 master weights; bf16 can keep bf16 weights.
        model_dtype = torch.bfloat16 if choice == "bf16" and hardware.cuda else torch.float32
    checkpointing = config.training.gradient_checkpointing
    return Precision(
        bf16=choice == "bf16",
        fp16=choice == "fp16",
        use_cpu=not hardware.cuda,
        model_dtype=model_dtype,
        gradient_checkpointing=hardware.cuda if checkpointing == "auto" else checkpointing,
    )


def resolve_model_path(path: str) -> str:
    if path == SMOLLM2_MODEL:
        from trainer.smollm2 import ensure_smollm2

        return str(ensure_smollm2())
    return path


def resolve_resume(resume: str | None, output_dir: Path) -> str | bool | None:
    """'latest' -> the newest checkpoint in output_dir (or a fresh start if none)."""
    if resume is None:
        return None
    if resume == "latest":
        if any(output_dir.glob("checkpoint-*")):
            return True
        log.warning("resume 'latest': no checkpoint in %s yet, starting fresh", output_dir)
        return None
    if not Path(resume).is_dir():
        raise FileNotFoundError(f"checkpoint to resume from not found: {resume}")
    return resume


def checkpointing_arg(config_class: type[Any], enabled: bool) -> dict[str, Any]:
    """The activation-checkpointing switch under the name ``config_class`` accepts.

    Later transformers 5.x releases name it ``activation_checkpointing`` (the old
    ``gradient_checkpointing`` a deprecated alias); earlier 5.x releases, as GPU images
    ship them (5.0 to at least 5.17), know only ``gradient_checkpointing``.
    """
    names = {field.name for field in fields(config_class)}
    new_name = "activation_checkpointing"
    key = new_name if new_name in names else "gradient_checkpointing"
    return {key: enabled}


def grpo_args(config: TrainerConfig, precision: Precision) -> GRPOConfig:
    from trl.trainer.grpo_config import GRPOConfig

    t, g, gen = config.training, config.grpo, config.generation
    vllm: dict[str, Any] = {}
    if gen.use_vllm:
        vllm = {
            "vllm_mode": gen.vllm_mode,
            "vllm_server_base_url": gen.vllm_server_base_url,
            "vllm_gpu_memory_utilization": gen.vllm_gpu_memory_utilization,
            "vllm_max_model_length": gen.vllm_max_model_length,
            "vllm_tensor_parallel_size": gen.vllm_tensor_parallel_size,
        }
    return GRPOConfig(
        output_dir=t.output_dir,
        num_train_epochs=t.num_train_epochs,
        max_steps=t.max_steps,
        per_device_train_batch_size=config.completions_per_device(),
        gradient_accumulation_steps=t.gradient_accumulation_steps,
        steps_per_generation=t.steps_per_generation,
        learning_rate=t.learning_rate,
        lr_scheduler_type=t.lr_scheduler_type,
        warmup_steps=t.warmup_steps,
        max_grad_norm=t.max_grad_norm,
        logging_steps=t.logging_steps,
        save_strategy="steps",
        save_steps=t.save_steps,
        save_total_limit=t.save_total_limit,
        **checkpointing_arg(GRPOConfig, precision.gradient_checkpointing),
        bf16=precision.bf16,
        fp16=precision.fp16,
        use_cpu=precision.use_cpu,
        seed=t.seed,
        report_to=t.report_to or "none",
        run_name=t.run_name,
        num_generations=g.num_generations,
        beta=g.beta,
        loss_type=g.loss_type,
        scale_rewards=g.scale_rewards,
        epsilon=g.epsilon,
        num_iterations=g.num_iterations,
        mask_truncated_completions=g.mask_truncated_completions,
        max_completion_length=gen.max_completion_length,
        temperature=gen.temperature,
        top_p=gen.top_p,
        use_vllm=gen.use_vllm,
        **vllm,
        # Reward columns (reference, tests, …) must reach the reward function.
        remove_unused_columns=False,
        disable_tqdm=True,
    )


def load_policy(
    config: TrainerConfig, precision: Precision
) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = resolve_model_path(config.model.path)
    tokenizer = AutoTokenizer.from_pretrained(
        path, trust_remote_code=config.model.trust_remote_code, padding_side="left"
    )
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    extra: dict[str, Any] = {}
    if config.model.attn_implementation:
        extra["attn_implementation"] = config.model.attn_implementation
    model = AutoModelForCausalLM.from_pretrained(
        path,
        dtype=precision.model_dtype,
        trust_remote_code=config.model.trust_remote_code,
        **extra,
    )
    return model, tokenizer


def lora_config(config: TrainerConfig) -> LoraConfig | None:
    if not config.lora.enabled:
        return None
    from peft import LoraConfig

    return LoraConfig(
        r=config.lora.r,
        lora_alpha=config.lora.alpha,
        lora_dropout=config.lora.dropout,
        target_modules=config.lora.target_modules,
        task_type="CAUSAL_LM",
    )


def tracker_environment(config: TrainerConfig) -> dict[str, str]:
    """The environment the wandb integration reads its project and tags from."""
    env: dict[str, str] = {}
    if "wandb" not in config.training.report_to:
        return env
    if config.training.wandb_project:
        env["WANDB_PROJECT"] = config.training.wandb_project
    if config.training.wandb_tags:
        env["WANDB_TAGS"] = ",".join(config.training.wandb_tags)
    return env


def add_evaluation(
    trainer: GRPOTrainer,
    config: TrainerConfig,
    problems: list[dict[str, Any]],
    settings: ClientSettings,
) -> EvalCallback:
    """Evaluate ``problems`` every ``eval.every_steps`` steps, scored by the same service."""
    client = ServiceClient(settings)
    evaluator = Evaluator(
        problems,
        config.eval,
        config.generation,
        config.reward,
        client.score,
        Path(config.training.output_dir),
    )
    callback = EvalCallback(evaluator, config.eval.every_steps, trainer.log, client.close)
    trainer.add_callback(callback)
    return callback


def build_trainer(config: TrainerConfig, hardware: Hardware | None = None) -> GRPOTrainer:
    """A ready GRPOTrainer; ``service.url`` must name running service(s) by now."""
    from trl.trainer.grpo_trainer import GRPOTrainer

    if config.service.auto:
        raise ValueError("service.url 'auto' must be resolved (see trainer.cli) before training")
    precision = resolve_precision(config, hardware or Hardware.detect())
    output_dir = Path(config.training.output_dir)
    model, tokenizer = load_policy(config, precision)
    examples = load_examples(config.data, config.reward, tokenizer)
    problems: list[dict[str, Any]] = []
    if config.eval.every_steps:

        def load(path: str) -> list[dict[str, Any]]:
            data = config.data.model_copy(update={"path": path, "max_samples": None})
            return load_examples(data, config.reward, tokenizer)

        examples, problems = select_problems(config.eval, examples, load)
    settings = ClientSettings.from_section(config.service)
    preflight(settings, examples + problems, config.reward)
    reward = RemoteReward(AsyncServiceClient(settings), config.reward, output_dir / DEBUG_FILE)
    os.environ.update(tracker_environment(config))
    trainer = GRPOTrainer(
        model=model,
        # TRL's annotation predates async rewards; it detects and awaits them at run time.
        reward_funcs=[cast(Any, reward)],
        args=grpo_args(config, precision),
        train_dataset=as_dataset(examples),
        processing_class=tokenizer,
        peft_config=lora_config(config),
        callbacks=[
            MetricsFileCallback(output_dir / METRICS_FILE),
            UnavailableGuard(reward, config.reward.max_unavailable_steps),
        ],
    )
    # Without tqdm, transformers prints every log dict to stdout; the step line in
    # training.log (and metrics.jsonl) replaces it.
    trainer.remove_callback(PrinterCallback)
    if config.training.progress_bar:
        trainer.add_callback(ProgressBar())
    if problems:
        add_evaluation(trainer, config, problems, settings)
    return trainer


def close_rewards(trainer: GRPOTrainer) -> None:
    """Close the reward clients' connections on the loop that opened them, and the eval's."""
    loop = getattr(trainer, "async_loop", None)
    for func in trainer.reward_funcs:
        if isinstance(func, RemoteReward) and loop is not None and loop.is_running():
            asyncio.run_coroutine_threadsafe(func.client.aclose(), loop).result(timeout=10)
    for callback in trainer.callback_handler.callbacks:
        if isinstance(callback, EvalCallback):
            callback.close()


def unavailable_stop(trainer: GRPOTrainer) -> str | None:
    """Why the run stopped early for unavailable rewards; None when it did not."""
    for callback in trainer.callback_handler.callbacks:
        if isinstance(callback, UnavailableGuard) and callback.reason is not None:
            return callback.reason
    return None


def train(
    config: TrainerConfig, hardware: Hardware | None = None, startup_notes: Sequence[str] = ()
) -> Path:
    """Run GRPO to the end; returns the output directory (final model saved there).

    ``startup_notes`` (where the run differs from its recipe's guide, what was adjusted for this
    machine) are logged as warnings first. Raises :class:`RewardsUnavailable` when the
    preflight finds rewards that cannot be computed, or the run stops for them.
    """
    output_dir = Path(config.training.output_dir)
    handler = attach_training_log(output_dir)
    try:
        for note in startup_notes:
            log.warning("%s", note)
        # The whole config goes to training.log only; the console gets where it is.
        dump = config.model_dump_json(indent=2, exclude={"service": {"api_key"}})
        handler.handle(
            log.makeRecord(log.name, logging.INFO, __file__, 0, "config:\n%s", (dump,), None)
        )
        log.info("config: %s", write_run_config(config, output_dir))
        trainer = build_trainer(config, hardware)
        try:
            resume = resolve_resume(config.training.resume, output_dir)
            trainer.train(resume_from_checkpoint=resume)
            stopped = unavailable_stop(trainer)
            if stopped is not None:
                raise RewardsUnavailable(stopped)
            trainer.save_model(str(output_dir))
        finally:
            close_rewards(trainer)
        log.info("training finished: %s", output_dir)
        if trainer.is_world_process_zero():
            plot = plot_rewards(output_dir / METRICS_FILE, output_dir / PLOT_FILE)
            if plot is not None:
                log.info("reward and accuracy per step plotted in %s", plot)
        return output_dir
    finally:
        detach_training_log(handler)
