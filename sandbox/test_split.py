"""Split assert tests into the program's side and the expected side.

A test like ``assert f(3) == [1, 2]`` is not run as a script after the program. It is
read here (on the host, with ``ast``; never executed) into checks: the program's side
(``f(3)``) is evaluated in the program's sandbox and sent back as plain data, the expected
side (``[1, 2]``) is read with ``ast.literal_eval`` on the host, or evaluated in a
separate sandboxed process that runs no program code. The comparison happens on the host
(``sandbox/verdict.py``), so the expected values never enter the program's sandbox and
the program's operators never decide the verdict.

Shapes split: ``assert A OP B`` (``==``, ``!=``, ``is``/``is not`` None/True/False, ``in``,
``not in``, ``<``, ``<=``, ``>``, ``>=``, chained), ``assert math.isclose(A, B, ...)``,
``assert abs(A - B) < tol`` (also ``<=`` and ``math.fabs``), ``assert A`` and ``assert not
A``, ``assert A and B``; at the top level, or in ``def check(candidate): ...`` followed by
``check(entry_point)`` (HumanEval); imports and assignments that use no program name may
come before them.

The program's side of a split check must be a *call chain*: a name the program binds,
followed only by calls, attribute reads (no dunder) and subscripts whose arguments are
plain literals (or set-up names bound to one, inlined). That is all the program's process
evaluates: no operator, comparison, builtin, set-up statement or import of the test runs
there, and nothing of the expected side is in its code. Any other shape (``all(...)``,
``f(x) - 9 == 0``, ``bool(f(x) == y)``, ``f(x).__eq__(y)``, an argument computed by the
test) is opaque: it runs in a process of its own that calls the program's functions over
a link of plain data and sends a completion record (``python_harness.OpaqueTest``,
``sandbox/remote_calls.py``).
"""

from __future__ import annotations

import ast
import builtins
import copy
import functools
import operator
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Literal

from .python_harness import HOLDS, TEST_FUNCTION, TRUTHY

BUILTIN_NAMES = frozenset(dir(builtins))
_OPS: dict[type[ast.cmpop], str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
}
_SINGLETONS = (None, True, False)
_IMPLICIT = frozenset({"globals", "locals", "vars", "dir", "eval", "exec"})
# A bare value in ``assert A`` is taken only where its truth is the program's own value,
# not the result of an operator the program could overload.
_TRUTHY_NODES = (ast.Call, ast.Name, ast.Attribute, ast.Subscript)


@dataclass(frozen=True)
class Operand:
    """Where one value of a check comes from."""

    where: Literal["literal", "program", "reference"]
    index: int = -1  # into SplitTest.probes or SplitTest.references
    value: object = None  # the literal


@dataclass(frozen=True)
class Check:
    """One relation between operands: ``relation`` is a comparison operator, ``truthy``,
    ``falsy``, ``isclose`` (operands a, b) or ``within <`` / ``within <=`` (a, b, tol)."""

    relation: str
    operands: tuple[Operand, ...]
    source: str  # the assert, for the verdict's detail
    rel_tol: float = 1e-9
    abs_tol: float = 0.0


@dataclass
class SplitTest:
    """What the two sandboxed runs evaluate and how the host judges their values."""

    checks: list[Check] = field(default_factory=list)
    probes: list[str] = field(default_factory=list)  # the program's call chains
    references: list[str] = field(default_factory=list)  # non-literal expected sides
    reference_setup: str = ""
    # Whether the test asks about NaN (names it): otherwise a NaN among the program's
    # values fails the check it is in (``asks_about_nan``).
    nan: bool = False


class _Opaque(Exception):
    """The test has a shape this module does not split."""


@functools.lru_cache(maxsize=256)  # every test of a program asks: parse it once
def program_names(program: str) -> frozenset[str]:
    """Names the program binds at its top level (empty when it does not parse)."""
    try:
        module = ast.parse(program)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    names: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
    return frozenset(names)


def free_names(node: ast.AST) -> set[str]:
    """Names an expression reads that it does not bind itself (lambdas, comprehensions)."""
    bound: set[str] = set()
    read: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            (read if isinstance(sub.ctx, ast.Load) else bound).add(sub.id)
        elif isinstance(sub, ast.arg):
            bound.add(sub.arg)
    return read - bound


class _Substitute(ast.NodeTransformer):
    """``candidate`` (check's parameter) becomes the argument ``check`` was called with."""

    def __init__(self, name: str, value: ast.expr) -> None:
        self.name, self.value = name, value

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return ast.copy_location(copy.deepcopy(self.value), node)
        return node


def split_test(code: str, program: str) -> SplitTest | None:
    """The test's checks, or None when its shape is opaque (callers must not change it:
    it may be shared)."""
    return _split(code, program_names(program) & mentioned_names(code))


@functools.lru_cache(maxsize=1024)
def mentioned_names(code: str) -> frozenset[str]:
    """Every name the test's code mentions (empty when it does not parse)."""
    try:
        module = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    return frozenset(node.id for node in ast.walk(module) if isinstance(node, ast.Name))


# A split depends on the program only through the names it binds that the test mentions
# (the splitter asks of a program name only whether a name of the test is one), which the
# completions of one GRPO group share whatever their own helpers and locals are called:
# they reuse the same split of the same tests.
@functools.lru_cache(maxsize=1024)
def _split(code: str, names: frozenset[str]) -> SplitTest | None:
    try:
        return _Splitter(names).split(code)
    except (_Opaque, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


class _Splitter:
    def __init__(self, program: frozenset[str]) -> None:
        self.program = program
        self.setup: list[ast.stmt] = []
        self.setup_names: set[str] = set()
        self.subjects: set[str] = set()  # names check(...) was called with
        self.test = SplitTest()
        # Functions the test defines: neither run knows them, so naming one is opaque.
        self.functions: dict[str, ast.FunctionDef] = {}
        self.reference_names: set[str] = set()
        # Set-up names bound once to a literal: a call chain may take them as arguments
        # (their values are inlined); a mutable one only in a single probe, since the
        # program may change it in place.
        self.literals: dict[str, ast.expr] = {}
        self.inlined: dict[str, int] = {}
        self._free: dict[int, set[str]] = {}  # free_names by node, while the nodes live

    def split(self, code: str) -> SplitTest:
        module = ast.parse(code)
        functions = self.functions
        asserts: list[ast.Assert] = []
        for stmt in module.body:
            if isinstance(stmt, ast.FunctionDef):
                functions[stmt.name] = stmt
            elif _is_docstring(stmt):
                continue
            elif isinstance(stmt, ast.Expr) and _is_check_call(stmt.value, functions):
                assert isinstance(stmt.value, ast.Call)
                asserts += self._expand(stmt.value, functions)
            else:
                asserts += self._statement(stmt)
        if not asserts:
            raise _Opaque("no assert")
        for node in asserts:
            self._assert(node)
        for name, uses in self.inlined.items():
            if uses > 1 and not isinstance(ast.literal_eval(self.literals[name]), Hashable):
                raise _Opaque("a mutable set-up value given to the program twice")
        self.test.reference_setup = self._setup_for(self.reference_names)
        self.test.nan = asks_about_nan(code)
        return self.test

    def _names(self, node: ast.expr) -> set[str]:
        names = self._free.get(id(node))
        if names is None:
            names = self._free[id(node)] = free_names(node)
        return names

    # ---- statements

    def _statement(self, stmt: ast.stmt) -> list[ast.Assert]:
        if isinstance(stmt, ast.Assert):
            return [stmt]
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            self._add_setup(stmt, {(a.asname or a.name).split(".")[0] for a in stmt.names})
            return []
        if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
            if self._names(stmt.value) & (self._program_only | self.functions.keys()):
                raise _Opaque("set-up uses the program or a test function")
            targets = {t.id for t in stmt.targets if isinstance(t, ast.Name)}
            for name in targets & self.setup_names:
                self.literals.pop(name, None)  # bound twice: no single value to inline
            if len(targets) == 1 and not (targets & self.setup_names) and _is_literal(stmt.value):
                self.literals[next(iter(targets))] = stmt.value
            self._add_setup(stmt, targets)
            return []
        raise _Opaque(type(stmt).__name__)

    def _add_setup(self, stmt: ast.stmt, names: set[str]) -> None:
        self.setup.append(stmt)
        self.setup_names |= names

    def _expand(self, call: ast.Call, functions: dict[str, ast.FunctionDef]) -> list[ast.Assert]:
        assert isinstance(call.func, ast.Name)
        function = functions[call.func.id]
        param = function.args.args[0].arg
        self.subjects |= free_names(call.args[0])
        substitute = _Substitute(param, call.args[0])
        out: list[ast.Assert] = []
        for stmt in function.body:
            if _is_docstring(stmt):
                continue
            # After the substitution a set-up line that calls the candidate names the
            # program, which _statement refuses.
            out += self._statement(ast.fix_missing_locations(substitute.visit(stmt)))
        return out

    def _setup_for(self, names: set[str]) -> str:
        """The set-up statements that bind ``names``, and those they need in turn."""
        wanted = set(names)
        kept: list[ast.stmt] = []
        for stmt in reversed(self.setup):
            bound = _bound_by(stmt)
            if bound & wanted:
                kept.append(stmt)
                if isinstance(stmt, ast.Assign):
                    wanted |= free_names(stmt.value)
        return "\n".join(ast.unparse(s) for s in reversed(kept))

    # ---- asserts

    def _assert(self, node: ast.Assert) -> None:
        if self._names(node.test) & _IMPLICIT:
            # globals(), eval(...): names read without being written, the program's among
            # them, so no side can be told apart from the other.
            raise _Opaque("reads the namespace implicitly")
        source = ast.unparse(ast.Assert(test=node.test, msg=None))
        for check in self._checks(node.test, source):
            self.test.checks.append(check)

    def _checks(self, test: ast.expr, source: str) -> list[Check]:
        if self._is_expected(test):  # e.g. HumanEval's ``assert True``: no program in it
            return [Check("truthy", (self._expected(test),), source)]
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            return [c for value in test.values for c in self._checks(value, source)]
        if isinstance(test, ast.Compare):
            return self._compare(test, source)
        if isinstance(test, ast.Call) and _is_isclose(test.func):
            return [self._isclose(test, source)]
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            if isinstance(test.operand, _TRUTHY_NODES):
                return [Check("falsy", (self._program_side(test.operand),), source)]
            raise _Opaque("not of an operator")
        if isinstance(test, _TRUTHY_NODES):
            return [Check("truthy", (self._program_side(test),), source)]
        raise _Opaque(type(test).__name__)

    def _compare(self, test: ast.Compare, source: str) -> list[Check]:
        within = _within(test)
        if within is not None:
            a, b, op, tol = within
            return [
                Check(
                    f"within {op}",
                    (self._operand(a), self._operand(b), self._expected(tol)),
                    source,
                )
            ]
        nodes = [test.left, *test.comparators]
        ops = [_OPS[type(op)] for op in test.ops]
        for op, right in zip(ops, nodes[1:], strict=True):
            if op in ("is", "is not") and not _is_singleton(right):
                raise _Opaque("'is' against a value that is not None, True or False")
        operands = [self._operand(n) for n in nodes]
        return [Check(op, (operands[i], operands[i + 1]), source) for i, op in enumerate(ops)]

    def _isclose(self, call: ast.Call, source: str) -> Check:
        if len(call.args) != 2:
            raise _Opaque("isclose takes two positional values")
        tolerances = {"rel_tol": 1e-9, "abs_tol": 0.0}
        for keyword in call.keywords:
            if keyword.arg not in tolerances:
                raise _Opaque(f"isclose keyword {keyword.arg}")
            value = ast.literal_eval(keyword.value)
            if type(value) not in (int, float):
                raise _Opaque("isclose tolerance is not a number")
            tolerances[keyword.arg] = float(value)
        operands = (self._operand(call.args[0]), self._operand(call.args[1]))
        return Check("isclose", operands, source, tolerances["rel_tol"], tolerances["abs_tol"])

    # ---- operands

    @property
    def _program_only(self) -> frozenset[str]:
        """Program names the test does not rebind (its own imports and assignments win, as
        they did when the test ran after the program in one namespace)."""
        return self.program - self.setup_names

    def _is_expected(self, node: ast.expr) -> bool:
        names = self._names(node)
        return not (names & self._program_only) and names <= (BUILTIN_NAMES | self.setup_names)

    def _operand(self, node: ast.expr) -> Operand:
        if self._is_expected(node):
            return self._expected(node)
        return self._program_side(node)

    def _no_test_functions(self, node: ast.expr) -> None:
        if self._names(node) & self.functions.keys():
            raise _Opaque("a side that calls a function the test defines")

    def _expected(self, node: ast.expr) -> Operand:
        self._no_test_functions(node)
        if not self._is_expected(node):
            raise _Opaque("a tolerance that uses the program")
        if isinstance(node, ast.Name) and node.id in self.literals:
            return Operand("literal", value=ast.literal_eval(self.literals[node.id]))
        try:
            return Operand("literal", value=ast.literal_eval(node))
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            self.test.references.append(ast.unparse(node))
            self.reference_names |= self._names(node)
            return Operand("reference", len(self.test.references) - 1)

    def _program_side(self, node: ast.expr) -> Operand:
        self._no_test_functions(node)
        self.test.probes.append(ast.unparse(ast.fix_missing_locations(self._chain(node))))
        return Operand("program", len(self.test.probes) - 1)

    def _chain(self, node: ast.expr) -> ast.expr:
        """``node`` as a call chain the program's process may evaluate (a copy, with
        set-up literals inlined), or _Opaque."""
        if isinstance(node, ast.Name):
            if node.id in self.setup_names or (
                node.id in BUILTIN_NAMES and node.id not in self.subjects
            ):
                # The test's own object, or a builtin the program may have redefined: the
                # test process calls it with its own builtins.
                raise _Opaque(f"a chain that starts at {node.id}, not at the program")
            return ast.Name(node.id, ast.Load())
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("__") and node.attr.endswith("__"):
                raise _Opaque("a dunder of the program's value")
            return ast.Attribute(self._chain(node.value), node.attr, ast.Load())
        if isinstance(node, ast.Subscript):
            return ast.Subscript(self._chain(node.value), self._argument(node.slice), ast.Load())
        if isinstance(node, ast.Call):
            if any(k.arg is None for k in node.keywords):
                raise _Opaque("**arguments")
            return ast.Call(
                self._chain(node.func),
                [self._argument(a) for a in node.args],
                [ast.keyword(k.arg, self._argument(k.value)) for k in node.keywords],
            )
        raise _Opaque(f"{type(node).__name__} on the program's side")

    def _argument(self, node: ast.expr) -> ast.expr:
        """An argument or index of a call chain: a literal, or a set-up name bound to one."""
        if isinstance(node, ast.Slice):
            parts = (node.lower, node.upper, node.step)
            return ast.Slice(*(None if p is None else self._argument(p) for p in parts))
        if isinstance(node, ast.Name) and node.id in self.literals:
            self.inlined[node.id] = self.inlined.get(node.id, 0) + 1
            return copy.deepcopy(self.literals[node.id])
        if _is_literal(node):
            return copy.deepcopy(node)
        folded = _fold(node)
        if folded is not None:
            return folded
        raise _Opaque("an argument that is not a literal")


def _is_literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


_FOLDED_OPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_FOLD_LIMIT = 10_000  # elements or characters of a folded value; bits of an int


def _fold(node: ast.expr) -> ast.expr | None:
    """A constant expression of literals (``3 * 19``, ``'ab' + 'c'``, ``-2 ** 3``) as the
    literal it evaluates to, computed here on the host from Python's own operators with
    bounded sizes; None when it is anything else."""
    try:
        value = _constant(node, 0)
        folded = ast.parse(repr(value), mode="eval").body
    except (_Opaque, ArithmeticError, TypeError, ValueError, SyntaxError, RecursionError):
        return None
    return folded if _is_literal(folded) else None


def _constant(node: ast.expr, depth: int) -> Any:
    if depth > 20:
        raise _Opaque("deep")
    if _is_literal(node):
        return ast.literal_eval(node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _constant(node.operand, depth + 1)
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.List | ast.Tuple) and len(node.elts) <= _FOLD_LIMIT:
        items = [_constant(item, depth + 1) for item in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if not isinstance(node, ast.BinOp):
        raise _Opaque("not a constant")
    left, right = _constant(node.left, depth + 1), _constant(node.right, depth + 1)
    if isinstance(node.op, ast.Pow):
        bits = right * max(abs(left).bit_length(), 1) if type(left) is int else 0
        if type(right) is not int or type(left) not in (int, float) or right < 0:
            raise _Opaque("a power that is not a whole number's")
        if bits > _FOLD_LIMIT or (type(left) is float and right > 64):
            raise _Opaque("a power out of bounds")
        value = left**right
    elif type(node.op) in _FOLDED_OPS:
        sequence, count = (left, right) if type(right) is int else (right, left)
        repeated = isinstance(node.op, ast.Mult) and type(sequence) in (str, bytes, list, tuple)
        if repeated and (type(count) is not int or count * len(sequence) > _FOLD_LIMIT):
            raise _Opaque("a repetition too long")
        value = _FOLDED_OPS[type(node.op)](left, right)
    else:
        raise _Opaque("an operator not folded")
    if type(value) is int:
        size = value.bit_length()
    else:
        size = len(value) if type(value) in (str, bytes, list, tuple) else 0
    if size > _FOLD_LIMIT:
        raise _Opaque("a folded value too large")
    return value


_NAN = re.compile(r"\bnan\b|isnan", re.IGNORECASE)


def asks_about_nan(code: str) -> bool:
    """Whether a test asks about NaN: its code names it (``math.isnan``, ``float('nan')``,
    ``math.nan``, ``np.nan``, ``Decimal('NaN')``). Otherwise a NaN from the program fails
    the test: NaN compares false with everything, so ``if abs(f(x) - e) > tol: raise``
    or ``assert not f(x) < 0`` would hold for it."""
    return _NAN.search(code) is not None


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _is_check_call(node: ast.expr, functions: dict[str, ast.FunctionDef]) -> bool:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return False
    function = functions.get(node.func.id)
    if function is None or len(node.args) != 1 or node.keywords:
        return False
    params = function.args
    return (
        len(params.args) == 1
        and not (params.posonlyargs or params.kwonlyargs or params.vararg or params.kwarg)
        and not function.decorator_list
    )


def _bound_by(stmt: ast.stmt) -> set[str]:
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    if isinstance(stmt, ast.Assign):
        return {t.id for t in stmt.targets if isinstance(t, ast.Name)}
    return set()


def _is_isclose(func: ast.expr) -> bool:
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "isclose"
        and isinstance(func.value, ast.Name)
        and func.value.id == "math"
    )


def _is_abs(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id == "abs"
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "fabs"
        and isinstance(func.value, ast.Name)
        and func.value.id == "math"
    )


def _within(test: ast.Compare) -> tuple[ast.expr, ast.expr, str, ast.expr] | None:
    """``abs(a - b) < tol`` (or ``<=``, or ``math.fabs``) as (a, b, op, tol)."""
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Lt | ast.LtE):
        return None
    left = test.left
    if not (
        isinstance(left, ast.Call)
        and _is_abs(left.func)
        and len(left.args) == 1
        and not left.keywords
        and isinstance(left.args[0], ast.BinOp)
        and isinstance(left.args[0].op, ast.Sub)
    ):
        return None
    diff = left.args[0]
    assert isinstance(diff, ast.BinOp)
    return diff.left, diff.right, _OPS[type(test.ops[0])], test.comparators[0]


def _is_singleton(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and any(node.value is s for s in _SINGLETONS)


def opaque_names(code: str) -> list[str] | None:
    """The names an opaque test may read from the program: every name it reads that is not
    a builtin (a builtin the program redefines stays Python's own in the test). None, for
    all of the program's names, when the test reads ``globals()`` or ``vars()`` (KodCode's
    ``import solution`` becomes a namespace built from them)."""
    try:
        module = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    read = {
        n.id for n in ast.walk(module) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    if read & {"globals", "vars"}:
        return None
    return sorted(read - BUILTIN_NAMES)


class _PlainCompares(ast.NodeTransformer):
    """Every one-operator comparison becomes a call of the harness's plain comparison."""

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        # Identity cannot be overloaded, and ``obj is not None`` must keep working for
        # objects that are not plain data.
        if len(node.ops) != 1 or isinstance(node.ops[0], ast.Is | ast.IsNot):
            return node
        op = ast.Constant(_OPS[type(node.ops[0])])
        call = ast.Call(ast.Name(HOLDS, ast.Load()), [op, node.left, node.comparators[0]], [])
        return ast.copy_location(call, node)


class _PlainAsserts(ast.NodeTransformer):
    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        test = node.test
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            if isinstance(test.operand, _TRUTHY_NODES):
                inner = ast.Call(ast.Name(TRUTHY, ast.Load()), [test.operand], [])
                test = ast.UnaryOp(ast.Not(), inner)
        elif isinstance(test, _TRUTHY_NODES):
            test = ast.Call(ast.Name(TRUTHY, ast.Load()), [test], [])
        test = _PlainCompares().visit(test)
        return ast.copy_location(ast.Assert(test=test, msg=node.msg), node)


def rewrite_opaque(code: str) -> str:
    """An opaque test, ready for its test process (``python_harness.OpaqueTest``): its asserts
    judged on plain values, its code the body of
    ``__sandbox_test__(__sandbox_holds__, __sandbox_truthy__)``.

    Each one-operator comparison in an assert, ``A == B``, becomes
    ``__sandbox_holds__("==", A, B)``, false unless both sides are plain data and the
    relation holds by the rules of ``value_codec`` (a rigged ``__eq__`` or an ``int``
    subclass does not pass); a bare ``assert A`` asks for a plain truthy value. (The test
    process only ever holds plain values and references to program objects that refuse
    every comparison, so these keep what ``value_codec`` adds to Python's own rules: a
    ``bool`` is not an ``int``, a list is not a tuple.) Code that does not compile is left
    as it is (it fails when run)."""
    try:
        compile(code, "<test>", "exec")
        module = _PlainAsserts().visit(ast.parse(code))
        params = ast.arguments(
            posonlyargs=[],
            args=[ast.arg(HOLDS), ast.arg(TRUTHY)],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        )
        function = ast.FunctionDef(
            name=TEST_FUNCTION,
            args=params,
            body=module.body or [ast.Pass()],
            decorator_list=[],
            returns=None,
        )
        wrapped = ast.unparse(ast.fix_missing_locations(ast.Module([function], [])))
        compile(wrapped, "<test>", "exec")  # e.g. ``from m import *`` is refused in a function
        return wrapped
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return f"{code}\n\ndef {TEST_FUNCTION}(*_):\n    pass\n"
