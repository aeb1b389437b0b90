"""Canonical forms of answer strings, and exact parsing of plain numbers.

Normalisation removes what never changes an answer's meaning (math delimiters, spacing
macros, ``\\left``/``\\right``, ``\\text{}`` wrappers, units, degree signs, currency, a
leading ``x =``); number parsing turns every plain numeric notation into an exact
``Fraction`` so the common case never needs sympy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from services.mathcheck.latex_tokens import (
    SPACE,
    Kind,
    Token,
    closing_brace,
    has_braces,
    join,
    symbol,
    tokenize,
)
from services.mathcheck.number_words import DIGIT_ORDINAL, number_in_words
from services.mathcheck.vocabulary import (
    CHOICE_LETTER,
    CONSTANT_LETTERS,
    DECORATION_UNITS,
    POWER_WORD,
    RELATION_SPELLINGS,
    REVERSED_RELATION,
    SCALE_WORDS,
    TEXT_FONT,
    UNITS,
    VARIABLE_FONT,
)

# Exponents beyond this are left to the guarded symbolic path: building 10**10**6 exactly
# would itself be the denial of service.
MAX_DECIMAL_EXPONENT = 400

_DELIMS = ("\\(", "\\)", "\\[", "\\]", "$")
# A unit after a number: one of a known kind (a length maybe squared or cubed: "cm^2"), or
# a word that only decorates the number ("5 apples").
_UNIT_WORDS = "|".join(
    re.escape(name) + (r"\^?\{?[23]?\}?" if UNITS.get(name, ("",))[0] == "length" else "")
    for name in sorted((*UNITS, *DECORATION_UNITS), key=len, reverse=True)
)
# "12 square centimeters", "60 km per hour": a unit, maybe of area or volume, maybe a rate;
# "3.75 per pound": a price per unit (but "5 per cent" is 5%).
_TRAILING_UNIT = re.compile(
    rf"^(.*?(?:[\d}}]|\\[a-zA-Z]+))\s+(?:(?:(?:{POWER_WORD})\s*)?(?:{_UNIT_WORDS})"
    rf"(?:\s*(?:per|/)\s*[a-z]+)?|per\s+(?!cents?\b)(?:{_UNIT_WORDS}))$",
    re.IGNORECASE,
)
# "10cm", "10weeks": a unit of two or more letters written against its number ("10m" may be
# ten times m).
_GLUED_UNIT = re.compile(rf"^(.*?\d)(?=[a-zA-Z]{{2}})(?:{_UNIT_WORDS})$", re.IGNORECASE)
# "3 solutions", "12 triangles": a plain number counting things named by one word. Words
# that scale the number or are math are not a count's noun.
_COUNTED_NOUN = re.compile(
    rf"^([+-]?\d+(?:\.\d+)?)\s+(?!(?:{'|'.join(SCALE_WORDS)}|score|"
    r"sin|cos|tan|cot|sec|csc|log|ln|exp|sqrt|mod|pi|choose|factorial)s?\b)[a-z]{3,}$"
)
# "3 thousand", "1.2 million": a number and the power of ten it is counted in.
_SCALED = re.compile(rf"^([+-]?\d+(?:\.\d+)?)\s+({'|'.join(SCALE_WORDS)})$")
# "P(2, -3)": a point's name before its coordinates.
_NAMED_POINT = re.compile(r"^[A-Z]\s*(?=\([^()]*,[^()]*\)$)")
# "1 in 36", "3 out of 4": a chance or a share written as a count.
_OUT_OF = re.compile(r"^(\d+)\s+(?:in|out\s+of)\s+(\d+)$")
_SPACED_MIXED = re.compile(r"^([+-]?\d+)\s+(?:and\s+)?(\d+)\s*/\s*(\d+)$")
# "(C)", "Option C", "Answer: C", "(C) is correct": a multiple-choice letter.
_CHOICE = re.compile(
    rf"^(?:(?:option|choice|answer)\s*:?\s*)?\(?({CHOICE_LETTER})\)?"
    r"(?:\s+is\s+(?:correct|right|the\s+answer))?$",
    re.IGNORECASE,
)
# "minus 3", "negative 2.5": a sign in words.
_SIGN_WORD = re.compile(r"^(?:minus|negative)\s+(?=\d)", re.IGNORECASE)
_WORDS = re.compile(r"^[A-Za-z][A-Za-z \-']*$")
# "25 percent" is 25%, not 25 of some unit; "x equals 3" is "x = 3".
_PERCENT_WORD = re.compile(r"(?<=\d)\s*(?:percent|per\s*cent|pct)\b\.?$", re.IGNORECASE)
# The two sets answers most often name in words, and their other spellings.
_NAMED_SETS = {
    **dict.fromkeys(
        (
            "all real numbers",
            "all reals",
            "the real numbers",
            "real numbers",
            "every real number",
            "any real number",
            "x\\in\\mathbb{R}",
            "all real x",
            "all real values",
            "all real values of x",
        ),
        "\\mathbb{R}",
    ),
    **dict.fromkeys(
        ("infinity", "positive infinity", "+\\infty", "infinite", "infinitely many"), "\\infty"
    ),
    **dict.fromkeys(("negative infinity", "minus infinity"), "-\\infty"),
    **dict.fromkeys(("does not exist", "dne", "the limit does not exist"), "DNE"),
    **dict.fromkeys(("the origin", "origin"), "(0,0)"),
    "true": "yes",
    "false": "no",
    **dict.fromkeys(
        (
            "no solution",
            "no solutions",
            "no real solution",
            "no real solutions",
            "the empty set",
            "empty set",
            "none",
            "no real roots",
            "no roots",
            "no solution exists",
            "no solutions exist",
            "there is no solution",
            "there are no solutions",
        ),
        "\\emptyset",
    ),
}
# "32, 349" is a list of two numbers, "32,349" one number: the space after a comma between
# digits is kept so that the two never normalise to the same string.
_LIST_COMMA = re.compile(r"(?<=\d),\s+(?=[-+]?\d)")


_UNIT_WRAPPER = re.compile(rf"\\(?:{TEXT_FONT})\s*\{{\s*([^{{}}]*?)\s*\}}")
_UNIT_SPACING = re.compile(r"\\[,;: ]|~")


def unwrapped_quantity(text: str) -> str:
    """ "1.5 \\,\\text{ hours}" -> "1.5 hours": a quantity with its unit as plain words."""
    bare = strip_outer_delimiters(text)
    return _UNIT_SPACING.sub(" ", _UNIT_WRAPPER.sub(r" \1", bare)).strip()


# A closing note in text after the value ("2 \\text{ (only solution)}", "8 \\text{ cm}^2"),
# maybe in another font, maybe raised to a power.
_CLOSING_NOTE = re.compile(
    rf"^(?P<value>.*?\S)\s*\\(?P<font>{TEXT_FONT}|{VARIABLE_FONT})\s*"
    r"\{(?P<note>[^{}]*)\}\s*(?:\^\s*\{?\s*\d\s*\}?)?\s*$"
)
_VARIABLE_FONTS = VARIABLE_FONT.split("|")
# The end of a number or a constant: a unit may follow it ("5\\text{ m}", "8\\pi\\text{ m}").
_NUMBER_END = re.compile(r"(?:\d|\}|\\pi)$")
# Spacing before a note: "8\\pi \\,\\text{m}" is 8 pi metres.
_TRAILING_SPACE = re.compile(r"(?:\s|\\[,;: ]|~)+$")


def _is_note(value: str, font: str, note: str) -> bool:
    """Whether ``\\font{note}`` after ``value`` is a note or a unit, not part of the value.

    Words in text are a note ("(only solution)", "cm", "apples"); but letters alone in a
    font variables are written in are variables ("4\\mathbf{k}", "x\\mathbf{y}"), and one
    letter in a text font is a unit only when it is one of the vocabulary and follows a
    number ("5\\text{ m}"; but "a\\mathrm{b}" is ab and "x\\text{ m}" stays whole).
    """
    words = note.strip()
    if not words.isalpha():
        return True
    if font in _VARIABLE_FONTS:
        return len(words) > 1 and (words.lower() in UNITS or words.lower() in DECORATION_UNITS)
    if len(words) == 1:
        return words.lower() in UNITS and _NUMBER_END.search(value) is not None
    return True


def without_note(text: str) -> str:
    """ "2 \\text{ (only solution)}" -> "2", "8 \\text{ cm}^3" -> "8": the value before a
    closing note or unit in text, for the symbolic engine; ``text`` when it ends in none."""
    note = _CLOSING_NOTE.match(text)
    value = _TRAILING_SPACE.sub("", note["value"]) if note is not None else ""
    if note is not None and _is_note(value, note["font"], note["note"]):
        return without_unit(value)
    return without_unit(text)


def without_unit(text: str) -> str:
    """ "1.047 \\text{ rad}" -> "1.047", "8\\pi \\text{ cm}^3" -> "8\\pi": the value of a
    quantity, for the symbolic engine; ``text`` itself when it ends in no unit."""
    spaced = unwrapped_quantity(text)
    unit = _TRAILING_UNIT.match(spaced) or _GLUED_UNIT.match(spaced)
    return unit.group(1).strip() if unit is not None else text


def strip_outer_delimiters(text: str) -> str:
    changed = True
    while changed:
        changed = False
        for delim in _DELIMS:
            if text.startswith(delim):
                text = text[len(delim) :].strip()
                changed = True
            if text.endswith(delim) and not text.endswith("\\" + delim):
                text = text[: -len(delim)].strip()
                changed = True
    return text


# The passes of normalisation over tokens (``latex_tokens.py``), in the order
# ``normalize_answer`` runs them.

_FRACTIONS = {"\\dfrac": "\\frac", "\\tfrac": "\\frac"}
_INVISIBLE = frozenset(("\\left", "\\right", "\\displaystyle", "\\textstyle", "\\scriptstyle"))
_ANGLE_BRACKETS = {"\\langle": "(", "\\rangle": ")"}
# Spacing macros; "~" is a space too.
_SPACING = frozenset(("\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad"))
# Fonts and decorations around letters or digits: "\\text{cm}", "\\mathbf{v}".
_WRAPPERS = frozenset(
    "\\" + name
    for name in (
        *TEXT_FONT.split("|"),
        *VARIABLE_FONT.split("|"),
        "mathsf", "mathcal", "boldsymbol", "bm", "operatorname", "underline", "framebox",
        "textstyle",
    )
)  # fmt: skip
_DEGREE_SIGNS = frozenset(("°", "\\degree", "\\circ"))
_DROPPED_SYMBOLS = frozenset(("\\$", "$", "€", "£", "¥", "\\euro", "\\pounds"))
# Words that start a closing remark in parentheses: "4 (when x = 2)".
_REMARK_WORDS = frozenset(("when", "at", "if", "for", "where", "attained", "achieved", "reached"))
_REASON_WORDS = ("since", "because")


def _without_trailing_backslash(tokens: list[Token]) -> list[Token]:
    """ "185\\": a stray backslash at the very end means nothing."""
    return tokens[:-1] if tokens and tokens[-1].text == "\\" else tokens


def _rstrip(tokens: list[Token]) -> list[Token]:
    end = len(tokens)
    while end and tokens[end - 1].kind is Kind.SPACE:
        end -= 1
    return tokens[:end]


def _skip_spaces(tokens: list[Token], index: int) -> int:
    while index < len(tokens) and tokens[index].kind is Kind.SPACE:
        index += 1
    return index


def _opens_text(tokens: list[Token]) -> bool:
    """Whether ``tokens`` end in ``\\text{``."""
    return len(tokens) >= 2 and tokens[-1].is_symbol("{") and tokens[-2].is_command("\\text")


def _without_qualifier(tokens: list[Token]) -> list[Token]:
    """ "4 (when x = 2)", "4 \\text{(attained at x = 2)}": the remark in parentheses at the
    end that says where the answer holds is not part of it."""
    body = _rstrip(tokens)
    if not body or not body[-1].is_symbol(")"):
        return tokens
    opening = len(body) - 2
    while opening >= 0 and not any(mark in body[opening].text for mark in "()"):
        opening -= 1
    if opening < 0 or not body[opening].is_symbol("("):
        return tokens
    inside = _skip_spaces(body, opening + 1)
    if (
        inside + 1 < len(body)
        and body[inside].is_command("\\text")
        and body[inside + 1].is_symbol("{")
    ):
        inside = _skip_spaces(body, inside + 2)
    if body[inside].kind is not Kind.WORD or body[inside].text not in _REMARK_WORDS:
        return tokens
    before = _rstrip(body[:opening])
    start = len(_rstrip(before[:-2]) if _opens_text(before) else before)
    return tokens[:start] if start > 0 else tokens


def _without_reason(tokens: list[Token]) -> list[Token]:
    """ "5, since 5^2 = 25": the reason after the answer is not part of it."""
    for index, token in enumerate(tokens):
        if token.kind is not Kind.WORD or token.text not in _REASON_WORDS:
            continue
        kept = _rstrip(tokens[:index])
        if _opens_text(kept):
            kept = _rstrip(kept[:-2])
        # A comma before the reason goes, unless it is all there is ("," stays ",").
        if kept[-1:] and kept[-1].is_symbol(",") and _rstrip(kept[:-1]):
            kept = _rstrip(kept[:-1])
        if kept:
            return kept
    return tokens


def _presentation_dropped(tokens: list[Token]) -> list[Token]:
    """``\\dfrac`` is ``\\frac``; ``\\left``, ``\\displaystyle`` and ``\\color{red}`` only
    present; angle brackets are parentheses."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.kind is not Kind.COMMAND:
            kept.append(token)
        elif token.text in _INVISIBLE:
            continue
        elif token.text == "\\color":
            after = _skip_spaces(tokens, index)
            close = closing_brace(tokens, after) if after < len(tokens) else None
            if (
                close is not None
                and tokens[after].is_symbol("{")
                and not has_braces(tokens[after + 1 : close])
            ):
                index = close + 1
            else:
                kept.append(token)
        elif token.text in _FRACTIONS:
            kept.append(Token(Kind.COMMAND, _FRACTIONS[token.text]))
        elif token.text in _ANGLE_BRACKETS:
            kept.append(symbol(_ANGLE_BRACKETS[token.text]))
        else:
            kept.append(token)
    return kept


def _set_builder_condition(tokens: list[Token]) -> list[Token]:
    """ "\\{x \\mid x > 2\\}" and "\\{x : 0 < x \\le 1\\}" are the condition "x > 2",
    "0 < x \\le 1" (``x \\in \\mathbb{R}`` before the bar included)."""
    if len(tokens) < 4 or not tokens[0].is_command("\\{") or not tokens[-1].is_command("\\}"):
        return tokens
    index = _skip_spaces(tokens, 1)
    if tokens[index].kind is not Kind.WORD or len(tokens[index].text) != 1:
        return tokens
    index = _skip_spaces(tokens, index + 1)
    real = ("\\in", None, "\\mathbb", "{", "R", "}")
    if tokens[index].is_command("\\in"):
        position = index + 1
        for expected in real[1:]:
            if expected is None:
                position = _skip_spaces(tokens, position)
                continue
            if position >= len(tokens) or tokens[position].text != expected:
                return tokens
            position += 1
        index = _skip_spaces(tokens, position)
    if not (tokens[index].is_command("\\mid") or tokens[index].is_symbol("|", ":")):
        return tokens
    condition = _rstrip(tokens[_skip_spaces(tokens, index + 1) : -1])
    return condition if condition else tokens


def _thin_thousands(tokens: list[Token]) -> list[Token]:
    """ "11,\\! 111,\\! 100": a negative thin space tightens a thousands separator."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        kept.append(token)
        index += 1
        if (
            token.is_symbol(",")
            and len(kept) >= 2
            and kept[-2].kind is Kind.DIGITS
            and index < len(tokens)
            and tokens[index].is_command("\\!")
        ):
            after = _skip_spaces(tokens, index + 1)
            if (
                after < len(tokens)
                and tokens[after].kind is Kind.DIGITS
                and len(tokens[after].text) == 3
            ):
                index = after
    return kept


def _ellipsis(tokens: list[Token]) -> list[Token]:
    """One spelling of an ellipsis: "1, 2, 3, ..." goes on; its dots are not a full stop."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        dots = all(
            index + step < len(tokens) and tokens[index + step].is_symbol(".") for step in range(3)
        )
        if dots or token.is_symbol("…") or token.is_command("\\dots", "\\ldots", "\\cdots"):
            kept.append(Token(Kind.COMMAND, "\\ldots"))
            index += 3 if dots else 1
        else:
            kept.append(token)
            index += 1
    return kept


def _spacing_as_space(tokens: list[Token]) -> list[Token]:
    return [
        SPACE if token.is_command(*_SPACING) or token.is_symbol("~") else token for token in tokens
    ]


def _unwrapped(tokens: list[Token]) -> list[Token]:
    """ "\\text{cm}" -> "cm": a font or decoration around what holds no brace."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.kind is Kind.COMMAND and token.text in _WRAPPERS:
            after = _skip_spaces(tokens, index)
            if after < len(tokens) and tokens[after].is_symbol("{"):
                close = closing_brace(tokens, after)
                if close is not None and not has_braces(tokens[after + 1 : close]):
                    kept.extend(tokens[after + 1 : close])
                    index = close + 1
                    continue
        kept.append(token)
    return kept


def _degrees_dropped(tokens: list[Token]) -> list[Token]:
    """ "30^\\circ", "30°", "30\\degree": a degree sign alone is decoration."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.is_symbol("^"):
            position = _skip_spaces(tokens, index + 1)
            if position < len(tokens) and tokens[position].is_symbol("{"):
                position = _skip_spaces(tokens, position + 1)
            if position < len(tokens) and tokens[position].is_command("\\circ"):
                position = _skip_spaces(tokens, position + 1)
                if position < len(tokens) and tokens[position].is_symbol("}"):
                    position += 1
                index = position
                continue
        if not (token.is_symbol("°") or token.is_command("\\degree", "\\circ")):
            kept.append(token)
        index += 1
    return kept


def _symbols_dropped(tokens: list[Token]) -> list[Token]:
    """Dollar signs and other currencies go; ``\\%`` is ``%``; ``{,}`` is a comma."""
    kept: list[Token] = []
    for token in tokens:
        if token.text in _DROPPED_SYMBOLS and token.kind is not Kind.WORD:
            continue
        kept.append(symbol("%") if token.is_command("\\%") else token)
        if (
            len(kept) >= 3
            and kept[-1].is_symbol("}")
            and kept[-2].is_symbol(",")
            and kept[-3].is_symbol("{")
        ):
            del kept[-3:]
            kept.append(symbol(","))
    return kept


def _equals_word(tokens: list[Token]) -> list[Token]:
    """ "x equals 3" is "x = 3"."""
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if (
            token.kind is Kind.WORD
            and token.text.lower() == "equals"
            and kept
            and kept[-1].kind is Kind.SPACE
            and index + 1 < len(tokens)
            and tokens[index + 1].kind is Kind.SPACE
        ):
            kept[-1] = SPACE
            kept.extend((symbol("="), SPACE))
            index += 2
            continue
        kept.append(token)
        index += 1
    return kept


def _strip(tokens: list[Token]) -> list[Token]:
    return _rstrip(tokens[_skip_spaces(tokens, 0) :])


def _is_letter(token: Token) -> bool:
    """One ASCII letter: the name of an unknown."""
    return token.kind is Kind.WORD and len(token.text) == 1


def _list_parts(tokens: list[Token]) -> list[list[Token]]:
    """The parts of a list joined by commas or by " or " (", or " is one joint)."""
    parts: list[list[Token]] = [[]]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.is_symbol(","):
            after = _skip_spaces(tokens, index)
            if (
                after + 1 < len(tokens)
                and tokens[after].text == "or"
                and tokens[after + 1].kind is Kind.SPACE
            ):
                index = after + 1
            parts.append([])
        elif (
            token.kind is Kind.WORD
            and token.text == "or"
            and parts[-1][-1:]
            and parts[-1][-1].kind is Kind.SPACE
            and index < len(tokens)
            and tokens[index].kind is Kind.SPACE
        ):
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def _solution(tokens: list[Token]) -> tuple[str, list[Token]] | None:
    """ "x = 2" -> ("x", [2]): one unknown and its value."""
    part = _strip(tokens)
    if len(part) < 3 or not _is_letter(part[0]):
        return None
    equals = _skip_spaces(part, 1)
    value = _strip(part[equals + 1 :])
    if not part[equals].is_symbol("=") or not value or any(t.is_symbol("=") for t in value):
        return None
    return part[0].text, value


def _solutions_of_one_unknown(tokens: list[Token]) -> list[Token]:
    """ "x = 2 or x = 4" and "x = 2, x = 4" list the values 2, 4 of one unknown."""
    text = join(tokens)
    if "=" not in text or not any(ch.isdigit() for ch in text):
        return tokens
    solutions = [_solution(part) for part in _list_parts(tokens)]
    if len(solutions) < 2 or any(solution is None for solution in solutions):
        return tokens
    if len({solution[0] for solution in solutions if solution is not None}) != 1:
        return tokens
    listed: list[Token] = []
    for solution in solutions:
        if solution is not None:
            listed.extend([symbol(","), SPACE, *solution[1]] if listed else solution[1])
    return listed


def _without_tuple_of_unknowns(tokens: list[Token]) -> list[Token]:
    """ "(x, y, z) = (1, 2, 3)": the names of the unknowns are not part of the answer."""
    index = _skip_spaces(tokens, 0)
    if index >= len(tokens) or not tokens[index].is_symbol("("):
        return tokens
    names = 0
    while True:
        index = _skip_spaces(tokens, index + 1)
        if index >= len(tokens) or not _is_letter(tokens[index]):
            return tokens
        names += 1
        index = _skip_spaces(tokens, index + 1)
        if index < len(tokens) and tokens[index].is_symbol(")"):
            break
        if index >= len(tokens) or not tokens[index].is_symbol(","):
            return tokens
    equals = _skip_spaces(tokens, index + 1)
    if names < 2 or equals >= len(tokens) or not tokens[equals].is_symbol("="):
        return tokens
    value = _skip_spaces(tokens, equals + 1)
    return tokens[value:] if value < len(tokens) and tokens[value].is_symbol("(") else tokens


def _name_end(tokens: list[Token], index: int) -> int | None:
    """The end of the name of an unknown, a function or a quantity at ``index``: "x",
    "x_1", "x_{12}", "P(x)", "slope"; None if there is none."""
    if index >= len(tokens) or tokens[index].kind is not Kind.WORD:
        return None
    if len(tokens[index].text) >= 3:
        return index + 1
    if len(tokens[index].text) != 1:
        return None
    index += 1
    if index < len(tokens) and tokens[index].is_symbol("_"):
        position = index + 1
        if position < len(tokens) and tokens[position].is_symbol("{"):
            position += 1
        start = position
        while position < len(tokens) and (
            tokens[position].kind in (Kind.WORD, Kind.DIGITS) or tokens[position].is_symbol("_")
        ):
            position += 1
        if position > start:
            index = position + (position < len(tokens) and tokens[position].is_symbol("}"))
    argument = _skip_spaces(tokens, index)
    if argument < len(tokens) and tokens[argument].is_symbol("("):
        letter = _skip_spaces(tokens, argument + 1)
        closing = _skip_spaces(tokens, letter + 1)
        if (
            letter < len(tokens)
            and _is_letter(tokens[letter])
            and closing < len(tokens)
            and tokens[closing].is_symbol(")")
        ):
            return closing + 1
    return index


def _without_leading_name(tokens: list[Token]) -> list[Token]:
    """ "x = 5", "x_1 = 5", "P(x) = x^2", "slope = -1/2", "\\text{area} = 12": the name of
    the unknown, the function or the quantity is not part of the answer."""
    end = _name_end(tokens, _skip_spaces(tokens, 0))
    if end is None:
        return tokens
    equals = _skip_spaces(tokens, end)
    if equals + 1 >= len(tokens) or not tokens[equals].is_symbol("="):
        return tokens
    return tokens[equals + 1 :]


def _one_spelling(tokens: list[Token]) -> list[Token]:
    """One spelling of the empty set and of each relation ("x >= 5", "x \\geq 5" and
    "x ≥ 5" alike)."""
    kept: list[Token] = []
    for token in tokens:
        if token.is_command("\\varnothing") or (
            token.is_command("\\}") and kept[-1:] and kept[-1].is_command("\\{")
        ):
            if token.is_command("\\}"):
                kept.pop()
            kept.append(Token(Kind.COMMAND, "\\emptyset"))
            continue
        pair = kept[-1].text + token.text if kept[-1:] and kept[-1].kind is Kind.SYMBOL else ""
        if token.kind is Kind.SYMBOL and pair in RELATION_SPELLINGS:
            kept[-1] = Token(Kind.COMMAND, RELATION_SPELLINGS[pair])
        elif token.kind in (Kind.SYMBOL, Kind.COMMAND) and token.text in RELATION_SPELLINGS:
            spelled = RELATION_SPELLINGS[token.text]
            kept.append(Token(Kind.COMMAND if spelled[0] == "\\" else Kind.SYMBOL, spelled))
        else:
            kept.append(token)
    return kept


def _single_spaces(tokens: list[Token]) -> list[Token]:
    """Each run of spaces one space, none at either end."""
    return [SPACE if token.kind is Kind.SPACE else token for token in _strip(tokens)]


def normalize_answer(answer: str) -> str:
    """A canonical string for ``answer``; equal strings mean equal answers."""
    tokens = _without_trailing_backslash(tokenize(strip_outer_delimiters(answer.strip())))
    tokens = _without_reason(_without_qualifier(tokens))
    tokens = _set_builder_condition(_presentation_dropped(tokens))
    tokens = _spacing_as_space(_ellipsis(_thin_thousands(tokens)))
    for _ in range(3):  # \text{\textbf{x}} unwraps in two passes
        tokens = _unwrapped(tokens)
    tokens = _equals_word(tokenize(join(_symbols_dropped(_degrees_dropped(tokens)))))
    tokens = _without_tuple_of_unknowns(_solutions_of_one_unknown(tokens))
    if sum(token.is_symbol("=") for token in tokens) == 1:  # "k = 45, n = 2" keeps both names
        tokens = _without_leading_name(tokens)
    text = join(_single_spaces(_one_spelling(tokens)))
    text = _between_bounds(text)
    text = _PERCENT_WORD.sub("%", text)
    # "2 1/2" is a mixed number: make it explicit before spaces are dropped ("21/2").
    text = _SPACED_MIXED.sub(r"\1\\frac{\2}{\3}", text).rstrip(".").strip()
    scaled = _SCALED.match(text)
    if scaled is not None:
        value = Fraction(scaled.group(1)) * SCALE_WORDS[scaled.group(2)]
        text = str(value)  # "3000", or "2469/2" for 1.2345 thousand: both parse exactly
    text = _OUT_OF.sub(r"\\frac{\1}{\2}", _NAMED_POINT.sub("", _clock_time(text)))
    text = _SIGN_WORD.sub("-", text)
    unit = _TRAILING_UNIT.match(text) or _GLUED_UNIT.match(text) or _COUNTED_NOUN.match(text)
    if unit is not None:
        text = unit.group(1).strip()
    text = text.rstrip(".").strip()
    choice = _CHOICE.match(text)
    if choice is not None and text not in CONSTANT_LETTERS:
        return choice.group(1).upper()
    if _WORDS.match(text) or DIGIT_ORDINAL.match(text):
        word = text.lower()
        return _NAMED_SETS.get(word) or number_in_words(word) or word
    text = _SPACED_INDEX.sub(r"\1{\2}", text)
    text = _SPACED_THOUSANDS.sub(lambda match: match.group().replace(" ", ""), text)
    text = _SPACED_DIGITS.sub(", ", text)
    text = ", ".join(piece.replace(" ", "") for piece in _LIST_COMMA.split(text))
    return _NAMED_SETS.get(text, text)


# "12 345" groups thousands with a space; "10 24" is two numbers, never 1024.
_SPACED_THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:\s\d{3})+(?![\d.])")
_SPACED_DIGITS = re.compile(r"(?<=\d)\s+(?=\d)")
# A digit after "_" or "^" is one index ("\\log_2 3" is the logarithm of 3 to base 2, one
# expression): braced, so that the number after it neither joins it nor becomes an entry.
_SPACED_INDEX = re.compile(r"([_^])\s*(\d)\s+(?=\d)")


# "-1 \\le x and x \\le 4": two bounds on one unknown, one relation.
_BOUND = r"[^<>=\\a-zA-Z,]+|-?\\infty"
_INEQUALITY = "|".join(re.escape(relation) for relation in REVERSED_RELATION)
_ONE_BOUND = re.compile(
    rf"^\s*(?:([a-zA-Z])\s*({_INEQUALITY})\s*({_BOUND})"
    rf"|({_BOUND})\s*({_INEQUALITY})\s*([a-zA-Z]))\s*$"
)
# Only "and" joins them: "x < -2, x > 2" lists the two parts of a union.
_BOTH_BOUNDS = re.compile(r"^(.+?)\s*(?:\band\b|&)\s*(.+)$")


def _bound(text: str) -> tuple[str, str, str] | None:
    """ "x \\ge -1" -> ("x", "\\ge", "-1"): the unknown, the relation, the bound."""
    match = _ONE_BOUND.match(text)
    if match is None:
        return None
    if match.group(1) is not None:
        return match.group(1), match.group(2), match.group(3).strip()
    return match.group(6), REVERSED_RELATION[match.group(5)], match.group(4).strip()


def _between_bounds(text: str) -> str:
    """ "x \\ge -1 and x < 4" -> "-1 \\le x < 4"; anything else unchanged."""
    both = _BOTH_BOUNDS.match(text)
    if both is None:
        return text
    first, second = _bound(both.group(1)), _bound(both.group(2))
    if first is None or second is None or first[0] != second[0]:
        return text
    lower = [bound for bound in (first, second) if bound[1] in (">", "\\ge")]
    upper = [bound for bound in (first, second) if bound[1] in ("<", "\\le")]
    if len(lower) != 1 or len(upper) != 1:
        return text
    (name, low_relation, low), (_, high_relation, high) = lower[0], upper[0]
    low_value, high_value = parse_number(low), parse_number(high)
    if low_value and high_value and low_value.value >= high_value.value:
        return text  # "x > 2 and x < -2" holds nowhere: not a slip to correct here
    return f"{low} {REVERSED_RELATION[low_relation]} {name} {high_relation} {high}"


# "8:34 PM", "20:34:00": a time of day. Without a.m./p.m. or seconds, "3:45" may be a ratio.
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(?:([ap])\.?\s*m\.?)?$", re.IGNORECASE)


def _clock_time(text: str) -> str:
    """ "8:34 p.m." and "20:34:00" -> "20:34" (24-hour, seconds only when not zero)."""
    match = _CLOCK.match(text)
    if match is None or (match.group(3) is None and match.group(4) is None):
        return text
    hours, minutes, seconds, half = match.groups()
    hour = int(hours)
    if half is not None:
        if not 1 <= hour <= 12:
            return text
        hour = hour % 12 + (12 if half.lower() == "p" else 0)
    return f"{hour}:{minutes}" + (f":{seconds}" if seconds not in (None, "00") else "")


@dataclass(frozen=True)
class ParsedNumber:
    value: Fraction
    # Digits after the decimal point when written as a decimal (the precision the writer
    # committed to); None when the notation is exact (integer, fraction, scientific).
    decimal_places: int | None = None
    percent: bool = False


# Plain numbers are scanned character by character, each notation by its own small
# grammar below (digits are Unicode decimal digits, spaces Unicode spaces):
#   decimal        sign? (digits | [1-9] digit{0,2} ("," digit{3})+)? ("." digits)?
#   decimal comma  sign? digits "," digits          ("1,22", "0,111": no thousands group)
#   repeating      sign? digits? "." digits?
#                  (bar space* "{"? digit{1,20} "}"? | "(" digit{1,20} ")")
#   e notation     sign? digits ("." digits)? [eE] sign? digits
#   times ten      sign? (digits ([.,] digits)? space* times space*)? "10" space* "^" space*
#                  "{"? space* sign? digits space* "}"?
#   fraction       sign? space* (digits (space+ | space* &"\frac"))?
#                  ("\frac" space* "{" number "}" space* "{" number "}" | "\frac" space* digit
#                  space* digit | number space* "/" space* number)
# where number is sign? digits ("." digits)?, bar one of \overline \dot \bar, times one
# of \times \cdot * x. Each ``*_groups`` function returns the parts of its notation, or None.


# The two runs the scanner skips: tokens, located with a pattern.
_DIGIT_RUN = re.compile(r"\d*")
_SPACE_RUN = re.compile(r"\s*")


def _digits_end(text: str, start: int) -> int:
    """The end of the digits at ``start`` (``start`` when there are none)."""
    return _DIGIT_RUN.match(text, start).end()  # type: ignore[union-attr]


def _spaces_end(text: str, start: int) -> int:
    return _SPACE_RUN.match(text, start).end()  # type: ignore[union-attr]


def _may_be_number(text: str) -> bool:
    """Whether ``text`` starts as some notation of a number may: after a sign and spaces, a
    digit, a point, a numerator's sign or ``\\frac``."""
    rest = _signed(text)[1].lstrip()
    return rest[:1].isdecimal() or rest[:1] in (".", "+", "-") or rest.startswith("\\frac")


def _signed(text: str) -> tuple[str, str]:
    """The sign (or "") and the rest."""
    return (text[0], text[1:]) if text[:1] in ("+", "-") else ("", text)


def _all_digits(text: str) -> bool:
    return text != "" and text.isdecimal()


def _plain(text: str) -> bool:
    """ "1,234.5", "12", ".5", "" : an optional whole part (digits, or thousands grouped by
    commas after a first group of one to three digits not starting with 0), an optional
    point and digits."""
    whole, point, fraction = text.partition(".")
    if point and not _all_digits(fraction):
        return False
    if whole == "" or whole.isdecimal():
        return True
    groups = whole.split(",")
    first = groups[0]
    return (
        len(groups) >= 2
        and 1 <= len(first) <= 3
        and first[0] in "123456789"
        and first.isdecimal()
        and all(len(group) == 3 and group.isdecimal() for group in groups[1:])
    )


def decimal_groups(text: str) -> tuple[str, str] | None:
    sign, rest = _signed(text)
    return (sign, rest) if _plain(rest) else None


def decimal_comma_groups(text: str) -> tuple[str, str, str] | None:
    if "," not in text:
        return None
    sign, rest = _signed(text)
    whole, comma, fraction = rest.partition(",")
    if comma and _all_digits(whole) and _all_digits(fraction):
        return sign, whole, fraction
    return None


_BARS = ("\\overline", "\\dot", "\\bar")


def repeating_groups(text: str) -> tuple[str, str, str, str | None, str | None] | None:
    if "." not in text:
        return None
    sign, rest = _signed(text)
    whole_end = _digits_end(rest, 0)
    if rest[whole_end : whole_end + 1] != ".":
        return None
    fixed_end = _digits_end(rest, whole_end + 1)
    whole, fixed, tail = rest[:whole_end], rest[whole_end + 1 : fixed_end], rest[fixed_end:]
    if tail.startswith("(") and tail.endswith(")") and 1 <= len(tail) - 2 <= 20:
        if _all_digits(tail[1:-1]):
            return sign, whole, fixed, None, tail[1:-1]
        return None
    bar = next((b for b in _BARS if tail.startswith(b)), None)
    if bar is None:
        return None
    at = _spaces_end(tail, len(bar))
    if tail[at : at + 1] == "{":
        at += 1
    end = _digits_end(tail, at)
    if not 1 <= end - at <= 20:
        return None
    after = tail[end:]
    if after not in ("", "}"):
        return None
    return sign, whole, fixed, tail[at:end], None


def e_notation_groups(text: str) -> tuple[str, str, str] | None:
    sign, rest = _signed(text)
    at = min((i for i in (rest.find("e"), rest.find("E")) if i >= 0), default=-1)
    if at < 0:
        return None
    mantissa, exponent = rest[:at], rest[at + 1 :]
    if not _point_number(mantissa, "."):
        return None
    if not _all_digits(_signed(exponent)[1]):
        return None
    return sign, mantissa, exponent


def _point_number(text: str, points: str) -> bool:
    """ "12", "1.5" (or "1,5" when "," is among ``points``): digits, maybe a point and digits."""
    end = _digits_end(text, 0)
    if end == 0:
        return False
    if end == len(text):
        return True
    return text[end] in points and _all_digits(text[end + 1 :])


_TIMES = ("\\times", "\\cdot", "*", "x")


def times_ten_groups(text: str) -> tuple[str, str | None, str] | None:
    if "^" not in text:
        return None
    sign, rest = _signed(text)
    mantissa, power = _mantissa_times(rest)
    if mantissa is not None:
        exponent = _power_of_ten(power)
        if exponent is not None:
            return sign, mantissa, exponent
    exponent = _power_of_ten(rest)
    return None if exponent is None else (sign, None, exponent)


def _mantissa_times(text: str) -> tuple[str | None, str]:
    """ "2.5 \\times 10^3" -> ("2.5", "10^3"); (None, text) without a mantissa and a sign of
    multiplication."""
    end = _digits_end(text, 0)
    if end == 0:
        return None, text
    if text[end : end + 1] in (".", ",") and (point_end := _digits_end(text, end + 1)) > end + 1:
        end = point_end
    at = _spaces_end(text, end)
    times = next((t for t in _TIMES if text.startswith(t, at)), None)
    if times is None:
        return None, text
    return text[:end], text[_spaces_end(text, at + len(times)) :]


def _power_of_ten(text: str) -> str | None:
    """ "10^{-3}" -> "-3"; None for anything else."""
    if not text.startswith("10"):
        return None
    at = _spaces_end(text, 2)
    if text[at : at + 1] != "^":
        return None
    at = _spaces_end(text, at + 1)
    if text[at : at + 1] == "{":
        at = _spaces_end(text, at + 1)
    start = at
    if text[at : at + 1] in ("+", "-"):
        at += 1
    end = _digits_end(text, at)
    if end == at:
        return None
    after = text[_spaces_end(text, end) :]
    return text[start:end] if after in ("", "}") else None


def fraction_groups(text: str) -> tuple[str, str | None, str, str] | None:
    if "/" not in text and "\\frac" not in text:
        return None
    sign, rest = _signed(text)
    rest = rest[_spaces_end(rest, 0) :]
    end = _digits_end(rest, 0)
    if end > 0:
        at = _spaces_end(rest, end)
        if at > end or rest.startswith("\\frac", at):
            parts = _fraction(rest[at:])
            if parts is not None:
                return sign, rest[:end], *parts
    parts = _fraction(rest)
    return None if parts is None else (sign, None, *parts)


def _signed_number_end(text: str, start: int) -> int | None:
    """The end of "[+-]?digits(.digits)?" at ``start``; None when there is none."""
    at = start + 1 if text[start : start + 1] in ("+", "-") else start
    end = _digits_end(text, at)
    if end == at:
        return None
    if text[end : end + 1] == "." and (point_end := _digits_end(text, end + 1)) > end + 1:
        end = point_end
    return end


def _fraction(text: str) -> tuple[str, str] | None:
    """ "\\frac{3}{4}", "\\frac34", "3/4" -> ("3", "4")."""
    if text.startswith("\\frac"):
        at = _spaces_end(text, len("\\frac"))
        if text[at : at + 1] != "{":
            first = text[at : at + 1]
            at = _spaces_end(text, at + 1)
            second = text[at : at + 1]
            if first.isdecimal() and second.isdecimal() and at + 1 == len(text):
                return first, second
            return None
        terms: list[str] = []
        for index in range(2):
            if text[at : at + 1] != "{":
                return None
            start = _spaces_end(text, at + 1)
            end = _signed_number_end(text, start)
            if end is None:
                return None
            close = _spaces_end(text, end)
            if text[close : close + 1] != "}":
                return None
            terms.append(text[start:end])
            at = close + 1 if index else _spaces_end(text, close + 1)
        return (terms[0], terms[1]) if at == len(text) else None
    end = _signed_number_end(text, 0)
    if end is None:
        return None
    at = _spaces_end(text, end)
    if text[at : at + 1] != "/":
        return None
    start = _spaces_end(text, at + 1)
    last = _signed_number_end(text, start)
    if last is None or last != len(text):
        return None
    return text[:end], text[start:last]


def _decimal(sign: str, digits: str) -> ParsedNumber | None:
    if not digits or digits == ".":
        return None
    digits = digits.replace(",", "")
    places = len(digits.split(".", 1)[1]) if "." in digits else None
    value = Fraction(digits)
    return ParsedNumber(-value if sign == "-" else value, places)


def parse_number(text: str) -> ParsedNumber | None:
    """Exact value of a plain number written in any common notation, else None.

    Handles thousands separators, decimals, fractions (``a/b``, ``\\frac{a}{b}``), mixed
    numbers (``2\\frac{1}{2}``, ``2 1/2``), scientific notation (``1.5e3``,
    ``1.5\\times10^{3}``) and percentages. Input is expected to be normalised already.
    """
    text = text.strip()
    percent = text.endswith("%")
    if percent:
        text = text[:-1].strip()
    number = _parse_unsigned_forms(text)
    if number is None:
        return None
    if percent:
        return ParsedNumber(number.value, number.decimal_places, percent=True)
    return number


def _repeating(sign: str, whole: str, fixed: str, cycle: str) -> ParsedNumber:
    value = Fraction(int(whole or "0"))
    if fixed:
        value += Fraction(int(fixed), 10 ** len(fixed))
    value += Fraction(int(cycle), 10 ** len(fixed) * (10 ** len(cycle) - 1))
    return ParsedNumber(-value if sign == "-" else value)


# "0.1666\\ldots": the digits before an ellipsis show the period that repeats.
_ELLIPSES = ("\\ldots", "\\cdots", "\\dots")
_MAX_PERIOD = 20


def _repeating_shown(text: str) -> ParsedNumber | None:
    """A decimal followed by an ellipsis, its last digits a period written at least twice
    (``0.999\\ldots`` is 1, ``0.2727\\ldots`` is 3/11, ``0.1666\\ldots`` is 1/6); the
    shortest such period repeats. None when no period shows (``3.14159\\ldots``)."""
    ending = next((e for e in _ELLIPSES if text.endswith(e)), None)
    if ending is None:
        return None
    decimal = decimal_groups(text[: -len(ending)].rstrip())
    if decimal is None or "." not in decimal[1]:
        return None
    whole, digits = decimal[1].replace(",", "").split(".", 1)
    for period in range(1, min(_MAX_PERIOD, len(digits) // 2) + 1):
        cycle = digits[-period:]
        if digits[-2 * period : -period] == cycle:
            fixed = digits[:-period]
            # The fewest digits before the period: "0.1666" is 0.1 then 6 repeating.
            while fixed.endswith(cycle):
                fixed = fixed[:-period]
            return _repeating(decimal[0], whole, fixed, cycle)
    return None


def _parse_unsigned_forms(text: str) -> ParsedNumber | None:
    if not _may_be_number(text):
        return None
    repeating = repeating_groups(text)
    if repeating is not None:
        sign, whole, fixed, barred, bracketed = repeating
        return _repeating(sign, whole, fixed, barred or bracketed or "")
    shown = _repeating_shown(text)
    if shown is not None:
        return shown

    decimal = decimal_groups(text)
    if decimal is not None:
        return _decimal(*decimal)

    comma = decimal_comma_groups(text)
    if comma is not None:
        return _decimal(comma[0], f"{comma[1]}.{comma[2]}")

    scientific = e_notation_groups(text) or times_ten_groups(text)
    if scientific is not None:
        sign, exponent = scientific[0], int(scientific[2])
        mantissa = scientific[1] or "1"
        # "1,2 \\cdot 10^3": a decimal comma; "1,200 \\times 10^3": a thousands separator.
        mantissa = _without_thousands_comma(mantissa).replace(",", ".")
        if abs(exponent) > MAX_DECIMAL_EXPONENT:
            return None
        value = Fraction(mantissa) * Fraction(10) ** exponent
        # "2.3148 \\times 10^{-3}" commits to the places its mantissa has, shifted.
        places = len(mantissa.partition(".")[2]) - exponent if "." in mantissa else 0
        return ParsedNumber(-value if sign == "-" else value, places if places > 0 else None)

    fraction = fraction_groups(text)
    if fraction is not None:
        sign, mixed, num, den = fraction
        denominator = Fraction(den)
        if denominator == 0:
            return None
        value = Fraction(num) / denominator
        if mixed is not None:
            if value < 0:
                return None  # "2 -1/2" is not a mixed number
            value += int(mixed)
        return ParsedNumber(-value if sign == "-" else value)
    return None


def _without_thousands_comma(mantissa: str) -> str:
    """ "1,200" -> "1200": a comma before the last three digits of a mantissa of at most
    six digits, the first not 0, groups thousands; any other stays (a decimal comma)."""
    whole, comma, rest = mantissa.partition(",")
    if comma and 1 <= len(whole) <= 3 and whole[0] in "123456789" and len(rest) == 3:
        return whole + rest
    return mantissa


def numbers_match(reference: ParsedNumber, answer: ParsedNumber) -> bool:
    """Exact equality, or agreement to the precision a decimal was written with.

    A percentage matches its value with or without the percent sign (``50%`` ~ ``50``) and
    as a proportion (``50%`` ~ ``0.5``). A decimal matches an exact value it does not equal
    only when written to at least three places and three significant digits and it is
    that value rounded (``0.333`` ~ ``1/3`` but not ``0.33`` ~ ``1/3``, and never two
    distinct tiny numbers that both round to zero).
    """
    for ref_value, ref_places in _percent_readings(reference):
        for ans_value, ans_places in _percent_readings(answer):
            if ref_value == ans_value:
                return True
            if approximates(ref_value, ans_value, ans_places) or approximates(
                ans_value, ref_value, ref_places
            ):
                return True
    return False


def _percent_readings(number: ParsedNumber) -> tuple[tuple[Fraction, int | None], ...]:
    """Each value a number may stand for, with the decimal places it is written to
    ("16.67%" is 16.67 to two places and 0.1667 to four)."""
    places = number.decimal_places
    if number.percent:
        return ((number.value, places), (number.value / 100, (places or 0) + 2 or None))
    return ((number.value, places),)


# A decimal stands for a value it does not equal exactly (1/3, 8/3, pi/2) when it is that
# value rounded and commits to enough digits: three places and three significant digits
# (0.333 ~ 1/3, 2.6667 ~ 8/3), or four significant digits after some decimal point
# (78.54 ~ 25 pi); but 0.33 !~ 1/3, 3.14 !~ pi and 0.001 !~ 1/999. math-verify demands six
# places; datasets and models round to three or four, as in "(0.6, 2.6667]".
MIN_APPROXIMATE_PLACES = 3
MIN_APPROXIMATE_DIGITS = 3
MIN_DIGITS_AT_ANY_PLACES = 4


def written_as_rounding(places: int | None, digits: int) -> bool:
    """Whether a decimal with ``places`` decimals and ``digits`` significant digits may
    stand for a value it rounds (see above)."""
    if places is None or places < 1:
        return False
    return digits >= MIN_DIGITS_AT_ANY_PLACES or (
        places >= MIN_APPROXIMATE_PLACES and digits >= MIN_APPROXIMATE_DIGITS
    )


def significant_digits(decimal: Fraction, places: int) -> int:
    """ "0.0125" written to 4 places has 3: the digits of the number times 10^places."""
    return len(str(abs(decimal.numerator * 10**places // decimal.denominator)))


def approximates(exact: Fraction, decimal: Fraction, places: int | None) -> bool:
    """Whether ``decimal``, written with ``places`` decimals, is ``exact`` rounded: the one
    rounding rule, for the fast checks and the symbolic engine's numbers alike."""
    if places is None or decimal == 0:
        return False
    # Within half a unit of the last place written; a tie rounds either way (12.345 is
    # 12.35 rounded half up, 12.34 rounded half to even).
    if abs(exact - decimal) * 2 * 10**places > 1:
        return False
    return written_as_rounding(places, significant_digits(decimal, places))
