"""The service's own names: an item's task, the judge modes, an item's status and who
judged it, and the backends /ready reports. The wire contract
(:mod:`services.contract.protocol`) shows them; the pipeline below it reads them from here,
so no part of it imports the contract.
"""

from __future__ import annotations

from enum import StrEnum


class ExtractionPolicy(StrEnum):
    """Where the final answer of a completion may come from."""

    BOXED = "boxed"  # only \boxed{} / \fbox{}
    MARKED = "marked"  # \boxed{}, "#### x", "the answer is x", <answer> tags
    LENIENT = "lenient"  # marked, else several boxes joined, the last math, a bare answer


# The name of an item's task. The contract lists the built-in tasks; a task added at runtime
# (services.tasks.registry.register) adds its name with Task.add, and its results report that
# name. A former name (TASK_ALIASES) is read as the task it names now. (A comment, not a
# docstring: a docstring would become the schema's description.)
class Task(StrEnum):
    MATH = "math"
    CODE = "code"
    RUBRIC = "rubric"
    CRITIQUE = "critique"

    @classmethod
    def _missing_(cls, value: object) -> Task | None:
        if not isinstance(value, str):
            return None
        return TASK_ALIASES.get(value) or _ADDED_TASKS.get(value)

    @classmethod
    def add(cls, name: str) -> Task:
        """The name of a task added at runtime, as a value of this type. The built-in names
        are members; an added one is accepted wherever a task name is read, and is not
        listed in the OpenAPI document, which describes the built-in tasks."""
        known = _ADDED_TASKS.get(name) or cls._value2member_map_.get(name) or TASK_ALIASES.get(name)
        if isinstance(known, Task):
            return known
        added = str.__new__(cls, name)
        added._value_ = name
        added._name_ = name.upper()
        _ADDED_TASKS[name] = added
        return added


_ADDED_TASKS: dict[str, Task] = {}

# Former task names still accepted on the wire and in trainer configs, and the task each
# names now: 'grade' was the critique task's name until it was renamed (the /grade route,
# which grades one math answer, is another thing and keeps its name).
TASK_ALIASES: dict[str, Task] = {"grade": Task.CRITIQUE}


class Mode(StrEnum):
    RULE = "rule"
    ADDON = "addon"
    MIXED = "mixed"
    VERIFIER_ONLY = "verifier_only"

    @classmethod
    def _missing_(cls, value: object) -> Mode | None:
        # TinyV's name for verifier_only (its run scripts' VERIFIER_SETUP=tinyv_only).
        return cls.VERIFIER_ONLY if value == "tinyv_only" else None


class VerdictSource(StrEnum):
    """How the served model judges an answer inside the modes."""

    TINYV = "tinyv"  # a True/False verdict: a probability (logprobs) or text
    RUBRIC = "rubric"  # a graded critique ending in "Total Score: X/10": min(10, X)/10


class Status(StrEnum):
    OK = "ok"
    TIMEOUT = "timeout"
    ERROR = "error"
    UNAVAILABLE = "unavailable"


class Judge(StrEnum):
    RULE = "rule"
    VERIFIER = "verifier"
    NONE = "none"


# The backends /ready reports, by name; VERIFIER_REQUIRED_BACKENDS picks from these.
BACKENDS = ("math", "sandbox", "q", "llm_verifier", "canaries")
