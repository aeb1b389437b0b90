"""Sets, tuples, intervals and matrices whose entries are plain numbers, read and compared
exactly; and the terms of a sum.

These answers are common in math RL data and cost the LaTeX parser tens of milliseconds
each, yet comparing them needs nothing symbolic: ``parse_structure`` reads each entry with
``parse_number`` (``reading.py`` makes typed answers of what it reads) and the functions
below compare the shapes for the rules of ``comparison.py``. Anything with a non-numeric
entry (``\\sqrt{2}``, ``x``), a set with rounded decimals, or an ambiguous shape is not
read here. ``same_terms`` tells one sum written with its terms in another order.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from services.mathcheck.latex_tokens import Kind, tokenize
from services.mathcheck.normalization import (
    ParsedNumber,
    numbers_match,
    parse_number,
    significant_digits,
    written_as_rounding,
)
from services.mathcheck.vocabulary import REVERSED_RELATION

Entry = ParsedNumber | float  # float only for ±infinity


@dataclass(frozen=True)
class NumberSet:
    """A set, or a bare list of solutions ("-1, 1, 3", "(9, 3), (6, 3)"): order-free."""

    values: frozenset[Fraction | tuple[Fraction, ...]]


@dataclass(frozen=True)
class Sequence:
    """A tuple, point or interval: brackets matter ("(0,1]" is not "[0,1]").

    ``variable`` names the unknown when the interval was written as a relation
    ("x \\ge 5" is ``[5, \\infty)`` in x).
    """

    opening: str
    closing: str
    entries: tuple[Entry, ...]
    variable: str | None = None


@dataclass(frozen=True)
class Matrix:
    rows: tuple[tuple[ParsedNumber, ...], ...]


@dataclass(frozen=True)
class SolutionGroups:
    """Solutions of a system, each a group of assignments: "p = 5, q = 2 and p = 7, q = 2".

    Order-free within a group and across groups.
    """

    groups: frozenset[frozenset[tuple[str, Fraction]]]


Structure = NumberSet | Sequence | Matrix | SolutionGroups

_INFINITY = {"\\infty": float("inf"), "+\\infty": float("inf"), "-\\infty": float("-inf")}
_MATRIX_ENVIRONMENTS = frozenset(
    ("pmatrix", "bmatrix", "Bmatrix", "matrix", "smallmatrix", "array")
)


def split_top_level(text: str, separator: str) -> list[str] | None:
    parts: list[str] = []
    depth = 0
    start = 0
    for index, char in enumerate(text):
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
            if depth < 0:
                return None
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    if depth != 0:
        return None
    parts.append(text[start:])
    return parts


def _number(text: str) -> ParsedNumber | None:
    parsed = parse_number(text)
    # Percentages have two readings (50% ~ 50 ~ 0.5): sets of them go to the symbolic path.
    if parsed is None or parsed.percent:
        return None
    return parsed


def _entries(text: str) -> tuple[Entry, ...] | None:
    parts = split_top_level(text, ",")
    if parts is None:
        return None
    entries: list[Entry] = []
    for part in parts:
        if part in _INFINITY:
            entries.append(_INFINITY[part])
            continue
        value = _number(part)
        if value is None:
            return None
        entries.append(value)
    return tuple(entries)


def _matrix_body(text: str) -> str | None:
    """The cells of ``\\begin{pmatrix} ... \\end{pmatrix}`` (maybe in brackets, an array
    maybe with its column spec): the text between, rows and all; None for anything else."""
    if text[:1] in ("(", "["):
        text = text[1:]
    if text[-1:] in (")", "]"):
        text = text[:-1]
    if not text.startswith("\\begin{"):
        return None
    name, closing, body = text[len("\\begin{") :].partition("}")
    end = f"\\end{{{name}}}"
    if not closing or name not in _MATRIX_ENVIRONMENTS or not body.endswith(end):
        return None
    body = body[: -len(end)]
    if body.startswith("{"):
        spec, brace, rest = body[1:].partition("}")
        if brace and set(spec) <= set("lcr|"):
            body = rest
    return body


def matrix_rows(normalized: str) -> list[list[str]] | None:
    """The cells of a matrix, row by row: a matrix environment (``\\begin{pmatrix} ...
    \\end{pmatrix}``, maybe in brackets, an array maybe with its column spec) or a list of
    its rows (``[[1, 2], [3, 4]]``); None for anything else."""
    body = _matrix_body(normalized)
    if body is not None:
        body = body.strip().removesuffix("\\\\")
        return [row.split("&") for row in body.split("\\\\")]
    return _nested_rows(normalized)


def parse_structure(normalized: str) -> Structure | None:
    """The set, sequence or matrix a normalised answer denotes, if all entries are numbers."""
    rows = matrix_rows(normalized)
    if rows is not None:
        return number_matrix(rows)
    if normalized.startswith("\\{") and normalized.endswith("\\}"):
        return _collection(normalized[2:-2])
    if len(normalized) >= 2 and normalized[0] in "([" and normalized[-1] in ")]":
        entries = _entries(normalized[1:-1])
        if entries is not None and len(entries) >= 2:
            return Sequence(normalized[0], normalized[-1], entries)
    relation = _relation(normalized)
    if relation is not None:
        return relation
    groups = _solution_groups(normalized)
    if groups is not None:
        return groups
    parts = split_top_level(normalized, ",")
    # "32,349" and "1,5" are numbers (thousands separator, decimal comma), not lists.
    if parts is not None and len(parts) >= 2 and parse_number(normalized) is None:
        return _collection(normalized)
    return None


def _groups_text(normalized: str) -> list[str]:
    """The groups of assignments in ``normalized``: separated by ";" or by "and" / "or"
    between a value's end (a digit or a brace) and the next name (normalisation has
    dropped the spaces: "p=5,q=2andp=7,q=2")."""
    tokens = tokenize(normalized)
    groups: list[str] = [""]
    for index, token in enumerate(tokens):
        if token.is_symbol(";"):
            groups.append("")
            continue
        if (
            token.kind is Kind.WORD
            and index
            and (tokens[index - 1].kind is Kind.DIGITS or tokens[index - 1].is_symbol("}"))
        ):
            joint = next((word for word in ("and", "or") if token.text.startswith(word)), None)
            if joint is not None and len(token.text) > len(joint):
                groups.append(token.text[len(joint) :])
                continue
        groups[-1] += token.text
    return groups


def _assignment(text: str) -> tuple[str, str] | None:
    """ "x_1=5" -> ("x_1", "5"): a name and the one value it is given."""
    name, equals, value = text.partition("=")
    if not equals or not value or "=" in value or not _is_name(name):
        return None
    return name, value


def _is_name(text: str) -> bool:
    """ "x", "x_1", "x_{12}": the name of an unknown."""
    if not text[:1].isascii() or not text[:1].isalpha():
        return False
    if len(text) == 1:
        return True
    if text[1] != "_":
        return False
    index = text[2:]
    if index.startswith("{"):
        index = index[1:]
    if index.endswith("}"):
        index = index[:-1]
    return bool(index) and all(ch.isalnum() or ch == "_" for ch in index)


def assignment_groups(normalized: str) -> tuple[tuple[tuple[str, str], ...], ...] | None:
    """Groups of "name = value" assignments, each name once in a group and every group
    naming the same unknowns: "p=5,q=2andp=7,q=2" -> ((("p", "5"), ("q", "2")), ...)."""
    if "=" not in normalized:
        return None
    groups: list[tuple[tuple[str, str], ...]] = []
    for text in _groups_text(normalized):
        parts = split_top_level(text, ",")
        if parts is None:
            return None
        assignments = [_assignment(part.strip()) for part in parts]
        group = tuple(assignment for assignment in assignments if assignment is not None)
        if len(group) != len(parts) or len({name for name, _ in group}) != len(group):
            return None
        groups.append(group)
    if len({frozenset(name for name, _ in group) for group in groups}) != 1:
        return None
    return tuple(groups)


def _solution_groups(normalized: str) -> SolutionGroups | None:
    """Groups of "name = exact number" assignments, every group naming the same unknowns."""
    groups = assignment_groups(normalized)
    if groups is None:
        return None
    solutions: set[frozenset[tuple[str, Fraction]]] = set()
    for group in groups:
        values = [_number(value) for _, value in group]
        exact = [value for value in values if value is not None and exact_entry(value)]
        if len(exact) != len(group):
            return None
        solutions.add(
            frozenset((name, value.value) for (name, _), value in zip(group, exact, strict=True))
        )
    return SolutionGroups(frozenset(solutions))


def _element(text: str) -> Fraction | tuple[Fraction, ...] | None:
    """A set element that can only equal itself: an exact number or a tuple of them."""
    text = text.strip()
    if len(text) >= 2 and text[0] == "(" and text[-1] == ")":
        entries = _entries(text[1:-1])
        if entries is None or len(entries) < 2 or not all(map(exact_entry, entries)):
            return None
        return tuple(e.value for e in entries if isinstance(e, ParsedNumber))
    number = _number(text)
    return number.value if number is not None and exact_entry(number) else None


def _collection(text: str) -> NumberSet | None:
    parts = split_top_level(text, ",")
    if parts is None:
        return None
    elements = [_element(part) for part in parts]
    if any(element is None for element in elements):
        return None
    return NumberSet(frozenset(element for element in elements if element is not None))


_OPERATORS = ("<", ">", "\\le", "\\ge")


def _bound(text: str) -> Entry | None:
    """A bound of an interval: a number, or an infinity (no letter, command or relation)."""
    if text in ("\\infty", "-\\infty"):
        return _INFINITY[text]
    if not text or any(ch in "<>=\\" or (ch.isascii() and ch.isalpha()) for ch in text):
        return None
    return _number(text)


def _relation_parts(normalized: str) -> list[str] | None:
    """ "-1<x\\le2" -> ["-1", "<", "x", "\\le", "2"]: the sides and relations of a chain
    of inequalities, as written (spaces left out); None when it holds no relation."""
    parts: list[str] = [""]
    for token in tokenize(normalized):
        if token.text in _OPERATORS and token.kind is not Kind.WORD:
            parts.extend((token.text, ""))
        elif token.kind is not Kind.SPACE:
            parts[-1] += token.text
    return parts if len(parts) > 1 else None


def _is_variable(text: str) -> bool:
    return len(text) == 1 and text.isascii() and text.isalpha()


def _relation(normalized: str) -> Sequence | None:
    """The interval a relation in one unknown describes: "x\\ge5" is [5, \\infty) in x."""
    variable, member, interval_text = normalized[:1], normalized[1:4], normalized[4:]
    bracketed = interval_text[:1] in ("(", "[") and interval_text[-1:] in (")", "]")
    if _is_variable(variable) and member == "\\in" and bracketed:
        interval = parse_structure(interval_text)
        if not isinstance(interval, Sequence) or len(interval.entries) != 2:
            return None
        return Sequence(interval.opening, interval.closing, interval.entries, variable)
    parts = _relation_parts(normalized)
    if parts is None:
        return None
    if len(parts) == 5:
        low_text, low_relation, variable, high_relation, high_text = parts
        if not ({low_relation, high_relation} - {">", "\\ge"}):
            # "3 > x \\ge -2" is "-2 \\le x < 3".
            low_text, high_text = high_text, low_text
            low_relation = REVERSED_RELATION[parts[3]]
            high_relation = REVERSED_RELATION[parts[1]]
        if not _is_variable(variable) or {low_relation, high_relation} - {"<", "\\le"}:
            return None
        low, high = _bound(low_text), _bound(high_text)
        if low is None or high is None:
            return None
        opening = "(" if low_relation == "<" else "["
        closing = ")" if high_relation == "<" else "]"
        return Sequence(opening, closing, (low, high), variable)
    if len(parts) != 3:
        return None
    if _is_variable(parts[0]):
        variable, operator, text = parts
    elif _is_variable(parts[2]):
        text, operator, variable = parts
        operator = REVERSED_RELATION[operator]
    else:
        return None
    bound = _bound(text)
    if bound is None or isinstance(bound, float):
        return None
    strict = operator in "<>"
    if operator in (">", "\\ge"):
        return Sequence("(" if strict else "[", ")", (bound, float("inf")), variable)
    return Sequence("(", ")" if strict else "]", (float("-inf"), bound), variable)


def exact_entry(entry: Entry) -> bool:
    """An entry that can only equal its own value (no rounded decimal, no infinity)."""
    if not isinstance(entry, ParsedNumber):
        return False
    places = entry.decimal_places
    return places is None or not written_as_rounding(
        places, significant_digits(entry.value, places)
    )


def _entries_match(left: Entry, right: Entry) -> bool:
    if isinstance(left, ParsedNumber) and isinstance(right, ParsedNumber):
        return numbers_match(left, right)
    return left == right


def _nested_rows(normalized: str) -> list[list[str]] | None:
    """ "[[1, 2], [3, 4]]": a matrix written as a list of its rows, the cells of each."""
    inner = normalized[1:-1].strip()
    if not (
        normalized[:1] == "[" and normalized[-1:] == "]" and inner[:1] == "[" and inner[-1:] == "]"
    ):
        return None
    rows_text = split_top_level(normalized[1:-1], ",")
    if rows_text is None:
        return None
    rows = [row.strip() for row in rows_text]
    if not all(row.startswith("[") and row.endswith("]") for row in rows):
        return None
    return [row[1:-1].split(",") for row in rows]


def number_matrix(rows: list[list[str]]) -> Matrix | None:
    """The matrix of these cells, when every cell is a number and the rows are one length."""
    parsed: list[tuple[ParsedNumber, ...]] = []
    for row in rows:
        cells = [_number(cell) for cell in row]
        if any(cell is None for cell in cells):
            return None
        parsed.append(tuple(cell for cell in cells if cell is not None))
    if len({len(row) for row in parsed}) != 1:
        return None
    return Matrix(tuple(parsed))


def matrices_equal(left: Matrix, right: Matrix) -> bool:
    """The same shape and the same entries, as numbers."""
    if [len(row) for row in left.rows] != [len(row) for row in right.rows]:
        return False
    return all(
        all(map(_entries_match, mine, theirs))
        for mine, theirs in zip(left.rows, right.rows, strict=True)
    )


def vector_against(matrix: Matrix, other: Sequence) -> Sequence | None:
    """A column or row vector against a tuple, or a list in square brackets, of plain
    numbers: its entries as a list where the other is a list of exact numbers ("[1, 2]",
    as Python and NumPy users write vectors), else as a tuple; None for a matrix that is
    no vector and against an inequality."""
    vector = _as_tuple(matrix)
    if not isinstance(vector, Sequence) or other.variable is not None:
        return None
    if (other.opening, other.closing) == ("[", "]") and all(map(exact_entry, other.entries)):
        return Sequence("[", "]", vector.entries)
    return vector


def vector_against_list(matrix: Matrix, listed: str) -> tuple[Sequence, Sequence] | None:
    """A column or row vector against a bare list of exact numbers ("1, 2"; normalised), as
    Python and NumPy users write vectors: both as lists, the other's entries in the order
    written; None for a matrix that is no vector and for any other list."""
    vector = _as_tuple(matrix)
    entries = _entries(listed) if listed[:1] not in ("(", "[", "\\") else None
    if not isinstance(vector, Sequence) or entries is None or not all(map(exact_entry, entries)):
        return None
    return Sequence("[", "]", vector.entries), Sequence("[", "]", entries)


def sequences_equal(left: Sequence, right: Sequence) -> bool | None:
    """Two tuples, intervals or relations of plain numbers, entry by entry; None for
    relations in two unknowns, and for a relation against a tuple of other than two."""
    if left.variable is not None and right.variable is not None:
        if left.variable != right.variable:
            return None  # "x > 2" vs "y > 2": the symbolic engine decides
    elif (left.variable is None) != (right.variable is None) and (
        len(left.entries) != 2 or len(right.entries) != 2
    ):
        return None
    if len(left.entries) != len(right.entries):
        return False
    # Brackets tell an interval's ends; a triple in square brackets is a point or vector.
    if len(left.entries) == 2 and _interval_brackets(left) != _interval_brackets(right):
        return False
    return all(map(_entries_match, left.entries, right.entries))


def union_parts(normalized: str) -> tuple[Sequence, ...] | None:
    """ "(-\\infty,2)\\cup(3,\\infty)" -> its intervals, each two plain ends in brackets."""
    if "\\cup" not in normalized:
        return None
    parts: list[Sequence] = []
    for text in normalized.split("\\cup"):
        part = parse_structure(text.strip())
        if not isinstance(part, Sequence) or part.variable is not None or len(part.entries) != 2:
            return None
        parts.append(part)
    return tuple(parts)


def unions_equal(left: tuple[Sequence, ...], right: tuple[Sequence, ...]) -> bool | None:
    """Two unions of intervals (an interval is a union of one), part by part in order when
    each is written in its one way: no two parts meeting or overlapping, none empty. Else
    None: ``[0, 1] \\cup [1, 2]`` is ``[0, 2]``, which sympy finds."""
    mine, theirs = _separated(left), _separated(right)
    if mine is None or theirs is None:
        return None
    if len(mine) != len(theirs):
        return False
    return all(sequences_equal(a, b) is True for a, b in zip(mine, theirs, strict=True))


def _separated(parts: tuple[Sequence, ...]) -> list[Sequence] | None:
    """The intervals from left to right when no two meet, else None."""
    if any(not _end(part.entries[0]) < _end(part.entries[1]) for part in parts):
        return None
    ordered = sorted(parts, key=lambda part: _end(part.entries[0]))
    for before, after in pairwise(ordered):
        last, first = _end(before.entries[1]), _end(after.entries[0])
        open_between = (_interval_brackets(before)[1], _interval_brackets(after)[0]) == (")", "(")
        if last > first or (last == first and not open_between):
            return None
    return ordered


def _end(entry: Entry) -> Fraction | float:
    return entry if isinstance(entry, float) else entry.value


def _as_tuple(structure: Structure | None) -> Structure | None:
    """A column or row vector is the tuple of its entries: pmatrix (1, 2) ~ "(1, 2)"."""
    if isinstance(structure, Matrix):
        entries = tuple(entry for row in structure.rows for entry in row)
        if len(entries) > 1 and (len(structure.rows) == 1 or len(entries) == len(structure.rows)):
            return Sequence("(", ")", entries)
    return structure


def _interval_brackets(sequence: Sequence) -> tuple[str, str]:
    # An interval's infinite ends are always open, whatever bracket was written.
    first, last = sequence.entries[0], sequence.entries[-1]
    opening = "(" if first == float("-inf") else sequence.opening
    closing = ")" if last == float("inf") else sequence.closing
    return opening, closing


# Top-level sums are only reordered when nothing else could bind to a split sign: a
# relation or a list, a union, a \\pm, an infinity, scientific notation, a signed exponent
# or index.
_UNSAFE_COMMANDS = tuple(
    f"\\{name}" for name in ("cup", "cap", "pm", "mp", "le", "ge", "ne", "to", "infty")
)


def _unsafe_for_terms(text: str) -> bool:
    tokens = tokenize(text)
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.kind is not Kind.WORD and any(mark in token.text for mark in "=<>,;"):
            return True
        if token.kind is Kind.COMMAND and token.text.startswith(_UNSAFE_COMMANDS):
            return True
        if token.kind is Kind.DIGITS and following is not None and following.text[:1] in ("e", "E"):
            return True
        if token.is_symbol("^", "_") and following is not None and following.is_symbol("+", "-"):
            return True
    return False


def _terms(normalized: str) -> list[str] | None:
    """Signed top-level terms of a sum, or None when splitting would not be sound."""
    if _unsafe_for_terms(normalized):
        return None
    terms: list[str] = []
    depth = 0
    current = ""
    for char in normalized:
        if char in "{([":
            depth += 1
        elif char in "})]":
            depth -= 1
        if char in "+-" and depth == 0 and current and current[-1] not in "+-*/^_":
            terms.append(current)
            current = ""
        current += char
    terms.append(current)
    if len(terms) < 2:
        return None
    return sorted(term if term[0] in "+-" else "+" + term for term in terms)


def same_terms(reference: str, answer: str) -> bool:
    """The same sum with its terms in another order: "x^2-5x+6" vs "6-5x+x^2" (both
    normalised)."""
    left = _terms(reference)
    return left is not None and left == _terms(answer)
