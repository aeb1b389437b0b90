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

import re
from collections.abc import Iterable
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
    return [
        Token(_KINDS[match.lastgroup or "symbol"], match.group()) for match in _TOKEN.finditer(text)
    ]


def join(tokens: Iterable[Token]) -> str:
    return "".join(token.text for token in tokens)


SPACE = Token(Kind.SPACE, " ")


def symbol(text: str) -> Token:
    return Token(Kind.SYMBOL, text)


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


__all__ = [
    "SPACE",
    "Kind",
    "Token",
    "closing_brace",
    "has_braces",
    "join",
    "symbol",
    "tokenize",
    "without_spaces",
]
