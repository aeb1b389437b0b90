"""What verl's runs (verl_runs.py) are given: verl's venv, the adapter, and the rows they
score, as verl's data holds them (``[data_source, solution, ground_truth, extra_info]``)."""

from __future__ import annotations

import json
from typing import Any

from harness.compose_files import ROOT

VERL_PYTHON = ROOT / ".cache" / "verl" / "bin" / "python"
ADAPTER = ROOT / "trainer" / "adapters" / "verl_reward.py"

DOUBLE = "```python\nprint(int(input()) * 2)\n```"
CODE_TRUTH = json.dumps({"inputs": ["2\n", "3\n"], "outputs": ["4\n", "7\n"]})
CRITIQUE = "Fine work.\nTotal Score: 8/10"

# A mixed batch: math right and wrong, code in verl's own data format, a graded critique. Each
# task gives the service different components; verl must still aggregate one key set.
ROWS: list[list[Any]] = [
    ["gsm8k", "so #### 18", "18", {"question": "9 + 9?"}],
    ["math", "\\boxed{5}", "4", None],
    ["codecontests", DOUBLE, CODE_TRUTH, {"index": 3}],
    ["grade", CRITIQUE, 0.6, None],
]
