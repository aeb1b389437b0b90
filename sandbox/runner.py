"""The Sandbox: the public entry point the service calls."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from . import remote_calls, value_codec
from .bwrap import QLIC, QLIC_SRC, SCRATCH, BwrapPlan, bwrap_argv
from .classify import classify
from .config import SandboxConfig
from .errors import SandboxUnavailable
from .frames import Job, JobLimits, Reply, WorkerConfig
from .host_work import HostWork
from .interpreter import PythonInfo, probe_python
from .models import Isolation, Language, Limits, TestCase, TestOutcome
from .pool import WorkerPool, WorkerSpec
from .python_tests import judge_tests, plan_tests
from .q_engine import PykxInstall, QEngine, QSetup, choose_q, find_pykx
from .q_license import LicenseDir, prepare_license
from .q_script import SCRIPT_NAME, build_script
from .reaper import become_subreaper
from .scheduler import FairScheduler, current_flow
from .status import IsolationStatus, PoolStatus, PythonStatus, QStatus, SandboxStatus

CODEC_SOURCE = Path(value_codec.__file__).read_text(encoding="utf-8")
REMOTE_SOURCE = Path(remote_calls.__file__).read_text(encoding="utf-8")

# Reference workers get their own uid range (Python pool: +0, q pool: +1000).
REFERENCE_UID_OFFSET = 2000
# Imported once in each warm worker so solutions do not pay for them per test. Nothing
# stateful that forked jobs would share (e.g. no `random`: every job would get one seed).
PREIMPORT = (
    "collections",
    "functools",
    "itertools",
    "math",
    "re",
    "heapq",
    "bisect",
    "string",
    "operator",
    "typing",
    "dataclasses",
    "fractions",
    "decimal",
    "json",
    "io",
    "types",
    "atexit",
    "traceback",
    "linecache",
)
_Q_VERSION_SCRIPT = '-1 (string .z.K)," ",string .z.k;\n'


class Sandbox:
    def __init__(
        self,
        config: SandboxConfig,
        *,
        on_queue_wait: Callable[[float], None] | None = None,
        on_request_queue_wait: Callable[[float], None] | None = None,
    ) -> None:
        """``on_queue_wait``: told each job's wait for a worker, in seconds;
        ``on_request_queue_wait``: told, as a :meth:`metered` block ends, the longest wait
        of any of its jobs."""
        self.config = config
        self._as_root = os.geteuid() == 0
        self._lock = threading.Lock()
        self._pools: dict[Language, WorkerPool] = {}
        # Expected sides that are not literals are computed here, in workers that never
        # run a program: no program can find their values in a worker's memory.
        self._references: WorkerPool | None = None
        # The host's CPU work on Python tests, in processes of its own (started on first use).
        self._host_work: HostWork | None = None
        self._python: PythonInfo | None = None
        self._license: LicenseDir | None = None
        self._pykx: PykxInstall | None = None  # the sandbox Python's pykx, once looked for
        self._pykx_looked = False
        self._q_version: str | None = None
        self._closed = False
        self._executor = ThreadPoolExecutor(
            max_workers=max(1, config.workers), thread_name_prefix="sandbox"
        )
        # Jobs go round-robin across requests (sandbox/scheduler.py), not first come first served.
        self._scheduler = FairScheduler(
            max(1, config.workers), on_wait=on_queue_wait, on_flow_wait=on_request_queue_wait
        )
        # Anything that escapes a worker tree re-parents to us (and is reaped), not to init.
        self.subreaper = become_subreaper()

    # ------------------------------------------------------------------ public API

    async def run_tests(
        self, language: Language, program: str, tests: Sequence[TestCase], limits: Limits
    ) -> list[TestOutcome]:
        """One outcome per test, in order. Raises SandboxUnavailable only when the
        language or isolation level cannot run here, never because of the program."""
        language = Language(language)
        if self._closed:
            raise SandboxUnavailable("sandbox is closed")
        loop = asyncio.get_running_loop()
        pool = self._pools.get(language)
        if pool is None:  # first use: probing the interpreter blocks, keep it off the loop
            pool = await loop.run_in_executor(self._executor, self._pool, language)

        flow = current_flow.get() or object()

        def run(job: Job, on: WorkerPool = pool) -> asyncio.Future[Reply]:
            return asyncio.wrap_future(
                self._scheduler.submit(flow, on.run, job, limits.wall_s), loop=loop
            )

        if language is Language.PYTHON:
            # Splitting the asserts, planning the jobs and judging the replies is the host's
            # CPU work: in its worker processes, in this request's turn (sandbox/host_work.py).
            host = self._host()
            plans = await host.call(flow, plan_tests, program, list(tests), _job_limits(limits))
            references = [p.reference for p in plans if p.reference is not None]
            ref_pool = self._references
            if references and ref_pool is None:
                ref_pool = await loop.run_in_executor(self._executor, self._reference_pool)
            replies = await asyncio.gather(
                *(run(p.job) for p in plans),
                *(run(r, ref_pool) for r in references if ref_pool is not None),
            )
            by_reference = iter(replies[len(plans) :])
            got = [
                [reply, *([next(by_reference)] if p.reference else [])]
                for p, reply in zip(plans, replies, strict=False)
            ]
            return await host.call(flow, judge_tests, plans, got, limits)
        proofs = [secrets.token_hex(16) for _ in tests]
        jobs = [
            self._job(language, program, t, limits, p) for t, p in zip(tests, proofs, strict=True)
        ]
        replies = await asyncio.gather(*(run(job) for job in jobs))
        return [
            classify(language, t, r, limits, proof)
            for t, r, proof in zip(tests, replies, proofs, strict=True)
        ]

    def queue_wait_s(self) -> float:
        """How long the oldest job still queued has waited for a worker (0: none queued)."""
        return self._scheduler.longest_wait_s()

    @property
    def workers(self) -> int:
        """Jobs that run at once."""
        return self._scheduler.threads

    @contextmanager
    def metered(self) -> Iterator[Callable[[], float]]:
        """The jobs started in this context (and in tasks started from it) are one flow of
        the scheduler, metered: yields what tells the seconds they have held a worker."""
        flow = object()
        token = current_flow.set(flow)
        try:
            with self._scheduler.metered(flow) as served:
                yield served
        finally:
            current_flow.reset(token)

    async def warmup(self) -> None:
        """Start the Python workers (and the host's own processes) now instead of on the
        first request."""
        loop = asyncio.get_running_loop()
        pool = await loop.run_in_executor(self._executor, self._pool, Language.PYTHON)
        await loop.run_in_executor(self._executor, pool.warm)
        await self._host().warm()

    def status(self) -> SandboxStatus:
        """Readiness facts for /ready (blocking; may start one worker the first time)."""
        level = self.config.isolation
        try:
            pool = self._pool(Language.PYTHON)
            pool.warm(1)
        except SandboxUnavailable as exc:
            isolation = IsolationStatus(level, ok=False, reason=exc.reason)
            python = PythonStatus(ok=False, reason=exc.reason)
        else:
            isolation = IsolationStatus(
                level,
                ok=True,
                reason=(
                    "bubblewrap sandbox works"
                    if self._bwrap
                    else "isolation=none: rlimits and timeouts only"
                ),
            )
            python = PythonStatus(
                ok=True,
                version=self._python.version if self._python else None,
                bin=self.config.python,
            )
        workers = {
            lang: PoolStatus(alive=pool.alive(), spawned=pool.spawned, retired=pool.retired)
            for lang, pool in self._pools.items()
        }
        return SandboxStatus(
            isolation=isolation,
            python=python,
            q=self._q_status(),
            workers=workers,
            subreaper=self.subreaper,
        )

    async def aclose(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.close)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            pools = list(self._pools.values())
            if self._references is not None:
                pools.append(self._references)
        for pool in pools:
            pool.close()
        if self._host_work is not None:
            self._host_work.close()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._scheduler.shutdown()
        if self._license:
            self._license.cleanup()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals

    @property
    def _bwrap(self) -> bool:
        return self.config.isolation is Isolation.BWRAP

    def _job(
        self,
        language: Language,
        program: str,
        test: TestCase,
        limits: Limits,
        proof: str | None = None,
    ) -> Job:
        """A q job (Python tests are planned by ``python_tests.plan_test``)."""
        lim = _job_limits(limits)
        q = self._q_setup()
        # q reserves its workspace on top of the interpreter itself.
        lim["memory_mb"] = limits.memory_mb + self.config.q_workspace_mb
        env = {"QHOME": q.home}
        return {
            "kind": "exec",
            "argv": q.argv(self.config.q_workspace_mb),
            "files": {SCRIPT_NAME: build_script(program, test.code, proof)},
            "stdin": test.stdin or "",
            "env": env,
            "limits": lim,
        }

    def _q_setup(self) -> QSetup:
        """The q this sandbox runs (sandbox/q_engine.py); SandboxUnavailable if none."""
        cfg = self.config
        if self._python is None:
            self._python = probe_python(cfg.python)
        if not self._pykx_looked and cfg.q_engine is not QEngine.BINARY:
            self._pykx, self._pykx_looked = find_pykx(self._python.executable), True
        return choose_q(cfg.q_engine, cfg.q_bin, cfg.q_home, self._pykx, self._python)

    def _host(self) -> HostWork:
        """The host's worker processes: one per sandbox worker, up to the cores this
        process may run on."""
        with self._lock:
            if self._closed:
                raise SandboxUnavailable("sandbox is closed")
            if self._host_work is None:
                cores = len(os.sched_getaffinity(0))
                self._host_work = HostWork(min(max(1, self.config.workers), cores))
            return self._host_work

    def _pool(self, language: Language) -> WorkerPool:
        with self._lock:
            if self._closed:
                raise SandboxUnavailable("sandbox is closed")
            pool = self._pools.get(language)
            if pool is None:
                pool = WorkerPool(
                    self._spec(language), self.config.workers, self.config.recycle_after
                )
                self._pools[language] = pool
            return pool

    def _reference_pool(self) -> WorkerPool:
        with self._lock:
            if self._closed:
                raise SandboxUnavailable("sandbox is closed")
            if self._references is None:
                spec = self._spec(Language.PYTHON)
                spec = replace(spec, uid_base=spec.uid_base + REFERENCE_UID_OFFSET)
                self._references = WorkerPool(spec, self.config.workers, self.config.recycle_after)
            return self._references

    def _spec(self, language: Language) -> WorkerSpec:
        cfg = self.config
        if self._bwrap and not shutil.which(cfg.bwrap):
            raise SandboxUnavailable(
                f"bubblewrap ({cfg.bwrap}) is not installed: install bubblewrap, or set "
                "isolation=none to run code with rlimits and timeouts only (unsafe for "
                "untrusted code)"
            )
        if self._python is None:
            self._python = probe_python(cfg.python)
        info = self._python
        ro_paths = list(info.mount_paths())
        worker_cfg: WorkerConfig = {
            "scratch": SCRATCH,
            "preimport": list(PREIMPORT),
            "codec": CODEC_SOURCE,
            "remote": REMOTE_SOURCE,
        }
        license_dir: str | None = None
        if language is Language.Q:
            q = self._q_setup()
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
                    raise SandboxUnavailable(
                        f"{q.label} found ({q.home}), but {exc.reason}"
                    ) from exc
            license_dir = self._license.path
            ro_paths += q.mounts
            worker_cfg["qlic_src"], worker_cfg["qlic"] = QLIC_SRC, QLIC
        if not self._bwrap:
            if license_dir is not None:  # q: the worker copies the licence into its dir
                worker_cfg["qlic_src"], worker_cfg["qlic"] = license_dir, ""
            return WorkerSpec(
                prefix=(),
                python=info.executable,
                config=worker_cfg,
                drop_uid=self._as_root,
                uid_base=cfg.uid_base,
                host_scratch=True,
                bwrap=False,
            )
        worker_cfg["wipe"] = ["/dev/shm"]
        plan = BwrapPlan(
            cfg.bwrap,
            ro_paths=ro_paths,
            tmpfs_mb=cfg.tmpfs_mb,
            license_dir=license_dir,
            as_root=self._as_root,
        )
        # Python pool and q pool get distinct uid ranges so NPROC never mixes them.
        base = cfg.uid_base + (1000 if language is Language.Q else 0)
        return WorkerSpec(
            prefix=bwrap_argv(plan),
            python=info.executable,
            config=worker_cfg,
            drop_uid=self._as_root,
            uid_base=base,
        )

    def _q_status(self) -> QStatus:
        if self._q_version is not None:
            return QStatus(available=True, version=self._q_version)
        try:
            pool = self._pool(Language.Q)
            probe = TestCase(code=_Q_VERSION_SCRIPT)
            raw = pool.run(self._job(Language.Q, "", probe, Limits(wall_s=5.0)), 5.0)
        except SandboxUnavailable as exc:
            return QStatus(available=False, reason=exc.reason)
        outcome = classify(Language.Q, probe, raw, Limits(wall_s=5.0))
        if outcome.exit_code != 0 or outcome.failure.value not in ("none",):
            return QStatus(available=False, reason=outcome.detail)
        self._q_version = outcome.stdout.strip()
        label = self._q_setup().label
        if label:  # "4.1 2025.02.18 (pykx 4.2.0)"
            self._q_version += f" ({label})"
        return QStatus(
            available=True,
            version=self._q_version,
            warning=(self._license.warning or None) if self._license else None,
        )


def _job_limits(limits: Limits) -> JobLimits:
    return {
        "wall_s": limits.wall_s,
        "cpu_s": limits.cpu_s,
        "memory_mb": limits.memory_mb,
        "max_processes": limits.max_processes,
        "max_output_bytes": limits.max_output_bytes,
        "max_file_bytes": limits.max_file_bytes,
        "max_open_files": limits.max_open_files,
    }
