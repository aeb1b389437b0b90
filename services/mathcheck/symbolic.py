"""Symbolic equality with sympy and math-verify, made safe to call from a worker process.

Two expressions the expression reader reads completely (``expression_reader.py``) are
compared as the sympy expressions it built, in this process: numbers by the one rule
below, else by math-verify's ``verify`` on the two expressions, without parsing their
text again. What the reader does not read is parsed here by latex2sympy2_extended (after
math-verify's LaTeX normalisation), the text as given and nothing else: it is never
searched for an answer again, so an unreadable text is never the last number in it.
Wrapped here because:
* its timeouts use ``signal.alarm`` (main thread only) and raise a ``BaseException``;
  they are disabled and the caller's process pool enforces a hard deadline instead;
* it is not symmetric: the gold answer must come first;
* it rounds floats to 6 decimals, so distinct tiny numbers (``1/2^99`` and ``1/2^98``)
  compare equal, and it demands six decimals of a rounded answer, where datasets and
  models write three or four (``(0.6, 2.6667]`` for ``(3/5, 8/3]``, ``1.5708`` for
  ``\\pi/2``): numbers, and intervals, tuples, sets and matrices of numbers, are judged
  here by one rule instead, number by number: equal when exactly equal, or when one is a
  decimal as written and the other's exact value rounded to that decimal's own places
  (``written_numbers.approximates``);
* its normaliser drops a trailing "unit" from a list that includes one-letter variables
  (``2t`` read as 2): that stripping is off, and closing notes and units are taken off
  before parsing (``normalization.without_note``);
* "x < -1 or x > 1" parses as a set of two relations, which it never compares with the
  union of intervals it describes: such a set is turned into that union;
* its normalisation drops an ellipsis, so "2, 4, 6, \\ldots" would be the finite set
  {2, 4, 6}: a list with an ellipsis is not parsed, and equals only the same text.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from services.mathcheck.vocabulary import HEDGE_WORDS, RELATION_SPELLINGS


def _writes_imaginary_unit(text: str) -> bool:
    """Whether ``text`` writes a lone "i" (not part of a word or a command such as \\pi)."""
    from services.mathcheck.latex_tokens import Kind, tokenize

    return any(token.kind is Kind.WORD and token.text == "i" for token in tokenize(text))


class LogConvention(StrEnum):
    """What ``\\log`` without a base means (a base written, ``\\log_2``, is always kept).

    * ``reference`` (the default): the reference's convention. Where the reference writes
      ``\\ln`` and no ``\\log`` without a base, an answer's ``\\log`` without a base is the
      natural logarithm; otherwise it is base 10, as the parser reads it (datasets that
      write ``\\log 100 = 2`` mean base 10).
    * ``natural``: every ``\\log`` without a base, on either side, is the natural logarithm.
    * ``common``: every ``\\log`` without a base is base 10, whatever the reference writes.

    A side that writes a base somewhere (``\\log_{10}``) keeps its reading in every
    convention, and so does an answer that writes ``\\ln`` itself under ``reference``.
    """

    REFERENCE = "reference"
    NATURAL = "natural"
    COMMON = "common"


@dataclass(frozen=True)
class SymbolicVerdict:
    equal: bool
    detail: str


# Spellings the parser reads as something else: \mathrm{e} as a symbol "e", not Euler's number,
# and the base of \log_e as that symbol too.
_SPELLINGS = (
    ("\\mathrm{e}", "e"),
    ("\\operatorname{e}", "e"),
    ("\\mathrm{i}", "i"),
    ("\\log_{e}", "\\ln"),
    ("\\log_e", "\\ln"),
)
# Numbers are evaluated to 50 digits: apart beyond 45 digits they differ. Rational ones,
# decimals as written included, are compared exactly; two values that agree to 45 digits,
# one of them not rational, are evaluated again to 1,000 digits and equal only when they
# agree to 990 (``1 - 3^{-500}`` is not ``1``). A written decimal against a value that is
# not rational is that value rounded to its places, or different.
_PRECISION_DIGITS = 50
_EQUAL_DIGITS = 45
_EXACT_DIGITS = 1000
_EXACT_EQUAL_DIGITS = 990


@functools.cache
def _normalization() -> Any:
    """math-verify's LaTeX normalisation with its unit stripping off: it drops a trailing
    letter from a list that includes t, s, h, m, g, c, d and l ("2t" read as 2, "x + t" as
    "x +"). Closing notes and units are taken off before parsing instead (``without_note``)."""
    from math_verify import LatexNormalizationConfig

    return LatexNormalizationConfig(
        basic_latex=True, units=False, malformed_operators=True, nits=True, boxed="all"
    )


def _parse(text: str) -> list[Any]:
    return list(_parse_cached(text))


# References recur across the completions of a group, and answers across groups.
@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> tuple[Any, ...]:
    """``text`` (one answer, or one part of one) parsed by math-verify's LaTeX parser
    (latex2sympy2_extended), after its normalisation and nothing else: the text is not
    searched for an answer again. What does not parse stays its normalised text, which
    equals only the same text: a text that fails to parse is never read as a number found in it
    (math-verify's extraction, given ``\\langle 1, -2, 12 \\rangle`` in a box, returns 12)."""
    from latex2sympy2_extended import latex2sympy
    from latex2sympy2_extended.math_normalization import normalize_latex
    from math_verify.grader import should_treat_as_complex

    from services.mathcheck import two_stage_parsing
    from services.mathcheck.units import without_note

    two_stage_parsing.install()
    for spelling, meaning in _SPELLINGS:
        text = text.replace(spelling, meaning)
    normalized = normalize_latex(without_note(text), _normalization())
    if _lists_open_ended(text):
        # The parser's normalisation drops an ellipsis: "2, 4, 6, \\ldots" would be the
        # finite set {2, 4, 6}. An open-ended list equals only itself.
        return (normalized,) if normalized.strip() else ()
    try:
        parsed = latex2sympy(
            normalized,
            is_real=not should_treat_as_complex(normalized),
            convert_degrees=False,
            normalization_config=None,
        )
    except Exception:  # the parser raises many kinds: it is not mathematics it reads
        return (normalized,) if normalized.strip() else ()
    return (parsed,)


_ELLIPSES = frozenset(("\\ldots", "\\dots", "\\cdots", "\\dotsc", "…"))


def _lists_open_ended(text: str) -> bool:
    """Whether ``text`` writes an ellipsis in a list (``2, 4, 6, \\ldots``, ``1, \\dots,
    n``): next to a comma. A decimal that goes on (``0.142857\\ldots``) is no list."""
    from services.mathcheck.latex_tokens import Kind, tokenize

    tokens = [token for token in tokenize(text) if token.kind is not Kind.SPACE]
    marks: list[tuple[int, int]] = []  # (first, last) index of each ellipsis
    points = 0
    for index, token in enumerate(tokens):
        if token.text in _ELLIPSES:
            marks.append((index, index))
        points = points + 1 if token.is_symbol(".") else 0
        if points == 3:
            marks.append((index - 2, index))
    return any(
        (first > 0 and tokens[first - 1].is_symbol(","))
        or (last + 1 < len(tokens) and tokens[last + 1].is_symbol(","))
        for first, last in marks
    )


def _as_complex(parsed: list[Any]) -> list[Any]:
    """Read a free symbol ``i`` as the imaginary unit.

    The parser only does so when it spots complex notation in the same string, so "2i"
    alone stays 2·i and would never equal "(1+i)^2" parsed with the real unit.
    """
    import sympy

    def substitute(item: Any) -> Any:
        if not isinstance(item, sympy.Basic):
            return item
        # The parser attaches assumptions (real=True/False), so match by name.
        units = {s: sympy.I for s in item.free_symbols if getattr(s, "name", None) == "i"}
        return item.subs(units) if units else item

    return [substitute(item) for item in parsed]


def _has_bare_log(text: str) -> bool:
    """Whether ``text`` writes ``\\log`` without a base (``\\log_2`` has one)."""
    return any(
        not text[index + len("\\log") :].lstrip().startswith("_")
        for index in _occurrences(text, "\\log")
    )


def _occurrences(text: str, word: str) -> list[int]:
    found, start = [], text.find(word)
    while start >= 0:
        found.append(start)
        start = text.find(word, start + len(word))
    return found


def _in_the_reference_convention(reference: str, answer: str, parsed: list[Any]) -> list[Any]:
    """The answer's logarithms in the reference's convention: where the reference writes
    ``\\ln`` and no ``\\log`` without a base, an answer's ``\\log`` without a base is the
    natural logarithm (the parser reads it as base 10: the base goes). An answer that
    writes ``\\ln`` or a base itself keeps its reading."""
    if "\\ln" not in reference or _has_bare_log(reference) or "\\ln" in answer:
        return parsed
    return _natural_logarithms(answer, parsed)


def _natural_logarithms(text: str, parsed: list[Any]) -> list[Any]:
    """``parsed`` with each ``\\log`` of ``text`` written without a base read as the natural
    logarithm; unchanged when ``text`` has none, or writes a base somewhere."""
    import sympy

    if not _has_bare_log(text) or "\\log_" in text.replace(" ", ""):
        return parsed

    def natural(item: Any) -> Any:
        if not isinstance(item, sympy.Basic):
            return item
        # The parser keeps log(x, 10) unevaluated, with both arguments.
        return item.replace(
            lambda node: isinstance(node, sympy.log) and node.args[1:] == (10,),
            lambda node: sympy.log(node.args[0]),
        )

    return [natural(item) for item in parsed]


def symbolic_equal(
    reference: str, answer: str, log_convention: LogConvention = LogConvention.REFERENCE
) -> SymbolicVerdict:
    """Whether ``answer`` equals ``reference`` as mathematics (reference is the gold);
    ``\\log`` without a base read by ``log_convention``."""
    from math_verify import verify

    from services.mathcheck.latex_tokens import tokenize
    from services.mathcheck.normalization import listed_equalities, one_value

    sides = tokenize(reference), tokenize(answer)
    if any(listed_equalities(a) and one_value(b) for a, b in (sides, sides[::-1])):
        # math-verify reads "x = 5 \\quad x = 7" as a chain, by its last side: one of the
        # values a hedge lists would pass for the one value of the other side.
        return SymbolicVerdict(False, "several values listed against one")
    offered = [_offers_another(side) for side in sides]
    # "5,7" may list two; "x^2 > 4" is a set ("x < -2 or x > 2" says it).
    listing = any(token.is_symbol(",", ";") or token.text in _SET_MARKS for token in sides[0])
    if offered[1] and not offered[0] and one_value(sides[0]) and not listing:
        # latex2sympy reads the words of "0 \\text{ or 1}" as factors (0), and
        # ``without_note`` would take "\\text{ or 1}" off as a note: against one value, an
        # answer that offers another is two.
        return SymbolicVerdict(False, "another answer offered beside one")
    read = _read_both(reference, answer, log_convention)
    places: tuple[int | None, int | None] = (None, None)
    if read is not None:
        # Read once, by the expression reader: the engine compares its sympy expressions.
        gold, pred = [read[0].value], [read[1].value]
        places = read[2]
    else:
        gold, pred = _parse(reference), _parse(answer)
        if log_convention is LogConvention.REFERENCE:
            pred = _in_the_reference_convention(reference, answer, pred)
        elif log_convention is LogConvention.NATURAL:
            gold = _natural_logarithms(reference, gold)
            pred = _natural_logarithms(answer, pred)
        if not gold:
            return SymbolicVerdict(False, "reference could not be parsed")
        if not pred:
            return SymbolicVerdict(False, "answer could not be parsed")
        if _writes_imaginary_unit(reference) or _writes_imaginary_unit(answer):
            gold, pred = _as_complex(gold), _as_complex(pred)
    if _holds_equation_of_no_name(pred[0]) and not _holds_relation(gold[0]):
        # math-verify compares an equation with a value by its right side: "x + 1 = 3" and
        # "\\text{not } x = 3" would pass for 3.
        return SymbolicVerdict(False, "an equation, not a value")
    numbers = _numbers_equal(gold[0], pred[0], reference, answer, places)
    if numbers is not None:
        # Numbers, or one shape of numbers, on both sides: the one rule decides; neither
        # sympy's simplify (slow on radicals) nor math-verify's 6-decimal rounding is asked.
        return numbers
    comparable = _as_comparable(gold[0], pred[0])
    if comparable is not None and verify(
        [comparable[0]], [comparable[1]], timeout_seconds=None, allow_set_relation_comp=True
    ):
        return SymbolicVerdict(True, "the relations describe the same set")
    # allow_set_relation_comp: "x \\le 2" describes the same set as "(-\\infty, 2]".
    if not verify(gold, pred, timeout_seconds=None, allow_set_relation_comp=True):
        return SymbolicVerdict(False, "not equivalent")
    return SymbolicVerdict(True, "symbolically equivalent")


def _equation_of_no_name(expression: Any) -> bool:
    """Whether ``expression`` is one equality that is neither a value worked out (no
    unknown on the left, ``5 + 7 = 12``, or both sides one expression, ``(x + 1)^2 = x^2 +
    2x + 1``) nor a value named: a name (``x``, ``a_1``), a function at a point (``f(2)``,
    ``P(A)``), an absolute value (``|z|``), or letters written together (``AB``, ``\\angle
    A``: each a one-letter name or a command's). An equation to solve (``x + 1 = 3``,
    ``2x = 6``) or words in text before one (``\\text{not } x = 3``) is no value."""
    import sympy
    from sympy.core.function import AppliedUndef

    if not isinstance(expression, sympy.Eq):
        return False
    side = expression.lhs
    if not side.free_symbols or isinstance(side, sympy.Symbol | AppliedUndef):
        return False  # "5 + 7 = 12" works a value out
    if isinstance(side, sympy.Abs) and isinstance(side.args[0], sympy.Symbol):
        return False  # "|z| = \\sqrt{5}" names the modulus
    try:
        if sympy.expand(side - expression.rhs) == 0:
            return False  # "(x + 1)^2 = x^2 + 2x + 1" works a value out
    except (TypeError, ValueError, RecursionError):
        return False
    letters = isinstance(side, sympy.Mul) and all(
        isinstance(factor, sympy.Symbol) and _is_letter_name(factor.name) for factor in side.args
    )
    return not letters


def _entries(expression: Any) -> tuple[Any, ...]:
    """``expression``, or the entries of the set or tuple it is."""
    import sympy

    if isinstance(expression, sympy.FiniteSet | sympy.Tuple):
        return tuple(expression.args)
    return (expression,)


def _holds_equation_of_no_name(expression: Any) -> bool:
    return any(_equation_of_no_name(entry) for entry in _entries(expression))


def _holds_relation(expression: Any) -> bool:
    import sympy

    return any(isinstance(e, sympy.Rel | sympy.And | sympy.Or) for e in _entries(expression))


def _is_letter_name(name: str) -> bool:
    """A one-letter name, maybe indexed, or the name a command gives (``alpha``, ``angle``)."""
    return len(name.split("_")[0]) == 1 or name in _COMMAND_NAMES


# The names latex2sympy gives the commands a name is written with.
_COMMAND_NAMES = frozenset(
    ("alpha", "beta", "gamma", "delta", "epsilon", "theta", "lambda", "mu", "phi", "psi",
     "omega", "sigma", "tau", "rho", "eta", "xi", "zeta", "kappa", "nu", "chi", "angle",
     "triangle")
)  # fmt: skip


# What makes a reference a set of values rather than one: a relation other than "=" (each
# spelling of one), a membership, a union, both signs.
_SET_MARKS = frozenset(
    (*RELATION_SPELLINGS, *RELATION_SPELLINGS.values(), "\\in", "\\cup", "\\pm", "\\mp")
)


def _offers_another(tokens: list[Any]) -> bool:
    """Whether ``tokens`` hold a word that offers another answer ("or", "maybe": what the
    reader reads as a list reaches the engine only where it read none)."""
    from services.mathcheck.latex_tokens import Kind

    return any(token.kind is Kind.WORD and token.text.lower() in HEDGE_WORDS for token in tokens)


def _read_both(
    reference: str, answer: str, log_convention: LogConvention = LogConvention.REFERENCE
) -> tuple[Any, Any, tuple[int | None, int | None]] | None:
    """Both sides as the expression reader reads them, and the places of each side that is
    a decimal written alone in the engine's notation
    (``expression_reader.ENGINE``: decimals, one relation, functions without parentheses,
    ``\\log`` without a base by ``log_convention``, a capital letter as its small one as
    math-verify's parser reads it: ``x^3/3 + C`` is ``x^3/3 + c``), or None when it does
    not read one of them completely, reads a value that is undefined, or reads a side that
    ends in a note or a unit (``18\\text{m}``: math-verify parses it without them,
    ``without_note``). A number written
    with a decimal in it is read only when it is that decimal alone (``-1.5``): the rule
    for numbers judges a decimal by its places, which a sum or product of decimals does
    not keep."""
    import sympy

    from services.mathcheck.expression_reader import read_expression
    from services.mathcheck.units import without_note

    if without_note(reference) != reference or without_note(answer) != answer:
        return None
    logs = _log_meanings(reference, answer, log_convention)
    left = read_expression(reference, notation=_engine_notation(logs[0]))
    right = read_expression(answer, notation=_engine_notation(logs[1]))
    if left is None or right is None:
        return None
    places = _decimal_places(reference), _decimal_places(answer)
    for text, read, written in ((reference, left, places[0]), (answer, right, places[1])):
        if read.value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            return None
        if read.value.is_number and "." in text and written is None:
            return None
    return left, right, places


def _engine_notation(log: str) -> Any:
    from dataclasses import replace

    from services.mathcheck.expression_reader import ENGINE

    return replace(ENGINE, log=log)


def _log_meanings(reference: str, answer: str, convention: LogConvention) -> tuple[str, str]:
    """What ``\\log`` without a base means on each side ("natural" or "common"), by the
    rule the text path applies to math-verify's parse (``_in_the_reference_convention``,
    ``_natural_logarithms``): under ``reference`` the reference's is base 10 and the
    answer's natural only where the reference writes ``\\ln`` and no ``\\log`` without
    a base and the answer writes neither ``\\ln`` nor a base; under ``natural`` natural
    on a side that writes no base anywhere; under ``common`` base 10."""

    def natural_unless_based(text: str) -> str:
        return "common" if "\\log_" in text.replace(" ", "") else "natural"

    if convention is LogConvention.NATURAL:
        return natural_unless_based(reference), natural_unless_based(answer)
    if (
        convention is LogConvention.REFERENCE
        and "\\ln" in reference
        and not _has_bare_log(reference)
        and "\\ln" not in answer
    ):
        return "common", natural_unless_based(answer)
    return "common", "common"


def _decimal_places(text: str) -> int | None:
    """The places of a decimal written alone, with its sign (``-1.50``: 2), else None."""
    from services.mathcheck.expression_reader import Unreadable, tokens

    try:
        written = tokens(text)
    except Unreadable:
        return None
    if written[:1] in ([("op", "-")], [("op", "+")]):
        written = written[1:]
    if len(written) != 1 or written[0][0] != "number" or "." not in written[0][1]:
        return None
    return len(written[0][1].partition(".")[2])


def _as_comparable(gold: Any, pred: Any) -> tuple[Any, Any] | None:
    """Both sides in a form math-verify compares, when one of them is not: relations as the
    sets they describe. None when nothing changes. (A vector against a tuple is the
    comparison table's to convert: ``comparison._vector_and_tuple``.)"""
    converted = _relations_as_set(gold), _relations_as_set(pred)
    if converted == (None, None):
        return None
    left, right = converted
    return (gold if left is None else left, pred if right is None else right)


def _relations_as_set(expr: Any) -> Any | None:
    """The set of real values a relation in one variable describes: ``x^2 < 4`` as
    ``(-2, 2)``, "x < -1 or x > 1" (parsed as a set of two relations) as a union."""
    import sympy

    if isinstance(expr, sympy.FiniteSet) and len(expr.args) >= 2:
        relations = expr.args
    elif isinstance(expr, sympy.Rel | sympy.And) and not isinstance(expr, sympy.Eq):
        relations = (expr,)
    else:
        return None
    if not all(
        isinstance(r, sympy.Rel | sympy.And) and not isinstance(r, sympy.Eq) for r in relations
    ):
        return None
    if len({symbol for r in relations for symbol in r.free_symbols}) != 1:
        return None
    try:
        return sympy.Union(*(r.as_set() for r in relations))
    except (NotImplementedError, TypeError, ValueError, AttributeError):
        return None


def _numbers_equal(
    gold: Any,
    pred: Any,
    reference: str,
    answer: str,
    places: tuple[int | None, int | None] = (None, None),
) -> SymbolicVerdict | None:
    """The verdict on two numbers, or two intervals, unions, tuples, sets or matrices of
    numbers of one shape: equal when every number is equal to the one in its place, exactly
    or as a decimal written and the other's exact value rounded to that decimal's places
    (``written_numbers.approximates``). None when a side is not made of numbers, or their
    shapes differ: math-verify decides those. ``places``: a side the expression reader
    read as one decimal (its exact rational), the places it was written with."""
    left, right = _leaf_values(gold), _leaf_values(pred)
    if left is None or right is None or len(left) != len(right):
        return None
    written = _written_decimals(reference), _written_decimals(answer)
    rounded = False
    for mine, theirs in zip(left, right, strict=True):
        if isinstance(mine, tuple) or isinstance(theirs, tuple):
            if mine != theirs:
                return None
            continue
        gold_parts, pred_parts = (
            _parts(mine, written[0], places[0]),
            _parts(theirs, written[1], places[1]),
        )
        if gold_parts is None or pred_parts is None:
            return None
        for a, b in zip(gold_parts, pred_parts, strict=True):
            same = _same(a, b)
            if same is None:
                return None
            if not same:
                if not (_rounds_to(a, b) or _rounds_to(b, a)):
                    return SymbolicVerdict(False, "numbers that differ, and not by rounding")
                rounded = True
    if rounded:
        return SymbolicVerdict(True, "equal up to the rounding of the written decimals")
    return SymbolicVerdict(True, "numbers exactly equal")


@dataclass(frozen=True)
class _Part:
    """The real or imaginary part of a number: ``exact`` when rational (a decimal as the
    decimal it was written as), else ``value`` to 50 digits (or an infinity); ``places``
    when it is a written decimal, the decimals it was written with."""

    exact: Fraction | None
    value: Any
    places: int | None
    # The number itself, to evaluate again at more digits (None for an exact part).
    expr: Any = None


def _written_decimals(text: str) -> dict[Fraction, int]:
    """Each decimal written in ``text``, by its value without sign, with the places it was
    written to (the fewest when one value is written twice)."""
    from services.mathcheck.latex_tokens import Kind, tokenize

    written: dict[Fraction, int] = {}
    tokens = tokenize(text)
    for index, token in enumerate(tokens):
        # A decimal as written ("1.414", ".5"): its digits before and after the point, and
        # nothing before it that would make it part of another number ("1.2.3").
        if not token.is_symbol(".") or index + 1 >= len(tokens):
            continue
        if tokens[index + 1].kind is not Kind.DIGITS:
            continue
        start = index - 1 if index and tokens[index - 1].kind is Kind.DIGITS else index
        if start and (tokens[start - 1].kind is Kind.DIGITS or tokens[start - 1].is_symbol(".")):
            continue
        whole, digits = (tokens[start].text if start < index else ""), tokens[index + 1].text
        value = Fraction(int(whole or "0") * 10 ** len(digits) + int(digits), 10 ** len(digits))
        written[value] = min(len(digits), written.get(value, len(digits)))
    return written


def _parts(
    expr: Any, written: dict[Fraction, int], places: int | None = None
) -> list[_Part] | None:
    """The real and imaginary parts of a number, or None when they cannot be told to 50
    digits (an exact zero sympy did not simplify evaluates to noise). ``places``: the
    number is a decimal read exactly, written with that many places."""
    import sympy

    if not isinstance(expr, sympy.Basic) or not expr.is_number:
        return None
    if places is not None and expr.is_Rational:
        return [
            _Part(Fraction(int(expr.p), int(expr.q)), None, places),
            _Part(Fraction(0), None, None),
        ]
    zero = _Part(Fraction(0), None, None)
    if expr in (sympy.oo, -sympy.oo):
        return [_Part(None, expr, None, expr), zero]
    if expr.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
        return None
    real = _part(expr, written)
    if real is not None:
        return [real, zero]
    value = sympy.N(expr, _PRECISION_DIGITS)
    if value.is_Float or not value.has(sympy.I):
        return None
    re, im = expr.as_real_imag()
    parts = _part(re, written), _part(im, written)
    if parts[0] is None or parts[1] is None:
        return None
    return [parts[0], parts[1]]


def _part(expr: Any, written: dict[Fraction, int]) -> _Part | None:
    """A real number as a ``_Part``, or None when it is not one or its value is noise.
    A written decimal scaled by a power of ten ("2.31 \\times 10^{-3}", "33.33\\%") keeps
    its places, shifted."""
    import sympy

    scaled = _scaled_decimal(expr)
    if scaled is not None:
        decimal, power = scaled
        try:
            as_written = Fraction(str(decimal))
        except ValueError:  # an infinity or a NaN has no digits
            return None
        places = written.get(abs(as_written))
        value = as_written * Fraction(10) ** power
        return _Part(value, None, None if places is None else places - power)
    exact = _rational_value(expr)
    if exact is not None:
        return _Part(exact, None, None)
    value = sympy.N(expr, _PRECISION_DIGITS)
    # Fewer bits than the digits asked for: the value is noise around an exact zero.
    if not value.is_Float or value._prec < _PRECISION_DIGITS * 3:
        return None
    return _Part(None, value, None, expr)


# Past this many bits an exact power is not worth building (the 50-digit value decides).
_MAX_EXACT_BITS = 100_000


def _rational_value(expr: Any) -> Fraction | None:
    """The exact value of sums, products and integer powers of rationals and decimals (a
    decimal as written: 0.1 + 0.2 is 0.3), or None."""
    import sympy

    if expr.is_Rational:
        return Fraction(int(expr.p), int(expr.q))
    if expr.is_Float:
        try:
            return Fraction(str(expr))
        except ValueError:
            return None
    if isinstance(expr, sympy.UnevaluatedExpr):
        return _rational_value(expr.args[0])
    if isinstance(expr, sympy.Add | sympy.Mul):
        values = [_rational_value(arg) for arg in expr.args]
        if any(value is None for value in values):
            return None
        total = Fraction(0) if isinstance(expr, sympy.Add) else Fraction(1)
        for value in values:
            assert value is not None
            total = total + value if isinstance(expr, sympy.Add) else total * value
        return total
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
        base = _rational_value(expr.base)
        exponent = int(expr.exp)
        if base is None or (base == 0 and exponent < 0):
            return None
        size = max(base.numerator.bit_length(), base.denominator.bit_length())
        if size * abs(exponent) > _MAX_EXACT_BITS:
            return None
        return base**exponent
    return None


def _scaled_decimal(expr: Any) -> tuple[Any, int] | None:
    """A Float, alone or times a power of ten (or a percent sign), with that power."""
    import sympy

    if expr.is_Float:
        return expr, 0
    sign = 1
    if isinstance(expr, sympy.Mul) and len(expr.args) == 2:
        decimal, factor = expr.args
        if factor.is_Float:
            decimal, factor = factor, decimal
        if not decimal.is_Float:
            return None
        if isinstance(factor, sympy.UnevaluatedExpr):
            factor = factor.args[0]
        if factor.is_Rational and factor < 0:
            sign, factor = -1, -factor
        power = _power_of_ten(factor)
        if power is not None:
            return decimal * sign, power
    return None


def _power_of_ten(factor: Any) -> int | None:
    import sympy

    if isinstance(factor, sympy.Pow) and factor.base == 10 and factor.exp.is_Integer:
        return int(factor.exp)
    if factor.is_Rational and factor > 0:
        numerator, denominator = int(factor.p), int(factor.q)
        for number, sign in ((numerator, 1), (denominator, -1)):
            other = denominator if sign == 1 else numerator
            digits = len(str(number)) - 1
            if other == 1 and number == 10**digits:
                return sign * digits
    return None


def _same(a: _Part, b: _Part) -> bool | None:
    """Whether two parts are equal: exactly when both are rational, else to 45 of 50 digits
    (infinities only to themselves)."""
    import sympy

    if a.exact is not None and b.exact is not None:
        return a.exact == b.exact
    left = a.value if a.exact is None else sympy.Rational(a.exact.numerator, a.exact.denominator)
    right = b.value if b.exact is None else sympy.Rational(b.exact.numerator, b.exact.denominator)
    if left.is_infinite or right.is_infinite:
        return bool(left == right)
    if a.places is not None or b.places is not None:
        # A written decimal is the other value only rounded to its places (``_rounds_to``).
        return False
    difference = abs(left - right)
    if difference * 10**_EQUAL_DIGITS > max(abs(left), abs(right)):
        return False
    left, right = _precise(a), _precise(b)
    difference = abs(left - right)
    return bool(difference * 10**_EXACT_EQUAL_DIGITS <= max(abs(left), abs(right), 1))


def _precise(part: _Part) -> Any:
    """A part's value to 1,000 digits (an exact one as it is)."""
    import sympy

    if part.exact is not None:
        return sympy.Rational(part.exact.numerator, part.exact.denominator)
    return sympy.N(part.expr, _EXACT_DIGITS)


def _rounds_to(exact: _Part, rounded: _Part) -> bool:
    """Whether ``rounded`` is a written decimal and ``exact`` rounded to its places
    (``written_numbers.approximates``)."""
    from services.mathcheck.written_numbers import approximates

    # No decimal stands for a value it rounds at fewer than one place (2.5 times 10^3).
    if rounded.places is None or rounded.places < 1 or rounded.exact is None:
        return False
    if exact.exact is not None:
        exact_value = exact.exact
    elif exact.value.is_infinite:
        return False
    else:
        # Known well past the decimal's places, so that its rounding is the value's.
        exact_value = Fraction(str(_precise(exact)))
    return approximates(exact_value, rounded.exact, rounded.places)


def _leaf_values(expr: Any) -> list[Any] | None:
    """The numbers of a number, interval, union, tuple, set or matrix, with its shape."""
    import sympy

    if isinstance(expr, sympy.MatrixBase):
        return [("matrix", expr.shape), *expr]
    if isinstance(expr, sympy.Interval):
        return [("interval", expr.left_open, expr.right_open), expr.start, expr.end]
    if isinstance(expr, sympy.Union | sympy.Tuple):
        leaves: list[Any] = [(type(expr).__name__, len(expr.args))]
        inners = []
        for arg in expr.args:
            inner = _leaf_values(arg)
            if inner is None:
                return None
            inners.append(inner)
        if isinstance(expr, sympy.Union):
            # In the order of their values: sympy orders a union's parts by their form.
            try:
                inners.sort(key=_order)
            except TypeError:
                return None
        for inner in inners:
            leaves.extend(inner)
        return leaves
    if isinstance(expr, sympy.FiniteSet) and all(
        arg.is_number and arg.is_real for arg in expr.args
    ):
        # A set in the order of its values, so that "1/3, 1.732" lines up with "1/3, \sqrt3".
        ordered = sorted(expr.args, key=lambda arg: float(sympy.N(arg)))
        return [("FiniteSet", len(ordered)), *ordered]
    if isinstance(expr, sympy.Basic) and expr.is_number:
        return [expr]
    return None


def _order(leaves: list[Any]) -> list[float]:
    """A part of a union by the (rounded) values of its numbers."""
    import sympy

    return [float(sympy.N(leaf)) for leaf in leaves if not isinstance(leaf, tuple)]


def warm_up(
    answers: tuple[str, ...] = (), pairs: tuple[tuple[str, str], ...] = (("\\frac{1}{2}", "0.5"),)
) -> None:
    """Parse ``answers`` and compare ``pairs`` so that the first real items are not slow."""
    logging.getLogger("math_verify").setLevel(logging.ERROR)
    for answer in answers:
        _parse(answer)
    for reference, answer in pairs:
        symbolic_equal(reference, answer)
    # Warm-up answers are not the service's own: keep them out of the parse caches.
    _parse_cached.cache_clear()
    from services.mathcheck.expression_reader import read_expression

    read_expression.cache_clear()
