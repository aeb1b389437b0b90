"""Numbers written in English words: cardinals, ordinals and simple fractions.

Models write counts in words ("twenty-five", "one hundred and twelve", "a dozen") and
places as ordinals ("third", "21st"); ``number_in_words`` turns such an answer into the
digits it stands for, and anything else into None.
"""

from __future__ import annotations

from services.mathcheck.vocabulary import SCALE_WORDS

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


def _fraction(text: str) -> str | None:
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
    fraction = _fraction(text)
    if fraction is not None:
        return fraction
    words = text.replace("-", " ").split()
    if words[:1] in (["negative"], ["minus"]) and len(words) > 1:  # "negative three"
        magnitude = number_in_words(" ".join(words[1:]))
        return None if magnitude is None or magnitude.startswith("-") else "-" + magnitude
    if words == ["half"]:
        return "\\frac{1}{2}"
    if words[-3:-1] == ["and", "a"] and len(words) > 3:  # "one and a half" is 3/2
        whole, part = _cardinal(words[:-3]), _fraction("a " + words[-1])
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


__all__ = ["digit_ordinal", "number_in_words", "roman_numeral"]
