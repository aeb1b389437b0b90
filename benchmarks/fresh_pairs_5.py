r"""A fifth fresh round: olympiad and competition short answers, in whole model responses.

The fourth round sampled the everyday spread of answers; this one goes back to the short
answers of olympiad and competition problems, where a rule-based grader and a judge reading
the response most often part ways: functions found by a functional equation, "find all"
sets and lists of tuples, answers with a free parameter, extremal values beside the point
that attains them, intervals, closed forms and exact constants, very large exact numbers,
yes/no and word answers, and responses that hedge. Each pair is a reference and a
*response*: a few sentences of working with LaTeX in them, then the final answer in one of
the closings models use (``\boxed{}`` in a sentence or display, "The answer is", "Final
Answer: The final answer is … I hope it is correct.", ``<think>…</think><answer>…</answer>``,
a box followed by chatter), or a response written out in full (the answer in the last
sentence with no marker, two boxes, a correction after a first box, a response cut off
before any final answer). The kinds:

* ``functional_equations``: a function with its argument renamed, its terms reordered,
  written as a bare expression or with "for all x" after it; the identity on the positive
  integers; two families that are both needed; a family with a free constant;
* ``solution_sets``: "find all" answers as lists, sets, ``n \in \{…\}``, in another order,
  as assignments, joined by "and" / "or", and a single solution written as a set;
* ``pairs_and_triples_lists``: ordered pairs and triples, sets of them in another order,
  "and its permutations", joined by words;
* ``parametric_answers``: ``n = 2^k`` against set-builder forms, ``x = k\pi`` and kin with
  the integer parameter renamed or rewritten, congruence classes, a line of solutions;
* ``extremal_values``: a minimum or maximum written as ``\min = 3``, "minimum 3", the value
  with the point attaining it beside it, or a correct rounding;
* ``intervals_and_inequalities``: inequalities against intervals, unions, complements and
  an isolated point with an interval;
* ``exact_constants``: radicals, nested radicals, ``\pi``, ``e``, ``\ln``, cube roots, in
  other exact forms and correctly rounded decimals;
* ``large_and_exact_numbers``: powers such as ``2^{2024} - 1``, binomial coefficients,
  factorials and long integers, in other exact forms and with thousands separators;
* ``counting_and_probability``: counts and probabilities as unreduced fractions,
  decimals, percentages, mixed numbers and binomial coefficients;
* ``expressions_in_n``: closed forms in ``n`` with their terms reordered, factored, or
  written as a binomial coefficient or a sum;
* ``yes_no_and_words``: "Yes", "No such n exists", "infinitely many", "none", the name of
  the winning player, the empty set;
* ``hedged_and_multiple_answers``: responses that hedge between values, give two boxes
  that disagree, or are cut off (none of which earns credit), beside responses that
  reject a candidate, correct a first box, or give every solution when all are asked for;
* ``formatting_noise``: ``\displaystyle``, ``\left. \right.``, ``\,``, ``\!``, ``\;``,
  ``\textbf{}`` and ``\mathbf{}``, trailing periods, ``$$…$$`` in a box, unit words after
  the number.

Every kind carries near-misses (a coefficient, a sign, an exponent off by one, a missing
or extra element, a swapped pair, an endpoint bracket, the attaining point in place of the
value, a rounding too coarse or wrong, a hedge) that must stay different. Labels are our
hand judgement of whether the response's final answer denotes exactly the reference: the
same number, set, interval with the same endpoints, tuple in the same order, function or
family. A decimal stands for an irrational reference when it is that value correctly
rounded to at least three significant digits; a shorter or wrongly rounded one does not,
and an approximation never stands for an exact integer. Forms whose judgement hangs on a
convention (degrees against radians, a bare number for a percentage, an option's value for
its letter, whether an unstated range of a parameter starts at zero, "a power of 2" for a
set that contains 1, a relation such as ``y = 2x`` for a set of points) are left out. We
wrote every pair ourselves (nothing is copied from an outside suite), so a figure from it
is a figure from our own data.
"""

from __future__ import annotations

from benchmarks.responses import Responses

_round = Responses()
_pairs = _round.pairs
_whole = _round.whole


# --- functional equations ----------------------------------------------------------------
_pairs(
    "functional_equations",
    "f(x) = 2x + 1",
    "Put $x = 0$ in $f(x + y) = f(x) + 2y$ to get $f(y) = f(0) + 2y$ for every real $y$. "
    "The condition $f(1) = 3$ gives $f(0) + 2 = 3$, so $f(0) = 1$. Conversely, "
    "$2(x + y) + 1 = (2x + 1) + 2y$, so this function satisfies the equation.",
    [
        "f(x)=2x+1",
        "f(t)=1+2t",
        "2x+1",
        "f(x) = 2x + 1 \\text{ for all } x \\in \\mathbb{R}",
        "f(y) = 2y + 1",
    ],
    ["f(x) = 2x - 1", "f(x) = x + 1", "f(x) = 2x", "f(x) = 2x + c"],
)
_pairs(
    "functional_equations",
    "f(n) = n",
    "Let $f:\\mathbb{Z}_{>0} \\to \\mathbb{Z}_{>0}$ satisfy $f(m^2 + f(n)) = f(m)^2 + n$. "
    "Comparing two ways of evaluating $f(m^2 + f(n))$ shows that $f$ is injective, and a "
    "short computation with $m = n = 1$ gives $f(1) = 1$. Induction on $n$ then shows "
    "$f(n + 1) = f(n) + 1$, and the identity clearly satisfies the equation.",
    [
        "f(n)=n",
        "f(n) = n \\text{ for all } n \\in \\mathbb{N}",
        "f(k) = k",
        "f(n) = n \\quad \\forall n \\ge 1",
        "f(n) = n \\text{ (the identity)}",
    ],
    ["f(n) = n + 1", "f(n) = 2n", "f(n) = 1", "f(n) = n^2"],
)
_pairs(
    "functional_equations",
    "f(x) = 0 \\text{ and } f(x) = x^2",
    "The first equation, $f(x + y) + f(x - y) = 2f(x) + 2f(y)$, together with continuity "
    "gives $f(x) = cx^2$ for a constant $c$. Then $f(xy) = f(x)f(y)$ becomes "
    "$c x^2 y^2 = c^2 x^2 y^2$, so $c = c^2$ and $c \\in \\{0, 1\\}$. Both functions satisfy "
    "both equations.",
    [
        "f(x)=x^2 \\text{ and } f(x)=0",
        "f(x) = 0 \\text{ or } f(x) = x^2",
        "f \\equiv 0 \\text{ or } f(x) = x^2",
        "f(x) = 0,\\ f(x) = x^2",
        "f(x) = cx^2 \\text{ with } c \\in \\{0, 1\\}",
    ],
    ["f(x) = x^2", "f(x) = 0", "f(x) = 0 \\text{ and } f(x) = -x^2", "f(x) = cx^2"],
)
_pairs(
    "functional_equations",
    "f(x) = \\frac{1}{x}",
    "Let $f:\\mathbb{R}^+ \\to \\mathbb{R}^+$ satisfy $f(x f(y)) = y f(x)$ with "
    "$f(x) \\to 0$ as $x \\to \\infty$. With $x = 1$, $f(f(y)) = y f(1)$, so $f$ is a "
    "bijection, and then $f(1) = 1$. A fixed point $a$ has $f(a^n) = a^n$ for every integer "
    "$n$, and the limit condition forces $a = 1$. Since $x f(x)$ is a fixed point for every "
    "$x$, we get $x f(x) = 1$.",
    [
        "f(x) = 1/x",
        "f(x)=x^{-1}",
        "f(t) = \\frac{1}{t}",
        "f(x) = \\dfrac{1}{x} \\text{ for all } x > 0",
    ],
    ["f(x) = x", "f(x) = \\frac{2}{x}", "f(x) = \\frac{1}{x^2}", "f(x) = \\frac{1}{x} + 1"],
)
_pairs(
    "functional_equations",
    "f(x) = x^2 + c \\text{ for a constant } c",
    "Put $y = x$ in $f(x + y) - f(x - y) = 4xy$: $f(2x) - f(0) = 4x^2$, so "
    "$f(t) = t^2 + f(0)$ for every real $t$. Every such function works, since "
    "$(x + y)^2 - (x - y)^2 = 4xy$ and the constants cancel.",
    [
        "f(x) = x^2 + c \\text{ for an arbitrary real constant } c",
        "f(x) = c + x^2, \\ c \\in \\mathbb{R}",
        "f(t) = t^2 + C",
        "f(x) = x^2 + k \\text{ where } k \\text{ is any real number}",
    ],
    ["f(x) = x^2", "f(x) = cx^2", "f(x) = 2x^2 + c", "f(x) = x^2 + 1"],
)
_whole(
    "functional_equations",
    "f(x) = 2 - x",
    "Replace $x$ by $1 - x$ in $f(x) + 2f(1 - x) = x + 4$ to get "
    "$f(1 - x) + 2f(x) = 5 - x$. Doubling this and subtracting the original equation gives "
    "$3f(x) = 6 - 3x$, so\n\n$$f(x) = 2 - x.$$\n\nCheck: $(2 - x) + 2(1 + x) = x + 4$.\n\n"
    "**Answer:** $\\boxed{f(x) = -x + 2}$",
    True,
)
_whole(
    "functional_equations",
    "f(x) = 2 - x",
    "Replace $x$ by $1 - x$ in $f(x) + 2f(1 - x) = x + 4$ to get "
    "$f(1 - x) + 2f(x) = 5 - x$. Doubling this and subtracting the original equation gives "
    "$3f(x) = 3x - 6$, so\n\n$$f(x) = x - 2.$$\n\n**Answer:** $\\boxed{f(x) = x - 2}$",
    False,
)
_whole(
    "functional_equations",
    "f(x) = 0 \\text{ and } f(x) = x^2",
    "Setting $x = y = 0$ gives $f(0) = 0$, and the substitution $y = x$ shows that "
    "$f(x) = cx^2$ with $c = c^2$. So $c = 0$ or $c = 1$, and both choices check out in the "
    "original equation.\n\nTherefore the solutions are $f(x) = 0$ for all $x$ and "
    "$f(x) = x^2$ for all $x$.",
    True,
)

# --- solution sets -----------------------------------------------------------------------
_pairs(
    "solution_sets",
    "1, 2, 4",
    "If $n \\mid n^2 + 4$ then $n \\mid 4$, since $n \\mid n^2$. The positive divisors of "
    "$4$ are $1$, $2$ and $4$, and each of them works: $5$, $8$ and $20$ are divisible by "
    "$1$, $2$ and $4$ respectively.",
    [
        "n = 1, 2, 4",
        "\\{1,2,4\\}",
        "n \\in \\{1, 2, 4\\}",
        "4, 2, 1",
        "n=1,\\ n=2,\\ n=4",
        "1, 2 \\text{ and } 4",
        "n = 1 \\text{ or } n = 2 \\text{ or } n = 4",
    ],
    ["1, 2", "1, 2, 3, 4", "2, 4", "\\{1, 2, 4, 8\\}"],
)
_pairs(
    "solution_sets",
    "x \\in \\{-2, 0, 3\\}",
    "Factor $x^3 - x^2 - 6x = x(x^2 - x - 6) = x(x - 3)(x + 2)$ and set each factor to zero.",
    [
        "x = -2, 0, 3",
        "0, 3, -2",
        "x_1 = -2,\\ x_2 = 0,\\ x_3 = 3",
        "\\{3, -2, 0\\}",
        "x = 0 \\text{ or } x = 3 \\text{ or } x = -2",
    ],
    ["-2, 3", "2, 0, -3", "x = -2, 0, 3, 6", "\\{-2, 0, 6\\}"],
)
_pairs(
    "solution_sets",
    "2, 3, 5",
    "Since $n + 3 = (n - 1) + 4$, the condition $n - 1 \\mid n + 3$ is equivalent to "
    "$n - 1 \\mid 4$. For $n = 1$ the divisor would be $0$, so $n \\ge 2$ and "
    "$n - 1 \\in \\{1, 2, 4\\}$.",
    [
        "n \\in \\{2, 3, 5\\}",
        "5, 3, 2",
        "n = 2,\\; 3,\\; 5",
        "n=2, n=3, n=5",
        "2,\\ 3 \\text{ and } 5",
    ],
    ["1, 2, 4", "2, 3", "2, 3, 5, 9", "3, 5"],
)
_pairs(
    "solution_sets",
    "p = 3",
    "If $p \\ne 3$ then $p^2 \\equiv 1 \\pmod 3$, so $3 \\mid p^2 + 2$, and since "
    "$p^2 + 2 > 3$ it is not prime. For $p = 3$, $p^2 + 2 = 11$ is prime.",
    ["3", "\\{3\\}", "p = 3 \\text{ only}", "\\text{only } p = 3"],
    ["3, 11", "p = 3, 5", "11", "\\{2, 3\\}"],
)
_pairs(
    "solution_sets",
    "x = \\pm 1",
    "Factor $x^4 - 1 = (x^2 - 1)(x^2 + 1) = (x - 1)(x + 1)(x^2 + 1)$. The last factor is "
    "positive for every real $x$, so only the first two give real roots.",
    ["\\pm 1", "x = 1 \\text{ or } x = -1", "-1, 1", "x \\in \\{1, -1\\}"],
    ["1", "\\pm 1, \\pm i", "-1", "0, \\pm 1"],
)
_whole(
    "solution_sets",
    "6, 28",
    "A perfect number equals the sum of its proper divisors. Checking up to $100$: "
    "$6 = 1 + 2 + 3$ and $28 = 1 + 2 + 4 + 7 + 14$, and the next perfect number, $496$, is "
    "too large. So the perfect numbers below $100$ are $6$ and $28$.",
    True,
)
_whole(
    "solution_sets",
    "6, 28",
    "A perfect number equals the sum of its proper divisors. The even ones have the form "
    "$2^{p-1}(2^p - 1)$ with $2^p - 1$ prime, which gives $6$, $28$ and $496$ for "
    "$p = 2, 3, 5$. So the perfect numbers below $100$ are $6$, $28$ and $496$.",
    False,
)

# --- pairs and triples -------------------------------------------------------------------
_pairs(
    "pairs_and_triples_lists",
    "(2, 3), (3, 2)",
    "From $a + b = 5$ and $ab = 6$, the numbers $a$ and $b$ are the roots of "
    "$t^2 - 5t + 6 = (t - 2)(t - 3)$, so $\\{a, b\\} = \\{2, 3\\}$, and either can come "
    "first.",
    [
        "(3,2), (2,3)",
        "\\{(2,3),(3,2)\\}",
        "(a, b) = (2, 3) \\text{ and } (3, 2)",
        "(a,b) \\in \\{(2,3), (3,2)\\}",
        "(2,3) \\text{ or } (3,2)",
    ],
    ["(2, 3)", "(2,3), (3,2), (1,6)", "(3, 2)", "(1, 6), (6, 1)"],
)
_pairs(
    "pairs_and_triples_lists",
    "(1, 2, 3)",
    "With $a < b < c$ positive integers, $a + b + c = 6$ forces $a = 1$, $b = 2$ and "
    "$c = 3$, and indeed $abc = 6$.",
    ["(a, b, c) = (1, 2, 3)", "a=1,\\ b=2,\\ c=3", "\\left(1,\\,2,\\,3\\right)"],
    ["(3, 2, 1)", "(1, 3, 2)", "(1, 2, 4)"],
)
_pairs(
    "pairs_and_triples_lists",
    "(1, 1, 2), (1, 2, 1), (2, 1, 1)",
    "Positive integers with $x + y + z = 4$ have one coordinate equal to $2$ and the other "
    "two equal to $1$, and then $xyz = 2$ as required. The $2$ can sit in any of the three "
    "places.",
    [
        "(2,1,1), (1,2,1), (1,1,2)",
        "\\{(1,1,2),(1,2,1),(2,1,1)\\}",
        "(1, 1, 2) \\text{ and its permutations}",
        "(x,y,z) = (1,1,2),\\ (1,2,1),\\ (2,1,1)",
    ],
    ["(1, 1, 2)", "(1, 1, 2), (1, 2, 1)", "(1,1,2),(1,2,1),(2,1,1),(2,2,1)"],
)
_pairs(
    "pairs_and_triples_lists",
    "(0, 0), (2, 4), (-2, -4)",
    "Setting $2x = x^3 - 2x$ gives $x^3 - 4x = x(x - 2)(x + 2) = 0$, so "
    "$x \\in \\{0, 2, -2\\}$, and $y = 2x$ gives the matching $y$-coordinates.",
    [
        "(-2,-4), (0,0), (2,4)",
        "\\{(0,0), (2,4), (-2,-4)\\}",
        "(0,0),\\ (2,4) \\text{ and } (-2,-4)",
    ],
    ["(0,0), (2,4)", "(0,0), (4,2), (-4,-2)", "(0,0), (2,4), (-2,4)"],
)
_pairs(
    "pairs_and_triples_lists",
    "(m, n) = (5, 2)",
    "Modulo $3$, $2^m \\equiv 23 \\equiv 2$, so $m$ is odd; modulo $4$, $-3^n \\equiv 3$, so "
    "$n$ is even. Checking small cases, $2^5 - 3^2 = 32 - 9 = 23$, and bounding the larger "
    "cases modulo $16$ and $9$ leaves no other solution.",
    ["(m,n) = (5,2)", "m = 5, n = 2", "(5,\\ 2)"],
    ["(2, 5)", "(5, 3)", "m = 5"],
)
_whole(
    "pairs_and_triples_lists",
    "(3, 6), (4, 4), (6, 3)",
    "Clearing denominators in $\\frac{1}{a} + \\frac{1}{b} = \\frac{1}{2}$ gives "
    "$ab - 2a - 2b = 0$, i.e. $(a - 2)(b - 2) = 4$. Both factors are positive (if both were "
    "negative, $a$ or $b$ would be at most $0$), and the factorisations "
    "$4 = 1 \\cdot 4 = 2 \\cdot 2 = 4 \\cdot 1$ give the pairs $(3, 6)$, $(4, 4)$ and "
    "$(6, 3)$.",
    True,
)
_whole(
    "pairs_and_triples_lists",
    "(3, 6), (4, 4), (6, 3)",
    "Clearing denominators in $\\frac{1}{a} + \\frac{1}{b} = \\frac{1}{2}$ gives "
    "$(a - 2)(b - 2) = 4$. The factorisations with $a \\le b$ give the pairs $(3, 6)$ and "
    "$(4, 4)$, so these are all the solutions.\n\n$\\boxed{(3, 6), (4, 4)}$",
    False,
)

# --- parametric answers ------------------------------------------------------------------
_pairs(
    "parametric_answers",
    "n = 2^k \\text{ for } k = 0, 1, 2, \\ldots",
    "If $n$ had an odd prime factor $p$, then $p \\mid n \\mid 2^n$, which is impossible. "
    "So $n = 2^k$ for some integer $k \\ge 0$, and conversely $2^k \\mid 2^{2^k}$ because "
    "$2^k \\ge k$.",
    [
        "\\{2^k : k \\ge 0\\}",
        "n = 2^k,\\ k \\in \\mathbb{Z}_{\\ge 0}",
        "2^k \\ (k = 0, 1, 2, \\dots)",
        "n = 2^m \\text{ with } m \\geq 0 \\text{ an integer}",
    ],
    [
        "n = 2^k + 1, \\ k \\ge 0",
        "n = 2k, \\ k \\ge 1",
        "n = 2^k,\\ k \\ge 1",
        "n = 3^k, \\ k \\ge 0",
    ],
)
_pairs(
    "parametric_answers",
    "x = k\\pi, k \\in \\mathbb{Z}",
    "Write $\\tan x = \\sin x$ as $\\sin x \\left(\\frac{1}{\\cos x} - 1\\right) = 0$. Either "
    "$\\sin x = 0$, or $\\cos x = 1$, which already implies $\\sin x = 0$; and "
    "$\\cos x \\ne 0$ at all these points, so none is lost.",
    [
        "k\\pi, k \\in \\mathbb{Z}",
        "x = n\\pi \\ (n \\in \\mathbb{Z})",
        "\\{k\\pi : k \\in \\mathbb{Z}\\}",
        "x = \\pi k, \\text{ where } k \\text{ is an integer}",
    ],
    [
        "x = 2k\\pi, k \\in \\mathbb{Z}",
        "x = \\frac{k\\pi}{2}, k\\in\\mathbb{Z}",
        "x = \\frac{\\pi}{2} + k\\pi, k \\in \\mathbb{Z}",
        "x = 0",
    ],
)
_pairs(
    "parametric_answers",
    "x = \\frac{\\pi}{4} + \\frac{k\\pi}{2}, k \\in \\mathbb{Z}",
    "Since $\\cos^2 x - \\sin^2 x = \\cos 2x$, the equation is $\\cos 2x = 0$, so "
    "$2x = \\frac{\\pi}{2} + k\\pi$ for an integer $k$.",
    [
        "x = \\frac{(2k+1)\\pi}{4}, k \\in \\mathbb{Z}",
        "\\frac{\\pi}{4} + \\frac{\\pi k}{2},\\ k \\in \\mathbb{Z}",
        "x = \\frac{\\pi}{4} + k \\cdot \\frac{\\pi}{2} \\ (k \\in \\mathbb{Z})",
    ],
    [
        "x = \\frac{\\pi}{4} + k\\pi, k\\in\\mathbb{Z}",
        "x = \\frac{\\pi}{2} + k\\pi, k \\in \\mathbb{Z}",
        "x = \\frac{k\\pi}{4}, k \\in \\mathbb{Z}",
    ],
)
_pairs(
    "parametric_answers",
    "n \\equiv \\pm 1 \\pmod{6}",
    "If $24 \\mid n^2 - 1$, then $n$ is odd and $3 \\nmid n$. Conversely, for $n$ prime to "
    "$6$, $n^2 - 1 = (n - 1)(n + 1)$ is a product of consecutive even numbers, one of them "
    "divisible by $4$, so it is divisible by $8$; and one of $n - 1, n, n + 1$ is divisible "
    "by $3$ but $n$ is not.",
    [
        "n \\equiv 1 \\text{ or } 5 \\pmod 6",
        "n = 6k \\pm 1, k \\in \\mathbb{Z}",
        "n \\equiv 1, 5 \\pmod{6}",
        "\\gcd(n, 6) = 1",
    ],
    [
        "n \\equiv 1 \\pmod{6}",
        "n \\equiv \\pm 1 \\pmod{3}",
        "n = 6k + 1 \\text{ or } n = 6k + 3",
        "n \\equiv \\pm 1 \\pmod{12}",
    ],
)
_pairs(
    "parametric_answers",
    "(x, y) = (t, 2t), t \\in \\mathbb{R}",
    "Both squares in $(2x - y)^2 + (4x - 2y)^2 = 0$ are non-negative, so the sum vanishes "
    "only when $2x - y = 0$ (the second bracket is twice the first). Every real point with "
    "$y = 2x$ works.",
    [
        "\\{(x, 2x) : x \\in \\mathbb{R}\\}",
        "\\left(\\frac{s}{2}, s\\right), s \\in \\mathbb{R}",
        "(x, y) = (a, 2a) \\text{ for every real } a",
    ],
    ["(2t, t), t \\in \\mathbb{R}", "(t, 2t), t \\in \\mathbb{Z}", "(0, 0)"],
)

# --- extremal values ---------------------------------------------------------------------
_pairs(
    "extremal_values",
    "3",
    "For $x > 0$, AM-GM gives $x + \\frac{4}{x} \\ge 2\\sqrt{4} = 4$, with equality at "
    "$x = 2$, so $x + \\frac{4}{x} - 1 \\ge 3$.",
    [
        "\\min = 3",
        "\\text{minimum } 3",
        "3 \\text{ (attained at } x = 2\\text{)}",
        "\\min_{x > 0} f(x) = 3",
        "f_{\\min} = 3",
    ],
    ["x = 2", "2", "4", "\\min = 2"],
)
_pairs(
    "extremal_values",
    "\\frac{1}{4}",
    "Write $x(1 - x) = \\frac{1}{4} - \\left(x - \\frac{1}{2}\\right)^2$, which is largest "
    "when $x = \\frac{1}{2}$.",
    [
        "\\max = \\frac14",
        "0.25",
        "\\text{maximum value } \\frac{1}{4}",
        "\\dfrac{1}{4} \\text{ at } x = \\tfrac{1}{2}",
    ],
    ["\\frac{1}{2}", "x = \\frac{1}{2}", "\\frac{1}{8}"],
)
_pairs(
    "extremal_values",
    "2\\sqrt{2}",
    "By AM-GM, $a + b \\ge 2\\sqrt{ab} = 2\\sqrt{2}$, with equality when $a = b = \\sqrt{2}$.",
    ["\\sqrt{8}", "2^{3/2}", "\\min(a+b) = 2\\sqrt{2}", "2.83"],
    ["\\sqrt{2}", "4", "a = b = \\sqrt{2}", "2.8"],
)
_pairs(
    "extremal_values",
    "-\\frac{9}{4}",
    "Complete the square: $x^2 - 3x = \\left(x - \\frac{3}{2}\\right)^2 - \\frac{9}{4}$.",
    ["-2.25", "-\\dfrac{9}{4}", "\\min = -\\frac94"],
    ["\\frac{9}{4}", "\\frac{3}{2}", "-\\frac{3}{2}"],
)
_pairs(
    "extremal_values",
    "10",
    "By Cauchy-Schwarz, $3x + 4y \\le \\sqrt{3^2 + 4^2}\\,\\sqrt{x^2 + y^2} \\le 5 \\cdot 2$, "
    "with equality when $(x, y)$ is a positive multiple of $(3, 4)$ on the circle "
    "$x^2 + y^2 = 4$.",
    [
        "\\max (3x+4y) = 10",
        "10 \\text{ at } (x, y) = \\left(\\tfrac{6}{5}, \\tfrac{8}{5}\\right)",
        "\\text{The maximum is } 10",
    ],
    ["\\left(\\frac{6}{5}, \\frac{8}{5}\\right)", "5", "-10"],
)
_whole(
    "extremal_values",
    "3",
    "For $x > 0$, $f(x) = x + \\frac{4}{x} - 1$ has $f'(x) = 1 - \\frac{4}{x^2}$, which "
    "vanishes at $x = 2$ and changes sign from negative to positive there, so the minimum is "
    "reached at $x = 2$.\n\n**Answer:** $\\boxed{x = 2}$",
    False,
)
_whole(
    "extremal_values",
    "3",
    "For $x > 0$, $f(x) = x + \\frac{4}{x} - 1$ has $f'(x) = 1 - \\frac{4}{x^2}$, which "
    "vanishes at $x = 2$ and changes sign from negative to positive there. Thus the least "
    "value of $f$ is $f(2) = 2 + 2 - 1 = 3$.",
    True,
)

# --- intervals and inequalities ----------------------------------------------------------
_pairs(
    "intervals_and_inequalities",
    "[2, \\infty)",
    "The condition $x^2 + a \\ge 2x + 1$ for all real $x$ reads "
    "$x^2 - 2x + (a - 1) \\ge 0$, which holds exactly when the discriminant "
    "$4 - 4(a - 1) = 8 - 4a$ is at most $0$.",
    ["a \\ge 2", "a \\geq 2", "[2, +\\infty)", "\\{a : a \\ge 2\\}", "2 \\le a"],
    ["(2, \\infty)", "a > 2", "a \\le 2", "[-2, \\infty)"],
)
_pairs(
    "intervals_and_inequalities",
    "(-1, 3]",
    "The quotient $\\frac{x - 3}{x + 1}$ changes sign at $x = -1$ and $x = 3$; it is "
    "negative between them, zero at $x = 3$, and undefined at $x = -1$.",
    [
        "-1 < x \\le 3",
        "x \\in (-1, 3]",
        "\\{x \\mid -1 < x \\leq 3\\}",
        "\\left(-1, 3\\right]",
    ],
    ["[-1, 3]", "(-1, 3)", "-1 \\le x \\le 3", "(-3, 1]"],
)
_pairs(
    "intervals_and_inequalities",
    "(-\\infty, 0) \\cup (1, \\infty)",
    "The inequality $x^2 > x$ means $x(x - 1) > 0$, so $x$ and $x - 1$ are nonzero and "
    "have the same sign.",
    [
        "x < 0 \\text{ or } x > 1",
        "x \\in (-\\infty,0)\\cup(1,+\\infty)",
        "(1, \\infty) \\cup (-\\infty, 0)",
        "\\mathbb{R} \\setminus [0, 1]",
    ],
    ["(0, 1)", "(-\\infty, 0] \\cup [1, \\infty)", "x > 1", "(-\\infty, -1) \\cup (0, \\infty)"],
)
_pairs(
    "intervals_and_inequalities",
    "[-2, 2]",
    "Write $\\sqrt{3}\\sin x + \\cos x = 2\\sin\\left(x + \\frac{\\pi}{6}\\right)$; the sine "
    "takes every value in $[-1, 1]$, so the range is twice that interval.",
    [
        "-2 \\le y \\le 2",
        "\\left[-2,\\,2\\right]",
        "\\{y : |y| \\le 2\\}",
        "y \\in [-2, 2]",
    ],
    ["(-2, 2)", "[-\\sqrt{3} - 1, \\sqrt{3} + 1]", "[0, 2]", "[-1, 1]"],
)
_pairs(
    "intervals_and_inequalities",
    "[0, 4)",
    "For $k = 0$ the expression $kx^2 + kx + 1$ is the constant $1 > 0$. For $k \\ne 0$ we "
    "need $k > 0$ and a negative discriminant $k^2 - 4k < 0$, i.e. $0 < k < 4$.",
    ["0 \\le k < 4", "k \\in [0, 4)", "\\{k : 0 \\leq k < 4\\}"],
    ["0 < k < 4", "[0, 4]", "(0, 4)", "k < 4"],
)
_pairs(
    "intervals_and_inequalities",
    "\\{-1\\} \\cup [2, \\infty)",
    "In $(x + 1)^2 (x - 2) \\ge 0$ the square is non-negative and vanishes only at "
    "$x = -1$; elsewhere the sign is that of $x - 2$.",
    [
        "x = -1 \\text{ or } x \\ge 2",
        "[2, \\infty) \\cup \\{-1\\}",
        "x \\in \\{-1\\}\\cup[2,+\\infty)",
    ],
    ["[2, \\infty)", "[-1, \\infty)", "(2,\\infty) \\cup \\{-1\\}"],
)

# --- exact constants ---------------------------------------------------------------------
_pairs(
    "exact_constants",
    "\\frac{\\sqrt{6}-\\sqrt{2}}{4}",
    "The side opposite the $15^\\circ$ angle in a right triangle with hypotenuse $1$ is "
    "$\\sin 15^\\circ = \\sin(45^\\circ - 30^\\circ) = \\frac{\\sqrt{2}}{2} \\cdot "
    "\\frac{\\sqrt{3}}{2} - \\frac{\\sqrt{2}}{2} \\cdot \\frac{1}{2}$.",
    [
        "\\frac{-\\sqrt{2}+\\sqrt{6}}{4}",
        "\\frac{\\sqrt{2}(\\sqrt{3}-1)}{4}",
        "\\frac{\\sqrt{2-\\sqrt{3}}}{2}",
        "0.2588",
        "\\frac{\\sqrt6}{4} - \\frac{\\sqrt2}{4}",
        "\\sin 15^{\\circ}",
    ],
    [
        "\\frac{\\sqrt{6}+\\sqrt{2}}{4}",
        "\\frac{\\sqrt{6}-\\sqrt{2}}{2}",
        "\\frac{\\sqrt{3}-1}{4}",
        "0.26",
    ],
)
_pairs(
    "exact_constants",
    "3\\sqrt{3}",
    "A side of an equilateral triangle inscribed in a circle of radius $R$ subtends "
    "$120^\\circ$ at the centre, so it has length $2R\\sin 60^\\circ = R\\sqrt{3}$; here "
    "$R = 3$.",
    ["\\sqrt{27}", "3^{3/2}", "\\frac{9}{\\sqrt{3}}", "5.20"],
    ["9\\sqrt{3}", "3\\sqrt{2}", "5.19", "\\sqrt{18}"],
)
_pairs(
    "exact_constants",
    "1 + \\sqrt{2}",
    "Look for $\\sqrt{3 + 2\\sqrt{2}} = \\sqrt{a} + \\sqrt{b}$: squaring gives $a + b = 3$ "
    "and $ab = 2$, so $\\{a, b\\} = \\{1, 2\\}$.",
    ["\\sqrt{2}+1", "\\frac{1}{\\sqrt{2}-1}", "2.414", "\\sqrt{1} + \\sqrt{2}"],
    ["\\sqrt{2} - 1", "\\sqrt{3} + 1", "2.4", "2 + \\sqrt{2}"],
)
_pairs(
    "exact_constants",
    "\\ln 2",
    "$\\int_0^1 \\frac{dx}{1 + x} = \\left[\\ln(1 + x)\\right]_0^1 = \\ln 2 - \\ln 1$.",
    ["\\ln(2)", "-\\ln\\frac{1}{2}", "\\ln 4 - \\ln 2", "\\frac{1}{2}\\ln 4", "0.693"],
    ["\\ln 3", "2\\ln 2", "\\log_2 e", "0.69"],
)
_pairs(
    "exact_constants",
    "e - 1",
    "$\\int_0^1 e^x \\, dx = \\left[e^x\\right]_0^1$, and $e^0 = 1$.",
    ["-1 + e", "1.718", "1.72", "\\mathrm{e} - 1"],
    ["e", "e + 1", "1.71", "\\frac{1}{e}"],
)
_pairs(
    "exact_constants",
    "\\frac{\\pi^2}{6}",
    "The sum is $\\sum_{n \\ge 1} \\frac{1}{n^2}$, whose value Euler found by comparing the "
    "product and the power series of $\\frac{\\sin x}{x}$: the coefficient of $x^2$ is "
    "$-\\frac{1}{6}$ on one side and $-\\frac{1}{\\pi^2}\\sum \\frac{1}{n^2}$ on the other.",
    ["\\frac{1}{6}\\pi^2", "1.645", "1.64", "\\frac{\\pi \\cdot \\pi}{6}"],
    ["\\frac{\\pi^2}{8}", "\\frac{\\pi}{6}", "\\frac{\\pi^2}{12}", "1.65"],
)
_pairs(
    "exact_constants",
    "\\sqrt[3]{2}",
    "A cube of twice the volume of the unit cube has side $s$ with $s^3 = 2 \\cdot 1^3$.",
    ["2^{1/3}", "2^{\\frac{1}{3}}", "1.26"],
    ["\\sqrt{2}", "2^{2/3}", "1.25"],
)

# --- large and exact numbers -------------------------------------------------------------
_pairs(
    "large_and_exact_numbers",
    "2^{2024} - 1",
    "A set of $2024$ elements has $2^{2024}$ subsets, and exactly one of them, the empty "
    "set, has to be left out.",
    [
        "-1 + 2^{2024}",
        "(2^{1012}-1)(2^{1012}+1)",
        "\\sum_{k=0}^{2023} 2^k",
        "4^{1012} - 1",
    ],
    ["2^{2023} - 1", "2^{2024}", "2^{2025} - 1", "2^{2024} + 1"],
)
_pairs(
    "large_and_exact_numbers",
    "120",
    "No three of the $10$ points on a circle are collinear, so each choice of $3$ of them "
    "determines one triangle, and the count is $\\frac{10 \\cdot 9 \\cdot 8}{3!}$.",
    ["\\binom{10}{3}", "\\dbinom{10}{7}", "\\frac{10!}{3!\\,7!}", "120 \\text{ triangles}"],
    ["\\binom{10}{4}", "720", "\\binom{9}{3}", "1000"],
)
_pairs(
    "large_and_exact_numbers",
    "3628800",
    "Ten distinct books can be put on the shelf in $10 \\cdot 9 \\cdot 8 \\cdots 1$ orders.",
    ["10!", "3{,}628{,}800", "3,628,800", "3\\,628\\,800"],
    ["9!", "362880", "36288000", "11!"],
)
_pairs(
    "large_and_exact_numbers",
    "\\frac{2^{100}-1}{3}",
    "The sum $1 + 4 + 4^2 + \\cdots + 4^{49}$ is geometric with ratio $4$ and $50$ terms, so "
    "it equals $\\frac{4^{50} - 1}{4 - 1}$.",
    [
        "\\frac{4^{50}-1}{3}",
        "\\dfrac{2^{100} - 1}{3}",
        "\\frac{1}{3}\\left(2^{100}-1\\right)",
    ],
    [
        "\\frac{2^{100}+1}{3}",
        "\\frac{2^{99}-1}{3}",
        "\\frac{4^{49}-1}{3}",
        "\\frac{2^{100}-1}{2}",
    ],
)
_pairs(
    "large_and_exact_numbers",
    "3^{100}",
    "Each of the $100$ balls goes into one of three boxes, independently of the others, so "
    "there are $3 \\cdot 3 \\cdots 3$ ($100$ factors) assignments.",
    ["9^{50}", "81^{25}", "(3^{50})^2"],
    ["3^{99}", "9^{100}", "3^{101}", "27^{33}"],
)
_pairs(
    "large_and_exact_numbers",
    "2^{64} - 1",
    "Square $k$ of the chessboard holds $2^{k-1}$ grains, so the board holds "
    "$1 + 2 + \\cdots + 2^{63}$ grains, a geometric sum of $64$ terms.",
    [
        "18446744073709551615",
        "18{,}446{,}744{,}073{,}709{,}551{,}615",
        "-1 + 2^{64}",
    ],
    [
        "18446744073709551616",
        "2^{63} - 1",
        "18446744073709551614",
        "1.8 \\times 10^{19}",
    ],
)
_pairs(
    "large_and_exact_numbers",
    "184756",
    "A lattice path from $(0, 0)$ to $(10, 10)$ with unit steps right and up is fixed by "
    "which $10$ of its $20$ steps go right, so there are $\\binom{20}{10}$ of them.",
    ["\\binom{20}{10}", "\\frac{20!}{(10!)^2}", "184{,}756", "{20 \\choose 10}"],
    ["\\binom{20}{9}", "184765", "\\binom{19}{10}", "2^{20}"],
)

# --- counting and probability ------------------------------------------------------------
_pairs(
    "counting_and_probability",
    "\\frac{5}{16}",
    "Exactly three heads in five fair tosses happens in $\\binom{5}{3} = 10$ of the "
    "$2^5 = 32$ equally likely sequences.",
    ["0.3125", "31.25\\%", "5/16", "\\frac{10}{32}", "\\dfrac{5}{16}"],
    ["0.31", "\\frac{5}{32}", "\\frac{3}{16}", "31\\%"],
)
_pairs(
    "counting_and_probability",
    "\\frac{11}{36}",
    "The complement, no six on either die, has probability "
    "$\\left(\\frac{5}{6}\\right)^2 = \\frac{25}{36}$.",
    ["1 - \\frac{25}{36}", "\\frac{22}{72}", "11/36"],
    ["\\frac{1}{3}", "\\frac{10}{36}", "0.31", "\\frac{25}{36}"],
)
_pairs(
    "counting_and_probability",
    "252",
    "Each shortest path on the $5 \\times 5$ grid is a word of five R's and five U's, "
    "determined by which $5$ of the $10$ letters are R's.",
    ["\\binom{10}{5}", "252 \\text{ paths}", "\\frac{10!}{5!\\,5!}"],
    ["\\binom{10}{4}", "126", "256"],
)
_pairs(
    "counting_and_probability",
    "\\frac{3}{10}",
    "Drawing two balls without replacement from $3$ red and $2$ blue, there are "
    "$\\binom{5}{2} = 10$ equally likely pairs, and $\\binom{3}{2} = 3$ of them are both "
    "red.",
    ["0.3", "30\\%", "\\frac{6}{20}", "0.30"],
    ["\\frac{3}{5}", "\\frac{9}{25}", "\\frac{1}{3}", "3\\%"],
)
_pairs(
    "counting_and_probability",
    "44",
    "By inclusion-exclusion, the number of derangements of $5$ letters is "
    "$5!\\sum_{k=0}^{5} \\frac{(-1)^k}{k!} = 120 - 120 + 60 - 20 + 5 - 1$.",
    [
        "D_5 = 44",
        "44 \\text{ derangements}",
        "5!\\left(\\frac{1}{2} - \\frac{1}{6} + \\frac{1}{24} - \\frac{1}{120}\\right)",
    ],
    ["45", "76", "9", "120"],
)
_pairs(
    "counting_and_probability",
    "\\frac{161}{36}",
    "For two fair dice, $P(\\max = k) = \\frac{2k - 1}{36}$ for $k = 1, \\ldots, 6$, so "
    "$E[\\max] = \\frac{1 \\cdot 1 + 2 \\cdot 3 + 3 \\cdot 5 + 4 \\cdot 7 + 5 \\cdot 9 + "
    "6 \\cdot 11}{36}$.",
    ["4\\frac{17}{36}", "\\frac{322}{72}", "E[\\max] = \\frac{161}{36}"],
    ["\\frac{91}{36}", "\\frac{161}{32}", "\\frac{7}{2}", "4\\frac{7}{36}"],
)

# --- expressions in n --------------------------------------------------------------------
_pairs(
    "expressions_in_n",
    "\\frac{n(n+1)}{2}",
    "Pair the sum $1 + 2 + \\cdots + n$ with its reverse: each of the $n$ columns adds up "
    "to $n + 1$, so twice the sum is $n(n + 1)$.",
    [
        "\\binom{n+1}{2}",
        "\\frac{n^2+n}{2}",
        "\\frac{1}{2}n(n+1)",
        "\\frac{n(1+n)}{2}",
        "0.5n^2 + 0.5n",
    ],
    ["\\frac{n(n-1)}{2}", "\\binom{n}{2}", "n(n+1)", "\\frac{n^2+1}{2}"],
)
_pairs(
    "expressions_in_n",
    "2^n - n - 1",
    "Of the $2^n$ subsets of an $n$-element set, one is empty and $n$ are singletons; all "
    "the others have at least two elements.",
    ["2^n - (n+1)", "\\sum_{k=2}^{n}\\binom{n}{k}", "-n - 1 + 2^n"],
    ["2^n - n", "2^{n-1} - n - 1", "2^n - n + 1"],
)
_pairs(
    "expressions_in_n",
    "(n+1)! - 1",
    "Since $k \\cdot k! = (k + 1)! - k!$, the sum $\\sum_{k=1}^{n} k \\cdot k!$ telescopes.",
    ["-1 + (n+1)!", "(n+1)\\cdot n! - 1", "n!\\,(n+1) - 1"],
    ["n! - 1", "(n+1)!", "(n+1)! + 1", "(n-1)! - 1"],
)
_pairs(
    "expressions_in_n",
    "\\frac{3^n + 1}{2}",
    "Let $E$ and $O$ count the words of length $n$ over $\\{0, 1, 2\\}$ with an even and an "
    "odd number of zeros. Then $E + O = 3^n$, and $E - O = (2 - 1)^n = 1$ by expanding "
    "$(2 + x)^n$ at $x = -1$.",
    ["\\frac{1 + 3^n}{2}", "\\frac{3^n}{2} + \\frac{1}{2}", "\\frac{1}{2}(3^n + 1)"],
    ["\\frac{3^n - 1}{2}", "\\frac{3^{n+1}+1}{2}", "\\frac{3^n+1}{3}"],
)
_pairs(
    "expressions_in_n",
    "\\frac{n}{n+1}",
    "Write $\\frac{1}{k(k + 1)} = \\frac{1}{k} - \\frac{1}{k + 1}$; the sum from $k = 1$ to "
    "$n$ telescopes, leaving the first and the last term.",
    ["1 - \\frac{1}{n+1}", "\\frac{n}{1+n}", "\\frac{1}{1 + \\frac{1}{n}}"],
    ["\\frac{n+1}{n}", "\\frac{n-1}{n}", "1 - \\frac{1}{n}", "\\frac{n}{n+2}"],
)
_pairs(
    "expressions_in_n",
    "\\frac{1}{n+1}\\binom{2n}{n}",
    "By the reflection principle, the paths from $(0, 0)$ to $(n, n)$ that cross the "
    "diagonal correspond to all paths to $(n - 1, n + 1)$, of which there are "
    "$\\binom{2n}{n+1}$; subtract them from the total $\\binom{2n}{n}$.",
    [
        "\\frac{(2n)!}{n!\\,(n+1)!}",
        "\\binom{2n}{n} - \\binom{2n}{n+1}",
        "\\frac{1}{n+1}\\dbinom{2n}{n}",
        "C_n = \\frac{1}{n+1}\\binom{2n}{n}",
    ],
    ["\\binom{2n}{n}", "\\frac{1}{n}\\binom{2n}{n}", "\\frac{1}{n+1}\\binom{2n}{n+1}"],
)

# --- yes / no and words ------------------------------------------------------------------
_pairs(
    "yes_no_and_words",
    "\\text{Yes}",
    "Try the split $\\{1, 4, 6, 7\\}$ and $\\{2, 3, 5, 8\\}$ of $1, 2, \\ldots, 8$. The sums "
    "are $18$ and $18$, and the sums of squares are $1 + 16 + 36 + 49 = 102$ and "
    "$4 + 9 + 25 + 64 = 102$, so the required split exists.",
    [
        "\\text{yes}",
        "\\textbf{Yes}",
        "\\text{Yes, it is possible.}",
        "\\text{YES}",
        "Yes",
    ],
    ["\\text{No}", "\\text{No, it is impossible}", "\\text{Not possible}"],
)
_pairs(
    "yes_no_and_words",
    "\\text{No}",
    "Squares are $0$ or $1$ modulo $3$, so $n^2 + 1 \\equiv 1$ or $2 \\pmod 3$ and is never "
    "divisible by $3$.",
    [
        "\\text{no}",
        "\\text{No such } n \\text{ exists}",
        "\\text{NO}",
        "\\text{No, there is no such integer.}",
        "\\mathrm{No}",
    ],
    ["\\text{Yes}", "\\text{Yes, for } n = 1", "n = 1", "\\text{Yes, infinitely many}"],
)
_pairs(
    "yes_no_and_words",
    "\\text{infinitely many}",
    "Suppose there were only finitely many primes $p \\equiv 3 \\pmod 4$, say "
    "$p_1, \\ldots, p_k$. The number $N = 4p_1 \\cdots p_k - 1$ is $3 \\bmod 4$, so it has a "
    "prime factor that is $3 \\bmod 4$, and none of the $p_i$ divides $N$, a contradiction.",
    [
        "\\infty",
        "\\text{There are infinitely many}",
        "\\text{infinitely many such primes}",
        "\\text{infinite}",
    ],
    ["0", "\\text{finitely many}", "1", "\\text{none}"],
)
_pairs(
    "yes_no_and_words",
    "0",
    "For real $x$, $x^4 + x^2 + 1 \\ge 1 > 0$, so the equation $x^4 + x^2 + 1 = 0$ has no "
    "real root.",
    ["\\text{none}", "\\text{no real solutions}", "\\text{zero}", "0 \\text{ solutions}"],
    ["1", "2", "4", "\\text{infinitely many}"],
)
_pairs(
    "yes_no_and_words",
    "\\text{Bob}",
    "A pile whose size is a multiple of $4$ is lost for the player to move: whatever $1$ to "
    "$3$ stones they take, the opponent takes enough to restore a multiple of $4$. Alice "
    "moves first from $20 = 4 \\cdot 5$ stones.",
    [
        "\\text{Bob wins}",
        "\\text{Bob has a winning strategy}",
        "\\textbf{Bob}",
        "\\text{the second player, Bob}",
    ],
    ["\\text{Alice}", "\\text{Alice wins}", "\\text{Neither}", "\\text{the first player}"],
)
_pairs(
    "yes_no_and_words",
    "\\text{No solutions}",
    "In $x^2 - y^2 = (x - y)(x + y) = 2$ the two factors have the same parity, so their "
    "product is odd or divisible by $4$, never $2$.",
    [
        "\\varnothing",
        "\\emptyset",
        "\\text{There are no such integers}",
        "\\text{no integer solutions}",
    ],
    ["(0, 0)", "\\{0\\}", "(\\sqrt{2}, 0)", "(2, \\sqrt{2})"],
)

# --- hedged and multiple answers ---------------------------------------------------------
_whole(
    "hedged_and_multiple_answers",
    "4",
    "Clearing the denominator gives $n^2 - 7n + 12 = 0$, i.e. $(n - 3)(n - 4) = 0$. Both "
    "roots solve the quadratic, and I am not sure which one the problem intends.\n\n"
    "So the answer is $\\boxed{3 \\text{ or } 4}$.",
    False,
)
_whole(
    "hedged_and_multiple_answers",
    "4",
    "Clearing the denominator gives $n^2 - 7n + 12 = 0$, i.e. $(n - 3)(n - 4) = 0$, so "
    "$n = 3$ or $n = 4$.\n\nThe answer is $\\boxed{3}$ or $\\boxed{4}$.",
    False,
)
_whole(
    "hedged_and_multiple_answers",
    "4",
    "Clearing the denominator $n - 3$ gives $n^2 - 7n + 12 = 0$, i.e. $(n - 3)(n - 4) = 0$. "
    "But $n = 3$ makes the denominator zero, so it is not a solution of the original "
    "equation.\n\nThe answer is $\\boxed{4}$.",
    True,
)
_whole(
    "hedged_and_multiple_answers",
    "4",
    "A square has $2$ diagonals, so the answer is $\\boxed{2}$.\n\nWait, the question asks "
    "for the number of lines of symmetry, not diagonals. A square has $2$ diagonal axes and "
    "$2$ axes through the midpoints of opposite sides, so the correct answer is "
    "$\\boxed{4}$.",
    True,
)
_whole(
    "hedged_and_multiple_answers",
    "3, 4",
    "Clearing the denominator gives $n^2 - 7n + 12 = 0$, i.e. $(n - 3)(n - 4) = 0$, and "
    "both values keep the denominator $n + 1$ nonzero, so both solve the original "
    "equation.\n\n$\\boxed{n = 3 \\text{ or } n = 4}$",
    True,
)
_whole(
    "hedged_and_multiple_answers",
    "12",
    "A cube has $6$ faces with $4$ edges each, which counts every edge twice, so it has "
    "$\\frac{6 \\cdot 4}{2} = 12$ edges.\n\nThe answer is $\\boxed{12}$.\n\n"
    "Final Answer: The final answer is $12$. I hope it is correct.",
    True,
)
_whole(
    "hedged_and_multiple_answers",
    "12",
    "To count the edges of a cube, note that each of its $6$ faces has $4$ edges, giving "
    "$24$, but every edge is shared by two faces, so we divide by",
    False,
)
_whole(
    "hedged_and_multiple_answers",
    "\\frac{1}{2}",
    "If we condition on the first child being a girl, the other child is a girl with "
    "probability $\\frac{1}{2}$; if we condition on at least one child being a girl, it is "
    "$\\frac{1}{3}$. The wording could mean either.\n\n**Final Answer**\n\n"
    "$\\boxed{\\frac{1}{2}}$ or $\\boxed{\\frac{1}{3}}$",
    False,
)
_whole(
    "hedged_and_multiple_answers",
    "\\frac{1}{2}",
    "The problem says the *first* child is a girl, so we condition on that event alone "
    "(conditioning on at least one girl would give $\\frac{1}{3}$, but that is a different "
    "question). The second child is independent of the first.\n\n"
    "$\\boxed{\\frac{1}{2}}$",
    True,
)
_whole(
    "hedged_and_multiple_answers",
    "5",
    "The inequality $|x - 3| < 3$ means $0 < x < 6$, so the integers $1, 2, 3, 4, 5$ "
    "satisfy it and the answer is $\\boxed{5}$.\n\nAlternatively, if the endpoints are "
    "meant to count, the integers run from $0$ to $6$ and the answer is $\\boxed{7}$.",
    False,
)
_whole(
    "hedged_and_multiple_answers",
    "5",
    "The inequality $|x - 3| < 3$ means $0 < x < 6$. It is strict, so the endpoints $0$ "
    "and $6$ are excluded (including them would give $7$), and the integers that remain "
    "are $1, 2, 3, 4, 5$.\n\nThe answer is $\\boxed{5}$.",
    True,
)
_whole(
    "hedged_and_multiple_answers",
    "7",
    "From $3x - 5 = 16$ we get $3x = 24$, so $x = 8$. Checking: $3 \\cdot 8 - 5 = 19$, which "
    "is not $16$, so the step was wrong. Redo it: $3x = 21$, so $x = 7$, and "
    "$3 \\cdot 7 - 5 = 16$.\n\n$\\boxed{7}$",
    True,
)
_whole(
    "hedged_and_multiple_answers",
    "7",
    "From $3x - 5 = 16$ we get $3x = 21$, so $x = 7$. Hmm, but if the constant were $-2$ we "
    "would get $x = 8$ instead, and I am not certain about the sign.\n\n"
    "Final answer: $x = 7$ or $x = 8$.",
    False,
)
_whole(
    "hedged_and_multiple_answers",
    "3",
    "The equation $x^2 - 2x - 3 = 0$ factors as $(x - 3)(x + 1) = 0$. The problem asks for "
    "the positive solution.\n\nThe solutions are $\\boxed{x = -1 \\text{ or } x = 3}$.",
    False,
)
_whole(
    "hedged_and_multiple_answers",
    "-1, 3",
    "The equation $x^2 - 2x - 3 = 0$ factors as $(x - 3)(x + 1) = 0$, and the problem asks "
    "for all real solutions.\n\nThe solutions are $\\boxed{x = -1 \\text{ or } x = 3}$.",
    True,
)

# --- formatting noise --------------------------------------------------------------------
_pairs(
    "formatting_noise",
    "\\frac{3}{8}",
    "Three of the eight equally likely outcomes of three coin tosses, HHT, HTH and THH, "
    "have exactly two heads.",
    [
        "\\displaystyle \\frac{3}{8}",
        "\\left. \\frac{3}{8} \\right.",
        "\\textbf{3/8}",
        "\\frac{3}{8}\\;.",
        "\\!\\frac{3}{8}",
    ],
    [
        "\\displaystyle \\frac{8}{3}",
        "\\textbf{5/8}",
        "\\left. \\frac{3}{4} \\right.",
        "\\frac{1}{8}\\;.",
    ],
)
_pairs(
    "formatting_noise",
    "48",
    "The rectangle is $6$ by $8$, so its area is $6 \\times 8$ square units.",
    [
        "48 \\text{ square units}",
        "48\\,\\text{units}^2",
        "\\textbf{48}",
        "48.",
        "\\mathbf{48}\\;",
    ],
    ["\\textbf{84}", "24 \\text{ square units}", "28 \\text{ units}", "96\\,\\text{units}^2"],
)
_pairs(
    "formatting_noise",
    "2\\sqrt{5}",
    "The distance from $(1, 2)$ to $(5, 4)$ is $\\sqrt{4^2 + 2^2} = \\sqrt{20}$, and "
    "$20 = 4 \\cdot 5$.",
    [
        "2\\,\\sqrt{5}",
        "\\displaystyle 2\\sqrt5",
        "2\\sqrt{5}.",
        "\\sqrt{20}\\;",
        "2\\sqrt{5} \\text{ units}",
    ],
    ["2\\,\\sqrt{3}", "\\sqrt{5}\\,", "5\\sqrt{2}", "\\displaystyle 4\\sqrt{5}"],
)
_pairs(
    "formatting_noise",
    "(1, -2)",
    "Adding $x + y = -1$ and $x - y = 3$ gives $2x = 2$, so $x = 1$ and $y = -1 - x$.",
    [
        "\\left(1,\\,-2\\right)",
        "\\left( 1 ,\\ -2 \\right).",
        "(1,\\!-2)",
        "\\textbf{(1, -2)}",
    ],
    ["\\left(-2,\\,1\\right)", "(1,\\;2)", "\\left( 2 ,\\ -1 \\right)."],
)
_whole(
    "formatting_noise",
    "17",
    "The sequence $5, 8, 11, \\ldots$ has first term $5$ and common difference $3$, so its "
    "fifth term is $5 + 4 \\cdot 3$.\n\n\\boxed{$$17$$}",
    True,
)
_whole(
    "formatting_noise",
    "17",
    "The sequence $5, 8, 11, \\ldots$ has first term $5$ and common difference $3$, so its "
    "fifth term is $5 + 4 \\cdot 3$.\n\n\\boxed{$$71$$}",
    False,
)
_whole(
    "formatting_noise",
    "17",
    "The sequence $5, 8, 11, \\ldots$ has first term $5$ and common difference $3$, so its "
    "fifth term is $a_5 = 5 + 4 \\cdot 3$.\n\n**Answer:** $\\boxed{\\displaystyle a_5 = 17}$.",
    True,
)
_whole(
    "formatting_noise",
    "2\\sqrt{5}",
    "By the distance formula, the length is $\\sqrt{(5 - 1)^2 + (4 - 2)^2} = \\sqrt{20}$."
    "\n\n$$\\boxed{2\\sqrt{5}\\,\\text{units}.}$$",
    True,
)

CATEGORIES = _round.categories
CASES = _round.cases
