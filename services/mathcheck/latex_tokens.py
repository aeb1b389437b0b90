"""The reader's first stage: an answer's text as a list of tokens.

Every reader of an answer starts from these tokens, so that what a backslash, a brace or
a run of spaces is, is decided once:

```text
token   := space | command | word | digits | symbol
space   := one or more white-space characters
command := "\\" (letters | any one character | nothing at the end of the text)
word    := one or more ASCII letters
digits  := one or more decimal digits (Unicode's, as Python's ``\\d``)
symbol  := any other one character ("{", "(", "^", "°", "π", "≤" ...)
```

``\\frac`` is one command, ``\\{`` and ``\\,`` are commands too (a backslash and one
character), ``\\\\`` (a row break) is one command, so the character after it is never read
as a command of its own. Joining the tokens' texts gives the text back exactly.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    SPACE = "space"
    COMMAND = "command"
    WORD = "word"
    DIGITS = "digits"
    SYMBOL = "symbol"


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    text: str

    def is_symbol(self, *texts: str) -> bool:
        return self.kind is Kind.SYMBOL and self.text in texts

    def is_command(self, *names: str) -> bool:
        return self.kind is Kind.COMMAND and self.text in names

    @property
    def named(self) -> bool:
        """A command named by letters (``\\frac``, ``\\pi``; not ``\\,`` or ``\\\\``)."""
        return self.kind is Kind.COMMAND and self.text[1:].isascii() and self.text[1:].isalpha()


# The one pattern of the reader: it locates tokens, in the order of the grammar above.
_TOKEN = re.compile(
    r"(?P<space>\s+)|(?P<command>\\(?:[A-Za-z]+|.)?)|(?P<word>[A-Za-z]+)|(?P<digits>\d+)"
    r"|(?P<symbol>.)",
    re.DOTALL,
)
_KINDS = {
    "space": Kind.SPACE,
    "command": Kind.COMMAND,
    "word": Kind.WORD,
    "digits": Kind.DIGITS,
    "symbol": Kind.SYMBOL,
}


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``; ``join(tokenize(text)) == text``."""
    if len(text) > _CACHED_LENGTH:
        return list(_scan(text))
    return list(_tokens(text))


# Each reader of an answer starts from its tokens, and a group's completions share answers:
# each text is scanned once while it is in use. A longer text (a whole completion, a flood)
# is scanned each time: millions of tokens kept alive would slow every garbage collection.
_CACHED_LENGTH = 4096


@functools.lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[Token, ...]:
    return tuple(_scan(text))


def _scan(text: str) -> Iterator[Token]:
    for match in _TOKEN.finditer(text):
        yield Token(_KINDS[match.lastgroup or "symbol"], match.group())


def join(tokens: Iterable[Token]) -> str:
    return "".join(token.text for token in tokens)


def rescan(tokens: list[Token]) -> list[Token]:
    """The tokens a scan of ``join(tokens)`` gives: ``tokens`` themselves, unless two of them
    run together (a pass took out what stood between them: "2 \\, 000" less its space
    command is "2  000", one space between the digits)."""
    for before, after in itertools.pairwise(tokens):
        if run_together(before, after):
            return tokenize(join(tokens))
    return tokens


_RUNS = (Kind.SPACE, Kind.WORD, Kind.DIGITS)


def run_together(before: Token, after: Token) -> bool:
    """Whether the scanner reads ``before`` and ``after``, side by side, as other tokens."""
    if before.kind is Kind.COMMAND:
        return before.text == "\\" or (before.named and after.kind is Kind.WORD)
    return before.kind is after.kind and before.kind in _RUNS


SPACE = Token(Kind.SPACE, " ")
# The spacing commands: each stands for a space ("~" too, a symbol).
SPACING = frozenset(("\\,", "\\;", "\\:", "\\!", "\\ ", "\\quad", "\\qquad"))


def is_spacing(token: Token) -> bool:
    """A space, a spacing command or "~"."""
    return token.kind is Kind.SPACE or token.text in SPACING or token.is_symbol("~")


def without_spacing(tokens: list[Token]) -> list[Token]:
    """``tokens`` without the spacing at either end (``strip`` for spacing commands too)."""
    start, end = 0, len(tokens)
    while end and is_spacing(tokens[end - 1]):
        end -= 1
    while start < end and is_spacing(tokens[start]):
        start += 1
    return tokens[start:end]


def symbol(text: str) -> Token:
    return Token(Kind.SYMBOL, text)


def spaces_end(text: str, start: int) -> int:
    """The end of the white space at ``start`` in ``text`` (``start`` when there is none):
    for the scanners that read characters (a plain number's grammar)."""
    while start < len(text) and text[start].isspace():
        start += 1
    return start


def without_spaces(tokens: list[Token]) -> list[Token]:
    return [token for token in tokens if token.kind is not Kind.SPACE]


def closing_brace(tokens: list[Token], opening: int) -> int | None:
    """The index of the ``}`` that closes the ``{`` at ``opening``; None if none does."""
    depth = 0
    for index in range(opening, len(tokens)):
        if tokens[index].is_symbol("{"):
            depth += 1
        elif tokens[index].is_symbol("}"):
            depth -= 1
            if depth == 0:
                return index
    return None


def has_braces(tokens: Iterable[Token]) -> bool:
    """Whether any token holds a brace (``\\{`` included)."""
    return any("{" in token.text or "}" in token.text for token in tokens)


def skip_spaces(tokens: list[Token], index: int) -> int:
    """The index of the first token from ``index`` on that is not a space."""
    while index < len(tokens) and tokens[index].kind is Kind.SPACE:
        index += 1
    return index


def rstrip(tokens: list[Token]) -> list[Token]:
    end = len(tokens)
    while end and tokens[end - 1].kind is Kind.SPACE:
        end -= 1
    return tokens[:end]


def strip(tokens: list[Token]) -> list[Token]:
    return rstrip(tokens[skip_spaces(tokens, 0) :])


# The math delimiters an answer may be written between.
_DELIMITERS = frozenset(("\\(", "\\)", "\\[", "\\]", "$"))


def without_delimiters(tokens: list[Token]) -> list[Token]:
    """``tokens`` without the math delimiters (``$``, ``\\(``, ``\\[``) and the spaces
    around them."""
    tokens = strip(tokens)
    while tokens and (tokens[0].text in _DELIMITERS or tokens[-1].text in _DELIMITERS):
        start = 1 if tokens[0].text in _DELIMITERS else 0
        end = len(tokens) - (len(tokens) > start and tokens[-1].text in _DELIMITERS)
        tokens = strip(tokens[start:end])
    return tokens


def answer_tokens(text: str) -> list[Token]:
    """The tokens of an answer without the math delimiters and spaces around it: what the
    readers read (``reading.read``) and normalisation starts from."""
    return without_delimiters(tokenize(text))


def is_letter(token: Token) -> bool:
    """One ASCII letter: the name of an unknown."""
    return token.kind is Kind.WORD and len(token.text) == 1


def name_end(tokens: list[Token], index: int) -> int | None:
    """The end of the name of an unknown at ``index``: "x", "x_1", "x_{12}", "f_{\\min}";
    None if none."""
    if index >= len(tokens) or not is_letter(tokens[index]):
        return None
    index += 1
    if index < len(tokens) and tokens[index].is_symbol("_"):
        position = index + 1
        braced = position < len(tokens) and tokens[position].is_symbol("{")
        position += braced
        start = position
        while position < len(tokens) and (
            tokens[position].kind in (Kind.WORD, Kind.DIGITS)
            or tokens[position].is_symbol("_")
            or (braced and tokens[position].is_command(*_INDEX_COMMANDS))
        ):
            position += 1
        if position > start:
            index = position + (position < len(tokens) and tokens[position].is_symbol("}"))
    return index


# The commands an index names in a name: "f_{\\min}", "A_{\\max}".
_INDEX_COMMANDS = ("\\min", "\\max")


def is_word(tokens: list[Token], index: int, *words: str) -> bool:
    """Whether ``tokens[index]`` is one of ``words`` standing alone: not run into digits or
    an underscore ("1or" is no "or")."""
    if index >= len(tokens) or tokens[index].kind is not Kind.WORD:
        return False
    if tokens[index].text not in words:
        return False
    return all(
        not (0 <= near < len(tokens))
        or (tokens[near].kind is not Kind.DIGITS and not tokens[near].is_symbol("_"))
        for near in (index - 1, index + 1)
    )


def plain_group(tokens: list[Token], index: int) -> tuple[int, int] | None:
    """The braces of ``{...}`` at ``index`` (after spaces), when what they hold has no brace
    of its own: ``\\text{ cm}``'s group, not ``\\text{a{b}}``'s; None otherwise."""
    opening = skip_spaces(tokens, index)
    if opening >= len(tokens) or not tokens[opening].is_symbol("{"):
        return None
    closing = closing_brace(tokens, opening)
    if closing is None or has_braces(tokens[opening + 1 : closing]):
        return None
    return opening, closing


def degree_sign_end(tokens: list[Token], index: int) -> int | None:
    """The end of "°", "^\\circ" or "^{\\circ}" at ``index`` (spaces after ``\\circ``
    included); None if no degree sign starts there."""
    if index < len(tokens) and tokens[index].is_symbol("°"):
        return index + 1
    if index >= len(tokens) or not tokens[index].is_symbol("^"):
        return None
    index = skip_spaces(tokens, index + 1)
    if index < len(tokens) and tokens[index].is_symbol("{"):
        index = skip_spaces(tokens, index + 1)
    if index >= len(tokens) or not tokens[index].is_command("\\circ"):
        return None
    after = skip_spaces(tokens, index + 1)
    return after + 1 if after < len(tokens) and tokens[after].is_symbol("}") else after


# Brackets that nest, as a symbol or an escaped brace (``\\{``); a math delimiter
# (``\\(``, ``\\[``) nests too, as in the text it stands in.
_OPENING = frozenset(("{", "(", "[", "\\{", "\\(", "\\["))
_CLOSING = frozenset(("}", ")", "]", "\\}", "\\)", "\\]"))


def top_level_parts(tokens: list[Token], separator: str) -> list[list[Token]] | None:
    """The parts of ``tokens`` between the ``separator`` symbols outside every bracket
    (``{}``, ``()``, ``[]``); None where the brackets do not pair."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        if depth == 0 and token.is_symbol(separator):
            parts.append([])
            continue
        depth += nesting(token)
        if depth < 0:
            return None
        parts[-1].append(token)
    return parts if depth == 0 else None


def nesting(token: Token) -> int:
    """1 for a bracket that opens, -1 for one that closes, else 0."""
    return 1 if token.text in _OPENING else -1 if token.text in _CLOSING else 0


def unwrap(tokens: list[Token], fonts: frozenset[str], spaced: bool = False) -> list[Token]:
    """ "\\text{cm}" -> "cm": each of ``fonts`` around what holds no brace, taken off;
    ``spaced``: what it held, without the spaces around it, after a space ("5\\text{ cm}"
    -> "5 cm", as words)."""
    if not any(token.text in fonts for token in tokens):
        return tokens
    kept: list[Token] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        group = plain_group(tokens, index) if token.is_command(*fonts) else None
        if group is not None:
            inner = tokens[group[0] + 1 : group[1]]
            kept.extend((SPACE, *strip(inner)) if spaced else inner)
            index = group[1] + 1
            continue
        kept.append(token)
    return kept


__all__ = [
    "SPACE",
    "SPACING",
    "Kind",
    "Token",
    "closing_brace",
    "degree_sign_end",
    "has_braces",
    "is_letter",
    "is_spacing",
    "is_word",
    "join",
    "name_end",
    "nesting",
    "plain_group",
    "rescan",
    "rstrip",
    "skip_spaces",
    "spaces_end",
    "strip",
    "symbol",
    "tokenize",
    "top_level_parts",
    "unwrap",
    "without_spaces",
    "without_spacing",
]
