from __future__ import annotations

from pathlib import Path

from services.settings import variables
from services.settings_reference import settings_reference

DOCS = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_docs_carry_the_current_settings_reference() -> None:
    # Regenerate with: python -m services.settings_reference --write docs/configuration.md
    assert settings_reference() in DOCS.read_text(encoding="utf-8")


def test_reference_lists_every_variable_once() -> None:
    rows = [line for line in settings_reference().splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == [v.env for v in variables()]


def test_computed_defaults_do_not_depend_on_the_machine() -> None:
    text = settings_reference()
    assert "| `VERIFIER_MATH_WORKERS` | CPU count |" in text
    assert "| `VERIFIER_SANDBOX_PYTHON` | the service's Python |" in text
    assert "| `VERIFIER_LLM_RETRIES` | `2` |" in text
