"""Which of a code item's tests run: all of them, up to a limit, and never silently fewer.

An item runs every test it gives, up to the server's limit (``VERIFIER_CODE_MAX_TESTS``,
64). Its own ``max_tests`` sets another limit, lower or higher, but never above the server's
ceiling (``VERIFIER_CODE_MAX_TESTS_CEILING``, 512), so one request cannot fill the sandbox.
Tests past the limit do not run, and the selection says how many and why.

Whose limit it was matters for the reward. An item that asked for its first N tests (seed
003's ``--max_tests_per_problem``) chose its test set: passing all N earns the perfect
bonus. An item cut by the server's limit did not: its passing the tests that ran is not
passing its tests, so it earns no perfect bonus and is not correct.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.tasks.code.wire import CodeItem, TestSpec

DEFAULT_MAX_TESTS = 64
MAX_TESTS_CEILING = 512


@dataclass(frozen=True, slots=True)
class Selection:
    """The tests of an item that run, and why the others (if any) do not."""

    tests: list[TestSpec]  # the first ones, in order
    given: int  # the item's tests
    # Tests were left out by the server's limit, not by the item's own max_tests.
    capped: bool
    reason: str  # why tests were left out; "" when none were

    @property
    def not_run(self) -> int:
        return self.given - len(self.tests)


@dataclass(frozen=True, slots=True)
class TestLimits:
    """The server's limits on the tests of one item."""

    __test__ = False  # not a pytest class, whatever its name

    default: int = DEFAULT_MAX_TESTS  # without max_tests
    ceiling: int = MAX_TESTS_CEILING  # the most, whatever max_tests says

    def select(self, item: CodeItem) -> Selection:
        """The item's first tests, as many as its limit allows."""
        given = len(item.tests)
        asked = item.max_tests
        if asked is not None and asked <= self.ceiling:
            limit, capped = asked, False
            reason = f"the item's max_tests is {asked}"
        elif asked is not None:
            limit, capped = self.ceiling, True
            reason = f"the item's max_tests ({asked}) is above the server's ceiling of {limit}"
        else:
            limit, capped = min(self.default, self.ceiling), True
            reason = (
                f"the server's limit is {limit} tests per item; the item's max_tests raises it, "
                f"up to {self.ceiling}"
            )
        if given <= limit:
            return Selection(list(item.tests), given, capped=False, reason="")
        return Selection(item.tests[:limit], given, capped, reason)
