"""Read an answer once into a typed value (``answer_types``).

``read`` takes an answer as the front end of ``alignment.py`` wrote it (LaTeX) and tries
the readers in turn: an option letter with its value (``(C) 12``), named values
(``a = 2, b = 3``), solutions of a system (``x = 1, y = 2 or x = 3, y = 4``), an
expression with one ``\\pm``, an angle in degrees, a number in a base (``1011_2``),
inequalities in one unknown joined by "or" (``x < 1 or x > 3``, a union), one unknown and
its value (``x = 3``), a yes or a no before its reason, option letters chosen
(``A and C``), a ratio of numbers (``read_ratio``), a quantity with a unit of a known kind
(``units.py`` finds the unit and the amount as written; the amount's value is the answer's
canonical form, or the amount's own where that is no number), then the normalised string
(``normalization.py``) as a plain number, an option letter or words (a Roman numeral keeps
that reading beside its value); anything else is an ``Expr``.

A ratio of plain numbers (``1:2:3``, ``2 \\colon 3``, ``2 to 3``) is read in lowest terms.
A time of day is no ratio to reduce: ``20:34`` is not ``10:17``. Hours and two-digit
minutes (``20:34``, and ``8:34 p.m.`` or ``20:34:00`` as normalisation writes them) keep
their terms as written; a ratio in lowest terms reads alike either way, and ``2:4``, with
one digit after the colon, is still ``1:2``.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import replace
from fractions import Fraction

from services.mathcheck.answer_types import (
    Angle,
    Answer,
    Assignment,
    Based,
    Choice,
    Expr,
    Family,
    Function,
    Groups,
    Interval,
    Labelled,
    Matrix,
    Named,
    NamedValues,
    Number,
    Numbers,
    Options,
    PlusMinus,
    Quantity,
    Ratio,
    Relation,
    Residues,
    Roman,
    Seq,
    Set,
    Union,
    Word,
)
from services.mathcheck.latex_tokens import (
    SPACE,
    Kind,
    Token,
    answer_tokens,
    degree_sign_end,
    is_letter,
    is_word,
    join,
    name_end,
    nesting,
    rescan,
    rstrip,
    skip_spaces,
    strip,
    symbol,
    tokenize,
    top_level_parts,
    unwrap,
    without_delimiters,
    without_spaces,
    without_spacing,
)
from services.mathcheck.normalization import canonical_tokens, normalized
from services.mathcheck.structures import Matrix as NumberMatrix
from services.mathcheck.structures import (
    NumberSet,
    Sequence,
    Structure,
    read_structure,
)
from services.mathcheck.units import WrittenQuantity, written_quantity
from services.mathcheck.vocabulary import (
    CHOICE_LETTERS,
    JOINT_WORDS,
    POWER_WORDS,
    RELATION_SPELLINGS,
    TEXT_FONTS,
    UNITS,
)
from services.mathcheck.written_numbers import ParsedNumber, parse_number, roman_numeral

# The fonts words are written in: "\\text{XL}", "\\mathrm{FF}_{16}" are presentation.
# The canonical form of the real numbers by name (``normalization._NAMED_SETS``).
REAL_LINE = "\\mathbb{R}"


# A group's completions share answers, and a reference is read for each of them.
@functools.lru_cache(maxsize=4096)
def read(text: str) -> Answer:
    """The typed value of one answer: its tokens are scanned once, and every reader reads
    them (a part of the answer is read from its own tokens)."""
    return _read(answer_tokens(text))


def read_tokens(tokens: list[Token]) -> Answer:
    """The typed value of an answer's tokens (as the front end leaves them,
    ``alignment.latex_tokens``)."""
    return _read(without_delimiters(tokens))


def _read(tokens: list[Token]) -> Answer:
    """The typed value of an answer's tokens, without delimiters (``answer_tokens``)."""
    return (
        _labelled(tokens)
        or _function(tokens)
        or _functions_listed(tokens)
        or _residues(tokens)
        or _family(tokens)
        or _named(tokens)
        or _groups(tokens)
        or _plus_minus(tokens)
        or _angle(tokens)
        or _based(tokens)
        or _unit_vectors(tokens)
        or _alternatives(tokens)
        or _written_or_listed(tokens)
    )


def _written_or_listed(tokens: list[Token]) -> Answer:
    """The answer as written (``_written``); one it leaves an expression or a list of
    answers may be a list joined by words (``_joined``: "5 and 7", "1, 2, and 3")."""
    written = _written(tokens)
    if not isinstance(written, Expr | Set) or not any(
        t.text in JOINT_WORDS or t.text == ";" or t.kind is Kind.SPACE for t in tokens
    ):
        return written  # no joint, and no space between two quantities
    return _compound_quantity(tokens) or _joined(tokens) or written


def _compound_quantity(tokens: list[Token]) -> Quantity | None:
    """ "12 dollars and 40 cents", "1 hour and 30 minutes", "5 feet 3 inches": quantities
    of one kind, each in a smaller unit than the one before, joined by "and" or nothing,
    are one quantity, their sum (in the first one's unit); joined by commas they are a
    list."""
    parts = _quantity_parts(tokens)
    if len(parts) < 2:
        return None
    written = [written_quantity(without_delimiters(part)) for part in parts]
    quantities = [
        None if part is None else _quantity(part, normalized(list(part.amount))) for part in written
    ]
    terms = [quantity for quantity in quantities if quantity is not None]
    if len(terms) != len(parts) or len({term.kind for term in terms}) != 1:
        return None
    if "/" in terms[0].kind:  # a rate
        return None
    if any(larger.factor <= smaller.factor for larger, smaller in itertools.pairwise(terms)):
        return None
    first = terms[0]
    value = sum(quantity.value * quantity.factor for quantity in terms) / first.factor
    number = Number(ParsedNumber(value), str(value))
    return Quantity(value, first.kind, first.factor, number, f"{value} {first.kind}*{first.factor}")


def _quantity_parts(tokens: list[Token]) -> list[list[Token]]:
    """The parts of ``tokens`` between "and" (maybe in text), and at the spaces after a
    unit's word (or a group's brace) before the digits of the next quantity."""
    parts: list[list[Token]] = []
    for joined in _split_on_words(tokens, ("and",), ()):
        parts.append([])
        for index, token in enumerate(joined):
            if _before_next_quantity(joined, index):
                parts.append([])
            else:
                parts[-1].append(token)
    return [part for part in parts if strip(part)]


def _before_next_quantity(tokens: list[Token], index: int) -> bool:
    """Whether the space at ``index`` ends a unit's word and the digits of a number follow."""
    after = skip_spaces(tokens, index)
    return (
        tokens[index].kind is Kind.SPACE
        and index > 0
        and (tokens[index - 1].kind is Kind.WORD or tokens[index - 1].is_symbol("}"))
        and after < len(tokens)
        and tokens[after].kind is Kind.DIGITS
    )


def _choice_letter(token: Token) -> bool:
    return token.kind is Kind.WORD and len(token.text) == 1 and token.text in CHOICE_LETTERS


def _labelled(tokens: list[Token]) -> Labelled | None:
    """ "(C) 12", "\\text{(C)} 12", "C) 12", "C. 12", "(C): 12": an option letter, then its
    value (in which no other option is named)."""
    index = skip_spaces(tokens, 0)
    if index < len(tokens) and tokens[index].is_symbol("$"):
        index = skip_spaces(tokens, index + 1)
    if index < len(tokens) and tokens[index].is_command("\\text", "\\textbf"):
        opening = skip_spaces(tokens, index + 1)
        if opening < len(tokens) and tokens[opening].is_symbol("{"):
            index = skip_spaces(tokens, opening + 1)
    if index + 2 < len(tokens) and tokens[index].is_symbol("("):
        if not _choice_letter(tokens[index + 1]) or not tokens[index + 2].is_symbol(")"):
            return None
        letter, index = tokens[index + 1].text, index + 3
    elif index + 1 < len(tokens) and _choice_letter(tokens[index]):
        if not tokens[index + 1].is_symbol(".", ")", ":"):
            return None
        letter, index = tokens[index].text, index + 2
    else:
        return None
    for closing in ("}", "$", ":"):
        index = skip_spaces(tokens, index)
        if index < len(tokens) and tokens[index].is_symbol(closing):
            index += 1
    value = strip(tokens[index:])
    if not value or _names_an_option(value):
        return None
    if not join(value).strip("}$ "):
        return None  # "\\text{(C)}": the letter alone, its closing brace is not a value
    answer = _read(without_delimiters(value))
    return Labelled(letter, answer, f"({letter}) {answer.canonical}")


def _names_an_option(tokens: list[Token]) -> bool:
    """Whether ``tokens`` hold "(B)": another option letter in parentheses."""
    for index, token in enumerate(tokens):
        if token.is_symbol("("):
            letter = skip_spaces(tokens, index + 1)
            closing = skip_spaces(tokens, letter + 1)
            if (
                closing < len(tokens)
                and _choice_letter(tokens[letter])
                and tokens[closing].is_symbol(")")
            ):
                return True
    return False


# What may follow a function's letter in its name: nothing, or its inverse's exponent.
_FUNCTION_MARKS = ("", "^{-1}", "^-1")
# The words that start a qualifier after a formula: "cx for some constant c", "x where ...".
_QUALIFIERS = frozenset(
    ("some", "any", "all", "every", "each", "a", "an", "arbitrary", "real", "constant", "constants")
)
# Spacing and openings left before a qualifier: "cx \\text{ for some constant } c".
_BEFORE_QUALIFIER = frozenset(("\\quad", "\\qquad", "\\,", "\\;", "\\ ", ",", "("))
_OPENING_TEXT = frozenset(("\\text", "\\mbox"))
_SPACINGS = frozenset(("\\quad", "\\qquad", "\\,", "\\;", "\\ "))


def _function(tokens: list[Token]) -> Function | None:
    """ "g(t) = 3t + 1": a function's letter, its argument (one letter) and its formula,
    which must be one value (no second "=", no list); a qualifier after the formula ("for
    some constant c") is dropped."""
    equals = [index for index, token in enumerate(tokens) if "=" in token.text]
    if len(equals) != 1:
        return None
    name, opening, argument = join(tokens[: equals[0]]).strip().partition("(")
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
    formula, qualifier = _without_qualifier(strip(tokens[equals[0] + 1 :]))
    parts = top_level_parts(formula, ",")
    if not formula or parts is None or len(parts) != 1:
        return None
    value = _read(without_delimiters(formula))
    canonical = f"{name}({argument})={value.canonical}"
    # A name the qualifier declares counts where the formula uses it ("\\forall x \\in
    # \\mathbb{R}" declares no constant R).
    letters = {letter for token in formula if token.kind is Kind.WORD for letter in token.text}
    constants = (_letters_named(qualifier) & letters) - {argument}
    if constants:
        canonical += " for constants " + ", ".join(sorted(constants))
    return Function(name, argument, value, join(formula), canonical, constants)


# What a parameter's declaration may say it runs over, and where a family's formula ends.
_FAMILY_MARKS = frozenset(("\\in", "integer", "integers", "real", "\\ldots", "\\dots", "…"))
_BEFORE_DECLARATION = frozenset(("for", "where", "with", "all", "any", "every", "each", "some"))
_FILLERS = frozenset(("is", "an", "a", "any", "all", "every", "each", "some", "arbitrary"))
# The sets a parameter is declared in, by the words of their LaTeX (spaces aside).
_DOMAIN_SETS = {
    ("\\mathbb", "{", "Z", "}"): "Z",
    ("\\mathbb", "{", "R", "}"): "R",
    ("\\mathbb", "{", "Z", "}", "_", "{", "\\ge", "0", "}"): "Z>=0",
    ("\\mathbb", "{", "Z", "}", "_", "{", "\\geq", "0", "}"): "Z>=0",
    ("\\mathbb", "{", "Z", "}", "_", "{", ">", "0", "}"): "Z>0",
    ("\\mathbb", "{", "Z", "}", "^", "+"): "Z>0",
    ("\\mathbb", "{", "Z", "}", "^", "{", "+", "}"): "Z>0",
    ("\\mathbb", "{", "N", "}", "_", "0"): "Z>=0",
    ("\\mathbb", "{", "N", "}", "_", "{", "0", "}"): "Z>=0",
    ("\\mathbb", "{", "N", "}", "^", "+"): "Z>0",
    ("\\mathbb", "{", "N", "}", "^", "*"): "Z>0",
}
# The words a parameter's set is said in: "k is an integer", "m \\ge 0 an integer".
_DOMAIN_WORDS: dict[tuple[str, ...], str] = {
    ("integer",): "Z",
    ("integers",): "Z",
    ("real",): "R",
    ("real", "number"): "R",
    ("non", "-", "negative", "integer"): "Z>=0",
    ("nonnegative", "integer"): "Z>=0",
    ("positive", "integer"): "Z>0",
}
# A bound with the word "integer" after it: "m \\ge 0 an integer".
_BOUNDS: dict[tuple[str, ...], str] = {
    ("\\ge", "0"): "Z>=0",
    ("\\geq", "0"): "Z>=0",
    ("\\ge", "1"): "Z>0",
    ("\\geq", "1"): "Z>0",
    (">", "0"): "Z>0",
}
_ELLIPSES = frozenset(("\\ldots", "\\dots", "\\cdots", "…", "..."))


def _family(tokens: list[Token]) -> Family | None:
    """ "x = k\\pi, k \\in \\mathbb{Z}", "x = \\pi k \\text{ where } k \\text{ is an integer}",
    "2^k \\ (k = 0, 1, 2, \\ldots)", "\\{k\\pi : k \\in \\mathbb{Z}\\}", "(x, y) = (t, 2t),
    t \\in \\mathbb{R}": a formula in a parameter, maybe a name given it, and the parameter's
    set (the integers, those from 0 or from 1, or the reals: "k \\ge 0" alone says no
    set, nor does the ambiguous \\mathbb{N})."""
    if not any(token.text in _FAMILY_MARKS for token in tokens):
        return None
    plain = strip(_in_plain_words(tokens))
    if len(plain) > 2 and plain[0].is_command("\\{") and plain[-1].is_command("\\}"):
        # A set-builder: the formula, then ":", "\\mid" or a bar (one alone, not an
        # absolute value's two) and the declaration.
        inner = plain[1:-1]
        bar = next((index for index, t in enumerate(inner) if t.is_command("\\mid")), None)
        parts = [inner[:bar], inner[bar + 1 :]] if bar is not None else None
        for separator in (":", "|"):
            parts = parts or _two_parts(top_level_parts(inner, separator))
        return None if parts is None else _family_of(parts[0], parts[1])
    depth = 0
    for index, token in enumerate(plain):
        if (
            depth == 0
            and index
            and (token.is_symbol(",", "(") or token.text.lower() in _BEFORE_DECLARATION)
        ):
            declaration = plain[index:] if token.is_symbol("(") else plain[index + 1 :]
            family = _family_of(plain[:index], declaration)
            if family is not None:
                return family
        depth += nesting(token)
    return None


def _in_plain_words(tokens: list[Token]) -> list[Token]:
    """``tokens`` with their words out of text fonts and without spacing commands: what a
    family's or a congruence's declaration is read from."""
    return [
        token
        for token in rescan(unwrap(tokens, TEXT_FONTS, spaced=True))
        if not token.is_command(*_SPACINGS)
    ]


def _two_parts(parts: list[list[Token]] | None) -> list[list[Token]] | None:
    return parts if parts is not None and len(parts) == 2 else None


# The words and commands a modulus is written with: "\\pmod{6}", "(\\bmod 6)", "(mod 6)".
_MODULUS_WORDS = frozenset(("\\pmod", "\\bmod", "\\mod", "mod"))
_MAX_MODULUS = 10_000


def _residues(tokens: list[Token]) -> Residues | None:
    """ "n \\equiv \\pm 1 \\pmod{6}", "n \\equiv 1 \\text{ or } 5 \\pmod 6", "n \\equiv 1, 5
    \\ (\\text{mod } 6)": an unknown (maybe unnamed) congruent to whole residues (a sign or
    ``\\pm`` before each) modulo a whole modulus."""
    if not any(token.text == "\\equiv" for token in tokens):
        return None
    plain = [token for token in _in_plain_words(tokens) if token.kind is not Kind.SPACE]
    relation = [index for index, token in enumerate(plain) if token.is_command("\\equiv")]
    if len(relation) != 1:
        return None
    left, right = plain[: relation[0]], plain[relation[0] + 1 :]
    if len(left) > 1 or (left and not is_letter(left[0])):
        return None
    texts = [token.text for token in right if not token.is_symbol("{", "}")]
    if texts[-1:] == [")"]:
        texts = texts[:-1]
    if len(texts) < 3 or not texts[-1].isdigit() or texts[-2] not in _MODULUS_WORDS:
        return None
    modulus = int(texts[-1])
    written = texts[:-2]
    if written[-1:] == ["("]:
        written = written[:-1]
    if not 2 <= modulus <= _MAX_MODULUS or not written:
        return None
    residues: set[int] = set()
    for item in _listed_items(written):
        signs = {"\\pm": (1, -1), "+": (1,), "-": (-1,)}.get(item[0])
        digits = item[1:] if signs is not None else item
        if len(digits) != 1 or not digits[0].isdigit():
            return None
        residues.update(sign * int(digits[0]) % modulus for sign in signs or (1,))
    name = left[0].text if left else None
    listed = ", ".join(str(residue) for residue in sorted(residues))
    canonical = f"{name or ''}\\equiv {listed} (mod {modulus})"
    return Residues(name, modulus, frozenset(residues), canonical)


def _listed_items(texts: list[str]) -> list[list[str]]:
    """The items of a list joined by commas, "or" or "and"."""
    items: list[list[str]] = [[]]
    for text in texts:
        if text in (",", "or", "and"):
            items.append([])
        else:
            items[-1].append(text)
    return [item for item in items if item] if all(items) else [[]]


def _family_of(formula: list[Token], declaration: list[Token]) -> Family | None:
    """The family of ``formula`` (maybe "name = formula") over the parameter
    ``declaration`` declares; None when it declares none, or the formula does not use it."""
    declared = _declared(declaration)
    formula = strip(formula)
    while formula and (formula[-1].is_symbol(",") or formula[-1].text in _BEFORE_DECLARATION):
        formula = strip(formula[:-1])
    if declared is None or not formula:
        return None
    parameter, domain = declared
    sides = top_level_parts(formula, "=")
    if sides is None or len(sides) > 2:
        return None
    name = join(strip(sides[0])).replace(" ", "") if len(sides) == 2 else None
    body = strip(sides[-1])
    entries = _tuple_entries(body)
    if any(top_level_parts(entry, ",") != [entry] for entry in entries):
        return None
    letters = {
        letter for entry in entries for t in entry if t.kind is Kind.WORD for letter in t.text
    }
    if parameter not in letters:
        return None
    texts = tuple(join(entry) for entry in entries)
    written = ", ".join(texts)
    canonical = f"{name + '=' if name else ''}({written}) for {parameter} in {domain}"
    return Family(name, parameter, domain, texts, canonical)


def _tuple_entries(body: list[Token]) -> list[list[Token]]:
    """The entries of a tuple in parentheses, or the formula alone."""
    if len(body) > 2 and body[0].is_symbol("(") and body[-1].is_symbol(")"):
        parts = top_level_parts(body[1:-1], ",")
        if parts is not None and len(parts) > 1:
            return [strip(part) for part in parts]
    return [body]


def _declared(declaration: list[Token]) -> tuple[str, str] | None:
    """The parameter and its set a declaration says: "k \\in \\mathbb{Z}", "k is an
    integer", "any integer k", "m \\ge 0 an integer", "k = 0, 1, 2, \\ldots", "(n \\in
    \\mathbb{Z})"; None for anything else."""
    words = [token.text for token in declaration if token.kind is not Kind.SPACE]
    if words[:1] == ["("] and words[-1:] == [")"]:
        words = words[1:-1]
    while words and words[-1] in (".", ","):
        words = words[:-1]
    while words and words[0].lower() in _BEFORE_DECLARATION | _FILLERS:
        words = words[1:]
    if not words:
        return None
    for phrase, named in _DOMAIN_WORDS.items():  # "integer k", "real a"
        if _lower(words[: len(phrase)]) == phrase and len(words) == len(phrase) + 1:
            return (words[-1], named) if _is_parameter(words[-1]) else None
    parameter, rest = words[0], words[1:]
    if not _is_parameter(parameter) or not rest:
        return None
    if rest[0] == "\\in":
        domain = _DOMAIN_SETS.get(tuple(rest[1:]))
        return None if domain is None else (parameter, domain)
    if rest[0] == "=":
        return _enumerated(parameter, rest[1:])
    bound = _BOUNDS.get(tuple(rest[:2]))
    if bound is not None:
        rest = rest[2:]
        while rest and rest[0].lower() in _FILLERS:
            rest = rest[1:]
        return (parameter, bound) if _DOMAIN_WORDS.get(_lower(rest)) == "Z" else None
    while rest and rest[0].lower() in _FILLERS:
        rest = rest[1:]
    said = _DOMAIN_WORDS.get(_lower(rest))
    return None if said is None else (parameter, said)


def _lower(words: list[str]) -> tuple[str, ...]:
    return tuple(word.lower() for word in words)


def _enumerated(parameter: str, values: list[str]) -> tuple[str, str] | None:
    """ "0, 1, 2, \\ldots" (from 0), "1, 2, 3, \\ldots" (from 1): the set a parameter's
    first values and an ellipsis say."""
    if len(values) < 4 or values[-1] not in _ELLIPSES or values[-2] != ",":
        return None
    listed = [value for value in values[:-2] if value != ","]
    domain = {"0": "Z>=0", "1": "Z>0"}.get(listed[0] if listed else "")
    start = int(listed[0]) if domain is not None else 0
    counted = [str(value) for value in range(start, start + len(listed))]
    if domain is None or len(listed) < 2 or listed != counted:
        return None
    return parameter, domain


def _is_parameter(text: str) -> bool:
    """A parameter's name: one letter."""
    return len(text) == 1 and text.isascii() and text.isalpha()


def _functions_listed(tokens: list[Token]) -> Set | None:
    """ "f(x) = 0 \\text{ and } f(x) = x^2", "f \\equiv 0 \\text{ or } f(x) = x^2": one
    function's formulas listed (by commas, "and" or "or") are the set of them; "f \\equiv
    c", a constant written for a function, is the function of that constant value."""
    second = skip_spaces(tokens, 1)
    if not (tokens and is_letter(tokens[0]) and second < len(tokens)):
        return None
    if tokens[second].text not in ("(", "\\equiv", "^"):  # "f(x) =", "f \\equiv", "f^{-1}(x)"
        return None
    if sum(token.text in ("=", "\\equiv") for token in tokens) < 2:
        return None
    parts = top_level_parts(_with_commas(tokens) or tokens, ",")
    if parts is None or len(parts) < 2:
        return None
    functions = [_function(strip(part)) or _constant_function(strip(part)) for part in parts]
    items = tuple(function for function in functions if function is not None)
    if len(items) != len(parts) or len({item.name for item in items}) != 1:
        return None  # "f(x) = x, g(x) = 2" gives two functions their values
    return Set(items, ", ".join(item.canonical for item in items))


def _constant_function(tokens: list[Token]) -> Function | None:
    """ "f \\equiv 0", "g \\equiv -1": a function's letter and a constant it is
    everywhere."""
    if len(tokens) < 3 or not is_letter(tokens[0]):
        return None
    relation = skip_spaces(tokens, 1)
    if relation >= len(tokens) or not tokens[relation].is_command("\\equiv"):
        return None
    body = strip(tokens[relation + 1 :])
    if not body or any(token.kind is Kind.WORD for token in body):
        return None
    value = _read(body)
    name = tokens[0].text
    return Function(name, "x", value, join(body), f"{name}(x)={value.canonical}")


def _letters_named(qualifier: list[Token]) -> frozenset[str]:
    """The names of one letter in a qualifier: "for some constant $c$" names c, "where k
    is a constant" names k (and the article a, which a formula without a does not use)."""
    return frozenset(token.text for token in qualifier if is_letter(token))


def _without_qualifier(body: list[Token]) -> tuple[list[Token], list[Token]]:
    """The formula and what is said after it: "cx \\text{ for some constant } c" is "cx"
    and "for some constant } c" (nothing when nothing is said)."""
    cut = next((index for index in range(1, len(body)) if _starts_qualifier(body, index)), None)
    if cut is None:
        return body, []
    kept = rstrip(body[:cut])
    while kept:
        if kept[-1].text in _BEFORE_QUALIFIER:
            kept = rstrip(kept[:-1])
        elif len(kept) >= 2 and kept[-1].is_symbol("{") and kept[-2].text in _OPENING_TEXT:
            kept = rstrip(kept[:-2])
        else:
            break
    return strip(kept), body[cut:]


def _starts_qualifier(tokens: list[Token], index: int) -> bool:
    """Whether "where", "\\forall", "for" and a word of ``_QUALIFIERS`` ("for a constant
    c"), or a letter and "\\in" after a comma or an opening ("c \\in \\mathbb{R}"), starts
    at ``index``."""
    word = tokens[index].text.lower() if tokens[index].kind is Kind.WORD else ""
    if word == "where" or tokens[index].is_command("\\forall"):
        return True
    member = skip_spaces(tokens, index + 1)
    if is_letter(tokens[index]) and member < len(tokens) and tokens[member].is_command("\\in"):
        before = rstrip(tokens[:index])
        return bool(before) and (before[-1].is_symbol(",", "(") or before[-1].text in _SPACINGS)
    after = index + 2
    return (
        word == "for"
        and after < len(tokens)
        and tokens[index + 1].kind is Kind.SPACE
        and tokens[after].kind is Kind.WORD
        and tokens[after].text.lower() in _QUALIFIERS
    )


def _assignment(tokens: list[Token]) -> tuple[str, list[Token]] | None:
    """ "x_1 = 2" -> ("x_1", the tokens of 2): a name and the one value it is given."""
    part = strip(tokens)
    end = name_end(part, 0)
    if end is None:
        return None
    equals = skip_spaces(part, end)
    value = strip(part[equals + 1 :])
    if equals >= len(part) or not part[equals].is_symbol("=") or not value:
        return None
    if any(token.is_symbol("=") for token in value):
        return None
    return join(part[:end]), value


def _and_as_comma(tokens: list[Token]) -> list[Token]:
    """ "a = 2 and b = 3", "a = 2 \\text{ and } b = 3", "a = 2 \\quad b = 3": "and", or a
    wide space between two values, joins as a comma does (one comma for "\\quad\\text{
    and}\\quad")."""
    if not any(token.text == "and" or token.text in _WIDE_SPACES for token in tokens):
        return tokens
    kept: list[Token] = []
    index = 0
    depth = 0
    while index < len(tokens):
        end = _text_word_end(tokens, index, "and")
        if end is None and is_word(tokens, index, "and"):
            end = index + 1
        if end is None and depth == 0 and tokens[index].text in _WIDE_SPACES:
            end = index + 1
        if end is None:
            depth += nesting(tokens[index])
            kept.append(tokens[index])
            index += 1
            continue
        kept = rstrip(kept)
        if kept and not kept[-1].is_symbol(","):
            kept.append(symbol(","))
        index = skip_spaces(tokens, end)
    return kept


_WIDE_SPACES = frozenset(("\\quad", "\\qquad"))


def _text_word_end(tokens: list[Token], index: int, *words: str) -> int | None:
    """The end of ``\\text{ or }`` (one of ``words`` in text) at ``index``; None if none."""
    if index >= len(tokens) or not tokens[index].is_command("\\text"):
        return None
    opening = skip_spaces(tokens, index + 1)
    if opening >= len(tokens) or not tokens[opening].is_symbol("{"):
        return None
    word = skip_spaces(tokens, opening + 1)
    closing = skip_spaces(tokens, word + 1)
    if (
        closing < len(tokens)
        and tokens[word].kind is Kind.WORD
        and tokens[word].text in words
        and tokens[closing].is_symbol("}")
    ):
        return closing + 1
    return None


def _named_tuple(tokens: list[Token]) -> list[tuple[str, list[Token]]] | None:
    """ "(a, b) = (2, 3)" -> [("a", the tokens of 2), ("b", the tokens of 3)]."""
    index = skip_spaces(tokens, 0)
    if index >= len(tokens) or not tokens[index].is_symbol("("):
        return None
    names: list[str] = []
    while True:
        start = skip_spaces(tokens, index + 1)
        end = name_end(tokens, start)
        if end is None:
            return None
        names.append(join(tokens[start:end]))
        index = skip_spaces(tokens, end)
        if index < len(tokens) and tokens[index].is_symbol(")"):
            break
        if index >= len(tokens) or not tokens[index].is_symbol(","):
            return None
    equals = skip_spaces(tokens, index + 1)
    values = strip(tokens[equals + 1 :])
    if len(names) < 2 or equals >= len(tokens) or not tokens[equals].is_symbol("="):
        return None
    if len(values) < 3 or not values[0].is_symbol("(") or not values[-1].is_symbol(")"):
        return None
    parts = top_level_parts(values[1:-1], ",")
    if parts is None or len(parts) != len(names):
        return None
    return list(zip(names, (strip(part) for part in parts), strict=True))


def _named_values(tokens: list[Token]) -> NamedValues | None:
    """ "a = 2, b = 3" and "(a, b) = (2, 3)" -> (("a", 2), ("b", 3)), each value read;
    distinct names only."""
    pairs = _named_tuple(tokens)
    if pairs is None:
        parts = top_level_parts(_and_as_comma(tokens), ",")
        if parts is None or len(parts) < 2:
            return None
        assignments = [_assignment(part) for part in parts]
        pairs = [assignment for assignment in assignments if assignment is not None]
        if len(pairs) != len(assignments):
            return None
    distinct = {name for name, _ in pairs}
    if len(distinct) != len(pairs) or len({name[0] for name in distinct}) == 1:
        return None  # "x = 1, x = 2" and "x_1 = 1, x_2 = 2" list the roots of one unknown
    return tuple((name, _read(without_delimiters(value))) for name, value in pairs)


def _named(tokens: list[Token]) -> Named | None:
    values = _named_values(tokens)
    if values is None:
        return None
    written = _written(tokens)
    return Named(values, written, written.canonical)


def _split_on_words(
    tokens: list[Token], words: tuple[str, ...], marks: tuple[str, ...]
) -> list[list[Token]]:
    """The parts of ``tokens`` between the joints outside brackets: a word of ``words``
    alone (maybe after a comma), in text (``\\text{ or }``), or a token of ``marks``; spaces
    around a joint are not part of the parts."""
    if not any(token.text in words or token.text in marks for token in tokens):
        return [tokens]
    parts: list[list[Token]] = [[]]
    depth = 0
    index = 0
    while index < len(tokens):
        end = _joint_end(tokens, index, words, marks) if depth == 0 else None
        if end is None:
            depth += nesting(tokens[index])
            parts[-1].append(tokens[index])
            index += 1
            continue
        parts[-1] = rstrip(parts[-1])
        parts.append([])
        index = skip_spaces(tokens, end)
    return parts


def _joint_end(
    tokens: list[Token], index: int, words: tuple[str, ...], marks: tuple[str, ...]
) -> int | None:
    """The end of the joint at ``index`` (``_split_on_words``; a comma before a word is
    part of it); None where none starts."""
    if tokens[index].text in marks:
        return index + 1
    word = skip_spaces(tokens, index + 1) if tokens[index].is_symbol(",") else index
    end = _text_word_end(tokens, word, *words)
    if end is None and is_word(tokens, word, *words):
        end = word + 1
    return end


def _groups(tokens: list[Token]) -> Groups | None:
    """ "x = 1, y = 2 or x = 3, y = 4": solutions of a system, the same names in each."""
    segments = _split_on_words(tokens, ("or", "and"), (";",))
    if len(segments) < 2:
        return None
    groups: list[NamedValues] = []
    for segment in segments:
        group = _named_values(without_spacing(without_delimiters(segment)))
        if group is None:
            return None
        groups.append(group)
    if len({frozenset(name for name, _ in group) for group in groups}) != 1:
        return None
    written = _written(tokens)
    return Groups(tuple(groups), written, written.canonical)


_PLUS_MINUS = ("\\pm", "±")


def has_plus_minus(text: str) -> bool:
    """Whether ``text`` writes a ``\\pm``."""
    return any(token.text in _PLUS_MINUS for token in tokenize(text))


def mentions_pi(text: str) -> bool:
    """Whether ``text`` writes π."""
    return _has_pi(tokenize(text))


def _has_pi(tokens: list[Token]) -> bool:
    return any(token.is_command("\\pi") or token.is_symbol("π") for token in tokens)


def _without_solved_for(tokens: list[Token]) -> list[Token]:
    """ "x = \\frac{3 \\pm \\sqrt{5}}{2}" -> the value: the unknown it is solved for goes."""
    index = skip_spaces(tokens, 0)
    if index < len(tokens) and is_letter(tokens[index]):
        equals = skip_spaces(tokens, index + 1)
        if equals < len(tokens) and tokens[equals].is_symbol("="):
            return tokens[skip_spaces(tokens, equals + 1) :]
    return tokens


def _plus_minus(tokens: list[Token]) -> PlusMinus | None:
    """ "\\frac{3 \\pm \\sqrt{5}}{2}": both values, "\\frac{3 + \\sqrt{5}}{2}, \\frac{3 -
    \\sqrt{5}}{2}", beside the text as written."""
    signed = _without_solved_for(tokens)
    written = join(signed)
    signs = [index for index, token in enumerate(signed) if token.text in _PLUS_MINUS]
    if len(signs) != 1 or "\\mp" in written or "," in written or "=" in written:
        return None
    at = signs[0]
    before, after = signed[:at], signed[at + 1 :]
    plus = [*before, SPACE, symbol("+"), SPACE, *after]
    minus = [*before, SPACE, symbol("-"), SPACE, *after]
    both = _read(rescan([*plus, symbol(","), SPACE, *minus]))
    value = _written(tokens)
    return PlusMinus(both, value, value.canonical)


_DEGREE_MARKS = frozenset(("°", "\\degree", "\\circ", "degree", "degrees"))


def _has_degree_mark(tokens: list[Token]) -> bool:
    """ "30^\\circ", "30°", "30\\degree", "30 degrees", "30 \\text{ degrees}"."""
    if not any(token.text in _DEGREE_MARKS for token in tokens):
        return False
    for index, token in enumerate(tokens):
        if token.is_command("\\degree") or degree_sign_end(tokens, index) is not None:
            return True
        if token.kind is Kind.DIGITS:
            word = skip_spaces(tokens, index + 1)
            if word < len(tokens) and tokens[word].is_command("\\text"):
                opening = word + 1
                if opening < len(tokens) and tokens[opening].is_symbol("{"):
                    word = skip_spaces(tokens, opening + 1)
            # Digits may run into the word ("2degrees"), but no digit may follow it.
            following = tokens[word + 1] if word + 1 < len(tokens) else None
            if (
                word < len(tokens)
                and tokens[word].kind is Kind.WORD
                and tokens[word].text in ("degree", "degrees")
                and (following is None or following.kind is not Kind.DIGITS)
                and not (following is not None and following.is_symbol("_"))
            ):
                return True
    return False


def _angle(tokens: list[Token]) -> Angle | None:
    """ "30^\\circ" in radians, "\\frac{\\pi}{6}"; a list of angles entry by entry."""
    if not _has_degree_mark(tokens) or _has_pi(tokens):
        return None
    converted: list[str] = []
    for piece in _pieces(tokens, ","):
        if not _has_degree_mark(piece):
            return None
        number = parse_number(normalized(without_delimiters(piece)))
        if number is None or number.percent or number.decimal_places is not None:
            return None
        converted.append(_pi_times(number.value / 180))
    written = _written(tokens)
    return Angle(read(", ".join(converted)), written, f"{written.canonical}^\\circ")


def _pi_times(value: Fraction) -> str:
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    numerator, denominator = abs(value.numerator), value.denominator
    top = "\\pi" if numerator == 1 else f"{numerator}\\pi"
    return sign + (top if denominator == 1 else f"\\frac{{{top}}}{{{denominator}}}")


def _based(written: list[Token]) -> Based | None:
    """ "1011_2": the digits 1011 and the value 11."""
    tokens = _unwrapped(written)
    end = 0
    while end < len(tokens) and tokens[end].kind in (Kind.WORD, Kind.DIGITS):
        end += 1
    underscore = skip_spaces(tokens, end)
    if not end or underscore >= len(tokens) or not tokens[underscore].is_symbol("_"):
        return None
    subscript = without_spaces(tokens[underscore + 1 :])
    if subscript[:1] and subscript[0].is_symbol("{"):
        subscript = subscript[1:]
    if subscript[-1:] and subscript[-1].is_symbol("}"):
        subscript = subscript[:-1]
    if len(subscript) != 1 or subscript[0].kind is not Kind.DIGITS or len(subscript[0].text) > 2:
        return None
    digits, base = join(tokens[:end]), int(subscript[0].text)
    # "a_{16}" is a term of a sequence, not the digit a in base 16.
    if not 2 <= base <= 36 or len(digits) < 2 or not digits.isascii():
        return None
    try:
        value = int(digits, base)
    except ValueError:
        return None
    return Based(digits, value, f"{digits.upper()}_{{{base}}}")


_ZERO = [Token(Kind.DIGITS, "0")]
_VECTOR_MARKS = frozenset(("\\mathbf", "\\hat", "\\vec", "\\boldsymbol", "\\bm"))
_AXES = "ijk"
# The spellings of an axis's letter in a unit vector: "i", "\\imath".
_AXIS_NAMES = {
    spelling: axis
    for axis in _AXES
    for spelling in (axis, "\\" + axis, axis + "math", "\\" + axis + "math")
}


def _axis_at(tokens: list[Token], index: int) -> tuple[str, int] | None:
    """ "\\mathbf{i}", "\\hat{j}", "\\vec k", "\\hat{\\imath}" at ``index``: the axis of the
    unit vector and where it ends."""
    if index >= len(tokens) or tokens[index].text not in _VECTOR_MARKS:
        return None
    after = skip_spaces(tokens, index + 1)
    if after < len(tokens) and tokens[after].is_symbol("{"):
        letter = skip_spaces(tokens, after + 1)
        closing = skip_spaces(tokens, letter + 1)
        if (
            closing < len(tokens)
            and tokens[letter].text in _AXIS_NAMES
            and tokens[closing].is_symbol("}")
        ):
            return _AXIS_NAMES[tokens[letter].text], closing + 1
        return None
    spaced = after > index + 1 and after < len(tokens) and tokens[after].text in _AXIS_NAMES
    if spaced and (after + 1 >= len(tokens) or tokens[after + 1].kind is not Kind.DIGITS):
        return _AXIS_NAMES[tokens[after].text], after + 1
    return None


def _unit_vectors(tokens: list[Token]) -> Answer | None:
    """ "3\\mathbf{i} - \\mathbf{j} + 2\\mathbf{k}": the vector (3, -1, 2), read as a
    tuple; two components or more, each axis once (in three dimensions when a k is
    written, else in two)."""
    components: dict[str, list[Token]] = {}
    term: list[Token] = []
    index = 0
    while index < len(tokens):
        axis = _axis_at(tokens, index)
        if axis is None:
            term.append(tokens[index])
            index += 1
            continue
        # One term: a sign (all but the first), a coefficient with no sign in it, the axis.
        written = strip(term)
        sign = written[0].text if written[:1] and written[0].is_symbol("+", "-") else None
        coefficient = strip(written[1:] if sign is not None else written)
        if coefficient[-1:] and (
            coefficient[-1].is_command("\\cdot") or coefficient[-1].is_symbol("*")
        ):
            coefficient = rstrip(coefficient[:-1])
        if (components and sign is None) or axis[0] in components:
            return None
        if any(token.is_symbol("+", "-") or "@" in token.text for token in coefficient):
            return None
        components[axis[0]] = ([symbol("-")] if sign == "-" else []) + (
            coefficient or [Token(Kind.DIGITS, "1")]
        )
        term, index = [], axis[1]
    if len(components) < 2 or strip(term):
        return None
    axes = _AXES if "k" in components else _AXES[:2]
    vector = [symbol("(")]
    for name in axes:
        vector.extend((*components.get(name, _ZERO), symbol(","), SPACE))
    return _read(rescan([*vector[:-2], symbol(")")]))


# The tokens an inequality is written with (``x \\in (0, 1)`` included).
_INEQUALITIES = frozenset(
    {"<", ">", "≤", "≥", "\\in", "\\lt", "\\gt", "\\le", "\\ge"}
    | {spelling for spelling in RELATION_SPELLINGS if spelling.startswith(("\\le", "\\ge"))}
)


def _alternatives(tokens: list[Token]) -> Union | None:
    """ "x < 1 or x > 3", "x < 1, x > 3": inequalities in one unknown joined by "or" or
    listed say the union of their intervals, "(-\\infty, 1) \\cup (3, \\infty)"; None
    unless every part is one."""
    if not any(token.text in _INEQUALITIES for token in tokens):
        return None
    parts = _split_on_words(tokens, ("or",), ("\\lor", "\\vee"))
    if len(parts) < 2:
        parts = top_level_parts(tokens, ",") or []
    if len(parts) < 2:
        return None
    values = [read_normalized(canonical_tokens(without_delimiters(part))) for part in parts]
    relations = [value for value in values if isinstance(value, Relation)]
    if len(relations) != len(values) or len({relation.variable for relation in relations}) != 1:
        return None
    intervals = tuple(relation.interval.ends for relation in relations)
    return Union(intervals, " \\cup ".join(relation.canonical for relation in relations))


# The words that join the items of a list: "5 and 7", "x = 2 or x = 3".
# What an item of a list cannot be: a word ("red and blue" is words) or an option letter
# ("A and C" is the options chosen).
_NO_ITEM = (Word, Choice, Options, Labelled, Roman)


def _joined(tokens: list[Token]) -> Answer | None:
    """ "5 and 7", "1, 2, and 3", "x = 2 \\quad\\text{and}\\quad x = -3", "-2; 3": a list
    joined by words ("and", "or", maybe in text and between spacing) or by semicolons is
    the list written with commas ("5, 7"); None where no joint is, where an item is a word
    or an option letter, where the items name several unknowns, and where one is an
    inequality ("and" between inequalities is
    where both hold, not a list)."""
    if any(token.text in _INEQUALITIES for token in tokens):
        return None
    listed = _with_commas(tokens)
    if listed is None:
        return None
    parts = top_level_parts(listed, ",")
    if parts is None or len(parts) < 2 or not all(strip(part) for part in parts):
        return None
    if not _values_of_one_unknown(parts):
        return None  # "p = 4, q = 9 and p = 8, q = 3": solutions of a system, not a list
    if any(isinstance(_read(without_delimiters(part)), _NO_ITEM) for part in parts):
        return None
    return _read(listed)


def _values_of_one_unknown(parts: list[list[Token]]) -> bool:
    """Whether the parts name one unknown at most, each that names one as "x = value"
    ("x = 2, -2" and "x = 2, x = -2" do; "p = 4, q = 9" does not)."""
    named = [part for part in parts if any(token.is_symbol("=") for token in part)]
    assignments = [_assignment(without_spacing(part)) for part in named]
    names = {assignment[0] if assignment else None for assignment in assignments}
    return len(names) <= 1 and None not in names


def _with_commas(tokens: list[Token]) -> list[Token] | None:
    """``tokens`` with each joint of a list outside brackets written as a comma (one comma
    for ", and"); None where there is none, or where a joint starts or ends them."""
    semicolons = top_level_parts(tokens, ";")
    if semicolons is not None and len(semicolons) > 1:
        if any(len(top_level_parts(part, ",") or ()) > 1 for part in semicolons):
            return None  # "1,5; 2,5" may write decimals with commas
        return _comma_joined(semicolons)
    parts = _split_on_words(tokens, JOINT_WORDS, ())
    if len(parts) < 2:
        return None
    # Joints one after the other are one ("2 and and 3"); none may start or end the list.
    inner = [part for part in parts[1:-1] if without_spacing(part)]
    return _comma_joined([parts[0], *inner, parts[-1]])


def _comma_joined(parts: list[list[Token]]) -> list[Token] | None:
    """The parts as one list written with commas; None where one is empty."""
    joined: list[Token] = []
    for part in parts:
        item = without_spacing(part)
        if not item:
            return None
        joined.extend((*([symbol(","), SPACE] if joined else []), *item))
    return rescan(joined)


def _written(tokens: list[Token]) -> Answer:
    """The typed value of an answer that is none of the notations above."""
    unknown = _one_unknown(tokens)
    if unknown is not None:
        value = _read(without_delimiters(unknown[1]))
        return Assignment(unknown[0], value, f"{unknown[0]}={value.canonical}")
    verdict = _yes_or_no(tokens)
    if verdict is not None:
        return Word(verdict)
    # The readers of quantities and of Roman numerals are asked only where the scan saw
    # what they read: a unit's name (or a dollar sign), a numeral's letters.
    words = [token.text for token in tokens if token.kind is Kind.WORD]
    unit = any(_names_a_unit(word) for word in words) or any(t.text in _DOLLARS for t in tokens)
    numeral = any(len(word) > 1 and set(word) <= _ROMAN_LETTERS for word in words)
    quantity = written_quantity(tokens) if unit else None
    canonical = canonical_tokens(tokens)
    text = join(canonical)
    # A quantity's amount is the answer's canonical form where normalisation left a plain
    # number there (it drops the unit); else the amount's own.
    amount = (
        text
        if quantity is None or parse_number(text) is not None
        else normalized(list(quantity.amount))
    )
    written = (
        read_ratio(tokens, text)
        or (_quantity(quantity, amount) if quantity is not None else None)
        or _plain(tokens, canonical, numeral)
    )
    return _options(tokens, written) or written


def _quantity(written: WrittenQuantity, amount: str) -> Quantity | None:
    """The quantity ``written`` with the canonical form of its amount, ``amount``; None
    where the amount is no number (or a percentage)."""
    parsed = parse_number(amount)
    if parsed is None or parsed.percent:
        return None
    number = Number(parsed, amount)
    canonical = f"{amount} {written.unit}"
    return Quantity(parsed.value, written.kind, written.factor, number, canonical)


_DOLLARS = frozenset(("\\$", "$"))
_ROMAN_LETTERS = frozenset("IVXLCDM")


def _names_a_unit(word: str) -> bool:
    """Whether ``word`` names a unit of a known kind, maybe after a power word glued to it
    ("sqcm"), as ``units.written_quantity`` reads one."""
    word = word.lower()
    return word in UNITS or any(
        word.startswith(power) and word[len(power) :] in UNITS for power in POWER_WORDS
    )


def _one_unknown(tokens: list[Token]) -> tuple[str, list[Token]] | None:
    """ "x = 2": one unknown (one letter) and one value; "x = 2 or x = 3" and "x = 1, y = 2"
    list several, and stay whole."""
    index = skip_spaces(tokens, 0)
    if index < len(tokens) and tokens[index].is_symbol("$"):
        index = skip_spaces(tokens, index + 1)
    equals = skip_spaces(tokens, index + 1)
    if equals >= len(tokens) or not is_letter(tokens[index]) or not tokens[equals].is_symbol("="):
        return None
    value = tokens[skip_spaces(tokens, equals + 1) :]
    if any(token.text in ("=", ",", ";") and token.kind is Kind.SYMBOL for token in value):
        return None
    if any(token.text.startswith("\\text") for token in tokens if token.kind is Kind.COMMAND):
        return None
    if any(is_word(tokens, at, "or", "and") for at in range(len(tokens))):
        return None
    return tokens[index].text, value


def _yes_or_no(tokens: list[Token]) -> str | None:
    """ "No, it is not possible", "Yes: 91 = 7 \\cdot 13": a yes or a no, then the reason."""
    index = skip_spaces(tokens, 0)
    if index < len(tokens) and tokens[index].is_command("\\text"):
        opening = index + 1
        if opening < len(tokens) and tokens[opening].is_symbol("{"):
            index = skip_spaces(tokens, opening + 1)
    if index >= len(tokens) or tokens[index].kind is not Kind.WORD:
        return None
    word = tokens[index].text.lower()
    if word not in ("yes", "no"):
        return None
    after = skip_spaces(tokens, index + 1)
    if after < len(tokens) and tokens[after].is_symbol("}"):
        after = skip_spaces(tokens, after + 1)
    return (
        word if after < len(tokens) and tokens[after].is_symbol(",", ".", ";", ":", "!") else None
    )


def _plain(tokens: list[Token], canonical: list[Token], numeral: bool) -> Answer:
    written = read_normalized(canonical)
    roman = roman_numeral(join(_unwrapped(tokens))) if numeral else None
    return written if roman is None else Roman(roman, written, written.canonical)


def _options(tokens: list[Token], written: Answer) -> Options | None:
    letters = _option_letters(_unwrapped(tokens))
    if letters is None:
        return None
    separated = any(
        token.is_symbol(",", "&") or is_word(tokens, index, "and")
        for index, token in enumerate(tokens)
    )
    if not separated:  # "CD": also a numeral, or a segment's name
        return Options(letters, False, written, written.canonical)
    # Named as a set, apart from one letter: "A, A" is not the option letter "A".
    return Options(letters, True, written, "options " + ", ".join(sorted(letters)))


def _option_letters(tokens: list[Token]) -> frozenset[str] | None:
    """ "A and C", "(A), (C)", "AC": the options chosen in a question with several right
    answers (two letters or more, each maybe in parentheses, maybe joined by a comma, "and"
    or "&"); None for anything else."""
    letters: list[str] = []
    for index, token in enumerate(tokens):
        if token.kind is Kind.WORD and all(letter in CHOICE_LETTERS for letter in token.text):
            letters.extend(token.text)
        elif not (
            token.kind is Kind.SPACE
            or token.is_symbol("(", ")", ",", "&")
            or is_word(tokens, index, "and")
        ):
            return None
    return frozenset(letters) if len(letters) >= 2 else None


def _unwrapped(tokens: list[Token]) -> list[Token]:
    """ "\\text{XL}" -> "XL": the answer without its fonts."""
    return rescan(strip(unwrap(tokens, TEXT_FONTS)))


def _pieces(tokens: list[Token], separator: str) -> list[list[Token]]:
    """The parts of ``tokens`` between the ``separator`` symbols."""
    pieces: list[list[Token]] = [[]]
    for token in tokens:
        if token.is_symbol(separator):
            pieces.append([])
        else:
            pieces[-1].append(token)
    return pieces


def read_normalized(canonical: list[Token]) -> Answer:
    """The typed value of an answer already normalised, from the tokens of its canonical
    form (``normalization.canonical_tokens``): a number, a letter, words or an expression
    (the name of an unknown is gone by then)."""
    text = join(canonical)
    parsed = parse_number(text)
    if parsed is not None:
        return Number(parsed, text)
    if len(text) == 1 and text in CHOICE_LETTERS:
        return Choice(text)
    if len(text) > 1 and text[0] in _LOWER and set(text) <= _WORD_CHARACTERS:
        return Word(text)
    if text == REAL_LINE:
        # The real numbers are the interval (-\\infty, \\infty): one value, whichever is
        # written ("all real numbers", "x \\in \\mathbb{R}" and the interval itself).
        return Interval(Sequence("(", ")", (float("-inf"), float("inf"))), text)
    rows, structure, union = read_structure(canonical)
    return (
        (
            _matrix(rows, structure, text)
            if rows is not None
            else _structure(structure, canonical, text)
        )
        or (Union(union, text) if union is not None else None)
        or _collection(canonical, text, structure)
        or Expr(text)
    )


def _structure(
    structure: Structure | None, canonical: list[Token], text: str
) -> Interval | Relation | Numbers | None:
    """Plain numbers in brackets, the interval an inequality in one unknown says, or a set
    or bare list of exact numbers (``structure``, as ``structures.py`` reads them; a matrix
    is ``_matrix``'s)."""
    if isinstance(structure, NumberSet):
        return Numbers(structure, text, _braced(canonical))
    if not isinstance(structure, Sequence):
        return None
    interval = Interval(replace(structure, variable=None), text)
    if structure.variable is None:
        return interval
    return Relation(structure.variable, interval, text)


def _matrix(rows: list[list[list[Token]]], numbers: Structure | None, text: str) -> Matrix | None:
    """A matrix of these cells (``structures.read_structure``), each entry read, and its
    plain ``numbers`` where every entry is one; None for rows of unequal lengths or an
    empty entry."""
    if len({len(row) for row in rows}) != 1:
        return None
    cells = [[strip(cell) for cell in row] for row in rows]
    if not all(cell for row in cells for cell in row):
        return None
    read_rows = tuple(tuple(read_normalized(cell) for cell in row) for row in cells)
    return Matrix(read_rows, numbers if isinstance(numbers, NumberMatrix) else None, text)


_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
# Normalisation lower-cases words; a single letter may be a variable, so it is no word.
_WORD_CHARACTERS = _LOWER | frozenset(" -'")


def _collection(canonical: list[Token], text: str, structure: Structure | None) -> Seq | Set | None:
    """A tuple, interval or set whose entries are read one by one; None for one of plain
    numbers (``structure``: ``structures.py`` compares those exactly) and for anything
    else."""
    if "," not in text or structure is not None:
        return None
    braced = _braced(canonical)
    bracketed = (
        not braced
        and len(canonical) >= 2
        and canonical[0].is_symbol("(", "[")
        and canonical[-1].is_symbol(")", "]")
        # "(1, \\sqrt{2}), (3, 4)" opens and closes a bracket but is a bare list of two.
        and top_level_parts(canonical[1:-1], ",") is not None
    )
    inner = canonical[1:-1] if braced or bracketed else canonical
    parts = top_level_parts(inner, ",")
    # A set in braces may hold one element ("\\{(\\sqrt{2}, 1)\\}"); a bare list two.
    if parts is None or len(parts) < (1 if braced else 2):
        return None
    items = [strip(part) for part in parts]
    if not all(items):
        return None
    read_items = tuple(read_normalized(item) for item in items)
    if bracketed:
        return Seq(canonical[0].text, canonical[-1].text, read_items, text)
    return Set(read_items, text, braced)


def _braced(canonical: list[Token]) -> bool:
    return len(canonical) >= 2 and canonical[0].text == "\\{" and canonical[-1].text == "\\}"


# Ratios of plain numbers, in lowest terms; a time of day keeps its terms (above).
def _terms(tokens: list[Token]) -> list[list[Token]]:
    """ "2:3", "2 \\colon 3", "2 to 3" -> ["2", "3"]: the terms between the separators."""
    if not any(token.text in (":", "\\colon", "to") for token in tokens):
        return [tokens]
    terms: list[list[Token]] = [[]]
    for index, token in enumerate(tokens):
        spaced_to = (
            token.kind is Kind.WORD
            and token.text == "to"
            and 0 < index < len(tokens) - 1
            and tokens[index - 1].kind is Kind.SPACE
            and tokens[index + 1].kind is Kind.SPACE
        )
        if token.is_symbol(":") or token.is_command("\\colon") or spaced_to:
            terms[-1] = rstrip(terms[-1])
            terms.append([])
        elif token.kind is not Kind.SPACE or terms[-1]:
            terms[-1].append(token)
    return terms


def _clock_time(text: str) -> tuple[int, int] | None:
    """ "20:34": hours and minutes, none of them zero (a zero term is no ratio)."""
    hours, colon, minutes = text.partition(":")
    if not colon or not hours.isdecimal() or not minutes.isdecimal() or len(minutes) != 2:
        return None
    if not 1 <= len(hours) <= 2 or not 1 <= int(hours) <= 23 or not 1 <= int(minutes) <= 59:
        return None
    return int(hours), int(minutes)


def read_ratio(tokens: list[Token], canonical: str) -> Ratio | None:
    """ "2:4:6" -> Ratio((1, 2, 3)): the same ratio in whole numbers with no common factor;
    None unless every term is a plain non-zero number. ``tokens`` are an answer's, without
    delimiters (``latex_tokens.answer_tokens``), ``canonical`` their normalised form."""
    written = _clock_time(canonical)
    if written is not None:
        return Ratio(written, ":".join(map(str, written)))
    parts = _terms(tokens)
    if len(parts) < 2:
        return None
    numbers = [parse_number(normalized(without_delimiters(part))) for part in parts]
    values = [number.value for number in numbers if number is not None and not number.percent]
    if len(values) != len(parts) or 0 in values:
        return None
    scale = math.lcm(*(value.denominator for value in values))
    whole = [int(value * scale) for value in values]
    divisor = math.gcd(*whole)
    terms = tuple(term // divisor for term in whole)
    return Ratio(terms, ":".join(map(str, terms)))


__all__ = ["has_plus_minus", "mentions_pi", "read", "read_normalized", "read_ratio", "read_tokens"]
