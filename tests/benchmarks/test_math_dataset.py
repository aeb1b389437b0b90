r"""Pins what ``benchmarks.math_dataset`` generates, so a refactoring cannot change it unseen.

The math benchmarks compare runs over time, so the generated pairs must stay the same for a
given ``(n_references, group_size, seed)``. Each configuration's output (every pair with the
generator's annotations) is dumped as canonical JSON and compared with the sha256 recorded
when this test was written. The default dataset's composition (what ``main`` prints), its
first pair and the first reference of every category are spelled out too, so a failing
digest comes with a readable difference.

If a change to the generated data is intended, re-record the digests and the spot checks
below, and re-run the benchmarks whose results depend on it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict

import pytest

from benchmarks.math_dataset import (
    CATEGORIES,
    AnnotatedPair,
    Pair,
    build_annotated_dataset,
    build_dataset,
    main,
    trivially_equal,
)

# (n_references, group_size, seed) -> sha256 of the canonical JSON dump.
DIGESTS: dict[tuple[int, int, int], str] = {
    (400, 8, 0): "cee83a7a83bf38863e34e54b7d33b64b9c4cd34c07df2e37d7d4fd0e728c0b6f",
    (66, 5, 7): "3ede0f731237d4039890369f277383af3d067aedb2d9be3153aa9512faea20e0",
    (22, 1, 3): "a45aa86b27fc4504733ec779b0ee7778a2944832e66a68ac8ce01cdb87635630",
    (33, 16, 11): "957e4d7d923f89de7e4d0d2f0a72630323d25b80e7f0fd1f55a55f8cdb3f9ab0",
}

DEFAULT_COMPOSITION = """\
pairs: 3200  distinct (reference, completion): 3200
category            total   True  False   None  symbolic
gsm8k_int             128     75     34     19         0
fraction              368    238     88     42       202
decimal               248    161     57     30       108
latex_expression      368    236     93     39       198
root                  368    229     95     44       186
set                   368    237     89     42       178
interval              368    220     96     52       120
tuple                 368    237     86     45       186
matrix                368    235     88     45       210
percentage            128     81     31     16         0
text                  120     78     28     14         0
labels: True=2027 False=785 None=388
needs more than string/number comparison: 1388 (43.4% of pairs)
"""

FIRST_PAIR = AnnotatedPair(
    pair=Pair(
        reference="503",
        completion=(
            "<think>\nWe work through the problem carefully.\n"
            "In total there are $30 \\times 19 = 570$ students.\n"
            "Removing the 67 absent students leaves $570 - 67$.\n"
            "Putting it together, we obtain 637.\n</think>\n<answer>\n637\n</answer>"
        ),
        label=False,
        category="gsm8k_int",
    ),
    answer="637",
    needs_symbolic=False,
)

FIRST_REFERENCES = {
    "gsm8k_int": "503",
    "fraction": r"-\frac{1}{30}",
    "decimal": "69.52",
    "latex_expression": "x^{2}-18x+87",
    "root": r"7\sqrt{3}",
    "set": r"\{1, 3, 5, 9, 15, 45\}",
    "interval": r"[-\frac{5}{2}, \frac{3}{2}]",
    "tuple": r"(-\frac{54}{37}, -\frac{49}{37})",
    "matrix": r"\begin{pmatrix}-16&-1\\8&-1\end{pmatrix}",
    "percentage": r"5\%",
    "text": r"\text{No}",
}


def _digest(data: list[AnnotatedPair]) -> str:
    rows = [
        {**asdict(item.pair), "answer": item.answer, "needs_symbolic": item.needs_symbolic}
        for item in data
    ]
    dump = json.dumps(rows, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(dump.encode()).hexdigest()


@pytest.fixture(scope="module")
def default_dataset() -> list[AnnotatedPair]:
    return build_annotated_dataset()


@pytest.mark.parametrize("config", DIGESTS, ids=str)
def test_generated_pairs_match_the_recorded_digest(config: tuple[int, int, int]) -> None:
    n_references, group_size, seed = config
    data = build_annotated_dataset(n_references, group_size, seed)
    assert len(data) == n_references * group_size
    assert _digest(data) == DIGESTS[config], f"the pairs generated for {config} changed"


def test_build_dataset_is_the_annotated_dataset_without_annotations(
    default_dataset: list[AnnotatedPair],
) -> None:
    assert build_dataset() == [item.pair for item in default_dataset]
    assert build_dataset(66, 5, 7) == [item.pair for item in build_annotated_dataset(66, 5, 7)]


def test_default_composition(capsys: pytest.CaptureFixture[str]) -> None:
    main()
    assert capsys.readouterr().out == DEFAULT_COMPOSITION


def test_default_sample_items(default_dataset: list[AnnotatedPair]) -> None:
    assert default_dataset[0] == FIRST_PAIR
    first: dict[str, str] = {}
    for item in default_dataset:
        first.setdefault(item.pair.category, item.pair.reference)
    assert tuple(first) == CATEGORIES
    assert first == FIRST_REFERENCES


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        ("1,234", "1234", True),
        ("42 \\text{ muffins}", "42", True),
        ("\\$17.00", "17", True),
        ("\\text{(B)}", "B", True),
        ("\\text{Yes}", "yes", True),
        ("0.5", "\\frac{1}{2}", False),
        ("\\{1, 2\\}", "\\{2, 1\\}", False),
    ],
)
def test_trivially_equal(a: str, b: str, equal: bool) -> None:
    assert trivially_equal(a, b) is equal
