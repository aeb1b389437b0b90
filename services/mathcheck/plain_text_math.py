"""Plain-text mathematics rewritten as LaTeX: ``sqrt(3)/2``, ``2pi``, ``x**2``, ``exp(2)``.

Models and datasets often write answers the way a calculator or Python would (Unicode is
first written as LaTeX by ``unicode_math``). The LaTeX
parser reads ``sqrt(3)`` as the product s·q·r·t·3 and ``pi`` as p·i, so the same answer
written in LaTeX and in plain text would never compare equal. Only spellings that cannot
mean anything else are rewritten: a name followed by an argument, ``pi`` standing alone,
``**`` for a power, and ``infinity``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from services.mathcheck.unicode_math import latex_from_unicode

_FUNCTIONS = "arcsin|arccos|arctan|sinh|cosh|tanh|sin|cos|tan|cot|sec|csc|ln|log|exp|sqrt|cbrt|abs"
# A function name not already a LaTeX command nor part of a longer word, then its argument.
_CALL = re.compile(rf"(?<![a-zA-Z\\])({_FUNCTIONS})(?![a-zA-Z])\s*(?=[(\d]|[a-z](?![a-z]))")
_PI = re.compile(r"(?<![a-zA-Z\\])pi(?![a-zA-Z])")
# "negative infinity" is left whole for the words that name it.
_INFINITY = re.compile(
    r"(?<![a-zA-Z\\])(?<!negative )(?<!positive )(?<!minus )(?:infinity|inf)(?![a-zA-Z])",
    re.IGNORECASE,
)
_PAREN_POWER = re.compile(r"\^\s*\(")
_FACTORIAL_WORD = re.compile(r"\b([a-zA-Z0-9])\s+factorial\b")


def _argument(text: str, start: int) -> tuple[str, int] | None:
    """The argument at ``start``: a balanced ``(...)``, or a run of digits, or one letter."""
    if start >= len(text):
        return None
    if text[start] == "(":
        depth = 0
        for index in range(start, len(text)):
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            if depth == 0:
                return text[start + 1 : index], index + 1
        return None
    match = re.compile(r"\d+(?:\.\d+)?|[a-zA-Z]").match(text, start)
    return (match.group(), match.end()) if match else None


def _rewrite_arguments(
    text: str, pattern: re.Pattern[str], write: Callable[[re.Match[str], str], str], back: int = 0
) -> str:
    """Each match of ``pattern`` and the argument after it (``back`` characters before the
    match's end) replaced by ``write(match, argument)``."""
    output: list[str] = []
    position = 0
    for match in pattern.finditer(text):
        if match.start() < position:
            continue
        argument = _argument(text, match.end() - back)
        if argument is None:
            continue
        output.append(text[position : match.start()] + write(match, argument[0]))
        position = argument[1]
    output.append(text[position:])
    return "".join(output)


_CALLED = {
    "sqrt": "\\sqrt{{{}}}",
    "cbrt": "\\sqrt[3]{{{}}}",
    "exp": "e^{{{}}}",
    "abs": "\\left|{}\\right|",
}


def _call(match: re.Match[str], argument: str) -> str:
    name, inner = match.group(1), latex_from_plain_text(argument)
    return _CALLED.get(name, f"\\{name}({{}})").format(inner)


def _paren_power(_: re.Match[str], argument: str) -> str:
    """ "2^(1/3)" -> "2^{1/3}": a parenthesised exponent is the whole exponent."""
    return "^{" + argument + "}"


# "\\sqrt[3]2", "\\frac\\pi3": LaTeX takes the next character or command as the argument;
# the parser does not.
_BRACELESS_ROOT = re.compile(r"\\sqrt\s*\[([^\]]+)\]\s*([0-9a-zA-Z])")
_TOKEN = r"(\\[a-zA-Z]+(?![a-zA-Z])|[0-9a-zA-Z])"
_BRACELESS_FRACTION = re.compile(rf"\\([dt]?frac)\s*{_TOKEN}\s*{_TOKEN}")


# LaTeX synonyms the parser does not know.
_SYNONYMS = (("\\lbrace", "\\{"), ("\\rbrace", "\\}"))
_REAL_LINE = re.compile(r"\\R(?![a-zA-Z])")


# "]0, 1[", "[0, 1[": intervals written with reversed brackets for open ends.
_REVERSED_INTERVAL = re.compile(r"^\s*([\[\]])([^\[\](),]+,[^\[\](),]+)([\[\]])\s*$")
_NAMED_FUNCTION = re.compile(
    r"\\(?:text|mathrm|operatorname)\s*\{\s*(lcm|gcd)\s*\}|(?<![a-zA-Z\\{])(lcm|gcd)(?=\s*\()"
)


def _interval_brackets(text: str) -> str:
    match = _REVERSED_INTERVAL.match(text)
    if match is None or (match.group(1) == "[" and match.group(3) == "]"):
        return text
    opening = "(" if match.group(1) == "]" else "["
    closing = ")" if match.group(3) == "[" else "]"
    return f"{opening}{match.group(2)}{closing}"


def latex_from_plain_text(text: str) -> str:
    """``text`` with its plain-text notations written as LaTeX; LaTeX passes unchanged
    (but for ``\\sqrt[3]2``, which is given its braces)."""
    text = _BRACELESS_ROOT.sub(r"\\sqrt[\1]{\2}", latex_from_unicode(_interval_brackets(text)))
    text = _BRACELESS_FRACTION.sub(r"\\\1{\2}{\3}", text)
    text = _NAMED_FUNCTION.sub(
        lambda match: f"\\operatorname{{{match.group(1) or match.group(2)}}}", text
    )
    if "\\" in text:
        for synonym, meaning in _SYNONYMS:
            text = text.replace(synonym, meaning)
        text = _REAL_LINE.sub(r"\\mathbb{R}", text)
    if not any(marker in text for marker in ("**", "^(", "pi", "inf", "(", "factorial")) and not (
        _CALL.search(text)
    ):
        return text
    text = text.replace("**", "^")
    text = _rewrite_arguments(text, _CALL, _call)
    text = _rewrite_arguments(text, _PAREN_POWER, _paren_power, back=1)
    text = _FACTORIAL_WORD.sub(r"\1!", text)
    text = _PI.sub(r"\\pi ", text)
    return _INFINITY.sub(r"\\infty ", text).strip()


__all__ = ["latex_from_plain_text"]
