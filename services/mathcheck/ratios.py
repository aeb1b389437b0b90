"""Ratios of plain numbers: ``1:2:3``, ``2 \\colon 3``, ``2 to 3``, read in lowest terms.

A time of day is no ratio to reduce: ``20:34`` is not ``10:17``. Hours and two-digit
minutes (``20:34``, and ``8:34 p.m.`` or ``20:34:00`` as normalisation writes them) keep
their terms as written; a ratio in lowest terms reads alike either way, and ``2:4``, with
one digit after the colon, is still ``1:2``.
"""

from __future__ import annotations

import math

from services.mathcheck.answer_types import Ratio
from services.mathcheck.latex_tokens import Kind, Token, rstrip, without_delimiters
from services.mathcheck.normalization import normalized
from services.mathcheck.written_numbers import parse_number


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


__all__ = ["read_ratio"]
