r"""A fourth fresh round: the everyday spread of answer forms, in whole model responses.

The earlier rounds gathered kinds a checker was known to miss. This one samples the broad
run of answers reasoning models give on competition and textbook mathematics (word
problems of the grade-school kind, MATH-style algebra, geometry and counting, AIME and AMC
questions, olympiad short answers, calculus and linear-algebra exercises), so a figure from
it says how a checker does on ordinary output rather than on chosen hard cases. Each pair is
a reference and a *response*: a few sentences of working with LaTeX in them, then the final
answer in one of the closings models use (``\boxed{}`` in a sentence or display, "The
answer is", "Final Answer: The final answer is … I hope it is correct.",
``<think>…</think><answer>…</answer>``, a box followed by chatter), or a response written
out in full ("#### 156", "**Answer:** 12", "the answer is 3/4.", the answer in the last
sentence with no marker, two boxes, a response cut off before any final answer). The kinds:

* ``integers``: counts and money, with thousands separators (``15,000``, ``15{,}000``,
  ``15\,000``), units or words after (``15 \text{ cm}``, ``\$1,499``, ``7 \text{ days}``),
  ordinals, negative numbers;
* ``fractions_decimals``: ``\frac``, ``\dfrac``, ``a/b``, mixed numbers, exact and
  repeating decimals and percentages against a fractional or decimal reference, and
  decimals rounded from an irrational value;
* ``radicals_pi``: radicals simplified or not, rationalised denominators, multiples of
  ``\pi``, angles in radians or degrees as the question asks, and their decimal values;
* ``expressions``: polynomials expanded or factored, expressions in ``n`` or ``x`` with
  their terms reordered, rational expressions, derivatives and antiderivatives,
  exponentials and logarithms;
* ``equations_and_relations``: lines, circles and planes in different forms, inequalities
  against intervals, ``x = 3`` against ``3``, solution sets;
* ``tuples_sets_lists``: points and ordered pairs and triples, unordered solutions in
  another order, sets, vectors and matrices (``pmatrix``, ``bmatrix``), lists joined by
  "and";
* ``complex_trig``: complex numbers in ``a + bi`` form and reordered, polar form, trig
  values, angles in degrees with ``^\circ``;
* ``text_and_choices``: option letters written as ``(B)``, ``B``, ``\text{(B)}``,
  ``\textbf{(B)}`` or "Option B", yes/no answers, names, days and words such as "even";
* ``formatting_noise``: trailing periods, ``\text{}`` and ``\mathrm{}``,
  ``\left( \right)``, spaces, ``$…$`` inside a box, ``x = 5`` for ``5``, two boxes, chatter
  after the answer;
* ``wrong_but_close``: near-misses of every kind beside one right form.

Every kind carries near-misses (a sign, off by one, a coefficient, a missing solution, an
endpoint bracket, the order of a point, a rounding, a different letter) that must stay
different. Labels are our hand judgement of whether the response's final answer denotes the
reference: the same value, set, interval with the same endpoints, point in the same order,
or function. A decimal stands for an irrational reference when it is that value correctly
rounded to at least three significant digits; a shorter or wrongly rounded one does not,
and neither does a two-digit decimal for a repeating fraction. A percentage denotes its
value over a hundred. Forms whose judgement hangs on a convention (a bare number for a
percentage, degrees where radians are asked, an option's value for its letter, a
three-digit rounding of a repeating fraction) are left out. We wrote every pair ourselves
(nothing is copied from an outside suite), so a figure from it is a figure from our own
data.
"""

from __future__ import annotations

from benchmarks.responses import Responses

_round = Responses()
_pairs = _round.pairs
_whole = _round.whole


# --- integers --------------------------------------------------------------------------
_pairs(
    "integers",
    "323",
    "Each tray holds $24$ cookies, so $15$ trays hold $15 \\times 24 = 360$ cookies. The "
    "baker sells all but $37$ of them, so she sells $360 - 37$ cookies.",
    ["323 \\text{ cookies}", "323"],
    ["333", "397"],
)
_pairs(
    "integers",
    "15000",
    "The rent is $\\$1{,}250$ a month and a year has $12$ months, so the yearly rent is "
    "$12 \\times 1250 = 15000$ dollars.",
    ["15,000", "15{,}000", "\\$15,000", "15\\,000"],
    ["1{,}500", "\\$13,750"],
)
_pairs(
    "integers",
    "15",
    "The perimeter is $2(\\ell + w) = 54$ cm and the width is $w = 12$ cm, so "
    "$\\ell + 12 = 27$ and the length is $\\ell = 27 - 12$ cm.",
    ["15 \\text{ cm}", "15\\ \\mathrm{cm}", "\\ell = 15"],
    ["27 \\text{ cm}", "30"],
)
_pairs(
    "integers",
    "7",
    "Three workers need $14$ days, so the job is $3 \\times 14 = 42$ worker-days. With six "
    "workers sharing it, it takes $\\frac{42}{6}$ days.",
    ["7 \\text{ days}", "\\text{7 days}"],
    ["28 \\text{ days}", "6 \\text{ days}"],
)
_pairs(
    "integers",
    "-14",
    "Work term by term: $-3(4) = -12$, $2(-5) = -10$ and $-(-8) = 8$, so the expression "
    "equals $-12 - 10 + 8$.",
    ["-14"],
    ["14", "-30", "-22"],
)
_pairs(
    "integers",
    "3",
    "Mia starts in $5$th place. Passing one runner moves her up to $4$th, and passing a "
    "second runner moves her up one more place.",
    ["3\\text{rd}", "3^{\\text{rd}}", "\\text{third}"],
    ["2\\text{nd}", "7\\text{th}"],
)
_pairs(
    "integers",
    "4536",
    "The first digit can be any of $1$ to $9$, the second any of the other $9$ digits (zero "
    "is now allowed), and then $8$ and $7$ choices remain, so there are "
    "$9 \\cdot 9 \\cdot 8 \\cdot 7$ such numbers.",
    ["4,536", "4{,}536", "4\\,536"],
    ["5040", "3024", "4{,}563"],
)
_pairs(
    "integers",
    "1499",
    "After the $\\$200$ discount the laptop costs $\\$1{,}299$, so before the discount it "
    "cost $1299 + 200$ dollars.",
    ["\\$1,499", "1499 \\text{ dollars}"],
    ["\\$1,099", "\\$1,489"],
)
_whole(
    "integers",
    "156",
    "The farmer plants $12$ rows with $13$ tomato plants in each row.\n"
    "$12 \\times 13 = 156$ plants in total.\n#### 156",
    True,
)
_whole(
    "integers",
    "2400",
    "Each of the $8$ workers earns $\\$25$ an hour for $12$ hours, which is $\\$300$ each, "
    "so the total wage bill is $8 \\times 300 = 2400$ dollars.\n\nAnswer: \\$2,400",
    True,
)

# --- fractions and decimals --------------------------------------------------------------
_pairs(
    "fractions_decimals",
    "\\frac{1}{6}",
    "Of the $36$ equally likely outcomes for two fair dice, the pairs with sum $7$ are "
    "$(1,6), (2,5), (3,4), (4,3), (5,2), (6,1)$, so the probability is $\\frac{6}{36}$.",
    ["\\dfrac{1}{6}", "1/6", "0.1\\overline{6}"],
    ["\\frac{1}{7}", "0.16"],
)
_pairs(
    "fractions_decimals",
    "\\frac{10}{3}",
    "Each batch uses $\\frac{2}{3}$ cup of sugar, so five batches use "
    "$5 \\cdot \\frac{2}{3} = \\frac{10}{3}$ cups.",
    ["3\\frac{1}{3}", "3.\\overline{3}"],
    ["3\\frac{1}{2}", "\\frac{3}{10}", "3.3"],
)
_pairs(
    "fractions_decimals",
    "\\frac{3}{4}",
    "Of the $40$ students, $30$ passed, so the fraction who passed is $\\frac{30}{40}$, "
    "which reduces by dividing top and bottom by $10$.",
    ["0.75", "75\\%"],
    ["\\frac{4}{3}", "7.5\\%"],
)
_pairs(
    "fractions_decimals",
    "2.5",
    "The mean of $1, 2, 3, 4$ is their sum divided by how many there are: "
    "$\\frac{1 + 2 + 3 + 4}{4} = \\frac{10}{4}$.",
    ["\\frac{5}{2}", "2\\frac{1}{2}"],
    ["2"],
)
_pairs(
    "fractions_decimals",
    "-\\frac{3}{4}",
    "The slope through $(1, 4)$ and $(5, 1)$ is "
    "$\\frac{y_2 - y_1}{x_2 - x_1} = \\frac{1 - 4}{5 - 1}$.",
    ["\\frac{-3}{4}", "-0.75"],
    ["\\frac{3}{4}", "-\\frac{4}{3}"],
)
_pairs(
    "fractions_decimals",
    "\\frac{\\pi}{4}",
    "The inscribed circle of a square of side $2$ has radius $1$ and area $\\pi$, and the "
    "square has area $4$, so the probability that a random point of the square lies in the "
    "circle is the ratio of the areas.",
    ["0.785", "0.7854"],
    ["0.78", "0.786", "\\frac{\\pi}{2}"],
)
_pairs(
    "fractions_decimals",
    "12.57",
    "The area is $\\pi r^2 = 4\\pi$ square centimetres, and the question asks for it to the "
    "nearest hundredth: $4\\pi = 12.566\\ldots$",
    ["12.57", "12.57 \\text{ cm}^2"],
    ["12.56", "12.6", "6.28"],
)
_pairs(
    "fractions_decimals",
    "0.15",
    "The discount is $\\$40 - \\$34 = \\$6$, and as a part of the original price that is "
    "$\\frac{6}{40}$, written as a decimal.",
    ["15\\%", "\\frac{3}{20}"],
    ["0.85", "1.5\\%"],
)
_pairs(
    "fractions_decimals",
    "\\frac{1}{3}",
    "The divisors of $12$ are $1, 2, 3, 4, 6, 12$. Two of these six, $1$ and $3$, are "
    "odd, so the probability is $\\frac{2}{6}$.",
    ["\\frac{2}{6}", "0.\\overline{3}"],
    ["0.33", "0.3"],
)
_whole(
    "fractions_decimals",
    "\\frac{3}{4}",
    "A cup holds $8$ ounces and the recipe needs $6$ ounces of milk. Dividing, "
    "$6 \\div 8 = 0.75$, so the recipe needs three quarters of a cup. So the answer is 3/4.",
    True,
)
_whole(
    "fractions_decimals",
    "-\\frac{1}{2}",
    "## Step 1: Find the slope of the given line\nThe line $2x - y = 5$ has slope $2$.\n\n"
    "## Step 2: Take the negative reciprocal\nA perpendicular line has slope "
    "$-\\frac{1}{2}$.\n\nThe final answer is: $\\boxed{-\\frac{1}{2}}$",
    True,
)

# --- radicals and pi ---------------------------------------------------------------------
_pairs(
    "radicals_pi",
    "2\\sqrt{5}",
    "The distance between $(1, 2)$ and $(5, 4)$ is $\\sqrt{(5-1)^2 + (4-2)^2} = \\sqrt{16 + 4}$.",
    ["\\sqrt{20}", "2 \\sqrt 5", "4.47"],
    ["4\\sqrt{5}", "\\sqrt{10}", "4.4"],
)
_pairs(
    "radicals_pi",
    "2\\sqrt{3}",
    "Multiply the numerator and denominator of $\\frac{6}{\\sqrt{3}}$ by $\\sqrt{3}$: "
    "$\\frac{6\\sqrt{3}}{3}$.",
    ["\\frac{6\\sqrt{3}}{3}", "\\sqrt{12}"],
    ["3\\sqrt{2}", "6\\sqrt{3}"],
)
_pairs(
    "radicals_pi",
    "3\\sqrt{2}",
    "Both legs of the right triangle are $3$, so the hypotenuse is "
    "$\\sqrt{3^2 + 3^2} = \\sqrt{18}$.",
    ["\\sqrt{18}", "3\\sqrt2", "4.24"],
    ["6", "\\sqrt{6}", "4.25"],
)
_pairs(
    "radicals_pi",
    "25\\pi",
    "The diameter is $10$, so the radius is $5$ and the area is $\\pi r^2 = \\pi \\cdot 5^2$.",
    ["25 \\pi", "78.5", "78.54"],
    ["100\\pi", "10\\pi"],
)
_pairs(
    "radicals_pi",
    "\\frac{5\\pi}{6}",
    "The question asks for radians. Since $180^\\circ = \\pi$ radians, "
    "$150^\\circ = 150 \\cdot \\frac{\\pi}{180}$ radians.",
    ["\\frac{5}{6}\\pi", "5\\pi/6", "\\dfrac{5\\pi}{6}"],
    ["\\frac{5\\pi}{3}", "\\frac{6\\pi}{5}"],
)
_pairs(
    "radicals_pi",
    "120^\\circ",
    "The question asks for degrees. The interior angles of a hexagon sum to "
    "$(6 - 2) \\cdot 180^\\circ = 720^\\circ$, and in a regular hexagon all six are equal.",
    ["120", "120^{\\circ}", "120 \\text{ degrees}"],
    ["60^\\circ", "720^\\circ"],
)
_pairs(
    "radicals_pi",
    "8\\sqrt{2}",
    "Simplify each radical: $\\sqrt{50} = 5\\sqrt{2}$ and $\\sqrt{18} = 3\\sqrt{2}$, then "
    "add the like terms.",
    ["\\sqrt{128}", "11.3"],
    ["\\sqrt{68}", "2\\sqrt{2}"],
)
_pairs(
    "radicals_pi",
    "3\\sqrt[3]{2}",
    "Since $54 = 27 \\cdot 2$ and $27 = 3^3$, the real solution of $x^3 = 54$ is "
    "$x = \\sqrt[3]{27 \\cdot 2}$.",
    ["\\sqrt[3]{54}", "3 \\cdot 2^{1/3}"],
    ["3\\sqrt{2}", "2\\sqrt[3]{3}"],
)
_whole(
    "radicals_pi",
    "4\\sqrt{2}",
    "The diagonal of a square of side $4$ is $4\\sqrt{2}$ by the Pythagorean theorem, "
    "since $\\sqrt{4^2 + 4^2} = \\sqrt{32}$.\n\nThe exact value is $\\boxed{4\\sqrt{2}}$, "
    "approximately $5.66$.",
    True,
)

# --- expressions -------------------------------------------------------------------------
_pairs(
    "expressions",
    "x^2 - x - 6",
    "Expand with FOIL: $(x + 2)(x - 3) = x^2 - 3x + 2x - 6$, and combine the middle terms.",
    ["-6 - x + x^2", "(x+2)(x-3)", "x^{2} - x - 6"],
    ["x^2 + x - 6", "x^2 - 5x - 6"],
)
_pairs(
    "expressions",
    "(2x+1)(x+3)",
    "We need two numbers with product $2 \\cdot 3 = 6$ and sum $7$: $1$ and $6$. So "
    "$2x^2 + 7x + 3 = 2x^2 + 6x + x + 3 = 2x(x + 3) + (x + 3)$.",
    ["(x+3)(2x+1)", "2\\left(x+\\frac{1}{2}\\right)(x+3)"],
    ["(2x+3)(x+1)", "(2x-1)(x-3)"],
)
_pairs(
    "expressions",
    "n^2 + 2n",
    "Split the sum: $\\sum_{k=1}^{n} (2k + 1) = 2 \\cdot \\frac{n(n+1)}{2} + n = n^2 + n + n$.",
    ["n(n+2)", "2n + n^2", "(n+1)^2 - 1"],
    ["n^2 + n", "n^2 + 2n + 1"],
)
_pairs(
    "expressions",
    "\\frac{x-3}{x}",
    "Factor the numerator and denominator: "
    "$\\frac{x^2 - 9}{x^2 + 3x} = \\frac{(x - 3)(x + 3)}{x(x + 3)}$, and cancel $x + 3$.",
    ["1 - \\frac{3}{x}", "(x-3)/x"],
    ["\\frac{x+3}{x}", "\\frac{x-3}{x+3}"],
)
_pairs(
    "expressions",
    "e^{3x}(3\\sin x + \\cos x)",
    "By the product rule, $\\frac{d}{dx}\\left(e^{3x}\\sin x\\right) = 3e^{3x}\\sin x + "
    "e^{3x}\\cos x$.",
    ["3e^{3x}\\sin x + e^{3x}\\cos x", "e^{3x}(\\cos x + 3\\sin x)"],
    ["3e^{3x}\\cos x", "e^{3x}(3\\sin x - \\cos x)"],
)
_pairs(
    "expressions",
    "(x-1)e^x + C",
    "Integrate by parts with $u = x$ and $dv = e^x\\,dx$: "
    "$\\int x e^x\\,dx = x e^x - \\int e^x\\,dx$.",
    ["xe^x - e^x + C", "e^x(x-1) + C"],
    ["(x+1)e^x + C", "xe^x + C"],
)
_pairs(
    "expressions",
    "\\frac{\\ln 7}{2}",
    "Take the natural logarithm of both sides of $e^{2x} = 7$: $2x = \\ln 7$.",
    ["\\frac{1}{2}\\ln 7", "\\ln\\sqrt{7}", "0.973"],
    ["2\\ln 7", "\\ln \\frac{7}{2}"],
)
_pairs(
    "expressions",
    "\\log_3 \\frac{x^2}{y}",
    "By the power rule $2\\log_3 x = \\log_3 x^2$, and a difference of logarithms with the "
    "same base is the logarithm of the quotient.",
    ["\\log_3\\left(\\frac{x^2}{y}\\right)", "\\log_3(x^2/y)"],
    ["\\log_3 \\frac{2x}{y}", "\\log_3 \\frac{y}{x^2}"],
)
_pairs(
    "expressions",
    "\\frac{n(n-1)}{2}",
    "By the binomial theorem the coefficient of $x^2$ in $(1 + x)^n$ is $\\binom{n}{2}$.",
    ["\\binom{n}{2}", "\\frac{n^2 - n}{2}"],
    ["\\frac{n(n+1)}{2}", "\\binom{n}{3}"],
)
_whole(
    "expressions",
    "6x^2 - 4x + 1",
    "Differentiate $f(x) = 2x^3 - 2x^2 + x - 9$ term by term with the power rule: the "
    "derivative of $2x^3$ is $6x^2$, of $-2x^2$ is $-4x$, of $x$ is $1$, and the constant "
    "drops out. So the derivative is $f'(x) = 1 - 4x + 6x^2$.",
    True,
)

# --- equations and relations -------------------------------------------------------------
_pairs(
    "equations_and_relations",
    "y = 2x + 3",
    "The line has slope $2$ and passes through $(0, 3)$, so its $y$-intercept is $3$ and "
    "slope-intercept form gives the equation.",
    ["2x - y + 3 = 0", "y = 3 + 2x", "y - 3 = 2x"],
    ["y = 3x + 2", "y = 2x - 3"],
)
_pairs(
    "equations_and_relations",
    "(x-2)^2 + (y+1)^2 = 9",
    "A circle with center $(h, k) = (2, -1)$ and radius $r = 3$ has equation "
    "$(x - h)^2 + (y - k)^2 = r^2$.",
    ["(x - 2)^2 + (y + 1)^2 = 3^2", "x^2 + y^2 - 4x + 2y - 4 = 0"],
    ["(x+2)^2 + (y-1)^2 = 9", "(x-2)^2 + (y+1)^2 = 3"],
)
_pairs(
    "equations_and_relations",
    "x > 4",
    "Add $5$ to both sides of $3x - 5 > 7$ to get $3x > 12$, then divide by $3$.",
    ["(4, \\infty)", "4 < x", "\\{x \\mid x > 4\\}"],
    ["x \\geq 4", "[4, \\infty)"],
)
_pairs(
    "equations_and_relations",
    "[-2, 4]",
    "The inequality $|x - 1| \\le 3$ means $-3 \\le x - 1 \\le 3$; adding $1$ throughout "
    "gives the closed interval.",
    ["-2 \\le x \\le 4", "x \\in [-2, 4]"],
    ["(-2, 4)", "[-2, 4)", "[-4, 2]"],
)
_pairs(
    "equations_and_relations",
    "3",
    "Subtract $7$ from both sides of $4x + 7 = 19$ to get $4x = 12$, and divide by $4$.",
    ["x = 3", "\\{3\\}"],
    ["x = \\frac{13}{2}", "x = -3"],
)
_pairs(
    "equations_and_relations",
    "x = -2 \\text{ or } x = 4",
    "Move everything to one side: $x^2 - 2x - 8 = 0$, which factors as $(x - 4)(x + 2) = 0$.",
    ["\\{-2, 4\\}", "x = 4, x = -2", "x \\in \\{4, -2\\}"],
    ["x = 4", "x = -4 \\text{ or } x = 2"],
)
_pairs(
    "equations_and_relations",
    "(-\\infty, -3] \\cup [3, \\infty)",
    "The square root $\\sqrt{x^2 - 9}$ is defined when $x^2 \\ge 9$, that is when "
    "$|x| \\ge 3$; both endpoints are allowed since $\\sqrt{0} = 0$.",
    ["x \\le -3 \\text{ or } x \\ge 3", "|x| \\geq 3"],
    ["(-\\infty, -3) \\cup (3, \\infty)", "[-3, 3]"],
)
_pairs(
    "equations_and_relations",
    "6x + 3y + 2z = 6",
    "The plane meets the axes at $x = 1$, $y = 2$ and $z = 3$, so its intercept form is "
    "$\\frac{x}{1} + \\frac{y}{2} + \\frac{z}{3} = 1$; multiply through by $6$.",
    ["x + \\frac{y}{2} + \\frac{z}{3} = 1", "12x + 6y + 4z = 12"],
    ["6x + 3y + 2z = 1", "3x + 6y + 2z = 6"],
)
_pairs(
    "equations_and_relations",
    "x \\le -3",
    "Subtract $1$ from both sides of $-2x + 1 \\ge 7$ to get $-2x \\ge 6$. Dividing by "
    "$-2$ reverses the inequality.",
    ["(-\\infty, -3]", "-3 \\geq x"],
    ["x \\ge -3", "(-\\infty, -3)"],
)
_whole(
    "equations_and_relations",
    "y = 4 - 3x",
    "The slope through $(1, 1)$ and $(2, -2)$ is $\\frac{-2 - 1}{2 - 1} = -3$. Using the "
    "point $(1, 1)$: $y - 1 = -3(x - 1)$, so $y = -3x + 3 + 1$.\n\n"
    "**Final answer:** $y = -3x + 4$",
    True,
)

# --- tuples, sets and lists --------------------------------------------------------------
_pairs(
    "tuples_sets_lists",
    "(2, 5)",
    "Set $2x + 1 = -x + 7$: then $3x = 6$, so $x = 2$, and $y = 2 \\cdot 2 + 1 = 5$.",
    ["\\left(2, 5\\right)", "x = 2, y = 5", "(x, y) = (2, 5)"],
    ["(5, 2)", "(2, 3)"],
)
_pairs(
    "tuples_sets_lists",
    "1, 2, 3",
    "Trying $x = 1$ gives $1 - 6 + 11 - 6 = 0$, so $x - 1$ is a factor, and "
    "$x^3 - 6x^2 + 11x - 6 = (x - 1)(x^2 - 5x + 6) = (x - 1)(x - 2)(x - 3)$.",
    ["3, 2, 1", "\\{1, 2, 3\\}", "1, 2, \\text{ and } 3"],
    ["1, 2", "-1, -2, -3"],
)
_pairs(
    "tuples_sets_lists",
    "\\begin{pmatrix} 1 \\\\ 6 \\\\ 1 \\end{pmatrix}",
    "With $\\mathbf{u} = (1, -2, 3)$ and $\\mathbf{v} = (0, 4, -1)$ we get "
    "$2\\mathbf{v} = (0, 8, -2)$, and adding componentwise gives $\\mathbf{u} + 2\\mathbf{v}$.",
    ["(1, 6, 1)", "\\begin{bmatrix} 1 \\\\ 6 \\\\ 1 \\end{bmatrix}"],
    ["\\begin{pmatrix} 1 \\\\ 2 \\\\ 2 \\end{pmatrix}", "(1, -6, 1)"],
)
_pairs(
    "tuples_sets_lists",
    "\\begin{pmatrix} 1 & -1 \\\\ -1 & 2 \\end{pmatrix}",
    "For $A = \\begin{pmatrix} 2 & 1 \\\\ 1 & 1 \\end{pmatrix}$ we have "
    "$\\det A = 2 - 1 = 1$, so $A^{-1}$ swaps the diagonal entries and negates the others.",
    [
        "\\begin{bmatrix} 1 & -1 \\\\ -1 & 2 \\end{bmatrix}",
        "\\left(\\begin{matrix} 1 & -1 \\\\ -1 & 2 \\end{matrix}\\right)",
    ],
    [
        "\\begin{pmatrix} 2 & -1 \\\\ -1 & 1 \\end{pmatrix}",
        "\\begin{pmatrix} -1 & 1 \\\\ 1 & -2 \\end{pmatrix}",
    ],
)
_pairs(
    "tuples_sets_lists",
    "\\{11, 13, 17, 19, 23, 29\\}",
    "Between $10$ and $30$ we strike out the even numbers and the multiples of $3$, $5$ "
    "and $7$ ($15$, $21$, $25$, $27$); what remains is prime.",
    ["11, 13, 17, 19, 23, 29", "\\{29, 23, 19, 17, 13, 11\\}"],
    ["\\{11, 13, 17, 19, 23\\}", "\\{11, 13, 17, 19, 21, 23, 29\\}"],
)
_pairs(
    "tuples_sets_lists",
    "(1, 2, 3)",
    "Subtracting $y + z = 5$ from $x + y + z = 6$ gives $x = 1$. Then $2x - y = 0$ gives "
    "$y = 2$, and $z = 5 - y = 3$.",
    ["x = 1, y = 2, z = 3", "\\left(1,\\,2,\\,3\\right)"],
    ["(3, 2, 1)", "(1, 3, 2)"],
)
_pairs(
    "tuples_sets_lists",
    "8 \\text{ and } 9",
    "The numbers are the roots of $t^2 - 17t + 72 = 0$, which factors as $(t - 8)(t - 9) = 0$.",
    ["9 \\text{ and } 8", "8, 9"],
    ["6 \\text{ and } 12", "9"],
)
_pairs(
    "tuples_sets_lists",
    "(3, 2)",
    "From $f(1) = a + b = 5$ and $f(3) = 3a + b = 11$, subtracting gives $2a = 6$, so "
    "$a = 3$ and $b = 5 - 3 = 2$.",
    ["a = 3, b = 2", "b = 2, a = 3"],
    ["(2, 3)", "(3, -2)"],
)
_pairs(
    "tuples_sets_lists",
    "2, 5",
    "The characteristic polynomial of $\\begin{pmatrix} 4 & 1 \\\\ 2 & 3 \\end{pmatrix}$ is "
    "$\\lambda^2 - 7\\lambda + 10 = (\\lambda - 2)(\\lambda - 5)$.",
    ["5, 2", "\\lambda_1 = 2, \\lambda_2 = 5", "\\{2, 5\\}"],
    ["-2, -5", "7, 10"],
)
_whole(
    "tuples_sets_lists",
    "(2, -1)",
    "Adding the equations $x + y = 1$ and $x - y = 3$ gives $2x = 4$, so $x = 2$. "
    "Substituting back, $y = 1 - 2 = -1$. Therefore $x = 2$ and $y = -1$.",
    True,
)

# --- complex numbers and trigonometry ----------------------------------------------------
_pairs(
    "complex_trig",
    "5 + i",
    "Expand: $(2 + 3i)(1 - i) = 2 - 2i + 3i - 3i^2$, and $-3i^2 = 3$.",
    ["i + 5", "5 + 1i"],
    ["5 - i", "-1 + i", "1 + 5i"],
)
_pairs(
    "complex_trig",
    "i",
    "Multiply top and bottom by the conjugate $1 + i$: "
    "$\\frac{(1 + i)^2}{(1 - i)(1 + i)} = \\frac{1 + 2i + i^2}{2} = \\frac{2i}{2}$.",
    ["0 + i"],
    ["-i", "2i"],
)
_pairs(
    "complex_trig",
    "\\frac{\\sqrt{2}}{2}",
    "In a $45$-$45$-$90$ triangle with legs $1$ the hypotenuse is $\\sqrt{2}$, so "
    "$\\sin 45^\\circ = \\frac{1}{\\sqrt{2}}$.",
    ["\\frac{1}{\\sqrt{2}}", "\\tfrac{1}{2}\\sqrt{2}", "0.707"],
    ["\\frac{\\sqrt{3}}{2}", "0.71"],
)
_pairs(
    "complex_trig",
    "-\\frac{1}{2}",
    "The angle $\\frac{2\\pi}{3}$ lies in the second quadrant with reference angle "
    "$\\frac{\\pi}{3}$, and cosine is negative there.",
    ["-0.5", "\\frac{-1}{2}"],
    ["\\frac{1}{2}", "-\\frac{\\sqrt{3}}{2}"],
)
_pairs(
    "complex_trig",
    "\\frac{\\sqrt{3}}{3}",
    "We have $\\tan\\frac{\\pi}{6} = \\frac{\\sin(\\pi/6)}{\\cos(\\pi/6)} = "
    "\\frac{1/2}{\\sqrt{3}/2}$.",
    ["\\frac{1}{\\sqrt{3}}", "0.577"],
    ["\\sqrt{3}", "0.58"],
)
_pairs(
    "complex_trig",
    "\\sqrt{2}e^{i\\pi/4}",
    "The modulus of $1 + i$ is $\\sqrt{1^2 + 1^2} = \\sqrt{2}$, and it lies on the line "
    "$y = x$ in the first quadrant, so its argument is $\\frac{\\pi}{4}$.",
    [
        "\\sqrt{2}\\left(\\cos\\frac{\\pi}{4} + i\\sin\\frac{\\pi}{4}\\right)",
        "\\sqrt{2} e^{\\frac{\\pi}{4} i}",
    ],
    ["2e^{i\\pi/4}", "\\sqrt{2}e^{-i\\pi/4}"],
)
_pairs(
    "complex_trig",
    "-1 \\pm 2i",
    "The quadratic formula for $x^2 + 2x + 5 = 0$ gives "
    "$x = \\frac{-2 \\pm \\sqrt{4 - 20}}{2} = \\frac{-2 \\pm 4i}{2}$.",
    ["-1 + 2i, -1 - 2i", "x = -1 \\pm 2i"],
    ["1 \\pm 2i", "-1 + 2i"],
)
_pairs(
    "complex_trig",
    "80^\\circ",
    "The angles $2x$, $3x$ and $4x$ sum to $180^\\circ$, so $9x = 180^\\circ$ and "
    "$x = 20^\\circ$. The largest angle is $4x$.",
    ["80", "80^{\\circ}"],
    ["20^\\circ", "100^\\circ"],
)
_pairs(
    "complex_trig",
    "\\frac{\\sqrt{6} - \\sqrt{2}}{4}",
    "By the difference formula, $\\cos 75^\\circ = \\cos 45^\\circ \\cos 30^\\circ - "
    "\\sin 45^\\circ \\sin 30^\\circ = \\frac{\\sqrt{2}}{2} \\cdot \\frac{\\sqrt{3}}{2} - "
    "\\frac{\\sqrt{2}}{2} \\cdot \\frac{1}{2}$.",
    ["\\frac{\\sqrt{2}(\\sqrt{3} - 1)}{4}", "0.259"],
    ["\\frac{\\sqrt{6} + \\sqrt{2}}{4}", "0.258"],
)
_whole(
    "complex_trig",
    "3 - 2i",
    "Write $z = a + bi$. Then $z + 2\\bar{z} = (a + bi) + 2(a - bi) = 3a - bi$, and "
    "setting this equal to $9 + 2i$ gives $3a = 9$ and $-b = 2$. So $z = 3 - 2i$.",
    True,
)

# --- text answers and choices ------------------------------------------------------------
_pairs(
    "text_and_choices",
    "\\text{(B)}",
    "A cube has $6$ faces, each with $4$ edges, and every edge is shared by $2$ faces, so it "
    "has $\\frac{6 \\cdot 4}{2} = 12$ edges. The options are (A) $8$, (B) $12$, (C) $6$, "
    "(D) $16$, (E) $24$.",
    ["B", "(B)", "\\textbf{(B)}", "\\text{Option B}", "\\text{(B) } 12"],
    ["(C)", "\\text{(A)}", "8"],
)
_pairs(
    "text_and_choices",
    "\\text{No}",
    "We test small primes: $221 = 13 \\times 17$, so $221$ has a divisor other than $1$ "
    "and itself and is not prime.",
    ["\\text{no}", "\\text{No, } 221 = 13 \\times 17"],
    ["\\text{Yes}", "\\text{yes}"],
)
_pairs(
    "text_and_choices",
    "\\text{Bob}",
    "With $20$ stones and moves of $1$ to $3$ stones, the player to move loses exactly when "
    "the pile is a multiple of $4$. Alice moves first from $20$, so Bob can always restore "
    "a multiple of $4$ and takes the last stone.",
    ["Bob", "\\text{Bob wins}"],
    ["\\text{Alice}"],
)
_pairs(
    "text_and_choices",
    "\\text{even}",
    "The sum $1 + 2 + \\cdots + 100 = \\frac{100 \\cdot 101}{2} = 5050$, whose last digit is $0$.",
    ["\\text{Even}"],
    ["\\text{odd}"],
)
_pairs(
    "text_and_choices",
    "D",
    "The primes less than $18$ are $2, 3, 5, 7, 11, 13, 17$, which is $7$ of them. Among "
    "the options $\\textbf{(A) }4$, $\\textbf{(B) }5$, $\\textbf{(C) }6$, $\\textbf{(D) }7$, "
    "$\\textbf{(E) }8$ this is option D.",
    ["\\textbf{(D) }7", "\\mathrm{(D)}", "(D)"],
    ["\\textbf{(C) }6", "E"],
)
_pairs(
    "text_and_choices",
    "3^{20}",
    "Write both with exponent $10$: $2^{30} = 8^{10}$ and $3^{20} = 9^{10}$, and "
    "$9^{10} > 8^{10}$.",
    ["3486784401", "3^{20} \\text{ is larger}"],
    ["2^{30}"],
)
_pairs(
    "text_and_choices",
    "\\text{Yes}",
    "The series $\\sum_{n \\ge 1} \\frac{1}{n^2}$ is a $p$-series with $p = 2 > 1$, so "
    "by the $p$-series test it converges (its sum is $\\frac{\\pi^2}{6}$).",
    ["\\text{Yes, it converges}", "\\text{yes}"],
    ["\\text{No}", "\\text{diverges}"],
)
_pairs(
    "text_and_choices",
    "\\text{Friday}",
    "Days repeat every $7$, and $100 = 7 \\cdot 14 + 2$, so $100$ days after a Wednesday "
    "is $2$ days after a Wednesday.",
    ["\\text{friday}", "Friday"],
    ["\\text{Thursday}", "\\text{Saturday}"],
)
_pairs(
    "text_and_choices",
    "\\text{II}",
    "The point $(-3, 5)$ has a negative $x$-coordinate and a positive $y$-coordinate, so it "
    "lies to the left of the $y$-axis and above the $x$-axis.",
    ["\\text{Quadrant II}", "\\text{second quadrant}"],
    ["\\text{III}", "\\text{fourth}"],
)
_whole(
    "text_and_choices",
    "C",
    "The options are (A) $3$, (B) $4$, (C) $5$, (D) $6$, (E) $7$. The triangle with legs "
    "$3$ and $4$ has hypotenuse $\\sqrt{9 + 16} = 5$.\n\nThe correct option is **(C)**.",
    True,
)

# --- formatting noise --------------------------------------------------------------------
_pairs(
    "formatting_noise",
    "5",
    "Add $4$ to both sides of $3x - 4 = 11$ to get $3x = 15$, then divide by $3$.",
    ["5.", "\\text{5}", "\\mathrm{5}", "x = 5", " 5 "],
    ["-5", "x = 6"],
)
_pairs(
    "formatting_noise",
    "(2, -3)",
    "Reflecting $(2, 3)$ across the $x$-axis keeps the $x$-coordinate and negates the "
    "$y$-coordinate.",
    ["\\left( 2, -3 \\right)", "\\left(2,-3\\right).", "( 2 , - 3 )"],
    ["\\left( -3, 2 \\right)", "\\left( 2, 3 \\right)"],
)
_pairs(
    "formatting_noise",
    "\\frac{7}{2}",
    "Add $3$ to both sides of $2x - 3 = 4$ to get $2x = 7$, then divide by $2$.",
    ["\\dfrac{7}{2}.", "\\displaystyle\\frac{7}{2}", "3.5\\,"],
    ["\\dfrac{2}{7}", "\\frac{7}{3}"],
)
_pairs(
    "formatting_noise",
    "12 \\text{ cm}^2",
    "The triangle has base $6$ cm and height $4$ cm, so its area is "
    "$\\frac{1}{2} \\cdot 6 \\cdot 4$ square centimetres.",
    ["12\\ \\mathrm{cm}^2", "\\text{12 cm}^2", "12"],
    ["24\\ \\mathrm{cm}^2", "6\\,\\text{cm}^2"],
)
_pairs(
    "formatting_noise",
    "-4",
    "Complete the square: $x^2 - 2x - 3 = (x - 1)^2 - 4$, which is smallest at $x = 1$.",
    ["f_{\\min} = -4", "-4 \\ \\text{(at } x = 1\\text{)}"],
    ["1", "-3"],
)
_whole(
    "formatting_noise",
    "12",
    "A dozen eggs is $12$ eggs. Sam uses $3$ eggs a day for $4$ days, which is "
    "$3 \\times 4 = 12$ eggs, so one dozen is exactly enough.\n\n**Answer:** 12",
    True,
)
_whole(
    "formatting_noise",
    "35",
    "We choose $3$ of the $7$ club members, and the order does not matter, so we count "
    "$\\binom{7}{3} = \\frac{7 \\cdot 6 \\cdot 5}{3 \\cdot 2 \\cdot 1}$. Hence there are "
    "35 ways to choose the committee.",
    True,
)
_whole(
    "formatting_noise",
    "35",
    "We choose $3$ of the $7$ club members, and the order does not matter, so we count "
    "combinations. The number of ways is $\\binom{7}{3} = \\frac{7 \\cdot 6 \\cdot 5}{",
    False,
)
_whole(
    "formatting_noise",
    "14",
    "Ann has $5$ marbles and Ben has $7$, so together they have $\\boxed{12}$.\n\nWait, "
    "the problem says Ann then finds $2$ more marbles, so the total is "
    "$12 + 2 = 14$. The correct answer is $\\boxed{14}$.",
    True,
)
_whole(
    "formatting_noise",
    "12",
    "Ann has $5$ marbles and Ben has $7$, so together they have $\\boxed{12}$.\n\nWait, "
    "the problem says Ann then finds $2$ more marbles, so the total is "
    "$12 + 2 = 14$. The correct answer is $\\boxed{14}$.",
    False,
)
_whole(
    "formatting_noise",
    "\\frac{1}{4}",
    "Each coin lands heads with probability $\\frac{1}{2}$, and the two tosses are "
    "independent, so both land heads with probability $\\frac{1}{2} \\cdot \\frac{1}{2}$."
    "\n\nSo the probability is \\boxed{$\\frac{1}{4}$}.",
    True,
)
_whole(
    "formatting_noise",
    "42",
    "Six packs of seven pencils hold $6 \\times 7$ pencils.\n\nThe answer is "
    "$\\boxed{42}$.\n\nI hope this helps! Let me know if you have any other questions "
    "about multiplication or word problems.",
    True,
)
_whole(
    "formatting_noise",
    "3, 5",
    "Factor $x^2 - 8x + 15 = (x - 3)(x - 5)$. The roots are $\\boxed{3}$ and $\\boxed{5}$.",
    True,
)
_whole(
    "formatting_noise",
    "5",
    "Tom had $12$ apples and gave away $7$, so he has $12 - 7 = 5$ left.\n\n"
    "$\\boxed{\\text{5 apples}}$",
    True,
)
_whole(
    "formatting_noise",
    "7",
    "<think>\nWe need $n$ with $2n + 3 = 17$, so $2n = 14$ and $n = 7$.\n</think>\n\n"
    "<answer>\\boxed{7}</answer>",
    True,
)
_whole(
    "formatting_noise",
    "16",
    "The garden is a $4$ by $4$ square, so its perimeter is $4 + 4 + 4 + 4$, and its area "
    "is $4 \\times 4$. The question asks for the perimeter.\n\nThe answer is "
    "$\\boxed{16}$. Note that the area, $16$, happens to be the same number here.",
    True,
)

# --- wrong but close ---------------------------------------------------------------------
_pairs(
    "wrong_but_close",
    "26",
    "The integers from $15$ to $40$ inclusive number $40 - 15 + 1$.",
    ["26"],
    ["25", "27"],
)
_pairs(
    "wrong_but_close",
    "-1, 5",
    "Factor $x^2 - 4x - 5 = (x - 5)(x + 1)$ and set each factor to zero.",
    ["5, -1"],
    ["-5, 1", "5", "1, 5"],
)
_pairs(
    "wrong_but_close",
    "[1, 4)",
    "Add $1$ throughout $2 \\le 3x - 1 < 11$ to get $3 \\le 3x < 12$, then divide by $3$; "
    "the left inequality is not strict and the right one is.",
    ["1 \\le x < 4"],
    ["[1, 4]", "(1, 4)", "(1, 4]"],
)
_pairs(
    "wrong_but_close",
    "12x^2 - 2",
    "Differentiate term by term: $\\frac{d}{dx} 4x^3 = 12x^2$ and $\\frac{d}{dx} 2x = 2$.",
    ["-2 + 12x^2"],
    ["12x^2 - 2x", "4x^2 - 2", "12x^2 + 2"],
)
_pairs(
    "wrong_but_close",
    "\\sqrt{3}",
    "The height of an equilateral triangle of side $2$ is $\\sqrt{2^2 - 1^2} = \\sqrt{3}$, "
    "and $\\sqrt{3} = 1.7320508\\ldots$",
    ["1.73", "1.732"],
    ["1.7", "1.74"],
)
_pairs(
    "wrong_but_close",
    "6\\sqrt{2}",
    "Since $72 = 36 \\cdot 2$, we have $\\sqrt{72} = \\sqrt{36}\\sqrt{2}$.",
    ["3\\sqrt{8}", "2\\sqrt{18}"],
    ["3\\sqrt{6}", "6\\sqrt{3}"],
)
_pairs(
    "wrong_but_close",
    "\\text{(E)}",
    "We look for the smallest prime factor of $2021$ among (A) $7$, (B) $13$, (C) $29$, "
    "(D) $41$, (E) $43$. None of $7$, $13$, $29$, $41$ divides $2021$, and "
    "$2021 = 43 \\cdot 47$.",
    ["\\text{(E)}"],
    ["(D)", "\\text{(B)}"],
)
_pairs(
    "wrong_but_close",
    "\\frac{4}{13}",
    "There are $13$ hearts and $4$ kings, and the king of hearts is counted twice, so "
    "$13 + 4 - 1 = 16$ of the $52$ cards are a heart or a king.",
    ["\\frac{16}{52}"],
    ["\\frac{17}{52}", "\\frac{13}{4}", "0.31"],
)
_pairs(
    "wrong_but_close",
    "(-1, 3)",
    "The vertex of $y = x^2 + 2x + 4$ is at $x = -\\frac{b}{2a} = -1$, where $y = 1 - 2 + 4 = 3$.",
    ["\\left(-1, 3\\right)"],
    ["(3, -1)", "(1, 3)", "(-1, 4)"],
)
_pairs(
    "wrong_but_close",
    "y = -\\frac{1}{2}x + 4",
    "A line perpendicular to $y = 2x$ has slope $-\\frac{1}{2}$. Through $(2, 3)$: "
    "$y - 3 = -\\frac{1}{2}(x - 2)$.",
    ["x + 2y = 8"],
    ["y = \\frac{1}{2}x + 2", "y = -2x + 7", "y = -\\frac{1}{2}x + 3"],
)
_whole(
    "wrong_but_close",
    "1400",
    "The school has $35$ classes with $40$ students in each class.\n"
    "$35 \\times 40 = 1440$ students.\n#### 1,440",
    False,
)
_whole(
    "wrong_but_close",
    "48",
    "The average speed is the total distance over the total time. The total distance is "
    "$2 \\times 120 = 240$ km. Going out at $60$ km/h takes $\\frac{120}{60} = 2$ hours and "
    "coming back at $40$ km/h takes $\\frac{120}{40} = 3$ hours, so the total time is",
    False,
)

CATEGORIES = _round.categories
CASES = _round.cases
