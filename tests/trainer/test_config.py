from __future__ import annotations

import copy
from pathlib import Path

import pytest
from pydantic import ValidationError

from services.contract.http_policy import HttpPolicy
from services.contract.protocol import RewardOptions
from trainer.config import RewardSection, ServiceSection, TrainerConfig, load_config, read_raw
from trainer.config_flags import Flag

CONFIGS = Path(__file__).resolve().parents[2] / "trainer" / "configs"


@pytest.mark.parametrize(
    "path", sorted([*CONFIGS.glob("*.yaml"), *CONFIGS.glob("recipes/*.yaml")]), ids=lambda p: p.name
)
def test_shipped_configs_load(path: Path) -> None:
    config = load_config(path)
    assert config.training.output_dir


def test_math_config_is_the_reasoning_format_recipe() -> None:
    config = load_config(CONFIGS / "math.yaml")
    assert config.data.reasoning_format == "think"
    assert (config.reward.format_weight, config.reward.thinking_weight) == (0.2, 0.1)
    assert "seed defaults" not in (CONFIGS / "math.yaml").read_text()


def test_math_lora_config_carries_the_guides_values() -> None:
    config = load_config(CONFIGS / "recipes/math-lora.yaml")
    assert (config.lora.r, config.lora.alpha, config.lora.dropout) == (16, 32, 0.05)
    assert config.lora.target_modules == ["q_proj", "k_proj", "v_proj", "o_proj"]
    assert (config.grpo.num_generations, config.grpo.beta) == (2, 0.05)
    assert config.training.learning_rate == 5e-6
    assert (
        config.training.per_device_train_batch_size,
        config.training.gradient_accumulation_steps,
    ) == (4, 4)
    assert config.training.num_train_epochs == 3
    assert config.training.logging_steps == 10
    assert config.generation.max_completion_length == 2048
    assert (config.generation.temperature, config.generation.top_p) == (0.7, 0.9)
    assert config.data.reasoning_format == "none"
    options = config.reward.options()
    assert (options["correct"], options["wrong"], options["no_answer"]) == (1, -1, -0.5)
    assert (options["format_weight"], options["thinking_weight"]) == (0, 0)
    assert options["extraction"] == "boxed"


def test_reasoning_format_config_carries_the_guides_values() -> None:
    config = load_config(CONFIGS / "recipes/reasoning-format.yaml")
    assert config.lora.enabled is False
    assert (config.grpo.num_generations, config.grpo.epsilon) == (8, 0.2)
    assert (
        config.training.max_steps,
        config.training.per_device_train_batch_size,
        config.training.gradient_accumulation_steps,
    ) == (500, 4, 16)
    assert config.training.batch_size_counts == "prompts"  # verl's meaning
    assert config.completions_per_device() == 32
    assert config.training.learning_rate == 1e-5
    assert config.generation.temperature == 1.0
    assert (
        config.reward.answer_weight,
        config.reward.format_weight,
        config.reward.thinking_weight,
    ) == (1, 1, 1)
    assert config.training.wandb_project == "verl-reasoning-grpo"
    assert config.training.wandb_tags == ["reasoning", "grpo", "verl"]
    assert config.eval.every_steps > 0


def test_q_code_config_carries_the_guides_values() -> None:
    config = load_config(CONFIGS / "recipes/q-code.yaml")
    assert config.lora.enabled is False
    assert config.training.learning_rate == 2e-6
    assert config.generation.temperature == 0.8
    assert (config.reward.task, config.reward.language, config.reward.max_tests) == ("code", "q", 3)
    assert (config.reward.base_weight, config.reward.perfect_weight) == (1, 1)
    assert (config.eval.every_steps, config.eval.num_problems, config.eval.num_samples) == (
        25,
        15,
        4,
    )
    assert config.data.reasoning_format == "none"
    assert (config.training.run_name, config.training.wandb_project) == ("1.5b_non_reason", "q-rl")
    assert config.generation.use_vllm and config.generation.vllm_mode == "server"


@pytest.mark.parametrize(
    "name", ["recipes/math-lora.yaml", "recipes/reasoning-format.yaml", "recipes/q-code.yaml"]
)
def test_recipe_configs_comment_every_value(name: str) -> None:
    for line in (CONFIGS / name).read_text().splitlines():
        if ":" in line and line.startswith("  ") and not line.lstrip().startswith("#"):
            key = line.split(":")[0].strip()
            if key not in {
                "task",
                "mode",
                "language",
                "question_field",
                "tests_field",
                "test_code_field",
                "test_expected_field",
                "url",
            }:
                assert "#" in line, f"{name}: {line.strip()!r} has no comment"


def test_reward_section_is_the_wire_options_plus_the_trainers_own() -> None:
    shared = set(RewardOptions.model_fields)
    for name in shared - {"mode"}:  # the trainer pins mode to rule; the rest is the wire's
        ours, wire = RewardSection.model_fields[name], RewardOptions.model_fields[name]
        # A command-line flag (verifier_weight's) is the only thing the trainer adds.
        bare = copy.copy(ours)
        bare.metadata = [item for item in ours.metadata if not isinstance(item, Flag)]
        assert repr(bare) == repr(wire)  # type, default, bounds and description
    options = RewardSection(extraction="boxed", min_thinking_words=7).options()
    assert set(options) == shared
    assert RewardOptions.model_validate(options).min_thinking_words == 7
    assert "extraction" not in RewardSection().options()  # sent only when set (below)
    assert set(RewardSection.model_fields) - shared == {
        "task",
        "language",
        "max_tests",
        "test_timeout_s",
        "debug_log_every",
        "debug_samples",
        "allow_unavailable",
        "max_unavailable_steps",
    }


@pytest.mark.parametrize(
    ("key", "value"),
    [("verifier_weight", 1.5), ("min_thinking_words", 2_000_000), ("mode", "oracle")],
)
def test_reward_values_the_service_would_refuse_fail_at_load(key: str, value: object) -> None:
    with pytest.raises(ValidationError, match=key):
        TrainerConfig.model_validate({"reward": {key: value}})
    with pytest.raises(ValidationError, match=key):
        RewardOptions.model_validate({key: value})


def test_tinyv_only_is_sent_as_verifier_only() -> None:
    assert RewardSection(mode="tinyv_only").options()["mode"] == "verifier_only"


def test_the_former_task_name_grade_is_read_as_critique(tmp_path: Path) -> None:
    path = tmp_path / "critique.yaml"
    path.write_text("reward:\n  task: grade\n")
    assert load_config(path).reward.task == "critique"
    assert RewardSection(task="grade") == RewardSection(task="critique")
    with pytest.raises(ValidationError, match="task"):
        RewardSection(task="grading")


def test_extraction_is_sent_only_when_set() -> None:
    assert "extraction" not in RewardSection().options()
    assert RewardSection(extraction="lenient").options()["extraction"] == "lenient"
    with pytest.raises(ValidationError, match="extraction"):
        RewardSection(extraction="anything")


def test_defaults_without_a_file() -> None:
    config = load_config(None)
    assert config.grpo.beta == 0.05 and config.lora.r == 16 and config.reward.mode == "rule"


def test_q_and_tinyv_configs() -> None:
    q = load_config(CONFIGS / "q_code.yaml")
    # Every test of a row runs (up to the service's limit): none is dropped silently.
    assert (q.reward.task, q.reward.language, q.reward.max_tests) == ("code", "q", None)
    python = load_config(CONFIGS / "python_code.yaml").reward
    assert (python.task, python.language, python.max_tests) == ("code", "python", None)
    tinyv = load_config(CONFIGS / "tinyv_addon.yaml")
    assert tinyv.reward.mode == "addon"
    assert tinyv.service.url == ["http://verifier-0:8000", "http://verifier-1:8000"]
    assert tinyv.reward.options()["mode"] == "addon"
    parity = load_config(CONFIGS / "tinyv_parity.yaml").reward.options()
    assert (parity["mode"], parity["correct"], parity["wrong"], parity["no_answer"]) == (
        "addon",
        1.0,
        0.0,
        0.0,
    )


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("grpo:\n  betta: 0.1\n", "betta"),  # a misspelt key
        ("grpo:\n  num_generations: 1\n", "num_generations"),  # a value out of bounds
        ("service:\n  retry: 3\n", "retry"),  # the policy's keys are checked too
        ("service:\n  retries: -1\n", "retries"),
    ],
)
def test_bad_key_or_value_is_an_error(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ValidationError, match=named):
        load_config(path)


def test_vllm_server_mode_needs_a_url() -> None:
    with pytest.raises(ValidationError, match="vllm_server_base_url"):
        TrainerConfig.model_validate({"generation": {"use_vllm": True, "vllm_mode": "server"}})
    ok = TrainerConfig.model_validate({"generation": {"use_vllm": True, "vllm_mode": "colocate"}})
    assert ok.generation.vllm_mode == "colocate"


def test_vllm_length_and_tensor_parallel_belong_to_colocate_mode() -> None:
    server = {"use_vllm": True, "vllm_mode": "server", "vllm_server_base_url": "http://v:8001"}
    with pytest.raises(ValidationError, match="trl vllm-serve"):
        TrainerConfig.model_validate({"generation": {**server, "vllm_max_model_length": 8192}})
    colocate = {
        "use_vllm": True,
        "vllm_mode": "colocate",
        "vllm_max_model_length": 8192,
        "vllm_tensor_parallel_size": 2,
    }
    config = TrainerConfig.model_validate({"generation": colocate})
    assert config.generation.vllm_max_model_length == 8192


def test_auto_service() -> None:
    assert load_config(CONFIGS / "demo_cpu.yaml").service.auto
    assert not load_config(CONFIGS / "math.yaml").service.auto


@pytest.mark.parametrize("name", ["multi_gpu.yaml", "deepspeed_zero3.yaml", "fsdp.yaml"])
def test_accelerate_configs_parse(name: str) -> None:
    # Parsed only: these machines have no GPU to launch them on.
    from accelerate.commands.config.config_args import load_config_from_file

    config = load_config_from_file(str(CONFIGS / "accelerate" / name))
    assert config.num_processes == 8
    if name.startswith("deepspeed"):
        assert config.deepspeed_config["zero_stage"] == 3
    if name == "fsdp.yaml":
        assert config.distributed_type == "FSDP"
        assert config.fsdp_config["fsdp_version"] == 2


def test_service_section_carries_one_http_policy(tmp_path: Path) -> None:
    # The keys users write stay at the section's level; the section holds an HttpPolicy.
    path = tmp_path / "service.yaml"
    path.write_text("service:\n  timeout_s: 300\n  retries: 2\n  busy_wait_s: 30\n")
    service = load_config(path).service
    assert service.http == HttpPolicy(timeout_s=300, retries=2, busy_wait_s=30)
    # Written nested, the same policy; a flat key wins over the nested one.
    nested = ServiceSection.model_validate({"http": {"timeout_s": 300, "retries": 9}, "retries": 2})
    assert nested.http == HttpPolicy(timeout_s=300, retries=2)
    # A dump is flat again and reads back as it was (what --explain and --print_config show).
    dumped = service.model_dump()
    assert "http" not in dumped and dumped["timeout_s"] == 300 and dumped["busy_wait_s"] == 30
    assert ServiceSection.model_validate(dumped) == service


def test_nested_http_keys_read_as_the_sections(tmp_path: Path) -> None:
    path = tmp_path / "nested.yaml"
    path.write_text("service:\n  retries: 1\n  http:\n    retries: 4\n    timeout_s: 9\n")
    assert read_raw(path)["service"] == {"retries": 1, "timeout_s": 9}
    assert load_config(path).service.http == HttpPolicy(retries=1, timeout_s=9)
