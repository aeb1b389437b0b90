"""The expression reader: LaTeX or plain text, already normalised, read once into sympy.

``read_expression(text)`` tokenizes the text and parses it by recursive descent into an
exact sympy expression (integers and fractions as ``Integer`` and ``Rational``, ``\\pi``,
``e`` and ``i`` as sympy's constants, functions as sympy's, a letter as a real
``Symbol``), with the names of the unknowns written. The numeric probe evaluates that
expression at its points (``numeric_probe.py``); the symbolic engine compares two such
expressions with sympy, without parsing their text again (``symbolic.py``).

Tokens, read from the answer's (``latex_tokens.py``): a run of digits, with a decimal point
and digits after it; a command (a backslash and letters); a word (letters); the operators
``**`` and ``- + * / ^ ( ) { } [ ] ! _ = < >``.
The grammar (the plain one; ``Notation`` says what the symbolic engine's reading adds):

```text
sum       := sign? product (("+" | "-") product)*
product   := power ((times | "/" | "\\div") power | power)*   juxtaposition multiplies;
                                                        nothing juxtaposed after "/"
power     := atom "!"* (("^" | "**") exponent)?
exponent  := "(" sum ")" | "-" exponent | braced
atom      := "(" sum ")" | "{" sum "}" | number | "\\pi" | "pi"
           | function power-of-function? argument
           | fraction braced braced | "\\sqrt" ("[" sum "]")? braced | "\\binom" braced braced
           | "\\log" "_" braced (number | "(" sum ")" | "{" sum "}") | letter
braced    := "{" sum "}" | one digit | one letter
times     := "\\cdot" | "\\times" | "*"
fraction  := "\\frac" | "\\dfrac" | "\\tfrac" | "\\cfrac"
function  := "\\sin" | "\\cos" | "\\tan" | "\\sec" | "\\csc" | "\\cot" | "\\ln" | "\\exp"
           | "\\arcsin" | "\\arccos" | "\\arctan"
           | "sin" | "cos" | "tan" | "exp" | "ln" | "sqrt"
power-of-function := "^" (digit | "{" number "}")     a whole number from 2 up
argument  := "(" sum ")" | "{" sum "}" (after a command)
```

``e`` is Euler's number and ``i`` the imaginary unit. A word of several letters is not
read (``ab`` may be a name), except in a function's formula (``letters_multiply``), where
up to three letters that start no function's name are a product of one-letter names
(``cx`` is c·x).

Anything the reader is not sure of is not read (None). In the plain grammar, the numeric
probe's: a decimal (its rounding is the symbolic engine's or ``numeric_probe.rounds_to``'s
to judge); a relation; a function without parentheses (``\\cos 2x``); ``\\log`` without a
base; ``\\sin^{-1}``; a word of several letters; an absolute value (``ENGINE`` reads these
as math-verify's parser does). In any notation: a set or a list; a subscript other than a
logarithm's base; a prime, a percent; scientific notation (``1e-3`` is not 1·e − 3);
``a/bc``; ``x^23``; a whole number before a fraction (``2\\frac{1}{2}``: a mixed number to
some, a product to others); a value undefined somewhere (``\\frac{1}{0}``, ``\\ln(0)``); a
number written with an exponent above 1,000, a factorial or binomial of more than 500, or
an exact power of more than 100,000 bits (the symbolic engine and its deadline judge
those).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import sympy

from services.mathcheck import latex_tokens
from services.mathcheck.latex_tokens import Kind, join

# Exponents and factorials beyond these are left to the symbolic engine (and its deadline).
MAX_EXPONENT = 1000
MAX_FACTORIAL = 500
# An exact power of a fraction is not built past this many bits.
_MAX_EXACT_BITS = 100_000
_MAX_LETTER_PRODUCT = 3

_OPERATORS = frozenset("-+*/^(){}[]!_=<>|")
# Characters the reader never takes (a logarithm's base, "\log_", is the one subscript).
_REFUSED = frozenset(".,;:=<>|_'%$&~\"")

# Relations the engine's reading takes, by their sympy class (math-verify's parser's).
_RELATIONS: dict[str, Any] = {
    "=": sympy.Eq,
    "<": sympy.StrictLessThan,
    ">": sympy.StrictGreaterThan,
    "\\lt": sympy.StrictLessThan,
    "\\gt": sympy.StrictGreaterThan,
    "\\le": sympy.LessThan,
    "\\leq": sympy.LessThan,
    "\\ge": sympy.GreaterThan,
    "\\geq": sympy.GreaterThan,
    "\\ne": sympy.Ne,
    "\\neq": sympy.Ne,
}

# Commands and words that name a function of one argument in parentheses or braces.
_FUNCTIONS: dict[str, Any] = {
    "\\sin": sympy.sin,
    "\\cos": sympy.cos,
    "\\tan": sympy.tan,
    "\\sec": sympy.sec,
    "\\csc": sympy.csc,
    "\\cot": sympy.cot,
    "\\ln": sympy.log,
    "\\exp": sympy.exp,
    "\\arcsin": sympy.asin,
    "\\arccos": sympy.acos,
    "\\arctan": sympy.atan,
    "sqrt": sympy.sqrt,
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
    "exp": sympy.exp,
    "ln": sympy.log,
}
# ``\\sin^{-1}``: the inverse function, in the engine's notation.
_INVERSES: dict[str, Any] = {
    "\\sin": sympy.asin,
    "\\cos": sympy.acos,
    "\\tan": sympy.atan,
}
_FRACTIONS = ("\\frac", "\\dfrac", "\\tfrac", "\\cfrac")
_CONSTANTS = ("\\pi", "pi")
_TIMES = ("\\cdot", "\\times", "*")
_CLOSING = {"(": ")", "{": "}", "[": "]"}
# Letters that may start the name of a function written without its backslash.
_FUNCTION_WORDS = ("sin", "cos", "tan", "sec", "csc", "cot", "log", "ln", "exp", "sqr", "pi", "arc")

Token = tuple[str, str]


@dataclass(frozen=True)
class Notation:
    """What the reader reads beyond its plain grammar. The numeric probe reads the plain
    grammar alone; the symbolic engine (``ENGINE``) also reads, as math-verify's parser
    does:

    * ``decimals``: a written decimal, as its exact rational (``0.125`` is 1/8);
    * ``relations``: one relation between two sums (``=``, ``<``, ``>``, ``\\le``,
      ``\\ge``, ``\\ne`` and their spellings), as sympy's ``Eq``, ``StrictLessThan``...;
    * ``loose_arguments``: a function's argument without parentheses, a product of
      numbers, letters, ``\\pi``, groups and fractions up to the next function, sign or
      relation (``\\sin 2x`` is sin(2x), ``\\sin t \\cos t`` is sin(t)·cos(t),
      ``\\cos x^2`` is cos(x²)); followed by ``\\cdot``, ``*`` or ``/`` it is not read;
    * ``log``: what ``\\log`` without a base means, ``"natural"`` or ``"common"`` (base 10);
      None: not read;
    * ``small_capitals``: a capital letter as its small letter (``C`` is the unknown
      ``c``), but ``E`` (an unknown ``e`` to that parser, Euler's number to this reader)
      and ``I`` (the imaginary unit to that parser), which are not read;
    * ``greek``: a small Greek letter as an unknown of its name (``\\theta``), but
      ``\\gamma`` (Euler's constant to that parser) and ``\\pi``;
    * ``wrapped_letters``: one letter in ``\\text{}``, ``\\mathrm{}`` or ``\\mathbf{}`` as that
      letter (``\\text{x}``), but ``e`` and ``i`` (an unknown, or Euler's number and the
      imaginary unit, by the wrapper, to that parser) and not before parentheses; a number
      wrapped is not read (``\\text{5}`` is an unknown named 5 to that parser);
    * ``no_calls``: a one-letter name before a number in parentheses (``f(2)``, ``y(1)``)
      is not read: that parser reads a function applied, where ``x(x+1)`` is a product;
    * ``inverse_functions``: ``\\sin^{-1}``, ``\\cos^{-1}``, ``\\tan^{-1}`` as the inverse
      functions (``\\arcsin``...), not as a reciprocal;
    * ``letter_products``: a word of up to three letters that starts no function's name as
      its letters multiplied (``ab`` is a·b, ``xe^x`` is x·eˣ), as in a function's formula;
      but not ``dx``, ``dy``..., a differential to that parser;
    * ``absolute_values``: ``|x - 1|`` as the absolute value, with nothing juxtaposed to its
      bars (``2|x|`` is not read).
    """

    decimals: bool = False
    relations: bool = False
    loose_arguments: bool = False
    log: str | None = None
    small_capitals: bool = False
    greek: bool = False
    wrapped_letters: bool = False
    no_calls: bool = False
    inverse_functions: bool = False
    letter_products: bool = False
    absolute_values: bool = False


PLAIN = Notation()
ENGINE = Notation(
    decimals=True,
    relations=True,
    loose_arguments=True,
    small_capitals=True,
    greek=True,
    wrapped_letters=True,
    no_calls=True,
    inverse_functions=True,
    letter_products=True,
    absolute_values=True,
)
_WRAPPERS = ("\\text", "\\mathrm", "\\mathbf")
# The small Greek letters read as unknowns in the engine's notation.
_GREEK = frozenset(
    [
        "alpha",
        "beta",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        "kappa",
        "lambda",
        "mu",
        "nu",
        "xi",
        "rho",
        "sigma",
        "tau",
        "phi",
        "varphi",
        "chi",
        "psi",
        "omega",
    ]
)


def _is_differential(word: str) -> bool:
    """ "dx", "dy": a differential (``\\frac{dy}{dx}`` is a derivative), not d·x."""
    return len(word) == 2 and word[0] == "d"


class Unreadable(Exception):
    """The reader is not sure what the text means."""


@dataclass(frozen=True)
class Expression:
    """An expression read: its exact sympy value and the names of the unknowns written
    (``x/x`` names ``x``, though its value is 1)."""

    value: Any  # sympy.Expr
    unknowns: frozenset[str]


def tokens(text: str) -> list[Token]:
    """``text`` as (kind, text) tokens: ``number``, ``command``, ``word`` or ``op``, read
    from the answer's tokens (``latex_tokens.py``): digits with a decimal point and digits
    after them are one number, spaces go, ``**`` is one operator."""
    read = latex_tokens.tokenize(text)
    found: list[Token] = []
    index = 0
    while index < len(read):
        token = read[index]
        following = read[index + 1].text if index + 1 < len(read) else ""
        index += 1
        if token.kind is Kind.SPACE:
            continue
        if token.kind is Kind.DIGITS:
            number = token.text
            if following == "." and index + 1 < len(read) and read[index + 1].kind is Kind.DIGITS:
                number += "." + read[index + 1].text
                index += 2
            found.append(("number", number))
        elif token.kind is Kind.COMMAND:
            if not token.named:
                raise Unreadable(join(read[index - 1 :]))
            found.append(("command", token.text))
        elif token.kind is Kind.WORD:
            found.append(("word", token.text))
        elif token.text == "!" and following == "=":
            # "x != 1": not x factorial equal to 1.
            raise Unreadable(join(read[index - 1 :]))
        elif token.text == "*" and following == "*":
            index += 1
            found.append(("op", "**"))
        elif token.text in _OPERATORS:
            found.append(("op", token.text))
        else:
            raise Unreadable(join(read[index - 1 :]))
    return found


class _Parser:
    def __init__(
        self, text: str, letters_multiply: bool = False, notation: Notation = PLAIN
    ) -> None:
        # In a function's formula, letters written together are a product of one-letter
        # names ("cx" is c·x); elsewhere such a word may be a name, and is not read.
        self.letters_multiply = letters_multiply
        self.notation = notation
        self.tokens = [
            split
            for token in tokens(text)
            for split in (
                [("word", letter) for letter in token[1]]
                if token[0] == "word" and len(token[1]) > 1 and self._product_of_letters(token[1])
                else [token]
            )
        ]
        self.index = 0
        self.unknowns: set[str] = set()

    def peek(self) -> Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self, expected: str | None = None) -> Token:
        token = self.peek()
        if token is None or (expected is not None and token[1] != expected):
            raise Unreadable(f"expected {expected}")
        self.index += 1
        return token

    def whole(self) -> Any:
        value = self.sum()
        token = self.peek()
        if token is not None and self.notation.relations and token[1] in _RELATIONS:
            # One relation: "a = b = c" and "1 < x < 2" are not read.
            self.take()
            value = _RELATIONS[token[1]](value, self.sum(), evaluate=False)
        if self.peek() is not None:
            raise Unreadable("trailing text")
        return value

    def sum(self) -> Any:
        sign = self._sign()
        value = self.product()
        if sign < 0:
            value = -value
        while (token := self.peek()) is not None and token[1] in ("+", "-"):
            self.take()
            term = self.product()
            value = value + term if token[1] == "+" else value - term
        return value

    def _sign(self) -> int:
        token = self.peek()
        if token is not None and token[1] in ("+", "-"):
            self.take()
            return -1 if token[1] == "-" else 1
        return 1

    def product(self) -> Any:
        start = self.index
        value = self.power()
        while (token := self.peek()) is not None:
            if token[1] in _TIMES:
                self.take()
                start = self.index
                value = value * self.power()
            elif token[1] in ("/", "\\div"):
                self.take()
                start = self.index
                value = _defined(value / self.power())
                after = self.peek()
                if after is not None and self._starts_factor(after):
                    # "a/bc": a/(bc) or (a/b)c, read either way by someone.
                    raise Unreadable("a product after a division")
            elif self._starts_factor(token):
                if token[1] in _FRACTIONS and self._number_alone(start):
                    # "2\\frac{1}{2}": the mixed number 5/2, or the product 1.
                    raise Unreadable("a whole number before a fraction")
                # Implicit multiplication: "2x", "2\\sqrt{3}", "(x+1)(x-1)".
                start = self.index
                value = value * self.power()
            else:
                break
        return value

    def _number_alone(self, start: int) -> bool:
        """Whether the factor read from token ``start`` on is one number written alone."""
        return self.index == start + 1 and self.tokens[start][0] == "number"

    @staticmethod
    def _starts_factor(token: Token) -> bool:
        kind, text = token
        if text in _RELATIONS:
            return False
        return kind in ("number", "word", "command") or text in ("(", "{")

    def power(self) -> Any:
        base = self.factorial(self.atom())
        token = self.peek()
        if token is None or token[1] not in ("^", "**"):
            return base
        self.take()
        return _power(base, self._exponent())

    def _exponent(self) -> Any:
        token = self.peek()
        if token is not None and token[1] == "(":
            return self.group()
        if token is not None and token[1] == "-":
            self.take()
            return -self._exponent()
        return self._braced()

    def factorial(self, value: Any) -> Any:
        while (token := self.peek()) is not None and token[1] == "!":
            self.take()
            value = _factorial(value)
        return value

    def group(self) -> Any:
        opening = self.take()[1]
        if opening not in _CLOSING:
            raise Unreadable("group")
        value = self.sum()
        self.take(_CLOSING[opening])
        return value

    def atom(self) -> Any:
        token = self.peek()
        if token is None:
            raise Unreadable("missing operand")
        kind, text = token
        if text in ("(", "{"):
            return self.group()
        if text == "|" and self.notation.absolute_values:
            # "|x - 1|": nothing is juxtaposed to a bar ("2|x|" and "|a|b|c|" are not read).
            self.take()
            value = self.sum()
            self.take("|")
            return sympy.Abs(value)
        if kind == "number":
            self.take()
            return _number(text)
        if kind not in ("command", "word"):
            raise Unreadable(text)
        self.take()
        if text in _CONSTANTS:
            return sympy.pi
        if text in _FUNCTIONS or (text == "\\log" and self._bare_log()):
            function = _FUNCTIONS.get(text) or self._logarithm_without_base()
            power = self._function_power(text)
            if power == -1:
                function, power = _INVERSES[text], None
            value = _defined(function(self._argument(text)))
            return value if power is None else _power(value, sympy.Integer(power))
        if kind == "command" and not (self.notation.greek and text[1:] in _GREEK):
            return self._command(text)
        value = self._letter(text) if kind == "word" else self._greek(text[1:])
        if self.notation.no_calls and self.peek() == ("op", "("):
            self._refuse_a_call()
        return value

    def _wrapped_letter(self) -> Any:
        """``\\text{x}``: the letter ``x``; other letters and words wrapped are not read."""
        self.take("{")
        kind, letter = self.take()
        self.take("}")
        if kind != "word" or len(letter) != 1 or letter in "eEiI" or self.peek() == ("op", "("):
            raise Unreadable("a wrapped word")
        return self._letter(letter)

    def _greek(self, name: str) -> Any:
        if self.peek() == ("op", "("):
            # "\\theta(1)" is a function applied to math-verify's parser.
            raise Unreadable("a Greek letter before parentheses")
        self.unknowns.add(name)
        return sympy.Symbol(name, real=True)

    def _refuse_a_call(self) -> None:
        """Unreadable when the group in parentheses ahead is a number (``f(2)``)."""
        start, unknowns = self.index, set(self.unknowns)
        argument = self.group()
        self.index, self.unknowns = start, unknowns
        if argument.is_number:
            raise Unreadable("a name applied to a number")

    def _command(self, name: str) -> Any:
        if name in _WRAPPERS and self.notation.wrapped_letters:
            return self._wrapped_letter()
        if name in _FRACTIONS:
            numerator = self._braced()
            return _defined(numerator / self._braced())
        if name == "\\sqrt" and self.peek() == ("op", "["):
            self.take()
            degree = self.sum()
            self.take("]")
            return _power(self._braced(), sympy.Integer(1) / degree)
        if name == "\\sqrt":
            return sympy.sqrt(self._braced())
        if name == "\\binom":
            return _binomial(self._braced(), self._braced())
        if name == "\\log" and self.peek() == ("op", "_"):
            return self._logarithm()
        raise Unreadable(name)

    def _bare_log(self) -> bool:
        """Whether a ``\\log`` just taken, without a base, is read (the notation says
        what it means)."""
        return self.notation.log is not None and self.peek() != ("op", "_")

    def _logarithm_without_base(self) -> Any:
        if self.notation.log == "natural":
            return sympy.log
        return lambda argument: sympy.log(argument, 10)

    def _letter(self, letter: str) -> Any:
        if len(letter) != 1:
            # "ab" may be a·b or a name; "sinx" a function without parentheses.
            raise Unreadable(letter)
        if self.notation.small_capitals and letter.isupper():
            if letter in ("E", "I"):
                raise Unreadable(letter)
            letter = letter.lower()
        if letter == "e":
            return sympy.E
        if letter == "i":
            return sympy.I
        self.unknowns.add(letter)
        return sympy.Symbol(letter, real=True)

    def _product_of_letters(self, word: str) -> bool:
        """Whether ``word`` is read as one-letter names multiplied, each a factor of its own
        (a power after it raises its last letter: "cx^2" is c·x²): only in a function's
        formula, up to three letters, none of them the start of a function's name ("sinx",
        "lnx", "cosx" stay unread)."""
        return (
            (self.letters_multiply or self.notation.letter_products)
            and len(word) <= _MAX_LETTER_PRODUCT
            and not word.lower().startswith(_FUNCTION_WORDS)
            and not (self.notation.letter_products and _is_differential(word))
        )

    def _braced(self) -> Any:
        """A group in braces, or one digit or one letter: "\\frac12"; "x^2y" is x²·y, and
        "x^23" is not read (x²·3 in LaTeX, x²³ in plain text)."""
        token = self.peek()
        if token is None:
            raise Unreadable("missing argument")
        kind, text = token
        if text == "{":
            return self.group()
        if kind == "number" and len(text) == 1:
            self.take()
            return _integer(text)
        if kind == "word" and len(text) == 1:
            self.take()
            return self._letter(text)
        raise Unreadable("argument")

    def _logarithm(self) -> Any:
        """A logarithm with its base: ``\\log_{2}(8)``, ``\\log_2 8``; an argument of one
        number alone (``\\log_2 8x`` may be log(8x) or log(8)·x is not read)."""
        self.take("_")
        base = self._braced()
        token = self.peek()
        if token is not None and token[0] == "number":
            self.take()
            argument = _integer(token[1])
            after = self.peek()
            if after is not None and (self._starts_factor(after) or after[1] in ("^", "!")):
                raise Unreadable("a logarithm's argument")
        elif token is not None and token[1] in ("(", "{"):
            argument = self.group()
        else:
            raise Unreadable("a logarithm's argument")
        return _defined(sympy.log(argument, base))

    def _function_power(self, name: str) -> int | None:
        """The power written between a function and its argument, a whole number from 2 up:
        ``\\tan^2(y)`` is tan(y)²; ``\\sin^1`` is not read, nor ``\\sin^{-1}`` (-1: the
        inverse) but in the engine's notation, for sine, cosine and tangent."""
        if self.peek() != ("op", "^"):
            return None
        self.take()
        braced = self.peek() == ("op", "{")
        if braced:
            self.take()
        if braced and self.peek() == ("op", "-") and self._inverse_of(name):
            self.take()
            self.take("1")
            self.take("}")
            return -1
        token = self.peek()
        if token is None or token[0] != "number" or (not braced and len(token[1]) != 1):
            raise Unreadable("power of a function")
        self.take()
        if braced:
            self.take("}")
        if int(token[1]) < 2:
            raise Unreadable("power of a function")
        return int(token[1])

    def _inverse_of(self, name: str) -> bool:
        """Whether ``^{-1}`` after ``name`` is read as its inverse (``\\tan^{-1} 2`` is
        arctan 2, as math-verify's parser reads it)."""
        return self.notation.inverse_functions and name in _INVERSES

    def _argument(self, name: str) -> Any:
        """A function's argument: in parentheses, or braces after a command; without them,
        where the notation reads loose arguments (``_loose_argument``)."""
        token = self.peek()
        if token is not None and (token[1] == "(" or (token[1] == "{" and name[0] == "\\")):
            return self.group()
        if self.notation.loose_arguments and name[0] == "\\":
            return self._loose_argument()
        raise Unreadable(f"{name} without parentheses")

    def _loose_argument(self) -> Any:
        """A function's argument without parentheses, as math-verify's parser reads it:
        numbers, one-letter names, ``\\pi``, groups in braces and fractions multiplied,
        each with its powers and factorials, up to the next function, sign or relation;
        or one square root. Followed by a product or a division sign (``\\sin x \\cdot
        y`` is sin(x·y) to that parser) it is not read."""
        token = self.peek()
        if token == ("command", "\\sqrt"):
            value = self.power()
        else:
            value = None
            while (token := self.peek()) is not None and self._loose_factor(token):
                if value is not None and token[1] in _FRACTIONS:
                    # "\\sin 2\\frac{\\pi}{3}": a mixed number to some readers.
                    raise Unreadable("a fraction after a factor")
                factor = self.power()
                value = factor if value is None else value * factor
            if value is None:
                raise Unreadable("a function without its argument")
        token = self.peek()
        if token is not None and (token[1] in (*_TIMES, "/", "\\div") or token[1] == "\\sqrt"):
            raise Unreadable("a product after a function's argument")
        return value

    def _loose_factor(self, token: Token) -> bool:
        kind, text = token
        return (
            kind == "number"
            or (kind == "word" and text not in _FUNCTIONS)
            or text in ("{", *_CONSTANTS, *_FRACTIONS)
            or (self.notation.greek and kind == "command" and text[1:] in _GREEK)
        )


def _number(text: str) -> Any:
    """A number token: a whole number, or a decimal as its exact rational (``0.125`` is
    1/8)."""
    if "." in text:
        return sympy.Rational(text)
    return _integer(text)


def _integer(digits: str) -> Any:
    try:
        return sympy.Integer(int(digits))
    except ValueError as exc:  # past Python's limit on the digits of an int
        raise Unreadable("a number too long") from exc


def _power(base: Any, exponent: Any) -> Any:
    """``base`` to ``exponent``, unread when the exponent is a number past 1,000, or the
    exact power of a fraction would be past 100,000 bits."""
    if exponent.is_Rational:
        if abs(exponent) > MAX_EXPONENT:
            raise Unreadable("huge exponent")
        if base.is_Rational and exponent.is_Integer:
            size = max(int(base.p).bit_length(), int(base.q).bit_length())
            if size * abs(int(exponent)) > _MAX_EXACT_BITS:
                raise Unreadable("huge power")
    return _defined(base**exponent)


_UNDEFINED = (sympy.zoo, sympy.nan, sympy.oo, -sympy.oo)


def _defined(value: Any) -> Any:
    """``value``, unless it is undefined or infinite somewhere (``\\frac{1}{0}``,
    ``\\ln(0)``): sympy would carry on with it (``y/\\ln(0)`` is 0 to sympy), the reader
    does not read it."""
    if value.has(*_UNDEFINED):
        raise Unreadable("undefined")
    return value


def _factorial(argument: Any) -> Any:
    """``argument!``: exact for a whole number up to 500; a number other than those is not
    read; an expression with unknowns stays a factorial, whole at no point probed."""
    if argument.is_number and not (argument.is_Integer and 0 <= argument <= MAX_FACTORIAL):
        raise Unreadable("factorial")
    return sympy.factorial(argument)


def _binomial(top: Any, bottom: Any) -> Any:
    """``\\binom{n}{k}``: exact for whole numbers, ``n`` up to 500 (0 when ``k`` is negative);
    other numbers are not read."""
    for part in (top, bottom):
        if part.is_number and not part.is_Integer:
            raise Unreadable("binomial")
    if top.is_number and not 0 <= top <= MAX_FACTORIAL:
        raise Unreadable("binomial")
    if top.is_number and bottom.is_number and bottom < 0:
        return sympy.Integer(0)
    return sympy.binomial(top, bottom)


def _refused(text: str, notation: Notation) -> bool:
    """Whether ``text`` holds what the reader never takes: decimals and relations unless
    the notation reads them, sets and lists, subscripts (a logarithm's base aside),
    absolute values unless the notation reads them, primes, percents, and scientific
    notation (``1e-3``)."""
    text = text.replace("\\log_", "")
    refused = _REFUSED
    if notation.decimals:
        refused -= {"."}
    if notation.relations:
        refused -= {"=", "<", ">"}
    if notation.absolute_values:
        refused -= {"|"}
    if not refused.isdisjoint(text):
        return True
    end = len(text)
    for index, char in enumerate(text[: end - 2]):
        if char.isdecimal() and text[index + 1] in "eE":
            after = index + 2
            if text[after] in "+-":
                after += 1
            if after < end and text[after].isdecimal():
                return True
    return False


@functools.lru_cache(maxsize=4096)
def read_expression(
    text: str, letters_multiply: bool = False, notation: Notation = PLAIN
) -> Expression | None:
    """``text`` read into an exact sympy expression, or None when the reader is not sure
    what it means (``letters_multiply``: a function's formula, where ``cx`` is c·x;
    ``notation``: what it reads beyond the plain grammar). Cached: references recur
    across the completions of a group."""
    if _refused(text, notation):
        return None
    text = text.replace("\\left", "").replace("\\right", "")
    try:
        parser = _Parser(text, letters_multiply, notation)
        value = parser.whole()
    except (Unreadable, RecursionError):
        return None
    return Expression(value, frozenset(parser.unknowns))


__all__ = [
    "ENGINE",
    "MAX_EXPONENT",
    "MAX_FACTORIAL",
    "PLAIN",
    "Expression",
    "Notation",
    "Unreadable",
    "read_expression",
    "tokens",
]
