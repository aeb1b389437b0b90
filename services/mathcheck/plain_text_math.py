"""Plain-text mathematics read as LaTeX tokens: ``sqrt(3)/2``, ``2pi``, ``x**2``, ``exp(2)``.

Models and datasets often write answers the way a calculator or Python would (Unicode is
first read as LaTeX by ``unicode_math``). The LaTeX parser reads ``sqrt(3)`` as the product
s·q·r·t·3 and ``pi`` as p·i, so the same answer written in LaTeX and in plain text would
never compare equal. Only spellings that cannot mean anything else are read as LaTeX: a
name followed by an argument, ``pi`` standing alone, ``**`` for a power, and ``infinity``.

Each rule reads tokens: at a position it says whether its notation starts there, where it
ends and what its LaTeX tokens are (``_rewrite`` applies one rule from left to right). A rule
that takes one character of a run of letters or digits (``\\frac12``, ``sin xY``) leaves the
rest of the run as a token of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from services.mathcheck.latex_tokens import (
    Kind,
    Token,
    closing_brace,
    join,
    nesting,
    rescan,
    skip_spaces,
    strip,
    symbol,
    tokenize,
)
from services.mathcheck.unicode_math import unicode_as_latex

_FUNCTIONS = frozenset(
    ("arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "sin", "cos", "tan", "cot", "sec",
     "csc", "ln", "log", "exp", "sqrt", "cbrt", "abs")
)  # fmt: skip
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
# Where a rule's notation starts: its end and its LaTeX tokens, or None.
Found = tuple[int, list[Token]]
Rule = Callable[[list[Token], int], Found | None]


def _rewrite(tokens: list[Token], rule: Rule) -> list[Token]:
    """``tokens`` with each place ``rule`` reads, from left to right, as it says."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        found = rule(tokens, index)
        if found is None:
            kept.append(tokens[index])
            index += 1
            continue
        end, latex = found
        kept.extend(latex)
        index = max(end, index + 1)
    return kept


def _rest(token: Token) -> list[Token]:
    """What is left of a run of letters or digits after its first character."""
    return [Token(token.kind, token.text[1:])] if len(token.text) > 1 else []


def _parenthesised(tokens: list[Token], start: int) -> tuple[list[Token], int] | None:
    """What the ``(...)`` at ``start`` holds and the index after it; None if it does not
    close."""
    depth = 0
    for index in range(start, len(tokens)):
        depth += 1 if tokens[index].is_symbol("(") else -1 if tokens[index].is_symbol(")") else 0
        if depth == 0:
            return tokens[start + 1 : index], index + 1
    return None


def _argument(tokens: list[Token], start: int) -> tuple[list[Token], int, list[Token]] | None:
    """The argument at ``start``: a balanced ``(...)``, a number, or one letter; with the
    index after it and what is left of the run it took one letter from."""
    if start >= len(tokens):
        return None
    token = tokens[start]
    if token.is_symbol("("):
        inside = _parenthesised(tokens, start)
        return None if inside is None else (inside[0], inside[1], [])
    if token.kind is Kind.DIGITS:
        end = start + 1
        if (
            end + 1 < len(tokens)
            and tokens[end].is_symbol(".")
            and tokens[end + 1].kind is Kind.DIGITS
        ):
            end += 2
        return tokens[start:end], end, []
    if token.kind is Kind.WORD:
        return [Token(Kind.WORD, token.text[0])], start + 1, _rest(token)
    return None


_CALLED = {
    "sqrt": "\\sqrt{{{}}}",
    "cbrt": "\\sqrt[3]{{{}}}",
    "exp": "e^{{{}}}",
    "abs": "\\left|{}\\right|",
}


def _call_start(tokens: list[Token], start: int) -> int | None:
    """Where the argument of a function's name at ``start`` may start ("(", a digit, or one
    small letter standing alone); None if no name of a function stands there."""
    token = tokens[start]
    if token.kind is not Kind.WORD or token.text not in _FUNCTIONS:
        return None
    after = skip_spaces(tokens, start + 1)
    following = tokens[after] if after < len(tokens) else None
    if following is None:
        return None
    letter = following.kind is Kind.WORD and following.text[0] in _LOWER
    alone = letter and following.text[1:2] not in _LOWER
    return after if following.is_symbol("(") or following.kind is Kind.DIGITS or alone else None


def _call(tokens: list[Token], start: int) -> Found | None:
    """ "sqrt(3)" -> "\\sqrt{3}", "sin x" -> "\\sin(x)": a call, its argument read too."""
    after = _call_start(tokens, start)
    argument = _argument(tokens, after) if after is not None else None
    if argument is None:
        return None
    inner, end, rest = argument
    name = tokens[start].text
    written = _CALLED.get(name, f"\\{name}({{}})").format(join(plain_text_as_latex(inner)))
    return end, [*tokenize(written), *rest]


def _paren_power(tokens: list[Token], start: int) -> Found | None:
    """ "2^(1/3)" -> "2^{1/3}": a parenthesised exponent is the whole exponent."""
    if not tokens[start].is_symbol("^"):
        return None
    opening = skip_spaces(tokens, start + 1)
    inside = (
        _parenthesised(tokens, opening)
        if opening < len(tokens) and tokens[opening].is_symbol("(")
        else None
    )
    if inside is None:
        return None
    return inside[1], [symbol("^"), symbol("{"), *inside[0], symbol("}")]


def _word_character(char: str) -> bool:
    return char.isalnum() or char == "_"


def _factorial_word(tokens: list[Token], start: int) -> Found | None:
    """ "5 factorial" -> "5!": one letter or digit, standing alone, then the word."""
    token = tokens[start]
    if token.kind not in (Kind.WORD, Kind.DIGITS) or len(token.text) != 1:
        return None
    if not token.text.isascii() or (start and _word_character(tokens[start - 1].text[-1])):
        return None
    word = start + 2
    if start + 1 >= len(tokens) or tokens[start + 1].kind is not Kind.SPACE:
        return None
    if word >= len(tokens) or tokens[word].kind is not Kind.WORD:
        return None
    if tokens[word].text != "factorial":
        return None
    if word + 1 < len(tokens) and _word_character(tokens[word + 1].text[0]):
        return None
    return word + 1, [token, symbol("!")]


_PI = tokenize("\\pi ")


def _pi(tokens: list[Token], start: int) -> Found | None:
    """ "2pi" -> "2\\pi ": the word pi standing alone."""
    return (start + 1, list(_PI)) if tokens[start] == Token(Kind.WORD, "pi") else None


# "negative infinity" is left whole for the words that name it.
_SIGN_WORDS = ("negative ", "positive ", "minus ")
_INFINITY = tokenize("\\infty ")


def _infinity(tokens: list[Token], start: int) -> Found | None:
    """ "infinity", "inf" -> "\\infty " (any case)."""
    token = tokens[start]
    if token.kind is not Kind.WORD or token.text.lower() not in ("infinity", "inf"):
        return None
    before = join(tokens[max(0, start - 2) : start]).lower()
    if before.endswith(_SIGN_WORDS):
        return None
    return start + 1, list(_INFINITY)


def _one_character(tokens: list[Token], start: int) -> tuple[list[Token], int, list[Token]]:
    """A command, or one letter or digit, after spaces: its tokens, the index after it and
    what is left of its run; no tokens if none is there."""
    start = skip_spaces(tokens, start)
    token = tokens[start] if start < len(tokens) else None
    if token is None:
        return [], start, []
    if token.named:
        return [token], start + 1, []
    if token.kind in (Kind.WORD, Kind.DIGITS) and token.text[0].isascii():
        return [Token(token.kind, token.text[0])], start + 1, _rest(token)
    return [], start, []


def _braceless_root(tokens: list[Token], start: int) -> Found | None:
    """ "\\sqrt[3]2" -> "\\sqrt[3]{2}": LaTeX takes the next character as the argument; the
    parser does not."""
    if not tokens[start].is_command("\\sqrt"):
        return None
    opening = skip_spaces(tokens, start + 1)
    closing = next(
        (index for index in range(opening + 1, len(tokens)) if tokens[index].is_symbol("]")),
        None,
    )
    if opening >= len(tokens) or not tokens[opening].is_symbol("[") or closing is None:
        return None
    if closing == opening + 1:
        return None
    argument, end, rest = _one_character(tokens, closing + 1)
    if not argument or argument[0].kind is Kind.COMMAND:
        return None
    index = tokens[opening : closing + 1]
    return end, [tokens[start], *index, symbol("{"), *argument, symbol("}"), *rest]


_FRACTIONS = ("\\frac", "\\dfrac", "\\tfrac")


def _braceless_fraction(tokens: list[Token], start: int) -> Found | None:
    """ "\\frac\\pi3" -> "\\frac{\\pi}{3}", "\\dfrac12" -> "\\dfrac{1}{2}"."""
    if not tokens[start].is_command(*_FRACTIONS):
        return None
    top, after_top, rest = _one_character(tokens, start + 1)
    if not top:
        return None
    if rest:
        bottom = [Token(rest[0].kind, rest[0].text[0])]
        end, rest = after_top, _rest(rest[0])
    else:
        bottom, end, rest = _one_character(tokens, after_top)
    if not bottom:
        return None
    braced = [symbol("{"), *top, symbol("}"), symbol("{"), *bottom, symbol("}")]
    return end, [tokens[start], *braced, *rest]


_FONTS = ("\\text", "\\mathrm", "\\operatorname")
_NAMED = ("lcm", "gcd")


def _named_function(tokens: list[Token], start: int) -> Found | None:
    """ "\\text{lcm}", "gcd(4, 6)" -> "\\operatorname{lcm}": a function LaTeX has no command
    for."""
    token = tokens[start]
    if token.is_command(*_FONTS):
        opening = skip_spaces(tokens, start + 1)
        at = skip_spaces(tokens, opening + 1)
        closing = skip_spaces(tokens, at + 1)
        if (
            closing < len(tokens)
            and tokens[opening].is_symbol("{")
            and tokens[at].kind is Kind.WORD
            and tokens[at].text in _NAMED
            and tokens[closing].is_symbol("}")
        ):
            return closing + 1, tokenize(f"\\operatorname{{{tokens[at].text}}}")
        return None
    if token.kind is not Kind.WORD or token.text not in _NAMED:
        return None
    if start and tokens[start - 1].is_symbol("{"):
        return None
    parenthesis = skip_spaces(tokens, start + 1)
    if parenthesis >= len(tokens) or not tokens[parenthesis].is_symbol("("):
        return None
    return start + 1, tokenize(f"\\operatorname{{{token.text}}}")


def _follows(tokens: list[Token], start: int, allowed: frozenset[str]) -> bool:
    """Whether what stands before ``start``, spaces apart, is nothing or one of ``allowed``."""
    before = start - 1
    while before >= 0 and tokens[before].kind is Kind.SPACE:
        before -= 1
    return before < 0 or tokens[before].text in allowed


# What a fraction written with a slash may follow to be a coefficient: nothing, an
# operator, a relation or an opening bracket.
_BEFORE_A_COEFFICIENT = frozenset(
    ("+", "-", "=", "(", "[", "{", ",", "<", ">", "\\le", "\\ge", "\\ne", "\\leq", "\\geq",
     "\\neq", "\\pm", "\\mp", "\\approx")
)  # fmt: skip
# Commands that join factors rather than are one.
_OPERATORS = frozenset(
    ("\\cdot", "\\times", "\\div", "\\le", "\\ge", "\\ne", "\\leq", "\\geq", "\\neq",
     "\\pm", "\\mp", "\\approx", "\\to", "\\in", "\\cup", "\\cap", "\\quad", "\\qquad")
)  # fmt: skip
# Words that join answers ("1/2 and 3/4"), not factors.
_JOINTS = frozenset(("and", "or", "to", "of", "out", "is", "are"))


def _slashed_coefficient(tokens: list[Token], start: int) -> Found | None:
    """ "1/2 x^2", "4/3 \\pi r^3" -> "\\frac{1}{2} x^2", "\\frac{4}{3} \\pi r^3": whole numbers
    over a slash, then a space and a factor, are a coefficient, as a calculator reads them
    (the parser would put the factor under the slash). Without the space (``1/2x``) it
    stays as written."""
    if tokens[start].kind is not Kind.DIGITS or start + 4 >= len(tokens):
        return None
    slash, bottom, space, factor = tokens[start + 1 : start + 5]
    if not slash.is_symbol("/") or bottom.kind is not Kind.DIGITS or space.kind is not Kind.SPACE:
        return None
    if not _follows(tokens, start, _BEFORE_A_COEFFICIENT):
        return None
    if factor.kind is Kind.WORD:
        starts_factor = factor.text.lower() not in _JOINTS
    elif factor.kind is Kind.COMMAND:
        starts_factor = factor.named and factor.text not in _OPERATORS
    else:
        starts_factor = factor.is_symbol("(")
    if not starts_factor:
        return None
    return start + 3, tokenize(f"\\frac{{{tokens[start].text}}}{{{bottom.text}}}")


# What a set in bare braces may follow: nothing, or a relation or operation on sets.
_BEFORE_A_SET = frozenset(("\\in", "=", "\\cup", "\\cap", "\\setminus", ","))
# What a set in bare braces holds at its top level: elements apart, or a condition's bar.
_IN_A_SET = frozenset((",", ";", "|", ":", "\\mid"))


def _bare_set(tokens: list[Token], start: int) -> Found | None:
    """ "{1, 2}" -> "\\{1, 2\\}", "{x | x > 0}" -> "\\{x | x > 0\\}": plain text writes a set
    in bare braces, which LaTeX reads as a group; one that holds elements apart or a
    condition, at the start of the answer or after a relation or operation on sets."""
    if not tokens[start].is_symbol("{"):
        return None
    if not _follows(tokens, start, _BEFORE_A_SET):
        return None
    closing = closing_brace(tokens, start)
    if closing is None:
        return None
    depth = 0
    for token in tokens[start + 1 : closing]:
        if depth == 0 and token.text in _IN_A_SET:
            inside = tokens[start + 1 : closing]
            return closing + 1, [_ESCAPED["{"], *inside, _ESCAPED["}"]]
        depth += nesting(token)
    return None


_ESCAPED = {"{": Token(Kind.COMMAND, "\\{"), "}": Token(Kind.COMMAND, "\\}")}


# LaTeX synonyms the parser does not know.
_SYNONYMS = {
    synonym: tuple(tokenize(meaning))
    for synonym, meaning in (("\\lbrace", "\\{"), ("\\rbrace", "\\}"), ("\\R", "\\mathbb{R}"))
}


def _synonym(tokens: list[Token], start: int) -> Found | None:
    """ "\\lbrace" -> "\\{", "\\R" -> "\\mathbb{R}"."""
    token = tokens[start]
    meaning = _SYNONYMS.get(token.text) if token.kind is Kind.COMMAND else None
    if meaning is None:
        return None
    return start + 1, list(meaning)


def _double_star(tokens: list[Token], start: int) -> Found | None:
    """ "x**2" -> "x^2"."""
    following = tokens[start + 1] if start + 1 < len(tokens) else None
    if tokens[start].is_symbol("*") and following is not None and following.is_symbol("*"):
        return start + 2, [symbol("^")]
    return None


def _interval_brackets(tokens: list[Token]) -> list[Token]:
    """ "]0, 1[", "[0, 1[": an interval written with reversed brackets for open ends."""
    bare = strip(tokens)
    if len(bare) < 2 or not bare[0].is_symbol("[", "]") or not bare[-1].is_symbol("[", "]"):
        return tokens
    inside = bare[1:-1]
    comma = next((index for index, token in enumerate(inside) if token.is_symbol(",")), None)
    if comma is None or comma == 0 or comma == len(inside) - 1:
        return tokens
    bounds = join((*inside[:comma], *inside[comma + 1 :]))
    if any(char in "[]()," for char in bounds):
        return tokens
    if bare[0].text == "[" and bare[-1].text == "]":
        return tokens
    opening = symbol("(" if bare[0].text == "]" else "[")
    closing = symbol(")" if bare[-1].text == "[" else "]")
    return [opening, *inside, closing]


# Each rule, in order, with the tokens one of which its notation starts with (in lower case):
# a rule none of them is in is not tried.
_RULES: tuple[tuple[Rule, frozenset[str]], ...] = (
    (_braceless_root, frozenset(("\\sqrt",))),
    (_braceless_fraction, frozenset(_FRACTIONS)),
    (_named_function, frozenset((*_FONTS, *_NAMED))),
    (_synonym, frozenset(text.lower() for text in _SYNONYMS)),
    (_double_star, frozenset("*")),
    (_bare_set, frozenset("{")),
    (_slashed_coefficient, frozenset("/")),
    (_call, _FUNCTIONS),
    (_paren_power, frozenset("^")),
    (_factorial_word, frozenset(("factorial",))),
    (_pi, frozenset(("pi",))),
    (_infinity, frozenset(("infinity", "inf"))),
)


def _as_latex(tokens: list[Token]) -> list[Token]:
    tokens = unicode_as_latex(_interval_brackets(tokens))
    present = {token.text.lower() for token in tokens}
    for rule, starts in _RULES:
        if not starts.isdisjoint(present):
            tokens = _rewrite(tokens, rule)
            present = {token.text.lower() for token in tokens}
    return tokens


def plain_text_as_latex(tokens: list[Token]) -> list[Token]:
    """``tokens`` with their plain-text notations as LaTeX tokens, without the spaces at
    either end; LaTeX passes unchanged (but for ``\\sqrt[3]2`` and ``\\frac12``, which are
    given their braces)."""
    return rescan(strip(_as_latex(tokens)))


__all__ = ["plain_text_as_latex"]
