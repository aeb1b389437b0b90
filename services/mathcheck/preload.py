"""Imported by the math worker pool's fork server: workers start with a warmed-up parser.

The LaTeX parser (ANTLR) builds its prediction tables lazily, the first time each grammar
path is used; cold, a worker parses about 1.6x slower than warm. Parsing a spread of
typical answers once here, in the fork server, gives every worker (and every replacement
of a worker killed at its deadline) the warm tables for free.
"""

from __future__ import annotations

from services.mathcheck.symbolic import warm_up

# One or two answers per shape the grammar distinguishes.
WARM_UP_ANSWERS = (
    "\\frac{3}{4}",
    "-\\dfrac{\\sqrt{3}}{2}",
    "2\\sqrt{2}+1",
    "x^2-5x+6",
    "(x-2)(x+3)",
    "3.14",
    "50\\%",
    "\\pi/4",
    "e^{i\\pi}",
    "\\{1, 2, 3\\}",
    "(1, 2), (3, 4)",
    "[-1, 2) \\cup (3, \\infty)",
    "x \\geq 5",
    "-2 < x \\le 7",
    "x = 2 \\text{ or } x = -3",
    "f(x) = 2x + 3",
    "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
    "\\sin^2 x + \\cos^2 x",
    "\\log_2 8",
    "\\binom{5}{2}",
    "\\tan^{-1} 2",
    "10^{3}",
    "\\text{east}",
)

warm_up(WARM_UP_ANSWERS)
