from __future__ import annotations

import pytest

from services.codecheck.extraction import extract_code


@pytest.mark.parametrize(
    ("completion", "language", "expected"),
    [
        ("```python\nprint(1)\n```", "python", "print(1)"),
        ("```py\nprint(1)\n```", "python", "print(1)"),
        ("```\nprint(1)\n```", "python", "print(1)"),
        ("```python\nold()\n```\nthen\n```python\nnew()\n```", "python", "new()"),
        ("```python\nfirst()\n```\n```\nuntagged()\n```", "python", "first()"),
        ("```q\nsolve:{x+1}\n```", "q", "solve:{x+1}"),
        ("```python\nprint(1)\n```", "q", None),  # another language is never run
        ("<think>hmm</think><answer>solve:{x*2}</answer>", "q", "solve:{x*2}"),
        ("<answer>\n```python\nf()\n```\n</answer>", "python", "f()"),
        ("<answer>   </answer>", "python", None),
        ("I would write a loop.", "python", None),
        ("```python\nunclosed(", "python", None),
        # q as the Q paper's non-reasoning format writes it: the completion is the program.
        ("solve:{x*2}\nshow solve 3", "q", "solve:{x*2}\nshow solve 3"),
        ("\nsolve:{sum til x}\n\n", "q", "solve:{sum til x}"),
        ("solve:{x+1}", "python", None),  # Python code needs a fence
        ("<reasoning>double it</reasoning>", "q", None),  # reasoning format, no answer
        ("<think>double it</think>solve:{x*2}", "q", None),
        ("```q\nsolve:{x*2}", "q", None),  # an unclosed fence is not bare code
        ("```python\nprint(1)\n```", "q", None),
        ("   \n", "q", None),
    ],
)
def test_extract_code(completion: str, language: str, expected: str | None) -> None:
    assert extract_code(completion, language) == expected
