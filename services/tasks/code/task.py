"""The code task's registry entry."""

from __future__ import annotations

from services.admission import Backend
from services.protocol import CodeItem, CodeScoreRequest, Task
from services.tasks.code.evidence import CodeEvidence
from services.tasks.code.result import present_code
from services.tasks.code.reward import code_reward
from services.tasks.code.selection import TestLimits
from services.tasks.entry import BatchRoute, JudgeParts, TaskEntry
from services.tasks.judging import TaskJudge, Unavailable

CODE_DISABLED = "code execution is not enabled on this server"


def _judge(parts: JudgeParts) -> TaskJudge:
    return parts.code if parts.code is not None else Unavailable(CODE_DISABLED)


def _tests_run(item: CodeItem) -> int:
    """The sandbox runs every test a code item takes, under the default limits (a server
    with a sandbox counts with its code judge, which knows the server's own)."""
    return len(TestLimits().select(item).tests)


CODE: TaskEntry[CodeEvidence] = TaskEntry(
    name=Task.CODE,
    item=CodeItem,
    judge=_judge,
    reward=code_reward,
    present=present_code,
    route=BatchRoute("/score/code", CodeScoreRequest, "code items (task optional)"),
    backend=Backend.SANDBOX,
    demand=_tests_run,
)
