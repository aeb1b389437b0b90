from __future__ import annotations

from pathlib import Path

from trainer.config import load_config
from trainer.prompts import build_messages, format_instruction, message_text


def test_message_text_reads_both_trl_forms() -> None:
    assert message_text("plain") == "plain"
    assert message_text([{"role": "assistant", "content": "hi"}]) == "hi"
    parts = [
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
        }
    ]
    assert message_text(parts) == "ab"
    assert message_text([]) == ""


def test_code_instructions_name_the_language() -> None:
    assert "```q" in format_instruction("think", "code", "q")
    assert "<think>" in format_instruction("think", "code", "python")
    assert "<answer>" not in format_instruction("none", "code", "python")


def test_worked_examples_come_before_the_question_as_earlier_turns() -> None:
    messages = build_messages(
        "What is 3 * 2?",
        task="math",
        language="python",
        reasoning_format="none",
        system_prompt="Be brief.",
        examples=[("What is 2 + 2?", "2 + 2 = \\boxed{4}")],
    )
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    instruction = format_instruction("none", "math", "python")
    assert messages[1]["content"] == f"What is 2 + 2?\n\n{instruction}"
    assert messages[2]["content"] == "2 + 2 = \\boxed{4}"
    assert messages[3]["content"] == f"What is 3 * 2?\n\n{instruction}"


def test_the_demo_shows_the_rewarded_format() -> None:
    config = load_config(Path(__file__).resolve().parents[2] / "trainer/configs/demo_cpu.yaml")
    assert config.data.examples and config.data.reasoning_format == "none"
    assert all("\\boxed{" in example.answer for example in config.data.examples)
