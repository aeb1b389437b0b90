"""The readers' front end: each answer of a pair read as LaTeX tokens, on its own.

The answer's text is scanned once (``latex_tokens.tokenize``), and from its tokens
plain-text and Unicode mathematics (``sqrt(3)/2``, ``2pi``, ``x²``) is read as LaTeX,
mathematics said in words as notation (``at least 5``), a derivative's name
(``\\frac{dy}{dx} =``) dropped, a count ``C(10, 3)`` or ``P(10, 3)`` read as
``\\binom{10}{3}`` or ``\\frac{10!}{7!}``, and an angle in degrees under a trigonometric
function in radians (``\\sin 30^\\circ``). The reader reads the tokens left
(``reading.read_tokens``); they are the tokens a scan of their text gives. Nothing here
looks at the other side: notations that mean something only next to it (an option with
its value, a number in a base, ``\\pm``, an angle in degrees, named values, solutions of a
system) are typed values (``reading.py``) that the conversion table of ``comparison.py``
compares with it.
"""

from __future__ import annotations

from services.mathcheck.latex_tokens import (
    Kind,
    Token,
    closing_brace,
    degree_sign_end,
    is_letter,
    join,
    rescan,
    skip_spaces,
    tokenize,
    without_spaces,
)
from services.mathcheck.phrases import phrase_notation
from services.mathcheck.plain_text_math import plain_text_as_latex

_TRIG = frozenset(("\\sin", "\\cos", "\\tan", "\\cot", "\\sec", "\\csc"))


def _trig_in_radians(tokens: list[Token]) -> list[Token]:
    """ "\\sin 30^\\circ" -> "\\sin (30\\pi/180)": a degree sign under a trig function counts."""
    if not any(token.text in _TRIG for token in tokens):
        return tokens
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        end = index + 1
        if token.kind is Kind.DIGITS:
            decimal = end + 1 < len(tokens) and tokens[end].is_symbol(".")
            if decimal and tokens[end + 1].kind is Kind.DIGITS:
                end += 2
            sign_end = degree_sign_end(tokens, skip_spaces(tokens, end))
            if sign_end is not None:
                kept.extend(tokenize(f"({join(tokens[index:end])}\\pi/180)"))
                index = sign_end
                continue
        kept.extend(tokens[index:end])
        index = end
    return kept


def _letters_of(tokens: list[Token]) -> str | None:
    """The letters of a group of words and spaces ("d y" is "dy"); None if it holds more."""
    if any(token.kind not in (Kind.WORD, Kind.SPACE) for token in tokens):
        return None
    return join(without_spaces(tokens))


def _derivative_name_end(tokens: list[Token], index: int) -> int | None:
    """The end of "\\frac{dy}{dx}", "y'" or "y'(x)" at ``index``; None if none is there."""
    if index < len(tokens) and tokens[index].is_command("\\frac"):
        top = skip_spaces(tokens, index + 1)
        top_end = closing_brace(tokens, top) if top < len(tokens) else None
        if top_end is None or not tokens[top].is_symbol("{"):
            return None
        bottom = skip_spaces(tokens, top_end + 1)
        bottom_end = closing_brace(tokens, bottom) if bottom < len(tokens) else None
        if bottom_end is None or not tokens[bottom].is_symbol("{"):
            return None
        top_letters = _letters_of(tokens[top + 1 : top_end])
        bottom_letters = _letters_of(tokens[bottom + 1 : bottom_end])
        if top_letters is None or bottom_letters is None:
            return None
        if top_letters[:1] != "d" or len(top_letters) > 2 or bottom_letters[:1] != "d":
            return None
        return bottom_end + 1 if len(bottom_letters) == 2 else None
    if index >= len(tokens) or not is_letter(tokens[index]):
        return None
    end = index + 1
    while end < len(tokens) and tokens[end].is_symbol("'"):
        end += 1
    if end == index + 1:
        return None
    opening = skip_spaces(tokens, end)
    letter = skip_spaces(tokens, opening + 1)
    closing = skip_spaces(tokens, letter + 1)
    if (
        closing < len(tokens)
        and tokens[opening].is_symbol("(")
        and is_letter(tokens[letter])
        and tokens[closing].is_symbol(")")
    ):
        return closing + 1
    return end


def _without_derivative_name(tokens: list[Token]) -> list[Token]:
    """ "\\frac{dy}{dx} = 2x", "y' = 2x": the name of a derivative carries no value."""
    index = skip_spaces(tokens, 0)
    if index < len(tokens) and tokens[index].is_symbol("$"):
        index = skip_spaces(tokens, index + 1)
    end = _derivative_name_end(tokens, index)
    equals = skip_spaces(tokens, end) if end is not None else len(tokens)
    if equals >= len(tokens) or not tokens[equals].is_symbol("="):
        return tokens
    if equals + 1 < len(tokens) and tokens[equals + 1].is_symbol("="):
        return tokens
    return tokens[equals + 1 :]


# "C(10, 3)", "P(10, 3)": a count of combinations or permutations of whole numbers, the
# first no less than the second. It is no point named C or P (that reading drops the name:
# "A(1, 2)" is the point (1, 2)), so "C(10, 3)" is 120, never the pair (10, 3).
def _count(tokens: list[Token]) -> list[Token]:
    """ "C(10, 3)" -> "\\binom{10}{3}", "P(10, 3)" -> "\\frac{10!}{7!}"; else ``tokens``."""
    words = without_spaces(tokens)
    words = words[1:] if words[:1] and words[0].is_symbol("$") else words
    words = words[:-1] if words[-1:] and words[-1].is_symbol("$") else words
    if (
        len(words) != 6
        or words[0].text not in ("C", "P")
        or [word.text for word in words[1::2]] != ["(", ",", ")"]
        or any(word.kind is not Kind.DIGITS or len(word.text) > 3 for word in words[2:6:2])
    ):
        return tokens
    kind, n, k = words[0].text, int(words[2].text), int(words[4].text)
    if n < k:
        return tokens
    return tokenize(f"\\binom{{{n}}}{{{k}}}" if kind == "C" else f"\\frac{{{n}!}}{{{n - k}!}}")


def _phrase(tokens: list[Token]) -> list[Token]:
    """ "at least 5" -> "[5, \\infty)": an answer that is one phrase, as its notation."""
    notation = phrase_notation(tokens)
    return tokens if notation is None else notation


def latex_tokens(text: str) -> list[Token]:
    """One answer's tokens as LaTeX, ready to read: the text is scanned once, and each
    notation above is read from the tokens."""
    tokens = _phrase(_count(plain_text_as_latex(tokenize(text))))
    return rescan(_trig_in_radians(_without_derivative_name(tokens)))


def as_latex(text: str) -> str:
    """One answer as LaTeX text."""
    return join(latex_tokens(text))


def align(reference: str, answer: str) -> tuple[str, str]:
    """Both answers of a pair as LaTeX, each on its own."""
    return as_latex(reference), as_latex(answer)


__all__ = ["align", "as_latex", "latex_tokens"]
