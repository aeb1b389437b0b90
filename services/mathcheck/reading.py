"""Read an answer once into a typed value (``answer_types``).

``read`` takes an answer as the front end of ``alignment.py`` wrote it (LaTeX) and tries
the readers in turn: an option letter with its value (``(C) 12``), named values
(``a = 2, b = 3``), solutions of a system (``x = 1, y = 2 or x = 3, y = 4``), an
expression with one ``\\pm``, an angle in degrees, a number in a base (``1011_2``),
inequalities in one unknown joined by "or" (``x < 1 or x > 3``, a union), one unknown and
its value (``x = 3``), a yes or a no before its reason, option letters chosen
(``A and C``), a ratio of numbers (``ratios.py``), a quantity with a unit of a known kind
(``units.py``), then the normalised string (``normalization.py``) as a plain number, an
option letter or words (a Roman numeral keeps that reading beside its value); anything
else is an ``Expr``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

from services.mathcheck.answer_types import (
    Angle,
    Answer,
    Assignment,
    Based,
    Choice,
    Expr,
    Function,
    Groups,
    Interval,
    Labelled,
    Matrix,
    Named,
    Number,
    Numbers,
    Options,
    PlusMinus,
    Relation,
    Roman,
    Seq,
    Set,
    Union,
    Word,
)
from services.mathcheck.normalization import normalize_answer, parse_number, strip_outer_delimiters
from services.mathcheck.number_words import roman_numeral
from services.mathcheck.ratios import read_ratio
from services.mathcheck.structures import Matrix as NumberMatrix
from services.mathcheck.structures import (
    NumberSet,
    Sequence,
    parse_structure,
    split_top_level,
    union_parts,
)
from services.mathcheck.units import read_quantity
from services.mathcheck.vocabulary import CHOICE_LETTER, ONE_CHOICE_LETTER, TEXT_FONT

# "x = 2": one unknown (one letter) and one value; "x = 2 or x = 3" and "x = 1, y = 2" list
# several, and stay whole.
_ONE_UNKNOWN = re.compile(r"^\s*\$?\s*([a-zA-Z])\s*=\s*([^=,;]*)$")
_LIST_WORDS = re.compile(r"\\text|\bor\b|\band\b")
# "No, it is not possible", "Yes: 91 = 7 \\cdot 13": a yes or a no, then the reason.
_YES_OR_NO = re.compile(r"^\s*(?:\\text\{\s*)?(yes|no)\b\s*\}?\s*[,.;:!]", re.IGNORECASE)
# "A and C", "(A), (C)", "AC": the options chosen in a question with several right answers.
_OPTION_LIST = re.compile(
    rf"^\(?{CHOICE_LETTER}\)?(?:\s*(?:,|\band\b|&)?\s*\(?{CHOICE_LETTER}\)?)+$"
)
# "\\text{XL}", "\\mathrm{FF}_{16}": a font around letters or digits is presentation.
_TEXT = re.compile(rf"\\(?:{TEXT_FONT})\s*\{{([^{{}}]*)\}}")
_SEPARATED = re.compile(r"[,&]|\band\b")
# Normalisation lower-cases words; a single letter may be a variable, so it is no word.
_WORDS = re.compile(r"^[a-z][a-z \-']*$")
# The canonical form of the real numbers by name (``normalization._NAMED_SETS``).
REAL_LINE = "\\mathbb{R}"


def read(text: str) -> Answer:
    """The typed value of one answer."""
    return (
        _labelled(text)
        or _function(text)
        or _named(text)
        or _groups(text)
        or _plus_minus(text)
        or _angle(text)
        or _based(text)
        or _unit_vectors(text)
        or _alternatives(text)
        or _written(text)
    )


# "(C) 12", "\\text{(C)} 12", "C) 12", "C. 12", "(C): 12": an option letter, then its value.
_LABELLED_CHOICE = re.compile(
    r"^\s*\$?\s*(?:\\text(?:bf)?\s*\{\s*)?"
    rf"(?:\(({CHOICE_LETTER})\)|({CHOICE_LETTER})[.):])"
    r"\s*\}?\s*\$?\s*:?\s*(?P<value>\S.*?)\s*$"
)
_ANOTHER_LABEL = re.compile(rf"\(\s*{CHOICE_LETTER}\s*\)")


def _labelled(text: str) -> Labelled | None:
    match = _LABELLED_CHOICE.match(text)
    if match is None or _ANOTHER_LABEL.search(match.group("value")):
        return None
    if not match.group("value").strip("}$ "):
        return None  # "\\text{(C)}": the letter alone, its closing brace is not a value
    letter = match.group(1) or match.group(2)
    value = read(match.group("value"))
    return Labelled(letter, value, f"({letter}) {value.canonical}")


# What may follow a function's letter in its name: nothing, or its inverse's exponent.
_FUNCTION_MARKS = ("", "^{-1}", "^-1")
# Words that start a qualifier after a formula: "cx for some constant c", "x where ...".
_QUALIFIERS = ("for some", "for any", "for all", "for every", "for each", "where ")
# Spacing and openings left before a qualifier: "cx \\text{ for some constant } c".
_BEFORE_QUALIFIER = ("\\text{", "\\mbox{", "\\quad", "\\qquad", "\\,", "\\;", "\\ ", ",")


def _function(text: str) -> Function | None:
    """ "g(t) = 3t + 1": a function's letter, its argument (one letter) and its formula,
    which must be one value (no second "=", no list); a qualifier after the formula ("for
    some constant c") is dropped."""
    head, equals, body = strip_outer_delimiters(text).partition("=")
    if not equals or "=" in body:
        return None
    name, opening, argument = head.strip().partition("(")
    name, argument = name.strip(), argument.strip()
    if (
        not opening
        or not argument.endswith(")")
        or not name[:1].isascii()
        or not name[:1].isalpha()
        or name[1:].replace(" ", "") not in _FUNCTION_MARKS
    ):
        return None
    argument = argument[:-1].strip()
    if len(argument) != 1 or not argument.isascii() or not argument.isalpha():
        return None
    formula, qualifier = _without_qualifier(body)
    parts = split_top_level(formula, ",")
    if not formula or parts is None or len(parts) != 1:
        return None
    value = read(formula)
    canonical = f"{name}({argument})={value.canonical}"
    constants = _letters_named(qualifier) - {argument}
    if constants:
        canonical += " for constants " + ", ".join(sorted(constants))
    return Function(name, argument, value, formula, canonical, constants)


def _letters_named(qualifier: str) -> frozenset[str]:
    """The names of one letter in a qualifier: "for some constant $c$" names c, "where k
    is a constant" names k (and the article a, which a formula without a does not use)."""
    words = "".join(ch if ch.isascii() and ch.isalpha() else " " for ch in qualifier).split()
    return frozenset(word for word in words if len(word) == 1)


def _without_qualifier(body: str) -> tuple[str, str]:
    """The formula and what is said after it: "cx \\text{ for some constant } c" is "cx"
    and "for some constant } c" (empty when nothing is)."""
    lowered = body.lower()
    cuts = [index for word in _QUALIFIERS if (index := lowered.find(word)) > 0]
    if not cuts:
        return body.strip(), ""
    kept = body[: min(cuts)].rstrip()
    while (ending := next((e for e in _BEFORE_QUALIFIER if kept.endswith(e)), None)) is not None:
        kept = kept[: -len(ending)].rstrip()
    return kept.strip(), body[min(cuts) :]


_NAME = r"[a-zA-Z](?:_\{?\w+\}?)?"
_ASSIGNMENT = re.compile(rf"^\s*({_NAME})\s*=\s*([^=]+?)\s*$")
_NAMED_TUPLE = re.compile(rf"^\s*\(\s*({_NAME}(?:\s*,\s*{_NAME})+)\s*\)\s*=\s*\((.+)\)\s*$")
_AND = re.compile(r"\s*(?:\\text\{\s*and\s*\}|\band\b)\s*")
NamedValues = tuple[tuple[str, str], ...]


def _named_values(text: str) -> NamedValues | None:
    """ "a = 2, b = 3" and "(a, b) = (2, 3)" -> (("a", "2"), ("b", "3")); distinct names only."""
    text = strip_outer_delimiters(text)
    named = _NAMED_TUPLE.match(text)
    if named is not None:
        names = [name.strip() for name in named.group(1).split(",")]
        values = split_top_level(named.group(2), ",")
        if values is None or len(values) != len(names):
            return None
        pairs = tuple(zip(names, (value.strip() for value in values), strict=True))
    else:
        parts = split_top_level(_AND.sub(",", text), ",")
        if parts is None or len(parts) < 2:
            return None
        matches = [_ASSIGNMENT.match(part) for part in parts]
        if any(match is None for match in matches):
            return None
        pairs = tuple((match.group(1), match.group(2)) for match in matches if match is not None)
    distinct = {name for name, _ in pairs}
    if len(distinct) != len(pairs) or len({name[0] for name in distinct}) == 1:
        return None  # "x = 1, x = 2" and "x_1 = 1, x_2 = 2" list the roots of one unknown
    return pairs


def _named(text: str) -> Named | None:
    values = _named_values(text)
    if values is None:
        return None
    written = _written(text)
    return Named(values, written, written.canonical)


_GROUP_SEPARATOR = re.compile(r"\s*(?:;|\\text\{\s*(?:or|and)\s*\}|,?\s*\b(?:or|and)\b)\s*")


def _groups(text: str) -> Groups | None:
    """ "x = 1, y = 2 or x = 3, y = 4": solutions of a system, the same names in each."""
    segments = _GROUP_SEPARATOR.split(strip_outer_delimiters(text))
    if len(segments) < 2:
        return None
    groups: list[NamedValues] = []
    for segment in segments:
        group = _named_values(segment)
        if group is None:
            return None
        groups.append(group)
    if len({frozenset(name for name, _ in group) for group in groups}) != 1:
        return None
    written = _written(text)
    return Groups(tuple(groups), written, written.canonical)


def tuple_entries(canonical: str) -> list[str] | None:
    """ "(2,3)" or "2,3" -> ["2", "3"]: the entries of a tuple or a bare list."""
    if canonical.startswith("(") and canonical.endswith(")"):
        canonical = canonical[1:-1]
    if "=" in canonical:
        return None
    parts = split_top_level(canonical, ",")
    if parts is None or len(parts) < 2:
        return None
    return [part.strip() for part in parts]


def tuple_list(canonical: str, arity: int) -> list[str] | None:
    """ "(3,4),(1,2)" -> ["(3,4)", "(1,2)"] when every tuple has ``arity`` entries."""
    parts = split_top_level(canonical, ",")
    if parts is None or len(parts) < 2:
        return None
    tuples = [part.strip() for part in parts]
    for item in tuples:
        entries = split_top_level(item[1:-1], ",") if item[:1] + item[-1:] == "()" else None
        if entries is None or len(entries) != arity:
            return None
    return tuples


PLUS_MINUS = re.compile(r"\\pm\b|±")
_SOLVED_FOR = re.compile(r"^\s*[a-zA-Z]\s*=\s*")


def _plus_minus(text: str) -> PlusMinus | None:
    """ "\\frac{3 \\pm \\sqrt{5}}{2}": both values, "\\frac{3 + \\sqrt{5}}{2}, \\frac{3 -
    \\sqrt{5}}{2}", beside the text as written."""
    signed = _SOLVED_FOR.sub("", strip_outer_delimiters(text), count=1)
    if len(PLUS_MINUS.findall(signed)) != 1 or "\\mp" in signed or "," in signed or "=" in signed:
        return None
    both = read(f"{PLUS_MINUS.sub(' + ', signed)}, {PLUS_MINUS.sub(' - ', signed)}")
    written = _written(text)
    return PlusMinus(both, written, written.canonical)


_DEGREE_MARK = re.compile(
    r"\^\s*\{?\s*\\circ\s*\}?|°|\\degree\b|(?<=\d)\s*(?:\\text\{\s*)?degrees?\b"
)
PI = re.compile(r"\\pi\b|π")


def _angle(text: str) -> Angle | None:
    """ "30^\\circ" in radians, "\\frac{\\pi}{6}"; a list of angles entry by entry."""
    if _DEGREE_MARK.search(text) is None or PI.search(text) is not None:
        return None
    converted: list[str] = []
    for piece in text.split(","):
        if not _DEGREE_MARK.search(piece):
            return None
        number = parse_number(normalize_answer(piece))
        if number is None or number.percent or number.decimal_places is not None:
            return None
        converted.append(_pi_times(number.value / 180))
    written = _written(text)
    return Angle(read(", ".join(converted)), written, f"{written.canonical}^\\circ")


def _pi_times(value: Fraction) -> str:
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    numerator, denominator = abs(value.numerator), value.denominator
    top = "\\pi" if numerator == 1 else f"{numerator}\\pi"
    return sign + (top if denominator == 1 else f"\\frac{{{top}}}{{{denominator}}}")


# "1011_2", "A3_{16}": digits in a base given as a subscript.
_IN_BASE = re.compile(r"^\s*([0-9A-Za-z]+)\s*_\s*\{?\s*(\d{1,2})\s*\}?\s*$")


def _based(text: str) -> Based | None:
    """ "1011_2": the digits 1011 and the value 11."""
    match = _IN_BASE.match(_unwrapped(text))
    # "a_{16}" is a term of a sequence, not the digit a in base 16.
    if match is None or not 2 <= int(match.group(2)) <= 36 or len(match.group(1)) < 2:
        return None
    digits, base = match.group(1), int(match.group(2))
    try:
        value = int(digits, base)
    except ValueError:
        return None
    return Based(digits, value, f"{digits.upper()}_{{{base}}}")


# "\\mathbf{i}", "\\hat{j}", "\\vec k", "\\hat{\\imath}": a unit vector along an axis.
_UNIT_VECTOR = re.compile(
    r"\\(?:mathbf|hat|vec|boldsymbol|bm)\s*(?:\{\s*\\?([ijk])(?:math)?\s*\}|\s+\\?([ijk])(?:math)?\b)"
)
# One term of a sum of unit vectors: a sign, a coefficient with no sign in it, the axis.
_COMPONENT = re.compile(r"\s*([+-])?\s*([^@+\-]*?)\s*(?:\\cdot|\*)?\s*@([ijk])\s*")
_AXES = "ijk"


def _unit_vectors(text: str) -> Answer | None:
    """ "3\\mathbf{i} - \\mathbf{j} + 2\\mathbf{k}": the vector (3, -1, 2), read as a
    tuple; two components or more, each axis once (in three dimensions when a k is
    written, else in two)."""
    marked = _UNIT_VECTOR.sub(
        lambda match: "@" + (match.group(1) or match.group(2)), strip_outer_delimiters(text)
    )
    if marked.count("@") < 2:
        return None
    components: dict[str, str] = {}
    position = 0
    while position < len(marked):
        term = _COMPONENT.match(marked, position)
        if term is None or term.end() == position or (position and term.group(1) is None):
            return None
        sign, coefficient, axis = term.groups()
        if axis in components:
            return None
        components[axis] = ("-" if sign == "-" else "") + (coefficient or "1")
        position = term.end()
    axes = _AXES if "k" in components else _AXES[:2]
    return read("(" + ", ".join(components.get(axis, "0") for axis in axes) + ")")


# "x < 1 or x > 3", "x < 1 \\text{ or } x > 3", "x \\le -1 \\lor x \\ge 3": the parts of a union.
_OR = re.compile(r"\s*(?:\\text\{\s*or\s*\}|,?\s*\bor\b|\\lor\b|\\vee\b)\s*")


def _alternatives(text: str) -> Union | None:
    """ "x < 1 or x > 3": inequalities in one unknown joined by "or" say the union of their
    intervals, "(-\\infty, 1) \\cup (3, \\infty)"; None unless every part is one."""
    parts = _OR.split(strip_outer_delimiters(text))
    if len(parts) < 2:
        return None
    values = [read_normalized(normalize_answer(part)) for part in parts]
    relations = [value for value in values if isinstance(value, Relation)]
    if len(relations) != len(values) or len({relation.variable for relation in relations}) != 1:
        return None
    intervals = tuple(relation.interval.ends for relation in relations)
    return Union(intervals, " \\cup ".join(relation.canonical for relation in relations))


def _written(text: str) -> Answer:
    """The typed value of an answer that is none of the notations above."""
    unknown = _ONE_UNKNOWN.match(text)
    if unknown is not None and _LIST_WORDS.search(text) is None:
        value = read(unknown.group(2))
        return Assignment(unknown.group(1), value, f"{unknown.group(1)}={value.canonical}")
    verdict = _YES_OR_NO.match(text)
    if verdict is not None:
        word = verdict.group(1).lower()
        return Word(word)
    written = read_ratio(text) or read_quantity(text) or _plain(text)
    return _options(text, written) or written


def _plain(text: str) -> Answer:
    written = read_normalized(normalize_answer(text))
    roman = roman_numeral(_unwrapped(text))
    return written if roman is None else Roman(roman, written, written.canonical)


def _options(text: str, written: Answer) -> Options | None:
    bare = _unwrapped(text)
    if _OPTION_LIST.match(bare) is None:
        return None
    letters = frozenset(re.findall(CHOICE_LETTER, bare))
    if _SEPARATED.search(text) is None:  # "CD": also a numeral, or a segment's name
        return Options(letters, False, written, written.canonical)
    # Named as a set, apart from one letter: "A, A" is not the option letter "A".
    return Options(letters, True, written, "options " + ", ".join(sorted(letters)))


def _unwrapped(text: str) -> str:
    """ "$\\text{XL}$" -> "XL": the answer without delimiters and fonts."""
    return _TEXT.sub(r"\1", strip_outer_delimiters(text)).strip()


def read_normalized(canonical: str) -> Answer:
    """The typed value of an answer already normalised: a number, a letter, words or an
    expression (the name of an unknown is gone by then)."""
    parsed = parse_number(canonical)
    if parsed is not None:
        return Number(parsed, canonical)
    if ONE_CHOICE_LETTER.match(canonical):
        return Choice(canonical)
    if len(canonical) > 1 and _WORDS.match(canonical):
        return Word(canonical)
    if canonical == REAL_LINE:
        # The real numbers are the interval (-\\infty, \\infty): one value, whichever is
        # written ("all real numbers", "x \\in \\mathbb{R}" and the interval itself).
        return Interval(Sequence("(", ")", (float("-inf"), float("inf"))), canonical)
    return _structure(canonical) or _union(canonical) or _collection(canonical) or Expr(canonical)


def _structure(canonical: str) -> Interval | Relation | Matrix | Numbers | None:
    """Plain numbers in brackets, the interval an inequality in one unknown says, a matrix,
    or a set or bare list of exact numbers (``structures.py`` reads them)."""
    structure = parse_structure(canonical)
    if isinstance(structure, NumberMatrix):
        return Matrix(structure, canonical)
    if isinstance(structure, NumberSet):
        return Numbers(structure, canonical)
    if not isinstance(structure, Sequence):
        return None
    interval = Interval(replace(structure, variable=None), canonical)
    if structure.variable is None:
        return interval
    return Relation(structure.variable, interval, canonical)


def _union(canonical: str) -> Union | None:
    parts = union_parts(canonical)
    return None if parts is None else Union(parts, canonical)


_SET_BRACES = re.compile(r"^\\\{(.*)\\\}$")


def _collection(canonical: str) -> Seq | Set | None:
    """A tuple, interval or set whose entries are read one by one; None for one of plain
    numbers (``structures.py`` compares those exactly) and for anything else."""
    if "," not in canonical or parse_structure(canonical) is not None:
        return None
    braced = _SET_BRACES.match(canonical)
    bracketed = canonical[:1] in "([" and canonical[-1:] in ")]"
    inner = braced.group(1) if braced else canonical[1:-1] if bracketed else canonical
    parts = split_top_level(inner, ",")
    if parts is None or len(parts) < 2 or not all(part.strip() for part in parts):
        return None
    items = tuple(read_normalized(part.strip()) for part in parts)
    if bracketed and braced is None:
        return Seq(canonical[0], canonical[-1], items, canonical)
    return Set(items, canonical)


__all__ = ["PI", "PLUS_MINUS", "read", "read_normalized", "tuple_entries", "tuple_list"]
