r"""A hand-labelled corpus of (reference, answer) pairs written the way they appear in practice.

We wrote every case ourselves (none is copied from a public suite): references as datasets
store them (plain, ``$…$``, ``\boxed{}``, sentences) and answers as models write them (bare,
in math delimiters, boxed, in a closing sentence), in the nine categories where answer
checkers most often go wrong. Many answers are *wrong but close* (a sign, an endpoint, a
bracket, one element), so accepting too much shows as clearly as rejecting too much.

``CASES`` feeds the differential benchmark (``benchmarks/math_diff_bench.py``, ours vs
math-verify) and the metamorphic tests, which wrap each bare answer in every common form
(``WRAPPERS``) and require the same verdict under the lenient policy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    category: str
    reference: str
    answer: str
    label: bool
    bare: bool  # the answer is nothing but the answer (so it can be wrapped)


CATEGORIES: tuple[str, ...] = (
    "no_marker",
    "lists",
    "several_boxes",
    "decimal_comma",
    "relations",
    "matrices",
    "intervals",
    "long_solution",
    "notation",
)


def _cases(category: str, bare: bool, rows: list[tuple[str, str, bool]]) -> list[Case]:
    return [Case(category, ref, answer, label, bare) for ref, answer, label in rows]


_NO_MARKER = _cases(
    "no_marker",
    False,
    [
        ("9", "Answer $ 9 $", True),
        ("9", "$$ 9 $$", True),
        ("9", r"\[ 9 \]", True),
        ("9", r"\( 9 \)", True),
        ("$9$", "Answer $ 8 $", False),
        ("[5, \\infty)", r"Therefore $x \geq 5$ is the solution.", True),
        ("[5, \\infty)", r"Therefore $x > 5$ is the solution.", False),
        ("\\frac{1}{2}", r"So the probability is $\frac{1}{2}$.", True),
        ("\\frac{1}{2}", r"So the probability is $\frac{1}{3}$.", False),
        ("12", "Adding these up we get $5 + 7 = 12$.", True),
        ("12", "Adding these up we get $5 + 6 = 11$.", False),
        ("$3\\sqrt{2}$", r"The distance is $$3\sqrt{2}$$", True),
        ("$3\\sqrt{2}$", r"The distance is $$2\sqrt{3}$$", False),
        ("x^2+2x+1", r"Expanding gives \[(x+1)^2 = x^2 + 2x + 1\]", True),
        ("x^2+2x+1", r"Expanding gives \[x^2 + 2x - 1\]", False),
        ("-4", r"Thus the minimum value is \(-4\).", True),
        ("-4", r"Thus the minimum value is \(4\).", False),
        ("\\pi", r"The area is $\pi$ square units.", True),
        ("\\pi", r"The area is $2\pi$ square units.", False),
        ("7", "The value of $k$ is $7$.", True),
        ("7", "The value of $k$ is $-7$.", False),
        ("\\dfrac{5}{6}", r"Hence $P = \frac{5}{6}$", True),
        ("\\dfrac{5}{6}", r"Hence $P = \frac{6}{5}$", False),
        ("20", "We need 20 more marbles", True),
        ("20", "We need 21 more marbles", False),
        ("\\sqrt{5}", r"which gives $|z| = \sqrt{5}$.", True),
        ("\\sqrt{5}", r"which gives $|z| = 5$.", False),
        ("(2,3)", "The center is at $(2, 3)$.", True),
        ("(2,3)", "The center is at $(3, 2)$.", False),
        ("$\\{1, 2\\}$", r"The solutions are $x = 1$ and $x = 2$.", True),
        ("$\\{1, 2\\}$", r"The solutions are $x = 1$ and $x = 3$.", False),
        ("25\\%", "So the discount is $25\\%$.", True),
        ("25\\%", "So the discount is $20\\%$.", False),
    ],
)

_LISTS = _cases(
    "lists",
    True,
    [
        ("(9, 3), (6, 3), (54, 5)", "(54, 5), (9, 3), (6, 3)", True),
        ("(9, 3), (6, 3), (54, 5)", "(9, 3), (6, 3)", False),
        ("(9, 3), (6, 3), (54, 5)", "(9, 3), (3, 6), (54, 5)", False),
        ("1, \\frac{3+\\sqrt{21}}{2}", "\\frac{3+\\sqrt{21}}{2}, 1", True),
        ("1, \\frac{3+\\sqrt{21}}{2}", "1, \\frac{3-\\sqrt{21}}{2}", False),
        ("\\{-1, 1, 3\\}", "-1, 1, 3", True),
        ("\\{-1, 1, 3\\}", "3, 1, -1", True),
        ("\\{-1, 1, 3\\}", "-1, 1", False),
        ("\\{-1, 1, 3\\}", "-1, 1, 2", False),
        ("0, \\pm 1, \\pm 2", "-2, -1, 0, 1, 2", True),
        ("0, \\pm 1, \\pm 2", "0, 1, 2", False),
        ("\\pm 3", "3, -3", True),
        ("\\pm 3", "3", False),
        ("f(x) = x \\text{ and } f(x) = -x", "f(x)=-x, f(x)=x", True),
        ("f(x) = x \\text{ and } f(x) = -x", "f(x)=x", False),
        ("W(x)=1 or W(x)=-1", "W(x) = -1, W(x) = 1", True),
        ("W(x)=1 or W(x)=-1", "W(x) = 1", False),
        ("(x, y, z) = (1, 2, 3)", "(1, 2, 3)", True),
        ("(x, y, z) = (1, 2, 3)", "(1, 3, 2)", False),
        ("1,2,3", "(x, y, z) = (1, 2, 3)", True),
        ("k = 45, n = 2", "k=45, n=2", True),
        ("k = 45, n = 2", "k=45, n=3", False),
        ("2, 4", "x = 2, x = 4", True),
        ("2, 4", "x = 2 \\text{ or } x = 4", True),
        ("2, 4", "x = 2 \\text{ or } x = 5", False),
        ("-2, 5", "5, -2", True),
        ("-2, 5", "5, 2", False),
        ("\\{1, 2, 4, 8\\}", "1, 2, 4, 8", True),
        ("\\{1, 2, 4, 8\\}", "1, 2, 4, 6", False),
        ("(1,2),(2,1)", "(2,1),(1,2)", True),
        ("(1,2),(2,1)", "(1,2),(1,2)", False),
        ("3, 5, 7", "\\{3,5,7\\}", True),
        ("3, 5, 7", "\\{3,5\\}", False),
        ("\\frac{1}{2}, 2", "2, 0.5", True),
        ("\\frac{1}{2}, 2", "2, 0.25", False),
    ],
)

_SEVERAL_BOXES = _cases(
    "several_boxes",
    False,
    [
        ("1, 2, 3", r"\boxed{1}, \boxed{2}, \boxed{3}", True),
        ("1, 2, 3", r"\boxed{1}, \boxed{2}, \boxed{4}", False),
        ("\\{1, 2, 3\\}", r"The roots are $\boxed{1}$, $\boxed{2}$ and $\boxed{3}$.", True),
        ("\\{1, 2, 3\\}", r"The roots are $\boxed{1}$ and $\boxed{2}$.", False),
        ("(2, 2), (6, 2)", r"\boxed{(2, 2)} \quad \text{and} \quad \boxed{(6, 2)}", True),
        ("(2, 2), (6, 2)", r"\boxed{(2, 2)} \quad \text{and} \quad \boxed{(6, 3)}", False),
        (r"\boxed{(2, 2)} \text{ and } \boxed{(6, 2)}", "(2, 2), (6, 2)", True),
        (r"\boxed{(2, 2)} \text{ and } \boxed{(6, 2)}", "(6, 2), (2, 2)", True),
        (r"\boxed{(2, 2)} \text{ and } \boxed{(6, 2)}", "(2, 2)", False),
        (r"\boxed{3} \text{ or } \boxed{-3}", "\\pm 3", True),
        (r"\boxed{3} \text{ or } \boxed{-3}", "3", False),
        ("-1, 4", r"So $x = \boxed{-1}$ or $x = \boxed{4}$.", True),
        ("-1, 4", r"So $x = \boxed{-1}$ or $x = \boxed{-4}$.", False),
        ("5", r"At first I got \boxed{4}. Checking again, the count is actually \boxed{5}.", True),
        ("4", r"At first I got \boxed{4}. Checking again, the count is actually \boxed{5}.", False),
        ("a=2, b=3", r"\boxed{a=2}, \boxed{b=3}", True),
        ("a=2, b=3", r"\boxed{a=3}, \boxed{b=2}", False),
        ("\\frac{1}{2}, \\frac{1}{3}", r"$\boxed{\frac12}$ and $\boxed{\frac13}$", True),
        ("\\frac{1}{2}, \\frac{1}{3}", r"$\boxed{\frac12}$ and $\boxed{\frac14}$", False),
        ("0, 1", r"\boxed{0} \text{ and } \boxed{1}", True),
        ("0, 1", r"\boxed{0} \text{ and } \boxed{2}", False),
        ("7", r"\boxed{7}", True),
        ("7", r"$\boxed{7}$ $\boxed{7}$", True),
    ],
)

_DECIMAL_COMMA = _cases(
    "decimal_comma",
    True,
    [
        ("1.22", "1,22", True),
        ("1.22", "1,23", False),
        ("0.111", "0,111", True),
        ("0.111", "0,11", False),
        ("1000.99", "1,000.99€", True),
        ("1000.99", "1,000.90€", False),
        ("2.74", "2,74 $", True),
        ("2.74", "2,47 $", False),
        ("32349", "32,349", True),
        ("32349", "32, 349", False),
        ("1234567", "1,234,567", True),
        ("1234567", "1,234,568", False),
        ("3.5", "3,5", True),
        ("3.5", "3,05", False),
        ("12.75", "12,75 €", True),
        ("12.75", "12,57 €", False),
        ("$1,000$", "1000", True),
        ("$1,000$", "100", False),
        ("0.25", "0,25", True),
        ("0.25", "0,5", False),
        ("2500", "2,500", True),
        ("45.6", "45,6", True),
        ("45.6", "4,56", False),
        ("10,5", "10.5", True),
        ("10,5", "105", False),
    ],
)

_RELATIONS = _cases(
    "relations",
    True,
    [
        ("x \\geq 5", "x >= 5", True),
        ("x \\geq 5", "x \\ge 5", True),
        ("x \\geq 5", "x ≥ 5", True),
        ("x \\geq 5", "x > 5", False),
        ("x \\geq 5", "x \\leq 5", False),
        ("x \\lt 3", "x < 3", True),
        ("x \\lt 3", "x \\gt 3", False),
        ("x > -2", "x \\gt -2", True),
        ("x > -2", "x > 2", False),
        ("x \\leq 4", "x <= 4", True),
        ("x \\leq 4", "x ≤ 4", True),
        ("x \\leq 4", "x < 4", False),
        ("x \\neq 1", "x != 1", True),
        ("x \\neq 1", "x ≠ 1", True),
        ("x \\neq 1", "x = 1", False),
        ("x \\in [-2,7]", "-2 \\le x \\le 7", True),
        ("x \\in [-2,7]", "-2 < x \\le 7", False),
        ("-2 \\leq x \\leq 7", "[-2, 7]", True),
        ("-2 \\leq x \\leq 7", "(-2, 7]", False),
        ("(-\\infty, 3)", "x < 3", True),
        ("(-\\infty, 3)", "x \\le 3", False),
        ("[1, \\infty)", "x \\geq 1", True),
        ("[1, \\infty)", "x > 1", False),
        ("x > 2", "(2, \\infty)", True),
        ("x > 2", "[2, \\infty)", False),
        ("1 \\le |z| \\le 3/2", "[-3/2, -1] \\cup [1, 3/2]", True),
        ("1 \\le |z| \\le 3/2", "[1, 3/2]", False),
        ("|x| < 2", "(-2, 2)", True),
        ("|x| < 2", "[-2, 2]", False),
        ("x<-1 \\text{ or } x>1", "(-\\infty,-1)\\cup(1,\\infty)", True),
        ("x<-1 \\text{ or } x>1", "(-\\infty,-1]\\cup[1,\\infty)", False),
    ],
)

_MATRICES = _cases(
    "matrices",
    True,
    [
        (
            "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
            "\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
            "\\begin{bmatrix} 1 & 3 \\\\ 2 & 4 \\end{bmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
            "\\left[\\begin{array}{cc} 1 & 2 \\\\ 3 & 4 \\end{array}\\right]",
            True,
        ),
        (
            "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
            "\\left[\\begin{array}{cc} 1 & 2 \\\\ 3 & 5 \\end{array}\\right]",
            False,
        ),
        (
            "\\begin{pmatrix} \\frac{1}{3} & 0 \\\\ 0 & 2 \\end{pmatrix}",
            "\\begin{pmatrix} 0.3333 & 0 \\\\ 0 & 2 \\end{pmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix} \\frac{1}{3} & 0 \\\\ 0 & 2 \\end{pmatrix}",
            "\\begin{pmatrix} 0.3 & 0 \\\\ 0 & 2 \\end{pmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix} \\frac{1}{2} \\\\ -\\frac{3}{2} \\end{pmatrix}",
            "\\begin{pmatrix} 0.5 \\\\ -1.5 \\end{pmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix} \\frac{1}{2} \\\\ -\\frac{3}{2} \\end{pmatrix}",
            "\\begin{pmatrix} 0.5 \\\\ 1.5 \\end{pmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix} 2 \\\\ -1 \\\\ 3 \\end{pmatrix}",
            "\\begin{bmatrix} 2 \\\\ -1 \\\\ 3 \\end{bmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix} 2 \\\\ -1 \\\\ 3 \\end{pmatrix}",
            "\\begin{pmatrix} 2 \\\\ 1 \\\\ 3 \\end{pmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix} \\sqrt{2} & 1 \\\\ 1 & \\sqrt{2} \\end{pmatrix}",
            "\\begin{pmatrix} 2^{1/2} & 1 \\\\ 1 & \\sqrt{2} \\end{pmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix} \\sqrt{2} & 1 \\\\ 1 & \\sqrt{2} \\end{pmatrix}",
            "\\begin{pmatrix} \\sqrt{3} & 1 \\\\ 1 & \\sqrt{2} \\end{pmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}",
            "\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}",
            "\\begin{pmatrix} 0 & 1 \\\\ 1 & 0 \\end{pmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix} -\\frac{2}{7} \\\\ \\frac{6}{7} \\end{pmatrix}",
            "\\begin{pmatrix} -2/7 \\\\ 6/7 \\end{pmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix} -\\frac{2}{7} \\\\ \\frac{6}{7} \\end{pmatrix}",
            "\\begin{pmatrix} 2/7 \\\\ 6/7 \\end{pmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix} 4 & 1 \\\\ -2 & 3 \\end{pmatrix}",
            "\\left(\\begin{array}{rr} 4 & 1 \\\\ -2 & 3 \\end{array}\\right)",
            True,
        ),
        (
            "\\begin{pmatrix} 4 & 1 \\\\ -2 & 3 \\end{pmatrix}",
            "\\left(\\begin{array}{rr} 4 & -1 \\\\ -2 & 3 \\end{array}\\right)",
            False,
        ),
    ],
)

_INTERVALS = _cases(
    "intervals",
    True,
    [
        ("(3/5, 8/3]", "(0.6, 2.6667]", True),
        ("(3/5, 8/3]", "[0.6, 2.6667]", False),
        ("(3/5, 8/3]", "(0.6, 2.6]", False),
        ("[\\frac{1}{3}, 1)", "[0.3333, 1)", True),
        ("[\\frac{1}{3}, 1)", "[0.3333, 1]", False),
        ("(-\\infty, -\\frac{1}{2})", "(-\\infty, -0.5)", True),
        ("(-\\infty, -\\frac{1}{2})", "(-\\infty, 0.5)", False),
        ("[2.5, \\infty)", "[\\frac{5}{2}, \\infty)", True),
        ("[2.5, \\infty)", "(\\frac{5}{2}, \\infty)", False),
        ("(-1, 1)", "(-1,1)", True),
        ("(-1, 1)", "[-1,1]", False),
        ("(0, \\frac{\\pi}{2})", "(0, 1.5708)", True),
        ("(0, \\frac{\\pi}{2})", "(0, 1.5)", False),
        ("[-\\sqrt{2}, \\sqrt{2}]", "[-1.4142, 1.4142]", True),
        ("[-\\sqrt{2}, \\sqrt{2}]", "[-1.4142, 1.4142)", False),
        ("(-\\infty, 0) \\cup (1, \\infty)", "(-\\infty,0)\\cup(1,\\infty)", True),
        ("(-\\infty, 0) \\cup (1, \\infty)", "(1,\\infty)\\cup(-\\infty,0)", True),
        ("(-\\infty, 0) \\cup (1, \\infty)", "(-\\infty,0]\\cup(1,\\infty)", False),
        ("[0.25, 0.75]", "[\\frac14, \\frac34]", True),
        ("[0.25, 0.75]", "[\\frac14, \\frac23]", False),
    ],
)

_LONG_SOLUTION = _cases(
    "long_solution",
    False,
    [
        (
            "34",
            "We test each candidate in turn. For $n = 35$ the sum exceeds the bound, "
            "while for $n = 34$ it does not.\n\nFinal Answer: The largest $n$ is 34.",
            True,
        ),
        (
            "35",
            "We test each candidate in turn. For $n = 35$ the sum exceeds the bound, "
            "while for $n = 34$ it does not.\n\nFinal Answer: The largest $n$ is 34.",
            False,
        ),
        (
            "\\frac{3}{4}",
            "First, $P(A) = \\frac{1}{2}$ and $P(B) = \\frac{1}{4}$. They are disjoint, so "
            "$P(A \\cup B) = \\frac{1}{2} + \\frac{1}{4}$.\n"
            "Final Answer: The final answer is $\\frac{3}{4}$. I hope it is correct.",
            True,
        ),
        (
            "\\frac{1}{4}",
            "First, $P(A) = \\frac{1}{2}$ and $P(B) = \\frac{1}{4}$. They are disjoint, so "
            "$P(A \\cup B) = \\frac{1}{2} + \\frac{1}{4}$.\n"
            "Final Answer: The final answer is $\\frac{3}{4}$. I hope it is correct.",
            False,
        ),
        (
            "72",
            "Natalia sold 48/2 = 24 clips in May.\nAltogether she sold 48 + 24 = 72 clips.\n"
            "#### 72",
            True,
        ),
        (
            "24",
            "Natalia sold 48/2 = 24 clips in May.\nAltogether she sold 48 + 24 = 72 clips.\n"
            "#### 72",
            False,
        ),
        (
            "\\$18",
            "She sells 16 - 3 - 4 = 9 eggs a day at $2 each.\nSo she makes 9 * 2 = 18 dollars "
            "every day.\nThe answer is 18.",
            True,
        ),
        (
            "\\$16",
            "She sells 16 - 3 - 4 = 9 eggs a day at $2 each.\nSo she makes 9 * 2 = 18 dollars "
            "every day.\nThe answer is 18.",
            False,
        ),
        (
            "x = 3",
            "<think>\nWe have $2x + 1 = 7$, so $2x = 6$ and $x = 3$. Check: $2 \\cdot 3 + 1 = 7$."
            "\n</think>\n<answer>x = 3</answer>",
            True,
        ),
        (
            "x = 6",
            "<think>\nWe have $2x + 1 = 7$, so $2x = 6$ and $x = 3$. Check: $2 \\cdot 3 + 1 = 7$."
            "\n</think>\n<answer>x = 3</answer>",
            False,
        ),
        (
            "\\sqrt{13}",
            "By the Pythagorean theorem the hypotenuse is $\\sqrt{2^2 + 3^2}$, which is "
            "$\\sqrt{13}$. Therefore, the final answer is: $\\boxed{\\sqrt{13}}$.",
            True,
        ),
        (
            "13",
            "By the Pythagorean theorem the hypotenuse is $\\sqrt{2^2 + 3^2}$, which is "
            "$\\sqrt{13}$. Therefore, the final answer is: $\\boxed{\\sqrt{13}}$.",
            False,
        ),
        (
            "6",
            "Let's count the arrangements. There are $3! = 6$ orders of the three books, and "
            "each is valid, so there are 6 arrangements in total.",
            True,
        ),
        (
            "3",
            "Let's count the arrangements. There are $3! = 6$ orders of the three books, and "
            "each is valid, so there are 6 arrangements in total.",
            False,
        ),
        (
            "2",
            "Setting the derivative $f'(x) = 2x - 4$ to zero gives $x = 2$, and $f''(x) = 2 > 0$, "
            "so the minimum is at $x = 2$.",
            True,
        ),
        (
            "-2",
            "Setting the derivative $f'(x) = 2x - 4$ to zero gives $x = 2$, and $f''(x) = 2 > 0$, "
            "so the minimum is at $x = 2$.",
            False,
        ),
        (
            "10",
            "The sum of the first four positive integers is $1 + 2 + 3 + 4$.\n\n**Answer:** 10",
            True,
        ),
        (
            "9",
            "The sum of the first four positive integers is $1 + 2 + 3 + 4$.\n\n**Answer:** 10",
            False,
        ),
        (
            "5",
            "Since $a + b = 8$ and $a - b = 2$, adding gives $2a = 10$.\nFinal answer: $a = 5$",
            True,
        ),
        (
            "10",
            "Since $a + b = 8$ and $a - b = 2$, adding gives $2a = 10$.\nFinal answer: $a = 5$",
            False,
        ),
    ],
)

_NOTATION = _cases(
    "notation",
    True,
    [
        ("\\frac{3}{4}", "\\dfrac{3}{4}", True),
        ("\\frac{3}{4}", "\\dfrac{4}{3}", False),
        ("\\frac{3}{4}", "\\tfrac34", True),
        ("\\arctan 2", "\\tan^{-1} 2", True),
        ("\\arctan 2", "\\tan^{-1} 3", False),
        ("\\arctan(x)", "\\tan^{-1}(x)", True),
        ("e^{2}", "\\mathrm{e}^2", True),
        ("e^{2}", "\\mathrm{e}^3", False),
        ("2e", "2\\mathrm{e}", True),
        ("100\\%", "1", True),
        ("50\\%", "50", True),
        ("50\\%", "0.5", True),
        ("50\\%", "5", False),
        ("x^2 - 5x + 6", "(x-2)(x-3)", True),
        ("x^2 - 5x + 6", "(x-2)(x+3)", False),
        ("(x+1)^3", "x^3+3x^2+3x+1", True),
        ("(x+1)^3", "x^3+3x^2+3x-1", False),
        ("p(x) = x^2 + 1", "x^2+1", True),
        ("p(x) = x^2 + 1", "p(x) = x^2 - 1", False),
        ("f(x) = 2x + 3", "f(x)=3+2x", True),
        ("f(x) = 2x + 3", "f(x)=3x+2", False),
        ("\\sqrt{8}", "2\\sqrt{2}", True),
        ("\\sqrt{8}", "4\\sqrt{2}", False),
        ("\\frac{\\sqrt{3}}{2}", "\\frac{1}{2}\\sqrt{3}", True),
        ("\\frac{\\sqrt{3}}{2}", "\\frac{1}{2}\\sqrt{2}", False),
        ("2\\pi", "2 \\pi", True),
        ("\\log_2 8", "3", True),
        ("\\ln(e^2)", "2", True),
        ("\\text{east}", "east", True),
        ("\\text{east}", "west", False),
        ("1+i", "i+1", True),
        ("1+i", "1-i", False),
        ("\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}", True),
        ("\\frac{1}{\\sqrt{2}}", "\\sqrt{2}", False),
        ("\\binom{5}{2}", "10", True),
        ("\\binom{5}{2}", "20", False),
        ("6!", "720", True),
        ("6!", "120", False),
        ("4.5", "\\frac{9}{2}", True),
        ("4.5", "4\\frac{1}{2}", True),
        ("4.5", "\\frac{9}{4}", False),
        ("0.\\overline{3}", "\\frac{1}{3}", True),
        ("-\\frac{1}{2}", "-0.5", True),
        ("-\\frac{1}{2}", "0.5", False),
    ],
)

CASES: tuple[Case, ...] = (
    *_NO_MARKER,
    *_LISTS,
    *_SEVERAL_BOXES,
    *_DECIMAL_COMMA,
    *_RELATIONS,
    *_MATRICES,
    *_INTERVALS,
    *_LONG_SOLUTION,
    *_NOTATION,
)

# The same answer written in every common form; the verdict must not depend on the form.
_LONG_PREFIX = (
    "Let us work through the problem carefully. We first restate the conditions and then "
    "simplify step by step, checking each intermediate value against the constraints.\n\n"
)
WRAPPERS: dict[str, Callable[[str], str]] = {
    "bare": lambda a: a,
    "dollars": lambda a: f"${a}$",
    "paren": lambda a: f"\\({a}\\)",
    "bracket": lambda a: f"\\[{a}\\]",
    "display": lambda a: f"$${a}$$",
    "boxed": lambda a: f"\\boxed{{{a}}}",
    "answer_is": lambda a: f"The answer is ${a}$.",
    "minerva": lambda a: f"Final Answer: The final answer is ${a}$. I hope it is correct.",
    "gsm8k": lambda a: f"#### {a}",
    "answer_tag": lambda a: f"<answer>{a}</answer>",
    "after_think": lambda a: f"<think>\nI try a few values first.\n</think>\n${a}$",
    "long_solution": lambda a: f"{_LONG_PREFIX}Therefore the final answer is $\\boxed{{{a}}}$.",
}
