"""Hand-labelled equivalence corpus for the math answer checker.

Every label here is the true *mathematical* verdict on whether ``answer`` (a model's
already-extracted final answer) denotes the same object as ``reference`` (the
ground truth as a dataset would store it).  The corpus is written from mathematics,
not from any checker implementation, so that it can catch the implementation's
mistakes.  Where a label depends on a grading convention, ``note`` says which one
was chosen.

Conventions used throughout (repeated in the notes where they matter):

* Decorations that do not change the value are ignored: ``\\text{...}``, ``\\left``/
  ``\\right``, ``$``, thin spaces, a leading ``+``, a trailing unit or currency sign,
  a degree sign, and ``x =`` / ``y =`` on the left of a final answer.
* A percent reference (``50\\%``) matches the same number without the sign (``50``)
  and also its exact value as a fraction of one (``0.5``).
* A decimal written to three or more places (and three significant digits) equals the
  exact value it is a rounding of (``0.6667`` ~ ``2/3``, ``1.5708`` ~ ``\\pi/2``), as
  datasets write rounded answers; fewer places get no tolerance (``0.33`` !~ ``1/3``,
  ``3.14`` !~ ``\\pi``), and two distinct exact numbers are never equal however close
  they are (``10^{18}+1`` vs ``10^{18}``).
* Unreduced fractions equal their reduced form (value, not presentation, is judged).
* ``2\\frac{1}{2}`` and ``2 1/2`` are mixed numbers (= 5/2), not products.
* Ordered tuples compare position by position; sets ignore order and repetition;
  a bare comma-separated list of solutions is treated as a set.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EquivCase:
    reference: str
    answer: str
    equivalent: bool
    kind: str
    note: str = ""


_Row = tuple[str, str, bool, str]

# ---------------------------------------------------------------------------
# integer
# ---------------------------------------------------------------------------
_INTEGER: list[_Row] = [
    ("1,000,000", "1000000", True, "commas between 3-digit groups are thousands separators"),
    ("1000000", "1,000,000", True, "commas between 3-digit groups are thousands separators"),
    ("2024", "2,024", True, "thousands separator"),
    ("1234", "1{,}234", True, "LaTeX-braced thousands separator"),
    ("1000", r"1\,000", True, "LaTeX thin-space thousands separator"),
    ("48250", r"48,\! 250", True, "a comma tightened by a negative thin space separates thousands"),
    ("7003412", r"7,\!003,\!412", True, "negative thin spaces after every separator"),
    ("48250", "48, 250", False, "a comma and a space between numbers lists two numbers"),
    ("5", "+5", True, "leading plus sign"),
    ("-0", "0", True, "negative zero is zero"),
    ("0", "-0", True, "negative zero is zero"),
    ("42", "42.0", True, "integer-valued decimal equals the integer"),
    ("-12", "\u221212", True, "Unicode minus sign U+2212 is a minus sign"),
    ("17", r"\mathbf{17}", True, "bold formatting carries no meaning"),
    ("-7", "-7", True, ""),
    ("42", "43", False, "off by one"),
    ("-5", "5", False, "sign error"),
    ("1,000,000", "100000", False, "missing a zero"),
    ("0", "-1", False, ""),
    ("12", "21", False, "digits swapped"),
    ("100", "1000", False, ""),
    ("1234", "1,243", False, "digits swapped behind a thousands separator"),
    ("1024", "1023", False, "off by one"),
    ("1,000", "1.000", False, "1.000 is one (decimal point), not one thousand"),
    ("1,000,000", "1,000", False, ""),
    ("7", "-7", False, "sign error"),
]

# ---------------------------------------------------------------------------
# decimal
# ---------------------------------------------------------------------------
_DECIMAL: list[_Row] = [
    ("0.5", "0.50", True, "trailing zero"),
    ("0.50", "0.5", True, "trailing zero"),
    ("0.5", r"\frac12", True, ""),
    ("0.5", ".5", True, "missing leading zero"),
    ("3.14", "3.140", True, "trailing zero"),
    ("2.5", r"\frac{5}{2}", True, ""),
    ("0.125", "1/8", True, ""),
    ("-0.75", r"-\frac{3}{4}", True, ""),
    ("1.0", "1", True, ""),
    ("0.1", r"\frac{1}{10}", True, ""),
    ("12.50", "12.5", True, "trailing zero"),
    (r"0.\overline{3}", r"\frac{1}{3}", True, "repeating-decimal notation is exact"),
    ("0.5", "0.05", False, "misplaced decimal point"),
    ("2.5", "2.05", False, ""),
    ("0.125", "0.0125", False, "misplaced decimal point"),
    ("1.5", "-1.5", False, "sign error"),
    ("3.14", "3.15", False, "last digit off"),
    (r"\frac{2}{3}", "0.6667", True, "2/3 rounded to four places"),
    (r"\frac{2}{3}", "0.6666", False, "truncated, not rounded"),
    ("0.1", "0.01", False, ""),
    ("0.75", r"\frac{3}{5}", False, ""),
    ("0.25", "2.5", False, "misplaced decimal point"),
    ("0.5", "5", False, "misplaced decimal point"),
    ("0.2", r"\frac{1}{2}", False, ""),
]

# ---------------------------------------------------------------------------
# fraction
# ---------------------------------------------------------------------------
_FRACTION: list[_Row] = [
    (r"\frac{2}{3}", "two thirds", True, "a fraction in words"),
    (r"\frac{1}{2}", "a half", True, "a fraction in words"),
    ("0.75", "three quarters", True, "a fraction in words"),
    (r"\frac{3}{4}", "three fifths", False, "another fraction in words"),
    (r"\frac{1}{2}", "1/2", True, ""),
    (r"\frac{3}{4}", r"\dfrac{3}{4}", True, ""),
    (r"\frac{2}{3}", r"\tfrac{2}{3}", True, ""),
    (r"-\frac{1}{2}", r"\frac{-1}{2}", True, "negative sign placement"),
    (r"-\frac{1}{2}", r"\frac{1}{-2}", True, "negative sign placement"),
    (r"\frac{1}{2}", r"\frac{2}{4}", True, "unreduced fraction accepted: value is judged"),
    ("1/2", "2/4", True, "unreduced fraction accepted: value is judged"),
    (r"\frac{3}{4}", r"\frac34", True, "brace-less \\frac"),
    (r"\frac{5}{2}", r"\frac{10}{4}", True, "unreduced fraction accepted: value is judged"),
    (r"\frac{22}{7}", "22/7", True, ""),
    (r"-\frac{3}{4}", "-0.75", True, ""),
    (r"\frac{1}{2}", r"\frac{-1}{-2}", True, "double negative"),
    (r"\dfrac{7}{8}", "0.875", True, ""),
    (r"\frac{1}{2}", r"\frac{2}{1}", False, "numerator and denominator swapped"),
    (r"-\frac{1}{2}", r"\frac{1}{2}", False, "sign error"),
    (r"\frac{3}{4}", r"\frac{4}{3}", False, "reciprocal"),
    (r"\frac{1}{3}", "0.33", False, "insufficient precision: no numeric tolerance"),
    (r"\frac{5}{7}", r"\frac{5}{8}", False, ""),
    ("1/2", "1/3", False, ""),
    (r"-\frac{1}{2}", r"\frac{-1}{-2}", False, "double negative is positive"),
    (r"\frac{2}{3}", r"\frac{3}{5}", False, ""),
    (r"\frac{1}{4}", r"\frac{1}{2}", False, ""),
    (r"\frac{6}{8}", r"\frac{3}{8}", False, ""),
    ("2/3", r"\frac{2}{9}", False, ""),
]

# ---------------------------------------------------------------------------
# percentage
# ---------------------------------------------------------------------------
_PCT_NOTE = "convention: a percent reference matches the same number without %"
_PERCENTAGE: list[_Row] = [
    ("0.25", "25 percent", True, "a percentage in words"),
    (r"\frac{1}{4}", "25 per cent", True, "a percentage in words"),
    ("0.25", "2.5 percent", False, "a percentage in words, ten times too small"),
    (r"50\%", "50", True, _PCT_NOTE),
    ("50%", "50", True, _PCT_NOTE),
    (r"50\%", "50%", True, "escaped vs unescaped percent sign"),
    ("50", r"50\%", True, "convention: a trailing % on the answer is ignored vs a bare number"),
    (r"12.5\%", "12.5", True, _PCT_NOTE),
    (r"12.5\%", r"12.5 \%", True, ""),
    (r"50\%", "0.5", True, "convention: 50% also matches its exact value 0.5 (debatable)"),
    (r"100\%", "100", True, _PCT_NOTE),
    (r"25\%", "25.0", True, _PCT_NOTE),
    (r"20\%", "20 percent", True, "the word 'percent' is the % sign"),
    (r"50\%", "5", False, ""),
    (r"12.5\%", "12", False, "rounded"),
    (r"50\%", "0.05", False, "0.05 is neither 50 nor 50% = 0.5"),
    (r"25\%", r"75\%", False, "complement"),
    (r"50\%", "500", False, ""),
    (r"10\%", "0.01", False, "0.01 is 1%, not 10%"),
    ("40%", "4%", False, ""),
    (r"60\%", r"40\%", False, "complement"),
    (r"75\%", "0.7", False, ""),
    ("5%", "50", False, ""),
]

# ---------------------------------------------------------------------------
# scientific
# ---------------------------------------------------------------------------
_SCIENTIFIC: list[_Row] = [
    (r"1.5\times10^{3}", "1500", True, ""),
    ("1500", r"1.5\times10^{3}", True, ""),
    ("0.002", "2e-3", True, "E notation"),
    ("2e-3", "0.002", True, "E notation"),
    (r"2\times10^{-3}", "0.002", True, ""),
    (r"3\times 10^{-4}", "0.0003", True, ""),
    ("120000", "1.2E5", True, "upper-case E notation"),
    (r"6.02\times10^{23}", r"6.02 \cdot 10^{23}", True, r"\cdot vs \times"),
    ("500", r"5\times10^2", True, ""),
    ("1000", "1.0e3", True, ""),
    (r"\frac{1}{40}", r"2.5\times10^{-2}", True, ""),
    (r"4.5\times10^{6}", "4500000", True, ""),
    (r"1.5\times10^{3}", "150", False, "exponent off by one"),
    ("2e-3", "0.02", False, "exponent off by one"),
    (r"1.5\times10^{3}", r"1.5\times10^{4}", False, "exponent off by one"),
    (r"3\times10^{-4}", r"3\times10^{4}", False, "exponent sign error"),
    ("0.002", "-2e-3", False, "sign error"),
    (r"6.02\times10^{23}", r"6.2\times10^{23}", False, "mantissa digit dropped"),
    ("1500", "15e3", False, "15e3 = 15000"),
    (r"2.5\times10^{-2}", "0.25", False, ""),
    (r"1\times10^{-6}", "0.00001", False, "exponent off by one"),
    ("3.0e8", "3000000", False, "3e8 vs 3e6"),
]

# ---------------------------------------------------------------------------
# mixed_number
# ---------------------------------------------------------------------------
_MIXED_NOTE = "convention: integer directly followed by a fraction is a mixed number"
_MIXED_NUMBER: list[_Row] = [
    (r"\frac{5}{2}", r"2\frac{1}{2}", True, _MIXED_NOTE),
    (r"\frac52", "2 1/2", True, "'2 1/2' is the mixed number two and a half"),
    (r"2\frac{1}{2}", "5/2", True, _MIXED_NOTE),
    ("3.75", r"3\frac{3}{4}", True, _MIXED_NOTE),
    (r"\frac{4}{3}", r"1\tfrac{1}{3}", True, _MIXED_NOTE),
    (r"-\frac{3}{2}", r"-1\frac{1}{2}", True, "the minus applies to the whole mixed number"),
    (r"\frac{22}{5}", r"4\dfrac{2}{5}", True, _MIXED_NOTE),
    ("10.125", r"10\frac{1}{8}", True, _MIXED_NOTE),
    (r"1\frac{1}{2}", r"1 \frac{1}{2}", True, _MIXED_NOTE),
    (r"2\frac{1}{2}", "2 1/2", True, _MIXED_NOTE),
    (r"2\frac{1}{2}", "1", False, "mixed number, not the product 2*(1/2)"),
    ("2 1/2", "21/2", False, "two and a half vs twenty-one halves"),
    (r"3\frac{1}{4}", r"\frac{13}{3}", False, "3 1/4 = 13/4"),
    (r"1\frac{2}{3}", r"\frac{2}{3}", False, "whole part dropped"),
    (r"-1\frac{1}{2}", r"-\frac{1}{2}", False, "-1 1/2 = -3/2, not -1 + 1/2"),
    (r"5\frac{1}{2}", "5.2", False, ""),
    (r"\frac{7}{2}", r"3\frac{1}{3}", False, ""),
    (r"\frac{5}{2}", r"2\frac{1}{3}", False, ""),
    (r"1\frac{1}{4}", "1.14", False, "1 1/4 = 1.25"),
    (r"4\frac{1}{2}", r"\frac{4}{2}", False, ""),
]

# ---------------------------------------------------------------------------
# symbolic_root
# ---------------------------------------------------------------------------
_SYMBOLIC_ROOT: list[_Row] = [
    (r"2\sqrt{2}", r"\sqrt{8}", True, ""),
    (r"\frac{\sqrt{2}}{2}", r"\frac{1}{\sqrt2}", True, "rationalised denominator"),
    ("3", r"\sqrt[3]{27}", True, ""),
    (r"2\sqrt{3}", r"\sqrt{12}", True, ""),
    (r"\sqrt{6}", r"\sqrt{2}\cdot\sqrt{3}", True, ""),
    (r"3\sqrt{2}", r"\sqrt{18}", True, ""),
    (r"\sqrt{2}", "2^{1/2}", True, ""),
    (r"5\sqrt{2}", r"\sqrt{50}", True, ""),
    (r"\sqrt{3}", r"\frac{3}{\sqrt{3}}", True, ""),
    (r"1+\sqrt{2}", r"\sqrt{3+2\sqrt{2}}", True, "nested radical denests"),
    ("2", r"\sqrt[4]{16}", True, ""),
    (r"1+\sqrt{2}", r"\sqrt{2}+1", True, ""),
    (r"\frac{\sqrt{3}}{3}", r"\frac{1}{\sqrt{3}}", True, "rationalised denominator"),
    (r"2\sqrt{2}", r"4\sqrt{2}", False, ""),
    (r"2\sqrt{2}", r"2\sqrt{3}", False, ""),
    (r"\sqrt[3]{27}", "9", False, "cube root, not square root"),
    (r"\frac{\sqrt{2}}{2}", r"\sqrt{2}", False, ""),
    (r"\sqrt{2}", "1.41", False, "insufficient precision: no numeric tolerance"),
    (r"2\sqrt{3}", r"3\sqrt{2}", False, "coefficient and radicand swapped"),
    (r"\sqrt{3}", r"\sqrt[3]{3}", False, ""),
    (r"1+\sqrt{2}", r"1-\sqrt{2}", False, "sign error (the other root)"),
    (r"\frac{1}{\sqrt{2}}", r"\frac{\sqrt{2}}{4}", False, ""),
    (r"\sqrt{8}", "8", False, ""),
    (r"\sqrt{8}", r"2\sqrt{8}", False, ""),
]

# ---------------------------------------------------------------------------
# pi
# ---------------------------------------------------------------------------
_PI: list[_Row] = [
    (r"2\pi", r"\pi\cdot 2", True, ""),
    (r"\frac{\pi}{2}", r"0.5\pi", True, ""),
    (r"\frac{\pi}{2}", r"\pi/2", True, ""),
    (r"\frac{3\pi}{4}", r"\frac{3}{4}\pi", True, ""),
    (r"\pi^2", r"\pi\cdot\pi", True, ""),
    (r"\frac{\pi}{6}", r"\frac{1}{6}\pi", True, ""),
    (r"12\pi", r"12 \pi", True, ""),
    (r"\frac{2\pi}{3}", r"\frac{2}{3}\pi", True, ""),
    (r"100\pi", r"\pi\times 100", True, ""),
    (r"2\pi", r"2 \cdot \pi", True, ""),
    (r"\pi+1", r"1+\pi", True, ""),
    (r"2\pi", r"\pi", False, ""),
    (r"\frac{\pi}{2}", r"\frac{\pi}{3}", False, ""),
    (r"\pi", "3.14", False, "insufficient precision: no numeric tolerance"),
    (r"2\pi", "6.28", False, "insufficient precision: no numeric tolerance"),
    (r"\frac{3\pi}{4}", r"\frac{4\pi}{3}", False, "reciprocal coefficient"),
    (r"\pi^2", r"2\pi", False, ""),
    (r"-\pi", r"\pi", False, "sign error"),
    (r"\frac{\pi}{2}", r"\frac{2}{\pi}", False, "reciprocal"),
    (r"4\pi", r"4\pi^2", False, ""),
    (r"\frac{\pi}{4}", r"\frac{\pi}{8}", False, ""),
    (r"2\pi", r"2+\pi", False, ""),
    (r"\sin 30^\circ", r"\frac{1}{2}", True, "a degree sign under a trig function counts"),
    (r"\cos 60^{\circ}", r"\frac{\sqrt{3}}{2}", False, "a degree sign under a trig function"),
]

# ---------------------------------------------------------------------------
# expression
# ---------------------------------------------------------------------------
_EXPRESSION: list[_Row] = [
    ("2t", "2", False, "a last letter is a variable, not a unit (math-verify drops it)"),
    ("x + t", "t + x", True, "a sum ending in a one-letter variable"),
    (r"\sin^2 t", r"1 - \cos^2 t", True, "a function of t"),
    ("a + b + c", "a + b", False, "the last term is not a unit"),
    (r"3\sqrt{2}", r"3\sqrt{2} \text{ m}", True, "a unit after an expression"),
    ("x^2+2x+1", "(x+1)^2", True, "factored vs expanded"),
    ("(x+1)^2", "x^2+2x+1", True, "factored vs expanded"),
    ("x^2-1", "(x-1)(x+1)", True, "factored vs expanded"),
    ("1", r"\sin^2x+\cos^2x", True, "Pythagorean identity"),
    ("2x+3", "3+2x", True, "term order"),
    ("x^2+2x", "x(x+2)", True, "factored vs expanded"),
    ("(a-b)(a+b)", "a^2-b^2", True, "factored vs expanded"),
    (r"\sin 2x", r"2\sin x\cos x", True, "double-angle identity"),
    (r"\frac{x+y}{xy}", r"\frac{1}{x}+\frac{1}{y}", True, ""),
    ("e^{2x}", "(e^x)^2", True, ""),
    ("0.5x", r"\frac{x}{2}", True, ""),
    ("(x-2)(x^2+2x+4)", "x^3-8", True, "difference of cubes"),
    ("3x^2", "3x^{2}", True, ""),
    ("6x^2+12x+6", "6(x+1)^2", True, "factored vs expanded"),
    ("(x+1)^2", "x^2+1", False, "missing cross term"),
    ("x^2-1", "(x-1)^2", False, ""),
    ("2x+3", "3x+2", False, "coefficients swapped"),
    ("x^2+2x", "x^2-2x", False, "sign error"),
    (r"\sin 2x", r"2\sin x", False, ""),
    ("(a+b)^2", "a^2+b^2", False, "missing cross term"),
    ("x^3-8", "(x-2)^3", False, ""),
    (r"\frac{x}{2}", r"\frac{2}{x}", False, "reciprocal"),
    ("x^2+2x+1", "(x+1)^3", False, ""),
    ("x^2-5x+6", "(x+2)(x+3)", False, "sign error in both factors"),
    ("x+1", "x-1", False, "sign error"),
    (r"\cos 2x", r"\cos^2 x+\sin^2 x", False, "cos 2x = cos^2 x - sin^2 x"),
]

# ---------------------------------------------------------------------------
# set
# ---------------------------------------------------------------------------
_SET: list[_Row] = [
    (r"\{1,2,3\}", r"\{3,1,2\}", True, "sets ignore order"),
    ("{1,2,3}", "{3,1,2}", True, "unescaped braces still denote the set; order ignored"),
    (r"\{1,2\}", r"\{2, 1\}", True, "sets ignore order"),
    (r"\{-1,1\}", r"\{1,-1\}", True, "sets ignore order"),
    (r"\{\frac{1}{2},2\}", r"\{2,0.5\}", True, "sets ignore order; elements compared by value"),
    (r"\{\sqrt{2},-\sqrt{2}\}", r"\{-\sqrt{2},\sqrt{2}\}", True, "sets ignore order"),
    (r"\emptyset", r"\varnothing", True, "two symbols for the empty set"),
    (r"\{1,2\}", r"\{1,2,2\}", True, "sets ignore repetition"),
    ("1, 2, 3", "3, 1, 2", True, "convention: bare list of solutions is unordered"),
    (r"\{2,4,6\}", r"\left\{6,4,2\right\}", True, "sets ignore order"),
    (r"\{-2, 3\}", r"\{3,-2\}", True, "sets ignore order"),
    (r"\{1,2,3\}", r"\{1, 2, 3\}", True, "whitespace"),
    (r"\{1,2\}", r"\{1,2,3\}", False, "extra element"),
    (r"\{1,2,3\}", r"\{1,2,4\}", False, ""),
    (r"\{-1,1\}", r"\{1\}", False, "missing element"),
    (r"\emptyset", r"\{0\}", False, "{0} is not empty"),
    (r"\{2,3\}", r"\{-2,-3\}", False, "sign error"),
    (r"\{\frac{1}{2}, 2\}", r"\{\frac{1}{2}, -2\}", False, "sign error"),
    (r"\{1,2,3\}", r"\{1,2\}", False, "missing element"),
    ("1, 2, 3", "1, 2", False, "missing solution"),
    ("2, 4, 6", r"2, 4, 6, \ldots", False, "an open-ended sequence is not its first terms"),
    (r"2, 4, 6, \ldots", "2, 4, 6, ...", True, "two spellings of an ellipsis"),
    (r"1, 3, 5, \dots", "1, 3, 5, …", True, "two spellings of an ellipsis"),
    (r"\mathbb{R}", "all real numbers", True, "the reals in words"),
    (r"(-\infty, \infty)", r"\text{All real numbers}", True, "the reals in words"),
    (r"\emptyset", "no real solutions", True, "the empty set in words"),
    (r"\text{no solution}", r"\varnothing", True, "the empty set in words"),
    (r"\mathbb{R}", "no solution", False, "all against nothing"),
    (r"\emptyset", r"\mathbb{R}", False, "nothing against all"),
    (r"\{0,1\}", r"\{0,-1\}", False, "sign error"),
    (r"\{3\}", r"\{-3,3\}", False, "extra element"),
    ("2, 3", "x_1 = 3, x_2 = 2", True, "numbered roots of one unknown are a set"),
    (r"\frac{3 \pm \sqrt{5}}{2}", r"\frac{3+\sqrt{5}}{2}, \frac{3-\sqrt{5}}{2}", True, "pm"),
    (r"\frac{3-\sqrt{5}}{2}, \frac{3+\sqrt{5}}{2}", r"\frac{3 \pm \sqrt{5}}{2}", True, "pm"),
    (r"\frac{3 \pm \sqrt{5}}{2}", r"\frac{3+\sqrt{5}}{2}, \frac{-3-\sqrt{5}}{2}", False, "pm"),
]

# ---------------------------------------------------------------------------
# tuple
# ---------------------------------------------------------------------------
_TUPLE: list[_Row] = [
    ("(1,2)", "(1, 2)", True, "whitespace"),
    (r"(\frac{1}{2},3)", "(0.5,3)", True, "components compared by value"),
    ("(2,-3)", r"\left(2,-3\right)", True, ""),
    ("(1,2,3)", "(1, 2, 3)", True, "whitespace"),
    (r"(\sqrt{2},1)", r"(\frac{2}{\sqrt{2}},1)", True, "components compared by value"),
    ("(3,4)", r"\left( 3 , 4 \right)", True, ""),
    (r"(-1,\frac{1}{2})", "(-1,1/2)", True, ""),
    ("(2,5)", "(x,y)=(2,5)", True, "convention: '(x,y) =' label on an ordered pair is ignored"),
    ("(0,0)", "(0, 0)", True, ""),
    ("(1,-1,2)", r"(1,-1,\frac{4}{2})", True, "components compared by value"),
    ("(1,2)", "(2,1)", False, "ordered pair: order matters"),
    ("(2,-3)", "(2,3)", False, "sign error"),
    ("(1,2,3)", "(1,2)", False, "missing component"),
    ("(1,2)", "(1,2,3)", False, "extra component"),
    ("(3,4)", "(4,3)", False, "ordered pair: order matters"),
    ("(0.5,3)", "(0.5,3.5)", False, ""),
    ("(1,2,3)", "(3,2,1)", False, "ordered triple: order matters"),
    ("(-1,4)", "(1,-4)", False, "signs moved between components"),
    ("(1,0)", "(0,1)", False, "ordered pair: order matters"),
    (r"(\frac{1}{2},3)", "(2,3)", False, ""),
    ("a = 2, b = 3", "(a, b) = (2, 3)", True, "named values, name by name"),
    ("(a, b) = (2, 3)", "b = 3, a = 2", True, "named values, name by name"),
    ("(a, b) = (2, 3)", "(b, a) = (3, 2)", True, "named values, name by name"),
    ("a = 2, b = 3", "(2, 3)", True, "named values against a tuple: in the names' order"),
    ("a = 2, b = 3", "(a, b) = (3, 2)", False, "named values swapped"),
    ("a = 2, b = 3", "(3, 2)", False, "named values against a tuple: in the names' order"),
    ("(3, 2)", "a = 2, b = 3", False, "named values against a tuple: in the names' order"),
    ("x = 1, y = -1", "(-1, 1)", False, "named values against a tuple: in the names' order"),
    ("(3, 2)", "b = 2, a = 3", True, "named values against a tuple: letters alphabetically"),
    ("(2, 3)", "b = 2, a = 3", False, "named values against a tuple: letters alphabetically"),
    ("(1, 5)", "y = 5, x = 1", True, "named values against a tuple: letters alphabetically"),
    ("(5, 1)", "y = 5, x = 1", False, "named values against a tuple: letters alphabetically"),
    ("a = 1, b = 2", "1, y = 2", False, "a list naming another unknown is no tuple of values"),
    ("a = 1, b = \\sqrt{2}", "1, \\sqrt{2}", True, "named values against a bare list"),
    ("a = 1, b = \\sqrt{2}", "1, y = \\sqrt{2}", False, "a list naming another unknown"),
    ("a = 1, b = \\sqrt{2} \\text{ or } a = 2, b = 1", "(2, 1), (1, \\sqrt{2})", True, "groups"),
    ("a = 1, b = \\sqrt{2} \\text{ or } a = 2, b = 1", "(1, 2), (1, \\sqrt{2})", False, "groups"),
    ("(1, \\sqrt{2}), (3, 4)", "(3, 4), (1, \\sqrt{2})", True, "a bare list of tuples"),
    ("(1, \\sqrt{2}), (3, 4)", "(4, 3), (1, \\sqrt{2})", False, "a bare list of tuples"),
    ("FF_{16}", "ff", True, "a number in a base: its digits in either case"),
    ("\\begin{pmatrix} 0.5 \\\\ 1 \\end{pmatrix}", "\\frac{1}{2}, 1", True, "a vector as a list"),
    ("\\begin{pmatrix} 0.5 \\\\ 1 \\end{pmatrix}", "1, \\frac{1}{2}", False, "a vector as a list"),
    ("(1, 5), (3, 7)", "y = 5, x = 1 \\text{ or } y = 7, x = 3", True, "system's solutions"),
    ("(5, 1), (7, 3)", "y = 5, x = 1 \\text{ or } y = 7, x = 3", False, "system's solutions"),
    (r"\langle 1, -2, 5 \rangle", "(1, -2, 5)", True, "angle brackets write a vector"),
    (r"\langle 1, -2, 5 \rangle", "(1, 5, -2)", False, "angle brackets write a vector"),
    (r"x = 1, y = 5 \text{ or } x = 3, y = 7", "(3, 7), (1, 5)", True, "system's solutions"),
    (r"x = 1, y = 5 \text{ or } x = 3, y = 7", "(5, 1), (7, 3)", False, "system's solutions"),
    ("(1, 5), (3, 7)", "x = 3, y = 7; x = 1, y = 5", True, "system's solutions as tuples"),
    ("(1, 5), (3, 7)", "x = 1, y = 5 and x = 3, y = 7", True, "system's solutions as tuples"),
    ("(1, 5), (3, 7)", "x = 1, y = 5", False, "one of the two solutions"),
    ("x = 1, y = 5 or x = 3, y = 7", "(1, 5), (3, 7), (5, 6)", False, "one solution too many"),
]

# ---------------------------------------------------------------------------
# interval
# ---------------------------------------------------------------------------
_INTERVAL: list[_Row] = [
    ("[0,1)", "[0,1)", True, ""),
    (r"(-\infty,2]", r"(-\infty, 2]", True, ""),
    (
        r"(-\infty,0)\cup(1,\infty)",
        r"(1,\infty)\cup(-\infty,0)",
        True,
        "union is commutative",
    ),
    ("[0,1)", r"\left[0,1\right)", True, ""),
    (r"(-\infty,\infty)", r"\mathbb{R}", True, "the whole real line"),
    ("[1,5]", r"[1,3]\cup[2,5]", True, "overlapping union equals [1,5] as a set"),
    (r"(0,\frac{1}{2}]", "(0,0.5]", True, "endpoints compared by value"),
    (
        r"(-\infty,-1]\cup[1,\infty)",
        r"(-\infty,-1]\cup[1,+\infty)",
        True,
        "+\\infty is \\infty",
    ),
    (r"(-\infty,2]", r"x\le 2", True, "convention: inequality describing the same set (debatable)"),
    ("[-2,3)", "[-2, 3)", True, ""),
    (r"(2,\infty)", r"(2, +\infty)", True, ""),
    ("(0,1]", "[0,1]", False, "open vs closed left end"),
    ("[0,1)", "[0,1]", False, "open vs closed right end"),
    ("(0,1)", "[0,1]", False, "open vs closed ends"),
    (r"(-\infty,2]", r"(-\infty,2)", False, "closed vs open right end"),
    (
        r"(-\infty,0)\cup(1,\infty)",
        r"(-\infty,0)\cup[1,\infty)",
        False,
        "1 included vs excluded",
    ),
    ("[1,3]", "[1,4]", False, ""),
    (r"(-\infty,2]", r"[2,\infty)", False, "wrong side"),
    ("(-2,3)", "(2,3)", False, "sign error"),
    (r"(3,\infty)", r"(-\infty,3)", False, "wrong side"),
    (r"[0,2]\cup[3,4]", "[0,4]", False, "gap (2,3) filled in"),
    (r"\{x \mid x > 2\}", r"(2, \infty)", True, "set-builder notation"),
    (r"x > 2", r"\{x : x > 2\}", True, "set-builder notation"),
    (r"(0, 1]", r"\{x \in \mathbb{R} \mid 0 < x \le 1\}", True, "set-builder notation"),
    (r"\{x \mid x > 2\}", r"[2, \infty)", False, "set-builder notation: open end"),
    (r"-\infty", "negative infinity", True, "infinity in words"),
    (r"\infty", "negative infinity", False, "infinity in words"),
]

# ---------------------------------------------------------------------------
# matrix
# ---------------------------------------------------------------------------
_M = r"\begin{pmatrix}1&2\\3&4\end{pmatrix}"
_MATRIX: list[_Row] = [
    (_M, r"\begin{bmatrix}1&2\\3&4\end{bmatrix}", True, "bracket style is presentation"),
    (_M, r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", True, "whitespace"),
    (
        _M,
        r"\left(\begin{array}{cc}1&2\\3&4\end{array}\right)",
        True,
        "array environment in parentheses",
    ),
    (
        r"\begin{pmatrix}\frac{1}{2}&0\\0&1\end{pmatrix}",
        r"\begin{pmatrix}0.5&0\\0&1\end{pmatrix}",
        True,
        "entries compared by value",
    ),
    (r"\begin{pmatrix}1\\2\end{pmatrix}", r"\begin{bmatrix}1\\2\end{bmatrix}", True, ""),
    (
        r"\begin{pmatrix}2&4\\6&8\end{pmatrix}",
        r"2\begin{pmatrix}1&2\\3&4\end{pmatrix}",
        True,
        "scalar multiple evaluated",
    ),
    (
        r"\begin{pmatrix}2\sqrt{2}\\1\end{pmatrix}",
        r"\begin{pmatrix}\sqrt{8}\\1\end{pmatrix}",
        True,
        "entries compared by value",
    ),
    (
        r"\begin{pmatrix}1&0\\0&1\end{pmatrix}",
        r"\begin{bmatrix}1&0\\0&1\end{bmatrix}",
        True,
        "",
    ),
    (r"\begin{pmatrix}-1&2\end{pmatrix}", r"\begin{bmatrix}-1 & 2\end{bmatrix}", True, ""),
    (
        r"\begin{pmatrix}1&-2\\-3&4\end{pmatrix}",
        r"\begin{bmatrix}1 & -2\\ -3 & 4\end{bmatrix}",
        True,
        "",
    ),
    (_M, r"\begin{pmatrix}1&3\\2&4\end{pmatrix}", False, "transposed"),
    (_M, r"\begin{bmatrix}1&3\\2&4\end{bmatrix}", False, "transposed, other brackets"),
    (_M, r"\begin{pmatrix}1&2\\4&3\end{pmatrix}", False, "entries swapped"),
    (_M, r"\begin{pmatrix}1&-2\\3&4\end{pmatrix}", False, "sign error"),
    (
        r"\begin{pmatrix}1\\2\end{pmatrix}",
        r"\begin{pmatrix}1&2\end{pmatrix}",
        False,
        "column vs row vector: shapes differ",
    ),
    (_M, r"\begin{pmatrix}1&2\\3&5\end{pmatrix}", False, "one entry off by one"),
    (
        r"\begin{pmatrix}1&0\\0&1\end{pmatrix}",
        r"\begin{pmatrix}0&0\\0&0\end{pmatrix}",
        False,
        "",
    ),
    (_M, "-2", False, "the determinant is not the matrix"),
    (_M, r"\begin{pmatrix}4&3\\2&1\end{pmatrix}", False, "entries reversed"),
    (_M, r"\begin{pmatrix}1&2&3&4\end{pmatrix}", False, "2x2 vs 1x4: shapes differ"),
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", "[[1, 2], [3, 4]]", True, "rows list"),
    (r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}", "[1, 2]", True, "a vector as a list"),
    (r"\begin{pmatrix} \frac12 \\ 1 \end{pmatrix}", "0.5, 1", True, "a vector as a bare list"),
    (r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}", "[2, 1]", False, "a list in another order"),
    (r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", "[[1, 3], [2, 4]]", False, "transposed"),
    ("[[1, 0], [0, 1]]", r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}", True, "rows list"),
]

# ---------------------------------------------------------------------------
# equation
# ---------------------------------------------------------------------------
_EQ_NOTE = "convention: a variable label 'x =' on the answer is ignored"
_EQUATION: list[_Row] = [
    ("3", "x=3", True, _EQ_NOTE),
    ("x=3", "3", True, _EQ_NOTE),
    ("3", "x = 3", True, _EQ_NOTE),
    ("2x+1", "y=2x+1", True, _EQ_NOTE),
    ("y=2x+1", "2x+1", True, _EQ_NOTE),
    ("0.5", r"x=\frac{1}{2}", True, _EQ_NOTE),
    ("5", "k = 5", True, _EQ_NOTE),
    ("x^2", "f(x)=x^2", True, "convention: 'f(x) =' label is ignored"),
    ("Q(x) = x^3 - 2", "q(x) = x^3 - 2", True, "convention: the function's name is a label too"),
    ("Q(x) = x^3 - 2", "q(x) = x^3 + 2", False, "sign error"),
    ("3", "x equals 3", True, "'equals' in words"),
    ("3", "x equals 4", False, "'equals' in words, wrong value"),
    ("m = 2, n = 6", "n = 6, m = 2", True, "one solution: the unknowns in any order"),
    ("m = 2, n = 6", "m = 6, n = 2", False, "values swapped between the unknowns"),
    (r"a = 3, b = 1 \text{ or } a = 1, b = 3", "a=1, b=3; a=3, b=1", True, "solution groups"),
    (r"p = 4, q = 9 \quad \text{and} \quad p = 8, q = 3", "p=4,q=9;p=8,q=3", True, "groups"),
    (r"p = 4, q = 9 \quad \text{and} \quad p = 8, q = 3", "p=4,q=9", False, "a group missing"),
    ("m = 2, n = 6; m = 3, n = 4", "m = 2, n = 6; m = 4, n = 3", False, "one group wrong"),
    ("y=2x+1", "2x+1=y", True, "sides of an equation swapped"),
    ("x^2+y^2=1", "y^2+x^2=1", True, "term order"),
    ("y=-x+4", "y=4-x", True, "term order"),
    ("x=3", "x=-3", False, "sign error"),
    ("y=2x+1", "y=2x-1", False, "sign error"),
    ("x=3", "4", False, "off by one"),
    ("y=2x+1", "y=x+2", False, "slope and intercept swapped"),
    (r"x=\frac{1}{2}", "x=2", False, "reciprocal"),
    ("3", r"x=\frac{1}{3}", False, "reciprocal"),
    ("x^2+y^2=1", "x^2+y^2=2", False, ""),
    ("y=2x+1", "2x-1", False, "sign error"),
    ("x=5", "x=6", False, "off by one"),
    ("y=3x", "y=x/3", False, ""),
]

# ---------------------------------------------------------------------------
# text
# ---------------------------------------------------------------------------
_TEXT: list[_Row] = [
    (r"\text{Monday}", "Monday", True, ""),
    ("Yes", "yes", True, "case-insensitive for words"),
    (r"\text{(B)}", "B", True, "multiple-choice letter: parentheses ignored"),
    ("B", r"\text{(B)}", True, "multiple-choice letter: parentheses ignored"),
    (r"\textbf{(C)}", "C", True, "multiple-choice letter: parentheses ignored"),
    ("(A)", "A", True, "multiple-choice letter: parentheses ignored"),
    (r"\text{even}", r"\mathrm{even}", True, ""),
    ("True", r"\text{true}", True, "case-insensitive for words"),
    ("north", r"\text{ North }", True, "case-insensitive for words; padding ignored"),
    (r"\text{Monday}", r"\text{monday}", True, "case-insensitive for words"),
    ("D", "(D)", True, "multiple-choice letter: parentheses ignored"),
    (r"\text{No}", "no", True, "case-insensitive for words"),
    ("east", "west", False, ""),
    (r"\text{Tuesday}", "Monday", False, ""),
    ("B", "C", False, ""),
    ("Yes", "No", False, ""),
    ("odd", "even", False, ""),
    (r"\text{(B)}", "(D)", False, ""),
    ("Alice", "Bob", False, ""),
    ("increasing", "decreasing", False, ""),
    (r"\text{Monday}", r"\text{Sunday}", False, ""),
    ("A", "(B)", False, ""),
    ("C", "(C) 12", True, "an option given with its value answers the letter"),
    ("(C) 12", "C", True, "an option given with its value answers the letter"),
    ("(C) 12", "12", True, "an option given with its value answers the value"),
    ("D", r"\textbf{(D)} $\frac{3}{4}$", True, "an option given with its value"),
    ("B", "B. 7", True, "an option given with its value"),
    ("C", "(B) 12", False, "another option, whatever its value"),
    ("(C) 12", "13", False, "another value"),
    ("(C) 12", "(D) 12", False, "another option"),
    ("C: x^2+y^2=1", "C: x^2+y^2=4", False, "a named curve: the same name, another curve"),
    (r"\text{No}", "No, it is not possible", True, "a no followed by its reason"),
    ("yes", r"\text{Yes}. Every such n works.", True, "a yes followed by its reason"),
    ("No", "Yes, it is possible", False, "a yes followed by its reason"),
    ("4", "4 (when x = 2)", True, "a closing remark in parentheses says where it holds"),
    ("-1", r"-1 \text{ (attained at } x = 0)", True, "a closing remark in parentheses"),
    ("4", r"5 \text{ (when } x = 2)", False, "another value, whatever the remark"),
    (r"\text{does not exist}", "DNE", True, "the usual abbreviation"),
    ("DNE", "0", False, "a limit that exists is not one that does not"),
    ("5", "5, since 5^2 = 25", True, "the reason after the answer is not the answer"),
    ("5", r"6 \text{ because } 6 > 5", False, "the reason after the answer is not the answer"),
    ("3", "3 solutions", True, "a count with its noun"),
    ("3", "4 solutions", False, "a count with its noun"),
    ("3000", "3 thousand", True, "a scale word is not a count's noun"),
    ("3", "3 thousand", False, "a scale word is not a count's noun"),
]

# ---------------------------------------------------------------------------
# units
# ---------------------------------------------------------------------------
_UNIT_NOTE = "convention: a unit or currency sign next to the same number is ignored"
_UNITS: list[_Row] = [
    ("5", r"5\text{ cm}", True, _UNIT_NOTE),
    (r"5\text{ cm}", "5", True, _UNIT_NOTE),
    ("30", r"30^\circ", True, "degree sign ignored"),
    (r"30^\circ", "30", True, "degree sign ignored"),
    ("30", "30°", True, "degree sign ignored"),
    ("18", r"\$18", True, _UNIT_NOTE),
    ("18", "18 dollars", True, _UNIT_NOTE),
    (r"\$18.00", "18", True, _UNIT_NOTE),
    ("12", r"12\ \text{km}", True, _UNIT_NOTE),
    ("45", r"45^{\circ}", True, "degree sign ignored"),
    ("3.5", r"3.5\text{ hours}", True, _UNIT_NOTE),
    ("150", r"150 \mathrm{m}^2", True, _UNIT_NOTE),
    ("20", r"20\text{ mph}", True, _UNIT_NOTE),
    ("5 cm", "6", False, "wrong value"),
    (r"\$18", r"\$81", False, "digits swapped"),
    (r"30^\circ", r"60^\circ", False, "complementary angle"),
    (r"12\text{ km}", "1.2", False, "wrong value"),
    ("1200", r"\$120", False, "wrong value"),
    (r"45^{\circ}", "54", False, "digits swapped"),
    (r"7\text{ hours}", "8", False, "off by one"),
    ("18", r"\$18.50", False, "wrong value"),
    (r"90^\circ", "9", False, ""),
    ("18 dollars", "1.8", False, ""),
    (r"\frac{\pi}{6}", r"30^\circ", True, "degrees against radians: 30 degrees is pi/6"),
    (r"120^{\circ}", r"\frac{2\pi}{3}", True, "degrees against radians"),
    (r"\pi", "180°", True, "degrees against radians"),
    (r"\frac{\pi}{6}, \frac{5\pi}{6}", r"30^\circ, 150^\circ", True, "angles, one by one"),
    (r"\frac{\pi}{6}", "30", False, "without a degree sign 30 is 30 radians"),
    (r"\frac{\pi}{4}", "45 degrees", True, "degrees in words against radians"),
    (r"30^\circ", r"\frac{\pi}{3}", False, "60 degrees"),
]


# ---------------------------------------------------------------------------
# plain-text mathematics, as a calculator or Python would write it
# ---------------------------------------------------------------------------
_PLAIN_NOTE = "plain-text notation read as the LaTeX it stands for"
_PLAIN_TEXT: list[_Row] = [
    (r"\frac{\sqrt{3}}{2}", "sqrt(3)/2", True, _PLAIN_NOTE),
    (r"\sqrt{2}", "sqrt 2", True, _PLAIN_NOTE),
    (r"2\sqrt{3}", "2*sqrt(3)", True, _PLAIN_NOTE),
    (r"\frac{\pi}{4}", "pi/4", True, _PLAIN_NOTE),
    (r"2\pi", "2pi", True, _PLAIN_NOTE),
    ("x^2+1", "x**2 + 1", True, _PLAIN_NOTE),
    ("e^{2}", "exp(2)", True, _PLAIN_NOTE),
    (r"\sqrt[3]{2}", "2^(1/3)", True, _PLAIN_NOTE),
    (r"\sqrt[3]{2}", r"\sqrt[3]2", True, "LaTeX's braceless radicand"),
    (r"[1, \infty)", "[1, infinity)", True, _PLAIN_NOTE),
    (r"\ln 2", "ln(2)", True, _PLAIN_NOTE),
    (r"\frac{\sqrt{3}}{2}", "sqrt(2)/2", False, "other radicand"),
    (r"\frac{\pi}{4}", "pi/3", False, "other angle"),
    (r"2\sqrt{3}", "3*sqrt(2)", False, "swapped"),
    ("x^2+1", "x**2 - 1", False, "sign"),
    ("e^{2}", "exp(3)", False, "other exponent"),
    (r"\sqrt[3]{2}", "2^(1/2)", False, "square root, not cube root"),
    (r"\pi", "spin", False, "a word containing 'pi' is not pi"),
    ("x^2+7x+10", "x² + 7x + 10", True, "Unicode superscripts"),
    ("10^{-6}", "10⁻⁶", True, "a run of superscripts is one exponent"),
    (r"\frac{7}{2}", "3½", True, "a vulgar fraction after a whole number"),
    ("[2, 5)", "x ∈ [2, 5)", True, "Unicode membership"),
    (r"\theta = \frac{\pi}{4}", "θ = π/4", True, "Greek letters"),
    ("-3", "negative three", True, "a sign in words"),
    ("-3", "minus 3", True, "a sign in words"),
    ("n!", "n factorial", True, _PLAIN_NOTE),
    ("x^2+7x+10", "x²+7x+11", False, "another constant"),
    ("10^{-6}", "10⁻⁵", False, "another exponent"),
    (r"\frac{1}{4}", "½", False, "another fraction"),
    ("-3", "three", False, "the sign is lost"),
]

# ---------------------------------------------------------------------------
# numbers in words
# ---------------------------------------------------------------------------
_WORD_NOTE = "a number written in words"
_NUMBER_WORDS: list[_Row] = [
    ("25", "twenty-five", True, _WORD_NOTE),
    ("25", "twenty five", True, _WORD_NOTE),
    ("100", "one hundred", True, _WORD_NOTE),
    ("112", "one hundred and twelve", True, _WORD_NOTE),
    ("1000", "one thousand", True, _WORD_NOTE),
    ("12", "a dozen", True, _WORD_NOTE),
    ("3", "third", True, "an ordinal answers a place"),
    ("21", "21st", True, "an ordinal answers a place"),
    (r"\frac{3}{4}", "three quarters", True, _WORD_NOTE),
    (r"\text{Yes}", "true", True, "true answers a yes-or-no question as yes"),
    ("25", "twenty-six", False, "off by one"),
    ("40", "fourteen", False, "other number"),
    ("100", "one thousand", False, "other scale"),
    ("3", "4th", False, "other place"),
    (r"\frac{3}{4}", "three fifths", False, "other denominator"),
    (r"\text{No}", "true", False, "the opposite answer"),
]

# ---------------------------------------------------------------------------
# quantities in different units, ratios, times of day, chosen options
# ---------------------------------------------------------------------------
_CONVERT_NOTE = "quantities of one kind compare in one unit"
_CONVERSIONS: list[_Row] = [
    (r"3 \text{ hours}", "180 minutes", True, _CONVERT_NOTE),
    (r"1.5 \text{ hours}", r"90 \text{ minutes}", True, _CONVERT_NOTE),
    (r"2 \text{ m}", r"200 \text{ cm}", True, _CONVERT_NOTE),
    (r"1 \text{ kg}", "1000 g", True, _CONVERT_NOTE),
    ("1:2:3", "2:4:6", True, "a ratio in other terms"),
    ("20:34", r"08:34 \text{P.M.}", True, "a time of day on the 12-hour clock"),
    ("20:34", "20:34:00", True, "a time of day with its seconds"),
    ("A, C", r"C \text{ and } A", True, "options chosen, in any order"),
    (r"A \text{ and } C", "AC", True, "options chosen, written together"),
    ("12", "12 square centimeters", True, _UNIT_NOTE),
    (r"3 \text{ hours}", "3 minutes", False, "same number, other unit"),
    (r"2 \text{ m}", r"20 \text{ cm}", False, "off by a factor of ten"),
    ("1:2:3", "1:2:4", False, "another ratio"),
    ("3:2", "2:3", False, "the inverse ratio"),
    ("20:34", "8:34 am", False, "the morning, not the evening"),
    ("A, C", "A, B", False, "another option"),
    ("A, C", "A", False, "one option missing"),
]

# ---------------------------------------------------------------------------
# other ways of writing the same number or set
# ---------------------------------------------------------------------------
_WRITTEN_NOTE = "the same value in another notation"
_WRITTEN_FORMS: list[_Row] = [
    (r"\frac{\sqrt{3}}{2}", "√3/2", True, "Unicode root"),
    ("2", "∛8", True, "Unicode root"),
    ("3", "∛8", False, "Unicode root"),
    ("5:3", "5∶3", True, "a Unicode ratio colon"),
    ("5:4", "5∶3", False, "a Unicode ratio colon"),
    (r"x \ge 2", "x ⩾ 2", True, "a slanted Unicode relation"),
    (r"x \le 2", "x ⩾ 2", False, "a slanted Unicode relation"),
    (r"\frac{\pi}{4}", "π⁄4", True, "a Unicode fraction slash"),
    (r"\frac{\pi}{3}", "π⁄4", False, "a Unicode fraction slash"),
    ("3.14", "≈3.14", True, "a Unicode approximately"),
    ("3.15", "≈3.14", False, "a Unicode approximately"),
    ("x > 0", "{x ∣ x > 0}", True, "a set-builder in bare braces"),
    ("x > 1", "{x | x > 0}", False, "a set-builder in bare braces"),
    (r"\frac{2}{3}", "2 thirds", True, "a numeral before a fraction word"),
    (r"\frac{1}{2}", "1 half", True, "a numeral before a fraction word"),
    (r"\frac{2}{3}", "3 thirds", False, "a numeral before a fraction word"),
    ("3", "3 quarters", True, "quarters counted, as coins are"),
    (r"\frac{3}{4}", "3 quarters", False, "quarters counted, as coins are"),
    (r"\frac{x^2}{2} + C", "1/2 x^2 + C", True, "a slashed coefficient"),
    (r"\frac{4}{3}\pi r^3", "4/3 pi r^3", True, "a slashed coefficient"),
    (r"\frac{4}{3}\pi r^2", "4/3 pi r^3", False, "a slashed coefficient"),
    (r"\frac{3}{4x}", "3/4 x", False, "a slashed coefficient, not a denominator"),
    (r"\{1, 2\}", "{2, 1}", True, "a set in bare braces"),
    (r"\{1, 2\}", "{1, 3}", False, "a set in bare braces"),
    (r"\{-2, 3\}", r"x \in {3, -2}", True, "a set in bare braces"),
    ("(1, 2)", r"\{1, 2\}", False, "a set is no point"),
    ("(1, 2)", "{1, 2}", True, "bare braces at the start: the list LaTeX shows"),
    ("(1, 2)", r"x \in {1, 2}", False, "a set is no point"),
    ("(1, 2)", r"x \in \{1, 2\}", False, "a set is no point"),
    (r"\{1, 2\}", r"x \in \{2, 1\}", True, "one unknown's values are the set"),
    ("1, 2", r"x \in \{1, 2\}", True, "one unknown's values are the set"),
    (r"\{1, 2, 3\}", r"x \in \{1, 2\}", False, "one unknown's values are the set"),
    (r"(3, \frac{\pi}{2})", r"\\left( 3, \\frac{\\pi}{2} \\right)", True, "escaped twice"),
    (r"(3, \frac{\pi}{3})", r"\\left( 3, \\frac{\\pi}{2} \\right)", False, "escaped twice"),
    (r"\frac{1}{2}", r"\\frac{1}{2}", True, "escaped twice"),
    (r"\frac{1}{2}", r"\\frac{1}{3}", False, "escaped twice"),
    ("4", "f(2) = 2^2 = 4", True, "a chain of equalities is its last side"),
    ("5", "AB = BC = 5", True, "a chain of equalities is its last side"),
    ("6", "AB = BC = 5", False, "a chain of equalities is its last side"),
    ("2", "a = b = 2x", False, "a chain of equalities is its last side"),
    (r"(-\infty, 7]", "7 or less", True, "a bound and the side past it"),
    (r"x \ge 5", "5 or more", True, "a bound and the side past it"),
    ("7", "7 or less", False, "a bound and the side past it"),
    (r"x \ge 5", "5 or less", False, "a bound and the side past it"),
    ("(5, 7)", r"x = 5 \quad y = 7", True, "named values apart by a wide space"),
    ("a=2, b=3", r"a = 2 \qquad b = 3", True, "named values apart by a wide space"),
    ("(5, 8)", r"x = 5 \quad y = 7", False, "named values apart by a wide space"),
    ("7", r"x = 5 \quad x = 7", False, "named values apart by a wide space"),
    ("[1, 2]", r"\{1, 2\}", False, "a set is no interval"),
    (r"(1, \sqrt{2})", r"\{1, \sqrt{2}\}", False, "a set is no point"),
    ("(1, 2)", r"\{(1, 2)\}", True, "a set of one point"),
    (r"-\frac{3}{2}", "–3/2", True, "an en dash for a minus"),
    ("1024", "1 024", True, "thousands grouped by a space"),
    ("1011_2", "11", True, "a number in base 2 and its value"),
    ("1011_2", "1011", True, "the digits with the base left out"),
    ("14", "XIV", True, "a Roman numeral"),
    (r"\{1, 2\}", r"\lbrace 1, 2 \rbrace", True, _WRITTEN_NOTE),
    (r"\frac{1}{6}", r"16.67\%", True, "a percentage rounded to two places"),
    ("[-1, 4]", r"-1 \leq x \text{ and } x \leq 4", True, "two bounds joined by 'and'"),
    (r"\$12.40", "1240 cents", True, _CONVERT_NOTE),
    (r"m = -\frac{1}{2}", r"\text{slope} = -\frac{1}{2}", True, "a word as the label"),
    (r"\text{B}", "Option B", True, _WRITTEN_NOTE),
    (r"\emptyset", "none", True, "none: no solution"),
    ("24", "2 dozen", True, _WRITTEN_NOTE),
    ("1024", "10 24", False, "two numbers, not a thousands group"),
    ("1011_2", "1101_2", False, "other digits"),
    ("27_8", "27", True, "the digits with the base left out"),
    ("27_8", "28", False, "neither the digits nor the value"),
    ("4", "VI", False, "another Roman numeral"),
    (r"\frac{1}{6}", r"17\%", False, "rounded to too few places"),
    ("[-1, 4]", r"-1 < x \text{ and } x \leq 4", False, "an open end"),
    (r"(-\infty, -2) \cup (2, \infty)", "x < -2, x > 2", True, "a comma lists the parts"),
    (r"\$12.40", "124 cents", False, "a tenth of the amount"),
    (r"\text{B}", "Option C", False, "another option"),
    (r"\emptyset", "0", False, "zero is a number, not the empty set"),
    (r"25\pi", "78.54", True, "a rounding to four significant digits"),
    (r"25\pi", "78.5", False, "three significant digits and one place: too coarse"),
    (r"\frac{1}{36}", "1 out of 36", True, "a chance written as a count"),
    ("(2, -3)", "P(2, -3)", True, "a point's name before its coordinates"),
    (r"\frac{dy}{dx} = \frac{-x}{y}", r"-\frac{x}{y}", True, "a derivative's name is a label"),
    (r"10\%", "ten percent", True, "a percentage in words"),
    (r"10\%", "eleven percent", False, "another percentage"),
    ("x > 2", "x is greater than 2", True, "a relation in words"),
    (r"x \le 3", "no more than 3", True, "a relation in words"),
    ("[-1, 1]", "between -1 and 1 inclusive", True, "an interval in words"),
    (r"x \neq 3", "all real numbers except 3", True, "an exclusion in words"),
    (r"\sqrt{2}", "approximately 1.4142", True, "a hedged rounding"),
    ("1.5", "one and a half", True, _WORD_NOTE),
    ("2:3", "2 to 3", True, "a ratio in words"),
    ("(0, 0)", "the origin", True, "the origin by name"),
    ("x > 2", "x is less than 2", False, "the opposite relation"),
    ("[-1, 1]", "between -1 and 1", False, "exclusive without 'inclusive'"),
    (r"\sqrt{2}", "approximately 1.5", False, "too coarse a rounding"),
    ("(0, 1)", "]0, 1[", True, "reversed brackets for open ends"),
    ("[0, 1)", "[0, 1[", True, "reversed brackets for open ends"),
    ("1200", r"1,2 \cdot 10^3", True, "a decimal comma in a mantissa"),
    (r"\frac{\pi}{3}", r"\frac\pi3", True, "LaTeX's braceless fraction"),
    (r"\frac{\pi}{3}", "1.047 rad", True, "a rounding in radians"),
    (r"\frac{1}{2} \text{ hour}", r"30 \text{ minutes}", True, "a fraction of an hour"),
    ("12", r"\text{lcm}(4,6)", True, "a named function"),
    ("y = 2", "the line y = 2", True, "the object's kind before it"),
    ("(1, -2, 3)", "[1, -2, 3]", True, "a triple in square brackets is not an interval"),
    ("(0, 1)", "]0, 1]", False, "a closed end"),
    (r"\frac{1}{2} \text{ hour}", r"20 \text{ minutes}", False, "a third of an hour"),
    ("[1, 2]", "(1, 2)", False, "two entries: the brackets are the interval's ends"),
]

# ---------------------------------------------------------------------------
# complex
# ---------------------------------------------------------------------------
_COMPLEX: list[_Row] = [
    ("3+4i", "4i+3", True, "term order"),
    ("1-i", "-i+1", True, "term order"),
    ("2i", "(1+i)^2", True, ""),
    ("-i", r"\frac{1}{i}", True, ""),
    ("-1", "i^2", True, ""),
    (r"\frac{1}{2}+\frac{1}{2}i", r"\frac{1+i}{2}", True, ""),
    ("5i", "0+5i", True, ""),
    ("-1", r"e^{i\pi}", True, "Euler's identity"),
    ("3+4i", r"3+4\,i", True, "thin space"),
    ("2-3i", "2+(-3)i", True, ""),
    ("1+i", r"\sqrt{2}e^{i\pi/4}", True, "polar form"),
    ("3+4i", "3-4i", False, "conjugate"),
    ("3+4i", "4+3i", False, "real and imaginary parts swapped"),
    ("2i", "-2i", False, "sign error"),
    ("1+i", "1", False, "imaginary part dropped"),
    ("i", "1", False, ""),
    (r"\frac{1}{i}", "i", False, "1/i = -i"),
    ("-1+i", "1-i", False, "both signs flipped"),
    ("5", "5i", False, ""),
    ("1+2i", "1+2", False, "imaginary unit dropped"),
    ("i", "-i", False, "sign error"),
]

# ---------------------------------------------------------------------------
# big_small
# ---------------------------------------------------------------------------
_BIG_SMALL: list[_Row] = [
    ("1267650600228229401496703205376", "2^{100}", True, ""),
    ("2^{100}", "1267650600228229401496703205376", True, ""),
    ("10^{-7}", "0.0000001", True, ""),
    ("10^{-7}", "1e-7", True, ""),
    ("18446744073709551616", "2^{64}", True, ""),
    ("1000000000000000000", "10^{18}", True, ""),
    (r"\frac{1}{2^{99}}", "2^{-99}", True, ""),
    ("3^{-30}", r"\frac{1}{3^{30}}", True, ""),
    ("2432902008176640000", "20!", True, ""),
    ("12157665459056928801", "3^{40}", True, ""),
    (r"\frac{1}{1024}", "2^{-10}", True, ""),
    ("10^{-12}", "0.000000000001", True, ""),
    (r"\frac{1}{2^{99}}", r"\frac{1}{2^{98}}", False, "off by a factor of 2"),
    ("10^{-7}", r"2\cdot10^{-7}", False, "tiny values must not pass an absolute tolerance"),
    ("2^{64}", "18446744073709551615", False, "off by one: exact integers compare exactly"),
    ("10^{18}+1", "10^{18}", False, "off by one: no relative tolerance on exact integers"),
    ("1e-7", "2e-7", False, "tiny values must not pass an absolute tolerance"),
    ("10^{-12}", "10^{-13}", False, "tiny values must not pass an absolute tolerance"),
    ("1-10^{-9}", "1", False, "exact values: no numeric tolerance"),
    (
        "1267650600228229401496703205376",
        "1267650600228229401496703205377",
        False,
        "off by one: exact integers compare exactly",
    ),
    ("2^{100}", "2^{101}", False, "off by a factor of 2"),
    ("0", "10^{-20}", False, "tiny but nonzero"),
    ("2^{-50}", "2^{-51}", False, "off by a factor of 2"),
]


def _build() -> list[EquivCase]:
    tables: dict[str, list[_Row]] = {
        "integer": _INTEGER,
        "decimal": _DECIMAL,
        "fraction": _FRACTION,
        "percentage": _PERCENTAGE,
        "scientific": _SCIENTIFIC,
        "mixed_number": _MIXED_NUMBER,
        "symbolic_root": _SYMBOLIC_ROOT,
        "pi": _PI,
        "expression": _EXPRESSION,
        "set": _SET,
        "tuple": _TUPLE,
        "interval": _INTERVAL,
        "matrix": _MATRIX,
        "equation": _EQUATION,
        "text": _TEXT,
        "units": _UNITS,
        "complex": _COMPLEX,
        "big_small": _BIG_SMALL,
        "plain_text": _PLAIN_TEXT,
        "number_words": _NUMBER_WORDS,
        "conversions": _CONVERSIONS,
        "written_forms": _WRITTEN_FORMS,
    }
    return [
        EquivCase(reference=ref, answer=ans, equivalent=eq, kind=kind, note=note)
        for kind, rows in tables.items()
        for ref, ans, eq, note in rows
    ]


CASES: list[EquivCase] = _build()

KINDS: tuple[str, ...] = tuple(dict.fromkeys(case.kind for case in CASES))
