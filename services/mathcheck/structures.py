"""Sets, tuples, intervals and matrices whose entries are plain numbers, read and compared
exactly; and the terms of a sum.

These answers are common in math RL data and cost the LaTeX parser tens of milliseconds
each, yet comparing them needs nothing symbolic: ``parse_structure`` reads the tokens of a
normalised answer (``normalization.canonical_tokens``), each entry with ``parse_number``
(``reading.py`` makes typed answers of what it reads), and the functions
below compare the shapes for the rules of ``comparison.py``. Anything with a non-numeric
entry (``\\sqrt{2}``, ``x``), a set with rounded decimals, or an ambiguous shape is not
read here. ``same_terms`` tells one sum written with its terms in another order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

from services.mathcheck.latex_tokens import Kind, Token, join, strip, tokenize, top_level_parts
from services.mathcheck.vocabulary import REVERSED_RELATION
from services.mathcheck.written_numbers import (
    ParsedNumber,
    numbers_match,
    parse_number,
    significant_digits,
    written_as_rounding,
)

Entry = ParsedNumber | float  # float only for ±infinity


@dataclass(frozen=True)
class NumberSet:
    """A set, or a bare list of solutions ("-1, 1, 3", "(9, 3), (6, 3)"): order-free."""

    values: frozenset[Fraction | tuple[Fraction, ...]]
    # The elements in the order written, as read (a bare list stands for a tuple against
    # named values); no part of the set's value.
    listed: tuple[ParsedNumber | tuple[Entry, ...], ...] = field(default=(), compare=False)


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
    """The parts of ``text`` between the ``separator`` characters outside every bracket;
    None where the brackets do not pair (``top_level_parts`` on tokens)."""
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


def _number(tokens: list[Token]) -> ParsedNumber | None:
    parsed = parse_number(join(tokens))
    # Percentages have two readings (50% ~ 50 ~ 0.5): sets of them go to the symbolic path.
    if parsed is None or parsed.percent:
        return None
    return parsed


def _entries(tokens: list[Token]) -> tuple[Entry, ...] | None:
    parts = top_level_parts(tokens, ",")
    if parts is None:
        return None
    entries: list[Entry] = []
    for part in parts:
        infinity = _INFINITY.get(join(part))
        if infinity is not None:
            entries.append(infinity)
            continue
        value = _number(part)
        if value is None:
            return None
        entries.append(value)
    return tuple(entries)


def _is_bracket(token: Token, brackets: str) -> bool:
    return token.kind is Kind.SYMBOL and token.text in brackets


def _bracketed(tokens: list[Token]) -> bool:
    """ "(...)", "[...)": a tuple's or an interval's brackets around the rest."""
    return len(tokens) >= 2 and _is_bracket(tokens[0], "([") and _is_bracket(tokens[-1], ")]")


def _braced(tokens: list[Token]) -> bool:
    """ "\\{...\\}": a set's braces around the rest."""
    return len(tokens) >= 2 and tokens[0].text == "\\{" and tokens[-1].text == "\\}"


def _environment(tokens: list[Token], index: int, command: str) -> tuple[str, int] | None:
    """ "\\begin{pmatrix}" at ``index``: the environment's name and where it ends."""
    if not (index >= 0 and index + 3 < len(tokens) and tokens[index].is_command(command)):
        return None
    opening, name, closing = tokens[index + 1 : index + 4]
    if not (opening.is_symbol("{") and name.kind is Kind.WORD and closing.is_symbol("}")):
        return None
    return name.text, index + 4


def _matrix_body(tokens: list[Token]) -> list[Token] | None:
    """The cells of ``\\begin{pmatrix} ... \\end{pmatrix}`` (maybe in brackets, an array
    maybe with its column spec): the tokens between, rows and all; None for anything else."""
    start = 1 if tokens[:1] and _is_bracket(tokens[0], "([") else 0
    if not (start < len(tokens) and tokens[start].is_command("\\begin")):
        return None
    tokens = tokens[start:]
    if _is_bracket(tokens[-1], ")]"):
        tokens = tokens[:-1]
    begin = _environment(tokens, 0, "\\begin")
    end = _environment(tokens, len(tokens) - 4, "\\end")
    if begin is None or end is None or begin[0] != end[0] or begin[0] not in _MATRIX_ENVIRONMENTS:
        return None
    body = tokens[begin[1] : len(tokens) - 4]
    if body[:1] and body[0].is_symbol("{"):
        closing = next((at for at, token in enumerate(body) if token.is_symbol("}")), None)
        spec = join(body[1:closing]) if closing is not None else ""
        if closing is not None and set(spec) <= set("lcr|"):
            body = body[closing + 1 :]
    return body


def _split(tokens: list[Token], separator: str) -> list[list[Token]]:
    """The parts of ``tokens`` between the ``separator`` tokens, at any depth."""
    parts: list[list[Token]] = [[]]
    for token in tokens:
        if token.text == separator and token.kind is not Kind.WORD:
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


def matrix_rows(canonical: list[Token]) -> list[list[list[Token]]] | None:
    """The cells of a matrix, row by row: a matrix environment (``\\begin{pmatrix} ...
    \\end{pmatrix}``, maybe in brackets, an array maybe with its column spec) or a list of
    its rows (``[[1, 2], [3, 4]]``); None for anything else. ``canonical``: a normalised
    answer's tokens (``normalization.canonical_tokens``), as are the other readers'."""
    body = _matrix_body(canonical)
    if body is not None:
        body = strip(body)
        if body[-1:] and body[-1].text == "\\\\":
            body = body[:-1]
        return [_split(row, "&") for row in _split(body, "\\\\")]
    return _nested_rows(canonical)


def parse_structure(canonical: list[Token]) -> Structure | None:
    """The set, sequence or matrix a normalised answer denotes, if all entries are numbers."""
    rows = matrix_rows(canonical)
    return number_matrix(rows) if rows is not None else _listed_structure(canonical)


def read_structure(
    canonical: list[Token],
) -> tuple[list[list[list[Token]]] | None, Structure | None, tuple[Sequence, ...] | None]:
    """What a normalised answer's structure is, read once: its matrix cells, row by row
    (``matrix_rows``; None when it is no matrix), the set, sequence or matrix it denotes
    if all entries are numbers, and the intervals of a union of them (``union_parts``)."""
    rows = matrix_rows(canonical)
    if rows is not None:
        return rows, number_matrix(rows), None
    return None, _listed_structure(canonical), union_parts(canonical)


def _listed_structure(canonical: list[Token]) -> Structure | None:
    if _braced(canonical):
        return _collection(canonical[1:-1])
    if _bracketed(canonical):
        entries = _entries(canonical[1:-1])
        if entries is not None and len(entries) >= 2:
            return Sequence(canonical[0].text, canonical[-1].text, entries)
    relation = _relation(canonical)
    if relation is not None:
        return relation
    groups = _solution_groups(canonical)
    if groups is not None:
        return groups
    parts = top_level_parts(canonical, ",")
    # "32,349" and "1,5" are numbers (thousands separator, decimal comma), not lists.
    if parts is not None and len(parts) >= 2 and parse_number(join(canonical)) is None:
        return _collection(canonical)
    return None


def _groups(canonical: list[Token]) -> list[list[Token]]:
    """The groups of assignments in ``canonical``: separated by ";" or by "and" / "or"
    between a value's end (a digit or a brace) and the next name (normalisation has
    dropped the spaces: "p=5,q=2andp=7,q=2")."""
    groups: list[list[Token]] = [[]]
    for index, token in enumerate(canonical):
        if token.is_symbol(";"):
            groups.append([])
            continue
        if (
            token.kind is Kind.WORD
            and index
            and (canonical[index - 1].kind is Kind.DIGITS or canonical[index - 1].is_symbol("}"))
        ):
            joint = next((word for word in ("and", "or") if token.text.startswith(word)), None)
            if joint is not None and len(token.text) > len(joint):
                groups.append([Token(Kind.WORD, token.text[len(joint) :])])
                continue
        groups[-1].append(token)
    return groups


def _assignment(tokens: list[Token]) -> tuple[str, str] | None:
    """ "x_1=5" -> ("x_1", "5"): a name and the one value it is given."""
    tokens = strip(tokens)
    equals = [index for index, token in enumerate(tokens) if token.is_symbol("=")]
    if len(equals) != 1 or equals[0] == len(tokens) - 1:
        return None
    name = join(tokens[: equals[0]])
    return (name, join(tokens[equals[0] + 1 :])) if _is_name(name) else None


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


def _assignment_groups(canonical: list[Token]) -> tuple[tuple[tuple[str, str], ...], ...] | None:
    """Groups of "name = value" assignments, each name once in a group and every group
    naming the same unknowns: "p=5,q=2andp=7,q=2" -> ((("p", "5"), ("q", "2")), ...)."""
    if not any(token.is_symbol("=") for token in canonical):
        return None
    groups: list[tuple[tuple[str, str], ...]] = []
    for tokens in _groups(canonical):
        parts = top_level_parts(tokens, ",")
        if parts is None:
            return None
        assignments = [_assignment(part) for part in parts]
        group = tuple(assignment for assignment in assignments if assignment is not None)
        if len(group) != len(parts) or len({name for name, _ in group}) != len(group):
            return None
        groups.append(group)
    if len({frozenset(name for name, _ in group) for group in groups}) != 1:
        return None
    return tuple(groups)


def _solution_groups(canonical: list[Token]) -> SolutionGroups | None:
    """Groups of "name = exact number" assignments, every group naming the same unknowns."""
    groups = _assignment_groups(canonical)
    if groups is None:
        return None
    solutions: set[frozenset[tuple[str, Fraction]]] = set()
    for group in groups:
        values = [parse_number(value) for _, value in group]
        exact = [
            value
            for value in values
            if value is not None and not value.percent and exact_entry(value)
        ]
        if len(exact) != len(group):
            return None
        solutions.add(
            frozenset((name, value.value) for (name, _), value in zip(group, exact, strict=True))
        )
    return SolutionGroups(frozenset(solutions))


def _element(tokens: list[Token]) -> ParsedNumber | tuple[Entry, ...] | None:
    """A set element that can only equal itself: an exact number or a tuple of them."""
    tokens = strip(tokens)
    if len(tokens) >= 2 and tokens[0].is_symbol("(") and tokens[-1].is_symbol(")"):
        entries = _entries(tokens[1:-1])
        if entries is None or len(entries) < 2 or not all(map(exact_entry, entries)):
            return None
        return entries
    number = _number(tokens)
    return number if number is not None and exact_entry(number) else None


def _value(element: ParsedNumber | tuple[Entry, ...]) -> Fraction | tuple[Fraction, ...]:
    if isinstance(element, ParsedNumber):
        return element.value
    return tuple(entry.value for entry in element if isinstance(entry, ParsedNumber))


def _collection(tokens: list[Token]) -> NumberSet | None:
    parts = top_level_parts(tokens, ",")
    if parts is None:
        return None
    elements = [_element(part) for part in parts]
    listed = tuple(element for element in elements if element is not None)
    if len(listed) != len(elements):
        return None
    return NumberSet(frozenset(map(_value, listed)), listed)


_OPERATORS = ("<", ">", "\\le", "\\ge")


def _bound(text: str) -> Entry | None:
    """A bound of an interval: a number, or an infinity (no letter, command or relation)."""
    if text in ("\\infty", "-\\infty"):
        return _INFINITY[text]
    if not text or any(ch in "<>=\\" or (ch.isascii() and ch.isalpha()) for ch in text):
        return None
    parsed = parse_number(text)
    return None if parsed is None or parsed.percent else parsed


def _relation_parts(canonical: list[Token]) -> list[str] | None:
    """ "-1<x\\le2" -> ["-1", "<", "x", "\\le", "2"]: the sides and relations of a chain
    of inequalities, as written (spaces left out); None when it holds no relation."""
    parts: list[str] = [""]
    for token in canonical:
        if token.text in _OPERATORS and token.kind is not Kind.WORD:
            parts.extend((token.text, ""))
        elif token.kind is not Kind.SPACE:
            parts[-1] += token.text
    return parts if len(parts) > 1 else None


def _is_variable(text: str) -> bool:
    return len(text) == 1 and text.isascii() and text.isalpha()


def _relation(canonical: list[Token]) -> Sequence | None:
    """The interval a relation in one unknown describes: "x\\ge5" is [5, \\infty) in x."""
    if (
        len(canonical) > 2
        and _is_variable(canonical[0].text)
        and canonical[1].is_command("\\in")
        and _bracketed(canonical[2:])
    ):
        interval = parse_structure(canonical[2:])
        if not isinstance(interval, Sequence) or len(interval.entries) != 2:
            return None
        return Sequence(interval.opening, interval.closing, interval.entries, canonical[0].text)
    parts = _relation_parts(canonical)
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


def _nested_rows(canonical: list[Token]) -> list[list[list[Token]]] | None:
    """ "[[1, 2], [3, 4]]": a matrix written as a list of its rows, the cells of each."""
    if not (
        len(canonical) >= 2 and _is_bracket(canonical[0], "[") and _is_bracket(canonical[-1], "]")
    ):
        return None
    inner = strip(canonical[1:-1])
    if not (inner and _is_bracket(inner[0], "[") and _is_bracket(inner[-1], "]")):
        return None
    rows_tokens = top_level_parts(canonical[1:-1], ",")
    if rows_tokens is None:
        return None
    rows = [strip(row) for row in rows_tokens]
    if not all(row and _is_bracket(row[0], "[") and _is_bracket(row[-1], "]") for row in rows):
        return None
    return [_split(row[1:-1], ",") for row in rows]


def number_matrix(rows: list[list[list[Token]]]) -> Matrix | None:
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


def vector_against_list(
    matrix: Matrix, listed: tuple[ParsedNumber | tuple[Entry, ...], ...]
) -> tuple[Sequence, Sequence] | None:
    """A column or row vector against a bare list of exact numbers (``NumberSet.listed``:
    "1, 2"), as Python and NumPy users write vectors: both as lists, the other's entries in
    the order written; None for a matrix that is no vector and for any other list."""
    vector = _as_tuple(matrix)
    entries = [entry for entry in listed if isinstance(entry, ParsedNumber)]
    if not isinstance(vector, Sequence) or not entries or len(entries) != len(listed):
        return None
    return Sequence("[", "]", vector.entries), Sequence("[", "]", tuple(entries))


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


def union_parts(canonical: list[Token]) -> tuple[Sequence, ...] | None:
    """ "(-\\infty,2)\\cup(3,\\infty)" -> its intervals, each two plain ends in brackets."""
    if not any(token.is_command("\\cup") for token in canonical):
        return None
    parts: list[Sequence] = []
    for tokens in _split(canonical, "\\cup"):
        part = parse_structure(strip(tokens))
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
