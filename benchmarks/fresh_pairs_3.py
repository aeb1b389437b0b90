r"""A third fresh round: whole model responses, written before the checker was changed for them.

Each pair is a reference and a *response* as a reasoning model writes one: a few steps of
working with numbers and expressions in them, then the final answer in one of the closings
models use (``\boxed{}`` in a sentence or display, "The answer is", "Final Answer: The
final answer is … I hope it is correct.", ``<think>…</think><answer>…</answer>``, a box
followed by chatter). The kinds are those issue #36 lists as misses on real olympiad
outputs, and others seen in the outside graders' test files and public evaluation logs:

* ``functions``: a function answer with its argument renamed, written as a bare
  expression, or with "for some constant c" after it;
* ``solution_lists``: all solutions, in another order, joined by words, ``\quad``,
  ``\text{and}`` / ``\text{or}``, as assignments, with ``\ `` spacing inside tuples;
* ``identities``: polynomial and binomial-coefficient identities, expanded or factored;
* ``relations``: "at least / at most / exactly / more than X" against the relation or
  interval it says (and against the bare number, which it is not, unless "exactly");
* ``repeating_decimals``: ``0.999…``, ``0.\overline{3}``, ``0.1\overline{6}`` and kin;
* ``near_equal``: exact values that differ by a tiny amount (``1-2^{-300}`` against
  ``1``), and long decimals that are, or are not, the value rounded to their digits;
* ``truncated``: responses cut off before any final answer (no credit, even when a number
  in them matches), beside complete responses that end without a marker;
* ``logarithms``: ``\log`` where the reference writes ``\ln`` (natural by default);
* ``other``: coordinates with ``\left(…\right)``, units and degrees, options, complex
  numbers, ``\pm``, intervals against inequalities, matrices, numbers with ``{,}``,
  and closing chatter after the answer.

Every kind has near-misses (a sign, a coefficient, a missing solution, an endpoint, the
wrong relation) that must stay different. Labels are our hand judgement of whether the
response's final answer denotes the reference; we wrote every pair ourselves (nothing is
copied from an outside suite), so a figure from it is a figure from our own data.

``python benchmarks/math_fresh3_bench.py`` scores it with the service and math-verify side
by side and writes ``benchmarks/results/math_fresh3_bench.json``.
"""

from __future__ import annotations

from benchmarks.responses import Responses

_round = Responses()
_pairs = _round.pairs
_whole = _round.whole


# --- functions -----------------------------------------------------------------------
_pairs(
    "functions",
    "g(s) = 3s + 1",
    "Setting $s = 0$ gives $g(0) = 1$. Substituting $s \\to s + 1$ in the functional "
    "equation shows $g(s+1) - g(s) = 3$ for every $s$, and continuity forces the "
    "difference to be the slope, so $g$ is linear with slope $3$.",
    ["g(t) = 3t + 1", "g(x)=3x+1", "3t+1", "g(t) = 1 + 3t"],
    ["g(t) = 3t - 1", "g(t) = 3t", "g(t) = 3s + 1"],
)
_pairs(
    "functions",
    "f(x) = x^2",
    "Put $y = 0$: $f(x) = f(x) + f(0)$, so $f(0) = 0$. Put $y = x$: $f(2x) = 4 f(x)$. "
    "Checking $f(x) = x^2$ in the original equation: $(x+y)^2 + (x-y)^2 = 2x^2 + 2y^2$, "
    "which holds.",
    ["f(t) = t^2", "f(y)=y^{2}", "f(u) = u \\cdot u"],
    ["f(t) = t^3", "f(t) = 2t^2", "f(x) = x^2 + 1"],
)
_pairs(
    "functions",
    "f(x) = cx",
    "Cauchy's equation $f(x+y) = f(x) + f(y)$ with monotonicity has only linear "
    "solutions. Every $f(x) = cx$ satisfies it: $c(x+y) = cx + cy$.",
    [
        "f(x) = cx \\text{ for some constant } c",
        "f(x)=cx \\text{ for any real constant } c",
        "f(t) = ct",
    ],
    ["f(x) = cx + 1 \\text{ for some constant } c", "f(x) = c x^2", "f(x) = x"],
)
_pairs(
    "functions",
    "p(x) = x^3 - 2x + 5",
    "The remainder conditions give $p(0) = 5$, $p(1) = 4$, $p(-1) = 6$ and $p(2) = 9$. "
    "Solving the four linear equations for the coefficients of $ax^3+bx^2+cx+d$ gives "
    "$a = 1$, $b = 0$, $c = -2$, $d = 5$.",
    ["p(t) = t^3 - 2t + 5", "x^3-2x+5", "p(x) = 5 - 2x + x^3"],
    ["p(t) = t^3 + 2t + 5", "p(x) = x^3 - 2x - 5", "p(t) = t^3 - 2t"],
)
_pairs(
    "functions",
    "f^{-1}(x) = \\frac{x+4}{3}",
    "Write $y = 3x - 4$ and solve for $x$: $x = \\frac{y + 4}{3}$. Swapping the roles of "
    "the variables gives the inverse.",
    ["f^{-1}(y) = \\frac{y+4}{3}", "\\frac{t}{3} + \\frac{4}{3}"],
    ["f^{-1}(y) = \\frac{y-4}{3}", "3x - 4"],
)
_pairs(
    "functions",
    "h(n) = 2^n - 1",
    "The recurrence $h(n) = 2h(n-1) + 1$ with $h(1) = 1$ gives $1, 3, 7, 15, \\dots$; "
    "adding $1$ to every term gives powers of two, so $h(n) + 1 = 2^n$.",
    ["h(k) = 2^k - 1", "2^{m}-1"],
    ["h(k) = 2^k + 1", "h(k) = 2^{k-1}"],
)

# --- solution lists ------------------------------------------------------------------
_pairs(
    "solution_lists",
    "-3, 2",
    "Factor the quadratic: $x^2 + x - 6 = (x + 3)(x - 2)$. Setting each factor to zero "
    "gives the two roots.",
    [
        "x = 2 \\quad\\text{and}\\quad x = -3",
        "2, -3",
        "x=-3 \\text{ or } x=2",
        "2 \\text{ and } -3",
        "x \\in \\{2, -3\\}",
    ],
    ["2, 3", "x = 2", "-3, 2, 6", "x = -2 \\quad\\text{and}\\quad x = 3"],
)
_pairs(
    "solution_lists",
    "(1, 2), (2, 1)",
    "By symmetry, if $(x, y)$ is a solution so is $(y, x)$. From $x + y = 3$ and "
    "$xy = 2$, $x$ and $y$ are the roots of $t^2 - 3t + 2 = 0$, namely $1$ and $2$.",
    [
        "(1,\\ 2) \\text{ and } (2,\\ 1)",
        "(2, 1), (1, 2)",
        "(x, y) = (1, 2) \\text{ or } (x,y) = (2, 1)",
    ],
    ["(1, 2)", "(1, 2), (2, 2)", "(1,\\ 2) \\text{ and } (1,\\ 2)"],
)
_pairs(
    "solution_lists",
    "x = 1, y = -2",
    "Adding the two equations eliminates $y$: $3x = 3$, so $x = 1$. Substituting back "
    "into $x - y = 3$ gives $y = -2$.",
    ["x = 1 \\quad\\text{and}\\quad y = -2", "x=1,\\ y=-2", "y = -2, x = 1"],
    ["x = -2 \\quad\\text{and}\\quad y = 1", "x = 1, y = 2"],
)
_pairs(
    "solution_lists",
    "\\frac{\\pi}{6}, \\frac{5\\pi}{6}",
    "We need $\\sin\\theta = \\frac{1}{2}$ on $[0, 2\\pi)$. The reference angle is "
    "$\\frac{\\pi}{6}$, and sine is positive in the first and second quadrants.",
    [
        "\\frac{5\\pi}{6}, \\frac{\\pi}{6}",
        "\\theta = \\frac{\\pi}{6} \\text{ or } \\theta = \\frac{5\\pi}{6}",
    ],
    ["\\frac{\\pi}{6}, \\frac{7\\pi}{6}", "\\frac{\\pi}{6}"],
)
_pairs(
    "solution_lists",
    "1, 4, 9",
    "The perfect squares below $10$ that are positive are $1^2$, $2^2$ and $3^2$; "
    "$4^2 = 16$ is too large.",
    ["9, 4, 1", "1,\\ 4,\\ 9", "1, 4, \\text{ and } 9", "\\{1, 4, 9\\}"],
    ["1, 4, 16", "1, 4", "0, 1, 4, 9"],
)
_pairs(
    "solution_lists",
    "x = 0 \\text{ or } x = 5",
    "Factor out $x$: $x(x - 5) = 0$. A product is zero exactly when one factor is.",
    ["x = 5 \\text{ or } x = 0", "0, 5", "x=0,\\quad x=5"],
    ["x = 5", "0, -5"],
)

# --- identities ----------------------------------------------------------------------
_pairs(
    "identities",
    "\\binom{n}{2}^3",
    "Each of the three coordinates independently picks an unordered pair from $n$ "
    "points, and the choices multiply.",
    ["\\frac{n^3(n-1)^3}{8}", "\\left(\\frac{n(n-1)}{2}\\right)^3"],
    ["\\frac{n^3(n-1)^3}{6}", "\\binom{n}{3}^2", "\\frac{n^3(n+1)^3}{8}"],
)
_pairs(
    "identities",
    "(x+1)^5",
    "By the binomial theorem with rows of Pascal's triangle $1, 5, 10, 10, 5, 1$ the "
    "generating polynomial is a fifth power.",
    ["x^5 + 5x^4 + 10x^3 + 10x^2 + 5x + 1", "1 + 5x + 10x^2 + 10x^3 + 5x^4 + x^5"],
    ["x^5 + 5x^4 + 10x^3 + 10x^2 + 5x - 1", "x^5 + 5x^4 + 10x^3 + 5x^2 + 5x + 1", "(x-1)^5"],
)
_pairs(
    "identities",
    "\\binom{2n}{n}",
    "Choose which $n$ of the $2n$ steps go up; the rest go right.",
    ["\\frac{(2n)!}{(n!)^2}", "\\frac{(2n)!}{n!\\,n!}"],
    ["\\frac{(2n)!}{n!}", "\\binom{2n}{n-1}"],
)
_pairs(
    "identities",
    "n(n+1)(2n+1)/6",
    "Sum the squares by induction: the step from $n$ to $n+1$ adds $(n+1)^2$ and the "
    "formula's difference is the same.",
    ["\\frac{2n^3 + 3n^2 + n}{6}", "\\frac{n^3}{3} + \\frac{n^2}{2} + \\frac{n}{6}"],
    ["\\frac{2n^3 + 3n^2 - n}{6}", "\\frac{n(n+1)}{2}"],
)
_pairs(
    "identities",
    "(a - b)(a^2 + ab + b^2)",
    "This is the difference of cubes factorisation; expanding checks it term by term.",
    ["a^3 - b^3", "-b^3 + a^3"],
    ["a^3 + b^3", "(a-b)^3"],
)
_pairs(
    "identities",
    "\\frac{(n+2)(n+1)n(n-1)}{24}",
    "The number of ways to choose $4$ items from $n + 2$ items is a binomial "
    "coefficient, which we write out.",
    ["\\binom{n+2}{4}", "\\frac{(n^2+n-2)(n^2+n)}{24}"],
    ["\\binom{n+2}{3}", "\\binom{n+1}{4}"],
)
_pairs(
    "identities",
    "(x^2 - 1)^2 (x + 2)",
    "The polynomial has double roots at $\\pm 1$ and a simple root at $-2$, leading "
    "coefficient $1$.",
    ["x^5 + 2x^4 - 2x^3 - 4x^2 + x + 2", "(x-1)^2 (x+1)^2 (x+2)"],
    ["x^5 + 2x^4 - 2x^3 - 4x^2 + x - 2", "(x-1)(x+1)^2(x+2)"],
)

# --- relations: at least / at most / exactly -------------------------------------------
_relations_work = (
    "Each box holds at most $4$ balls, so with $27$ balls we need at least "
    "$\\lceil 27/4 \\rceil$ boxes, and $6$ boxes would hold only $24$ balls."
)
_whole("relations", "n \\geq 7", f"{_relations_work}\n\nThe answer is at least 7.", True)
_whole("relations", "[7, \\infty)", f"{_relations_work}\n\nSo the answer is at least $7$.", True)
_whole("relations", "n \\geq 7", f"{_relations_work}\n\nThe answer is at least 6.", False)
_whole("relations", "n \\geq 7", f"{_relations_work}\n\nThe answer is at most 7.", False)
_whole("relations", "7", f"{_relations_work}\n\nThe answer is at least 7.", False)
_whole("relations", "7", f"{_relations_work}\n\nThe answer is exactly 7.", True)
_whole("relations", "7", f"{_relations_work}\n\nThe answer is exactly $7$ boxes.", True)
_whole("relations", "7", f"{_relations_work}\n\nThe answer is exactly 8.", False)
_whole(
    "relations",
    "x \\le 5",
    "From $2x + 3 \\le 13$ we subtract $3$ and divide by $2$.\n\nThe answer is at most 5.",
    True,
)
_whole(
    "relations",
    "(-\\infty, 5]",
    "From $2x + 3 \\le 13$ we subtract $3$ and divide by $2$.\n\nThe answer is at most $5$.",
    True,
)
_whole(
    "relations",
    "x \\le 5",
    "From $2x + 3 \\le 13$ we subtract $3$ and divide by $2$.\n\nThe answer is less than 5.",
    False,
)
_whole(
    "relations",
    "(-\\infty, 5]",
    "From $2x + 3 \\le 13$ we subtract $3$ and divide by $2$.\n\nThe answer is at least $5$.",
    False,
)
_whole(
    "relations",
    "x > 3",
    "Squaring keeps the order for positive numbers: $x^2 > 9$ with $x > 0$.\n\n"
    "The answer is more than 3.",
    True,
)
_whole(
    "relations",
    "x > 3",
    "Squaring keeps the order for positive numbers: $x^2 > 9$ with $x > 0$.\n\n"
    "The answer is at least 3.",
    False,
)
_pairs(
    "relations",
    "k \\geq 2",
    "The discriminant $k^2 - 4 \\ge 0$ together with $k > 0$ leaves the half-line.",
    ["k \\ge 2", "[2, \\infty)", "2 \\le k"],
    ["k > 2", "k \\le 2", "(2, \\infty)"],
)
_pairs(
    "relations",
    "-1 < x < 4",
    "The parabola $x^2 - 3x - 4 = (x - 4)(x + 1)$ is negative between its roots.",
    ["(-1, 4)", "x > -1 \\text{ and } x < 4", "4 > x > -1"],
    ["[-1, 4]", "(-\\infty, -1) \\cup (4, \\infty)", "-4 < x < 1"],
)

# --- repeating decimals ----------------------------------------------------------------
_pairs(
    "repeating_decimals",
    "1",
    "The geometric series $\\frac{9}{10} + \\frac{9}{100} + \\cdots$ has first term "
    "$\\frac{9}{10}$ and ratio $\\frac{1}{10}$, so it sums to $\\frac{9/10}{1 - 1/10}$.",
    ["0.999\\ldots", "0.\\overline{9}", "0.999...", "0.9\\overline{9}"],
    ["0.999", "0.99", "1.\\overline{9}"],
)
_pairs(
    "repeating_decimals",
    "\\frac{1}{3}",
    "Dividing $1$ by $3$ leaves remainder $1$ at every step, so the digit $3$ repeats forever.",
    ["0.\\overline{3}", "0.333\\ldots", "0.\\dot{3}", "0.(3)"],
    ["0.\\overline{6}", "\\frac{3}{10}", "0.\\overline{03}"],
)
_pairs(
    "repeating_decimals",
    "\\frac{1}{6}",
    "$\\frac{1}{6} = \\frac{1}{2} \\cdot \\frac{1}{3}$; halving $0.333\\ldots$ gives the "
    "expansion with a single non-repeating digit.",
    ["0.1\\overline{6}", "0.1666\\ldots", "0.1\\dot{6}"],
    ["0.\\overline{16}", "0.\\overline{6}", "0.16"],
)
_pairs(
    "repeating_decimals",
    "\\frac{4}{33}",
    "Let $x = 0.121212\\ldots$; then $100x - x = 12$, so $x = \\frac{12}{99}$ in lowest terms.",
    ["0.\\overline{12}", "0.1212\\ldots", "\\frac{12}{99}"],
    ["0.1\\overline{2}", "0.\\overline{21}", "\\frac{12}{100}"],
)
_pairs(
    "repeating_decimals",
    "\\frac{8}{7}",
    "Long division of $8$ by $7$ gives $1$ remainder $1$, and $\\frac{1}{7}$ has the "
    "six-digit period $142857$.",
    ["1.\\overline{142857}", "1.142857142857\\ldots"],
    ["1.\\overline{142875}", "\\frac{7}{8}"],
)
_pairs(
    "repeating_decimals",
    "0.\\overline{27}",
    "We convert $\\frac{3}{11}$: $3 \\div 11 = 0.2727\\ldots$",
    ["\\frac{3}{11}", "0.272727\\ldots", "\\frac{27}{99}"],
    ["\\frac{27}{100}", "\\frac{2}{7}", "0.\\overline{72}"],
)

# --- near-equal exact values and long decimals ---------------------------------------------
_pairs(
    "near_equal",
    "1",
    "The probability that at least one of the $300$ independent fair coins lands heads is "
    "one minus the probability that all land tails.",
    ["\\frac{2^{300}}{2^{300}}", "2^{300} \\cdot 2^{-300}"],
    ["1 - 2^{-300}", "1 - \\frac{1}{2^{300}}", "\\frac{2^{300}-1}{2^{300}}", "1 + 3^{-500}"],
)
_pairs(
    "near_equal",
    "1 - 2^{-300}",
    "The probability that at least one of the $300$ independent fair coins lands heads is "
    "one minus the probability that all land tails.",
    ["\\frac{2^{300}-1}{2^{300}}", "1 - \\left(\\frac{1}{2}\\right)^{300}"],
    ["1", "1 - 2^{-299}", "1 - 2^{-301}"],
)
_pairs(
    "near_equal",
    "10^{100} + 1",
    "A googol plus one: $10^{100}$ written with a one added to its units digit.",
    ["1 + 10^{100}", "100^{50} + 1"],
    ["10^{100}", "10^{100} - 1", "10^{100} + 2"],
)
_pairs(
    "near_equal",
    "\\sqrt{2}",
    "The diagonal of the unit square has length $\\sqrt{1^2 + 1^2}$.",
    ["1.4142135623730950488016887242096980785696718753769", "\\sqrt{2}\\cdot 1"],
    [
        "1.4142135623730950488016887242096980785696718753779",
        "1.4142135623730950488016887242096980785696718753768",
        "\\frac{99}{70}",
    ],
)
_pairs(
    "near_equal",
    "e",
    "The limit $\\left(1 + \\frac{1}{n}\\right)^n$ as $n \\to \\infty$ is Euler's number.",
    ["2.718281828459045235360287", "e^{1}"],
    ["2.718281828459045235360288", "2.718281828459045235370287", "\\frac{2721}{1001}"],
)
_pairs(
    "near_equal",
    "\\frac{\\pi}{4}",
    "The area of the quarter of the unit disc is a quarter of $\\pi r^2$ with $r = 1$.",
    ["0.78539816339744830961566084581988", "\\arctan 1"],
    ["0.78539816339744830961566084581998", "\\frac{355}{452}"],
)
_pairs(
    "near_equal",
    "0",
    "The two expressions cancel term by term.",
    ["0.0", "2^{-300} - 2^{-300}"],
    ["2^{-300}", "10^{-60}", "3^{-500}"],
)

# --- truncated responses -------------------------------------------------------------
_whole(
    "truncated",
    "7",
    "We have $2x + 5 = 19$, so $2x = 14$ and $x = 7$. Now we should check the second "
    "condition, which says that $3x - 4$ must equal",
    False,
)
_whole(
    "truncated",
    "7",
    "We have $2x + 5 = 19$, so $2x = 14$ and $x = 7$. Now we should check the second "
    "condition: $3x - 4 = 17$, which matches. Hence the answer is $7$.",
    True,
)
_whole(
    "truncated",
    "12",
    "Let the number of red marbles be $r$. Then the blue ones are $2r$ and the green ones "
    "$r + 4$. The total is $4r + 4 = 52$, so $r = 12$. But wait, the problem asks for the "
    "number of green marbles, so we need to compute $r + 4 = 16$. Hmm, let me re-read the "
    'question to be sure which color it asks about. It says "how many red marbles", so '
    "we take $r = 12$. Let me double check the total: $12 + 24 + 16 = 52$. Good. So the "
    "number of red marbles is",
    False,
)
_whole(
    "truncated",
    "12",
    "Let the number of red marbles be $r$. Then the blue ones are $2r$ and the green ones "
    "$r + 4$. The total is $4r + 4 = 52$, so $r = 12$. Checking: $12 + 24 + 16 = 52$. "
    "So there are $12$ red marbles.",
    True,
)
_whole(
    "truncated",
    "\\frac{3}{8}",
    "There are $\\binom{4}{2} = 6$ ways to get exactly two heads out of $2^4 = 16$ "
    "outcomes, so the probability is $\\frac{6}{16} = \\frac{3}{8}$. Alternatively, we "
    "can compute it using the complement: $1 - P(0) - P(1) - P(3) - P(4) = 1 - \\frac{1}{16}"
    " - \\frac{4}{16} - \\frac{4}{16} - \\frac{1}{16} = \\frac{",
    False,
)
_whole(
    "truncated",
    "\\frac{3}{8}",
    "There are $\\binom{4}{2} = 6$ ways to get exactly two heads out of $2^4 = 16$ "
    "outcomes, so the probability is $\\frac{6}{16} = \\frac{3}{8}$.",
    True,
)
_whole(
    "truncated",
    "25",
    "The sequence is $1, 3, 5, 7, \\dots$, the odd numbers. The sum of the first $n$ odd "
    "numbers is $n^2$; for $n = 5$ this is $25$. To verify, $1 + 3 + 5 + 7 + 9 = 25$. "
    "Now for the second part of the problem we need the sum of the first $10$ odd numbers, "
    "and by the same formula this is $10^2 = 100$, and then we subtract the first part, "
    "getting $100 - 25 =",
    False,
)
_whole(
    "truncated",
    "25",
    "The sequence is $1, 3, 5, 7, \\dots$, the odd numbers. The sum of the first $n$ odd "
    "numbers is $n^2$; for $n = 5$ this is $1 + 3 + 5 + 7 + 9 = 25$.",
    True,
)
_whole(
    "truncated",
    "40",
    "Speed is distance over time. The car covers $120$ km in $3$ hours, so its speed is "
    "$\\frac{120}{3} = 40$ km/h. On the way back it drives at $60$ km/h, so the return "
    "takes $2$ hours, and the average speed over the round trip is $\\frac{240}{5} = 48$ "
    "km/h. But the question asks only for the speed on the way there, which we found is "
    "$40$ km/h. Let me make sure the units are consistent: $120$ km and $3$ h, so the",
    False,
)
_whole(
    "truncated",
    "40",
    "Speed is distance over time. The car covers $120$ km in $3$ hours, so its speed on "
    "the way there is $\\frac{120}{3} = 40$ km/h.",
    True,
)
_whole(
    "truncated",
    "2\\sqrt{3}",
    "The height of the equilateral triangle of side $4$ is $\\sqrt{4^2 - 2^2} = \\sqrt{12}"
    " = 2\\sqrt{3}$. The area is then $\\frac{1}{2} \\cdot 4 \\cdot 2\\sqrt{3}$ and the "
    "inradius is the area divided by the semiperimeter, which is \\[ r = \\frac{4\\sqrt3}{6}"
    " = \\frac{2\\sqrt{3}}{3}. \\] Returning to the height, we have $h = 2\\sqrt{3}$, and "
    "then the distance from the centroid to a vertex is $\\frac{2}{3} h = $",
    False,
)
_whole(
    "truncated",
    "2\\sqrt{3}",
    "The height of the equilateral triangle of side $4$ is $\\sqrt{4^2 - 2^2} = \\sqrt{12}"
    " = 2\\sqrt{3}$.",
    True,
)
_whole(
    "truncated",
    "18",
    "There are $6$ choices for the first digit and $3$ for the last, so $6 \\times 3 = 18$ "
    "numbers. Wait, the first digit cannot be zero, and we counted the digit $0$ among the "
    "six choices only if the set includes it. Re-reading: the digits are $\\{1,2,3,4,5,6\\}$"
    " and the number must be even, so the last digit has $3$ choices and the first $6$, so "
    "the count is $18$. Actually we must also ensure that the digits are distinct, which "
    "removes the cases where the first and last digit coincide, namely",
    False,
)
_whole(
    "truncated",
    "5",
    "Let me think step by step.\n\nWe need the smallest positive integer $n$ such that "
    "$n^2 > 20$. Trying $n = 4$: $16 < 20$. Trying $n = 5$: $25 > 20$. So $n = 5$ is "
    "the smallest. Let me also double-check $n = 4.5$, which is not an integer, so it is "
    "irrelevant. Therefore $n = 5$, and the problem's second part asks for $n^2 - 20$, "
    "which is",
    False,
)
_whole(
    "truncated",
    "5",
    "Let me think step by step.\n\nWe need the smallest positive integer $n$ such that "
    "$n^2 > 20$. Trying $n = 4$: $16 < 20$. Trying $n = 5$: $25 > 20$. So the smallest "
    "is $n = 5$.",
    True,
)
_whole(
    "truncated",
    "9",
    "The sum of the digits of $2025$ is $2 + 0 + 2 + 5 = 9$, so the answer is "
    "$\\boxed{9}$.\n\nTo double check, we can also compute $2025 \\bmod 9$: since $2025 = 9 "
    "\\cdot 225$, the remainder is $0$, which is consistent with a digit sum of",
    True,
)
_whole(
    "truncated",
    "0",
    "The sum of the digits of $2025$ is $2 + 0 + 2 + 5 = 9$. Now we compute the remainder "
    "of $2025$ modulo $9$: $2025 = 9 \\cdot 225$, so the remainder is $0$. For the third "
    "part we need the remainder modulo $7$, and $2025 = 7 \\cdot 289 + 2$, so it is $2$; "
    "combining the three parts as the problem asks, we add the first remainder, which is",
    False,
)
_whole(
    "truncated",
    "6",
    "<think>\nThe triangle with sides $3$, $4$, $5$ is right-angled, so its area is "
    "$\\frac{1}{2} \\cdot 3 \\cdot 4 = 6$. Hmm, but let me reconsider whether the problem "
    "wants the area or the perimeter. The perimeter would be $3 + 4 + 5 = 12$. Rereading, "
    "it asks for the area, so $6$. Let me also verify with Heron's formula: $s = 6$, "
    "$\\sqrt{6 \\cdot 3 \\cdot 2 \\cdot 1} = \\sqrt{36} =",
    False,
)
_whole(
    "truncated",
    "6",
    "<think>\nThe triangle with sides $3$, $4$, $5$ is right-angled, so its area is "
    "$\\frac{1}{2} \\cdot 3 \\cdot 4 = 6$. Heron's formula agrees: $\\sqrt{6 \\cdot 3 "
    "\\cdot 2 \\cdot 1} = 6$.\n</think>\n\n<answer>6</answer>",
    True,
)

# --- logarithms ------------------------------------------------------------------------
_pairs(
    "logarithms",
    "\\frac{\\ln 3}{2}",
    "Solve $e^{2x} = 3$ by taking logarithms of both sides: $2x = \\ln 3$.",
    ["\\frac{\\log 3}{2}", "\\ln \\sqrt{3}", "\\frac{1}{2}\\ln 3"],
    ["\\frac{\\log_{10} 3}{2}", "\\frac{\\ln 2}{3}", "\\ln 3"],
)
_pairs(
    "logarithms",
    "\\log_2 5",
    "Solve $2^x = 5$: $x = \\log_2 5$ by definition of the base-two logarithm.",
    ["\\frac{\\ln 5}{\\ln 2}", "\\frac{\\log 5}{\\log 2}"],
    ["\\log_5 2", "\\frac{\\ln 2}{\\ln 5}"],
)

# --- other kinds seen in outside graders' tests and public evaluation logs ------------------
_pairs(
    "other",
    "\\left( 3, \\frac{\\pi}{2} \\right)",
    "We have $r = \\sqrt{0^2 + 3^2} = 3$, and the point $(0, 3)$ lies on the positive "
    "$y$-axis, at angle $\\frac{\\pi}{2}$ from the positive $x$-axis.",
    ["(3, \\frac{\\pi}{2})", "\\left(3,\\tfrac{\\pi}{2}\\right)", "(3, \\pi/2)"],
    ["(3, \\pi)", "(\\frac{\\pi}{2}, 3)", "(-3, \\frac{\\pi}{2})"],
)
_pairs(
    "other",
    "15\\mbox{ cm}^2",
    "The triangle has base $10$ cm and height $3$ cm, so its area is "
    "$\\frac{1}{2} \\times 10 \\times 3$.",
    ["15 \\text{ cm}^2", "15", "15\\,\\mathrm{cm}^2"],
    ["30 \\text{ cm}^2", "15 \\text{ cm}", "1.5"],
)
_pairs(
    "other",
    "90^\\circ",
    "The dot product of the direction vectors is $3 \\cdot 2 + 2 \\cdot (-12) + (-6) "
    "\\cdot (-3) = 0$, so the lines are perpendicular.",
    ["90", "90^{\\circ}", "90 \\text{ degrees}"],
    ["45^\\circ", "180^\\circ", "9"],
)
_pairs(
    "other",
    "14916",
    "The last two digits must form a multiple of $4$, and the digit sum must be a multiple "
    "of $3$; $14{,}912$ fails the second test and $14{,}916$ passes both.",
    ["14{,}916", "14,916", "14\\,916"],
    ["14{,}912", "14{,}961", "1{,}4916.5"],
)
_pairs(
    "other",
    "\\text{(C)}",
    "Checking each option: (A) fails for $n = 2$, (B) for $n = 3$, (D) and (E) for $n = 1$."
    " Only (C) survives all three tests.",
    ["C", "(C)", "\\text{C}", "\\textbf{(C)}"],
    ["D", "(B)", "\\text{(E)}"],
)
_pairs(
    "other",
    "3 + 4i",
    "Multiply numerator and denominator by the conjugate: "
    "$\\frac{25}{3 - 4i} = \\frac{25(3 + 4i)}{9 + 16}$.",
    ["4i + 3", "3+4\\mathrm{i}", "3 + 4 i"],
    ["3 - 4i", "4 + 3i", "-3 + 4i"],
)
_pairs(
    "other",
    "2 \\pm \\sqrt{3}",
    "The quadratic formula gives $x = \\frac{4 \\pm \\sqrt{16 - 4}}{2}$.",
    [
        "2 + \\sqrt{3}, 2 - \\sqrt{3}",
        "2-\\sqrt3 \\text{ and } 2+\\sqrt3",
        "\\frac{4 \\pm 2\\sqrt{3}}{2}",
    ],
    ["2 + \\sqrt{3}", "-2 \\pm \\sqrt{3}", "2 \\pm \\sqrt{12}"],
)
_pairs(
    "other",
    "(-\\infty, 2) \\cup (3, \\infty)",
    "The rational function changes sign at $2$ and $3$ and is positive outside them; "
    "neither endpoint is included.",
    [
        "x < 2 \\text{ or } x > 3",
        "(3, \\infty) \\cup (-\\infty, 2)",
        "\\mathbb{R} \\setminus [2, 3]",
    ],
    ["(-\\infty, 2] \\cup (3, \\infty)", "(2, 3)", "x < 2"],
)
_pairs(
    "other",
    "(-\\infty, \\infty)",
    "The quadratic $x^2 + 1$ is positive for every real $x$, so the inequality holds everywhere.",
    ["\\mathbb{R}", "\\text{all real numbers}", "x \\in \\mathbb{R}"],
    ["(0, \\infty)", "\\emptyset", "[-1, 1]"],
)
_pairs(
    "other",
    "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}",
    "Multiplying row by column: the first row is $(1 \\cdot 1 + 0, 0 + 2)$ and the second "
    "$(3, 4)$.",
    [
        "\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}",
        "\\left[\\begin{array}{cc} 1 & 2 \\\\ 3 & 4 \\end{array}\\right]",
    ],
    [
        "\\begin{pmatrix} 1 & 3 \\\\ 2 & 4 \\end{pmatrix}",
        "\\begin{pmatrix} 1 & 2 \\\\ 3 & 5 \\end{pmatrix}",
    ],
)
_pairs(
    "other",
    "\\frac{14}{3}",
    "$f(-2)+f(-1)+f(0)=\\frac{-8}{-4}+\\frac{-5}{-3}+\\frac{-2}{-2}=2+\\frac{5}{3}+1$.",
    ["4\\frac{2}{3}", "\\dfrac{14}{3}", "14/3", "4.\\overline{6}"],
    ["\\frac{13}{3}", "\\frac{3}{14}", "4\\frac{1}{3}"],
)
_pairs(
    "other",
    "28\\%",
    "After losing $10\\%$ the stock is at $0.9$ of its value, and after a further $20\\%$ "
    "at $0.9 \\cdot 0.8 = 0.72$; the loss is $1 - 0.72$.",
    ["28", "28 \\%", "0.28"],
    ["72\\%", "30\\%", "2.8\\%"],
)
_whole(
    "other",
    "28\\%",
    "After losing $10\\%$ the stock is at $0.9$ of its value, and after a further $20\\%$ at "
    "$0.72$ of it.\nFinal Answer: The final answer is $28\\%$. I hope it is correct.\n\nNote: "
    "an alternative approach would be to add the percentages, $10\\% + 20\\% = 30\\%$, but "
    "that ignores compounding. Final Answer: The final answer is $28\\%$. I hope it is "
    "correct.",
    True,
)
_whole(
    "other",
    "30\\%",
    "After losing $10\\%$ the stock is at $0.9$ of its value, and after a further $20\\%$ at "
    "$0.72$ of it.\nFinal Answer: The final answer is $28\\%$. I hope it is correct.\n\nNote: "
    "an alternative approach would be to add the percentages, $10\\% + 20\\% = 30\\%$, but "
    "that ignores compounding.",
    False,
)
_whole(
    "other",
    "12 \\text{ and } 13",
    "Since $25 < 30 < 36$, $5 < \\sqrt{30} < 6$, and $\\sqrt{50} \\approx 7.07$, so the sum "
    "is about $12.55$. It lies between $\\boxed{12}$ and $\\boxed{13}$.",
    True,
)
_whole(
    "other",
    "12 \\text{ and } 13",
    "Since $25 < 30 < 36$, $5 < \\sqrt{30} < 6$, and $\\sqrt{50} \\approx 7.07$, so the sum "
    "is about $12.55$. It lies between $\\boxed{12}$ and $\\boxed{14}$.",
    False,
)
_whole(
    "other",
    "72",
    "Natalia sold $48 / 2 = 24$ clips in May. Altogether she sold $48 + 24 = 72$ clips in "
    "April and May.\n#### 72",
    True,
)
_whole(
    "other",
    "72",
    "Natalia sold $48 / 2 = 24$ clips in May. Altogether she sold $48 + 24 = 72$ clips in "
    "April and May.\n#### 24",
    False,
)

CATEGORIES = _round.categories
CASES = _round.cases
