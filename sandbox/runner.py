"""The Sandbox: the public entry point the service calls.

It owns what every language shares (the warm worker pools and their bubblewrap plan, the
fair scheduler, the sandbox's Python) and hands each ``run_tests`` to its language's runner
(``sandbox/languages.py``).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Awaitable, Callable, Hashable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from . import remote_calls, value_codec
from .bwrap import QLIC, QLIC_SRC, SCRATCH, BwrapPlan, bwrap_argv
from .config import SandboxConfig
from .errors import SandboxUnavailable
from .frames import Job, Reply, WorkerConfig
from .interpreter import PythonInfo, probe_python
from .language_runner import Turn, WorkerSetup
from .languages import start_runners
from .models import Isolation, Language, Limits, TestCase, TestOutcome
from .pool import WorkerPool, WorkerSpec
from .q_runner import QRunner
from .reaper import become_subreaper
from .scheduler import FairScheduler, current_flow
from .status import IsolationStatus, PoolStatus, PythonStatus, SandboxStatus

CODEC_SOURCE = Path(value_codec.__file__).read_text(encoding="utf-8")
REMOTE_SOURCE = Path(remote_calls.__file__).read_text(encoding="utf-8")
T = TypeVar("T")

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
        self._other_pools: list[WorkerPool] = []  # a runner's own (Python's reference runs)
        self._python: PythonInfo | None = None
        self._closed = False
        self._executor = ThreadPoolExecutor(
            max_workers=max(1, config.workers), thread_name_prefix="sandbox"
        )
        # Jobs go round-robin across requests (sandbox/scheduler.py), not first come first served.
        self._scheduler = FairScheduler(
            max(1, config.workers), on_wait=on_queue_wait, on_flow_wait=on_request_queue_wait
        )
        self._runners = start_runners(_Workers(self))
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

        def run(job: Job) -> asyncio.Future[Reply]:
            return self._submit(flow, pool, job, limits.wall_s)

        return await self._runners[language].run_tests(program, tests, limits, Turn(flow, run))

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
        await self._runners[Language.PYTHON].warm()

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
        q = self._runners[Language.Q]
        assert isinstance(q, QRunner)
        return SandboxStatus(
            isolation=isolation,
            python=python,
            q=q.status(lambda: self._pool(Language.Q)),
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
            pools = [*self._pools.values(), *self._other_pools]
        for pool in pools:
            pool.close()
        for runner in self._runners.values():
            runner.close()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._scheduler.shutdown()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals

    @property
    def _bwrap(self) -> bool:
        return self.config.isolation is Isolation.BWRAP

    def _python_info(self) -> PythonInfo:
        if self._python is None:
            self._python = probe_python(self.config.python)
        return self._python

    def _submit(
        self, flow: Hashable, pool: WorkerPool, job: Job, wall_s: float
    ) -> asyncio.Future[Reply]:
        return asyncio.wrap_future(
            self._scheduler.submit(flow, pool.run, job, wall_s), loop=asyncio.get_running_loop()
        )

    def _pool(self, language: Language) -> WorkerPool:
        with self._lock:
            if self._closed:
                raise SandboxUnavailable("sandbox is closed")
            pool = self._pools.get(language)
            if pool is None:
                spec = self._spec(language)
                pool = WorkerPool(spec, self.config.workers, self.config.recycle_after)
                self._pools[language] = pool
            return pool

    def _other_pool(self, language: Language, uid_shift: int) -> WorkerPool:
        with self._lock:
            if self._closed:
                raise SandboxUnavailable("sandbox is closed")
            spec = self._spec(language)
            spec = replace(spec, uid_base=spec.uid_base + uid_shift)
            pool = WorkerPool(spec, self.config.workers, self.config.recycle_after)
            self._other_pools.append(pool)
            return pool

    def _spec(self, language: Language) -> WorkerSpec:
        cfg = self.config
        if self._bwrap and not shutil.which(cfg.bwrap):
            raise SandboxUnavailable(
                f"bubblewrap ({cfg.bwrap}) is not installed: install bubblewrap, or set "
                "isolation=none to run code with rlimits and timeouts only (unsafe for "
                "untrusted code)"
            )
        info = self._python_info()
        ro_paths = list(info.mount_paths())
        worker_cfg: WorkerConfig = {
            "scratch": SCRATCH,
            "preimport": list(PREIMPORT),
            "codec": CODEC_SOURCE,
            "remote": REMOTE_SOURCE,
        }
        setup: WorkerSetup = self._runners[language].worker_setup()
        license_dir = setup.license_dir
        ro_paths += setup.mounts
        if license_dir is not None:
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
        # Each language's pool gets a uid range of its own so NPROC never mixes them.
        return WorkerSpec(
            prefix=bwrap_argv(plan),
            python=info.executable,
            config=worker_cfg,
            drop_uid=self._as_root,
            uid_base=cfg.uid_base + setup.uid_offset,
        )


class _Workers:
    """What the sandbox lends its language runners (``language_runner.Workers``)."""

    def __init__(self, sandbox: Sandbox) -> None:
        self._sandbox = sandbox

    @property
    def config(self) -> SandboxConfig:
        return self._sandbox.config

    def python(self) -> PythonInfo:
        return self._sandbox._python_info()

    def pool(self, language: Language, uid_shift: int) -> WorkerPool:
        return self._sandbox._other_pool(language, uid_shift)

    def submit(self, flow: Hashable, pool: WorkerPool, job: Job, wall_s: float) -> Awaitable[Reply]:
        return self._sandbox._submit(flow, pool, job, wall_s)

    def blocking(self, call: Callable[[], T]) -> Awaitable[T]:
        loop = asyncio.get_running_loop()
        return loop.run_in_executor(self._sandbox._executor, call)
