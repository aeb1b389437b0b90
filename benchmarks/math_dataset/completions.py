"""Short chain-of-thought completions around a final answer, or with none to extract."""

from __future__ import annotations

import random
import re

from benchmarks.math_dataset.problem import Problem


def _is_plain_number(ans: str) -> bool:
    return re.fullmatch(r"-?[\d,]+(\.\d+)?", ans) is not None


def _is_math(ans: str) -> bool:
    return any(ch in ans for ch in "\\^_{}=") or re.fullmatch(r"[A-Za-z]+", ans) is None


_OPENERS = (
    "Let's solve this step by step.",
    "We work through the problem carefully.",
    "First, let's understand what is being asked.",
    "Let me break this down.",
    "Okay, let's think.",
    "",
    "We need to be careful with the arithmetic here.",
    "Here is my reasoning.",
)

_BRIDGES = (
    "Carrying this out gives {a}.",
    "This simplifies to {a}.",
    "Putting it together, we obtain {a}.",
    "After simplifying, the result is {a}.",
    "",
)

_TRUNCATIONS = (
    "Next, we need to",
    "Hmm, wait. Let me recompute the previous step because",
    "Now substituting back, we get",
    "Let me double-check this by",
)


def _display(ans: str) -> str:
    return f"${ans}$" if _is_math(ans) and not _is_plain_number(ans) else ans


def _body(rng: random.Random, prob: Problem) -> str:
    lines = [rng.choice(_OPENERS)] if rng.random() < 0.8 else []
    lines += list(prob.steps)
    return "\n".join(line for line in lines if line)


def render_completion(rng: random.Random, prob: Problem, ans: str, first_wrong: str | None) -> str:
    body = _body(rng, prob)
    bridge = rng.choice(_BRIDGES)
    if bridge:
        body += "\n" + bridge.format(a=_display(ans))
    fmts = ["boxed", "boxed", "answer_is", "tag"]
    if _is_plain_number(ans):
        fmts.append("hash")
        if prob.category == "gsm8k_int":
            fmts += ["hash", "hash"]
    fmt = rng.choice(fmts)
    if fmt == "boxed":
        if first_wrong is not None:
            body += (
                f"\nSo the answer would be $\\boxed{{{first_wrong}}}$.\n"
                "Wait, let me re-check that last step. I made an arithmetic slip; redoing it:"
            )
        closer = rng.choice(
            (
                "Therefore, the answer is $\\boxed{{{a}}}$.",
                "So the final answer is $\\boxed{{{a}}}$.",
                "\\[\\boxed{{{a}}}\\]",
                "**Final Answer**\n\\[\n\\boxed{{{a}}}\n\\]",
                "Thus we get \\boxed{{{a}}}.",
            )
        )
        return body + "\n" + closer.format(a=ans)
    if fmt == "answer_is":
        closer = rng.choice(
            (
                "The answer is {d}.",
                "The final answer is {d}.",
                "Final Answer: The final answer is {d}. I hope it is correct.",
            )
        )
        return body + "\n" + closer.format(d=_display(ans))
    if fmt == "hash":
        return body + f"\n#### {ans}"
    if rng.random() < 0.5:
        return f"<think>\n{body}\n</think>\n<answer>{ans}</answer>"
    return f"<think>\n{body}\n</think>\n<answer>\n{ans}\n</answer>"


def render_no_answer(rng: random.Random, prob: Problem) -> str:
    kind = rng.randrange(3)
    first = rng.choice(_OPENERS)
    steps = list(prob.steps[: max(1, len(prob.steps) - 1)])
    text = "\n".join(x for x in [first, *steps] if x)
    if kind == 0:
        return text + "\n" + rng.choice(_TRUNCATIONS)
    if kind == 1:
        ans = prob.correct[0]
        cut = ans[: max(1, len(ans) // 2)]
        return "\n".join([*prob.steps, f"Therefore, $\\boxed{{{cut}"])
    return "<think>\n" + text + "\n" + rng.choice(_TRUNCATIONS)
