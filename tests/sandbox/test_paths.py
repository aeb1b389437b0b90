"""The interpreter may live anywhere, including under /tmp (a fresh checkout in /tmp/x)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from sandbox import Failure, Language, Limits, Sandbox, SandboxConfig, TestCase


@pytest.mark.timeout(120)
def test_interpreter_under_tmp_runs_and_scratch_is_wiped() -> None:
    with tempfile.TemporaryDirectory(prefix="checkout-", dir="/tmp") as checkout:
        venv = Path(checkout) / ".venv"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        python = str(venv / "bin" / "python")

        async def scenario() -> None:
            box = Sandbox(SandboxConfig(python=python, workers=1))
            try:
                write = TestCase(code="open('/tmp/left-behind', 'w').write('x')")
                check = TestCase(
                    code="import os, sys\n"
                    "assert not os.path.exists('/tmp/left-behind')\n"
                    f"assert sys.prefix == {str(venv)!r}\n"
                )
                first = await box.run_tests(Language.PYTHON, "", [write], Limits(wall_s=5))
                second = await box.run_tests(Language.PYTHON, "", [check], Limits(wall_s=5))
                assert first[0].failure is Failure.NONE, first[0]
                assert second[0].failure is Failure.NONE, second[0]
            finally:
                await box.aclose()

        asyncio.run(scenario())
        assert (venv / "bin" / "python").exists()  # the wipe never touched the host venv
