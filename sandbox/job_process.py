"""What the worker and every process of a job share: the job's descriptors, its rlimits
and the ``prctl`` calls that protect the worker and the test process.

Stdlib only: shipped to the worker as source (``sandbox/worker_main.py``).
"""

import ctypes
import math
import resource

from .frames import JobLimits

PR_SET_NAME = 15
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1
# The job's report channel: the harness writes the test's values (or its completion proof)
# here, never to stdout, so nothing the program prints can pass for them.
REPORT_FD = 3
# An opaque test's sealed part (its code and nonce) reaches the job on this descriptor, and
# only the test process keeps it open (see ``python_harness.OpaqueTest``).
SEALED_FD = 4


def prctl(option: int, arg: int | bytes) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(option, arg, 0, 0, 0)


def set_limits(limits: JobLimits) -> None:
    cpu = max(1, math.ceil(limits["cpu_s"]))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    mem = limits["memory_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["max_open_files"],) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["max_file_bytes"],) * 2)
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["max_processes"],) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
