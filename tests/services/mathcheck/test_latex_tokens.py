"""The reader's tokens: every text splits into them and joins back exactly, and a backslash,
a brace or a row break is decided once."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from services.mathcheck import latex_tokens
from services.mathcheck.latex_tokens import (
    Kind,
    Token,
    closing_brace,
    is_word,
    join,
    rescan,
    strip,
    tokenize,
    top_level_parts,
    unwrap,
)
from services.mathcheck.structures import split_top_level

_LATEX_PIECES = st.sampled_from(
    ["\\", "\\\\", "{", "}", "\\{", "\\}", "\\frac", "\\,", " ", "\t", "\n", "x", "ab", "12", "٣",
     "π", "°", "^", "_", "(", ")", ",", "$", "\\text", "\\left(", "or", "~"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(_LATEX_PIECES, max_size=30).map("".join)))
def test_the_tokens_join_back_to_the_text(text: str) -> None:
    tokens = tokenize(text)
    assert join(tokens) == text
    assert all(token.text for token in tokens)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("\\frac{1}{2}", [("command", "\\frac"), ("symbol", "{"), ("digits", "1"), ("symbol", "}"),
                          ("symbol", "{"), ("digits", "2"), ("symbol", "}")]),
        ("x \\le 3", [("word", "x"), ("space", " "), ("command", "\\le"), ("space", " "),
                      ("digits", "3")]),
        # A row break is one command: the comma after it is no spacing command.
        ("1\\\\,2", [("digits", "1"), ("command", "\\\\"), ("symbol", ","), ("digits", "2")]),
        ("\\{1\\}", [("command", "\\{"), ("digits", "1"), ("command", "\\}")]),
        ("\\,x", [("command", "\\,"), ("word", "x")]),
        ("185\\", [("digits", "185"), ("command", "\\")]),
        ("3π°", [("digits", "3"), ("symbol", "π"), ("symbol", "°")]),
        ("10cm", [("digits", "10"), ("word", "cm")]),
    ],
)  # fmt: skip
def test_tokens_of_a_text(text: str, tokens: list[tuple[str, str]]) -> None:
    assert [(token.kind.value, token.text) for token in tokenize(text)] == tokens


def test_a_closing_brace_is_found_past_nested_ones_and_not_in_an_escaped_brace() -> None:
    tokens = tokenize("{a{b}\\}c}d")
    assert closing_brace(tokens, 0) == len(tokens) - 2
    assert closing_brace(tokenize("{a{b}"), 0) is None


@pytest.mark.parametrize(
    ("text", "index", "word", "alone"),
    [("x or y", 2, "or", True), ("1or 2", 1, "or", False), ("x_or", 2, "or", False),
     ("xor", 0, "or", False)],
)  # fmt: skip
def test_a_word_stands_alone_only_between_non_digits(
    text: str, index: int, word: str, alone: bool
) -> None:
    assert is_word(tokenize(text), index, word) is alone


def test_unwrap_takes_off_a_font_around_what_holds_no_brace() -> None:
    fonts = frozenset(("\\text",))
    assert join(unwrap(tokenize("5\\text{ cm}"), fonts)) == "5 cm"
    assert join(unwrap(tokenize("\\text{a{b}}"), fonts)) == "\\text{a{b}}"
    assert join(unwrap(tokenize("\\text{a\\}b}"), fonts)) == "\\text{a\\}b}"
    assert join(unwrap(tokenize("\\mathbf{v}"), fonts)) == "\\mathbf{v}"


def test_strip_takes_spaces_off_both_ends_only() -> None:
    assert strip(tokenize("  a b  ")) == [
        Token(Kind.WORD, "a"),
        Token(Kind.SPACE, " "),
        Token(Kind.WORD, "b"),
    ]


def test_a_long_text_is_scanned_without_being_kept() -> None:
    """A whole completion's tokens are not cached: millions of live tokens would slow every
    garbage collection after them."""
    long_text = "\\text{a} 1, " * 1_000
    before = latex_tokens._tokens.cache_info().currsize
    assert join(tokenize(long_text)) == long_text
    assert latex_tokens._tokens.cache_info().currsize == before
    assert join(tokenize("\\frac{1}{2}")) == "\\frac{1}{2}"
    assert latex_tokens._tokens.cache_info().currsize in (before, before + 1)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_LATEX_PIECES, max_size=30).map("".join),
    st.lists(st.integers(min_value=0, max_value=40), max_size=8),
)
def test_tokens_a_pass_took_some_out_of_are_those_of_their_text(
    text: str, taken: list[int]
) -> None:
    kept = [token for index, token in enumerate(tokenize(text)) if index not in taken]
    assert rescan(kept) == tokenize(join(kept))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(_LATEX_PIECES, max_size=30).map("".join)))
def test_top_level_parts_are_the_parts_of_the_text_between_its_top_level_separators(
    text: str,
) -> None:
    tokens = tokenize(text)
    # A spacing command holds a comma that is no separator: the text's parts would split it.
    assume(not any(token.kind is Kind.COMMAND and "," in token.text for token in tokens))
    parts = top_level_parts(tokens, ",")
    expected = split_top_level(text, ",")
    assert (None if parts is None else [join(part) for part in parts]) == expected
