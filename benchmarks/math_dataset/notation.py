"""How exact values are written in answers: rationals, decimals, linear terms, polynomials."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, localcontext
from fractions import Fraction


def frac_tex(value: Fraction, style: str = "frac") -> str:
    """Render a rational number in one of several equivalent LaTeX/plain styles."""
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    p, q = abs(value.numerator), value.denominator
    if style == "frac":
        return f"{sign}\\frac{{{p}}}{{{q}}}"
    if style == "dfrac":
        return f"{sign}\\dfrac{{{p}}}{{{q}}}"
    if style == "slash":
        return f"{sign}{p}/{q}"
    if style == "negnum":
        return f"\\frac{{{sign}{p}}}{{{q}}}"
    if style == "decimal":
        return decimal_tex(value)
    raise ValueError(style)


def terminates(value: Fraction) -> bool:
    q = value.denominator
    for f in (2, 5):
        while q % f == 0:
            q //= f
    return q == 1


def decimal_tex(value: Fraction) -> str:
    if not terminates(value):
        raise ValueError(f"{value} has no finite decimal expansion")
    with localcontext() as ctx:
        ctx.prec = 60
        d = (Decimal(value.numerator) / Decimal(value.denominator)).normalize()
    text = format(d, "f")
    return "0" if text == "-0" else text


def linear_tex(a: int, var: str = "x") -> str:
    if a == 0:
        return var
    return f"{var}+{a}" if a > 0 else f"{var}-{-a}"


def poly_tex(coeffs: Sequence[int], var: str = "x", ascending: bool = False) -> str:
    """Render a polynomial given its coefficients, highest degree first."""
    deg = len(coeffs) - 1
    terms: list[tuple[bool, str]] = []
    for i, c in enumerate(coeffs):
        d = deg - i
        if c == 0:
            continue
        if d == 0:
            body = str(abs(c))
        else:
            mono = var if d == 1 else f"{var}^{{{d}}}"
            body = ("" if abs(c) == 1 else str(abs(c))) + mono
        terms.append((c < 0, body))
    if not terms:
        return "0"
    if ascending:
        terms.reverse()
    out = ("-" if terms[0][0] else "") + terms[0][1]
    for neg, body in terms[1:]:
        out += ("-" if neg else "+") + body
    return out


def coef_tex(a: int, var: str = "x") -> str:
    return var if a == 1 else ("-" + var if a == -1 else f"{a}{var}")
