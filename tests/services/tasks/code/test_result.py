"""A code judgement's wire components and echo, in-process."""

from __future__ import annotations

from dataclasses import replace

from services.echo import MAX_CODE_ECHO
from services.rewards.policy import NO_REWARD, Reward
from services.tasks.code.result import present_code
from tests.services.tasks.code.test_reward import code


def test_a_run_program_shows_its_tests() -> None:
    presented = present_code(code(1, 2, skipped=1), Reward(0.5, 0.5))
    assert presented.components == {
        "format": 1.0,
        "thinking": 0.0,
        "tests_total": 2.0,
        "tests_skipped": 1.0,
        "tests_given": 2.0,
        "tests_not_run": 0.0,
        "tests_capped": 0.0,
        "tests_passed": 1.0,
        "pass_fraction": 0.5,
        "answer": 0.5,
    }
    assert presented.extracted == "print(1)"


def test_a_program_the_sandbox_could_not_judge_shows_no_pass_count() -> None:
    presented = present_code(code(0, 2, judged=False), NO_REWARD)
    assert presented.components == {
        "format": 1.0,
        "thinking": 0.0,
        "tests_total": 2.0,
        "tests_skipped": 0.0,
        "tests_given": 2.0,
        "tests_not_run": 0.0,
        "tests_capped": 0.0,
    }


def test_tests_left_out_are_counted_and_whose_limit_it_was() -> None:
    presented = present_code(code(3, 3, not_run=5, capped=True), Reward(1.0, 1.0))
    components = presented.components
    assert (components["tests_total"], components["tests_given"]) == (3.0, 8.0)
    assert (components["tests_not_run"], components["tests_capped"]) == (5.0, 1.0)
    chosen = present_code(code(3, 3, not_run=5), Reward(2.0, 2.0)).components
    assert (chosen["tests_not_run"], chosen["tests_capped"]) == (5.0, 0.0)


def test_a_long_program_is_cut_in_the_echo_only() -> None:
    program = "x = 1\n" * MAX_CODE_ECHO
    presented = present_code(code(1, 1, program=program), Reward(2.0, 2.0))
    assert presented.extracted is not None and len(presented.extracted) < len(program)


def test_an_item_no_judge_looked_at_presents_nothing() -> None:
    presented = present_code(replace(code(0, 1), evidence=None), NO_REWARD)
    assert (presented.components, presented.extracted) == ({}, None)
