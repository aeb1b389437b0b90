"""Every request and response model of the HTTP API: this module is the contract."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

# The test-format conversion is part of the contract: clients convert rows as a CodeItem does.
from services.codecheck.test_formats import to_test_specs as to_test_specs
from services.domain import BACKENDS as BACKENDS
from services.domain import TASK_ALIASES as TASK_ALIASES
from services.domain import ExtractionPolicy as ExtractionPolicy
from services.domain import Judge as Judge
from services.domain import Mode as Mode
from services.domain import Status as Status
from services.domain import Task as Task
from services.domain import VerdictSource as VerdictSource
from services.tasks.items import ItemBase, Strict, TaskWire
from services.tasks.math.wire import MAX_REFERENCE_CHARS, Reference
from services.tasks.math.wire import reference_text as reference_text
from services.tasks.policy import DEFAULTS, ScoringPolicy, ServerDefaults
from services.tasks.registry import wires


class RewardOptions(Strict):
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

    def to_policy(self, defaults: ServerDefaults = DEFAULTS) -> ScoringPolicy:
        """These options as the pipeline reads them: one frozen policy, the server's
        ``defaults`` in place of every option left out."""
        return defaults.resolve(**dict(self))


# An item of any task the registry lists: its ``task`` field names the item model that reads
# it (services/tasks/<task>/wire.py).
if TYPE_CHECKING:
    ScoreItem = ItemBase
else:
    ScoreItem = Annotated[Union[tuple(w.item for w in wires())], Field(discriminator="task")]  # noqa: UP007


class ScoreRequest(Strict):
    """A batch: every item is scored independently; results come back in order."""

    items: list[ScoreItem]
    options: RewardOptions = Field(default_factory=RewardOptions)


# The name of a task the trainer can train on: a registered task whose wire side builds
# an item from a training row (math, code, critique, choice).
if TYPE_CHECKING:
    TrainableTask = str
else:
    TrainableTask = Literal[tuple(w.name.value for w in wires() if w.row_fields is not None)]


def task_wire(name: str) -> TaskWire:
    """A task's wire side by its name (a former name gives the task it names now): its
    item model and how a training row becomes one of its items."""
    task = Task(name)
    return next(wire for wire in wires() if wire.name is task)


def _typed_request(name: str, item: type[ItemBase]) -> type[Strict]:
    """A task's typed batch body: ``{items: [<its item>], options}``."""
    fields: Any = {
        "items": (list[item], ...),  # type: ignore[valid-type]
        "options": (RewardOptions, Field(default_factory=RewardOptions)),
    }
    return create_model(name, __base__=Strict, __module__=__name__, **fields)


# The typed batch bodies (``MathScoreRequest``, ...), by task, of the tasks that have a
# typed route.
TYPED_REQUESTS: dict[Task, type[Strict]] = {
    w.name: _typed_request(w.route.body, w.item) for w in wires() if w.route is not None
}


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


class GradeRequest(Strict):
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
