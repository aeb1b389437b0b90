"""What an entry leaves out: a task without a route, backend or verification asks nothing of
any backend, and a judgement no judge looked at presents nothing."""

from __future__ import annotations

from services.protocol import GradeItem, Task
from services.tasks.entry import NOT_PRESENTED, no_demand
from services.tasks.grade.task import GRADE


def test_an_item_of_a_task_without_a_backend_asks_no_units() -> None:
    item = GradeItem(task=Task.GRADE, completion="Total Score: 7", reference=0.7)
    assert no_demand(item) == 0
    assert no_demand(None) == 0


def test_an_entry_that_names_only_its_parts_has_no_route_backend_or_verification() -> None:
    assert (GRADE.route, GRADE.backend, GRADE.verification) == (None, None, None)
    assert GRADE.demand is no_demand


def test_not_presented_shows_no_components_and_nothing_extracted() -> None:
    assert (NOT_PRESENTED.components, NOT_PRESENTED.extracted) == ({}, None)
