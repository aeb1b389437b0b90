"""What results echo back of the judged text: whole when short, cut and counted when long."""

from __future__ import annotations

from services.echo import MAX_ANSWER_ECHO, preview


def test_short_text_and_none_come_back_whole() -> None:
    assert preview(None) is None
    assert preview("x" * MAX_ANSWER_ECHO) == "x" * MAX_ANSWER_ECHO


def test_long_text_is_cut_and_says_how_much_is_missing() -> None:
    assert preview("abcdefghij", limit=4) == "abcd… [6 more characters]"
    assert len(preview("y" * 1_000_000) or "") < MAX_ANSWER_ECHO + 40
