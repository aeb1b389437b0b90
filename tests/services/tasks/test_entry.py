"""What an entry leaves out: a task without a route, backend or verification asks nothing of
any backend, and a judgement no judge looked at presents nothing."""

from __future__ import annotations

from services.contract.protocol import Task
from services.tasks.critique.task import ENTRY as CRITIQUE
from services.tasks.critique.wire import CritiqueItem
from services.tasks.entry import NOT_PRESENTED, no_demand


def test_an_item_of_a_task_without_a_backend_asks_no_units() -> None:
    item = CritiqueItem(task=Task.CRITIQUE, completion="Total Score: 7", reference=0.7)
    assert no_demand(item) == 0
    assert no_demand(None) == 0


def test_an_entry_that_names_only_its_parts_has_no_route_backend_or_verification() -> None:
    assert (CRITIQUE.route, CRITIQUE.backend, CRITIQUE.verification) == (None, None, None)
    assert CRITIQUE.demand is no_demand


def test_not_presented_shows_no_components_and_nothing_extracted() -> None:
    assert (NOT_PRESENTED.components, NOT_PRESENTED.extracted) == ({}, None)
