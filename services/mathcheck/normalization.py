"""Canonical forms of answers: normalisation as passes over an answer's tokens.

Normalisation removes what never changes an answer's meaning (spacing macros,
``\\left``/``\\right``, ``\\text{}`` wrappers, units, degree signs, currency, a leading
``x =``), as passes over the answer's tokens (``latex_tokens.py``, which takes off the math
delimiters first; docs/math.md lists the passes in order). The numbers in the canonical
form are read by ``written_numbers.py``.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from itertools import permutations

from services.mathcheck.latex_tokens import (
    SPACE,
    SPACING,
    Kind,
    Token,
    answer_tokens,
    closing_brace,
    degree_sign_end,
    is_letter,
    is_spacing,
    is_word,
    join,
    name_end,
    nesting,
    plain_group,
    rescan,
    rstrip,
    run_together,
    skip_spaces,
    strip,
    symbol,
    tokenize,
    top_level_parts,
    unwrap,
    without_spaces,
)
from services.mathcheck.vocabulary import (
    CONSTANT_LETTERS,
    HEDGE_WORDS,
    JOINT_WORDS,
    RELATION_SPELLINGS,
    REVERSED_RELATION,
    SCALE_WORDS,
    TEXT_FONT,
    TEXT_FONTS,
    VARIABLE_FONT,
    value_before_unit,
)
from services.mathcheck.written_numbers import digit_ordinal, number_in_words, parse_number

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


# The passes of normalisation over tokens (``latex_tokens.py``), in the order
# ``normalize_answer`` runs them.

_FRACTIONS = {"\\dfrac": "\\frac", "\\tfrac": "\\frac"}
# Only present: sizes and styles, and the old font switches ("{\\bf 3}" is 3).
_FONT_SWITCHES = ("\\bf", "\\it", "\\rm", "\\sf", "\\tt", "\\sl", "\\em")
_INVISIBLE = frozenset(
    ("\\left", "\\right", "\\displaystyle", "\\textstyle", "\\scriptstyle", *_FONT_SWITCHES)
)
_ANGLE_BRACKETS = {"\\langle": "(", "\\rangle": ")"}
# Spacing macros; "~" is a space too.
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
_DROPPED_SYMBOLS = frozenset(("\\$", "$", "€", "£", "¥", "\\euro", "\\pounds"))
# Words that start a closing remark in parentheses: "4 (when x = 2)".
_REMARK_WORDS = frozenset(("when", "at", "if", "for", "where", "attained", "achieved", "reached"))
_REASON_WORDS = ("since", "because")
# The token texts each pass looks for: a pass over an answer without any returns at once.
_PRESENTATION_COMMANDS = _INVISIBLE | {"\\color", *_FRACTIONS, *_ANGLE_BRACKETS}
_ELLIPSIS_MARKS = frozenset((".", "…", "\\dots", "\\ldots", "\\cdots"))
_DEGREE_MARKS = frozenset(("^", "°", "\\degree", "\\circ"))
_SYMBOL_MARKS = _DROPPED_SYMBOLS | {"\\%", "{"}


def _without_trailing_backslash(tokens: list[Token]) -> list[Token]:
    """ "185\\": a stray backslash at the very end means nothing."""
    return tokens[:-1] if tokens and tokens[-1].text == "\\" else tokens


def _opens_text(tokens: list[Token]) -> bool:
    """Whether ``tokens`` end in ``\\text{``."""
    return len(tokens) >= 2 and tokens[-1].is_symbol("{") and tokens[-2].is_command("\\text")


def _without_qualifier(tokens: list[Token]) -> list[Token]:
    """ "4 (when x = 2)", "4 \\text{(attained at x = 2)}", "4 \\text{(at } x = 2\\text{)}":
    the remark in parentheses at the end that says where the answer holds is not part of
    it."""
    body = rstrip(tokens)
    closing = len(body) - 1
    if closing > 2 and body[-1].is_symbol("}") and _opens_text(body[:-2]):
        closing -= 1  # "4 \\text{(at } x = 2\\text{)}": the parenthesis closes in text
    if closing < 0 or not body[closing].is_symbol(")"):
        return tokens
    opening = closing - 1
    while opening >= 0 and not any(mark in body[opening].text for mark in "()"):
        opening -= 1
    if opening < 0 or not body[opening].is_symbol("("):
        return tokens
    inside = skip_spaces(body, opening + 1)
    if (
        inside + 1 < len(body)
        and body[inside].is_command("\\text")
        and body[inside + 1].is_symbol("{")
    ):
        inside = skip_spaces(body, inside + 2)
    if body[inside].kind is not Kind.WORD or body[inside].text not in _REMARK_WORDS:
        return tokens
    before = rstrip(body[:opening])
    start = len(rstrip(before[:-2]) if _opens_text(before) else before)
    return tokens[:start] if start > 0 else tokens


# The commands that write a modulus: "3 \\pmod{7}", "13 (\\bmod 17)", "3 (\\mod 7)".
_MODULUS_COMMANDS = frozenset(("\\pmod", "\\bmod", "\\mod"))


def _without_modulus(tokens: list[Token]) -> list[Token]:
    """ "3 \\pmod{7}", "3 \\ (\\text{mod } 7)": a whole number and the modulus it is a
    residue for is that number. A congruence keeps its modulus ("n \\equiv 1 \\pmod{4}"
    is every such n, not 1)."""
    if not any(token.text in _MODULUS_COMMANDS or token.text == "mod" for token in tokens):
        return tokens
    number = skip_spaces(tokens, 0)
    if number < len(tokens) and tokens[number].is_symbol("-", "+"):
        number = skip_spaces(tokens, number + 1)
    if number >= len(tokens) or tokens[number].kind is not Kind.DIGITS:
        return tokens
    note = [token for token in tokens[number + 1 :] if not is_spacing(token)]
    if _is_modulus_note(note):
        return tokens[: number + 1]
    return tokens


def _is_modulus_note(note: list[Token]) -> bool:
    """ "\\pmod{7}", "\\pmod 7", "(\\bmod 7)", "(\\text{mod } 7)", "\\text{(mod } 7)",
    "(\\mathrm{mod} 7)", "(mod 7)" (spaces taken out): a modulus of whole digits."""
    texts = [token.text for token in note if token.text not in TEXT_FONTS]
    if texts[:1] == ["\\pmod"]:
        modulus = texts[1:]
    elif texts[:1] == ["("] and texts[-1:] == [")"]:
        modulus = texts[1:-1]
    elif texts[:3] == ["{", "(", "mod"] and texts[-1:] == [")"]:  # "\\text{(mod } 7)"
        modulus = texts[2:-1]
    else:
        return False
    modulus = [text for text in modulus if text not in ("{", "}")]
    if texts[0] != "\\pmod":  # in parentheses, it says "mod"
        if not modulus or modulus[0] not in ("\\bmod", "\\mod", "mod"):
            return False
        modulus = modulus[1:]
    return len(modulus) == 1 and modulus[0].isdigit()


def _without_reason(tokens: list[Token]) -> list[Token]:
    """ "5, since 5^2 = 25": the reason after the answer is not part of it."""
    for index, token in enumerate(tokens):
        if token.kind is not Kind.WORD or token.text not in _REASON_WORDS:
            continue
        kept = rstrip(tokens[:index])
        if _opens_text(kept):
            kept = rstrip(kept[:-2])
        # A comma before the reason goes, unless it is all there is ("," stays ",").
        if kept[-1:] and kept[-1].is_symbol(",") and rstrip(kept[:-1]):
            kept = rstrip(kept[:-1])
        if kept:
            return kept
    return tokens


def _presentation_dropped(tokens: list[Token]) -> list[Token]:
    """``\\dfrac`` is ``\\frac``; ``\\left``, ``\\displaystyle``, ``\\color{red}`` and
    the old font switches (``{\\bf 3}``) only present (``\\left.`` and ``\\right.``, the
    delimiter of nothing, with their full stop); angle brackets are parentheses."""
    if not any(token.text in _PRESENTATION_COMMANDS for token in tokens):
        return tokens
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        switch = skip_spaces(tokens, index) if token.is_symbol("{") else None
        if switch is not None and switch < len(tokens) and tokens[switch].text in _FONT_SWITCHES:
            # "{\\bf 3}": the group and its switch go, what it holds stays.
            closing = closing_brace(tokens, index - 1)
            if closing is not None:
                kept.extend(_presentation_dropped(tokens[switch + 1 : closing]))
                index = closing + 1
                continue
        if token.kind is not Kind.COMMAND:
            kept.append(token)
        elif token.text in _INVISIBLE:
            if token.text in ("\\left", "\\right") and tokens[index : index + 1] == [symbol(".")]:
                index += 1  # "\\left." and "\\right.": a delimiter of nothing
            continue
        elif token.text == "\\color":
            group = plain_group(tokens, index)
            if group is not None:
                index = group[1] + 1
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
    index = skip_spaces(tokens, 1)
    if tokens[index].kind is not Kind.WORD or len(tokens[index].text) != 1:
        return tokens
    index = skip_spaces(tokens, index + 1)
    real = ("\\in", None, "\\mathbb", "{", "R", "}")
    if tokens[index].is_command("\\in"):
        position = index + 1
        for expected in real[1:]:
            if expected is None:
                position = skip_spaces(tokens, position)
                continue
            if position >= len(tokens) or tokens[position].text != expected:
                return tokens
            position += 1
        index = skip_spaces(tokens, position)
    if not (tokens[index].is_command("\\mid") or tokens[index].is_symbol("|", ":")):
        return tokens
    condition = rstrip(tokens[skip_spaces(tokens, index + 1) : -1])
    return condition if condition else tokens


def _absolute_bound(tokens: list[Token]) -> list[Token]:
    """ "|y| \\le 2" is "-2 \\le y \\le 2", "|x| < 3" is "-3 < x < 3": an unknown's
    absolute value bounded from above by a number."""
    start = skip_spaces(tokens, 0)
    if start >= len(tokens) or not tokens[start].is_symbol("|"):
        return tokens
    body = without_spaces(tokens)
    if len(body) < 5 or not body[0].is_symbol("|") or not body[2].is_symbol("|"):
        return tokens
    if not is_letter(body[1]) or body[3].text not in _ABSOLUTE_RELATIONS:
        return tokens
    bound = join(body[4:])
    value = parse_number(bound)
    if value is None or value.value <= 0:
        return tokens
    name, relation = body[1].text, body[3].text
    return tokenize(f"-{bound} {relation} {name} {relation} {bound}")


# Bounds from above ("|x| > 3", a union, is the symbolic engine's).
_ABSOLUTE_RELATIONS = frozenset(("<", "\\le", "\\leq"))


def _thin_thousands(tokens: list[Token]) -> list[Token]:
    """ "11,\\! 111,\\! 100": a negative thin space tightens a thousands separator."""
    if not any(token.text == "\\!" for token in tokens):
        return tokens
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
            after = skip_spaces(tokens, index + 1)
            if (
                after < len(tokens)
                and tokens[after].kind is Kind.DIGITS
                and len(tokens[after].text) == 3
            ):
                index = after
    return kept


def _ellipsis(tokens: list[Token]) -> list[Token]:
    """One spelling of an ellipsis: "1, 2, 3, ..." goes on; its dots are not a full stop."""
    if not any(token.text in _ELLIPSIS_MARKS for token in tokens):
        return tokens
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
    if not any(token.text in SPACING or token.text == "~" for token in tokens):
        return tokens
    return [
        SPACE if token.is_command(*SPACING) or token.is_symbol("~") else token for token in tokens
    ]


def _degrees_dropped(tokens: list[Token]) -> list[Token]:
    """ "30^\\circ", "30°", "30\\degree": a degree sign alone is decoration."""
    if not any(token.text in _DEGREE_MARKS for token in tokens):
        return tokens
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        end = degree_sign_end(tokens, index)
        if end is not None:
            index = end
            continue
        if not token.is_command("\\degree", "\\circ"):
            kept.append(token)
        index += 1
    return kept


def _raised_ordinal(tokens: list[Token]) -> list[Token]:
    """ "3^{\\text{rd}}", "21^{st}", "4^\\text{th}": an ordinal's suffix raised is the
    ordinal written on the line ("3rd")."""
    if not any(token.is_symbol("^") for token in tokens):
        return tokens
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        suffix = index + 2
        braced = suffix < len(tokens) and tokens[suffix].is_symbol("{")
        suffix += braced
        end = suffix + 1 + braced
        if (
            token.kind is Kind.DIGITS
            and tokens[index + 1 : index + 2] == [symbol("^")]
            and end <= len(tokens)
            and tokens[suffix].kind is Kind.WORD
            and digit_ordinal(token.text + tokens[suffix].text) is not None
            and (not braced or tokens[end - 1].is_symbol("}"))
        ):
            kept.extend((token, tokens[suffix]))
            index = end
            continue
        kept.append(token)
        index += 1
    return kept


def _symbols_dropped(tokens: list[Token]) -> list[Token]:
    """Dollar signs and other currencies go; ``\\%`` is ``%``; ``{,}`` is a comma."""
    if not any(token.text in _SYMBOL_MARKS for token in tokens):
        return tokens
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


def _list_parts(tokens: list[Token]) -> list[list[Token]]:
    """The parts of a list joined by commas or by " or " (", or " is one joint)."""
    parts: list[list[Token]] = [[]]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.is_symbol(","):
            after = skip_spaces(tokens, index)
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
    part = strip(tokens)
    if len(part) < 3 or not is_letter(part[0]):
        return None
    equals = skip_spaces(part, 1)
    value = strip(part[equals + 1 :])
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


def listed_equalities(tokens: list[Token]) -> bool:
    """Whether ``tokens`` write equalities listed, not chained: two "=" or more with no
    comma or semicolon between them, but with a joint ("x=5 or x=7", "x=5orx=7" as the
    tokens have it), a spacing command, a text or a row break between them, or with a
    value and letters between two of them ("x=5/x=7"). The symbolic engine would read
    such a text as a chain, by its last side."""
    segments: list[list[Token]] = [[]]
    for token in tokens:
        if token.is_symbol(",", ";"):
            segments.append([])
        else:
            segments[-1].append(token)
    return any(_equalities_listed(segment) for segment in segments)


def one_value(tokens: list[Token]) -> bool:
    """Whether ``tokens`` write one value: a number (``1,5`` with a decimal comma too), or
    one "=" at most and no comma or semicolon outside brackets."""
    if parse_number(join(strip(tokens))) is not None:
        return True
    if [token.text for token in tokens].count("=") > 1:
        return False
    depth = 0
    for token in tokens:
        if depth == 0 and token.is_symbol(",", ";"):
            return False
        depth += nesting(token)
    return True


def _equalities_listed(tokens: list[Token]) -> bool:
    if [token.text for token in tokens].count("=") < 2:
        return False
    if any(token.text in _CHAIN_BREAKS or _joins(token) for token in tokens):
        return True
    sides = top_level_parts(tokens, "=")
    return sides is not None and any(
        {Kind.DIGITS, Kind.WORD} <= {token.kind for token in side} for side in sides[1:-1]
    )


def _chain_value(tokens: list[Token]) -> list[Token]:
    """ "f(2) = 2^2 = 4", "AB = BC = 5": equalities written out to a number are that
    number, the chain's last side (math-verify reads a chain so); one "=" keeps both sides
    (``x = 3`` is the name's, below)."""
    if [token.text for token in tokens].count("=") < 2:
        return tokens
    if any(token.is_symbol(",", ";") for token in tokens) or _equalities_listed(tokens):
        return tokens  # "x = 2 and y = 3", "x=1orx=2", "x = 1, y = 2": equations listed
    sides = top_level_parts(tokens, "=")
    if sides is None or len(sides) < 3 or not all(strip(side) for side in sides):
        return tokens
    value = strip(sides[-1])
    # A number, its digits maybe grouped by spaces ("1 000", read as one below).
    return value if parse_number(join(without_spaces(value))) is not None else tokens


_CHAIN_BREAKS = frozenset(("\\quad", "\\qquad", "\\text", "\\\\", "~"))


def _joins(token: Token) -> bool:
    """A word that is a joint, or begins or ends with one, glued to a neighbour ("1orx")."""
    word = token.text.lower()
    return token.kind is Kind.WORD and any(
        word == joint or word.startswith(joint) or word.endswith(joint) for joint in JOINT_WORDS
    )


def _membership(tokens: list[Token]) -> list[Token]:
    """ "x \\in \\{1, 2\\}": one unknown's values are that set (as "x = 1, 2" lists them);
    a union or difference of sets after it stays whole."""
    index = skip_spaces(tokens, 0)
    if index >= len(tokens) or not is_letter(tokens[index]):
        return tokens
    member = skip_spaces(tokens, index + 1)
    if member >= len(tokens) or not tokens[member].is_command("\\in"):
        return tokens
    values = rstrip(tokens[skip_spaces(tokens, member + 1) :])
    if len(values) < 2 or not values[0].is_command("\\{") or not values[-1].is_command("\\}"):
        return tokens
    depth = 0
    for position, token in enumerate(values):
        depth += token.is_command("\\{") - token.is_command("\\}")
        if depth == 0 and position < len(values) - 1:
            return tokens
    return values


def _without_tuple_of_unknowns(tokens: list[Token]) -> list[Token]:
    """ "(x, y, z) = (1, 2, 3)": the names of the unknowns are not part of the answer."""
    index = skip_spaces(tokens, 0)
    if index >= len(tokens) or not tokens[index].is_symbol("("):
        return tokens
    names = 0
    while True:
        index = skip_spaces(tokens, index + 1)
        if index >= len(tokens) or not is_letter(tokens[index]):
            return tokens
        names += 1
        index = skip_spaces(tokens, index + 1)
        if index < len(tokens) and tokens[index].is_symbol(")"):
            break
        if index >= len(tokens) or not tokens[index].is_symbol(","):
            return tokens
    equals = skip_spaces(tokens, index + 1)
    if names < 2 or equals >= len(tokens) or not tokens[equals].is_symbol("="):
        return tokens
    value = skip_spaces(tokens, equals + 1)
    return tokens[value:] if value < len(tokens) and tokens[value].is_symbol("(") else tokens


def _label_end(tokens: list[Token], index: int) -> int | None:
    """The end of the name of an unknown, a function or a quantity at ``index``: "x",
    "x_1", "x_{12}", "P(x)", "slope"; None if there is none."""
    if index < len(tokens) and tokens[index].kind is Kind.WORD and len(tokens[index].text) >= 3:
        return index + 1
    end = name_end(tokens, index)
    if end is None:
        return None
    index = end
    argument = skip_spaces(tokens, index)
    if argument < len(tokens) and tokens[argument].is_symbol("("):
        letter = skip_spaces(tokens, argument + 1)
        closing = skip_spaces(tokens, letter + 1)
        if (
            letter < len(tokens)
            and is_letter(tokens[letter])
            and closing < len(tokens)
            and tokens[closing].is_symbol(")")
        ):
            return closing + 1
    return index


# The commands that name an extremum: "\\min = 3", "\\max_{x \\in [0, 1]} f(x) = 2".
_EXTREMA = ("\\min", "\\max", "\\sup", "\\inf")
# A letter that names an expectation before its bracket: "E[X] = 3", "E[\\max] = 4".


def _named_end(tokens: list[Token], index: int) -> int | None:
    """The end of a name at ``index`` (``_label_end``'s), or of the extremum or the
    expectation a value is of: "\\min", "\\max_{x > 0} f(x)" (all before the one "="),
    "E[\\max]"."""
    if index < len(tokens) and tokens[index].is_command(*_EXTREMA):
        return next((at for at, token in enumerate(tokens) if token.is_symbol("=")), None)
    if index + 1 < len(tokens) and tokens[index].text == "E" and tokens[index + 1].is_symbol("["):
        closing = next(
            (at for at in range(index + 2, len(tokens)) if tokens[at].is_symbol("]")), None
        )
        return None if closing is None else closing + 1
    return _label_end(tokens, index)


# The words that say a value is an extremum: "minimum 3", "the largest value is 10".
_EXTREMUM_WORDS = frozenset(
    ("minimum", "maximum", "min", "max", "smallest", "largest", "greatest", "least",
     "minimal", "maximal")
)  # fmt: skip


def _without_extremum_words(tokens: list[Token]) -> list[Token]:
    """ "minimum 3", "the maximum value is 10", "maximum possible value: \\frac{1}{4}": the
    words before a value that say it is the extremum asked for are not part of it (the
    point that attains it is no such value: "the minimum at x = 3" keeps its words)."""
    index = skip_spaces(tokens, 0)
    if is_word(tokens, index, "the", "The"):
        index = skip_spaces(tokens, index + 1)
    if not (index < len(tokens) and tokens[index].text.lower() in _EXTREMUM_WORDS):
        return tokens
    index = skip_spaces(tokens, index + 1)
    for words in (("possible",), ("value",), ("is", "=", ":")):
        if index < len(tokens) and tokens[index].text.lower() in words:
            index = skip_spaces(tokens, index + 1)
    if index >= len(tokens) or tokens[index].kind is Kind.WORD:
        return tokens
    return tokens[index:]


def _parenthesised_alternative(tokens: list[Token]) -> list[Token]:
    """ "5 (or 6)", "5 \\text{ (possibly } 6)", "5 (or maybe 6)": another answer offered in
    parentheses at the end is a second answer, a list ("5, 6"), never a note."""
    body = rstrip(tokens)
    if not body or not body[-1].is_symbol(")"):
        return tokens
    depth = 0
    for opening in range(len(body) - 1, -1, -1):
        depth += nesting(body[opening])
        if depth == 0:
            break
    if opening < 1 or not body[opening].is_symbol("("):
        return tokens
    inside = skip_spaces(body, opening + 1)
    hedged = False
    while inside < len(body) - 1 and body[inside].text.lower() in HEDGE_WORDS:
        hedged = True
        inside = skip_spaces(body, inside + 1)
    other = strip(body[inside:-1])
    before = rstrip(body[:opening])
    if not hedged or not other or not before:
        return tokens
    return [*before, symbol(","), SPACE, *other]


def _without_word_note(tokens: list[Token]) -> list[Token]:
    """ "f(n) = n (the identity)", "x = 2 (double root)", "only p = 3": a note of words
    alone in parentheses at the end (two words or more, or one spaced off the answer, and
    no "and", "or" or "not" among them), and "only" before the answer, are not part of it.
    A note with a number (in digits or words) or a letter in it is kept ("(or 6)",
    "(eight)", "f (x)")."""
    start = skip_spaces(tokens, 0)
    if is_word(tokens, start, "only", "Only") and skip_spaces(tokens, start + 1) < len(tokens):
        tokens = tokens[skip_spaces(tokens, start + 1) :]
    body = rstrip(tokens)
    if not body or not body[-1].is_symbol(")"):
        return tokens
    opening = len(body) - 2
    while opening >= 0 and body[opening].kind in (Kind.WORD, Kind.SPACE):
        opening -= 1
    if opening < 1 or not body[opening].is_symbol("("):
        return tokens
    words = [t.text for t in body[opening + 1 : -1] if t.kind is Kind.WORD]
    spaced = body[opening - 1].kind is Kind.SPACE
    if (
        not words
        or any(len(word) < 2 or word.lower() in ("and", "or", "not") for word in words)
        or any(number_in_words(word) is not None for word in words)
        or not (len(words) >= 2 or (spaced and len(words[0]) >= 3))
    ):
        return tokens
    kept = rstrip(body[:opening])
    return kept if kept else tokens


# The words that say where a value is attained: "10 at (x, y) = (3, 4)", "4 when x = 2".
_ATTAINED_WORDS = frozenset(("at", "when", "attained", "achieved", "reached", "with"))


def _without_where_attained(tokens: list[Token]) -> list[Token]:
    """ "\\frac{1}{4} at x = \\frac{1}{2}", "10 at (x, y) = (3, 4)", "4, attained when x = 2":
    a value, then words that say where it is attained and one assignment of a point, is
    the value. The value holds no word and no "="; what follows the point's "=" holds no
    word and no comma outside brackets ("3 when x = 1, 4 when x = 2" is two answers); the
    point may be a chain ("with equality at a = b = 1")."""
    depth = 0
    for index, token in enumerate(tokens):
        depth += nesting(token)
        if depth or token.kind is not Kind.WORD:
            continue
        if token.text not in _ATTAINED_WORDS:
            return tokens
        value = rstrip(tokens[:index])
        if value[-1:] and value[-1].is_symbol(","):
            value = rstrip(value[:-1])
        if not value or any(t.is_symbol("=") for t in value):
            return tokens
        point = top_level_parts(tokens[index + 1 :], "=")
        if point is None or len(point) < 2:
            return tokens
        if any(top_level_parts(side, ",") != [side] for side in point[1:]):
            return tokens
        if any(t.kind is Kind.WORD for t in point[-1]):
            return tokens
        return value
    return tokens


def _without_leading_name(tokens: list[Token]) -> list[Token]:
    """ "x = 5", "x_1 = 5", "P(x) = x^2", "slope = -1/2", "\\text{area} = 12", "\\min = 3",
    "\\max_{x > 0} f(x) = 2", "E[X] = 4": the name of the unknown, the function, the
    quantity, the extremum or the expectation is not part of the answer."""
    end = _named_end(tokens, skip_spaces(tokens, 0))
    if end is None:
        return tokens
    equals = skip_spaces(tokens, end)
    if equals + 1 >= len(tokens) or not tokens[equals].is_symbol("="):
        return tokens
    return tokens[equals + 1 :]


_SPELLING_MARKS = frozenset(
    ("\\varnothing", "\\}", *RELATION_SPELLINGS, *(spelling[:1] for spelling in RELATION_SPELLINGS))
)


def _one_spelling(tokens: list[Token]) -> list[Token]:
    """One spelling of the empty set and of each relation ("x >= 5", "x \\geq 5" and
    "x ≥ 5" alike)."""
    if not any(token.text in _SPELLING_MARKS for token in tokens):
        return tokens
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
    return [SPACE if token.kind is Kind.SPACE else token for token in strip(tokens)]


# The passes over the whole answer's words, once spaces are single.

_NOT_COUNTED = frozenset(
    (*SCALE_WORDS, "score", "sin", "cos", "tan", "cot", "sec", "csc", "log", "ln", "exp",
     "sqrt", "mod", "pi", "choose", "factorial")
)  # fmt: skip
_CHOICE_WORDS = frozenset(("option", "choice", "answer"))


def _number_tokens(tokens: list[Token]) -> bool:
    """ "12", "-3", "2.5": a sign, digits, maybe a point and digits."""
    body = tokens[1:] if tokens[:1] and tokens[0].is_symbol("+", "-") else tokens
    if len(body) == 3 and body[1].is_symbol("."):
        return body[0].kind is Kind.DIGITS and body[2].kind is Kind.DIGITS
    return len(body) == 1 and body[0].kind is Kind.DIGITS


def _without_unit_words(tokens: list[Token]) -> list[Token]:
    """ "12 square centimeters" -> "12", "3 solutions" -> "3": the number without the unit
    or the noun it counts (one word; words that scale the number or are math count
    nothing)."""
    value = value_before_unit(tokens)
    if value is not None:
        return value
    if len(tokens) == 3 and tokens[0].kind is Kind.DIGITS and tokens[2].kind is Kind.WORD:
        # "2 thirds", "1 half": a fraction, not a count of thirds.
        fraction = number_in_words(join(tokens))
        if fraction is not None and fraction.startswith("\\frac"):
            return tokenize(fraction)
    if len(tokens) >= 3 and tokens[-2].kind is Kind.SPACE and _number_tokens(tokens[:-2]):
        noun = tokens[-1]
        counted = noun.text.removesuffix("s")
        if (
            noun.kind is Kind.WORD
            and len(noun.text) >= 3
            and noun.text.islower()
            and noun.text not in _NOT_COUNTED
            and counted not in _NOT_COUNTED
        ):
            return tokens[:-2]
    return tokens


def _percent_word(tokens: list[Token]) -> list[Token]:
    """ "25 percent", "25 per cent", "25 pct." -> "25%"."""
    end = len(tokens) - (1 if tokens[-1:] and tokens[-1].is_symbol(".") else 0)
    words = [token.text.lower() for token in tokens[:end]]
    for spelling in (["percent"], ["pct"], ["per", "cent"], ["per", " ", "cent"]):
        start = end - len(spelling)
        if start > 0 and words[start:end] == spelling:
            value = rstrip(tokens[:start])
            if value and value[-1].kind is Kind.DIGITS:
                return [*value, symbol("%")]
    return tokens


def _mixed_number(tokens: list[Token]) -> list[Token]:
    """ "2 1/2", "2 and 1/2" -> "2\\frac{1}{2}": a mixed number, explicit before spaces go."""
    body = without_spaces(tokens)
    sign = body[:1] if body[:1] and body[0].is_symbol("+", "-") else []
    body = body[len(sign) :]
    if body[1:2] and body[1].text == "and":
        body = [body[0], *body[2:]]
    if (
        len(body) != 4
        or not tokens[len(sign) + 1 : len(sign) + 2]
        or tokens[len(sign) + 1].kind is not Kind.SPACE
        or not all(body[i].kind is Kind.DIGITS for i in (0, 1, 3))
        or not body[2].is_symbol("/")
    ):
        return tokens
    whole, top, bottom = body[0].text, body[1].text, body[3].text
    return tokenize("".join(t.text for t in sign) + f"{whole}\\frac{{{top}}}{{{bottom}}}")


def _scaled(tokens: list[Token]) -> list[Token]:
    """ "3 thousand", "1.2 million": the number it says, exactly."""
    if len(tokens) >= 3 and tokens[-2].kind is Kind.SPACE and _number_tokens(tokens[:-2]):
        scale = SCALE_WORDS.get(tokens[-1].text)
        if scale is not None:
            # "3000", or "2469/2" for 1.2345 thousand: both parse exactly.
            return tokenize(str(Fraction(join(tokens[:-2])) * scale))
    return tokens


def _is_half_of_day(text: str) -> bool:
    """ "pm", "p.m.", "a. m", "": a.m. or p.m., or nothing."""
    if not text:
        return True
    index = 1 + (text[1:2] == ".")
    while text[index : index + 1] == " ":
        index += 1
    return text[0] in "ap" and text[index:] in ("m", "m.")


def _clock_time(tokens: list[Token]) -> list[Token]:
    """ "8:34 p.m." and "20:34:00" -> "20:34" (24-hour, seconds only when not zero)."""
    fields = tokens[0:1] + tokens[2:3]
    if (
        len(tokens) < 3
        or not tokens[1].is_symbol(":")
        or any(token.kind is not Kind.DIGITS for token in fields)
        or not 1 <= len(tokens[0].text) <= 2
        or len(tokens[2].text) != 2
    ):
        return tokens
    seconds, rest = None, tokens[3:]
    if rest[:1] and rest[0].is_symbol(":"):
        if len(rest) < 2 or rest[1].kind is not Kind.DIGITS or len(rest[1].text) != 2:
            return tokens
        seconds, rest = rest[1].text, rest[2:]
    half = join(rest[1:] if rest[:1] and rest[0].kind is Kind.SPACE else rest).lower()
    if not _is_half_of_day(half) or (not half and seconds is None):
        return tokens  # "3:45" may be a ratio
    hour = int(tokens[0].text)
    if half:
        if not 1 <= hour <= 12:
            return tokens
        hour = hour % 12 + (12 if half[0] == "p" else 0)
    shown = f"{hour}:{tokens[2].text}" + (f":{seconds}" if seconds not in (None, "00") else "")
    return tokenize(shown)


def _without_point_name(tokens: list[Token]) -> list[Token]:
    """ "P(2, -3)": a point's name before its coordinates is not part of it."""
    if not tokens or tokens[0].kind is not Kind.WORD or len(tokens[0].text) != 1:
        return tokens
    if not tokens[0].text.isupper():
        return tokens
    opening = skip_spaces(tokens, 1)
    inside = tokens[opening + 1 : -1]
    if (
        opening < len(tokens) - 1
        and tokens[opening].is_symbol("(")
        and tokens[-1].is_symbol(")")
        and not any("(" in token.text or ")" in token.text for token in inside)
        and any("," in token.text for token in inside)
    ):
        return tokens[opening:]
    return tokens


def _out_of(tokens: list[Token]) -> list[Token]:
    """ "1 in 36", "3 out of 4": a chance or a share written as a count."""
    words = tokens[::2]
    if (
        len(words) in (3, 4)
        and len(tokens) == 2 * len(words) - 1
        and all(token.kind is Kind.SPACE for token in tokens[1::2])
        and words[0].kind is Kind.DIGITS
        and words[-1].kind is Kind.DIGITS
        and [token.text for token in words[1:-1]] in (["in"], ["out", "of"])
    ):
        return tokenize(f"\\frac{{{words[0].text}}}{{{words[-1].text}}}")
    return tokens


def _sign_word(tokens: list[Token]) -> list[Token]:
    """ "minus 3", "negative 2.5" -> "-3", "-2.5"."""
    if (
        len(tokens) >= 3
        and tokens[0].kind is Kind.WORD
        and tokens[0].text.lower() in ("minus", "negative")
        and tokens[1].kind is Kind.SPACE
        and tokens[2].kind is Kind.DIGITS
    ):
        return [symbol("-"), *tokens[2:]]
    return tokens


def _choice(tokens: list[Token]) -> str | None:
    """ "(C)", "Option C", "Answer: C", "(C) is correct": a multiple-choice letter."""
    words = [token.text.lower() for token in without_spaces(tokens)]
    glued = next((word for word in _CHOICE_WORDS if words[:1] and words[0].startswith(word)), None)
    if glued is not None and len(words[0]) == len(glued) + 1:
        words[0] = words[0][len(glued) :]  # "OptionC"
    elif words[:1] and words[0] in _CHOICE_WORDS:
        words = words[2:] if words[1:2] == [":"] else words[1:]
    if words[:1] == ["("]:
        words = words[1:]
    if not words or len(words[0]) != 1 or words[0] not in "abcde":
        return None
    letter, rest = words[0], words[1:]
    if rest[:1] == [")"]:
        rest = rest[1:]
    if rest in ([], ["is", "correct"], ["is", "right"], ["is", "the", "answer"]):
        return letter.upper()
    return None


def _is_digit_ordinal(tokens: list[Token]) -> bool:
    """ "3rd", "21st": digits and an ordinal's suffix (``written_numbers.digit_ordinal``)."""
    return (
        len(tokens) >= 2
        and tokens[-1].kind is Kind.WORD
        and all(token.kind is Kind.DIGITS for token in tokens[:-1])
        and digit_ordinal(join(tokens)) is not None
    )


def _is_words(tokens: list[Token]) -> bool:
    """Words only (with spaces, hyphens and apostrophes between): "no solution"."""
    return (
        bool(tokens)
        and tokens[0].kind is Kind.WORD
        and all(
            token.kind in (Kind.WORD, Kind.SPACE) or token.is_symbol("-", "'") for token in tokens
        )
    )


def _braced_index(tokens: list[Token]) -> list[Token]:
    """A one-digit index after "_" or "^" before a number is braced ("\\log_2 3" is the
    logarithm of 3 to base 2, one expression): the number after it neither joins it nor
    becomes an entry."""
    if not any(token.text in ("_", "^") for token in tokens):
        return tokens
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        kept.append(token)
        index += 1
        if token.is_symbol("_", "^"):
            digit = skip_spaces(tokens, index)
            after = digit + 1
            if (
                digit < len(tokens)
                and tokens[digit].kind is Kind.DIGITS
                and len(tokens[digit].text) == 1
                and after + 1 < len(tokens)
                and tokens[after].kind is Kind.SPACE
                and tokens[after + 1].kind is Kind.DIGITS
            ):
                kept.extend((symbol("{"), tokens[digit], symbol("}")))
                index = after + 1
    return kept


def _spaced_numbers(tokens: list[Token]) -> list[Token]:
    """ "12 345" groups thousands with a space: one number. "10 24" is two: "10, 24"."""
    if not any(token.kind is Kind.SPACE for token in tokens):
        return tokens
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        starts_group = (
            token.kind is Kind.DIGITS
            and len(token.text) <= 3
            and not (kept and kept[-1].is_symbol("."))
        )
        groups = 0
        while starts_group and index + 2 * groups + 2 < len(tokens):
            space, digits = tokens[index + 2 * groups + 1], tokens[index + 2 * groups + 2]
            if (
                space.kind is not Kind.SPACE
                or digits.kind is not Kind.DIGITS
                or len(digits.text) != 3
            ):
                break
            groups += 1
        while groups:
            after = index + 2 * groups + 1
            if after < len(tokens) and tokens[after].is_symbol("."):
                groups -= 1
            else:
                break
        if groups:
            kept.append(
                Token(
                    Kind.DIGITS, "".join(t.text for t in tokens[index : index + 2 * groups + 1 : 2])
                )
            )
            index += 2 * groups + 1
            continue
        if (
            token.kind is Kind.SPACE
            and kept
            and kept[-1].kind is Kind.DIGITS
            and index + 1 < len(tokens)
            and tokens[index + 1].kind is Kind.DIGITS
        ):
            kept.extend((symbol(","), SPACE))
        else:
            kept.append(token)
        index += 1
    return kept


def _listed(tokens: list[Token]) -> list[Token]:
    """The tokens without spaces, but for one after each comma that lists numbers: "32, 349"
    is a list of two numbers, "32,349" one number, and the two never normalise alike; and
    one between a command and the letters after it, which would run into its name
    ("2\\pi r" is not "2\\pir")."""
    if not any(token.kind is Kind.SPACE for token in tokens):
        return tokens
    kept: list[Token] = []
    joined = False  # whether a space taken out leaves two tokens that run together
    for index, token in enumerate(tokens):
        if (
            token.is_symbol(",")
            and index
            and tokens[index - 1].kind is Kind.DIGITS
            and index + 1 < len(tokens)
            and tokens[index + 1].kind is Kind.SPACE
            and _signed_digits_at(tokens, index + 2)
        ):
            kept.extend((token, SPACE))
        elif token.kind is not Kind.SPACE:
            kept.append(token)
        elif _separates_command(tokens, index):
            kept.append(SPACE)
        elif kept and index + 1 < len(tokens) and run_together(kept[-1], tokens[index + 1]):
            joined = True
    return tokenize(join(kept)) if joined else kept


def _separates_command(tokens: list[Token], index: int) -> bool:
    """Whether the space at ``index`` stands between a command's name and letters."""
    return (
        0 < index < len(tokens) - 1
        and tokens[index - 1].named
        and tokens[index + 1].kind is Kind.WORD
    )


def _without_full_stop(tokens: list[Token]) -> list[Token]:
    end = len(tokens)
    while end and tokens[end - 1].is_symbol("."):
        end -= 1
    return tokens[:end]


def _signed_digits_at(tokens: list[Token], index: int) -> bool:
    if index < len(tokens) and tokens[index].is_symbol("+", "-"):
        index += 1
    return index < len(tokens) and tokens[index].kind is Kind.DIGITS


def _is_plain_decimal(text: str) -> bool:
    """ "12", "-0.5", "3.25": ASCII digits, maybe a minus before and a point between."""
    whole, point, fraction = text.removeprefix("-").partition(".")
    return (
        whole.isascii()
        and whole.isdigit()
        and (not point or (fraction.isascii() and fraction.isdigit()))
    )


# Each reader of an answer asks for its canonical form, and a group's completions share
# answers: each text is normalised once while it is in use.
@functools.lru_cache(maxsize=4096)
def normalize_answer(answer: str) -> str:
    """A canonical string for ``answer``; equal strings mean equal answers."""
    if _is_plain_decimal(answer):
        return answer  # "12", "-0.5": already canonical (the most common answers)
    return normalized(answer_tokens(answer))


def normalized(written: list[Token]) -> str:
    """``normalize_answer`` of an answer's tokens (``answer_tokens``)."""
    return join(canonical_tokens(written))


def canonical_tokens(written: list[Token]) -> list[Token]:
    """The tokens of an answer's canonical form (``normalized``), what the readers of a
    normalised answer read: the passes over ``written`` (``answer_tokens``), in order. Its
    text scans back into these tokens."""
    if len(written) <= 4 and _is_plain_decimal(join(written)):
        return written
    tokens = _without_trailing_backslash(written)
    tokens = _without_reason(_without_qualifier(_without_modulus(tokens)))
    tokens = _absolute_bound(_set_builder_condition(_presentation_dropped(tokens)))
    tokens = _spacing_as_space(_ellipsis(_thin_thousands(tokens)))
    for _ in range(3):  # \text{\textbf{x}} unwraps in two passes
        tokens = unwrap(tokens, _WRAPPERS)
    tokens = _raised_ordinal(_symbols_dropped(_degrees_dropped(tokens)))
    if tokens is not written:  # what was taken out may join what was around it
        tokens = rescan(tokens)
    tokens = _equals_word(tokens)
    tokens = _without_tuple_of_unknowns(_solutions_of_one_unknown(_membership(tokens)))
    tokens = _permutations(_without_word_note(_parenthesised_alternative(tokens)))
    tokens = _without_where_attained(_without_extremum_words(tokens))
    tokens = _chain_value(tokens)
    if [token.text for token in tokens].count("=") == 1:  # "k = 45, n = 2" keeps both names
        tokens = _without_leading_name(tokens)
    tokens = _between_bounds(_single_spaces(_one_spelling(tokens)))
    tokens = strip(_without_full_stop(_mixed_number(_percent_word(tokens))))
    tokens = _sign_word(_out_of(_without_point_name(_clock_time(_scaled(tokens)))))
    tokens = strip(_without_full_stop(_without_unit_words(tokens)))
    text = join(tokens)
    choice = _choice(tokens)
    if choice is not None and text not in CONSTANT_LETTERS:
        return [Token(Kind.WORD, choice)]
    if _is_words(tokens) or _is_digit_ordinal(tokens):
        word = _said_plainly(text.lower())
        named = _NAMED_SETS.get(word) or number_in_words(word)
        if named is None and word != text.lower():
            named = word
        return tokenize(named) if named else [Token(t.kind, t.text.lower()) for t in tokens]
    listed = _listed(_spaced_numbers(_braced_index(tokens)))
    named = _NAMED_SETS.get(join(listed))
    return listed if named is None else tokenize(named)


# The words after a tuple that say every order of it is an answer too.
_PERMUTATIONS = (
    ("and", "its", "permutations"),
    ("and", "all", "its", "permutations"),
    ("and", "all", "permutations"),
    ("and", "permutations"),
    ("up", "to", "permutation"),
    ("in", "any", "order"),
    ("in", "some", "order"),
)
_PERMUTATION_ENDS = frozenset(phrase[-1] for phrase in _PERMUTATIONS)
_MAX_PERMUTED = 5


def _permutations(tokens: list[Token]) -> list[Token]:
    """ "(1, 1, 2) and its permutations", "(1, 2, 3) in any order": a tuple and every
    other order of its entries, the list of them ("(1, 1, 2), (1, 2, 1), (2, 1, 1)"); a
    tuple of more than five entries is left as written."""
    last = rstrip(tokens)[-1:]
    if not last or last[0].text.lower() not in _PERMUTATION_ENDS:
        return tokens
    words = [token.text.lower() for token in tokens if token.kind is Kind.WORD]
    said = next((phrase for phrase in _PERMUTATIONS if tuple(words) == phrase), None)
    if said is None:
        return tokens
    first = next(index for index, token in enumerate(tokens) if token.kind is Kind.WORD)
    point = strip(tokens[:first])
    if len(point) < 2 or not point[0].is_symbol("(") or not point[-1].is_symbol(")"):
        return tokens
    entries = top_level_parts(point[1:-1], ",")
    if entries is None or not 2 <= len(entries) <= _MAX_PERMUTED:
        return tokens
    entries = [strip(entry) for entry in entries]
    orders = dict.fromkeys(tuple(join(entry) for entry in order) for order in permutations(entries))
    listed: list[Token] = []
    for order in orders:
        if listed:
            listed.extend((symbol(","), SPACE))
        listed.extend(tokenize("(" + ", ".join(order) + ")"))
    return listed


# What an answer in words may count or name after "no" or "infinitely many".
_COUNTED = frozenset(
    ("solution", "solutions", "root", "roots", "integer", "integers", "number", "numbers",
     "pair", "pairs", "triple", "triples", "value", "values", "prime", "primes", "such",
     "real", "positive", "negative", "natural", "rational", "integral", "of", "them")
)  # fmt: skip
_WINS = (("wins",), ("has", "a", "winning", "strategy"), ("can", "always", "win"))


def _said_plainly(phrase: str) -> str:
    """An answer in words said without the words around what it says: "there are infinitely
    many such primes" is "infinitely many", "there are no such integers", "no integer
    solutions" and "no such n exists" are "no solutions", "Bob wins" and "Bob has a winning
    strategy" are "bob". What is counted must be a word of ``_COUNTED`` or one letter;
    anything else stays as written ("no more than 3" is no such phrase)."""
    words = phrase.split(" ")
    if words[:2] in (["there", "are"], ["there", "is"], ["there", "exist"], ["there", "exists"]):
        words = words[2:]
    counted = words[2:] if words[:2] == ["infinitely", "many"] else None
    if counted is None and words[:1] == ["no"]:
        counted = words[1:]
    if counted and counted[-1] in ("exist", "exists"):
        counted = counted[:-1]
    if counted is not None and (
        counted and all(word in _COUNTED or (len(word) == 1 and word.isalpha()) for word in counted)
    ):
        return "infinitely many" if words[0] == "infinitely" else "no solutions"
    for win in _WINS:
        if len(words) == len(win) + 1 and tuple(words[1:]) == win and words[0].isalpha():
            return words[0]
    return " ".join(words) if words else phrase


_INEQUALITIES = frozenset(REVERSED_RELATION)


def _bound_value(tokens: list[Token]) -> str | None:
    """ "-1", "2.5", "-\\infty": a bound written with no letter, command or relation."""
    text = join(strip(tokens))
    if text in ("\\infty", "-\\infty"):
        return text
    if not text or any(ch in "<>=\\," or (ch.isascii() and ch.isalpha()) for ch in text):
        return None
    return text


def _bound(tokens: list[Token]) -> tuple[str, str, str] | None:
    """ "x \\ge -1" -> ("x", "\\ge", "-1"): the unknown, the relation, the bound."""
    part = strip(tokens)
    relations = [i for i, token in enumerate(part) if token.text in _INEQUALITIES]
    if len(part) < 3 or len(relations) != 1 or relations[0] == 0:
        return None
    at = relations[0]
    before, relation, after = strip(part[:at]), part[at].text, strip(part[at + 1 :])
    if len(before) == 1 and is_letter(before[0]):
        bound = _bound_value(after)
        return None if bound is None else (before[0].text, relation, bound)
    if len(after) == 1 and is_letter(after[0]):
        bound = _bound_value(before)
        return None if bound is None else (after[0].text, REVERSED_RELATION[relation], bound)
    return None


def _between_bounds(tokens: list[Token]) -> list[Token]:
    """ "x \\ge -1 and x < 4" -> "-1 \\le x < 4"; anything else unchanged. Only "and" joins
    them: "x < -2, x > 2" lists the two parts of a union."""
    joint = next(
        (
            index
            for index, token in enumerate(tokens)
            if index and (token.is_symbol("&") or (token.kind is Kind.WORD and token.text == "and"))
        ),
        None,
    )
    if joint is None:
        return tokens
    first, second = _bound(tokens[:joint]), _bound(tokens[joint + 1 :])
    if first is None or second is None or first[0] != second[0]:
        return tokens
    lower = [bound for bound in (first, second) if bound[1] in (">", "\\ge")]
    upper = [bound for bound in (first, second) if bound[1] in ("<", "\\le")]
    if len(lower) != 1 or len(upper) != 1:
        return tokens
    (name, low_relation, low), (_, high_relation, high) = lower[0], upper[0]
    low_value, high_value = parse_number(low), parse_number(high)
    if low_value and high_value and low_value.value >= high_value.value:
        return tokens  # "x > 2 and x < -2" holds nowhere: not a slip to correct here
    return tokenize(f"{low} {REVERSED_RELATION[low_relation]} {name} {high_relation} {high}")
