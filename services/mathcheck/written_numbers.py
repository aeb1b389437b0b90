"""Numbers as written, in digits or in words: the exact value of a plain number in any
notation the reader knows, and the one rule by which a written decimal stands for a value
it rounds.

Every plain numeric notation (integers, thousands groups, decimals, decimal commas,
repeating decimals, e notation, times ten to a power, fractions and mixed numbers,
percents) becomes an exact ``Fraction`` here, so the common case never needs sympy; the
readers of structures, ratios and quantities read their numbers with ``parse_number``.

Models also write counts in English words ("twenty-five", "one hundred and twelve", "a
dozen") and places as ordinals ("third", "21st"): ``number_in_words`` turns such an answer
(cardinals, ordinals and simple fractions) into the digits it stands for, and anything
else into None; ``roman_numeral`` reads a Roman numeral.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from services.mathcheck.latex_tokens import spaces_end
from services.mathcheck.vocabulary import SCALE_WORDS

# Exponents beyond this are left to the guarded symbolic path: building 10**10**6 exactly
# would itself be the denial of service.
MAX_DECIMAL_EXPONENT = 400


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


def _digits_end(text: str, start: int) -> int:
    """The end of the digits at ``start`` (``start`` when there are none)."""
    while start < len(text) and text[start].isdecimal():
        start += 1
    return start


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
    at = spaces_end(tail, len(bar))
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
    at = spaces_end(text, end)
    times = next((t for t in _TIMES if text.startswith(t, at)), None)
    if times is None:
        return None, text
    return text[:end], text[spaces_end(text, at + len(times)) :]


def _power_of_ten(text: str) -> str | None:
    """ "10^{-3}" -> "-3"; None for anything else."""
    if not text.startswith("10"):
        return None
    at = spaces_end(text, 2)
    if text[at : at + 1] != "^":
        return None
    at = spaces_end(text, at + 1)
    if text[at : at + 1] == "{":
        at = spaces_end(text, at + 1)
    start = at
    if text[at : at + 1] in ("+", "-"):
        at += 1
    end = _digits_end(text, at)
    if end == at:
        return None
    after = text[spaces_end(text, end) :]
    return text[start:end] if after in ("", "}") else None


def fraction_groups(text: str) -> tuple[str, str | None, str, str] | None:
    if "/" not in text and "\\frac" not in text:
        return None
    sign, rest = _signed(text)
    rest = rest[spaces_end(rest, 0) :]
    end = _digits_end(rest, 0)
    if end > 0:
        at = spaces_end(rest, end)
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
        at = spaces_end(text, len("\\frac"))
        if text[at : at + 1] != "{":
            first = text[at : at + 1]
            at = spaces_end(text, at + 1)
            second = text[at : at + 1]
            if first.isdecimal() and second.isdecimal() and at + 1 == len(text):
                return first, second
            return None
        terms: list[str] = []
        for index in range(2):
            if text[at : at + 1] != "{":
                return None
            start = spaces_end(text, at + 1)
            end = _signed_number_end(text, start)
            if end is None:
                return None
            close = spaces_end(text, end)
            if text[close : close + 1] != "}":
                return None
            terms.append(text[start:end])
            at = close + 1 if index else spaces_end(text, close + 1)
        return (terms[0], terms[1]) if at == len(text) else None
    end = _signed_number_end(text, 0)
    if end is None:
        return None
    at = spaces_end(text, end)
    if text[at : at + 1] != "/":
        return None
    start = spaces_end(text, at + 1)
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


_UNITS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SMALL = {word: value for value, word in enumerate(_UNITS)} | {
    word: 20 + 10 * index for index, word in enumerate(_TENS)
}
# "hundred" multiplies only what comes before it ("one hundred and twelve"), "dozen" stands
# alone ("a dozen"): the scales that add up are the powers of a thousand.
_SCALES = {word: value for word, value in SCALE_WORDS.items() if value >= 1000}

_ORDINAL_UNITS = (
    "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
    "sixteenth", "seventeenth", "eighteenth", "nineteenth",
)  # fmt: skip
_ORDINALS = {word: value for value, word in enumerate(_ORDINAL_UNITS)} | {
    word.removesuffix("y") + "ieth": 20 + 10 * index for index, word in enumerate(_TENS)
}
_ORDINAL_SUFFIXES = ("st", "nd", "rd", "th")


def digit_ordinal(text: str) -> str | None:
    """ "3rd", "21st", "100th" -> the digits: digits with an ordinal suffix; else None."""
    digits, suffix = text[:-2], text[-2:]
    return digits if suffix in _ORDINAL_SUFFIXES and digits.isdecimal() else None


# "two thirds" is 2/3, "five twelfths" 5/12: a fraction in words, numerator up to twenty,
# denominator an ordinal from "third" on ("two seconds" is a time, not a fraction).
_SINGULAR_DENOMINATORS = {
    **{word: value for word, value in _ORDINALS.items() if value >= 3},
    "half": 2,
    "quarter": 4,
    "hundredth": 100,
    "thousandth": 1000,
}
_DENOMINATORS = {
    **_SINGULAR_DENOMINATORS,
    **{word + "s": value for word, value in _SINGULAR_DENOMINATORS.items()},
    "halves": 2,
}


def _cardinal(words: list[str]) -> int | None:
    """ "one hundred and twelve" -> 112, "a dozen" -> 12; None if any word is not a number."""
    if words[:1] == ["a"] and len(words) > 1:
        words = ["one", *words[1:]]
    if words in (["dozen"], ["one", "dozen"]):
        return 12
    total = current = 0
    seen = False
    for word in words:
        if word == "and" and seen:
            continue
        if word in _SMALL:
            current += _SMALL[word]
        elif word == "hundred" and seen:
            current = (current or 1) * 100
        elif word in _SCALES and seen:
            total += (current or 1) * _SCALES[word]
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


def _fraction_in_words(text: str) -> str | None:
    """ "two thirds" -> "\\frac{2}{3}", "a half" -> "\\frac{1}{2}"."""
    # Two words of lower-case letters (the first may be digits), apart by spaces or hyphens.
    words = text.replace("-", " ").split()
    edges = text[:1] + text[-1:]
    if len(words) != 2 or "-" in edges or any(ch.isspace() for ch in edges):
        return None
    # The numerator may be written in digits: "2 thirds" is 2/3; but "3 quarters" may count
    # coins, so digits before "quarter" stay a count.
    digits = words[0].isascii() and words[0].isdecimal()
    if digits and words[1].startswith("quarter"):
        return None
    if not all(
        word.isascii() and word.isalpha() and word.islower() for word in words[1 if digits else 0 :]
    ):
        return None
    numerator = int(words[0]) if digits else 1 if words[0] == "a" else _SMALL.get(words[0])
    denominator = _DENOMINATORS.get(words[1])
    if not numerator or numerator > 20 or denominator is None:
        return None
    return f"\\frac{{{numerator}}}{{{denominator}}}"


def number_in_words(text: str) -> str | None:
    """The number a lower-case phrase names, in digits or as ``\\frac``, else None."""
    text = text.strip()
    ordinal = digit_ordinal(text)
    if ordinal is not None:
        return ordinal
    if text in _ORDINALS:
        return str(_ORDINALS[text])
    fraction = _fraction_in_words(text)
    if fraction is not None:
        return fraction
    words = text.replace("-", " ").split()
    if words[:1] in (["negative"], ["minus"]) and len(words) > 1:  # "negative three"
        magnitude = number_in_words(" ".join(words[1:]))
        return None if magnitude is None or magnitude.startswith("-") else "-" + magnitude
    if words == ["half"]:
        return "\\frac{1}{2}"
    if words[-3:-1] == ["and", "a"] and len(words) > 3:  # "one and a half" is 3/2
        whole, part = _cardinal(words[:-3]), _fraction_in_words("a " + words[-1])
        return None if whole is None or part is None else f"{whole}{part}"
    if words[-1:] == ["percent"] and len(words) > 1:  # "ten percent" is 10%
        percent = _cardinal(words[:-1])
        return None if percent is None else f"{percent}%"
    value = _cardinal(words) if words else None
    return None if value is None else str(value)


_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ROMAN_NUMERALS = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
    (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)  # fmt: skip


def _roman(value: int) -> str:
    """The one well-formed way to write ``value`` (1 to 3999) in Roman numerals."""
    written = ""
    for step, letters in _ROMAN_NUMERALS:
        count, value = divmod(value, step)
        written += letters * count
    return written


def roman_numeral(text: str) -> int | None:
    """ "XIV" -> 14: a well-formed Roman numeral of two letters or more (one letter may be
    a multiple-choice option or a variable)."""
    if len(text) < 2 or any(letter not in _ROMAN_DIGITS for letter in text):
        return None
    values = [_ROMAN_DIGITS[letter] for letter in text]
    value = sum(-v if v < after else v for v, after in zip(values, [*values[1:], 0], strict=True))
    # Well formed: written the one way that value is ("IIII" and "IC" are not).
    return value if 0 < value < 4000 and _roman(value) == text else None
