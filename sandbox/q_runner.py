"""q in the sandbox: each test is one q script, judged by its stdout and completion token.

Which q runs (a binary or pykx's engine) is ``sandbox/q_engine.py``; the script and its
token ``sandbox/q_script.py``; the licence ``sandbox/q_license.py`` on the host and
``sandbox/q_license_copy.py`` in the worker; q's messages ``sandbox/q_errors.py``.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence

from .classify import classify
from .errors import SandboxUnavailable
from .frames import ExecJob
from .language_runner import LanguageRunner, Turn, Workers, WorkerSetup, job_limits
from .models import Language, Limits, TestCase, TestOutcome
from .pool import WorkerPool
from .q_engine import PykxInstall, QEngine, QSetup, choose_q, find_pykx
from .q_errors import Q_STDERR
from .q_license import LicenseDir, prepare_license
from .q_script import SCRIPT_NAME, build_script
from .status import QStatus

# The q pool's uids, above the Python pool's (bubblewrap only).
Q_UID_OFFSET = 1000
_Q_VERSION_SCRIPT = '-1 (string .z.K)," ",string .z.k;\n'


class QRunner(LanguageRunner):
    language = Language.Q

    def __init__(self, workers: Workers) -> None:
        super().__init__(workers)
        self._license: LicenseDir | None = None
        self._pykx: PykxInstall | None = None  # the sandbox Python's pykx, once looked for
        self._pykx_looked = False
        self._version: str | None = None

    def worker_setup(self) -> WorkerSetup:
        cfg = self.workers.config
        q = self.setup()
        q.verify()
        if self._license is None:
            try:
                self._license = prepare_license(
                    cfg.q_license_dir,
                    cfg.q_license_b64.get_secret_value() if cfg.q_license_b64 else None,
                    cfg.q_k4_license_b64.get_secret_value() if cfg.q_k4_license_b64 else None,
                )
            except SandboxUnavailable as exc:
                if not q.label:
                    raise
                # "pykx 4.2.0 found (…/pykx/lib), but no q licence: set QLIC …"
                raise SandboxUnavailable(f"{q.label} found ({q.home}), but {exc.reason}") from exc
        return WorkerSetup(
            mounts=tuple(q.mounts), license_dir=self._license.path, uid_offset=Q_UID_OFFSET
        )

    async def run_tests(
        self, program: str, tests: Sequence[TestCase], limits: Limits, turn: Turn
    ) -> list[TestOutcome]:
        proofs = [secrets.token_hex(16) for _ in tests]
        jobs = [self.job(program, t, limits, p) for t, p in zip(tests, proofs, strict=True)]
        replies = await asyncio.gather(*(turn.run(job) for job in jobs))
        return [
            classify(Q_STDERR, t, r, limits, proof)
            for t, r, proof in zip(tests, replies, proofs, strict=True)
        ]

    def job(
        self, program: str, test: TestCase, limits: Limits, proof: str | None = None
    ) -> ExecJob:
        """The job of one test: q runs the program, the test's code and the proof line."""
        lim = job_limits(limits)
        q = self.setup()
        workspace_mb = self.workers.config.q_workspace_mb
        # q reserves its workspace on top of the interpreter itself.
        lim["memory_mb"] = limits.memory_mb + workspace_mb
        env = {"QHOME": q.home}
        return {
            "kind": "exec",
            "argv": q.argv(workspace_mb),
            "files": {SCRIPT_NAME: build_script(program, test.code, proof)},
            "stdin": test.stdin or "",
            "env": env,
            "limits": lim,
        }

    def setup(self) -> QSetup:
        """The q this sandbox runs (sandbox/q_engine.py); SandboxUnavailable if none."""
        cfg = self.workers.config
        python = self.workers.python()
        if not self._pykx_looked and cfg.q_engine is not QEngine.BINARY:
            self._pykx, self._pykx_looked = find_pykx(python.executable), True
        return choose_q(cfg.q_engine, cfg.q_bin, cfg.q_home, self._pykx, python)

    def status(self, pool: Callable[[], WorkerPool]) -> QStatus:
        """Whether q runs here: its version from one script on ``pool()`` (blocking)."""
        if self._version is not None:
            return QStatus(available=True, version=self._version)
        try:
            workers = pool()
            probe = TestCase(code=_Q_VERSION_SCRIPT)
            raw = workers.run(self.job("", probe, Limits(wall_s=5.0)), 5.0)
        except SandboxUnavailable as exc:
            return QStatus(available=False, reason=exc.reason)
        outcome = classify(Q_STDERR, probe, raw, Limits(wall_s=5.0))
        if outcome.exit_code != 0 or outcome.failure.value not in ("none",):
            return QStatus(available=False, reason=outcome.detail)
        self._version = outcome.stdout.strip()
        label = self.setup().label
        if label:  # "4.1 2025.02.18 (pykx 4.2.0)"
            self._version += f" ({label})"
        return QStatus(
            available=True,
            version=self._version,
            warning=(self._license.warning or None) if self._license else None,
        )

    def close(self) -> None:
        if self._license:
            self._license.cleanup()
