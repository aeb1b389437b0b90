"""Every request and response model of the HTTP API: this module is the contract."""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    field_validator,
)

from services.codecheck.test_formats import looks_like_test_data

# The test-format conversion is part of the contract: clients convert rows as a CodeItem does.
from services.codecheck.test_formats import to_test_specs as to_test_specs
from services.mathcheck.extraction import ExtractionPolicy


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


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RewardOptions(_Strict):
    """Per-request scoring options; every field has a default."""

    mode: Mode | None = Field(
        None,
        description="Judge mode ('tinyv_only' = verifier_only); the server default when omitted.",
    )
    verdict_source: VerdictSource | None = Field(
        None,
        description="How the LLM verifier judges: 'tinyv' (True/False) or 'rubric' (a critique "
        "ending in 'Total Score: X/10'); the server default when omitted.",
    )
    verifier_weight: float = Field(
        1.0, ge=0.0, le=1.0, description="Weight w of the LLM verifier in addon/mixed modes."
    )
    extraction: ExtractionPolicy | None = Field(
        None,
        description="Math answer extraction policy (boxed | marked | lenient); the server "
        "default (VERIFIER_EXTRACTION) when omitted.",
    )
    answer_after_reasoning: bool | None = Field(
        None,
        description="Math: search only the text after a closed reasoning block "
        "(<think>…</think>, <reasoning>…</reasoning>); a block left open is no answer. Off for "
        "models that write no such blocks; the server default "
        "(VERIFIER_ANSWER_AFTER_REASONING, on) when omitted.",
    )
    correct: float = Field(1.0, description="Reward for a correct answer.")
    wrong: float = Field(-1.0, description="Reward for a wrong answer.")
    no_answer: float = Field(-0.5, description="Reward when no final answer can be extracted.")
    answer_weight: float = Field(1.0, description="Weight of the answer component.")
    format_weight: float = Field(
        0.0,
        description="Weight of the tag-compliance score (<think>/<reasoning> then <answer>: 1, "
        "0.5 or 0); any number, like the other weights.",
    )
    thinking_weight: float = Field(
        0.0, description="Weight of the short-thinking penalty (component is 0 or -1)."
    )
    min_thinking_words: int = Field(
        20,
        ge=0,
        le=1_000_000,  # documented bound: pydantic refuses integers past 64 bits anyway
        description="Thinking sections with fewer words are penalised.",
    )
    base_weight: float = Field(1.0, description="Code: weight of the fraction of tests passed.")
    perfect_bonus: float = Field(1.0, description="Code: bonus when every test passes.")
    perfect_weight: float = Field(1.0, description="Code: weight of the perfect bonus.")
    empty_code_reward: float = Field(
        -0.5, description="Code: reward when the completion contains no code."
    )
    every_test: bool | None = Field(
        None,
        description="Code: run every test even after a program's first test timed out (by "
        "default the rest are skipped and count as failed); the server default when omitted.",
    )


class _ItemBase(_Strict):
    id: str | int | None = Field(None, description="Echoed back in the result.")
    prompt: str = Field("", description="The question the model answered.")
    completion: str = Field(description="The model's output.")


MAX_REFERENCE_CHARS = 100_000


def reference_text(value: Any) -> Any:
    """A math reference as text. A number is converted exactly, as datasets hold it: an int
    as its digits, a float as its ``repr`` (``0.1`` stays ``"0.1"``). A boolean is not a
    number, and NaN or an infinity is no answer; text passes as it is (the math judge says
    when it holds no answer)."""
    if value is None:
        raise ValueError("the reference is missing (null)")
    if isinstance(value, bool):
        raise ValueError(
            f"the reference is a boolean ({str(value).lower()}), not an answer; "
            "send the answer as text"
        )
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"the reference is {value}, not a finite number")
        return repr(value)
    return value


# A math reference on the wire: text, or a number read as its exact text.
Reference = Annotated[
    str,
    BeforeValidator(reference_text),
    WithJsonSchema(
        {"anyOf": [{"type": "string", "maxLength": MAX_REFERENCE_CHARS}, {"type": "number"}]}
    ),
]


class MathItem(_ItemBase):
    task: Literal[Task.MATH] = Task.MATH
    reference: Reference = Field(
        description="Ground-truth final answer: text, or a number (converted exactly: 4 is "
        '"4", 0.1 is "0.1"; a boolean, NaN or an infinity is an error). An empty reference, '
        "one with a control character, or one with no answer in it is an item error.",
        max_length=MAX_REFERENCE_CHARS,
    )

    @field_validator("reference")
    @classmethod
    def _not_code_tests(cls, reference: str) -> str:
        # A verl code row's ground_truth is JSON test data: judging it as a math answer
        # would hand out a plausible-looking reward for the wrong task.
        if looks_like_test_data(reference):
            raise ValueError("the reference is code test data; send the item as task 'code'")
        return reference


class TestSpec(_Strict):
    code: str | None = Field(None, description="Test code appended after the solution.")
    stdin: str | None = Field(None, description="Standard input for the program.")
    expected: str | None = Field(None, description="Expected standard output (stripped).")


class CodeItem(_ItemBase):
    task: Literal[Task.CODE]
    language: Literal["q", "python"]
    tests: Annotated[list[TestSpec], BeforeValidator(to_test_specs)] = Field(
        min_length=1,
        description="A list of {code?, stdin?, expected?}, or a dataset's own test format, "
        "converted on arrival: verl/PRIME or APPS/TACO inputs/outputs (fn_name for call-based "
        "tests; also as a JSON string or under input_output), LiveCodeBench test cases "
        "(testtype stdin/functional, func_name), HumanEval {test, entry_point}, MBPP assert "
        "lists or {test_list}, KodCode pytest source.",
    )
    max_tests: int | None = Field(
        None,
        ge=1,
        description="Run the first N tests. Default: all of them, up to the server's limit "
        "(VERIFIER_CODE_MAX_TESTS, 64); at most the server's ceiling "
        "(VERIFIER_CODE_MAX_TESTS_CEILING, 512). Tests left out are counted in the result "
        "(tests_not_run) and its detail says why; when the server's limit, not max_tests, "
        "left them out, the item earns no perfect bonus.",
    )
    timeout_s: float | None = Field(None, gt=0, le=60, description="Per-test timeout (default 1).")


class RubricItem(_ItemBase):
    task: Literal[Task.RUBRIC]
    reference: float = Field(ge=0.0, le=1.0, description="Target score in [0, 1].")
    rubric: str = Field("", description="Optional grading criteria shown to the grader.")


class CritiqueItem(_ItemBase):
    """Training a rubric reward model: the completion is the policy's own graded critique.
    'grade' is accepted as the task's former name; results name the task 'critique'."""

    task: Literal[Task.CRITIQUE, "grade"]
    reference: float = Field(ge=0.0, le=1.0, description="Target score in [0, 1].")

    @field_validator("task")
    @classmethod
    def _canonical_name(cls, task: str) -> Task:
        return Task(task)


AnyItem = MathItem | CodeItem | RubricItem | CritiqueItem
ScoreItem = Annotated[MathItem | CodeItem | RubricItem | CritiqueItem, Field(discriminator="task")]


class ScoreRequest(_Strict):
    """A batch: every item is scored independently; results come back in order."""

    items: list[ScoreItem]
    options: RewardOptions = Field(default_factory=RewardOptions)


class MathScoreRequest(_Strict):
    items: list[MathItem]
    options: RewardOptions = Field(default_factory=RewardOptions)


class CodeScoreRequest(_Strict):
    items: list[CodeItem]
    options: RewardOptions = Field(default_factory=RewardOptions)


class RewardModelRequest(BaseModel):
    """OpenRLHF's remote reward-model protocol (``--reward.remote_url``)."""

    model_config = ConfigDict(extra="ignore")  # OpenRLHF versions add fields freely
    query: list[str] = Field(description="Full texts: prompt followed by the response.")
    prompts: list[str] = Field(description="The prompts, so the response can be cut out.")
    labels: list[Any] | None = Field(
        None,
        description="The dataset's labels: a math reference (text, or a number converted "
        'exactly: 4 is "4", 0.1 is "0.1"), or code test data in any format a code item takes '
        "(scored as Python). A missing or empty label, a boolean, NaN, a label with a control "
        "character or with no answer in it is an error for that sample.",
    )
    options: RewardOptions = Field(default_factory=RewardOptions)


class RewardModelResponse(BaseModel):
    rewards: list[float] = Field(
        description="Reward per query; the no_answer reward where none could be given."
    )
    scores: list[float] = Field(description="Correctness in [0, 1] per query.")
    extra_logs: dict[str, list[float]] = Field(
        description="One number per query under a fixed set of keys: correct, no_answer, "
        "verifier (judged by the LLM verifier), error, unavailable, timeout (0 or 1)."
    )


class RubricScoreRequest(_Strict):
    items: list[RubricItem]
    options: RewardOptions = Field(default_factory=RewardOptions)


class ScoreResult(BaseModel):
    index: int = Field(description="Position of the item in the request.")
    id: str | int | None = None
    task: Task | None = None
    reward: float | None = Field(
        description="The reward; null only when the item could not be judged at all "
        "(malformed item, backend unavailable)."
    )
    status: Status
    judge: Judge = Field(description="Which judge decided the answer component.")
    components: dict[str, float] = Field(default_factory=dict)
    extracted: str | None = Field(None, description="The answer or code actually judged.")
    detail: str = Field("", description="Human-readable reason.")


class BatchSummary(BaseModel):
    items: int
    by_status: dict[str, int]
    mean_reward: float | None
    elapsed_s: float


class ScoreResponse(BaseModel):
    results: list[ScoreResult]
    summary: BatchSummary


class GradeRequest(_Strict):
    question: str = ""
    answer: str = Field(description="The answer to grade: a bare answer or a full solution.")
    reference: Reference = Field(
        description="Ground-truth answer: text, or a number (converted exactly).",
        max_length=MAX_REFERENCE_CHARS,
    )
    mode: Mode | None = None
    verdict_source: VerdictSource | None = None
    verifier_weight: float = Field(1.0, ge=0.0, le=1.0)
    extraction: ExtractionPolicy | None = Field(
        None, description="Answer extraction policy; lenient when omitted."
    )


class GradeResponse(BaseModel):
    correct: bool | None = Field(description="null when no verdict could be reached.")
    status: Status
    method: Judge = Field(description="Which judge decided: rule or verifier.")
    probability: float | None = Field(
        None, description="The LLM verifier's P(correct), when it was asked."
    )
    extracted_answer: str | None
    extracted_reference: str | None
    explanation: str


class HealthResponse(BaseModel):
    status: Literal["ok"] = "ok"
    version: str


# The backends /ready reports, by name; VERIFIER_REQUIRED_BACKENDS picks from these.
BACKENDS = ("math", "sandbox", "q", "llm_verifier", "canaries")


class BackendStatus(BaseModel):
    ok: bool
    detail: str


class ReadyResponse(BaseModel):
    ready: bool = Field(
        description="True when every backend in `required` works and no queue is full "
        "(backend `queue`)."
    )
    required: list[str] = Field(description="The backends this replica must have to be ready.")
    backends: dict[str, BackendStatus]


class ErrorResponse(BaseModel):
    detail: str | list[dict[str, object]]


class BatchEnvelope(BaseModel):
    """The body of the batch routes, checked strictly; each item is validated on its own
    while it is scored, so one bad item cannot fail the batch."""

    model_config = ConfigDict(extra="forbid")
    items: list[Any]
    options: RewardOptions = Field(default_factory=RewardOptions)
