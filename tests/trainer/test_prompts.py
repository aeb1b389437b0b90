from __future__ import annotations

from trainer.prompts import format_instruction, message_text


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
