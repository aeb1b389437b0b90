"""Mathematics said in words, read as the notation it stands for.

Answers rewritten in prose say ``x is at least 5`` for ``x \\ge 5`` (the bound may be in
math delimiters and name what it counts: ``at least $7$ boxes``; ``exactly 7`` is
``x = 7``), ``between -1 and 1 inclusive`` for ``[-1, 1]``, ``all real numbers except 3``
for ``x \\ne 3``, and hedge a rounding (``approximately 1.4142``), name a chance (``1 in 4
chance``) or the kind of an object (``the line y = 2``). Each phrase is read only when the
whole answer is that phrase, so a sentence that merely contains "at least" is left alone,
and only in an answer of up to 300 characters.

A phrase is read from the answer's tokens, word by word, in this grammar (words in any
case but ``from ... to``; ``_`` is one or more spaces, a space inside a quoted phrase is one
space):

```text
phrase     := "the" _ kind _ rest                      the object alone
            | subject? comparison _ "$"? number "$"? (_ word)?   not "or", "and"
            | subject? "between" _ number _ "and" _ number ((",")? _ "inclusive")?
            | subject? "from" _ number _ "to" _ number
            | ("all" _)? "real" _ "numbers" _ ("except" | "other" _ "than" | "but") _ number
            | hedge _? rest
            | (("a" | "an") _)? rest _ ("chance" | "probability" | "likelihood")
subject    := letter _ ("is" | "must" _ "be") _
            | ("all" _)? ("real" _)? ("numbers" | "values") (_ "of" _ letter)? _ ("that" _ "are" _)?
number     := ("+" | "-")? digits ("." digits)? ("/" digits)?
comparison := "exactly" | "at least" | "no less than" | "greater than or equal to" | ...
hedge      := "approximately" | "approx" "."? | "about" | "roughly" | "around" | "\\approx"
```
"""

from __future__ import annotations

from collections.abc import Iterator

from services.mathcheck.latex_tokens import (
    Kind,
    Token,
    join,
    rescan,
    strip,
    tokenize,
    unwrap,
)
from services.mathcheck.vocabulary import TEXT_FONTS

# "x is at least 5", "greater than 2", "all real numbers less than 3".
_COMPARISONS = {
    "exactly": "=",
    "at least": "\\ge",
    "no less than": "\\ge",
    "greater than or equal to": "\\ge",
    "at most": "\\le",
    "no more than": "\\le",
    "less than or equal to": "\\le",
    "greater than": ">",
    "more than": ">",
    "less than": "<",
    "fewer than": "<",
}
# The longest first: "greater than or equal to" before "greater than".
_SPELLINGS = tuple(
    tuple(phrase.split(" ")) for phrase in sorted(_COMPARISONS, key=len, reverse=True)
)
# A comparison with no unknown named ("at least 7"), as the interval of values it says.
_INTERVALS = {
    "\\ge": "[{bound}, \\infty)",
    ">": "({bound}, \\infty)",
    "\\le": "(-\\infty, {bound}]",
    "<": "(-\\infty, {bound})",
}
# "the line y = 2", "the point (1, 2)": the object's kind before the object.
_KINDS = frozenset(
    ("line", "curve", "plane", "point", "circle", "parabola", "graph", "function", "equation")
)
# "approximately 1.4142", "about 3.14", "\\approx 1.414": the rounding is the answer.
_HEDGES = frozenset(("approximately", "approx", "about", "roughly", "around"))
# "25% chance", "a 1/4 probability", "1 in 4 chance": the chance is the number.
_CHANCES = frozenset(("chance", "probability", "likelihood"))

# A phrase is looked for in texts up to this long: no phrase is longer, and a whole
# completion (lenient extraction asks) is not scanned for one.
_PHRASE_LENGTH = 300


def _word(tokens: list[Token], index: int, words: tuple[str, ...], fold: bool = True) -> int:
    """The index after the words ``words`` at ``index``, one space apart, or -1."""
    if index < 0:
        return -1
    for position, word in enumerate(words):
        if position:
            if index >= len(tokens) or tokens[index] != _ONE_SPACE:
                return -1
            index += 1
        token = tokens[index] if index < len(tokens) else None
        if token is None or token.kind is not Kind.WORD:
            return -1
        if (token.text.lower() if fold else token.text) != word:
            return -1
        index += 1
    return index


_ONE_SPACE = Token(Kind.SPACE, " ")


def _space(tokens: list[Token], index: int) -> int:
    """The index after the spaces at ``index``, or -1 if there are none."""
    return index + 1 if 0 <= index < len(tokens) and tokens[index].kind is Kind.SPACE else -1


def _then(tokens: list[Token], index: int, *words: str, fold: bool = True) -> int:
    """The index after ``words``, each followed by spaces, or -1."""
    for word in words:
        index = _space(tokens, _word(tokens, index, (word,), fold)) if index >= 0 else -1
    return index


def _symbol(tokens: list[Token], index: int, *texts: str) -> int:
    """The index after a symbol of ``texts`` at ``index``, else ``index``."""
    found = 0 <= index < len(tokens) and tokens[index].is_symbol(*texts)
    return index + 1 if found else index


def _number(tokens: list[Token], index: int) -> tuple[str, int] | None:
    """A number written plainly at ``index``: a sign, digits, a decimal part, a divisor."""
    if index < 0:
        return None
    start, index = index, _symbol(tokens, index, "+", "-")
    if index >= len(tokens) or tokens[index].kind is not Kind.DIGITS:
        return None
    index += 1
    for separator in (".", "/"):
        after = _symbol(tokens, index, separator)
        if after > index and after < len(tokens) and tokens[after].kind is Kind.DIGITS:
            index = after + 1
    return join(tokens[start:index]), index


def _subjects(tokens: list[Token], fold: bool) -> Iterator[tuple[int, str | None]]:
    """Where a subject the phrase may start with ends, and its unknown, in the order the
    grammar tries them; no subject last."""
    if tokens and tokens[0].kind is Kind.WORD and len(tokens[0].text) == 1:
        for verb in (("is",), ("must", "be")):
            end = _then(tokens, _space(tokens, 1), *verb, fold=fold)
            if end > 0:
                yield end, tokens[0].text
    index = max(_then(tokens, 0, "all", fold=fold), 0)
    index = max(_then(tokens, index, "real", fold=fold), index)
    named = max(_word(tokens, index, ("numbers",), fold), _word(tokens, index, ("values",), fold))
    if named > 0:
        ends = []
        of = _then(tokens, _space(tokens, named), "of", fold=fold)
        if 0 < of < len(tokens) and tokens[of].kind is Kind.WORD and len(tokens[of].text) == 1:
            ends.append(of + 1)
        ends.append(named)
        for end in ends:
            after = _space(tokens, end)
            if after > 0:
                that_are = _then(tokens, after, "that", "are", fold=fold)
                if that_are > 0:
                    yield that_are, None
                yield after, None
    yield 0, None


def _comparison(tokens: list[Token]) -> list[Token] | None:
    for start, variable in _subjects(tokens, fold=True):
        for spelling in _SPELLINGS:
            index = _space(tokens, _word(tokens, start, spelling))
            if index < 0:
                continue
            number = _number(tokens, _symbol(tokens, index, "$"))
            if number is None:
                continue
            bound, end = number[0], _symbol(tokens, number[1], "$")
            counted = _space(tokens, end)
            if counted > 0 and counted == len(tokens) - 1:
                word = tokens[counted]
                if word.kind is Kind.WORD and word.text.lower() not in ("or", "and"):
                    end = len(tokens)
            if end != len(tokens):
                continue
            relation = _COMPARISONS[" ".join(spelling)]
            if variable is None and relation != "=":
                # No unknown named: the values it says, whatever the other side calls them.
                return tokenize(_INTERVALS[relation].format(bound=bound))
            return tokenize(f"{variable or 'x'} {relation} {bound}")
    return None


def _range(tokens: list[Token]) -> list[Token] | None:
    """ "between -1 and 1 (inclusive)", "from -1 to 1"."""
    for first, last, fold in (("between", "and", True), ("from", "to", False)):
        for start, variable in _subjects(tokens, fold):
            at = _then(tokens, start, first, fold=fold)
            low = _number(tokens, at) if at > 0 else None
            at = _then(tokens, _space(tokens, low[1]), last, fold=fold) if low else -1
            high = _number(tokens, at) if at > 0 else None
            if low is None or high is None:
                continue
            end, inclusive = high[1], first == "from"
            if first == "between" and end < len(tokens):
                said = _word(tokens, _space(tokens, _symbol(tokens, end, ",")), ("inclusive",))
                end, inclusive = (said, True) if said == len(tokens) else (end, False)
            if end != len(tokens):
                continue
            if variable is None:
                opening, closing = ("[", "]") if inclusive else ("(", ")")
                return tokenize(f"{opening}{low[0]}, {high[0]}{closing}")
            relation = "\\le" if inclusive else "<"
            return tokenize(f"{low[0]} {relation} {variable} {relation} {high[0]}")
    return None


def _all_but(tokens: list[Token]) -> list[Token] | None:
    """ "all real numbers except 3"."""
    start = max(_then(tokens, 0, "all"), 0)
    index = _then(tokens, start, "real", "numbers")
    for words in (("except",), ("other", "than"), ("but",)):
        after = _then(tokens, index, *words) if index > 0 else -1
        value = _number(tokens, after) if after > 0 else None
        if value is not None and value[1] == len(tokens):
            return tokenize(f"x \\ne {value[0]}")
    return None


def _object(tokens: list[Token]) -> list[Token] | None:
    """ "the line y = 2": the object."""
    kind = _space(tokens, _word(tokens, 0, ("the",)))
    named = tokens[kind] if 0 < kind < len(tokens) else None
    if named is None or named.kind is not Kind.WORD or named.text.lower() not in _KINDS:
        return None
    rest = _space(tokens, kind + 1)
    return tokens[rest:] if 0 < rest < len(tokens) else None


def _hedged(tokens: list[Token]) -> list[Token] | None:
    """ "approximately 1.4142": what follows the hedge."""
    first = tokens[0] if tokens else None
    if first is None:
        return None
    if first.is_command("\\approx"):
        index = 1
    elif first.kind is Kind.WORD and first.text.lower() in _HEDGES:
        index = _symbol(tokens, 1, ".") if first.text.lower() == "approx" else 1
    else:
        return None
    return tokens[max(index, _space(tokens, index)) :]


def _chance(tokens: list[Token]) -> list[Token] | None:
    """ "a 1/4 probability": the chance."""
    last = tokens[-1] if tokens else None
    if last is None or last.kind is not Kind.WORD or last.text.lower() not in _CHANCES:
        return None
    if len(tokens) < 3 or tokens[-2].kind is not Kind.SPACE:
        return None
    said = tokens[:-2]
    article = max(_space(said, _word(said, 0, ("a",))), _space(said, _word(said, 0, ("an",))))
    if 0 < article < len(said):
        said = said[article:]
    if any("\n" in token.text for token in said):
        return None
    return said


def phrase_notation(tokens: list[Token]) -> list[Token] | None:
    """The tokens of the notation an answer's tokens say when they are one of the phrases
    above, else None. The phrase may be written in a text font: ``\\text{at least } 7``."""
    words = strip(tokens)
    if sum(len(token.text) for token in words) > _PHRASE_LENGTH:
        return None
    if any(token.text in TEXT_FONTS for token in words):
        words = strip(rescan(unwrap(words, TEXT_FONTS)))
    if not words:
        return None
    # Every phrase starts with a word or "\\approx", but a chance, which ends with a word.
    if words[0].kind is not Kind.WORD and not words[0].is_command("\\approx"):
        return _chance(words)
    for reader in (_object, _comparison, _range, _all_but, _hedged, _chance):
        found = reader(words)
        if found is not None:
            return found
    return None


def math_from_phrase(text: str) -> str:
    """``text`` as notation when the whole of it is one of the phrases above, else as is."""
    if len(text.strip()) > _PHRASE_LENGTH:
        return text
    found = phrase_notation(tokenize(text))
    return text if found is None else join(found)


__all__ = ["math_from_phrase", "phrase_notation"]
