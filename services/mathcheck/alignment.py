"""The readers' front end: each answer of a pair read as LaTeX tokens, on its own.

The answer's text is scanned once (``latex_tokens.tokenize``), and the notations below are
read from its tokens; the reader reads the tokens left (``reading.read_tokens``), and they
are the tokens a scan of their text gives. Nothing here looks at the other side: notations
that mean something only next to it (an option with its value, a number in a base,
``\\pm``, an angle in degrees, named values, solutions of a system) are typed values
(``reading.py``) that the conversion table of ``comparison.py`` compares with it.

* **A text escaped twice** (``\\\\frac{1}{2}``, ``\\"5\\"``: every backslash doubled, a quote
  escaped, as a string in JSON or in code holds it) is read as written once
  (``_unescaped``).
* **Unicode** (``x² + 7x``, ``10⁻⁶``, ``3½``, ``θ = π/4``, ``ℝ``). Models trained on web
  text answer in Unicode as often as in LaTeX. The tokenizer reads each of these
  characters as a symbol of its own; each becomes the tokens of the command it stands for
  (``unicode_as_latex``), a run of superscript (or subscript) symbols one exponent
  (``2¹⁰`` is ``2^{10}``), and a vulgar fraction a ``\\frac`` (``3½`` then reads as the
  mixed number 7/2).
* **Plain text** (``sqrt(3)/2``, ``2pi``, ``x**2``, ``exp(2)``), as a calculator or Python
  writes it (``plain_text_as_latex``). The LaTeX parser reads ``sqrt(3)`` as the product
  s·q·r·t·3 and ``pi`` as p·i, so the same answer written in LaTeX and in plain text would
  never compare equal. Only spellings that cannot mean anything else are read as LaTeX: a
  name followed by an argument, ``pi`` standing alone, ``**`` for a power, and
  ``infinity``. Each rule reads tokens: at a position it says whether its notation starts
  there, where it ends and what its LaTeX tokens are (``_rewrite`` applies one rule from
  left to right). A rule that takes one character of a run of letters or digits
  (``\\frac12``, ``sin xY``) leaves the rest of the run as a token of its own.
* **Mathematics said in words** as notation (``at least 5``: ``phrase_notation``, below).
* A derivative's name (``\\frac{dy}{dx} =``) dropped, a count ``C(10, 3)`` or ``P(10, 3)``
  read as ``\\binom{10}{3}`` or ``\\frac{10!}{7!}``, and an angle in degrees under a
  trigonometric function in radians (``\\sin 30^\\circ``).

**Mathematics said in words**, read as the notation it stands for (``phrase_notation``).

Answers rewritten in prose say ``x is at least 5`` for ``x \\ge 5`` (the bound may be in
math delimiters and name what it counts: ``at least $7$ boxes``; ``exactly 7`` is
``x = 7``), ``between -1 and 1 inclusive`` for ``[-1, 1]``, ``all real numbers except 3``
for ``x \\ne 3``, and hedge a rounding (``approximately 1.4142``), name a chance (``1 in 4
chance``) or the kind of an object (``the line y = 2``). Each phrase is read only when the
whole answer is that phrase, so a sentence that merely contains "at least" is left alone,
and only in an answer of up to 300 characters.

A phrase is read from the answer's tokens, word by word, in this grammar (words in any
case but ``from ... to``; ``_`` is one or more spaces, a space inside a quoted phrase is one
space):

```text
phrase     := "the" _ kind _ rest                      the object alone
            | subject? comparison _ "$"? number "$"? (_ word)?   not "or", "and"
            | subject? "$"? number "$"? _ "or" _ beyond            "7 or less"
            | subject? "between" _ number _ "and" _ number ((",")? _ "inclusive")?
            | subject? "from" _ number _ "to" _ number
            | ("all" _)? "real" _ "numbers" _ ("except" | "other" _ "than" | "but") _ number
            | hedge _? rest
            | (("a" | "an") _)? rest _ ("chance" | "probability" | "likelihood")
subject    := letter _ ("is" | "must" _ "be") _
            | ("all" _)? ("real" _)? ("numbers" | "values") (_ "of" _ letter)? _ ("that" _ "are" _)?
number     := ("+" | "-")? digits ("." digits)? ("/" digits)?
comparison := "exactly" | "at least" | "no less than" | "greater than or equal to" | ...
hedge      := "approximately" | "approx" "."? | "about" | "roughly" | "around" | "\\approx"
beyond     := "less" | "fewer" | "lower" | "below" | "smaller" | "more" | "greater" | ...
```
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import groupby, pairwise

from services.mathcheck.latex_tokens import (
    SPACE,
    Kind,
    Token,
    closing_brace,
    degree_sign_end,
    is_letter,
    join,
    nesting,
    rescan,
    skip_spaces,
    strip,
    symbol,
    tokenize,
    unwrap,
    without_spaces,
)
from services.mathcheck.vocabulary import JOINT_WORDS, RELATION_SPELLINGS, TEXT_FONTS

_SYMBOLS = {
    "−": "-",  # minus sign
    "–": "-",  # en dash
    "×": "\\times ",
    "÷": "\\div ",
    "·": "\\cdot ",
    "⋅": "\\cdot ",
    "∞": "\\infty ",
    # Read as calls by the plain-text rules: "√2", "√(x+1)", "∛8".
    "√": "sqrt",
    "∛": "cbrt",
    **{char: f"{latex} " for char, latex in RELATION_SPELLINGS.items() if not char.isascii()},
    "⩾": "\\ge ",  # slanted
    "⩽": "\\le ",
    "≈": "\\approx ",
    "∓": "\\mp ",
    "∶": ":",  # ratio
    "⁄": "/",  # fraction slash
    "∣": "\\mid ",  # divides, and a set-builder's bar
    "∠": "\\angle ",
    "∈": "\\in ",
    "∪": "\\cup ",
    "∩": "\\cap ",
    "∅": "\\emptyset ",
    "ℝ": "\\mathbb{R}",
    "ℤ": "\\mathbb{Z}",
    "ℕ": "\\mathbb{N}",
    "ℚ": "\\mathbb{Q}",
    "ℂ": "\\mathbb{C}",
}
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "θ": "theta",
    "λ": "lambda", "μ": "mu", "π": "pi", "ρ": "rho", "σ": "sigma", "τ": "tau", "φ": "phi",
    "ω": "omega", "Δ": "Delta", "Ω": "Omega",
}  # fmt: skip
_VULGAR_FRACTIONS = {
    "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5),
    "⅗": (3, 5), "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8),
    "⅞": (7, 8),
}  # fmt: skip
# Each symbol's tokens, as the scanner reads the LaTeX it stands for.
_LATEX = {
    char: tuple(tokenize(latex))
    for char, latex in {
        **_SYMBOLS,
        **{letter: f"\\{name} " for letter, name in _GREEK.items()},
        **{
            char: f"\\frac{{{top}}}{{{bottom}}}"
            for char, (top, bottom) in _VULGAR_FRACTIONS.items()
        },
    }.items()
}
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺ⁿ", "0123456789-+n", strict=True))
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789", strict=True))
_UNICODE = frozenset((*_LATEX, *_SUPERSCRIPTS, *_SUBSCRIPTS))


def _script(token: Token) -> str | None:
    """ "^" for a superscript symbol, "_" for a subscript one, else None."""
    if token.kind is not Kind.SYMBOL:
        return None
    return "^" if token.text in _SUPERSCRIPTS else "_" if token.text in _SUBSCRIPTS else None


def unicode_as_latex(tokens: list[Token]) -> list[Token]:
    """``tokens`` with their Unicode mathematics as LaTeX tokens (others pass unchanged)."""
    if not any(token.kind is Kind.SYMBOL and token.text in _UNICODE for token in tokens):
        return tokens
    kept: list[Token] = []
    for script, run in groupby(tokens, key=_script):
        if script is None:
            for token in run:
                latex = _LATEX.get(token.text) if token.kind is Kind.SYMBOL else None
                kept.extend((token,) if latex is None else latex)
        else:
            characters = _SUPERSCRIPTS if script == "^" else _SUBSCRIPTS
            written = "".join(characters[token.text] for token in run)
            kept.extend(tokenize(f"{script}{{{written}}}"))
    return kept


def latex_from_unicode(text: str) -> str:
    """``text`` with its Unicode mathematics written as LaTeX (ASCII passes unchanged)."""
    return text if text.isascii() else join(unicode_as_latex(tokenize(text)))


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
# Where braces can only be a set: after membership or an operation on sets.
_SETS_ONLY_AFTER = frozenset(("\\in", "\\cup", "\\cap", "\\setminus"))
# What a set in bare braces holds at its top level: a condition's bar after its element,
# or (where braces can only be a set) elements apart.
_CONDITION = frozenset(("|", ":", "\\mid"))
_APART = frozenset((",", ";"))


def _bare_set(tokens: list[Token], start: int) -> Found | None:
    """ "{x | x > 0}" -> "\\{x | x > 0\\}", "x \\in {1, 2}" -> "x \\in \\{1, 2\\}": plain text
    writes a set in bare braces, which LaTeX reads as a group. A condition after an element
    makes one at the start of the answer or after a relation or an operation on sets;
    elements apart make one only after membership or an operation on sets: at the start
    of an answer, ``{1, 3}`` is the list LaTeX shows (``1, 3``), as math-verify's own test
    pairs read it."""
    if not tokens[start].is_symbol("{") or not _follows(tokens, start, _BEFORE_A_SET):
        return None
    closing = closing_brace(tokens, start)
    if closing is None:
        return None
    sets_only = (
        start > 0 and _follows(tokens, start, _SETS_ONLY_AFTER) and bool(strip(tokens[:start]))
    )
    separators = _CONDITION | (_APART if sets_only else set())
    inside = tokens[start + 1 : closing]
    top: list[tuple[int, Token]] = []
    depth = 0
    for index, token in enumerate(inside):
        if depth == 0:
            top.append((index, token))
        depth += nesting(token)
    # Bars in pairs are absolute values ("{|x|}"); a condition's bar is one more.
    bars = sum(token.is_symbol("|") for _, token in top)
    for index, token in top:
        if token.text not in separators or (token.is_symbol("|") and bars % 2 == 0):
            continue
        if token.text in _APART or index > 0:
            return closing + 1, [_ESCAPED["{"], *inside, _ESCAPED["}"]]
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


_ROW_BREAK = Token(Kind.COMMAND, "\\\\")
# What follows a backslash in a command: letters, or one other character.
_NAMES_A_COMMAND = frozenset((Kind.WORD, Kind.SYMBOL))
# Commands whose name after a doubled backslash shows a text escaped twice.
_ESCAPED_NAMES = frozenset(
    ("frac", "dfrac", "tfrac", "sqrt", "left", "right", "pi", "cdot", "times", "div", "pm",
     "mp", "le", "ge", "leq", "geq", "ne", "neq", "infty", "in", "cup", "cap", "text",
     "textbf", "mathrm", "mathbf", "boxed", "begin", "end", "sin", "cos", "tan", "log", "ln",
     "exp", "circ", "approx", "theta", "alpha", "beta", "gamma", "lambda", "sigma", "omega")
)  # fmt: skip


def _unescaped(tokens: list[Token]) -> list[Token]:
    """ "\\\\frac{1}{2}", "\\"5\\"": an answer escaped twice, as a string in JSON or in
    code is (every backslash doubled, a quote escaped), read as written once; a text with
    one command written once is LaTeX as it stands (``\\\\`` there is a row break)."""
    if any(token.named for token in tokens):
        return tokens
    pairs = list(pairwise(tokens))
    if not any(
        (token == _ROW_BREAK and after.kind is Kind.WORD and after.text in _ESCAPED_NAMES)
        for token, after in pairs
    ) and not any(token.is_command('\\"') for token in tokens):
        return tokens
    written: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.is_command('\\"'):
            written.append(symbol('"'))
        elif token == _ROW_BREAK and after == _ROW_BREAK:
            written.append(_ROW_BREAK)  # a row break, escaped
            index += 1
        elif token == _ROW_BREAK and after is not None and after.kind in _NAMES_A_COMMAND:
            written.append(Token(Kind.COMMAND, "\\" + after.text))
            index += 1
        else:
            written.append(token)
        index += 1
    return rescan(written)


def _glued_joint(tokens: list[Token]) -> list[Token]:
    """ "x=5orx=7" -> "x=5 or x=7": "or" or "and" written against a value before it and
    the one letter after it (an unknown's name) is a joint, not a product of letters."""
    if not any(t.kind is Kind.WORD and t.text.lower().startswith(JOINT_WORDS) for t in tokens):
        return tokens
    written: list[Token] = []
    before: Token | None = None  # the last token that is no space
    for token in tokens:
        word = token.text.lower()
        joint = next((j for j in JOINT_WORDS if word.startswith(j)), None)
        if (
            token.kind is Kind.WORD
            and joint is not None
            and len(word) == len(joint) + 1
            and before is not None
            and (before.kind is Kind.DIGITS or before.is_symbol(")", "}"))
        ):
            joined, name = token.text[: len(joint)], token.text[len(joint) :]
            written.extend((SPACE, Token(Kind.WORD, joined), SPACE, Token(Kind.WORD, name)))
        else:
            written.append(token)
        if token.kind is not Kind.SPACE:
            before = token
    return written


def latex_tokens(text: str) -> list[Token]:
    """One answer's tokens as LaTeX, ready to read: the text is scanned once, and each
    notation above is read from the tokens."""
    tokens = _phrase(_count(plain_text_as_latex(_glued_joint(_unescaped(tokenize(text))))))
    return rescan(_trig_in_radians(_without_derivative_name(tokens)))


def as_latex(text: str) -> str:
    """One answer as LaTeX text."""
    return join(latex_tokens(text))


def align(reference: str, answer: str) -> tuple[str, str]:
    """Both answers of a pair as LaTeX, each on its own."""
    return as_latex(reference), as_latex(answer)


# "x is at least 5", "greater than 2", "all real numbers less than 3".
_COMPARISONS = {
    "exactly": "=",
    "at least": "\\ge",
    "no less than": "\\ge",
    "greater than or equal to": "\\ge",
    "at most": "\\le",
    "no more than": "\\le",
    "less than or equal to": "\\le",
    "greater than": ">",
    "more than": ">",
    "less than": "<",
    "fewer than": "<",
}
# The longest first: "greater than or equal to" before "greater than".
_SPELLINGS = tuple(
    tuple(phrase.split(" ")) for phrase in sorted(_COMPARISONS, key=len, reverse=True)
)
# A comparison with no unknown named ("at least 7"), as the interval of values it says.
_INTERVALS = {
    "\\ge": "[{bound}, \\infty)",
    ">": "({bound}, \\infty)",
    "\\le": "(-\\infty, {bound}]",
    "<": "(-\\infty, {bound})",
}
# "the line y = 2", "the point (1, 2)": the object's kind before the object.
_KINDS = frozenset(
    ("line", "curve", "plane", "point", "circle", "parabola", "graph", "function", "equation")
)
# "approximately 1.4142", "about 3.14", "\\approx 1.414": the rounding is the answer.
_HEDGES = frozenset(("approximately", "approx", "about", "roughly", "around"))
# "25% chance", "a 1/4 probability", "1 in 4 chance": the chance is the number.
_CHANCES = frozenset(("chance", "probability", "likelihood"))

# A phrase is looked for in texts up to this long: no phrase is longer, and a whole
# completion (lenient extraction asks) is not scanned for one.
_PHRASE_LENGTH = 300


def _word(tokens: list[Token], index: int, words: tuple[str, ...], fold: bool = True) -> int:
    """The index after the words ``words`` at ``index``, one space apart, or -1."""
    if index < 0:
        return -1
    for position, word in enumerate(words):
        if position:
            if index >= len(tokens) or tokens[index] != _ONE_SPACE:
                return -1
            index += 1
        token = tokens[index] if index < len(tokens) else None
        if token is None or token.kind is not Kind.WORD:
            return -1
        if (token.text.lower() if fold else token.text) != word:
            return -1
        index += 1
    return index


_ONE_SPACE = Token(Kind.SPACE, " ")


def _space(tokens: list[Token], index: int) -> int:
    """The index after the spaces at ``index``, or -1 if there are none."""
    return index + 1 if 0 <= index < len(tokens) and tokens[index].kind is Kind.SPACE else -1


def _then(tokens: list[Token], index: int, *words: str, fold: bool = True) -> int:
    """The index after ``words``, each followed by spaces, or -1."""
    for word in words:
        index = _space(tokens, _word(tokens, index, (word,), fold)) if index >= 0 else -1
    return index


def _symbol(tokens: list[Token], index: int, *texts: str) -> int:
    """The index after a symbol of ``texts`` at ``index``, else ``index``."""
    found = 0 <= index < len(tokens) and tokens[index].is_symbol(*texts)
    return index + 1 if found else index


def _number(tokens: list[Token], index: int) -> tuple[str, int] | None:
    """A number written plainly at ``index``: a sign, digits, a decimal part, a divisor."""
    if index < 0:
        return None
    start, index = index, _symbol(tokens, index, "+", "-")
    if index >= len(tokens) or tokens[index].kind is not Kind.DIGITS:
        return None
    index += 1
    for separator in (".", "/"):
        after = _symbol(tokens, index, separator)
        if after > index and after < len(tokens) and tokens[after].kind is Kind.DIGITS:
            index = after + 1
    return join(tokens[start:index]), index


def _subjects(tokens: list[Token], fold: bool) -> Iterator[tuple[int, str | None]]:
    """Where a subject the phrase may start with ends, and its unknown, in the order the
    grammar tries them; no subject last."""
    if tokens and tokens[0].kind is Kind.WORD and len(tokens[0].text) == 1:
        for verb in (("is",), ("must", "be")):
            end = _then(tokens, _space(tokens, 1), *verb, fold=fold)
            if end > 0:
                yield end, tokens[0].text
    index = max(_then(tokens, 0, "all", fold=fold), 0)
    index = max(_then(tokens, index, "real", fold=fold), index)
    named = max(_word(tokens, index, ("numbers",), fold), _word(tokens, index, ("values",), fold))
    if named > 0:
        ends = []
        of = _then(tokens, _space(tokens, named), "of", fold=fold)
        if 0 < of < len(tokens) and tokens[of].kind is Kind.WORD and len(tokens[of].text) == 1:
            ends.append(of + 1)
        ends.append(named)
        for end in ends:
            after = _space(tokens, end)
            if after > 0:
                that_are = _then(tokens, after, "that", "are", fold=fold)
                if that_are > 0:
                    yield that_are, None
                yield after, None
    yield 0, None


def _comparison(tokens: list[Token]) -> list[Token] | None:
    for start, variable in _subjects(tokens, fold=True):
        for spelling in _SPELLINGS:
            index = _space(tokens, _word(tokens, start, spelling))
            if index < 0:
                continue
            number = _number(tokens, _symbol(tokens, index, "$"))
            if number is None:
                continue
            bound, end = number[0], _symbol(tokens, number[1], "$")
            counted = _space(tokens, end)
            if counted > 0 and counted == len(tokens) - 1:
                word = tokens[counted]
                if word.kind is Kind.WORD and word.text.lower() not in ("or", "and"):
                    end = len(tokens)
            if end != len(tokens):
                continue
            relation = _COMPARISONS[" ".join(spelling)]
            if variable is None and relation != "=":
                # No unknown named: the values it says, whatever the other side calls them.
                return tokenize(_INTERVALS[relation].format(bound=bound))
            return tokenize(f"{variable or 'x'} {relation} {bound}")
    return None


# "7 or less", "5 or more": the bound, then the side of it the values lie on.
_BEYOND = {
    **dict.fromkeys(("less", "fewer", "lower", "below", "smaller"), "\\le"),
    **dict.fromkeys(("more", "greater", "higher", "above", "larger"), "\\ge"),
}


def _or_beyond(tokens: list[Token]) -> list[Token] | None:
    """ "7 or less", "x is 5 or more": the values at the bound or past it, as "at most 7"
    and "at least 5" say them (not the bound alone)."""
    for start, variable in _subjects(tokens, fold=True):
        number = _number(tokens, _symbol(tokens, start, "$"))
        if number is None:
            continue
        bound, end = number[0], _symbol(tokens, number[1], "$")
        side = _then(tokens, _space(tokens, end), "or")
        word = tokens[side] if 0 < side == len(tokens) - 1 else None
        relation = _BEYOND.get(word.text.lower()) if word and word.kind is Kind.WORD else None
        if relation is None:
            continue
        if variable is None:
            return tokenize(_INTERVALS[relation].format(bound=bound))
        return tokenize(f"{variable} {relation} {bound}")
    return None


def _range(tokens: list[Token]) -> list[Token] | None:
    """ "between -1 and 1 (inclusive)", "from -1 to 1"."""
    for first, last, fold in (("between", "and", True), ("from", "to", False)):
        for start, variable in _subjects(tokens, fold):
            at = _then(tokens, start, first, fold=fold)
            low = _number(tokens, at) if at > 0 else None
            at = _then(tokens, _space(tokens, low[1]), last, fold=fold) if low else -1
            high = _number(tokens, at) if at > 0 else None
            if low is None or high is None:
                continue
            end, inclusive = high[1], first == "from"
            if first == "between" and end < len(tokens):
                said = _word(tokens, _space(tokens, _symbol(tokens, end, ",")), ("inclusive",))
                end, inclusive = (said, True) if said == len(tokens) else (end, False)
            if end != len(tokens):
                continue
            if variable is None:
                opening, closing = ("[", "]") if inclusive else ("(", ")")
                return tokenize(f"{opening}{low[0]}, {high[0]}{closing}")
            relation = "\\le" if inclusive else "<"
            return tokenize(f"{low[0]} {relation} {variable} {relation} {high[0]}")
    return None


def _all_but(tokens: list[Token]) -> list[Token] | None:
    """ "all real numbers except 3"."""
    start = max(_then(tokens, 0, "all"), 0)
    index = _then(tokens, start, "real", "numbers")
    for words in (("except",), ("other", "than"), ("but",)):
        after = _then(tokens, index, *words) if index > 0 else -1
        value = _number(tokens, after) if after > 0 else None
        if value is not None and value[1] == len(tokens):
            return tokenize(f"x \\ne {value[0]}")
    return None


def _object(tokens: list[Token]) -> list[Token] | None:
    """ "the line y = 2": the object."""
    kind = _space(tokens, _word(tokens, 0, ("the",)))
    named = tokens[kind] if 0 < kind < len(tokens) else None
    if named is None or named.kind is not Kind.WORD or named.text.lower() not in _KINDS:
        return None
    rest = _space(tokens, kind + 1)
    return tokens[rest:] if 0 < rest < len(tokens) else None


def _hedged(tokens: list[Token]) -> list[Token] | None:
    """ "approximately 1.4142": what follows the hedge."""
    first = tokens[0] if tokens else None
    if first is None:
        return None
    if first.is_command("\\approx"):
        index = 1
    elif first.kind is Kind.WORD and first.text.lower() in _HEDGES:
        index = _symbol(tokens, 1, ".") if first.text.lower() == "approx" else 1
    else:
        return None
    return tokens[max(index, _space(tokens, index)) :]


def _chance(tokens: list[Token]) -> list[Token] | None:
    """ "a 1/4 probability": the chance."""
    last = tokens[-1] if tokens else None
    if last is None or last.kind is not Kind.WORD or last.text.lower() not in _CHANCES:
        return None
    if len(tokens) < 3 or tokens[-2].kind is not Kind.SPACE:
        return None
    said = tokens[:-2]
    article = max(_space(said, _word(said, 0, ("a",))), _space(said, _word(said, 0, ("an",))))
    if 0 < article < len(said):
        said = said[article:]
    if any("\n" in token.text for token in said):
        return None
    return said


def phrase_notation(tokens: list[Token]) -> list[Token] | None:
    """The tokens of the notation an answer's tokens say when they are one of the phrases
    above, else None. The phrase may be written in a text font: ``\\text{at least } 7``."""
    words = strip(tokens)
    if sum(len(token.text) for token in words) > _PHRASE_LENGTH:
        return None
    if any(token.text in TEXT_FONTS for token in words):
        words = strip(rescan(unwrap(words, TEXT_FONTS)))
    if not words:
        return None
    # Every phrase starts with a word or "\\approx", but a chance, which ends with a word.
    if words[0].kind is not Kind.WORD and not words[0].is_command("\\approx"):
        return _or_beyond(words) or _chance(words)
    for reader in (_object, _comparison, _or_beyond, _range, _all_but, _hedged, _chance):
        found = reader(words)
        if found is not None:
            return found
    return None


def math_from_phrase(text: str) -> str:
    """``text`` as notation when the whole of it is one of the phrases above, else as is."""
    if len(text.strip()) > _PHRASE_LENGTH:
        return text
    found = phrase_notation(tokenize(text))
    return text if found is None else join(found)


__all__ = [
    "align",
    "as_latex",
    "latex_from_unicode",
    "latex_tokens",
    "math_from_phrase",
    "phrase_notation",
    "plain_text_as_latex",
    "unicode_as_latex",
]
