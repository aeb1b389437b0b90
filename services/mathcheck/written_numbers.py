"""Numbers as written: the exact value of a plain number in any notation the reader knows,
and the one rule by which a written decimal stands for a value it rounds.

Every plain numeric notation (integers, thousands groups, decimals, decimal commas,
repeating decimals, e notation, times ten to a power, fractions and mixed numbers,
percents) becomes an exact ``Fraction`` here, so the common case never needs sympy; the
readers of structures, ratios and quantities read their numbers with ``parse_number``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from services.mathcheck.latex_tokens import spaces_end

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
