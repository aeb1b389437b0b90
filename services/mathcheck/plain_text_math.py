"""Plain-text mathematics rewritten as LaTeX: ``sqrt(3)/2``, ``2pi``, ``x**2``, ``exp(2)``.

Models and datasets often write answers the way a calculator or Python would (Unicode is
first written as LaTeX by ``unicode_math``). The LaTeX
parser reads ``sqrt(3)`` as the product s·q·r·t·3 and ``pi`` as p·i, so the same answer
written in LaTeX and in plain text would never compare equal. Only spellings that cannot
mean anything else are rewritten: a name followed by an argument, ``pi`` standing alone,
``**`` for a power, and ``infinity``.

Each rule is a small scanner: at a position of the text it says whether its notation
starts there, where it ends and what it is in LaTeX (``_rewrite`` applies one rule from
left to right, as a substitution would).
"""

from __future__ import annotations

from collections.abc import Callable

from services.mathcheck.latex_tokens import spaces_end
from services.mathcheck.unicode_math import latex_from_unicode

_FUNCTIONS = frozenset(
    ("arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "sin", "cos", "tan", "cot", "sec",
     "csc", "ln", "log", "exp", "sqrt", "cbrt", "abs")
)  # fmt: skip
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
# Where a rule's notation starts: its end and its LaTeX, or None.
Rule = Callable[[str, int], tuple[int, str] | None]


def _letter(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _word_character(char: str) -> bool:
    return char.isalnum() or char == "_"


def _letters_end(text: str, start: int) -> int:
    while start < len(text) and _letter(text[start]):
        start += 1
    return start


def _word_at(text: str, start: int) -> str | None:
    """The run of letters that starts at ``start`` (none before it, nor a backslash)."""
    if start >= len(text) or not _letter(text[start]):
        return None
    if start and (_letter(text[start - 1]) or text[start - 1] == "\\"):
        return None
    return text[start : _letters_end(text, start)]


def _rewrite(text: str, rule: Rule) -> str:
    """``text`` with each place ``rule`` reads, from left to right, written as it says."""
    output: list[str] = []
    position = index = 0
    while index < len(text):
        found = rule(text, index)
        if found is None:
            index += 1
            continue
        end, latex = found
        output.append(text[position:index] + latex)
        position = index = max(end, index + 1)
    output.append(text[position:])
    return "".join(output)


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
    if text[start].isdecimal():
        end = start
        while end < len(text) and text[end].isdecimal():
            end += 1
        if text[end : end + 1] == "." and text[end + 1 : end + 2].isdecimal():
            end += 1
            while end < len(text) and text[end].isdecimal():
                end += 1
        return text[start:end], end
    return (text[start], start + 1) if _letter(text[start]) else None


_CALLED = {
    "sqrt": "\\sqrt{{{}}}",
    "cbrt": "\\sqrt[3]{{{}}}",
    "exp": "e^{{{}}}",
    "abs": "\\left|{}\\right|",
}


def _call_start(text: str, start: int) -> tuple[str, int] | None:
    """A function's name standing alone at ``start`` (not a LaTeX command, not part of a
    longer word) and where its argument may start: "(", a digit, or one small letter."""
    name = _word_at(text, start)
    if name is None or name not in _FUNCTIONS:
        return None
    after = spaces_end(text, start + len(name))
    following = text[after : after + 1]
    alone = following in _LOWER and text[after + 1 : after + 2] not in _LOWER
    if following == "(" or following.isdecimal() or alone:
        return name, after
    return None


def _call(text: str, start: int) -> tuple[int, str] | None:
    """ "sqrt(3)" -> "\\sqrt{3}", "sin x" -> "\\sin(x)": a call, its argument read too."""
    call = _call_start(text, start)
    argument = _argument(text, call[1]) if call is not None else None
    if call is None or argument is None:
        return None
    inner = latex_from_plain_text(argument[0])
    return argument[1], _CALLED.get(call[0], f"\\{call[0]}({{}})").format(inner)


def _paren_power(text: str, start: int) -> tuple[int, str] | None:
    """ "2^(1/3)" -> "2^{1/3}": a parenthesised exponent is the whole exponent."""
    if text[start] != "^":
        return None
    argument = _argument(text, spaces_end(text, start + 1))
    if argument is None or text[spaces_end(text, start + 1)] != "(":
        return None
    return argument[1], "^{" + argument[0] + "}"


def _factorial_word(text: str, start: int) -> tuple[int, str] | None:
    """ "5 factorial" -> "5!": one letter or digit, standing alone, then the word."""
    char = text[start]
    if not (char.isascii() and char.isalnum()) or (start and _word_character(text[start - 1])):
        return None
    word = spaces_end(text, start + 1)
    end = word + len("factorial")
    if word == start + 1 or text[word:end] != "factorial":
        return None
    if end < len(text) and _word_character(text[end]):
        return None
    return end, f"{char}!"


def _pi(text: str, start: int) -> tuple[int, str] | None:
    """ "2pi" -> "2\\pi ": the word pi standing alone."""
    return (start + 2, "\\pi ") if _word_at(text, start) == "pi" else None


# "negative infinity" is left whole for the words that name it.
_SIGN_WORDS = ("negative ", "positive ", "minus ")


def _infinity(text: str, start: int) -> tuple[int, str] | None:
    """ "infinity", "inf" -> "\\infty " (any case)."""
    word = _word_at(text, start)
    if word is None or word.lower() not in ("infinity", "inf"):
        return None
    if text[:start].lower().endswith(_SIGN_WORDS):
        return None
    return start + len(word), "\\infty "


def _braceless_root(text: str, start: int) -> tuple[int, str] | None:
    """ "\\sqrt[3]2" -> "\\sqrt[3]{2}": LaTeX takes the next character as the argument; the
    parser does not."""
    if not text.startswith("\\sqrt", start):
        return None
    opening = spaces_end(text, start + len("\\sqrt"))
    closing = text.find("]", opening)
    if text[opening : opening + 1] != "[" or closing <= opening + 1:
        return None
    argument = spaces_end(text, closing + 1)
    char = text[argument : argument + 1]
    if not (char.isascii() and char.isalnum()):
        return None
    return argument + 1, f"\\sqrt[{text[opening + 1 : closing]}]{{{char}}}"


def _fraction_token(text: str, start: int) -> tuple[str, int] | None:
    """A command (backslash and letters) or one letter or digit, after spaces."""
    start = spaces_end(text, start)
    char = text[start : start + 1]
    if char == "\\" and _letter(text[start + 1 : start + 2]):
        end = _letters_end(text, start + 1)
        return text[start:end], end
    if char.isascii() and char.isalnum():
        return char, start + 1
    return None


def _braceless_fraction(text: str, start: int) -> tuple[int, str] | None:
    """ "\\frac\\pi3" -> "\\frac{\\pi}{3}", "\\dfrac12" -> "\\dfrac{1}{2}"."""
    name = next(
        (name for name in ("\\frac", "\\dfrac", "\\tfrac") if text.startswith(name, start)), None
    )
    if name is None:
        return None
    top = _fraction_token(text, start + len(name))
    bottom = _fraction_token(text, top[1]) if top is not None else None
    if top is None or bottom is None:
        return None
    return bottom[1], f"{name}{{{top[0]}}}{{{bottom[0]}}}"


_FONTS = ("\\text", "\\mathrm", "\\operatorname")
_NAMED = ("lcm", "gcd")


def _named_function(text: str, start: int) -> tuple[int, str] | None:
    """ "\\text{lcm}", "gcd(4, 6)" -> "\\operatorname{lcm}": a function LaTeX has no command
    for."""
    font = next((font for font in _FONTS if text.startswith(font, start)), None)
    if font is not None:
        opening = spaces_end(text, start + len(font))
        at = spaces_end(text, opening + 1)
        closing = spaces_end(text, at + 3)
        named = text[at : at + 3]
        if (
            text[opening : opening + 1] == "{"
            and named in _NAMED
            and text[closing : closing + 1] == "}"
        ):
            return closing + 1, f"\\operatorname{{{named}}}"
        return None
    name = text[start : start + 3]
    if name not in _NAMED or (start and (_letter(text[start - 1]) or text[start - 1] in "\\{")):
        return None
    parenthesis = spaces_end(text, start + 3)
    if text[parenthesis : parenthesis + 1] != "(":
        return None
    return start + 3, f"\\operatorname{{{name}}}"


def _real_line(text: str, start: int) -> tuple[int, str] | None:
    """ "\\R" -> "\\mathbb{R}"."""
    if text.startswith("\\R", start) and not _letter(text[start + 2 : start + 3]):
        return start + 2, "\\mathbb{R}"
    return None


def _interval_brackets(text: str) -> str:
    """ "]0, 1[", "[0, 1[": an interval written with reversed brackets for open ends."""
    bare = text.strip()
    opening, inside, closing = bare[:1], bare[1:-1], bare[-1:]
    if len(bare) < 2 or opening not in ("[", "]") or closing not in ("[", "]"):
        return text
    low, comma, high = inside.partition(",")
    if not comma or not low or not high or any(char in "[]()," for char in low + high):
        return text
    if opening == "[" and closing == "]":
        return text
    return f"{'(' if opening == ']' else '['}{inside}{')' if closing == '[' else ']'}"


# LaTeX synonyms the parser does not know.
_SYNONYMS = (("\\lbrace", "\\{"), ("\\rbrace", "\\}"))


def latex_from_plain_text(text: str) -> str:
    """``text`` with its plain-text notations written as LaTeX; LaTeX passes unchanged
    (but for ``\\sqrt[3]2``, which is given its braces)."""
    text = _rewrite(latex_from_unicode(_interval_brackets(text)), _braceless_root)
    text = _rewrite(_rewrite(text, _braceless_fraction), _named_function)
    if "\\" in text:
        for synonym, meaning in _SYNONYMS:
            text = text.replace(synonym, meaning)
        text = _rewrite(text, _real_line)
    markers = ("**", "^(", "pi", "inf", "(", "factorial")
    if not any(marker in text for marker in markers) and not any(
        _call_start(text, index) for index in range(len(text))
    ):
        return text
    text = text.replace("**", "^")
    text = _rewrite(_rewrite(text, _call), _paren_power)
    text = _rewrite(_rewrite(text, _factorial_word), _pi)
    return _rewrite(text, _infinity).strip()


__all__ = ["latex_from_plain_text"]
