"""Whether a span of a completion holds an answer the LLM verifier may be asked about.

LLM judges give credit to completions with no answer in them ("master keys", One Token to
Fool LLM-as-a-Judge, 2025): a lone ``:`` or space, a reasoning opener ("Thought process:",
"Solution", "解"), or text addressed to the judge ("reply True"). Under RL a policy finds
them, so such a span is never shown to the verifier: the rule verdict stands instead (the
no-answer reward where the rule found no answer).

A span is answer-bearing when it holds some mathematics (a digit, a math symbol or LaTeX
command, a short math span such as ``$x$``, the letters of a multiple-choice answer, or a
number written in words outside a sentence that only announces the work), is not a
heading waiting for its content, is not only a verdict label, and does not talk to the
judge. Other words ("east", "Monday") are left to the rule, which reads them well. A
real but unmarked answer ("so the total is 42 apples", "two and two make four") passes, as
TinyV's best-effort extraction would send it.
"""

from __future__ import annotations

import re

# Text addressed to the judge, in the ways injections are written: an instruction to emit a
# label, "ignore the previous instructions", a claim that the answer is correct, a role
# header, a fence tag of the verifier's prompt or a chat-template token.
_LABEL = r"[\"'“‘«]?(?:true|false|yes|correct|incorrect|valid|accept(?:ed)?)\b"
_TO_THE_JUDGE = re.compile(
    r"\b(?:reply|respond|output|return|say|print|answer|mark|grade|judge|rate|classify|label"
    r"|evaluate|verify|verdict|score|conclude)(?:ed|s)?\s*[:=]?\s+(?:\w+\s+){0,3}"
    + _LABEL
    + r"|\bignore\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above"
    r"|earlier|preceding|original|system)\s+(?:instructions?|prompts?|rules?|messages?|text)"
    r"|\b(?:the|this|that|my|above|previous|given|model'?s?)\s+(?:model'?s?\s+)?(?:answer"
    r"|solution|response|result|output)\s+(?:above\s+|here\s+|given\s+)?(?:is|was|are"
    r"|must\s+be|should\s+be)\s+(?:\w+\s+){0,2}(?:correct|right|true|valid|accurate"
    r"|equivalent|acceptable)\b"
    r"|\b(?:as|dear|hey|attention)\s+(?:the\s+|an?\s+)?(?:judge|grader|verifier|evaluator"
    r"|reviewer)"
    r"|\b(?:judge|grader|verifier|evaluator)\s*[:,]"
    r"|^\s*(?:system|assistant|user|human)\s*:"
    r"|<\s*/?\s*(?:model_answer|ground_truth_answer|question|response|rubric)\s*>"
    r"|<\|[^|<>\n]{1,40}\|>"
    r"|(?:答案|回答|解答|结果)(?:是|为)?(?:正确|对的)",
    re.IGNORECASE | re.MULTILINE,
)

# A span that is nothing but a verdict label (in any case, quoted, boxed or emphasised).
_VERDICT_ONLY = re.compile(
    r"(?:true|false|yes|no|correct|incorrect|right|wrong|valid|invalid|pass|fail|accept"
    r"|reject|对|错|是|否|正确|错误|richtig|falsch|vrai|faux|verdadero|falso|sí|si|верно|неверно)",
    re.IGNORECASE,
)
_WRAPPING = re.compile(
    r"\\(?:boxed|fbox|text|textbf|mathrm|mbox)\s*\{|[{}$*_`\"'“”‘’«»()\[\]\s.!,;]"
)

# A heading ("Solution:", "Lösung:", "思考过程：", "Step 1:", "Answer ="): it announces
# content that is not there.
_HEADING_END = re.compile(r"[:：=]\s*[*#_`]*\s*$")

# Mathematics: a digit, an operator or relation, a LaTeX command that is not only a
# wrapper, escaped braces (``\{\}``), a fraction of symbols (``a/b``), or a short math
# span (``$x$``).
_SYMBOLIC = re.compile(
    r"\d|[=+^≤≥≠±∓√∞π∑∏∫∂×÷·∈∉∪∩⊂⊆∅≈≡∝°′″%¼½¾⅐-⅞⁰¹²³⁴-⁹ℝℕℤℚℂ]"
    r"|\|\s*[\w\\-][^|\n]{0,40}\|"
    r"|\\(?!(?:boxed|fbox|text|textbf|textit|mathrm|mbox|quad|qquad)\b)[a-zA-Z]+|\\[{}]"
    r"|(?<![a-zA-Z])[a-zA-Z]\s*/\s*[a-zA-Z](?![a-zA-Z])"
    r"|\$\s*[a-zA-Z]{1,3}\s*\$"
)
# Answers written without a letter or digit: the empty set, infinity, pi.
_SYMBOL_ANSWER = re.compile(r"\\[{}]|[∅∞π]")
# The letters of a multiple-choice answer: "B", "(C)", "\textbf{(A)}", "A, C".
_CHOICES = re.compile(r"[A-H]{1,4}")
# A number in words counts too ("two and two make four"), but not in a sentence that only
# announces the work ("Let's break it into two parts.").
_NUMBER_WORD = re.compile(
    r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
    r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
    r"|eighty|ninety|hundred|thousand|million|billion|dozen|first|second|third|fourth|fifth"
    r"|sixth|seventh|eighth|ninth|tenth|half|quarter|pi|infinity)\b",
    re.IGNORECASE,
)
_OPENER = re.compile(
    r"^\W*(?:(?:so|ok(?:ay)?|alright|well|now|first(?:ly)?|hmm+)\W+)*(?:let'?s|let\s+us|let\s+me"
    r"|we(?:'ll|\s+will|\s+need|\s+must|\s+should|\s+can|\s+have\s+to|'re\s+going)"
    r"|i(?:'ll|\s+will|\s+need|\s+must|'m\s+going)|to\s+solve|step|here'?s|here\s+is"
    r"|thought|solution|reasoning|analysis|approach|explanation|plan)\b",
    re.IGNORECASE,
)
_EMPTY_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{\s*\}")


def refusal(span: str) -> str | None:
    """Why ``span`` may not be shown to the verifier, or None when it is answer-bearing."""
    stripped = span.strip()
    if not any(char.isalnum() for char in stripped) and not _SYMBOL_ANSWER.search(stripped):
        if _EMPTY_BOX.search(stripped):
            return "only an empty box"
        return "only punctuation or whitespace"
    if _TO_THE_JUDGE.search(stripped):
        return "text addressed to the judge"
    bare = _WRAPPING.sub("", stripped)
    if _VERDICT_ONLY.fullmatch(bare):
        return "only a verdict label"
    if _HEADING_END.search(stripped):
        return "a heading with nothing after it"
    if _SYMBOLIC.search(stripped) or _CHOICES.fullmatch(bare):
        return None
    if _NUMBER_WORD.search(stripped) and not _OPENER.match(stripped):
        return None
    if _EMPTY_BOX.search(stripped):
        return "only an empty box"
    return "no mathematics in it (a reasoning opener or prose)"
