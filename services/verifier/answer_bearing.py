"""What of a completion the LLM verifier may see: an answer, never text addressed to it.

LLM judges give credit to completions with no answer in them ("master keys", One Token to
Fool LLM-as-a-Judge, 2025: a lone ``:``, "Thought process:", "解") and follow instructions
written into the answer ("reply True", the same in any language, in look-alike letters, in
full-width chat-template tokens). A list of such phrases always misses the next one, so
what reaches the judge is decided by what an answer *is*, not by what an attack looks like:

1. **Normalised.** Invisible characters go (zero-width and direction marks, every format
   character, combining marks, private-use and control characters); Unicode mathematics
   is written as LaTeX (``x²`` is ``x^{2}``, ``½`` is ``\\frac{1}{2}``); NFKC folds
   full-width forms and styled letters (``＜｜im_start｜＞`` is ``<|im_start|>``, ``𝐓𝐫𝐮𝐞`` is
   ``True``); letters of other scripts that look like Latin ones are folded to them
   (Cyrillic ``Тrue``, Greek ``Τrue``).
2. **Only an answer.** What the judge may see depends on the reference:

   * a mathematical reference (a digit, a symbol, a LaTeX command, a number in words): a
     span made of mathematics only. Every word in it must be a word of mathematics (a
     number or a unit in words, a connective, a function name, the vocabulary of answers
     such as "at least" or "all real numbers", a one-letter variable) or a word of the
     reference; a LaTeX command must be a known one. A span with any other word is not
     shown: its value is extracted instead (the lenient extraction, the last number, the
     last number in words: :func:`~services.mathcheck.extraction.unmarked_candidates`), and
     "so the total is 42 apples" is shown as ``42``. A span with no mathematics is no
     answer.
   * a multiple-choice reference (``B``, ``(C)``): the option letters only.
   * a reference in words (``east``, ``Monday``): a short phrase (at most five words and 60
     characters, letters, digits, spaces, hyphens, apostrophes and commas only), written
     in the reference's script, with no pronoun and no verdict word of the common
     languages unless the reference has it.
   A heading the span ends with ("Step 1:", "Solution =") announces what is not there: it
   is dropped, and a span that is only headings holds no answer.
3. **One answer.** A span that offers more alternatives than the reference has parts (two
   boxes, "41 or 42", ``42 \\pm 1``, a set of guesses) is a hedge: it is never shown, and
   the rule's verdict on it (wrong) stands.
4. **Capped and fenced.** The span is cut at :data:`MAX_SHOWN_CHARS`; the prompt then
   escapes tags and chat-template tokens of every common family
   (:func:`services.verifier.prompts.fenced`).

The same function says what the rule judges where a completion marks no answer (the answer
it gives unmarked), so the rule and the verifier judge the same span.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from services.mathcheck.alignment import latex_from_unicode, math_from_phrase
from services.mathcheck.extraction import ExtractionPolicy, extract_answer, unmarked_candidates
from services.mathcheck.vocabulary import DECORATION_UNITS, POWER_WORDS, SCALE_WORDS, UNITS
from services.mathcheck.written_numbers import roman_numeral

MAX_SHOWN_CHARS = 600
# A span longer than this is searched for its value, never checked word by word whole.
_MAX_CHECKED_CHARS = 2_000

# --------------------------------------------------------------------------- normalising

_KEPT_CONTROLS = frozenset("\n\t")
# Format characters (zero-width, direction marks, tags), combining and enclosing marks,
# controls, private-use characters and lone surrogates: nothing an answer is written in.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Mn", "Me", "Cc", "Co", "Cs"})


# Above these planes: tags, variation selectors and private use, as one fast regex.
_INVISIBLE_HIGH = re.compile("[\U000e0000-\U000e0fff\U000f0000-\U0010ffff]+")


@cache
def _invisible() -> dict[int, None]:
    """A translation table deleting every invisible character below plane 14 (built once,
    on first use: a table, since a regex class of thousands of ranges is slow)."""
    table: dict[int, None] = {}
    for point in range(0x20000):  # planes 2 to 13 hold ideographs only
        char = chr(point)
        if unicodedata.category(char) in _INVISIBLE_CATEGORIES and char not in _KEPT_CONTROLS:
            table[point] = None
    return table


_ASCII_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]+")


def _visible(text: str) -> str:
    if text.isascii():
        return _ASCII_CONTROLS.sub("", text)
    return _INVISIBLE_HIGH.sub("", text.translate(_invisible()))


# Letters of other scripts drawn like Latin ones (Unicode's confusables for the scripts
# models write in): Cyrillic, Greek capitals and omicron, Armenian, Cherokee, Latin small
# capitals and dotless letters. Lower-case Greek letters other than omicron are mathematics
# (α, π, θ) and stay.
_LOOK_ALIKES = (
    ("аеһіјӏорԁԛѕԝхуүсɑɡɩıȷ", "aehijlopdqswxyycagiij"),  # Cyrillic, Latin dotless and IPA
    ("АВЕНІЈКМОРЅТХУҮӀԚԜСЬ", "ABEHIJKMOPSTXYYIQWCb"),  # Cyrillic capitals
    ("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοϲϳ", "ABEZHIKMNOPTYXocj"),  # Greek capitals, omicron, lunate sigma
    ("օսհոզ", "ouhnq"),  # Armenian
    ("ᎪᏴᏟᎬᎻᏆᎫᏦᏞᎷᏢᏚᎢᏙᏔᏃ", "ABCEHIJKLMPSTVWZ"),  # Cherokee
    ("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ", "abcdefghijklmnoprstuvwyz"),  # Latin small capitals
)
_CONFUSABLES = str.maketrans(
    {
        source: target
        for sources, targets in _LOOK_ALIKES
        for source, target in zip(sources, targets, strict=True)
    }
)
_SPACES = re.compile(r"[ \t\u00a0]{2,}|[\t\u00a0]")
_BLANK_LINES = re.compile(r"\n\s*\n+")


def normalise(text: str, fold: bool = True) -> str:
    """``text`` as the judge may read it: invisible characters removed, Unicode mathematics
    as LaTeX, NFKC, look-alike letters folded to Latin (unless ``fold`` is False), runs of
    spaces collapsed."""
    text = _visible(text)
    if not text.isascii():
        text = latex_from_unicode(text)
        text = unicodedata.normalize("NFKC", text)
        # NFKC may make new marks or controls out of compatibility forms: once more.
        text = _visible(text)
        if fold:
            text = text.translate(_CONFUSABLES)
    text = _SPACES.sub(" ", text)
    return _BLANK_LINES.sub("\n", text).strip()


# --------------------------------------------------------------------------- vocabulary


def _vocabulary(words: str) -> frozenset[str]:
    """A set of words written as a block of text (one or more spaces between them)."""
    return frozenset(words.split())


# LaTeX commands an answer is written with: fonts and wrappers, operators, relations,
# functions, symbols, Greek letters, delimiters, spacing, environments.
_KNOWN_COMMANDS = _vocabulary(
    """
    boxed fbox text textbf textit textrm textnormal textsf texttt mathrm mathbf mathit mathsf
    mathtt mathbb mathcal mathfrak mbox operatorname displaystyle textstyle scriptstyle
    frac dfrac tfrac cfrac sqrt binom dbinom tbinom choose over
    cdot times div pm mp ast star circ bullet oplus otimes odot setminus
    le leq ge geq ne neq lt gt approx sim simeq cong equiv propto ll gg leqslant geqslant
    in notin ni subset subseteq supset supseteq cup cap bigcup bigcap emptyset varnothing
    to rightarrow leftarrow Rightarrow Leftarrow implies iff mapsto infty infinity
    forall exists land lor neg wedge vee mid nmid parallel perp angle measuredangle triangle
    degree prime dots ldots cdots vdots ddots
    sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth log ln lg exp lim
    limsup liminf sup inf max min gcd lcm det deg dim ker arg mod bmod pmod Pr
    sum prod int iint iiint oint partial nabla
    alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu
    nu xi omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega
    Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega
    left right big Big bigg Bigg bigl bigr Bigl Bigr langle rangle lfloor rfloor lceil
    rceil lvert rvert lVert rVert vert Vert
    overline underline bar hat widehat tilde widetilde vec dot ddot overrightarrow
    overleftrightarrow underbrace overbrace
    quad qquad hspace space enspace thinspace
    begin end matrix pmatrix bmatrix vmatrix Bmatrix array cases aligned align
    hline ell hbar Re Im aleph lbrace rbrace lbrack rbrack boldsymbol bm color framebox
    """
)
_WRAPPER_COMMANDS = _vocabulary(
    "boxed fbox text textbf textit textrm textnormal textsf texttt mathrm mbox "
    "operatorname displaystyle textstyle left right quad qquad"
)
_NUMBER_WORDS = _vocabulary(
    """
    zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy
    eighty ninety hundred hundreds thousand thousands million millions billion billions
    trillion dozen dozens half halves third thirds quarter quarters fourth fourths fifth
    fifths sixth sixths seventh sevenths eighth eighths ninth ninths tenth tenths
    hundredth hundredths thousandth thousandths negative minus plus point percent first
    second eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth
    nineteenth twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth
    elevenths twelfths thirteenths fourteenths fifteenths sixteenths seventeenths
    eighteenths nineteenths twentieths
    """
) | frozenset(SCALE_WORDS)
# Words of mathematics and of the answers the checker reads (its front end, alignment.py):
# connectives, comparisons, sets and kinds of objects, functions.
_MATH_WORDS = _vocabulary(
    """
    and or of per over to from the is are than at least most greater less more fewer equal
    equals between inclusive exclusive all real numbers number values value integers
    integer natural rational irrational complex positive nonnegative except other but
    approximately approx about roughly around chance probability likelihood in
    line lines curve plane point points circle parabola graph function equation set
    interval intervals empty none undefined dne infinity infinite infinitely many
    sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh log ln lg exp lim max min
    gcd lcm mod det deg arg sqrt abs floor ceil sgn dx dy dz dt du dv dr pi e i
    infinitely
    origin factorial out
    """
)
# Words that alone are mathematics: constants and objects an answer may be.
_MATH_OBJECTS = _vocabulary(
    "pi infinity infinite infinitely undefined dne none origin empty factorial"
)
_UNIT_WORDS = (
    frozenset(UNITS)
    | frozenset(POWER_WORDS)
    | frozenset(word for unit in DECORATION_UNITS for word in unit.split())
)
_ANSWER_WORDS = _NUMBER_WORDS | _MATH_WORDS | _UNIT_WORDS

# Verdict words in the languages models write (the verifier's labels and what they mean).
# A phrase that names a verdict the reference does not is no answer; a run of two or three
# letters glued to a number may be a product of variables, but not one of these.
_VERDICT_WORDS = _vocabulary(
    """
    true false yes no ok okay correct incorrect right wrong valid invalid pass fail passed
    failed accept accepted reject rejected approve approved equivalent verdict
    si sí no vero falso verdadero correcto correcta incorrecto cierto oui non vrai faux
    correcte ja nein wahr falsch richtig korrekt da net верно неверно правильно
    неправильно истина ложь да нет sim não certo errado verdadeiro correto evet hayır doğru
    yanlış benar salah betul ya tidak đúng sai prawda fałsz tak nie poprawnie waar onwaar
    juist fout sant falskt rätt fel giusto sbagliato corretto esatto
    सही गलत हाँ नहीं صحيح خطأ نعم لا ถูก ผิด
    是 否 对 錯 错 對 正确 正確 错误 錯誤 真 假
    はい いいえ 正しい 正解 不正解 맞다 틀리다 예 아니오 정답
    """
)
_PRONOUNS = _vocabulary("i we you me us my our your it this that they he she")

# ----------------------------------------------------------------------- reading a span

_COMMAND = re.compile(r"\\([a-zA-Z]+)|\\.", re.DOTALL)
_LETTERS = re.compile(r"[^\W\d_]+")
_LATIN_OR_GREEK = re.compile(r"[a-zA-Z\u0370-\u03ff]")
_GLUE = re.compile(r"[\d^_(){}\[\]+\-*/=<>|\\]")
_DIGIT = re.compile(r"\d")
# An empty box, or nothing but wrappers and punctuation.
_EMPTY_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{\s*\}")


class ReferenceKind(StrEnum):
    MATH = "math"  # a digit, a symbol, a LaTeX command or a number in words
    CHOICE = "choice"  # option letters: "B", "(C)", "A, C"
    WORDS = "words"  # anything else: "east", "Monday", "isosceles"


_CHOICES = re.compile(r"\(?[A-H]\)?(?:\s*(?:,|and|or)\s*\(?[A-H]\)?)*|[A-H]{2,4}")
_WRAPPING = re.compile(
    r"\\(?:boxed|fbox|text|textbf|textit|textrm|mathrm|mbox|operatorname)\s*\{|[{}$*`\"“”«»]"
)


def _unwrapped(text: str) -> str:
    """``text`` without its wrappers (boxes, fonts, dollars, braces, emphasis)."""
    return _SPACES.sub(" ", _WRAPPING.sub(" ", text)).strip(" .;:!,")


def reference_kind(reference: str) -> ReferenceKind:
    bare = _unwrapped(normalise(reference))
    if _CHOICES.fullmatch(bare):
        return ReferenceKind.CHOICE
    if _has_mathematics(bare):
        return ReferenceKind.MATH
    return ReferenceKind.WORDS


_COMMAND_MARK = "\x00"
_ENVIRONMENT = re.compile(r"\\(?:begin|end)\s*\{[a-zA-Z*]*\}(?:\s*\{[lcr|]*\})?")


def _words(text: str) -> list[tuple[str, bool]]:
    """Every word of ``text`` outside LaTeX command names and environment names, and whether
    it is glued to a digit or an operator (``2xy``); an unknown command's name counts as a
    word."""
    text = _ENVIRONMENT.sub(" ", text)
    out: list[tuple[str, bool]] = []
    plain = []
    last = 0
    for command in _COMMAND.finditer(text):
        plain.append(text[last : command.start()])
        name = command.group(1)
        if name is not None and name not in _KNOWN_COMMANDS:
            out.append((name, False))
        # A command's name goes; a mark stays, so that what follows it ("\\frac ba") is
        # glued to it.
        plain.append(_COMMAND_MARK if name is not None else "\\")
        last = command.end()
    plain.append(text[last:])
    rest = "".join(plain)
    for word in _LETTERS.finditer(rest):
        before = rest[word.start() - 1] if word.start() > 0 else ""
        after = rest[word.end()] if word.end() < len(rest) else ""
        after_command = rest[: word.start()].rstrip(" ").endswith(_COMMAND_MARK)
        glued = bool(_GLUE.fullmatch(before) or _GLUE.fullmatch(after) or after_command)
        out.append((word.group(), glued))
    return out


def _has_mathematics(text: str) -> bool:
    """A digit, a known LaTeX command other than a wrapper, a number or a mathematical
    object in words, a Roman numeral, or a one-letter variable (a symbol alone is none:
    "Solution =" holds no operand)."""
    if _DIGIT.search(text):
        return True
    for command in _COMMAND.finditer(text):
        name = command.group(1)
        if name is not None and name in _KNOWN_COMMANDS and name not in _WRAPPER_COMMANDS:
            return True
    for word, _ in _words(text):
        lower = word.lower()
        if lower in _NUMBER_WORDS or lower in _MATH_OBJECTS or roman_numeral(word):
            return True
        if len(word) == 1 and _LATIN_OR_GREEK.match(word):
            return True
    return text.replace(" ", "") in ("{}", "\\{\\}")  # the empty set, written bare


def _foreign_words(text: str, allowed: frozenset[str]) -> list[str]:
    """The words of ``text`` that are not words of mathematics (or of ``allowed``)."""
    foreign = []
    for word, glued in _words(text):
        lower = word.lower()
        if len(word) == 1 and _LATIN_OR_GREEK.match(word):
            continue  # a variable
        if lower in _ANSWER_WORDS or lower in allowed or roman_numeral(word):
            continue
        if glued and len(word) <= 3 and word.isascii() and lower not in _VERDICT_WORDS:
            continue  # a product of variables: 2xy, (ab)^2, \frac ba
        foreign.append(word)
    return foreign


# Several alternatives: commas and semicolons outside a tuple's or an interval's brackets
# (inside a set's braces they count: "\{41, 42\}" offers two), "or", "to", plus or minus,
# and "and" between values. A comma between two digits is a thousands or decimal separator
# ("1,000", "3,5"), LaTeX spacing ("\,") and "{,}" are no commas, and a command's name
# ("\to") is no word.
_SPACING = re.compile(r"\\[,;:! ]|\{,\}|(?<=\d),(?=\d)")
_PLUS_MINUS = re.compile(r"±|∓|\\(?:pm|mp|lor)(?![a-zA-Z])")
_COMMAND_NAME = re.compile(r"\\[a-zA-Z]+")
# "or" and "to" between anything; "and" between two numbers ("41 and 42"), not between
# conditions ("x > -2 and x < 3") nor in an amount ("12 dollars and 40 cents").
_WORD_ALTERNATIVE = re.compile(r"\b(?:or|to)\b|(?<=\d)[\s{}]*\band\b(?=[\s{}]*-?\d)", re.IGNORECASE)
_WORD_PART = re.compile(r"\b(?:or|to|and)\b", re.IGNORECASE)
_BRACKETS = re.compile(r"\\[{}]|\\(?:[lr]angle|lbrace|rbrace)\b|[()\[\],;]")
# Where a reference's parts are: every separator at any depth (a tuple's commas, a
# matrix's rows and columns, a ratio's colon), so an answer may spell out as many.
_PARTS = re.compile(r"[,;:&]|\\\\")


def _plain(text: str) -> str:
    return _SPACING.sub(" ", text)


def _word_alternatives(text: str, pattern: re.Pattern[str] = _WORD_ALTERNATIVE) -> int:
    """How many times "or", "to" (and "and" between numbers) join alternatives, not after a
    comma (", or" ends a list the commas counted); with ``_WORD_PART``, every "and" too."""
    words = _COMMAND_NAME.sub(" ", text)
    count = 0
    for word in pattern.finditer(words):
        if not words[: word.start()].rstrip(" {}").endswith(","):
            count += 1
    return count


def alternatives(text: str) -> int:
    """How many alternatives ``text`` offers (1 for a single value, a tuple or an interval)."""
    text = _plain(text)
    count = 1 + len(_PLUS_MINUS.findall(text)) + _word_alternatives(text)
    depth = 0
    for mark in _BRACKETS.findall(text):
        if mark in ("(", "[", "\\langle", "\\lbrace"):
            depth += 1
        elif mark in (")", "]", "\\rangle", "\\rbrace"):
            depth = max(0, depth - 1)
        elif mark in ",;" and depth == 0:
            count += 1
    return count


def parts(reference: str) -> int:
    """How many parts ``reference`` has, counted generously: its alternatives, or every
    separator inside it (commas between digits too: "\\{1,2,3\\}"), whichever is more."""
    separators = _PARTS.findall(re.sub(r"\\[,;:! ]|\{,\}", " ", reference))
    words = _word_alternatives(reference, _WORD_PART)
    return max(alternatives(reference), 1 + len(separators) + words)


@dataclass(frozen=True, slots=True)
class Bearing:
    """What a span holds: the answer found in it (what the rule judges), the span the LLM
    verifier may be shown (None: none), and why it may not be shown."""

    answer: str | None
    shown: str | None
    reason: str | None = None


def _refused(reason: str, answer: str | None = None) -> Bearing:
    return Bearing(answer, None, reason)


def _capped(span: str) -> str:
    return span[:MAX_SHOWN_CHARS]


def _math_span(text: str, reference: str) -> Bearing:
    allowed = frozenset(word.lower() for word, _ in _words(normalise(reference)))
    # The whole text is a candidate when it is only an answer: "#### 42" is 42 after its
    # marker, not the text "#### 42".
    whole = (
        len(text) <= _MAX_CHECKED_CHARS
        and not extract_answer(text, ExtractionPolicy.LENIENT).marked
    )
    candidates = [text] if whole else []
    if candidates and (phrase := math_from_phrase(text)) != text:
        candidates.append(phrase)  # "no more than 3" is x \le 3
    candidates += [normalise(value) for value in unmarked_candidates(text)]
    foreign: list[str] = []
    for candidate in candidates:
        # Trailing punctuation goes; a leading "." (".5") and a "!" (7!) are mathematics.
        stripped = candidate.strip().rstrip(".;:,").lstrip(";:,").strip()
        if not stripped or not _has_mathematics(stripped):
            continue
        foreign = _foreign_words(stripped[:_MAX_CHECKED_CHARS], allowed)
        if foreign:
            continue
        if alternatives(stripped) > parts(normalise(reference)):
            return _refused(
                "several candidate answers where the reference has fewer (a hedge)", stripped
            )
        return Bearing(stripped, _capped(stripped))
    if foreign:
        listed = ", ".join(repr(word) for word in dict.fromkeys(foreign[:5]))
        return _refused(f"no answer in it: words outside mathematics ({listed})")
    return _refused("no mathematics in it, and the reference is mathematical")


_CHOICE_IN_TEXT = re.compile(r"\(([A-H])\)|\b(?:option|choice)\s+([A-H])\b", re.IGNORECASE)


def _choice_span(text: str) -> Bearing:
    bare = _unwrapped(text)
    if len(bare) == 1 and bare.isascii() and bare.isalpha():
        bare = bare.upper()  # "a" for option A
    if _CHOICES.fullmatch(bare):
        letters = ", ".join(re.findall(r"[A-H]", bare))
        return Bearing(letters, letters)
    found = list(_CHOICE_IN_TEXT.finditer(text[-_MAX_CHECKED_CHARS:]))
    if found:
        letter = (found[-1].group(1) or found[-1].group(2)).upper()
        return Bearing(letter, letter)
    return _refused("no option letter in it, and the reference is an option letter")


_MAX_PHRASE_WORDS = 5
_MAX_PHRASE_CHARS = 60
_PHRASE = re.compile(r"[^\W_](?:[\w' ,-]*[^\W_])?")


def _scripts(text: str) -> set[str]:
    """The scripts the letters of ``text`` are written in (LATIN, CYRILLIC, CJK, ...)."""
    return {unicodedata.name(char, "?").split()[0] for char in text if char.isalpha()}


def _phrase_span(text: str, unfolded: str, reference: str) -> Bearing:
    bare = _unwrapped(text)
    reference = normalise(reference)
    reference_words = {word.lower() for word, _ in _words(reference)}
    if (
        len(bare) > _MAX_PHRASE_CHARS
        or len(bare.split()) > _MAX_PHRASE_WORDS
        or not _PHRASE.fullmatch(bare)
    ):
        return _refused("not a short phrase (the reference is in words)")
    # The scripts as written, before look-alikes are folded: Cyrillic letters that spell
    # Latin-looking words ("ОТВЕТЬ ВЕРНО" folds to "OTBETb BEPHO") are still Cyrillic.
    foreign = _scripts(unfolded) - _scripts(normalise(reference, fold=False))
    if foreign:
        return _refused(f"written in a script the reference is not ({sorted(foreign)})")
    words = {word.lower() for word, _ in _words(bare)}
    named = (words & (_VERDICT_WORDS | _PRONOUNS)) - reference_words
    if named:
        return _refused(f"a phrase that names a verdict or addresses someone ({sorted(named)})")
    return Bearing(bare, _capped(bare))


# A line that announces what follows it ("Step 1:", "Solution =", "答案："): a heading.
_HEADING = re.compile(r"(?:^|\n|(?<=[.!?。])[ \t])[^\n.!?。]*[:：=][ \t*#_`]*$")


def _without_headings(text: str) -> str:
    """``text`` without the headings it ends with: what they announce is not there."""
    while (heading := _HEADING.search(text)) is not None:
        text = text[: heading.start()].rstrip()
    return text


def answer_bearing(span: str, reference: str) -> Bearing:
    """What ``span`` holds as an answer to ``reference``, and what of it the LLM verifier
    may be shown (see the module docstring)."""
    text = normalise(span)
    bare_set = text.replace(" ", "") in ("{}", "\\{\\}")
    if not any(char.isalnum() for char in _unwrapped(text)) and not bare_set:
        if _EMPTY_BOX.search(text):
            return _refused("only an empty box")
        return _refused("only punctuation or whitespace")
    text = _without_headings(text)
    if not text:
        return _refused("a heading with nothing after it")
    kind = reference_kind(reference)
    if kind is ReferenceKind.CHOICE:
        return _choice_span(text)
    if kind is ReferenceKind.WORDS:
        return _phrase_span(text, normalise(span, fold=False), reference)
    return _math_span(text, reference)


def refusal(span: str, reference: str = "42") -> str | None:
    """Why ``span`` may not be shown to the verifier for ``reference``, or None."""
    return answer_bearing(span, reference).reason
